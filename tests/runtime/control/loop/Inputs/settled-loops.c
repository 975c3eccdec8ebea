/* settled-loops.c SWEEPS: one region that runs once around two loops that
 * repeat SWEEPS times each (one with its barrier, then one nowait), and no
 * other region: what a longer run adds is its loops' executions alone. */
#include <stdio.h>
#include <stdlib.h>

#define N (1u << 16) /* doubles: 512 KiB */

static double a[N];

int main(int argc, char **argv)
{
    int sweeps = argc > 1 ? atoi(argv[1]) : 100;
#pragma omp parallel num_threads(2)
    {
        for (int s = 0; s < sweeps; s++) {
#pragma omp for schedule(static)
            for (unsigned i = 0; i < N; i += 8)
                a[i] += 1.0;
        }
        for (int s = 0; s < sweeps; s++) {
#pragma omp for schedule(static) nowait
            for (unsigned i = 0; i < N; i += 8)
                a[i] += 1.0;
        }
    }
    double sum = 0;
    for (unsigned i = 0; i < N; i += 8)
        sum += a[i];
    printf("sum %.0f\n", sum);
    return 0;
}
