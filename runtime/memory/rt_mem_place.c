/* rt_mem_place.c: the program's own memory placed for it: present pages of a range moved to a node or spread over nodes, with the record that undoes the move completely. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_core.h"
#include "rt_mem.h"
#include "rt_mem_int.h"
#include "rt_pages.h"

/* Pages per system call: bounds the arrays, keeps each call short. */
#define BATCH 1024

typedef struct batch {
    void *page[BATCH];
    int   node[BATCH];
    int   status[BATCH];
    void *away[BATCH];  /* the pages of a batch that move, and where */
    int   to[BATCH];
} batch_t;

/* Refused: not page-aligned, empty, managed by this manager (the program
 * placed it through the API), or under a policy of the program's own
 * (checked at each huge-page unit and at the last page). */
static int check_range(uintptr_t lo, uintptr_t hi)
{
    rt_mem_init_once();
    if (lo >= hi || (lo & (rt_mem_pagesz - 1)) || (hi & (rt_mem_pagesz - 1))) {
        errno = EINVAL;
        return -1;
    }
    if (!rt_mem_numa_ok) {
        errno = ENOSYS;
        return -1;
    }
    if (rt_mem_i_managed(lo, hi)) {
        errno = EPERM;
        return -1;
    }
    for (uintptr_t a = lo;; a += RT_MEM_HUGE_SIZE) {
        uintptr_t at = a < hi ? a : hi - rt_mem_pagesz;
        int dflt = rt_pages_has_default_policy(at);
        if (dflt < 0)
            return -1;
        if (!dflt) {
            errno = EPERM;
            return -1;
        }
        if (at == hi - rt_mem_pagesz)
            return 0;
    }
}

static int undo_init(rt_mem_undo_t *u, uintptr_t lo, uintptr_t hi)
{
    size_t npages = (hi - lo) / rt_mem_pagesz;
    u->node = malloc(npages * sizeof *u->node);
    if (!u->node) {
        errno = ENOMEM;
        return -1;
    }
    for (size_t i = 0; i < npages; i++)
        u->node[i] = -1; /* not reached by a move that failed midway: nothing to put back */
    return 0;
}

/* Where page i of the range goes: to node, or (spread over n > 1 nodes) to
 * nodes[unit % n], the unit being a huge page when the range holds at least
 * two per node (a move of one small page of a transparent huge page moves
 * all of it: spread by small pages, every huge page would follow its first). */
static int target(const rt_mem_undo_t *u, size_t i, const int *nodes, int n)
{
    if (n == 1)
        return nodes[0];
    uintptr_t bytes = u->hi - u->lo, unit = bytes >= 2u * (uintptr_t)n * RT_MEM_HUGE_SIZE ? RT_MEM_HUGE_SIZE : rt_mem_pagesz;
    return nodes[((u->lo + i * rt_mem_pagesz) / unit) % (uintptr_t)n];
}

/* Batch `done` of the range: its pages' addresses into b->page; its size. */
static size_t batch_pages(const rt_mem_undo_t *u, size_t done, batch_t *b)
{
    size_t npages = (u->hi - u->lo) / rt_mem_pagesz, k = npages - done < BATCH ? npages - done : BATCH;
    for (size_t i = 0; i < k; i++)
        b->page[i] = (void *)(u->lo + (done + i) * rt_mem_pagesz);
    return k;
}

/* Record every page's node, then move the present ones that are elsewhere
 * to their target, then count what moved. Recorded first, for the whole
 * range: a huge page that straddles two batches moves whole with its first
 * small page, and the next batch would record its tail where it went, so
 * that an undo would leave it there. Counted after, read back: a huge
 * page's tail pages report the head's outcome only there. */
static int move_all(rt_mem_undo_t *u, const int *nodes, int n, batch_t *b)
{
    size_t npages = (u->hi - u->lo) / rt_mem_pagesz;
    for (size_t done = 0, k; done < npages; done += k) {
        k = batch_pages(u, done, b);
        if (rt_pages_where(b->page, k, b->status) != 0)
            return -1;
        for (size_t i = 0; i < k; i++)
            u->node[done + i] = (int16_t)(b->status[i] >= 0 ? b->status[i] : -1);
    }
    int rc = 0;
    for (size_t done = 0, k; done < npages && rc == 0; done += k) {
        k = batch_pages(u, done, b);
        size_t m = 0;
        for (size_t i = 0; i < k; i++) {
            int want = target(u, done + i, nodes, n);
            if (u->node[done + i] >= 0 && u->node[done + i] != want) {
                b->away[m] = b->page[i];
                b->to[m++] = want;
            }
        }
        if (m && rt_pages_move(b->away, b->to, m, b->status) != 0)
            rc = -1;
    }
    for (size_t done = 0, k; done < npages; done += k) {
        k = batch_pages(u, done, b);
        if (rt_pages_where(b->page, k, b->status) != 0)
            break;
        for (size_t i = 0; i < k; i++) {
            int before = u->node[done + i], want = target(u, done + i, nodes, n);
            if (before < 0 || before == want)
                continue;
            if (b->status[i] == want)
                u->moved++;
            else
                u->failed++;
        }
    }
    return rc;
}

/* The end of a move or an undo: the sampler may watch again, the time it
 * took; rc, errno as the move left it. */
static int finish(const struct rt_mem_sampler *h, uint64_t t0, double *ms, batch_t *b, int rc)
{
    int err = errno;
    rt_mem_i_unhold(h);
    *ms = (double)(rt_now_ns() - t0) / 1e6;
    free(b);
    errno = err;
    return rc;
}

static int place(uintptr_t lo, uintptr_t hi, const int *nodes, int n, int policy, rt_mem_undo_t *u)
{
    *u = (rt_mem_undo_t){.lo = lo, .hi = hi};
    if (check_range(lo, hi) != 0 || undo_init(u, lo, hi) != 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (!rt_mem_node_valid(nodes[i])) {
            rt_mem_undo_free(u);
            errno = EINVAL;
            return -1;
        }
    batch_t *b = malloc(sizeof *b);
    if (!b) {
        rt_mem_undo_free(u);
        errno = ENOMEM;
        return -1;
    }
    uint64_t t0 = rt_now_ns();
    const rt_mem_sampler_t *h = rt_mem_i_hold(lo, hi);
    int rc = 0;
    if (policy) {
        rc = rt_pages_interleave(lo, hi, nodes, n);
        u->policy = rc == 0;
    }
    if (rc == 0)
        rc = move_all(u, nodes, n, b);
    return finish(h, t0, &u->move_ms, b, rc);
}

int rt_mem_place_range(uintptr_t lo, uintptr_t hi, int node, rt_mem_undo_t *undo)
{
    return place(lo, hi, &node, 1, 0, undo);
}

int rt_mem_spread_range(uintptr_t lo, uintptr_t hi, const int *nodes, int n, rt_mem_undo_t *undo)
{
    if (!nodes || n < 1) {
        errno = EINVAL;
        return -1;
    }
    return place(lo, hi, nodes, n, 1, undo);
}

int rt_mem_undo_range(rt_mem_undo_t *u)
{
    if (!u || !u->node) {
        errno = EINVAL;
        return -1;
    }
    batch_t *b = malloc(sizeof *b);
    if (!b) {
        errno = ENOMEM;
        return -1;
    }
    uint64_t t0 = rt_now_ns();
    const rt_mem_sampler_t *h = rt_mem_i_hold(u->lo, u->hi);
    int rc = u->policy ? rt_pages_default_policy(u->lo, u->hi) : 0;
    size_t npages = (u->hi - u->lo) / rt_mem_pagesz;
    u->back = 0;
    for (size_t done = 0, k; done < npages && rc == 0; done += k) {
        size_t m = 0;
        k = batch_pages(u, done, b);
        if (rt_pages_where(b->page, k, b->status) != 0) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < k; i++)
            if (u->node[done + i] >= 0 && b->status[i] >= 0 && b->status[i] != u->node[done + i]) {
                b->page[m] = b->page[i];
                b->node[m++] = u->node[done + i];
            }
        if (m && rt_pages_move(b->page, b->node, m, b->status) != 0)
            rc = -1;
        for (size_t i = 0; i < m; i++)
            u->back += b->status[i] == b->node[i];
    }
    return finish(h, t0, &u->undo_ms, b, rc);
}

void rt_mem_undo_free(rt_mem_undo_t *u)
{
    if (!u)
        return;
    free(u->node);
    u->node = NULL;
}
