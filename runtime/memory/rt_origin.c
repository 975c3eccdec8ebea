/* rt_origin.c: where memory was first touched: an inherited software page-fault event per CPU with a ring, read into a table of each page's first sampled fault when a report asks. */
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_origin.h"
#include "rt_perf.h"

#define RING_PAGES 32 /* per CPU, 128 KiB: 3 276 records of 40 bytes, 13 K first touches at one in 4 */
#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR)
#define EARLY 16      /* a range's earliest samples that vote for its first touch */

typedef struct touch {
    uint64_t page;   /* address >> page shift */
    uint64_t time;   /* the fault's (perf clock): the earliest of a page's faults is its first touch */
    uint64_t ip;
    pid_t    tid;
} touch_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int on;
static rt_perf_ring_t *ring; /* one per CPU of the process's affinity: an inherited event has no ring of
                                its own for every CPU (the kernel refuses), so each CPU's event has one */
static int nring;
static pid_t pid;
static unsigned page_shift;
static rt_perf_stats_t stats;
static touch_t *first;   /* one per page, sorted by page */
static size_t nfirst;
static touch_t *fresh;   /* read since the last merge */
static size_t nfresh, fresh_cap;

static void close_rings(void)
{
    for (int i = 0; i < nring; i++)
        rt_perf_ring_close(&ring[i]);
    free(ring);
    ring = NULL;
    nring = 0;
}

/* The event on one CPU, inherited by the threads created from now on (never
 * by a forked child where the kernel has inherit_thread, Linux 5.13; before,
 * a child's records are told apart by their pid). fd, or -1 with errno. */
static int open_on(int cpu)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_PAGE_FAULTS;
    a.sample_period = RT_ORIGIN_PERIOD;
    a.sample_type = SAMPLE_TYPE;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.inherit = 1;
    a.inherit_thread = 1;
    int fd = rt_perf_open_on(&a, 0, cpu);
    if (fd < 0 && errno == EINVAL) {
        a.inherit_thread = 0;
        fd = rt_perf_open_on(&a, 0, cpu);
    }
    return fd;
}

int rt_origin_start(char *why, size_t len)
{
    pthread_mutex_lock(&lock);
    if (on) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    cpu_set_t set;
    int e = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        e = errno;
    else if (!(ring = calloc((size_t)CPU_COUNT(&set), sizeof *ring)))
        e = errno;
    for (int cpu = 0; !e && cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set))
            continue;
        int fd = open_on(cpu);
        if (fd < 0 || rt_perf_ring_map(fd, RING_PAGES, &ring[nring]) != 0) {
            e = errno;
            if (fd >= 0)
                close(fd);
            break;
        }
        nring++;
    }
    if (e) {
        close_rings();
        snprintf(why, len, "perf_event_open(page-faults) failed: %s", strerror(e));
        rt_perf_permission_hint(e, why, len, 0);
        pthread_mutex_unlock(&lock);
        return -1;
    }
    pid = getpid();
    page_shift = (unsigned)__builtin_ctzl((unsigned long)sysconf(_SC_PAGESIZE));
    on = 1;
    pthread_mutex_unlock(&lock);
    return 0;
}

void rt_origin_stop(void)
{
    pthread_mutex_lock(&lock);
    if (on) {
        close_rings();
        on = 0;
    }
    pthread_mutex_unlock(&lock);
}

int rt_origin_on(void)
{
    return __atomic_load_n(&on, __ATOMIC_RELAXED);
}

static void keep(const rt_perf_sample_t *s, void *ctx)
{
    (void)ctx;
    if (s->pid != (uint32_t)pid)
        return;
    if (nfresh == fresh_cap) {
        size_t cap = fresh_cap ? 2 * fresh_cap : 4096;
        touch_t *t = realloc(fresh, cap * sizeof *t);
        if (!t)
            return;
        fresh = t;
        fresh_cap = cap;
    }
    fresh[nfresh++] = (touch_t){.page = s->addr >> page_shift, .time = s->time, .ip = s->ip, .tid = (pid_t)s->tid};
}

static int by_page_then_time(const void *x, const void *y)
{
    const touch_t *a = x, *b = y;
    if (a->page != b->page)
        return a->page < b->page ? -1 : 1;
    return (a->time > b->time) - (a->time < b->time);
}

/* Sorted, one per page (the earliest), in place: the new length. */
static size_t earliest_per_page(touch_t *t, size_t n)
{
    qsort(t, n, sizeof *t, by_page_then_time);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || t[k - 1].page != t[i].page)
            t[k++] = t[i];
    return k;
}

/* What the ring holds since the last read joins the table: a page already
 * in it keeps its first touch. Called with lock held. */
static void read_ring(void)
{
    for (int i = 0; i < nring; i++)
        rt_perf_ring_drain(&ring[i], SAMPLE_TYPE, keep, NULL, &stats);
    if (!nfresh)
        return;
    size_t n = earliest_per_page(fresh, nfresh);
    touch_t *all = malloc((nfirst + n) * sizeof *all);
    if (!all) {
        nfresh = 0;
        return;
    }
    size_t i = 0, j = 0, k = 0;
    while (i < nfirst || j < n) {
        if (j == n || (i < nfirst && first[i].page <= fresh[j].page)) {
            if (j < n && first[i].page == fresh[j].page)
                j++; /* read before, so touched before: the table's is the first */
            all[k++] = first[i++];
        } else {
            all[k++] = fresh[j++];
        }
    }
    free(first);
    first = all;
    nfirst = k;
    nfresh = 0;
}

int rt_origin_of(uintptr_t lo, uintptr_t hi, rt_origin_t *o)
{
    pthread_mutex_lock(&lock);
    if (!on || getpid() != pid) { /* a forked child shares the rings: it must not read them */
        pthread_mutex_unlock(&lock);
        return -1;
    }
    read_ring();
    uint64_t plo = (uint64_t)lo >> page_shift, phi = ((uint64_t)hi + ((1ull << page_shift) - 1)) >> page_shift;
    size_t a = 0, b = nfirst;
    while (a < b) { /* the first page >= plo */
        size_t m = a + (b - a) / 2;
        if (first[m].page < plo)
            a = m + 1;
        else
            b = m;
    }
    /* The range's first touch: the instruction behind most of its EARLY
     * earliest samples, not the very first (an allocator writing its header
     * on a mapping's first page touches it before the program does); how
     * many of its pages that instruction touched first, by how many threads. */
    const touch_t *early_set[EARLY];
    int nearly = 0;
    size_t end = a;
    for (; end < nfirst && first[end].page < phi; end++) {
        const touch_t *t = &first[end];
        if (nearly == EARLY && t->time >= early_set[EARLY - 1]->time)
            continue;
        int k = nearly < EARLY ? nearly++ : EARLY - 1; /* sorted insert, the latest falls off */
        while (k > 0 && early_set[k - 1]->time > t->time) {
            early_set[k] = early_set[k - 1];
            k--;
        }
        early_set[k] = t;
    }
    const touch_t *early = NULL;
    int best = 0;
    for (int i = 0; i < nearly; i++) { /* the most frequent instruction; its earliest sample */
        int votes = 0;
        for (int j = 0; j < nearly; j++)
            votes += early_set[j]->ip == early_set[i]->ip;
        if (votes > best) {
            best = votes;
            early = early_set[i];
        }
    }
    int rc = -1;
    if (early) {
        pid_t tids[RT_ORIGIN_THREADS];
        *o = (rt_origin_t){.ip = early->ip, .tid = early->tid, .initial = early->tid == pid, .sampled = end - a};
        for (size_t i = a; i < end; i++) {
            if (first[i].ip != early->ip)
                continue;
            o->pages++;
            int k = 0;
            while (k < o->threads && tids[k] != first[i].tid)
                k++;
            if (k == o->threads && k < RT_ORIGIN_THREADS)
                tids[o->threads++] = first[i].tid;
        }
        rc = 0;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

void rt_origin_stats(uint64_t *pages, uint64_t *lost)
{
    pthread_mutex_lock(&lock);
    if (on && getpid() == pid)
        read_ring();
    *pages = nfirst;
    *lost = stats.lost;
    pthread_mutex_unlock(&lock);
}
