/* app_openblas.c: OpenBLAS's OpenMP build (Debian's libopenblas0-openmp) multiplying matrices (dgemm) and a matrix by vectors (dgemv), for the benchmark harness: a Debian library built against libgomp, unmodified, through a small caller. */
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_clock.h"
#include "rt_emu_mark.h"

/* Usage: app-openblas [N [REPS]]
 * REPS times (4 by default): C = A x B (dgemm, N x N, N 1000 by default) and y = C x x (dgemv), timed.
 * "Checksum = ..." is a hash of the bytes of the last C and y: the harness checks every
 * configuration's result is the first run's, bit for bit. "Verification = SUCCESSFUL" when 64
 * entries of C and of y agree with a plain sum to 1e-9 relative. The timed part is tag 1 for the emulated
 * VM's counts (rt_emu_mark.h). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static int close_to(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want));
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 8 || n > 20000 || reps < 1) {
        fprintf(stderr, "usage: app-openblas [N 8..20000 [REPS >= 1]]\n");
        return 2;
    }
    size_t nn = (size_t)n * (size_t)n;
    double *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *c = malloc(nn * sizeof *c);
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    if (!a || !b || !c || !x || !y) {
        perror("malloc");
        return 1;
    }
    for (size_t i = 0; i < nn; i++) {
        a[i] = (double)((i * 7 + 3) % 101) / 101.0 - 0.5;
        b[i] = (double)((i * 13 + 5) % 97) / 97.0 - 0.5;
    }
    for (int i = 0; i < n; i++)
        x[i] = (double)(i % 17) / 17.0;
    rt_emu_mark_tag(1);
    double t0 = app_now();
    for (int r = 0; r < reps; r++) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
        cblas_dgemv(CblasRowMajor, CblasNoTrans, n, n, 1.0, c, n, x, 1, 0.0, y, 1);
    }
    double secs = app_now() - t0;
    rt_emu_mark_tag(0);
    int ok = 1;
    for (int k = 0; k < 64 && ok; k++) {
        int i = (int)(((uint64_t)k * 2654435761u) % (uint64_t)n), j = (int)(((uint64_t)k * 40503u + 17) % (uint64_t)n);
        double want = 0;
        for (int l = 0; l < n; l++)
            want += a[(size_t)i * n + l] * b[(size_t)l * n + j];
        double yi = 0;
        for (int l = 0; l < n; l++)
            yi += c[(size_t)i * n + l] * x[l];
        ok = close_to(c[(size_t)i * n + j], want) && close_to(y[i], yi);
    }
    uint64_t h = fnv(fnv(0xcbf29ce484222325ull, c, nn * sizeof *c), y, (size_t)n * sizeof *y);
    printf("app-openblas: dgemm and dgemv, N = %d, %d times\n", n, reps);
    printf("Checksum = %016llx\n", (unsigned long long)h);
    printf("Time in seconds = %.6f\n", secs);
    printf("Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    free(a), free(b), free(c), free(x), free(y);
    return ok ? 0 : 1;
}
