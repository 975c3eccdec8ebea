/* loop-slices.c: one long region whose worksharing loop sweeps a slice of
 * each thread's own block per execution (the patterns' local-long shape:
 * SLICES executions a sweep, each touching a few pages); with "two", a
 * second loop over the same slices alternates with it; with "late", each
 * thread first touches its block in a region of its own before the long
 * one. Prints a checksum. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1u << 20) /* doubles: 8 MiB, an anonymous mapping the sampler tracks */
#define SLICES 256

int main(int argc, char **argv)
{
    int sweeps = argc > 1 ? atoi(argv[1]) : 8, two = argc > 2 && !strcmp(argv[2], "two");
    int late = argc > 2 && !strcmp(argv[2], "late");
    double *a = malloc(N * sizeof *a), sum = 0;
    if (!a)
        return 1;
    if (late) {
#pragma omp parallel num_threads(2)
        {
            int t = omp_get_thread_num();
            for (size_t i = (size_t)t * N / 2; i < (size_t)(t + 1) * N / 2; i++)
                a[i] = 1.0;
        }
    }
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        for (size_t i = (size_t)t * N / 2; !late && i < (size_t)(t + 1) * N / 2; i++)
            a[i] = 1.0;
        for (int s = 0; s < sweeps; s++)
            for (int k = 0; k < SLICES; k++) {
#pragma omp for schedule(static)
                for (int b = 0; b < 2; b++) {
                    size_t lo = (size_t)b * N / 2 + (size_t)k * N / 2 / SLICES, hi = lo + N / 2 / SLICES;
                    for (size_t i = lo; i < hi; i++)
                        a[i] += 1.0;
                }
                if (two) {
#pragma omp for schedule(static)
                    for (int b = 0; b < 2; b++) {
                        size_t lo = (size_t)b * N / 2 + (size_t)k * N / 2 / SLICES, hi = lo + N / 2 / SLICES;
                        for (size_t i = lo; i < hi; i++)
                            a[i] *= 2.0;
                    }
                }
            }
    }
    for (size_t i = 0; i < N; i++)
        sum += a[i];
    printf("sum %.0f\n", sum);
    free(a);
    return 0;
}
