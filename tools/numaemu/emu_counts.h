/* emu_counts.h: the plugin's ground truth: misses per vCPU x node, paced time and lag, per tagged interval, snapshots, and their JSON. */
#ifndef EMU_COUNTS_H
#define EMU_COUNTS_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define EMU_MAX_TAGS 256
#define EMU_TAG_IDS 4096
/* Paced lag is also kept per tenth of a second of paced time, for 30 minutes (the last tenth takes the rest). */
#define EMU_LAG_BIN_NS 100000000u
#define EMU_LAG_BINS 18000

/* Counters are updated with relaxed atomic adds and reset with atomic
 * stores: a vCPU thread, the control thread and a vCPU executing a reset
 * marker may touch them at once, and an add is never lost nor undoes a reset. */
struct emu_tag {
    uint32_t id;
    uint64_t entered;  /* intervals opened with this tag */
    uint64_t *misses;  /* vcpus x nodes */
    uint64_t *accesses; /* per vCPU */
    /* Paced emulation only (struct emu_pace_counts): per vCPU, and the host
     * time the tag was current (wall_ns, plus since while it is). */
    uint64_t *pace; /* EMU_PACE_FIELDS x vcpus */
    uint64_t wall_ns, since_ns;
};

/* Remote misses in tagged intervals, by the page of the virtual address:
 * which memory a program's remote traffic goes to (the guest's memory map
 * names the page; the address is the running process's). A table per vCPU,
 * written only by that vCPU's thread; a page that finds its probe run full
 * is counted in remote_pages_other. */
#define EMU_PAGE_SLOTS 4096
#define EMU_PAGE_PROBES 16
#define EMU_PAGES_SHOWN 16
struct emu_page {
    uint64_t page; /* vaddr >> 12, + 1 (0: a free slot) */
    uint64_t misses;
    uint64_t node;
};

/* What pacing counts per vCPU, in this order (emu_counts_pace). */
enum { EMU_PACE_INSNS, EMU_PACE_MODEL_NS, EMU_PACE_LAG_NS, EMU_PACE_WAIT_NS, EMU_PACE_FIELDS };

struct emu_counts {
    int vcpus, nodes;
    uint64_t *misses;   /* vcpus x nodes: user-mode misses of the cache model, by the memory's node */
    uint64_t *accesses; /* per vCPU: user-mode RAM accesses seen by the cache model */
    uint64_t *unmapped; /* per vCPU: misses on RAM outside every node range (should stay 0) */
    uint64_t *delay_ns; /* per vCPU: remote latency and bandwidth waits charged */
    uint64_t *bw_stalls; /* per node: misses that waited for the node's bandwidth */
    uint64_t *bw_wait_ns; /* per node: time they waited */
    int paced;            /* the pace members below exist and are written */
    uint64_t *pace;       /* EMU_PACE_FIELDS x vcpus: instructions, model time, lag forgiven, time waited */
    uint64_t paced_ns;    /* host time pacing was on (since reset), plus pace_since while it is */
    uint64_t pace_since;  /* when pacing was turned on, 0 while it is off */
    uint64_t *lag_bins;   /* vcpus x EMU_LAG_BINS: lag forgiven in each tenth of a second of paced time */
    struct emu_page *pages; /* vcpus x EMU_PAGE_SLOTS: remote misses in tagged intervals by page */
    uint64_t *pages_other;  /* per vCPU: those whose page found no slot */
    struct emu_tag tags[EMU_MAX_TAGS];
    int ntags;
    int16_t slot_of[EMU_TAG_IDS]; /* tag id -> slot + 1, 0 when unseen */
    int cur;                      /* slot of the current tag, -1 when untagged */
    uint64_t tags_dropped;        /* tag sets refused: more than EMU_MAX_TAGS distinct ids */
    pthread_mutex_t lock;         /* tag creation, snapshots, reset */
    char *snaps;                  /* JSON objects, comma-separated */
    size_t snaps_len;
    int nsnaps;
};

/* paced: also count instructions, model time and lag (emu_counts_pace). */
/* The host's monotonic clock, which the guest's clock follows, in ns. */
static inline uint64_t emu_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int emu_counts_init(struct emu_counts *k, int vcpus, int nodes, int paced);

static inline void emu_counts_access(struct emu_counts *k, int vcpu)
{
    __atomic_fetch_add(&k->accesses[vcpu], 1, __ATOMIC_RELAXED);
    int cur = __atomic_load_n(&k->cur, __ATOMIC_RELAXED);
    if (cur >= 0)
        __atomic_fetch_add(&k->tags[cur].accesses[vcpu], 1, __ATOMIC_RELAXED);
}

static inline void emu_counts_miss(struct emu_counts *k, int vcpu, int node)
{
    size_t at = (size_t)vcpu * (size_t)k->nodes + (size_t)node;
    __atomic_fetch_add(&k->misses[at], 1, __ATOMIC_RELAXED);
    int cur = __atomic_load_n(&k->cur, __ATOMIC_RELAXED);
    if (cur >= 0)
        __atomic_fetch_add(&k->tags[cur].misses[at], 1, __ATOMIC_RELAXED);
}

/* A user-mode remote miss of vcpu at vaddr, on node: counted by page while a tag is current. */
static inline void emu_counts_remote_page(struct emu_counts *k, int vcpu, uint64_t vaddr, int node)
{
    if (__atomic_load_n(&k->cur, __ATOMIC_RELAXED) < 0)
        return;
    uint64_t key = (vaddr >> 12) + 1;
    struct emu_page *t = k->pages + (size_t)vcpu * EMU_PAGE_SLOTS;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 52);
    for (int i = 0; i < EMU_PAGE_PROBES; i++) {
        struct emu_page *e = &t[(h + (size_t)i) % EMU_PAGE_SLOTS];
        uint64_t have = __atomic_load_n(&e->page, __ATOMIC_RELAXED);
        /* A free slot is claimed (a reset may be clearing the table meanwhile). */
        if (!have && __atomic_compare_exchange_n(&e->page, &have, key, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            have = key;
        if (have == key) {
            __atomic_store_n(&e->node, (uint64_t)node, __ATOMIC_RELAXED);
            __atomic_fetch_add(&e->misses, 1, __ATOMIC_RELAXED);
            return;
        }
    }
    __atomic_fetch_add(&k->pages_other[vcpu], 1, __ATOMIC_RELAXED);
}

static inline void emu_counts_add(uint64_t *counter, uint64_t n)
{
    __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

/* Add n to pace field f (EMU_PACE_*) of vcpu, in the totals and the current tag. */
static inline void emu_counts_pace(struct emu_counts *k, int vcpu, int f, uint64_t n)
{
    if (!n)
        return;
    size_t at = (size_t)f * (size_t)k->vcpus + (size_t)vcpu;
    __atomic_fetch_add(&k->pace[at], n, __ATOMIC_RELAXED);
    int cur = __atomic_load_n(&k->cur, __ATOMIC_RELAXED);
    if (cur >= 0)
        __atomic_fetch_add(&k->tags[cur].pace[at], n, __ATOMIC_RELAXED);
}

/* Lag of ns forgiven to vcpu at host time now: counted like emu_counts_pace's, and in its tenth of a second of paced time. */
void emu_counts_lag(struct emu_counts *k, int vcpu, uint64_t ns, uint64_t now);

/* Pacing turned on or off at host time now_ns: paced_ns counts the time it is on. */
void emu_counts_pacing(struct emu_counts *k, int on, uint64_t now_ns);

/* Make tag id current (0 ends tagging). */
void emu_counts_set_tag(struct emu_counts *k, uint32_t id);
void emu_counts_reset(struct emu_counts *k);
void emu_counts_snapshot(struct emu_counts *k);
/* The whole JSON document, config (a JSON object's members, without braces)
 * first; written to path.tmp, then renamed. 0, or -1 with errno. */
int emu_counts_write_file(struct emu_counts *k, const char *config, const char *path);

#endif
