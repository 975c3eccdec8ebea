/* many-regions.c: one short parallel region executed again and again for the given seconds. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "monotonic.h"

#define N (1 << 14)
static double a[N];

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5, t0 = now();
    long execs = 0;
    while (now() - t0 < secs) {
#pragma omp parallel for num_threads(2) schedule(static)
        for (int i = 0; i < N; i++)
            a[i] = a[i] * 0.5 + i;
        execs++;
    }
    printf("%s\n", execs > 0 ? "ran" : "did not run");
    return 0;
}
