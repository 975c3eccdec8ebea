/* rt_perf.c: perf_event_open, the sample ring (mapping, reader, data_tail) and the PMU's address-sampling events from sysfs. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_perf.h"

#define PMU_DIR "/sys/bus/event_source/devices"

/* ---- the reader: pure, on memory ---- */

/* n bytes at free-running position pos of the ring, continuing at its start. */
static void ring_copy(const unsigned char *data, uint64_t size, uint64_t pos, void *dst, size_t n)
{
    uint64_t off = pos & (size - 1);
    size_t first = (size_t)(size - off) < n ? (size_t)(size - off) : n;
    memcpy(dst, data + off, first);
    if (first < n)
        memcpy((unsigned char *)dst + first, data, n - first);
}

static uint64_t ring_u64(const unsigned char *data, uint64_t size, uint64_t pos)
{
    uint64_t v;
    ring_copy(data, size, pos, &v, sizeof v);
    return v;
}

/* The sample at pos (header excluded), bytes long. 0, or -1 when the
 * fields asked for do not fit in the record. */
static int parse_sample(const unsigned char *data, uint64_t size, uint64_t pos, uint64_t bytes,
                        uint64_t type, rt_perf_sample_t *s)
{
    uint64_t end = pos + bytes;
    memset(s, 0, sizeof *s);
    /* Fields in the kernel's order (perf_output_sample); every one is 8 bytes. */
#define FIELD(bit, stmt)                                                                                   \
    if (type & (bit)) {                                                                                    \
        if (pos + 8 > end)                                                                                 \
            return -1;                                                                                     \
        uint64_t v = ring_u64(data, size, pos);                                                            \
        stmt;                                                                                              \
        pos += 8;                                                                                          \
    }
    FIELD(PERF_SAMPLE_IDENTIFIER, (void)v)
    FIELD(PERF_SAMPLE_IP, s->ip = v)
    FIELD(PERF_SAMPLE_TID, (s->pid = (uint32_t)v, s->tid = (uint32_t)(v >> 32)))
    FIELD(PERF_SAMPLE_TIME, s->time = v)
    FIELD(PERF_SAMPLE_ADDR, s->addr = v)
    FIELD(PERF_SAMPLE_ID, (void)v)
    FIELD(PERF_SAMPLE_STREAM_ID, (void)v)
    FIELD(PERF_SAMPLE_CPU, s->cpu = (uint32_t)v)
    FIELD(PERF_SAMPLE_PERIOD, s->period = v)
    FIELD(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, s->weight = v)
    FIELD(PERF_SAMPLE_DATA_SRC, s->data_src = v)
    FIELD(PERF_SAMPLE_TRANSACTION, (void)v)
    FIELD(PERF_SAMPLE_PHYS_ADDR, s->phys_addr = v)
    FIELD(PERF_SAMPLE_CGROUP, (void)v)
    FIELD(PERF_SAMPLE_DATA_PAGE_SIZE, (void)v)
    FIELD(PERF_SAMPLE_CODE_PAGE_SIZE, (void)v)
#undef FIELD
    return 0;
}

uint64_t rt_perf_parse(const unsigned char *data, uint64_t size, uint64_t tail, uint64_t head,
                       uint64_t sample_type, rt_perf_sample_fn fn, void *ctx, rt_perf_stats_t *st)
{
    /* A writer never gets more than a ring ahead: anything else is not a ring. */
    if (!size || (size & (size - 1)) || head - tail > size || (sample_type & ~(uint64_t)RT_PERF_SAMPLE_SUPPORTED)) {
        st->bad++;
        return head;
    }
    while (tail != head) {
        struct perf_event_header h;
        if (head - tail < sizeof h) {
            st->bad++;
            return head;
        }
        ring_copy(data, size, tail, &h, sizeof h);
        if (h.size < sizeof h || h.size > head - tail) {
            st->bad++;
            return head;
        }
        uint64_t body = tail + sizeof h, bytes = h.size - sizeof h;
        if (h.type == PERF_RECORD_SAMPLE) {
            rt_perf_sample_t s;
            if (parse_sample(data, size, body, bytes, sample_type, &s) != 0) {
                st->bad++;
                return head;
            }
            st->samples++;
            if (fn)
                fn(&s, ctx);
        } else if (h.type == PERF_RECORD_LOST && bytes >= 16) {
            st->lost += ring_u64(data, size, body + 8); /* { u64 id; u64 lost; } */
        } else {
            st->other++;
        }
        tail += h.size;
    }
    return tail;
}

/* ---- the event and its ring ---- */

int rt_perf_open(const struct perf_event_attr *attr, pid_t tid)
{
    return rt_perf_open_on(attr, tid, -1);
}

int rt_perf_open_on(const struct perf_event_attr *attr, pid_t tid, int cpu)
{
    return (int)syscall(SYS_perf_event_open, attr, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int rt_perf_enable(int fd)
{
    return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

int rt_perf_disable(int fd)
{
    return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

int rt_perf_ring_map(int fd, unsigned data_pages, rt_perf_ring_t *ring)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (!data_pages || (data_pages & (data_pages - 1))) {
        errno = EINVAL;
        return -1;
    }
    size_t bytes = (1 + (size_t)data_pages) * page;
    void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        return -1;
    struct perf_event_mmap_page *meta = base;
    ring->fd = fd;
    ring->base = base;
    ring->bytes = bytes;
    /* data_offset and data_size exist since Linux 4.1; before, data follows the first page. */
    ring->data = (unsigned char *)base + (meta->data_offset ? meta->data_offset : page);
    ring->size = meta->data_size ? meta->data_size : (uint64_t)data_pages * page;
    return 0;
}

void rt_perf_ring_close(rt_perf_ring_t *ring)
{
    if (ring->base)
        munmap(ring->base, ring->bytes);
    if (ring->fd >= 0)
        close(ring->fd);
    ring->base = NULL;
    ring->data = NULL;
    ring->fd = -1;
}

uint64_t rt_perf_ring_drain(rt_perf_ring_t *ring, uint64_t sample_type, rt_perf_sample_fn fn, void *ctx,
                            rt_perf_stats_t *st)
{
    struct perf_event_mmap_page *meta = ring->base;
    if (!meta)
        return 0;
    /* The kernel publishes data_head after the records it covers; we give
     * space back through data_tail once they are read. */
    uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = __atomic_load_n(&meta->data_tail, __ATOMIC_RELAXED);
    uint64_t next = rt_perf_parse(ring->data, ring->size, tail, head, sample_type, fn, ctx, st);
    __atomic_store_n(&meta->data_tail, next, __ATOMIC_RELEASE);
    return next - tail;
}

/* ---- the PMU's events, from sysfs ---- */

static int read_line(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* Put value into attr where pmu/format/term says ("config1:0-15",
 * "config:0-7,32-35": the value's bits fill the ranges low first). */
static int place_term(const char *pmu, const char *term, uint64_t value, struct perf_event_attr *attr)
{
    char path[512], fmt[128];
    snprintf(path, sizeof path, PMU_DIR "/%s/format/%s", pmu, term);
    if (read_line(path, fmt, sizeof fmt) != 0)
        return -1;
    char *colon = strchr(fmt, ':');
    if (!colon)
        return -1;
    *colon = '\0';
    __u64 *field = !strcmp(fmt, "config") ? &attr->config : !strcmp(fmt, "config1") ? &attr->config1
                    : !strcmp(fmt, "config2") ? &attr->config2 : NULL;
    if (!field)
        return -1;
    for (char *r = colon + 1; *r;) {
        char *end;
        unsigned long lo = strtoul(r, &end, 10), hi = lo;
        if (end == r)
            return -1;
        if (*end == '-')
            hi = strtoul(end + 1, &end, 10);
        if (hi < lo || hi > 63)
            return -1;
        for (unsigned long b = lo; b <= hi; b++, value >>= 1)
            *field = (*field & ~(1ull << b)) | ((value & 1) << b);
        r = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return 0;
}

static int pmu_type(const char *pmu, uint32_t *type)
{
    char path[256], buf[32];
    snprintf(path, sizeof path, PMU_DIR "/%s/type", pmu);
    if (read_line(path, buf, sizeof buf) != 0)
        return -1;
    *type = (uint32_t)strtoul(buf, NULL, 10);
    return 0;
}

int rt_perf_hw_event(const char *name, unsigned ldlat, struct perf_event_attr *attr, char *why, size_t len)
{
    attr->config = attr->config1 = attr->config2 = 0;
    if (!strcmp(name, "ibs_op")) {
        if (pmu_type("ibs_op", &attr->type) != 0) {
            snprintf(why, len, "no AMD IBS op (ibs_op)");
            return -1;
        }
        return 0;
    }
    if (strcmp(name, "mem-loads") != 0) {
        snprintf(why, len, "unknown event %s", name);
        return -1;
    }
    char terms[256];
    if (pmu_type("cpu", &attr->type) != 0 || read_line(PMU_DIR "/cpu/events/mem-loads", terms, sizeof terms) != 0) {
        snprintf(why, len, "no Intel PEBS load latency (cpu/events/mem-loads)");
        return -1;
    }
    /* "event=0xcd,umask=0x1,ldlat=3": each term placed by its format file. */
    char *save = NULL;
    for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        uint64_t v = 1;
        if (eq) {
            *eq = '\0';
            v = strtoull(eq + 1, NULL, 0);
        }
        if (!strcmp(t, "ldlat"))
            continue; /* ours below */
        if (place_term("cpu", t, v, attr) != 0) {
            snprintf(why, len, "cpu/events/mem-loads term %s has no usable cpu/format/%s", t, t);
            return -1;
        }
    }
    char path[128];
    snprintf(path, sizeof path, PMU_DIR "/cpu/format/ldlat");
    if (access(path, R_OK) == 0 && place_term("cpu", "ldlat", ldlat, attr) != 0) {
        snprintf(why, len, "cpu/format/ldlat is not understood");
        return -1;
    }
    return 0;
}

int rt_perf_paranoid(void)
{
    char buf[32];
    if (read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof buf) != 0)
        return INT32_MIN;
    return (int)strtol(buf, NULL, 10);
}

int rt_perf_has_cap(int cap)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return 0;
    char line[256];
    unsigned long long eff = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "CapEff: %llx", &eff) == 1)
            break;
    fclose(f);
    return cap >= 0 && cap < 64 && ((eff >> cap) & 1);
}

void rt_perf_permission_hint(int e, char *why, size_t len, int kernel_too)
{
    size_t n = strlen(why);
    if (e != EACCES && e != EPERM)
        return;
    snprintf(why + n, len - n, " (perf_event_paranoid=%d; needs CAP_PERFMON or perf_event_paranoid <= %d)",
             rt_perf_paranoid(), kernel_too ? 1 : 2);
}

void rt_perf_describe(char *buf, size_t len)
{
    struct perf_event_attr attr;
    char why[160];
    memset(&attr, 0, sizeof attr);
    const char *pmu = rt_perf_hw_event("mem-loads", 30, &attr, why, sizeof why) == 0 ? "Intel PEBS mem-loads"
                    : rt_perf_hw_event("ibs_op", 0, &attr, why, sizeof why) == 0 ? "AMD IBS op"
                    : "none (no cpu/events/mem-loads, no ibs_op)";
    /* The software event the reader's tests use: does it open here? */
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_PAGE_FAULTS;
    attr.sample_period = 1;
    attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    int fd = rt_perf_open(&attr, 0);
    int sw_errno = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    int paranoid = rt_perf_paranoid();
    char par[32];
    if (paranoid == INT32_MIN)
        snprintf(par, sizeof par, "unreadable");
    else
        snprintf(par, sizeof par, "%d", paranoid);
    int perfmon = rt_perf_has_cap(38) || rt_perf_has_cap(21);
    int ibs = pmu[0] == 'A';
    /* User-space sampling of one's own threads needs paranoid <= 2; IBS
     * cannot exclude the kernel, which needs <= 1; CAP_PERFMON (or
     * CAP_SYS_ADMIN) lifts both. */
    const char *missing = perfmon ? "nothing (CAP_PERFMON)"
                        : paranoid == INT32_MIN ? "unknown (perf_event_paranoid unreadable)"
                        : paranoid > 2 ? "CAP_PERFMON or perf_event_paranoid <= 2"
                        : ibs && paranoid > 1 ? "for IBS: CAP_PERFMON or perf_event_paranoid <= 1"
                        : "nothing for user-space sampling of this process";
    snprintf(buf, len, "address-sampling PMU: %s; perf_event_paranoid=%s; permission missing: %s; "
             "software page-fault samples: %s%s",
             pmu, par, missing, fd >= 0 ? "open" : "refused: ", fd >= 0 ? "" : strerror(sw_errno));
}
