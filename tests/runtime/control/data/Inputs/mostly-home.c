/* mostly-home.c ITERATIONS: an array of six blocks, thread 0 first-touching
 * blocks 0 to 3 and thread 1 blocks 4 and 5 (with the OpenMP binding, thread
 * t on node t); then ITERATIONS regions in which thread 0 sweeps blocks 0 to
 * 2 and thread 1 blocks 3 to 5, PASSES times each. Every thread runs on the
 * node of most of its references, and a third of thread 1's are block 3's,
 * on the other node. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define BLOCK (1u << 18) /* doubles: 2 MiB */
#define PASSES 128

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 40;
    double *a = malloc(6 * (size_t)BLOCK * sizeof *a), sum = 0;
    if (!a)
        return 1;
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        for (size_t i = t ? 4 * (size_t)BLOCK : 0; i < (t ? 6 : 4) * (size_t)BLOCK; i++)
            a[i] = 1.0;
    }
    for (int it = 0; it < iterations; it++) {
#pragma omp parallel num_threads(2)
        {
            int t = omp_get_thread_num();
            for (int p = 0; p < PASSES; p++)
                for (size_t i = 3 * (size_t)t * BLOCK; i < 3 * (size_t)(t + 1) * BLOCK; i += 8)
                    a[i] += 1.0;
        }
    }
    for (size_t i = 0; i < 6 * (size_t)BLOCK; i += 8)
        sum += a[i];
    printf("sum %.0f\n", sum);
    free(a);
    return 0;
}
