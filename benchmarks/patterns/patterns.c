/* patterns.c: placement-pattern benchmark: threads sweep blocks first-touched by another thread (swapped, shifted) or by themselves (local), one region per iteration or all in one long region. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Usage: patterns MODE [MiB [iterations]]
 *   local    thread t first-touches block t and sweeps it: nothing to gain by placement
 *   swapped  thread t first-touches block n-1-t and sweeps block t (the demo's pattern)
 *   shifted  thread t first-touches block t and sweeps block (t+1) mod n
 * MODE-long (local-long, swapped-long, shifted-long) runs every iteration
 * inside one parallel region, with a barrier between iterations: the shape
 * per-region placement cannot help (one execution) and online migration
 * (imar2) is for. Each thread sweeps its block in SLICES worksharing loops
 * per iteration, so the OMPT dispatch events a migration monitor weighs come
 * many times per sweep, not once.
 * Threads start bound in order (run with OMP_PROC_BIND=close), so first touch
 * is deterministic. Prints "Time in seconds = X" (the iterations, not the
 * first touch) and "Verification = SUCCESSFUL" when every element equals the
 * serial recurrence, as benchmarks/harness reads them. */
static int owner_of(const char *mode, int t, int n)
{
    if (strcmp(mode, "swapped") == 0)
        return n - 1 - t;
    if (strcmp(mode, "shifted") == 0)
        return (t + n - 1) % n; /* block t is touched by t-1 and swept by t */
    return t;
}

/* Worksharing loops per sweep in the long modes. */
enum { SLICES = 256 };

/* One sweep step of elements [lo, hi): the recurrence the verification replays. */
static void sweep(double *a, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++)
        a[i] = a[i] * 0.999 + 0.25;
}

/* The iterations in one region: block b (its bounds as in the per-region
 * loop) is swept in SLICES static loops over the blocks, so thread b sweeps
 * block b, as there. */
static void sweep_long(double *a, size_t n, int iters)
{
#pragma omp parallel
    {
        int m = omp_get_num_threads();
        size_t blk = n / (size_t)m;
        for (int it = 0; it < iters; it++) {
            for (int s = 0; s < SLICES; s++) {
#pragma omp for schedule(static) nowait
                for (int b = 0; b < m; b++) {
                    size_t lo = (size_t)b * blk, len = b == m - 1 ? n - lo : blk;
                    sweep(a, lo + len * (size_t)s / SLICES, lo + len * (size_t)(s + 1) / SLICES);
                }
            }
#pragma omp barrier
        }
    }
}

int main(int argc, char **argv)
{
    char mode[16] = "";
    int one_region = 0;
    if (argc > 1 && strlen(argv[1]) < sizeof mode) {
        strcpy(mode, argv[1]);
        char *dash = strstr(mode, "-long");
        if (dash && dash[5] == '\0') {
            *dash = '\0';
            one_region = 1;
        }
    }
    if (strcmp(mode, "local") && strcmp(mode, "swapped") && strcmp(mode, "shifted")) {
        fprintf(stderr, "usage: patterns local|swapped|shifted[-long] [MiB [iterations]]\n");
        return 2;
    }
    size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 32;
    int iters = argc > 3 ? atoi(argv[3]) : 20;
    if (mib < 1 || iters < 1) {
        fprintf(stderr, "patterns: MiB and iterations must be positive\n");
        return 2;
    }
    size_t n = mib * 1024 * 1024 / sizeof(double);
    double *a = malloc(n * sizeof *a);
    if (!a) {
        perror("malloc");
        return 1;
    }
    int nt = 1;
#pragma omp parallel
    {
        int t = omp_get_thread_num();
#pragma omp single
        nt = omp_get_num_threads();
        /* This thread first-touches the block it owns. */
        for (int b = 0; b < nt; b++) {
            if (owner_of(mode, b, nt) != t)
                continue;
            size_t blk = n / (size_t)nt, lo = (size_t)b * blk, hi = b == nt - 1 ? n : lo + blk;
            for (size_t i = lo; i < hi; i++)
                a[i] = (double)(i % 1000) * 0.5;
        }
    }
    double t0 = omp_get_wtime();
    if (one_region)
        sweep_long(a, n, iters);
    else
        for (int it = 0; it < iters; it++) {
#pragma omp parallel
            {
                int t = omp_get_thread_num(), m = omp_get_num_threads();
                size_t blk = n / (size_t)m, lo = (size_t)t * blk;
                sweep(a, lo, t == m - 1 ? n : lo + blk);
            }
        }
    double secs = omp_get_wtime() - t0;
    /* Every element went through the same recurrence from its start value. */
    int ok = 1;
    for (size_t i = 0; i < n && ok; i += 4099) {
        double v = (double)(i % 1000) * 0.5;
        for (int it = 0; it < iters; it++)
            v = v * 0.999 + 0.25;
        ok = a[i] == v;
    }
    printf("patterns %s%s: %d threads, %zu MiB, %d iterations\n", mode, one_region ? "-long" : "", nt, mib, iters);
    printf("Time in seconds = %.6f\n", secs);
    printf("Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    free(a);
    return ok ? 0 : 1;
}
