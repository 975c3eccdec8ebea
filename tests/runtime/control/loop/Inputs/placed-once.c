/* placed-once.c: threads place their data once, pinned, then run unbound (as a program that pins for its first touch only): each of T threads first-touches block t on CPU t, gets its full mask back, and sweeps block t in ITERS regions. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 16;
    int iters = argc > 2 ? atoi(argv[2]) : 24;
    size_t n = mib * 1024 * 1024 / sizeof(double);
    double *a = malloc(n * sizeof *a), sum = 0;
    cpu_set_t all;
    if (!a || sched_getaffinity(0, sizeof all, &all) != 0)
        return 1;
#pragma omp parallel
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(t, &one);
        sched_setaffinity(0, sizeof one, &one);
        for (size_t i = n / nt * t; i < n / nt * (t + 1); i++)
            a[i] = (double)(i % 7);
        sched_setaffinity(0, sizeof all, &all);
    }
    for (int it = 0; it < iters; it++) {
#pragma omp parallel
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            for (size_t i = n / nt * t; i < n / nt * (t + 1); i++)
                a[i] = a[i] * 0.5 + 1.0;
        }
    }
    for (size_t i = 0; i < n; i += 4099)
        sum += a[i];
    printf("checksum %.6f\n", sum);
    free(a);
    return 0;
}
