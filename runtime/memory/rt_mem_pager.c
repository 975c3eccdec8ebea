/* rt_mem_pager.c: next-touch migration as a user-level pager: protect, catch the fault, restore access, move the unit to the toucher's node. */
#include "rt_mem.h"
#include "rt_sys.h"
#include "rt_mem_int.h"
#include "rt_fault.h"

#include <errno.h>
#include <numaif.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/*
 * Granularity and transparent huge pages. Moving one small page of a
 * transparent huge page moves the whole 2 MiB page, so arming every small
 * page of a THP would make it bounce between the nodes of its touchers (the
 * numa-vm notes saw minutes for a few MiB). The pager therefore moves the
 * unit the kernel really moves:
 *   - a range whose mapping holds no huge page is armed page by page, and
 *     MADV_NOHUGEPAGE is set on it so khugepaged cannot collapse it while
 *     armed (memory allocated with RT_MEM_NEXT_TOUCH is mapped that way);
 *   - in a mapping that holds huge pages (/proc/self/smaps AnonHugePages),
 *     every 2 MiB-aligned window inside the range is one unit: the first
 *     touch anywhere in it moves all of it, once. Pages of the range outside
 *     whole windows stay small units.
 * Splitting huge pages is not offered because user space has no call for it.
 *
 * Unit states. A fault on an ARMED unit is won by one thread (CAS to BUSY),
 * which restores access, moves the unit and marks it RESOLVED. Threads that
 * fault on a BUSY unit yield until it is resolved, then retry their access.
 * A RESOLVED unit can still see a fault that was raised before access came
 * back: that thread retries once; a second fault by the same thread on the
 * same page of the same arming is not the pager's (the program protected it
 * itself) and goes to the previous handler.
 *
 * Precondition: armed ranges are readable and writable memory; access is
 * restored as PROT_READ | PROT_WRITE.
 */
enum { U_NONE = 0, U_ARMED, U_BUSY, U_RESOLVED };

typedef struct region {
    uintptr_t         start, end;   /* unit-aligned */
    size_t            unit;         /* bytes per unit */
    size_t            nunits;
    uint64_t          seq;          /* arming number, for the retry-once rule */
    _Atomic size_t    armed;        /* units still ARMED or BUSY */
    _Atomic int64_t   last_ns;      /* time of the last resolution */
    int               claim;
    _Atomic uint8_t  *state;
    struct region    *next;
} region_t;

static pthread_mutex_t regions_lock = PTHREAD_MUTEX_INITIALIZER;
static region_t *regions;
static uint64_t arm_seq = 1;

static _Atomic uint64_t st_faults, st_pages, st_failed;

/* The page (and arming) this thread last retried on a RESOLVED unit. */
static __thread uintptr_t retry_page __attribute__((tls_model("initial-exec")));
static __thread uint64_t retry_seq __attribute__((tls_model("initial-exec")));

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Runs in the signal handler: restore access to the unit, move its pages
 * that are elsewhere to the node of the CPU this thread runs on (getcpu: a
 * plain system call), and count what could not move. Access comes first:
 * move_pages cannot move a PROT_NONE page (it reports -ENOENT and moves
 * nothing). Pages are queried before moving because every moving call
 * starts by draining the LRU caches of all CPUs (tens of microseconds or
 * more); a unit already on the node costs no such call. */
#define SIG_BATCH 64
static int resolve_unit(region_t *r, size_t u)
{
    uintptr_t base = r->start + u * r->unit;
    if (mprotect((void *)base, r->unit, PROT_READ | PROT_WRITE) != 0)
        return -1;

    unsigned cpu = 0, node = 0;
    if (!rt_mem_numa_ok || rt_getcpu(&cpu, &node) != 0)
        return 0;
    void *pages[SIG_BATCH], *away[SIG_BATCH];
    int nodes[SIG_BATCH], status[SIG_BATCH];
    size_t npages = r->unit / rt_mem_pagesz;
    uint64_t moved = 0, failed = 0;
    for (size_t done = 0; done < npages; done += SIG_BATCH) {
        size_t n = npages - done < SIG_BATCH ? npages - done : SIG_BATCH, k = 0;
        for (size_t i = 0; i < n; i++)
            pages[i] = (void *)(base + (done + i) * rt_mem_pagesz);
        if (rt_move_pages(n, pages, NULL, status, 0) != 0)
            continue;
        for (size_t i = 0; i < n; i++) {
            if (status[i] >= 0 && status[i] != (int)node) {
                away[k] = pages[i];
                nodes[k++] = (int)node;
            }
        }
        if (k == 0)
            continue;
        rt_move_pages(k, away, nodes, status, MPOL_MF_MOVE);
        /* Read back: a huge page's tails report -EBUSY though they moved. */
        if (rt_move_pages(k, away, NULL, status, 0) != 0)
            continue;
        for (size_t i = 0; i < k; i++) {
            if (status[i] == (int)node)
                moved++;
            else
                failed++;
        }
    }
    atomic_fetch_add(&st_pages, moved);
    atomic_fetch_add(&st_failed, failed);
    return 0;
}

/* The kernel refused to split the mapping once more (vm.max_map_count):
 * give the whole region back its access in one call, which merges its
 * pieces, and count its armed units as not moved. Data stays where it is. */
static void give_up_region(region_t *r)
{
    uint64_t dropped = 0;
    for (size_t u = 0; u < r->nunits; u++) {
        uint8_t expect = U_ARMED;
        if (atomic_compare_exchange_strong(&r->state[u], &expect, U_RESOLVED)) {
            atomic_fetch_sub(&r->armed, 1);
            dropped += r->unit / rt_mem_pagesz;
        }
    }
    mprotect((void *)r->start, r->end - r->start, PROT_READ | PROT_WRITE);
    atomic_fetch_add(&st_failed, dropped);
}

static int on_fault(void *addr, int code, void *ctx)
{
    region_t *r = ctx;
    uintptr_t a = (uintptr_t)addr;
    if (code != SEGV_ACCERR || a < r->start || a >= r->end)
        return RT_FAULT_NOT_MINE;
    size_t u = (a - r->start) / r->unit;
    for (;;) {
        uint8_t s = atomic_load(&r->state[u]);
        if (s == U_ARMED) {
            uint8_t expect = U_ARMED;
            if (!atomic_compare_exchange_strong(&r->state[u], &expect, U_BUSY))
                continue;
            atomic_fetch_sub(&r->armed, 1);
            if (resolve_unit(r, u) != 0) {
                atomic_fetch_add(&st_failed, r->unit / rt_mem_pagesz);
                atomic_store(&r->state[u], U_RESOLVED);
                give_up_region(r);
            }
            atomic_store(&r->state[u], U_RESOLVED);
            atomic_store(&r->last_ns, now_ns());
            atomic_fetch_add(&st_faults, 1);
            return RT_FAULT_RESOLVED;
        }
        if (s == U_BUSY) {
            sched_yield();
            continue;
        }
        if (s == U_RESOLVED) {
            uintptr_t page = rt_pg_down(a);
            if (retry_page == page && retry_seq == r->seq) {
                retry_page = 0;
                return RT_FAULT_NOT_MINE;
            }
            retry_page = page;
            retry_seq = r->seq;
            return RT_FAULT_RESOLVED;
        }
        return RT_FAULT_NOT_MINE;
    }
}

/* Does a mapping overlapping [start, end) hold transparent huge pages? */
static int range_has_thp(uintptr_t start, uintptr_t end)
{
    FILE *f = fopen("/proc/self/smaps", "re");
    if (!f)
        return 0;
    char line[512];
    int in = 0, found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi, kb;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            in = lo < end && hi > start;
        else if (in && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1 && kb > 0)
            found = 1;
    }
    fclose(f);
    return found;
}

/* Make a unit accessible again without moving it (it is no longer armed). */
static void disarm_unit(region_t *r, size_t u)
{
    for (;;) {
        uint8_t expect = U_ARMED;
        if (atomic_compare_exchange_strong(&r->state[u], &expect, U_BUSY)) {
            int rc = mprotect((void *)(r->start + u * r->unit), r->unit, PROT_READ | PROT_WRITE);
            atomic_store(&r->state[u], U_RESOLVED);
            atomic_fetch_sub(&r->armed, 1);
            if (rc != 0)
                give_up_region(r);
            return;
        }
        if (expect != U_BUSY)
            return;
        sched_yield();   /* a fault is resolving it right now */
    }
}

/* Precondition: regions_lock held; r unlinked. Waits for running handlers. */
static void retire(region_t *r)
{
    rt_fault_release(r->claim);
    free((void *)r->state);
    free(r);
}

/* Disarm units of [start, end) in every region; retire the regions that lie
 * inside it when retire_inside, or that are fully resolved and quiet for
 * long enough when reclaim (table pressure). Precondition: regions_lock held. */
static void sweep(uintptr_t start, uintptr_t end, int retire_inside, int reclaim)
{
    int64_t now = reclaim ? now_ns() : 0;
    region_t **pp = &regions;
    while (*pp) {
        region_t *r = *pp;
        if (r->start < end && r->end > start) {
            size_t u0 = r->start >= start ? 0 : (start - r->start) / r->unit;
            size_t u1 = r->end <= end ? r->nunits : (end - r->start + r->unit - 1) / r->unit;
            for (size_t u = u0; u < u1; u++)
                disarm_unit(r, u);
        }
        int inside = r->start >= start && r->end <= end;
        /* A thread that faulted just before its unit was resolved may not
         * have entered the handler yet; 100 ms of quiet is taken as proof
         * that none is in flight before dropping a resolved region's claim. */
        int quiet = reclaim && atomic_load(&r->armed) == 0 &&
                    now - atomic_load(&r->last_ns) > 100000000;
        if ((retire_inside && inside) || quiet) {
            *pp = r->next;
            retire(r);
        } else {
            pp = &r->next;
        }
    }
}

/* Create and arm one region of uniform unit. Precondition: regions_lock held. */
static int arm_region(uintptr_t start, uintptr_t end, size_t unit)
{
    region_t *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->start = start;
    r->end = end;
    r->unit = unit;
    r->nunits = (end - start) / unit;
    r->seq = arm_seq++;
    r->state = malloc(r->nunits);
    if (!r->state) {
        free(r);
        errno = ENOMEM;
        return -1;
    }
    for (size_t u = 0; u < r->nunits; u++)
        atomic_init(&r->state[u], U_ARMED);
    atomic_init(&r->armed, r->nunits);
    atomic_init(&r->last_ns, now_ns());
    r->claim = rt_fault_claim((void *)start, (void *)end, on_fault, r);
    if (r->claim < 0 && errno == ENOMEM) {
        sweep(0, 0, 0, 1);
        r->claim = rt_fault_claim((void *)start, (void *)end, on_fault, r);
    }
    if (r->claim < 0) {
        int e = errno;
        free((void *)r->state);
        free(r);
        errno = e;
        return -1;
    }
    /* Claimed before protecting: a fault can never find the range unclaimed. */
    if (mprotect((void *)start, end - start, PROT_NONE) != 0) {
        int e = errno;
        rt_fault_release(r->claim);
        free((void *)r->state);
        free(r);
        errno = e == ENOMEM ? ENOMEM : EINVAL;
        return -1;
    }
    r->next = regions;
    regions = r;
    return 0;
}

int rt_pager_arm(uintptr_t start, uintptr_t end)
{
    if (!rt_mem_numa_ok) {
        errno = ENOSYS;
        return -1;
    }
    uintptr_t h0 = (start + RT_MEM_HUGE_SIZE - 1) & ~(uintptr_t)(RT_MEM_HUGE_SIZE - 1);
    uintptr_t h1 = end & ~(uintptr_t)(RT_MEM_HUGE_SIZE - 1);
    int huge = h0 < h1 && range_has_thp(start, end);

    pthread_mutex_lock(&regions_lock);
    /* Older armings of the same pages are superseded; regions the new range
     * covers are dropped (any late fault there now meets the new region). */
    sweep(start, end, 1, 0);
    int rc = 0;
    if (huge) {
        if (start < h0)
            madvise((void *)start, h0 - start, MADV_NOHUGEPAGE);
        if (h1 < end)
            madvise((void *)h1, end - h1, MADV_NOHUGEPAGE);
        rc = arm_region(h0, h1, RT_MEM_HUGE_SIZE);
        if (rc == 0 && start < h0)
            rc = arm_region(start, h0, rt_mem_pagesz);
        if (rc == 0 && h1 < end)
            rc = arm_region(h1, end, rt_mem_pagesz);
    } else {
        madvise((void *)start, end - start, MADV_NOHUGEPAGE);
        rc = arm_region(start, end, rt_mem_pagesz);
    }
    if (rc != 0) {
        int e = errno;
        sweep(start, end, 1, 0);   /* leave nothing half armed */
        errno = e;
    }
    pthread_mutex_unlock(&regions_lock);
    return rc;
}

void rt_pager_disarm(uintptr_t start, uintptr_t end, int retire_inside)
{
    pthread_mutex_lock(&regions_lock);
    sweep(start, end, retire_inside, 0);
    pthread_mutex_unlock(&regions_lock);
}

void rt_pager_stats(uint64_t *faults, uint64_t *pages, uint64_t *failed)
{
    *faults = atomic_load(&st_faults);
    *pages = atomic_load(&st_pages);
    *failed = atomic_load(&st_failed);
}
