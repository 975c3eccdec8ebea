/* rt_perf.h: perf_event_open, its mmap'd sample ring and the reader of the ring's records, and what this machine's PMU and permissions allow. */
#ifndef OMPNUMA_RT_PERF_H
#define OMPNUMA_RT_PERF_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One PERF_RECORD_SAMPLE, the fields the runtime uses; a field whose
 * sample_type bit was not asked for is 0. */
typedef struct rt_perf_sample {
    uint32_t pid, tid;       /* PERF_SAMPLE_TID */
    uint64_t ip;             /* PERF_SAMPLE_IP */
    uint64_t time;           /* PERF_SAMPLE_TIME */
    uint64_t addr;           /* PERF_SAMPLE_ADDR: the data address */
    uint32_t cpu;            /* PERF_SAMPLE_CPU */
    uint64_t period;         /* PERF_SAMPLE_PERIOD */
    uint64_t weight;         /* PERF_SAMPLE_WEIGHT (or the struct's first word) */
    uint64_t data_src;       /* PERF_SAMPLE_DATA_SRC (union perf_mem_data_src) */
    uint64_t phys_addr;      /* PERF_SAMPLE_PHYS_ADDR */
} rt_perf_sample_t;

/* What a pass over a ring found, added to by each pass. */
typedef struct rt_perf_stats {
    uint64_t samples;        /* PERF_RECORD_SAMPLE records handed to the callback */
    uint64_t lost;           /* records the kernel dropped because the ring was full (PERF_RECORD_LOST) */
    uint64_t other;          /* records of other types, skipped */
    uint64_t bad;            /* passes cut short by a record that cannot be (size 0, beyond head, short sample) */
} rt_perf_stats_t;

typedef void (*rt_perf_sample_fn)(const rt_perf_sample_t *s, void *ctx);

/* The sample_type bits the reader can parse: every fixed-size field. READ,
 * CALLCHAIN, RAW, BRANCH_STACK, REGS_*, STACK_USER and AUX are not. */
#define RT_PERF_SAMPLE_SUPPORTED                                                                       \
    (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |   \
     PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT | \
     PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |  \
     PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)

/*
 * The reader, on memory: the records between tail and head (free-running
 * byte counters, as the kernel's data_tail and data_head) of a ring of
 * `size` bytes (a power of two) at `data`. A record that runs past the
 * ring's end continues at its start. Each sample is parsed with
 * `sample_type` (a subset of RT_PERF_SAMPLE_SUPPORTED) and handed to fn;
 * PERF_RECORD_LOST adds its count to st->lost. Returns the new tail: head,
 * also when a record that cannot be is met (st->bad), since nothing after it
 * can be trusted. Makes no system call: tests hand it rings they wrote.
 */
uint64_t rt_perf_parse(const unsigned char *data, uint64_t size, uint64_t tail, uint64_t head,
                       uint64_t sample_type, rt_perf_sample_fn fn, void *ctx, rt_perf_stats_t *st);

/* perf_event_open(2) for thread tid (0: the caller) on any CPU. fd or -1 with errno. */
int rt_perf_open(const struct perf_event_attr *attr, pid_t tid);
/* The same, counting only while the thread runs on CPU cpu (-1: any). An
 * inherited event (attr->inherit) can have a ring only this way: the
 * threads that inherit it write into the ring of their CPU's event. */
int rt_perf_open_on(const struct perf_event_attr *attr, pid_t tid, int cpu);
int rt_perf_enable(int fd);
int rt_perf_disable(int fd);

/* An event's ring: one metadata page and data_pages (a power of two) of data. */
typedef struct rt_perf_ring {
    int            fd;
    void          *base;     /* the mapping: struct perf_event_mmap_page first */
    size_t         bytes;
    unsigned char *data;
    uint64_t       size;
} rt_perf_ring_t;

/* Map fd's ring. 0, or -1 with errno. */
int rt_perf_ring_map(int fd, unsigned data_pages, rt_perf_ring_t *ring);
/* Unmap it and close its fd. */
void rt_perf_ring_close(rt_perf_ring_t *ring);
/* Parse what the kernel wrote since the last drain and give the space back
 * (data_tail). Returns the bytes consumed. */
uint64_t rt_perf_ring_drain(rt_perf_ring_t *ring, uint64_t sample_type, rt_perf_sample_fn fn, void *ctx,
                            rt_perf_stats_t *st);

/*
 * Hardware events that sample data addresses, from sysfs:
 *   "mem-loads"  Intel PEBS load latency: cpu/events/mem-loads, its terms
 *                placed by cpu/format/<term>; ldlat (config1) is set to
 *                `ldlat` cycles when the PMU has the term.
 *   "ibs_op"     AMD IBS op sampling: ibs_op/type, config 0.
 * Fills attr->type, config, config1 (the caller sets the rest). 0, or -1
 * with a one-line reason in why.
 */
int rt_perf_hw_event(const char *name, unsigned ldlat, struct perf_event_attr *attr, char *why, size_t len);

/* /proc/sys/kernel/perf_event_paranoid, or INT32_MIN when unreadable. */
int rt_perf_paranoid(void);
/* When e (perf_event_open's errno) is a refusal, appends to the reason in
 * why the setting and what would allow it: CAP_PERFMON, or
 * perf_event_paranoid <= 2 (<= 1 for an event that cannot exclude the
 * kernel, kernel_too). */
void rt_perf_permission_hint(int e, char *why, size_t len, int kernel_too);
/* Whether the calling thread has capability bit cap (CAP_PERFMON = 38,
 * CAP_SYS_ADMIN = 21) in its effective set. */
int rt_perf_has_cap(int cap);
/* One line: which address-sampling PMU exists, perf_event_paranoid,
 * CAP_PERFMON, and whether software page-fault events with addresses open. */
void rt_perf_describe(char *buf, size_t len);

#endif
