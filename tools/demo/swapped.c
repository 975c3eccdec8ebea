/* swapped.c: the demo program: an iterative OpenMP code whose threads work on data their mirror thread first-touched. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* Each thread t first-touches block (n-1-t) but then sweeps block t for many
 * iterations, so on a NUMA machine every thread reads remote memory until
 * someone moves the threads (or the data). The checksum does not depend on
 * the placement, so it shows that nothing changed the program's results. */
int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
    int iters = argc > 2 ? atoi(argv[2]) : 40;
    size_t n = mib * 1024 * 1024 / sizeof(double);
    double *a = malloc(n * sizeof *a);
    if (!a) {
        perror("malloc");
        return 1;
    }
#pragma omp parallel
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t blk = n / (size_t)nt, mirror = (size_t)(nt - 1 - t);
        size_t lo = mirror * blk, hi = mirror == (size_t)nt - 1 ? n : lo + blk;
        for (size_t i = lo; i < hi; i++)
            a[i] = (double)(i % 1000) * 0.5;
    }
    double sum = 0;
    for (int it = 0; it < iters; it++) {
#pragma omp parallel reduction(+ : sum)
        {
            int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t blk = n / (size_t)nt, lo = (size_t)t * blk, hi = t == nt - 1 ? n : lo + blk;
            for (size_t i = lo; i < hi; i++) {
                a[i] = a[i] * 0.999 + 0.25;
                sum += a[i];
            }
        }
    }
    printf("checksum %.6e\n", sum);
    free(a);
    return 0;
}
