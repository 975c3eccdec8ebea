/* rt_src_perf.c: the perf counter source: per-thread sampling of data addresses (PEBS load latency, AMD IBS op, or for testing software page faults), node of each sampled page, added to the TNT. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_log.h"
#include "rt_sys.h"
#include "rt_perf.h"
#include "rt_settings.h"
#include "rt_sources.h"
#include "rt_topology.h"

/*
 * How it works. Each thread that takes part in a sampled execution gets one
 * perf event of its own (pid = the thread, cpu = any) with a ring of
 * RING_PAGES pages, opened the first time it is needed and kept for the
 * thread's life: the thread enables it at its thread_begin of a sampled
 * execution; the primary disables every team member's event at region_end,
 * reads their rings, asks the kernel where the sampled pages are (one
 * move_pages query per BATCH addresses) and adds one reference per sample
 * to the sampled thread's row.
 *
 * Why kept open rather than opened per sampled execution: opening costs a
 * perf_event_open, an mmap of the ring (and the kernel's allocation of its
 * pages), and closing an munmap and a close, per thread and per execution,
 * while enabling and disabling are one ioctl each: 150 us against 2.1 us
 * per thread and execution (median of 1000, software event, this project's
 * machine: benchmarks/sources/perf_event_cost.c). The price is a ring per
 * thread that ever took part (RING_PAGES + 1 pages) and one descriptor.
 *
 * Events, as chosen by probe:
 *   PEBS load latency  cpu/events/mem-loads with ldlat = LDLAT cycles,
 *                      precise_ip 2 (1 when refused), every PEBS_PERIOD-th
 *                      qualifying load; user space only.
 *   AMD IBS op         ibs_op, every IBS_PERIOD-th op; IBS cannot exclude
 *                      the kernel, so it needs CAP_PERFMON or
 *                      perf_event_paranoid <= 1.
 *   page faults        (perf_event=page-faults, for testing) the kernel's
 *                      software event, every fault, user space: a thread's
 *                      first touches, with their addresses. The whole reader
 *                      and the attribution are exercised through it.
 * sample_type: TID | ADDR | CPU, with DATA_SRC | WEIGHT for the hardware
 * events and PHYS_ADDR when the kernel allows it (the node still comes from
 * move_pages: a page may have moved since its physical address was taken).
 *
 * One execution is sampled at a time (the first team armed; a nested team
 * or another root thread's team meanwhile is not), as with pagefault. A
 * ring that filled up before region_end drops records: the kernel says how
 * many (PERF_RECORD_LOST) and the verbose log reports them.
 *
 * Topologies that are not this machine's: node numbers of pages mean
 * nothing there, so only the page-fault event works, and its samples count
 * on the node of the CPU that took the fault (first touch places the page
 * there); hardware events are refused.
 */

#define RING_PAGES 16             /* 64 KiB of records: 2 048 page-fault samples, 1 024 PEBS ones */
#define MAX_THREADS 1024          /* threads with an event */
#define MAX_TEAM 1024
#define BATCH 512                 /* addresses per move_pages query */
#define LDLAT 30                  /* cycles: loads slower than L1/L2 hits (perf mem's default) */
#define PEBS_PERIOD 1000
#define IBS_PERIOD 65536          /* IBS counts ops in units of 16 */

typedef struct thread_ev {
    pid_t          tid;           /* 0: free */
    rt_perf_ring_t ring;
} thread_ev_t;

typedef struct state {
    thread_ev_t ev[MAX_THREADS];
    int         team_ev[MAX_TEAM];  /* armed team: event of each thread index, -1 */
    pid_t       team_tid[MAX_TEAM];
    void       *page[BATCH];        /* samples waiting for their node */
    int         thread[BATCH];
    int         cpu[BATCH];
    int         status[BATCH];
    int         nbatch;
} state_t;

static struct perf_event_attr attr;  /* the chosen event, disabled */
static const char *event_name = "";
static int emulate;
static uint64_t page_mask;
static state_t *st;
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;  /* event slots */
static __thread int my_ev = -1;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;     /* arming */
static int armed;
static const void *armed_code;
static int armed_parent;
static pid_t armed_by;
static const void *armed_team;
static int armed_size;

static void base_attr(struct perf_event_attr *a)
{
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->disabled = 1;
    a->exclude_kernel = 1;
    a->exclude_hv = 1;
    a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU;
}

/* Whether a opens on the calling thread; errno when not. */
static int opens(const struct perf_event_attr *a)
{
    int fd = rt_perf_open(a, 0);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

static int probe_hw(char *why, size_t len)
{
    struct perf_event_attr a;
    char no_pebs[160], no_ibs[160];
    base_attr(&a);
    a.sample_type |= PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT;
    if (rt_perf_hw_event("mem-loads", LDLAT, &a, no_pebs, sizeof no_pebs) == 0) {
        a.sample_period = PEBS_PERIOD;
        event_name = "PEBS mem-loads";
        a.precise_ip = 2;
        if (!opens(&a) && errno == EOPNOTSUPP)
            a.precise_ip = 1;
    } else if (rt_perf_hw_event("ibs_op", 0, &a, no_ibs, sizeof no_ibs) == 0) {
        a.sample_period = IBS_PERIOD;
        a.exclude_kernel = 0;
        a.exclude_hv = 0;
        event_name = "AMD IBS op";
    } else {
        snprintf(why, len, "no PMU with load addresses: %s, %s", no_pebs, no_ibs);
        return -1;
    }
    if (!rt_topo_is_kernels(&rt_mach->topo)) {
        snprintf(why, len, "the topology is not this machine's: the nodes of sampled pages mean nothing there");
        return -1;
    }
    struct perf_event_attr with_phys = a;
    with_phys.sample_type |= PERF_SAMPLE_PHYS_ADDR;
    if (opens(&with_phys)) {
        attr = with_phys;
        return 0;
    }
    if (!opens(&a)) {
        int e = errno;
        snprintf(why, len, "%s exists but perf_event_open refused it: %s", event_name, strerror(e));
        rt_perf_permission_hint(e, why, len, a.exclude_kernel == 0);
        return -1;
    }
    attr = a;
    return 0;
}

static int probe(char *why, size_t len)
{
    if (rt_conf->perf_event == RT_PERF_EVENT_PAGE_FAULTS) {
        struct perf_event_attr a;
        base_attr(&a);
        a.type = PERF_TYPE_SOFTWARE;
        a.config = PERF_COUNT_SW_PAGE_FAULTS;
        a.sample_period = 1;
        if (!opens(&a)) {
            int e = errno;
            snprintf(why, len, "perf_event_open(page-faults) failed: %s", strerror(e));
            rt_perf_permission_hint(e, why, len, 0);
            return -1;
        }
        attr = a;
        event_name = "software page-faults";
        return 0;
    }
    return probe_hw(why, len);
}

static void *own_map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void start(void)
{
    st = own_map(sizeof *st);
    if (!st) {
        rt_warn("perf source: cannot map its tables: %s; no references sampled", strerror(errno));
        return;
    }
    for (int i = 0; i < MAX_TEAM; i++)
        st->team_ev[i] = -1;
    page_mask = ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
    emulate = !rt_topo_is_kernels(&rt_mach->topo);
    rt_verbose(1, "perf source: %s, %s", event_name,
               emulate ? "first touch emulated: a sample counts on its CPU's node" : "node of each page from move_pages");
}

/* ---- the calling thread's event, opened at its first sampled execution ---- */

static int thread_gone(pid_t tid)
{
    return rt_tgkill(tid, 0) != 0 && errno == ESRCH;
}

static int my_event(void)
{
    pid_t me = rt_gettid();
    if (my_ev >= 0 && st->ev[my_ev].tid == me)
        return my_ev;
    pthread_mutex_lock(&ev_lock);
    int slot = -1;
    for (int i = 0; i < MAX_THREADS && slot < 0; i++)
        if (!st->ev[i].tid)
            slot = i;
    /* Full: the events of threads that exited are given back. */
    for (int i = 0; i < MAX_THREADS && slot < 0; i++)
        if (thread_gone(st->ev[i].tid)) {
            rt_perf_ring_close(&st->ev[i].ring);
            st->ev[i].tid = 0;
            slot = i;
        }
    int fd = slot >= 0 ? rt_perf_open(&attr, 0) : -1;
    if (fd >= 0 && rt_perf_ring_map(fd, RING_PAGES, &st->ev[slot].ring) != 0) {
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        rt_verbose(1, "perf source: thread %d gets no event: %s", (int)me,
                   slot < 0 ? "every event slot is taken" : strerror(errno));
        pthread_mutex_unlock(&ev_lock);
        return -1;
    }
    st->ev[slot].tid = me;
    my_ev = slot;
    pthread_mutex_unlock(&ev_lock);
    return slot;
}

/* ---- arm, enable, read ---- */

static void region_begin(const rt_sample_t *s, const void *team)
{
    if (!st || s->team_size > MAX_TEAM)
        return;
    pthread_mutex_lock(&lock);
    if (!armed) {
        armed_code = s->codeptr;
        armed_parent = s->parent_id;
        armed_team = team;
        armed_size = s->team_size;
        armed_by = rt_gettid();
        for (int i = 0; i < s->team_size; i++) {
            st->team_ev[i] = -1;
            st->team_tid[i] = 0;
        }
        __atomic_store_n(&armed, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
}

static void thread_begin(const rt_sample_t *s, int index, const void *team)
{
    if (!st || !__atomic_load_n(&armed, __ATOMIC_ACQUIRE) || team != armed_team || s->codeptr != armed_code ||
        s->parent_id != armed_parent || index < 0 || index >= armed_size)
        return;
    int e = my_event();
    st->team_tid[index] = rt_gettid();
    __atomic_store_n(&st->team_ev[index], e, __ATOMIC_RELEASE);
    if (e >= 0)
        rt_perf_enable(st->ev[e].ring.fd);
}

typedef struct reading {
    const rt_sample_t *s;
    int                index;   /* the ring's thread */
    uint64_t          *added;
    uint64_t           unplaced;
} reading_t;

static void count(const rt_sample_t *s, int t, int node, const void *page, uint64_t *added)
{
    if (node < 0 || node >= s->nnodes || t < 0 || t >= s->team_size)
        return;
    if (s->addrs)
        rt_addr_log_add(s->addrs, (uint64_t)(uintptr_t)page, t, node);
    s->tnt[(size_t)t * (size_t)s->nnodes + (size_t)node]++;
    if (s->samples)
        s->samples[t]++;
    (*added)++;
}

static void flush(reading_t *rd)
{
    int n = st->nbatch;
    st->nbatch = 0;
    if (!n || !rd->s->record)
        return;
    if (emulate) {
        for (int i = 0; i < n; i++)
            count(rd->s, st->thread[i], rt_topo_node_of_cpu(&rt_mach->topo, st->cpu[i]), st->page[i], rd->added);
        return;
    }
    if (rt_move_pages((unsigned long)n, st->page, NULL, st->status, 0) != 0) {
        rd->unplaced += (uint64_t)n;
        return;
    }
    for (int i = 0; i < n; i++) {
        int node = st->status[i] >= 0 ? rt_topo_node_of_os(&rt_mach->topo, st->status[i]) : -1;
        if (node < 0)
            rd->unplaced++;  /* unmapped since, or never backed (the zero page) */
        else
            count(rd->s, st->thread[i], node, st->page[i], rd->added);
    }
}

static void on_sample(const rt_perf_sample_t *smp, void *ctx)
{
    reading_t *rd = ctx;
    if (!smp->addr)
        return; /* a sample without a data address (PEBS gives 0 when it has none) */
    /* Per-thread events hold their thread's samples; the TID says so. */
    int t = rd->index;
    if (smp->tid != (uint32_t)st->team_tid[t]) {
        t = -1;
        for (int i = 0; i < armed_size && t < 0; i++)
            if ((uint32_t)st->team_tid[i] == smp->tid)
                t = i;
        if (t < 0)
            return;
    }
    st->page[st->nbatch] = (void *)(uintptr_t)(smp->addr & page_mask);
    st->thread[st->nbatch] = t;
    st->cpu[st->nbatch] = (int)smp->cpu;
    if (++st->nbatch == BATCH)
        flush(rd);
}

static int region_end(const rt_sample_t *s, uint64_t *added)
{
    if (!st || !__atomic_load_n(&armed, __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&lock);
    if (!armed || armed_by != rt_gettid() || armed_code != s->codeptr || armed_parent != s->parent_id) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    rt_perf_stats_t stats = {0};
    reading_t rd = {.s = s, .added = added};
    st->nbatch = 0;
    for (int i = 0; i < armed_size; i++) {
        int e = __atomic_load_n(&st->team_ev[i], __ATOMIC_ACQUIRE);
        if (e < 0)
            continue;
        rt_perf_disable(st->ev[e].ring.fd);
        rd.index = i;
        rt_perf_ring_drain(&st->ev[e].ring, attr.sample_type, on_sample, &rd, &stats);
        st->team_ev[i] = -1;
    }
    flush(&rd);
    __atomic_store_n(&armed, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
    rt_verbose(2, "perf: region %d: %llu samples, %llu lost, %llu without a node%s", s->id,
               (unsigned long long)stats.samples, (unsigned long long)stats.lost,
               (unsigned long long)rd.unplaced, stats.bad ? ", a malformed record" : "");
    if (stats.lost)
        rt_verbose(1, "perf: region %d: the kernel dropped %llu samples (a thread's ring of %d pages filled)",
                   s->id, (unsigned long long)stats.lost, RING_PAGES);
    return 1;
}

const rt_source_ops_t rt_source_perf = {
    .probe = probe,
    .start = start,
    .region_begin = region_begin,
    .thread_begin = thread_begin,
    .region_end = region_end,
    .intrusive = 0,
    .addresses = 1,
};
