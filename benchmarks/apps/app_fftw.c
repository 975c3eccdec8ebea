/* app_fftw.c: FFTW's OpenMP threads (Debian's libfftw3_omp.so.3, in libfftw3-double3; headers and link in libfftw3-dev) computing 3-D complex DFTs forward and backward, for the benchmark harness: a Debian library built against libgomp, unmodified, through a small caller. */
#include <fftw3.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_clock.h"
#include "rt_emu_mark.h"

/* From libgomp.so.1, which libfftw3_omp needs anyway (this caller is linked to it, never built with
 * -fopenmp): the team size the OpenMP runtime would give a region, OMP_NUM_THREADS included. */
int omp_get_max_threads(void);

/* Usage: app-fftw [N [REPS]]
 * An N x N x N complex input (N 128 by default: 32 MiB an array; three arrays, input, spectrum and
 * round trip, 96 MiB), filled here by the primary thread alone, as a serial program's set-up does.
 * Plans with FFTW_ESTIMATE (no wisdom, no timing: the same plan in every run of one thread count) for
 * omp_get_max_threads() threads, then REPS times (4 by default): forward (input -> spectrum) and
 * backward (spectrum -> round trip), each an FFTW execution whose loops are OpenMP regions of
 * libfftw3_omp. "Time in seconds = ..." is the REPS forward and backward transforms, planning left out;
 * the phases are printed apart, and marked for the emulated VM's counts (tag 1 forward, tag 2 backward,
 * the rest untagged). "Checksum = ..." is a hash of the bytes of the last spectrum and round
 * trip: the harness checks every configuration's result is the first run's, bit for bit.
 * "Verification = SUCCESSFUL" when the round trip divided by N^3 is the input to 1e-12 (relative to
 * the input's largest magnitude) and 8 entries of the spectrum agree with a plain sum to 1e-9
 * (relative to the sum of the input's magnitudes). */
/* FNV-1a's step over 64-bit words instead of bytes: a result's bits, an eighth of the serial work (which
 * the paced VM charges like the transforms). */
static uint64_t hash_words(uint64_t h, const void *p, size_t bytes)
{
    const unsigned char *b = p;
    for (size_t i = 0; i + 8 <= bytes; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    return h;
}

/* One entry (k0, k1, k2) of the forward DFT of x (e^{-2 pi i k.j / n}), summed directly: the twiddle from
 * a table of the n roots of unity, its index k.j mod n carried along each dimension. */
static void direct(const fftw_complex *x, int n, const double *wr, const double *wi, int k0, int k1, int k2,
                   double *re, double *im)
{
    double sr = 0, si = 0;
    for (int j0 = 0, t0 = 0; j0 < n; j0++, t0 = (t0 + k0) % n) {
        for (int j1 = 0, t01 = t0; j1 < n; j1++, t01 = (t01 + k1) % n) {
            const fftw_complex *row = x + ((size_t)j0 * n + j1) * n;
            for (int j2 = 0, t = t01; j2 < n; j2++) {
                sr += row[j2][0] * wr[t] - row[j2][1] * wi[t];
                si += row[j2][0] * wi[t] + row[j2][1] * wr[t];
                t += k2;
                if (t >= n)
                    t -= n;
            }
        }
    }
    *re = sr, *im = si;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 128, reps = argc > 2 ? atoi(argv[2]) : 4;
    if (n < 4 || n > 1024 || reps < 1) {
        fprintf(stderr, "usage: app-fftw [N 4..1024 [REPS >= 1]]\n");
        return 2;
    }
    int threads = omp_get_max_threads();
    if (!fftw_init_threads()) {
        fprintf(stderr, "app-fftw: fftw_init_threads failed\n");
        return 1;
    }
    fftw_plan_with_nthreads(threads);
    size_t total = (size_t)n * (size_t)n * (size_t)n;
    fftw_complex *in = fftw_alloc_complex(total), *spec = fftw_alloc_complex(total);
    fftw_complex *back = fftw_alloc_complex(total);
    double *wr = malloc((size_t)n * sizeof *wr), *wi = malloc((size_t)n * sizeof *wi);
    if (!in || !spec || !back || !wr || !wi) {
        perror("fftw_alloc_complex");
        return 1;
    }
    /* FFTW_ESTIMATE never writes the arrays while planning; preserve the input of both transforms. */
    double t0 = app_now();
    fftw_plan fwd = fftw_plan_dft_3d(n, n, n, in, spec, FFTW_FORWARD, FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
    fftw_plan bwd = fftw_plan_dft_3d(n, n, n, spec, back, FFTW_BACKWARD, FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
    double t_plan = app_now() - t0;
    if (!fwd || !bwd) {
        fprintf(stderr, "app-fftw: no plan for %d^3 with %d threads\n", n, threads);
        return 1;
    }
    /* A smooth wave (one table per dimension) plus a deterministic jitter: every frequency gets some
     * energy. */
    for (int t = 0; t < n; t++) {
        wr[t] = sin(0.1 * t);
        wi[t] = cos(0.07 * t);
    }
    double in_max = 0, in_sum = 0;
    for (size_t i = 0; i < total; i++) {
        size_t a = i % (size_t)n, b = (i / (size_t)n) % (size_t)n;
        in[i][0] = wr[a] * wi[b] + (double)((i * 7 + 3) % 101) / 101.0 - 0.5;
        in[i][1] = (double)((i * 13 + 5) % 97) / 97.0 - 0.5;
        double m = sqrt(in[i][0] * in[i][0] + in[i][1] * in[i][1]);
        in_max = fmax(in_max, m);
        in_sum += m;
    }
    double t_fwd = 0, t_bwd = 0;
    for (int r = 0; r < reps; r++) {
        double a = app_now();
        rt_emu_mark_tag(1);
        fftw_execute(fwd);
        double b = app_now();
        rt_emu_mark_tag(2);
        fftw_execute(bwd);
        rt_emu_mark_tag(0);
        t_fwd += b - a;
        t_bwd += app_now() - b;
    }
    double scale = 1.0 / (double)total, err = 0;
    for (size_t i = 0; i < total; i++) {
        double dr = back[i][0] * scale - in[i][0], di = back[i][1] * scale - in[i][1];
        err = fmax(err, dr * dr + di * di);
    }
    err = sqrt(err) / in_max;
    for (int t = 0; t < n; t++) {
        wr[t] = cos(2 * M_PI * t / n);
        wi[t] = -sin(2 * M_PI * t / n);
    }
    double spec_err = 0;
    for (int k = 0; k < 8; k++) {
        int k0 = (int)(((uint64_t)k * 2654435761u) % (uint64_t)n), k1 = (int)(((uint64_t)k * 40503u + 17) % (uint64_t)n);
        int k2 = (k * 5 + 1) % n;
        double re, im;
        direct(in, n, wr, wi, k0, k1, k2, &re, &im);
        const double *got = spec[((size_t)k0 * n + k1) * n + k2];
        spec_err = fmax(spec_err, hypot(got[0] - re, got[1] - im) / in_sum);
    }
    int ok = err <= 1e-12 && spec_err <= 1e-9;
    uint64_t h = hash_words(hash_words(0xcbf29ce484222325ull, spec, total * sizeof *spec), back, total * sizeof *back);
    printf("app-fftw: 3-D complex DFT forward and backward, N = %d, %d times, %d threads\n", n, reps, threads);
    printf("Planning seconds = %.6f\n", t_plan);
    printf("Forward seconds = %.6f\n", t_fwd);
    printf("Backward seconds = %.6f\n", t_bwd);
    printf("Round-trip error = %.3e\n", err);
    printf("Spectrum error = %.3e\n", spec_err);
    printf("Checksum = %016llx\n", (unsigned long long)h);
    printf("Time in seconds = %.6f\n", t_fwd + t_bwd);
    printf("Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    fftw_destroy_plan(fwd);
    fftw_destroy_plan(bwd);
    fftw_free(in), fftw_free(spec), fftw_free(back);
    free(wr), free(wi);
    fftw_cleanup_threads();
    return ok ? 0 : 1;
}
