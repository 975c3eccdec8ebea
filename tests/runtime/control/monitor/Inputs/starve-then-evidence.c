/* starve-then-evidence.c: a long region whose sampling finds nothing, then a short region (in hot()) executed again and again for the given seconds: the migration monitor waits for evidence through the first and wakes for the second. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "monotonic.h"

#define N (1 << 15)
static double a[N];
static volatile long hot_runs;

/* Its region is named hot+OFFSET: the fork is not its last call, so the
 * call site is in hot, not in its caller. */
__attribute__((noinline)) void hot(void)
{
#pragma omp parallel num_threads(2)
#pragma omp for schedule(dynamic, 256)
    for (int i = 0; i < N; i++)
        a[i] = a[i] * 0.5 + i;
    hot_runs++;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.3, t0 = now();
    int go = 1;
#pragma omp parallel num_threads(2)
    while (go) {
#pragma omp for schedule(dynamic, 256)
        for (int i = 0; i < N; i++)
            a[i] = a[i] * 0.5 + i;
#pragma omp single
        go = now() - t0 < secs;
    }
    for (t0 = now(); now() - t0 < secs;)
        hot();
    printf("long region, then hot() %s\n", hot_runs > 0 ? "ran" : "did not run");
    return 0;
}
