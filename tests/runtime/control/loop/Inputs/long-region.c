/* long-region.c: one region that runs once around loops that repeat
 * (`sweeps` times a loop with its barrier, then as many nowait ones closed
 * by an explicit barrier), then a region that runs `sweeps` times around a
 * loop that runs once per execution. Each thread sweeps the block the other
 * first touched: the swapped pattern; with a second argument `local`, the
 * block it first touched itself, and each nowait loop closed by a barrier. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (4u << 20) /* doubles: 32 MiB, an anonymous mapping the sampler tracks */

int main(int argc, char **argv)
{
    int sweeps = argc > 1 ? atoi(argv[1]) : 200, local = argc > 2 && !strcmp(argv[2], "local");
    double *a = malloc(N * sizeof *a), sum = 0;
    if (!a)
        return 1;
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num(), o = local ? t : 1 - t;
        for (size_t i = (size_t)o * N / 2; i < (size_t)(o + 1) * N / 2; i++)
            a[i] = 1.0;
    }
#pragma omp parallel num_threads(2)
    {
        for (int s = 0; s < sweeps; s++) {
#pragma omp for schedule(static)
            for (int b = 0; b < 2; b++)
                for (size_t i = (size_t)b * N / 2; i < (size_t)(b + 1) * N / 2; i += 64)
                    a[i] += 1.0;
        }
        for (int s = 0; s < sweeps; s++) {
#pragma omp for schedule(static) nowait
            for (int b = 0; b < 2; b++)
                for (size_t i = (size_t)b * N / 2 + 8; i < (size_t)(b + 1) * N / 2; i += 64)
                    a[i] += 1.0;
            if (local) { /* every sweep's references in its own execution */
#pragma omp barrier
            }
        }
#pragma omp barrier
    }
    for (int s = 0; s < sweeps; s++) {
#pragma omp parallel for num_threads(2) schedule(static) reduction(+ : sum)
        for (int b = 0; b < 2; b++)
            sum += a[(size_t)b * N / 2];
    }
    printf("sum %.0f\n", sum);
    free(a);
    return 0;
}
