/* rt_mem_move.c: page placement through move_pages: query where pages are, move a range to a node and verify. */
#include "rt_mem.h"
#include "rt_sys.h"
#include "rt_mem_int.h"

#include <errno.h>
#include <numaif.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Pages per move_pages call: bounds the arrays, keeps each call short. */
#define BATCH 4096

int rt_move_query(uintptr_t start, size_t npages, int *status)
{
    if (!rt_mem_numa_ok) {
        errno = ENOSYS;
        return -1;
    }
    void **pages = malloc(sizeof *pages * (npages < BATCH ? npages : BATCH));
    if (!pages) {
        errno = ENOMEM;
        return -1;
    }
    for (size_t done = 0; done < npages;) {
        size_t n = npages - done < BATCH ? npages - done : BATCH;
        for (size_t i = 0; i < n; i++)
            pages[i] = (void *)(start + (done + i) * rt_mem_pagesz);
        if (rt_move_pages(n, pages, NULL, status + done, 0) < 0) {
            int e = errno;
            free(pages);
            errno = e;
            return -1;
        }
        done += n;
    }
    free(pages);
    return 0;
}

int rt_move_range(uintptr_t start, uintptr_t end, int node, uint64_t *moved, uint64_t *failed)
{
    *moved = 0;
    *failed = 0;
    if (!rt_mem_numa_ok) {
        errno = ENOSYS;
        return -1;
    }
    /* Pages never touched have no node yet: fault them in (as zero pages
     * would read, so no byte changes) so that they can be moved and the
     * whole range ends on node. Kernels before 5.14 lack the advice; their
     * untouched pages are then reported as not moved. */
    madvise((void *)start, end - start, MADV_POPULATE_WRITE);

    size_t npages = (end - start) / rt_mem_pagesz;
    size_t cap = npages < BATCH ? npages : BATCH;
    void **pages = malloc(sizeof *pages * cap);
    int *nodes = malloc(sizeof *nodes * cap);
    int *before = malloc(sizeof *before * cap);
    int *status = malloc(sizeof *status * cap);
    void **away = malloc(sizeof *away * cap);
    int first_err = 0, rc = 0;
    if (!pages || !nodes || !before || !status || !away) {
        rc = -1;
        first_err = ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < cap; i++)
        nodes[i] = node;
    for (size_t done = 0; done < npages;) {
        size_t n = npages - done < BATCH ? npages - done : BATCH;
        for (size_t i = 0; i < n; i++)
            pages[i] = (void *)(start + (done + i) * rt_mem_pagesz);
        if (rt_move_pages(n, pages, NULL, before, 0) < 0) {
            rc = -1;
            first_err = errno;
            goto out;
        }
        /* Only pages elsewhere are passed: a moving call first drains the
         * LRU caches of every CPU, which is skipped when nothing must move.
         */
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (before[i] != node)
                away[k++] = pages[i];
        /* Older kernels fail the whole call with ENOENT when nothing needed
         * moving; the query below tells the truth either way. */
        if (k && rt_move_pages(k, away, nodes, status, MPOL_MF_MOVE) < 0 && errno != ENOENT) {
            rc = -1;
            first_err = errno;
            goto out;
        }
        /* Per-page statuses of the move are not reliable for huge pages (a
         * tail page reports -EBUSY while its head moved the whole page), so
         * the outcome is read back. */
        if (rt_move_pages(n, pages, NULL, status, 0) < 0) {
            rc = -1;
            first_err = errno;
            goto out;
        }
        for (size_t i = 0; i < n; i++) {
            if (status[i] == node) {
                if (before[i] != node)
                    (*moved)++;
                continue;
            }
            (*failed)++;
            if (!first_err)
                first_err = status[i] < 0 ? -status[i] : EBUSY;
        }
        done += n;
    }
    if (*failed)
        rc = -1;
out:
    free(pages);
    free(nodes);
    free(before);
    free(status);
    free(away);
    if (rc)
        errno = first_err ? first_err : EIO;
    return rc;
}
