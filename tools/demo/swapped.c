/* swapped.c: the demo program: an iterative OpenMP code whose threads work on data their mirror thread first-touched. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of v[lo..hi) (sorted in place). */
static double median(double *v, int lo, int hi)
{
    qsort(v + lo, (size_t)(hi - lo), sizeof *v, cmp_double);
    return v[lo + (hi - lo) / 2];
}

/* Each thread t first-touches block (n-1-t) but then sweeps block t for many
 * iterations, so on a NUMA machine every thread reads remote memory until
 * someone moves the threads (or the data). The checksum does not depend on
 * the placement, so it shows that nothing changed the program's results.
 * Usage: swapped [MiB [iterations [times] [local]]]; with "times" it also
 * prints the iteration times (the demo compares runtimes with them); with
 * "local" thread t first-touches block t itself: the same sweeps with every
 * thread next to its data from the start, the oracle a placement can reach. */
int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
    int iters = argc > 2 ? atoi(argv[2]) : 40;
    int times = 0, local = 0;
    for (int i = 3; i < argc; i++) {
        times |= strcmp(argv[i], "times") == 0;
        local |= strcmp(argv[i], "local") == 0;
    }
    if (iters < 1)
        iters = 1;
    double *it_ms = calloc((size_t)iters, sizeof *it_ms);
    size_t n = mib * 1024 * 1024 / sizeof(double);
    double *a = malloc(n * sizeof *a);
    if (!a || !it_ms) {
        perror("malloc");
        return 1;
    }
#pragma omp parallel
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t blk = n / (size_t)nt, mirror = (size_t)(local ? t : nt - 1 - t);
        size_t lo = mirror * blk, hi = mirror == (size_t)nt - 1 ? n : lo + blk;
        for (size_t i = lo; i < hi; i++)
            a[i] = (double)(i % 1000) * 0.5;
    }
    double sum = 0;
    for (int it = 0; it < iters; it++) {
        double t0 = omp_get_wtime();
#pragma omp parallel reduction(+ : sum)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t blk = n / (size_t)nt, lo = (size_t)t * blk, hi = t == nt - 1 ? n : lo + blk;
            for (size_t i = lo; i < hi; i++) {
                a[i] = a[i] * 0.999 + 0.25;
                sum += a[i];
            }
        }
        it_ms[it] = (omp_get_wtime() - t0) * 1e3;
    }
    printf("checksum %.6e\n", sum);
    if (times) {
        /* The first and the last third: before and after a placement change. */
        int third = iters / 3 > 0 ? iters / 3 : 1;
        double first = median(it_ms, 0, third), last = median(it_ms, iters - third, iters);
        printf("iteration ms: first third median %.1f, last third median %.1f, all %d iterations %.1f\n",
               first, last, iters, median(it_ms, 0, iters));
    }
    free(it_ms);
    free(a);
    return 0;
}
