/* mg.c: NPB MG, V-cycle multigrid on a periodic 3-D Poisson problem (classes S W A B C, NPB 3.1+ sizes). */
#include "npb_common.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-class parameters (NPB 3.1+; class W is 128^3 with 4 iterations since
 * 3.1). The grid is 2^lt points per dimension; smoother "a" for S W A, "b"
 * for B C; rnm2 is the official L2 norm of the final residual. */
struct mg_class {
    char cls;
    int lt;
    int nit;
    int smoother_b;
    double rnm2_ref;
};

static const struct mg_class mg_classes[] = {
    {'S', 5, 4, 0, 0.5307707005734e-04},
    {'W', 7, 4, 0, 0.6467329375339e-05},
    {'A', 8, 4, 0, 0.2433365309069e-05},
    {'B', 8, 20, 1, 0.1800564401355e-05},
    {'C', 9, 20, 1, 0.5706732285740e-06},
};

/* Official tolerance; overridable at compile time so a test can drive the
 * failure path with a correct result. */
#ifndef MG_EPSILON
#define MG_EPSILON 1.0e-8
#endif
#define MG_SEED 314159265.0
#define MG_MAXLEVEL 9
/* Longest grid line including the two ghost points (class C: 512 + 2). */
#define MG_MAXLINE ((1 << MG_MAXLEVEL) + 2)
/* How many extreme values of the random field become +1 and -1. */
#define MG_NEXTREME 10

/* Operator A: weights by number of coordinates that differ from the centre
 * (centre, 6 faces, 12 edges, 8 corners). The face weight is 0, so the
 * residual never sums the faces. */
static const double A_OP[4] = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
/* Smoothers: the corner weight is 0, so the smoother never sums corners. */
static const double C_SMOOTH_A[4] = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
static const double C_SMOOTH_B[4] = {-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0};

/* One level: n interior points per dimension plus a ghost layer on each
 * side, so m = n + 2 and the interior is index 1..n. x is the fastest index. */
typedef struct {
    int n;
    int m;
    double *a;
} grid;

static inline size_t at(const grid *g, int i3, int i2)
{
    return ((size_t)i3 * (size_t)g->m + (size_t)i2) * (size_t)g->m;
}

/* Periodic ghost refresh of plane i3 (1..n), called by the thread that has
 * just computed that plane, so it needs no synchronisation of its own: the
 * x faces of every row, then the two ghost rows (whole rows, so the edges
 * are right). The thread that owns plane n also fills ghost plane 0, and
 * the owner of plane 1 ghost plane n+1; they copy planes they have just
 * finished. The barrier at the end of the operator's loop publishes all of
 * it, so each operator costs one barrier. Operators never read neighbours
 * of their own output array, so no thread reads a ghost while it is being
 * written. */
static void plane_ghosts(grid *g, int i3)
{
    const int n = g->n;
    const size_t plane = (size_t)g->m * (size_t)g->m;
    double *a = g->a;
    for (int i2 = 1; i2 <= n; i2++) {
        double *row = a + at(g, i3, i2);
        row[0] = row[n];
        row[n + 1] = row[1];
    }
    memcpy(a + at(g, i3, 0), a + at(g, i3, n), (size_t)g->m * sizeof(double));
    memcpy(a + at(g, i3, n + 1), a + at(g, i3, 1), (size_t)g->m * sizeof(double));
    if (i3 == n)
        memcpy(a, a + at(g, n, 0), plane * sizeof(double));
    if (i3 == 1)
        memcpy(a + at(g, n + 1, 0), a + at(g, 1, 0), plane * sizeof(double));
}

/* Ghost refresh of a whole level, for data not produced by an operator. */
static void comm3(grid *g)
{
#pragma omp for schedule(static)
    for (int i3 = 1; i3 <= g->n; i3++)
        plane_ghosts(g, i3);
}

/* Zeroes a level with the static plane distribution every operator uses, so
 * the first touch puts each plane's pages near the thread that will work on
 * it. The ghost planes go with the first and last interior plane. */
static void zero_level(grid *g)
{
    const int n = g->n;
    const size_t plane = (size_t)g->m * (size_t)g->m;
#pragma omp for schedule(static)
    for (int i3 = 1; i3 <= n; i3++) {
        memset(g->a + at(g, i3, 0), 0, plane * sizeof(double));
        if (i3 == 1)
            memset(g->a, 0, plane * sizeof(double));
        if (i3 == n)
            memset(g->a + at(g, n + 1, 0), 0, plane * sizeof(double));
    }
}

/* r = v - A u (r may be v: each point reads only its own v). Followed by a
 * ghost refresh of r. */
static void resid(const grid *u, const grid *v, grid *r)
{
    const int n = u->n;
    const double a0 = A_OP[0], a2 = A_OP[2], a3 = A_OP[3];
#pragma omp for schedule(static)
    for (int i3 = 1; i3 <= n; i3++) {
        double u1[MG_MAXLINE], u2[MG_MAXLINE];
        for (int i2 = 1; i2 <= n; i2++) {
            const double *uc = u->a + at(u, i3, i2);
            const double *uym = u->a + at(u, i3, i2 - 1), *uyp = u->a + at(u, i3, i2 + 1);
            const double *uzm = u->a + at(u, i3 - 1, i2), *uzp = u->a + at(u, i3 + 1, i2);
            const double *uymzm = u->a + at(u, i3 - 1, i2 - 1), *uypzm = u->a + at(u, i3 - 1, i2 + 1);
            const double *uymzp = u->a + at(u, i3 + 1, i2 - 1), *uypzp = u->a + at(u, i3 + 1, i2 + 1);
            const double *vc = v->a + at(v, i3, i2);
            double *rc = r->a + at(r, i3, i2);
            /* Sums over the y-z cross: u1 = the 4 neighbours in the plane
             * x = const at distance 1, u2 = the 4 diagonal ones. An x shift
             * of u1 gives edges, of u2 corners. */
            for (int i1 = 0; i1 <= n + 1; i1++) {
                u1[i1] = uym[i1] + uyp[i1] + uzm[i1] + uzp[i1];
                u2[i1] = uymzm[i1] + uypzm[i1] + uymzp[i1] + uypzp[i1];
            }
            for (int i1 = 1; i1 <= n; i1++)
                rc[i1] = vc[i1] - a0 * uc[i1] - a2 * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                         - a3 * (u2[i1 - 1] + u2[i1 + 1]);
        }
        plane_ghosts(r, i3);
    }
}

/* u = u + S r with smoother weights c, then a ghost refresh of u. */
static void psinv(const grid *r, grid *u, const double c[4])
{
    const int n = u->n;
    const double c0 = c[0], c1 = c[1], c2 = c[2];
#pragma omp for schedule(static)
    for (int i3 = 1; i3 <= n; i3++) {
        double r1[MG_MAXLINE], r2[MG_MAXLINE];
        for (int i2 = 1; i2 <= n; i2++) {
            const double *rc = r->a + at(r, i3, i2);
            const double *rym = r->a + at(r, i3, i2 - 1), *ryp = r->a + at(r, i3, i2 + 1);
            const double *rzm = r->a + at(r, i3 - 1, i2), *rzp = r->a + at(r, i3 + 1, i2);
            const double *rymzm = r->a + at(r, i3 - 1, i2 - 1), *rypzm = r->a + at(r, i3 - 1, i2 + 1);
            const double *rymzp = r->a + at(r, i3 + 1, i2 - 1), *rypzp = r->a + at(r, i3 + 1, i2 + 1);
            double *uc = u->a + at(u, i3, i2);
            for (int i1 = 0; i1 <= n + 1; i1++) {
                r1[i1] = rym[i1] + ryp[i1] + rzm[i1] + rzp[i1];
                r2[i1] = rymzm[i1] + rypzm[i1] + rymzp[i1] + rypzp[i1];
            }
            for (int i1 = 1; i1 <= n; i1++)
                uc[i1] += c0 * rc[i1] + c1 * (rc[i1 - 1] + rc[i1 + 1] + r1[i1])
                          + c2 * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
        }
        plane_ghosts(u, i3);
    }
}

/* Full-weighting restriction of the fine residual rf to the coarse rc.
 * Coarse interior point J (array index) sits on fine array index 2J; the
 * weights are 1/2, 1/4, 1/8, 1/16 for centre, faces, edges and corners. */
static void rprj3(const grid *rf, grid *rc)
{
    const int nc = rc->n, nf = rf->n;
#pragma omp for schedule(static)
    for (int j3 = 1; j3 <= nc; j3++) {
        double c0[MG_MAXLINE], c1[MG_MAXLINE], c2[MG_MAXLINE];
        const int f3 = 2 * j3;
        for (int j2 = 1; j2 <= nc; j2++) {
            const int f2 = 2 * j2;
            const double *cc = rf->a + at(rf, f3, f2);
            const double *ym = rf->a + at(rf, f3, f2 - 1), *yp = rf->a + at(rf, f3, f2 + 1);
            const double *zm = rf->a + at(rf, f3 - 1, f2), *zp = rf->a + at(rf, f3 + 1, f2);
            const double *ymzm = rf->a + at(rf, f3 - 1, f2 - 1), *ypzm = rf->a + at(rf, f3 - 1, f2 + 1);
            const double *ymzp = rf->a + at(rf, f3 + 1, f2 - 1), *ypzp = rf->a + at(rf, f3 + 1, f2 + 1);
            double *s = rc->a + at(rc, j3, j2);
            /* Per fine column: centre, the 4 y-z neighbours, the 4 y-z
             * diagonals; shifted by one in x they become the next class. */
            for (int f1 = 1; f1 <= nf + 1; f1++) {
                c0[f1] = cc[f1];
                c1[f1] = ym[f1] + yp[f1] + zm[f1] + zp[f1];
                c2[f1] = ymzm[f1] + ypzm[f1] + ymzp[f1] + ypzp[f1];
            }
            for (int j1 = 1; j1 <= nc; j1++) {
                const int f1 = 2 * j1;
                s[j1] = 0.5 * c0[f1] + 0.25 * (c0[f1 - 1] + c0[f1 + 1] + c1[f1])
                        + 0.125 * (c1[f1 - 1] + c1[f1 + 1] + c2[f1])
                        + 0.0625 * (c2[f1 - 1] + c2[f1 + 1]);
            }
        }
        plane_ghosts(rc, j3);
    }
}

/* Trilinear prolongation of the coarse z onto the fine u: u = P z when
 * `add` is 0 (the level was zero before, so this saves a zeroing pass),
 * u += P z otherwise. Fine array index F lies on coarse index F/2 when F is
 * even and halfway between (F-1)/2 and (F+1)/2 when odd; each odd dimension
 * halves the weight. Loops over fine planes so every thread writes the
 * planes it owns under the common static distribution. */
static void interp(const grid *z, grid *u, int add)
{
    const int n = u->n, nc = z->n;
#pragma omp for schedule(static)
    for (int f3 = 1; f3 <= n; f3++) {
        double t[MG_MAXLINE];
        const int lo3 = f3 >> 1, hi3 = (f3 + 1) >> 1;
        for (int f2 = 1; f2 <= n; f2++) {
            const int lo2 = f2 >> 1, hi2 = (f2 + 1) >> 1;
            const double *a = z->a + at(z, lo3, lo2);
            const double *b = z->a + at(z, lo3, hi2);
            const double *c = z->a + at(z, hi3, lo2);
            const double *d = z->a + at(z, hi3, hi2);
            /* Coarse line combined over the (one, two or four) coarse rows
             * this fine row lies between; scaled at the end (by a power of
             * two, which is exact). */
            double scale = 1.0;
            if (lo3 == hi3 && lo2 == hi2) {
                for (int j = 0; j <= nc + 1; j++)
                    t[j] = a[j];
            } else if (lo3 == hi3) {
                scale = 0.5;
                for (int j = 0; j <= nc + 1; j++)
                    t[j] = a[j] + b[j];
            } else if (lo2 == hi2) {
                scale = 0.5;
                for (int j = 0; j <= nc + 1; j++)
                    t[j] = a[j] + c[j];
            } else {
                scale = 0.25;
                for (int j = 0; j <= nc + 1; j++)
                    t[j] = a[j] + b[j] + c[j] + d[j];
            }
            double *uf = u->a + at(u, f3, f2);
            const double se = scale, so = 0.5 * scale;
            if (add) {
                for (int j = 1; j <= nc; j++) {
                    uf[2 * j - 1] += so * (t[j - 1] + t[j]);
                    uf[2 * j] += se * t[j];
                }
            } else {
                for (int j = 1; j <= nc; j++) {
                    uf[2 * j - 1] = so * (t[j - 1] + t[j]);
                    uf[2 * j] = se * t[j];
                }
            }
        }
        plane_ghosts(u, f3);
    }
}

/* Everything the V-cycle works on: u and r on every level, v on the finest. */
typedef struct {
    int lt;
    grid u[MG_MAXLEVEL + 1];
    grid r[MG_MAXLEVEL + 1];
    grid v;
    const double *smoother;
} mg_state;

/* One V-cycle (NPB mg3P): restrict the residual down to level 1, smooth
 * there, then on the way up prolongate, recompute the residual and smooth.
 * Must be called by every thread of a parallel region. */
static void vcycle(mg_state *s)
{
    const int lt = s->lt;
    for (int k = lt; k >= 2; k--)
        rprj3(&s->r[k], &s->r[k - 1]);
    zero_level(&s->u[1]);
    psinv(&s->r[1], &s->u[1], s->smoother);
    for (int k = 2; k < lt; k++) {
        interp(&s->u[k - 1], &s->u[k], 0);
        resid(&s->u[k], &s->r[k], &s->r[k]);
        psinv(&s->r[k], &s->u[k], s->smoother);
    }
    interp(&s->u[lt - 1], &s->u[lt], 1);
    resid(&s->u[lt], &s->v, &s->r[lt]);
    psinv(&s->r[lt], &s->u[lt], s->smoother);
}

/* Sum of squares and max |.| of the interior of g, per plane into
 * partial[i3], combined in plane order by the caller so the result does not
 * depend on the thread count. */
static void norm_planes(const grid *g, double *sumsq, double *amax)
{
    const int n = g->n;
#pragma omp for schedule(static)
    for (int i3 = 1; i3 <= n; i3++) {
        double s = 0.0, mx = 0.0;
        for (int i2 = 1; i2 <= n; i2++) {
            const double *row = g->a + at(g, i3, i2);
            for (int i1 = 1; i1 <= n; i1++) {
                s += row[i1] * row[i1];
                mx = fmax(mx, fabs(row[i1]));
            }
        }
        sumsq[i3] = s;
        amax[i3] = mx;
    }
}

static void norm2u3(const grid *g, double *sumsq, double *amax, double *rnm2, double *rnmu)
{
    const int n = g->n;
    double s = 0.0, mx = 0.0;
    for (int i3 = 1; i3 <= n; i3++) {
        s += sumsq[i3];
        mx = fmax(mx, amax[i3]);
    }
    *rnm2 = sqrt(s / ((double)n * n * n));
    *rnmu = mx;
}

typedef struct {
    double val;
    int i1, i2, i3;
} extreme;

/* Keeps list[0..cnt) sorted so that list[0] is the one to drop first:
 * ascending values for the largest-k list (sign = +1), descending for the
 * smallest-k list (sign = -1). */
static void keep_extreme(extreme *list, int *cnt, extreme e, double sign)
{
    int k = *cnt;
    if (k == MG_NEXTREME) {
        if (sign * e.val <= sign * list[0].val)
            return;
        k = 0;
        /* Drop list[0] and slide the rest down until e fits. */
        while (k + 1 < MG_NEXTREME && sign * list[k + 1].val < sign * e.val) {
            list[k] = list[k + 1];
            k++;
        }
        list[k] = e;
        return;
    }
    while (k > 0 && sign * list[k - 1].val > sign * e.val) {
        list[k] = list[k - 1];
        k--;
    }
    list[k] = e;
    (*cnt)++;
}

/* The right-hand side (NPB zran3): the interior filled plane by plane from
 * one LCG stream (x fastest), each plane starting n*n steps further on so
 * planes are independent; then +1 at the 10 largest and -1 at the 10
 * smallest values and 0 elsewhere. The values are distinct (no LCG state
 * repeats within a period), so the chosen points do not depend on how the
 * planes were split between threads. */
static void make_rhs(grid *v)
{
    const int n = v->n;
    const int nthreads = omp_get_max_threads();
    extreme *hi = calloc((size_t)nthreads * MG_NEXTREME, sizeof *hi);
    extreme *lo = calloc((size_t)nthreads * MG_NEXTREME, sizeof *lo);
    int *nhi = calloc((size_t)nthreads, sizeof *nhi);
    int *nlo = calloc((size_t)nthreads, sizeof *nlo);
    if (!hi || !lo || !nhi || !nlo) {
        fprintf(stderr, "npb-mg: out of memory for the extreme-value lists\n");
        exit(1);
    }
    int used = 0;
#pragma omp parallel
    {
        const int t = omp_get_thread_num();
#pragma omp single
        used = omp_get_num_threads();
        extreme *myhi = hi + (size_t)t * MG_NEXTREME, *mylo = lo + (size_t)t * MG_NEXTREME;
        int mynhi = 0, mynlo = 0;
#pragma omp for schedule(static)
        for (int i3 = 1; i3 <= n; i3++) {
            double x = npb_skip46(MG_SEED, NPB_RNG_A, (uint64_t)(i3 - 1) * (uint64_t)n * (uint64_t)n);
            for (int i2 = 1; i2 <= n; i2++) {
                double *row = v->a + at(v, i3, i2);
                vranlc(n, &x, NPB_RNG_A, row + 1);
                for (int i1 = 1; i1 <= n; i1++) {
                    extreme e = {row[i1], i1, i2, i3};
                    keep_extreme(myhi, &mynhi, e, 1.0);
                    keep_extreme(mylo, &mynlo, e, -1.0);
                }
            }
        }
        nhi[t] = mynhi;
        nlo[t] = mynlo;
    }
    extreme best_hi[MG_NEXTREME], best_lo[MG_NEXTREME];
    int cnt_hi = 0, cnt_lo = 0;
    for (int t = 0; t < used; t++) {
        for (int k = 0; k < nhi[t]; k++)
            keep_extreme(best_hi, &cnt_hi, hi[(size_t)t * MG_NEXTREME + k], 1.0);
        for (int k = 0; k < nlo[t]; k++)
            keep_extreme(best_lo, &cnt_lo, lo[(size_t)t * MG_NEXTREME + k], -1.0);
    }
#pragma omp parallel
    {
        const size_t rowbytes = (size_t)v->m * sizeof(double);
#pragma omp for schedule(static)
        for (int i3 = 1; i3 <= n; i3++)
            for (int i2 = 1; i2 <= n; i2++)
                memset(v->a + at(v, i3, i2), 0, rowbytes);
#pragma omp single
        {
            for (int k = 0; k < cnt_lo; k++)
                v->a[at(v, best_lo[k].i3, best_lo[k].i2) + (size_t)best_lo[k].i1] = -1.0;
            for (int k = 0; k < cnt_hi; k++)
                v->a[at(v, best_hi[k].i3, best_hi[k].i2) + (size_t)best_hi[k].i1] = 1.0;
        }
        comm3(v);
    }
    free(hi);
    free(lo);
    free(nhi);
    free(nlo);
}

static void alloc_level(grid *g, int n, const char *what)
{
    g->n = n;
    g->m = n + 2;
    g->a = npb_alloc((size_t)g->m * (size_t)g->m * (size_t)g->m * sizeof(double), what);
}

int main(int argc, char **argv)
{
    const char cls = npb_class_from_args_allowed(argc, argv, "mg", "SWABC");
    const struct mg_class *pc = NULL;
    for (size_t i = 0; i < sizeof mg_classes / sizeof mg_classes[0]; i++)
        if (mg_classes[i].cls == cls)
            pc = &mg_classes[i];
    const int lt = pc->lt, nit = pc->nit;
    const int nx = 1 << lt;

    printf("\n\n NAS Parallel Benchmarks (ompnuma, C + OpenMP) - MG Benchmark\n\n");
    printf(" Size: %4dx%4dx%4d  (class %c)\n", nx, nx, nx, cls);
    printf(" Iterations: %d\n", nit);
    printf(" Number of available threads: %d\n\n", omp_get_max_threads());

    mg_state s;
    s.lt = lt;
    s.smoother = pc->smoother_b ? C_SMOOTH_B : C_SMOOTH_A;
    for (int k = 1; k <= lt; k++) {
        alloc_level(&s.u[k], 1 << k, "u");
        alloc_level(&s.r[k], 1 << k, "r");
    }
    alloc_level(&s.v, nx, "v");
    double *sumsq = npb_alloc((size_t)(nx + 1) * sizeof(double), "norm partials");
    double *amax = npb_alloc((size_t)(nx + 1) * sizeof(double), "norm partials");

    /* First touch of every level with the operators' plane distribution. */
#pragma omp parallel
    {
        for (int k = 1; k <= lt; k++) {
            zero_level(&s.u[k]);
            zero_level(&s.r[k]);
        }
        zero_level(&s.v);
    }
    make_rhs(&s.v);

    /* Untimed warm-up: one V-cycle brings code and data into cache and
     * pages into place, as the reference benchmark does. */
#pragma omp parallel
    {
        resid(&s.u[lt], &s.v, &s.r[lt]);
        vcycle(&s);
        resid(&s.u[lt], &s.v, &s.r[lt]);
    }

    /* Restart from u = 0. v is never written by the V-cycle, so it already
     * holds exactly what rebuilding it would give. */
#pragma omp parallel
    zero_level(&s.u[lt]);

    double t0 = npb_timer_start();
#pragma omp parallel
    {
        resid(&s.u[lt], &s.v, &s.r[lt]);
        for (int it = 0; it < nit; it++) {
            vcycle(&s);
            resid(&s.u[lt], &s.v, &s.r[lt]);
        }
        norm_planes(&s.r[lt], sumsq, amax);
    }
    double rnm2, rnmu;
    norm2u3(&s.r[lt], sumsq, amax, &rnm2, &rnmu);
    double t = npb_timer_stop(t0);

    const int verified = npb_rel_ok(rnm2, pc->rnm2_ref, MG_EPSILON);
    printf(" L2 Norm is %20.13e\n", rnm2);
    printf(" Reference  %20.13e\n", pc->rnm2_ref);
    printf(" Relative error %.3e\n", fabs(rnm2 - pc->rnm2_ref) / pc->rnm2_ref);

    const double npts = (double)nx * nx * nx;
    const double mops = t > 0.0 ? 58.0 * nit * npts / t / 1.0e6 : 0.0;
    npb_print_results("MG", cls, nx, nx, nx, nit, t, mops, "floating point", verified);

    for (int k = 1; k <= lt; k++) {
        free(s.u[k].a);
        free(s.r[k].a);
    }
    free(s.v.a);
    free(sumsq);
    free(amax);
    return verified ? 0 : 1;
}
