/* static-swapped.c: the swapped pattern over an array in static storage (bss), as NPB's Fortran codes keep theirs. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (4u << 20) /* 32 MiB of doubles */

static double a[N];

/* Thread t first-touches block n-1-t, then sweeps block t: every thread reads
 * remote memory until the threads are swapped. Usage: static-swapped [iterations]. */
int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 16;
#pragma omp parallel
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t blk = N / (size_t)nt, lo = (size_t)(nt - 1 - t) * blk;
        for (size_t i = lo; i < lo + blk; i++)
            a[i] = (double)(i % 1000) * 0.5;
    }
    double sum = 0;
    for (int it = 0; it < iters; it++) {
#pragma omp parallel reduction(+ : sum)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t blk = N / (size_t)nt, lo = (size_t)t * blk;
            for (size_t i = lo; i < lo + blk; i++) {
                a[i] = a[i] * 0.999 + 0.25;
                sum += a[i];
            }
        }
    }
    printf("checksum %.6e\n", sum);
    return 0;
}
