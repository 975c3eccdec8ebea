/* pagefault-long-region.c: a short region first-touches an array of MIB MiB (4 by default), then one long
 * region sweeps it for SECS seconds (1.5 by default): a program whose work is one execution of one region.
 * usage: pagefault-long-region [MIB [SECS]] */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    size_t n = (argc > 1 ? strtoul(argv[1], NULL, 10) : 4) << 17;
    double secs = argc > 2 ? atof(argv[2]) : 1.5, sum = 0;
    double *a = malloc(n * sizeof *a);
    if (!a)
        return 1;
#pragma omp parallel for
    for (size_t i = 0; i < n; i++)
        a[i] = (double)(i % 1000);
    double t0 = seconds();
    int go = 1;
    long sweeps = 0;
#pragma omp parallel reduction(+ : sum, sweeps)
    while (go) {
#pragma omp for
        for (size_t i = 0; i < n; i++) {
            a[i] = a[i] * 0.5 + 1.0;
            sum += a[i];
        }
        sweeps++;
#pragma omp single
        go = seconds() - t0 < secs;
    }
    printf("sum %s\n", sum > 0 && sweeps > 0 ? "ok" : "bad");
    free(a);
    return 0;
}
