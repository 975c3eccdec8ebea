/* bait.c: a data move that does not pay, undone. The primary first-touches an array on node 0; in each
 * execution thread 1 first reads one word of every page of the second half (so the page sampler
 * attributes those pages to it, on the other node), then thread 0 sweeps its half once and the second
 * half REPS times while thread 1 waits. Moving the second half to thread 1's node is predicted to help
 * and makes thread 0's sweeps remote. Usage: bait MiB iterations. Prints where the second half's pages
 * are at the end (move_pages queries) and a checksum. Iterations are tagged 1 (first half) and 2
 * (second half) for the emulator. */
#define _GNU_SOURCE
#include <numaif.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_emu_mark.h"

#define REPS 2

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 8;
    int iters = argc > 2 ? atoi(argv[2]) : 24;
    size_t n = mib << 17, half = n / 2, ps = (size_t)sysconf(_SC_PAGESIZE), per_page = ps / sizeof(double);
    double *a = aligned_alloc(ps, n * sizeof *a);
#pragma omp parallel
    { } /* binds the primary (OMP_PROC_BIND) before it first-touches */
    for (size_t i = 0; i < n; i++)
        a[i] = 1.0;
    double sum = 0;
    for (int it = 0; it < iters; it++) {
        rt_emu_mark_tag(it < iters / 2 ? 1 : 2);
#pragma omp parallel reduction(+ : sum)
        {
            int t = omp_get_thread_num();
            if (t == 1)
                for (size_t i = half; i < n; i += per_page)
                    sum += a[i];
#pragma omp barrier
            if (t == 0) {
                for (size_t i = 0; i < half; i++)
                    a[i] = a[i] * 0.5 + 0.5;
                for (int r = 0; r < REPS; r++)
                    for (size_t i = half; i < n; i++)
                        sum += a[i];
            }
        }
    }
    rt_emu_mark_tag(0);
    size_t np = half / per_page, on0 = 0;
    void **pages = malloc(np * sizeof *pages);
    int *status = malloc(np * sizeof *status);
    for (size_t k = 0; k < np; k++)
        pages[k] = a + half + k * per_page;
    if (syscall(SYS_move_pages, 0, np, pages, NULL, status, 0) == 0)
        for (size_t k = 0; k < np; k++)
            on0 += status[k] == 0;
    printf("second half on node 0: %zu of %zu pages\n", on0, np);
    printf("checksum %.1f\n", sum + a[0]);
    return 0;
}
