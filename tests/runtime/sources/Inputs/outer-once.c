/* outer-once.c [STEPS]: BT-MZ's shape: an outer team of 2 that runs once, each of its threads running an inner
 * team of 2 STEPS times (40 by default) over its own zone of an array. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZONE (2u << 20) /* doubles per zone */

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 40;
    double *a = malloc(2 * ZONE * sizeof *a), sum = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        double *z = a + (size_t)omp_get_thread_num() * ZONE;
        memset(z, 0, ZONE * sizeof *z);
        for (int step = 0; step < steps; step++) {
#pragma omp parallel for num_threads(2) reduction(+ : sum)
            for (size_t i = 0; i < ZONE; i++)
                sum += (z[i] += 1.0);
        }
    }
    printf("sum %.0f\n", sum);
    free(a);
    return 0;
}
