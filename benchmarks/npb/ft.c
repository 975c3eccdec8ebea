/* ft.c: NPB FT, the heat equation solved with 3-D complex FFTs (classes S W A B C). */
#include "npb_common.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FT_MAXITER 20
/* Official tolerance; overridable at compile time so a test can drive the
 * failure path with a correct result. */
#ifndef FT_EPSILON
#define FT_EPSILON 1.0e-12
#endif
#define FT_SEED 314159265.0
#define FT_ALPHA 1.0e-6
#define FT_PI 3.141592653589793238
/* Lines transformed together. Element e of line b sits at [e * FT_B + b] in
 * the scratch buffers, so every butterfly runs over FT_B (or more)
 * contiguous doubles and vectorises; for the y and z directions it also
 * makes each gathered piece of a plane FT_B complex numbers long (4 cache
 * lines). Every dimension is a multiple of it. */
#define FT_B 16
/* Points summed into each checksum. */
#define FT_NCHECK 1024

/* Per-class parameters and the official checksum after each iteration. */
struct ft_class {
    char cls;
    int nx, ny, nz, niter;
    double chk[FT_MAXITER][2];
};

static const struct ft_class ft_classes[] = {
    {'S', 64, 64, 64, 6,
     {{5.546087004964e+02, 4.845363331978e+02},
      {5.546385409189e+02, 4.865304269511e+02},
      {5.546148406171e+02, 4.883910722336e+02},
      {5.545423607415e+02, 4.901273169046e+02},
      {5.544255039624e+02, 4.917475857993e+02},
      {5.542683411902e+02, 4.932597244941e+02}}},
    {'W', 128, 128, 32, 6,
     {{5.673612178944e+02, 5.293246849175e+02},
      {5.631436885271e+02, 5.282149986629e+02},
      {5.594024089970e+02, 5.270996558037e+02},
      {5.560698047020e+02, 5.260027904925e+02},
      {5.530898991250e+02, 5.249400845633e+02},
      {5.504159734538e+02, 5.239212247086e+02}}},
    {'A', 256, 256, 128, 6,
     {{5.046735008193e+02, 5.114047905510e+02},
      {5.059412319734e+02, 5.098809666433e+02},
      {5.069376896287e+02, 5.098144042213e+02},
      {5.077892868474e+02, 5.101336130759e+02},
      {5.085233095391e+02, 5.104914655194e+02},
      {5.091487099959e+02, 5.107917842803e+02}}},
    {'B', 512, 256, 256, 20,
     {{5.177643571579e+02, 5.077803458597e+02},
      {5.154521291263e+02, 5.088249431599e+02},
      {5.146409228649e+02, 5.096208912659e+02},
      {5.142378756213e+02, 5.101023387619e+02},
      {5.139626667737e+02, 5.103976610617e+02},
      {5.137423460082e+02, 5.105948019802e+02},
      {5.135547056878e+02, 5.107404165783e+02},
      {5.133910925466e+02, 5.108576573661e+02},
      {5.132470705390e+02, 5.109577278523e+02},
      {5.131197729984e+02, 5.110460304483e+02},
      {5.130070319283e+02, 5.111252433800e+02},
      {5.129070537032e+02, 5.111968077718e+02},
      {5.128182883502e+02, 5.112616233064e+02},
      {5.127393733383e+02, 5.113203605551e+02},
      {5.126691062020e+02, 5.113735928093e+02},
      {5.126064276004e+02, 5.114218460548e+02},
      {5.125504076570e+02, 5.114656139760e+02},
      {5.125002331720e+02, 5.115053595966e+02},
      {5.124551951846e+02, 5.115415130407e+02},
      {5.124146770029e+02, 5.115744692211e+02}}},
    {'C', 512, 512, 512, 20,
     {{5.195078707457e+02, 5.149019699238e+02},
      {5.155422171134e+02, 5.127578201997e+02},
      {5.144678022222e+02, 5.122251847514e+02},
      {5.140150594328e+02, 5.121090289018e+02},
      {5.137550426810e+02, 5.121143685824e+02},
      {5.135811056728e+02, 5.121496764568e+02},
      {5.134569343165e+02, 5.121870921893e+02},
      {5.133651975661e+02, 5.122193250322e+02},
      {5.132955192805e+02, 5.122454735794e+02},
      {5.132410471738e+02, 5.122663649603e+02},
      {5.131971141679e+02, 5.122830879827e+02},
      {5.131605205716e+02, 5.122965869718e+02},
      {5.131290734194e+02, 5.123075927445e+02},
      {5.131012720314e+02, 5.123166486553e+02},
      {5.130760908195e+02, 5.123241541685e+02},
      {5.130528295923e+02, 5.123304037599e+02},
      {5.130310107773e+02, 5.123356167976e+02},
      {5.130103090133e+02, 5.123399592211e+02},
      {5.129905029333e+02, 5.123435588985e+02},
      {5.129714421109e+02, 5.123465164008e+02}}},
};

/* ---- One-dimensional FFT of FT_B lines at once ----------------------------
 *
 * Self-sorting (Stockham) decimation in frequency: a stage splits every
 * current sub-transform of length len into 4 (or 2) of length len/4 whose
 * outputs interleave, writing into the other buffer. The data are viewed as
 * x[q + s*p] with s = n/len sub-transforms of length len (q < s, p < len);
 * the stage writes y[q + s*(4p + r)], r = 0..3, and the next stage sees
 * 4s sub-transforms of length len/4. After the last stage the result is in
 * natural order, with no bit reversal. Because q is the slowest-varying
 * index inside a run of s consecutive elements, each butterfly group
 * touches s*FT_B contiguous doubles. */

/* Roots of unity for one transform length: w[k] = exp(-2 pi i k / n). */
typedef struct {
    int n;
    int logn;
    double *wr;
    double *wi;
} fft_plan;

static void plan_init(fft_plan *p, int n)
{
    p->n = n;
    p->logn = 0;
    while ((1 << p->logn) < n)
        p->logn++;
    p->wr = npb_alloc((size_t)n * sizeof(double), "FFT roots");
    p->wi = npb_alloc((size_t)n * sizeof(double), "FFT roots");
    for (int k = 0; k < n; k++) {
        /* Each root from its own angle, not by repeated multiplication, so
         * the error stays at one rounding. */
        double t = 2.0 * FT_PI * (double)k / (double)n;
        p->wr[k] = cos(t);
        p->wi[k] = -sin(t);
    }
}

static void plan_free(fft_plan *p)
{
    free(p->wr);
    free(p->wi);
}

/* dir = +1 forward (exp(-i...)), -1 inverse (exp(+i...)), both unscaled. */
static void stage4(const fft_plan *pl, int len, int s, double dir,
                   const double *restrict xr, const double *restrict xi,
                   double *restrict yr, double *restrict yi)
{
    const int m = len / 4;
    const size_t run = (size_t)s * FT_B;
    for (int p = 0; p < m; p++) {
        /* W_len^(p r) = W_n^(p r s); p r s < 3n/4. */
        const size_t k1 = (size_t)p * s;
        const double w1r = pl->wr[k1], w1i = dir * pl->wi[k1];
        const double w2r = pl->wr[2 * k1], w2i = dir * pl->wi[2 * k1];
        const double w3r = pl->wr[3 * k1], w3i = dir * pl->wi[3 * k1];
        const double *ar = xr + (size_t)p * run, *ai = xi + (size_t)p * run;
        const double *br = ar + (size_t)m * run, *bi = ai + (size_t)m * run;
        const double *cr = br + (size_t)m * run, *ci = bi + (size_t)m * run;
        const double *dr = cr + (size_t)m * run, *di = ci + (size_t)m * run;
        double *y0r = yr + (size_t)4 * p * run, *y0i = yi + (size_t)4 * p * run;
        double *y1r = y0r + run, *y1i = y0i + run;
        double *y2r = y1r + run, *y2i = y1i + run;
        double *y3r = y2r + run, *y3i = y2i + run;
        for (size_t k = 0; k < run; k++) {
            const double t0r = ar[k] + cr[k], t0i = ai[k] + ci[k];
            const double t1r = ar[k] - cr[k], t1i = ai[k] - ci[k];
            const double t2r = br[k] + dr[k], t2i = bi[k] + di[k];
            const double t3r = br[k] - dr[k], t3i = bi[k] - di[k];
            /* W_4 = -i forward, +i inverse: rotate t3 by it. */
            const double j3r = dir * t3i, j3i = -dir * t3r;
            const double u1r = t1r + j3r, u1i = t1i + j3i;
            const double u2r = t0r - t2r, u2i = t0i - t2i;
            const double u3r = t1r - j3r, u3i = t1i - j3i;
            y0r[k] = t0r + t2r;
            y0i[k] = t0i + t2i;
            y1r[k] = u1r * w1r - u1i * w1i;
            y1i[k] = u1r * w1i + u1i * w1r;
            y2r[k] = u2r * w2r - u2i * w2i;
            y2i[k] = u2r * w2i + u2i * w2r;
            y3r[k] = u3r * w3r - u3i * w3i;
            y3i[k] = u3r * w3i + u3i * w3r;
        }
    }
}

/* The final radix-2 stage when log2 n is odd: len = 2, so the only twiddle
 * is 1. */
static void stage2_last(int s, const double *restrict xr, const double *restrict xi,
                        double *restrict yr, double *restrict yi)
{
    const size_t run = (size_t)s * FT_B;
    for (size_t k = 0; k < run; k++) {
        const double ar = xr[k], ai = xi[k], br = xr[run + k], bi = xi[run + k];
        yr[k] = ar + br;
        yi[k] = ai + bi;
        yr[run + k] = ar - br;
        yi[run + k] = ai - bi;
    }
}

/* Transforms the FT_B lines in buf[0] (re) / buf[1] (im), using buf[2..3]
 * as the other half of the ping-pong. Returns 0 when the result is in
 * buf[0..1], 2 when it is in buf[2..3]. */
static int fft_lines(const fft_plan *pl, double dir, double *buf[4])
{
    int cur = 0, len = pl->n, s = 1;
    while (len >= 4) {
        stage4(pl, len, s, dir, buf[cur], buf[cur + 1], buf[2 - cur], buf[3 - cur]);
        cur = 2 - cur;
        len /= 4;
        s *= 4;
    }
    if (len == 2) {
        stage2_last(s, buf[cur], buf[cur + 1], buf[2 - cur], buf[3 - cur]);
        cur = 2 - cur;
    }
    return cur;
}

/* ---- The 3-D problem ------------------------------------------------------
 * Complex arrays are interleaved (re, im), x fastest, then y, then z: the
 * order in which the reference fills the initial field from its random
 * stream. Each z plane is touched first, and later worked on in the x and y
 * passes, by the thread the static plane schedule gives it. */
typedef struct {
    int nx, ny, nz;
    fft_plan px, py, pz;
    double *ex, *ey, *ez; /* per-dimension factors of the evolution operator */
    double *u0;           /* spectrum, advanced by one time step per iteration */
    double *u1;           /* physical-space field of the current step */
} ft_state;

static inline size_t cidx(const ft_state *st, int i, int j, int k)
{
    return 2 * (((size_t)k * (size_t)st->ny + (size_t)j) * (size_t)st->nx + (size_t)i);
}

/* exp(-4 alpha pi^2 (i'^2 + j'^2 + k'^2)) = ex[i] ey[j] ez[k], with i' the
 * signed frequency ((i + n/2) mod n) - n/2 of index i. Splitting the
 * exponential keeps a whole twiddle array out of memory. */
static void exp_table(double *e, int n)
{
    const double ap = -4.0 * FT_ALPHA * FT_PI * FT_PI;
    for (int i = 0; i < n; i++) {
        const int f = ((i + n / 2) % n) - n / 2;
        e[i] = exp(ap * (double)f * (double)f);
    }
}

static void tables_init(ft_state *st)
{
    plan_init(&st->px, st->nx);
    plan_init(&st->py, st->ny);
    plan_init(&st->pz, st->nz);
    exp_table(st->ex, st->nx);
    exp_table(st->ey, st->ny);
    exp_table(st->ez, st->nz);
}

static void tables_free(ft_state *st)
{
    plan_free(&st->px);
    plan_free(&st->py);
    plan_free(&st->pz);
}

/* Thread-private scratch: two buffers (re, im) of the longest line times FT_B. */
static void scratch_alloc(const ft_state *st, double *buf[4])
{
    int nmax = st->nx;
    if (st->ny > nmax)
        nmax = st->ny;
    if (st->nz > nmax)
        nmax = st->nz;
    for (int b = 0; b < 4; b++)
        buf[b] = npb_alloc((size_t)nmax * FT_B * sizeof(double), "FFT scratch");
}

static void scratch_free(double *buf[4])
{
    for (int b = 0; b < 4; b++)
        free(buf[b]);
}

/* Initial field of plane k: 2 nx ny consecutive values of the one stream
 * over the whole grid, so plane k starts 2 nx ny k steps after the seed. */
static void init_plane(const ft_state *st, int k)
{
    const uint64_t per_plane = 2 * (uint64_t)st->nx * (uint64_t)st->ny;
    double x = npb_skip46(FT_SEED, NPB_RNG_A, per_plane * (uint64_t)k);
    vranlc((int)per_plane, &x, NPB_RNG_A, st->u1 + cidx(st, 0, 0, k));
}

/* x then y transforms of plane k of u, in place; the plane stays in cache
 * between the two. */
static void fft_plane_xy(const ft_state *st, double *u, int k, double dir, double *buf[4])
{
    const int nx = st->nx, ny = st->ny;
    double *plane = u + cidx(st, 0, 0, k);
    for (int j0 = 0; j0 < ny; j0 += FT_B) {
        for (int b = 0; b < FT_B; b++) {
            const double *row = plane + 2 * (size_t)(j0 + b) * nx;
            for (int e = 0; e < nx; e++) {
                buf[0][e * FT_B + b] = row[2 * e];
                buf[1][e * FT_B + b] = row[2 * e + 1];
            }
        }
        const int r = fft_lines(&st->px, dir, buf);
        for (int b = 0; b < FT_B; b++) {
            double *row = plane + 2 * (size_t)(j0 + b) * nx;
            for (int e = 0; e < nx; e++) {
                row[2 * e] = buf[r][e * FT_B + b];
                row[2 * e + 1] = buf[r + 1][e * FT_B + b];
            }
        }
    }
    for (int i0 = 0; i0 < nx; i0 += FT_B) {
        for (int e = 0; e < ny; e++) {
            const double *src = plane + 2 * ((size_t)e * nx + i0);
            for (int b = 0; b < FT_B; b++) {
                buf[0][e * FT_B + b] = src[2 * b];
                buf[1][e * FT_B + b] = src[2 * b + 1];
            }
        }
        const int r = fft_lines(&st->py, dir, buf);
        for (int e = 0; e < ny; e++) {
            double *dst = plane + 2 * ((size_t)e * nx + i0);
            for (int b = 0; b < FT_B; b++) {
                dst[2 * b] = buf[r][e * FT_B + b];
                dst[2 * b + 1] = buf[r + 1][e * FT_B + b];
            }
        }
    }
}

/* z transforms from src into dst, work shared over (y, x-block) columns.
 * With `evolve`, src is first multiplied by the evolution operator and
 * written back (src = U0 advanced one step), so the time step costs no
 * extra pass over memory. */
static void fft_z(const ft_state *st, double *src, double *dst, double dir, int evolve,
                  double *buf[4])
{
    const int nx = st->nx, ny = st->ny, nz = st->nz;
    const int nblk = nx / FT_B;
#pragma omp for collapse(2) schedule(static)
    for (int j = 0; j < ny; j++) {
        for (int ib = 0; ib < nblk; ib++) {
            const int i0 = ib * FT_B;
            for (int e = 0; e < nz; e++) {
                double *s = src + cidx(st, i0, j, e);
                if (evolve) {
                    const double f = st->ey[j] * st->ez[e];
                    for (int b = 0; b < FT_B; b++) {
                        const double g = f * st->ex[i0 + b];
                        s[2 * b] *= g;
                        s[2 * b + 1] *= g;
                    }
                }
                for (int b = 0; b < FT_B; b++) {
                    buf[0][e * FT_B + b] = s[2 * b];
                    buf[1][e * FT_B + b] = s[2 * b + 1];
                }
            }
            const int r = fft_lines(&st->pz, dir, buf);
            for (int e = 0; e < nz; e++) {
                double *d = dst + cidx(st, i0, j, e);
                for (int b = 0; b < FT_B; b++) {
                    d[2 * b] = buf[r][e * FT_B + b];
                    d[2 * b + 1] = buf[r + 1][e * FT_B + b];
                }
            }
        }
    }
}

/* (1/N) sum of u at the points (j mod nx, 3j mod ny, 5j mod nz), j = 1..1024.
 * Summed in a fixed order by one thread so the value does not depend on the
 * thread count. */
static void checksum(const ft_state *st, const double *u, double out[2])
{
    double sr = 0.0, si = 0.0;
    for (int j = 1; j <= FT_NCHECK; j++) {
        const size_t c = cidx(st, j % st->nx, (3 * j) % st->ny, (5 * j) % st->nz);
        sr += u[c];
        si += u[c + 1];
    }
    const double ntotal = (double)st->nx * st->ny * st->nz;
    out[0] = sr / ntotal;
    out[1] = si / ntotal;
}

/* Initial field and its forward transform into u0; with niter > 0 also the
 * time steps, each followed by an inverse transform into u1 and a checksum. */
static void ft_run(ft_state *st, int niter, double sums[][2])
{
#pragma omp parallel
    {
        double *buf[4];
        scratch_alloc(st, buf);
        /* Fill and transform each plane while it is in cache. */
#pragma omp for schedule(static)
        for (int k = 0; k < st->nz; k++) {
            init_plane(st, k);
            fft_plane_xy(st, st->u1, k, 1.0, buf);
        }
        fft_z(st, st->u1, st->u0, 1.0, 0, buf);
        for (int it = 0; it < niter; it++) {
            fft_z(st, st->u0, st->u1, -1.0, 1, buf);
#pragma omp for schedule(static)
            for (int k = 0; k < st->nz; k++)
                fft_plane_xy(st, st->u1, k, -1.0, buf);
#pragma omp single
            checksum(st, st->u1, sums[it]);
        }
        scratch_free(buf);
    }
}

int main(int argc, char **argv)
{
    const char cls = npb_class_from_args_allowed(argc, argv, "ft", "SWABC");
    const struct ft_class *pc = NULL;
    for (size_t i = 0; i < sizeof ft_classes / sizeof ft_classes[0]; i++)
        if (ft_classes[i].cls == cls)
            pc = &ft_classes[i];

    ft_state st;
    st.nx = pc->nx;
    st.ny = pc->ny;
    st.nz = pc->nz;
    const int niter = pc->niter;
    const size_t npts = (size_t)st.nx * st.ny * st.nz;

    printf("\n\n NAS Parallel Benchmarks (ompnuma, C + OpenMP) - FT Benchmark\n\n");
    printf(" Size: %4dx%4dx%4d  (class %c)\n", st.nx, st.ny, st.nz, cls);
    printf(" Iterations: %d\n", niter);
    printf(" Number of available threads: %d\n\n", omp_get_max_threads());

    st.u0 = npb_alloc(2 * npts * sizeof(double), "u0");
    st.u1 = npb_alloc(2 * npts * sizeof(double), "u1");
    st.ex = npb_alloc((size_t)st.nx * sizeof(double), "exponent table");
    st.ey = npb_alloc((size_t)st.ny * sizeof(double), "exponent table");
    st.ez = npb_alloc((size_t)st.nz * sizeof(double), "exponent table");

    /* First touch with the plane schedule the x/y passes use. */
    const size_t plane_bytes = 2 * (size_t)st.nx * st.ny * sizeof(double);
#pragma omp parallel for schedule(static)
    for (int k = 0; k < st.nz; k++) {
        memset(st.u0 + cidx(&st, 0, 0, k), 0, plane_bytes);
        memset(st.u1 + cidx(&st, 0, 0, k), 0, plane_bytes);
    }

    /* Untimed pass over everything but the time steps, as the reference
     * does, so code, tables and pages are warm. */
    tables_init(&st);
    ft_run(&st, 0, NULL);
    tables_free(&st);

    /* Timed: tables, initial field, forward transform, all time steps. */
    double sums[FT_MAXITER][2];
    double t0 = npb_timer_start();
    tables_init(&st);
    ft_run(&st, niter, sums);
    tables_free(&st);
    double t = npb_timer_stop(t0);

    int verified = 1;
    for (int it = 0; it < niter; it++) {
        const double dr = sums[it][0] - pc->chk[it][0], di = sums[it][1] - pc->chk[it][1];
        const double err = sqrt(dr * dr + di * di) / hypot(pc->chk[it][0], pc->chk[it][1]);
        /* Written so that a NaN fails. */
        const int ok = err <= FT_EPSILON;
        verified = verified && ok;
        printf(" T = %5d     Checksum = %22.12e %22.12e  %s\n", it + 1, sums[it][0],
               sums[it][1], ok ? "ok" : "WRONG");
    }

    const double n = (double)npts;
    const double mops = t > 0.0
        ? n * (14.8157 + 7.19641 * log(n) + (5.23518 + 7.21113 * log(n)) * niter) / t / 1.0e6
        : 0.0;
    npb_print_results("FT", cls, st.nx, st.ny, st.nz, niter, t, mops, "floating point",
                      verified);

    free(st.u0);
    free(st.u1);
    free(st.ex);
    free(st.ey);
    free(st.ez);
    return verified ? 0 : 1;
}
