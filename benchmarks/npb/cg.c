/* cg.c: NPB CG, inverse power method with 25-step conjugate-gradient solves on a random sparse symmetric matrix. */
#include "npb_common.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED 314159265.0
#define RCOND 0.1
#define CGITMAX 25
/* Relative tolerance on zeta; a test overrides it to exercise the failure
 * path on a correct result. */
#ifndef CG_EPSILON
#define CG_EPSILON 1.0e-10
#endif

/* Rows are cut into NBLK fixed blocks and every vector loop runs over blocks
 * with a static schedule. Dot products are summed within a block in row
 * order, then over blocks in block order, so every result is bit-identical
 * for any thread count; the same block schedule everywhere also means each
 * thread first-touches exactly the rows it later computes. 128 blocks keep
 * up to 128 threads busy and cost one 1 KiB pass per reduction. */
#define NBLK 128

/* Per-class parameters (npb-verify.json "CG"), indexed S W A B C. */
static const int cg_na[5] = {1400, 7000, 14000, 75000, 150000};
static const int cg_nonzer[5] = {7, 8, 11, 13, 15};
static const int cg_niter[5] = {15, 15, 15, 75, 75};
static const double cg_shift[5] = {10.0, 12.0, 20.0, 60.0, 110.0};
static const double cg_zeta_ref[5] = {8.5971775078648, 10.362595087124, 17.130235054029,
                                      22.712745482631, 28.973605592845};

static int na, nonzer;
static double shift;

/* The matrix in CSR form, column indices sorted within each row. */
static int *rowstr;
static int *colidx;
static double *aval;

static double *x, *z, *p, *q, *r;

/* Block partial sums of the two reductions in a CG step. Two arrays so a
 * thread that races ahead to the next reduction cannot overwrite values
 * another thread is still adding up (a barrier always separates uses of the
 * same array). */
static double part_a[NBLK], part_b[NBLK];

static inline int blk_lo(int b)
{
    return (int)((long)na * b / NBLK);
}

/* Same sum on every thread: the block partials in block order. Called after
 * the barrier that ends the loop writing them. */
static double sum_blocks(const double *part)
{
    double s = 0.0;
    for (int b = 0; b < NBLK; b++)
        s += part[b];
    return s;
}

/* Row j of A times v. Four partial sums break the floating-point add
 * chain (one add in flight per row would bound the matrix-vector product by
 * add latency, not memory); the order is fixed, so results stay
 * independent of the thread count. */
static inline double row_dot(int j, const double *v)
{
    int k = rowstr[j], end = rowstr[j + 1];
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    for (; k + 4 <= end; k += 4) {
        s0 += aval[k] * v[colidx[k]];
        s1 += aval[k + 1] * v[colidx[k + 1]];
        s2 += aval[k + 2] * v[colidx[k + 2]];
        s3 += aval[k + 3] * v[colidx[k + 3]];
    }
    for (; k < end; k++)
        s0 += aval[k] * v[colidx[k]];
    return (s0 + s1) + (s2 + s3);
}

/* ---- Matrix generation ---------------------------------------------------- */

/* The na sparse generator vectors v_i, nonzer+1 slots each. */
struct generators {
    int stride;   /* nonzer + 1 */
    int *len;     /* entries in v_i */
    int *pos;     /* 0-based positions */
    double *val;  /* values */
    double *w;    /* weight of v_i v_i^T: rcond^(i/na) as a running product */
};

/* Draws the generator vectors from one continuous LCG stream. Rejected draws
 * consume numbers too, so this must run in order; it is cheap next to the
 * assembly. */
static void make_generators(struct generators *g)
{
    int stride = nonzer + 1;
    g->stride = stride;
    g->len = npb_alloc((size_t)na * sizeof *g->len, "CG generators");
    g->pos = npb_alloc((size_t)na * stride * sizeof *g->pos, "CG generators");
    g->val = npb_alloc((size_t)na * stride * sizeof *g->val, "CG generators");
    g->w = npb_alloc((size_t)na * sizeof *g->w, "CG weights");

    int nn1 = 1;
    while (nn1 < na)
        nn1 *= 2;

    double tran = SEED;
    randlc(&tran, NPB_RNG_A); /* the first value is drawn and discarded */
    double ratio = pow(RCOND, 1.0 / (double)na);
    double size = 1.0;
    for (int i = 0; i < na; i++) {
        int *pos = g->pos + (size_t)i * stride;
        double *val = g->val + (size_t)i * stride;
        int n = 0;
        while (n < nonzer) {
            double v = randlc(&tran, NPB_RNG_A);
            double loc = randlc(&tran, NPB_RNG_A);
            int c = (int)(nn1 * loc);
            if (c >= na)
                continue;
            int dup = 0;
            for (int k = 0; k < n; k++)
                dup |= pos[k] == c;
            if (dup)
                continue;
            pos[n] = c;
            val[n] = v;
            n++;
        }
        /* Entry i is forced to 0.5: overwritten if drawn, appended if not. */
        int k = 0;
        while (k < n && pos[k] != i)
            k++;
        if (k == n) {
            pos[n] = i;
            n++;
        }
        val[k] = 0.5;
        g->len[i] = n;
        g->w[i] = size;
        size *= ratio;
    }
}

/* For each row j, the generators i whose v_i has an entry at j, in
 * increasing i, with that entry's slot: row j of A is the sum over them of
 * w_i v_i[j] v_i^T. */
struct inverse {
    int *start; /* na + 1 */
    int *gen;
    int *slot;
};

static void make_inverse(const struct generators *g, struct inverse *inv)
{
    int stride = g->stride;
    inv->start = calloc((size_t)na + 1, sizeof *inv->start);
    if (inv->start == NULL) {
        fprintf(stderr, "npb: cannot allocate the CG inverse index\n");
        exit(1);
    }
    long total = 0;
    for (int i = 0; i < na; i++) {
        for (int k = 0; k < g->len[i]; k++)
            inv->start[g->pos[(size_t)i * stride + k] + 1]++;
        total += g->len[i];
    }
    for (int j = 0; j < na; j++)
        inv->start[j + 1] += inv->start[j];
    inv->gen = npb_alloc((size_t)total * sizeof *inv->gen, "CG inverse index");
    inv->slot = npb_alloc((size_t)total * sizeof *inv->slot, "CG inverse index");
    int *fill = npb_alloc((size_t)na * sizeof *fill, "CG inverse index");
    memcpy(fill, inv->start, (size_t)na * sizeof *fill);
    for (int i = 0; i < na; i++)
        for (int k = 0; k < g->len[i]; k++) {
            int j = g->pos[(size_t)i * stride + k];
            inv->gen[fill[j]] = i;
            inv->slot[fill[j]] = k;
            fill[j]++;
        }
    free(fill);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sums row j of A into dense[] (marking first touches in mark[] with j) and
 * returns the number of its distinct columns, listed in cols[] (sorted when
 * with_values is set; the counting pass only needs the number).
 * Contributions to one entry are added in increasing generator order. The
 * diagonal gets rcond - shift with generator j's own contribution, so
 * A = sum w_i v_i v_i^T + (rcond - shift) I. */
static int assemble_row(int j, const struct generators *g, const struct inverse *inv,
                        int *mark, double *dense, int *cols, int with_values)
{
    int stride = g->stride;
    int n = 0;
    for (int e = inv->start[j]; e < inv->start[j + 1]; e++) {
        int i = inv->gen[e];
        const int *pos = g->pos + (size_t)i * stride;
        const double *val = g->val + (size_t)i * stride;
        double scale = g->w[i] * val[inv->slot[e]];
        for (int k = 0; k < g->len[i]; k++) {
            int c = pos[k];
            double v = 0.0;
            if (with_values) {
                v = val[k] * scale;
                if (c == j && i == j)
                    v += RCOND - shift;
            }
            if (mark[c] != j) {
                mark[c] = j;
                dense[c] = v;
                cols[n++] = c;
            } else {
                dense[c] += v;
            }
        }
    }
    if (with_values)
        qsort(cols, (size_t)n, sizeof *cols, cmp_int);
    return n;
}

/* Builds the CSR matrix: count the distinct columns of every row, prefix-sum
 * them, then fill each row. Rows are handled in the CG block schedule so the
 * thread that multiplies a row is the one that first wrote it. */
static void make_matrix(void)
{
    struct generators g;
    struct inverse inv;
    make_generators(&g);
    make_inverse(&g, &inv);

    rowstr = npb_alloc(((size_t)na + 1) * sizeof *rowstr, "CG row starts");
    int *rowlen = npb_alloc((size_t)na * sizeof *rowlen, "CG row lengths");

#pragma omp parallel
    {
        int *mark = npb_alloc((size_t)na * sizeof *mark, "CG assembly scratch");
        double *dense = npb_alloc((size_t)na * sizeof *dense, "CG assembly scratch");
        int *cols = npb_alloc((size_t)na * sizeof *cols, "CG assembly scratch");
        for (int c = 0; c < na; c++)
            mark[c] = -1;

#pragma omp for schedule(static)
        for (int b = 0; b < NBLK; b++)
            for (int j = blk_lo(b); j < blk_lo(b + 1); j++)
                rowlen[j] = assemble_row(j, &g, &inv, mark, dense, cols, 0);

#pragma omp single
        {
            rowstr[0] = 0;
            for (int j = 0; j < na; j++)
                rowstr[j + 1] = rowstr[j] + rowlen[j];
            colidx = npb_alloc((size_t)rowstr[na] * sizeof *colidx, "CG matrix");
            aval = npb_alloc((size_t)rowstr[na] * sizeof *aval, "CG matrix");
        }

        for (int c = 0; c < na; c++)
            mark[c] = -1;
#pragma omp for schedule(static)
        for (int b = 0; b < NBLK; b++)
            for (int j = blk_lo(b); j < blk_lo(b + 1); j++) {
                int n = assemble_row(j, &g, &inv, mark, dense, cols, 1);
                int base = rowstr[j];
                for (int k = 0; k < n; k++) {
                    colidx[base + k] = cols[k];
                    aval[base + k] = dense[cols[k]];
                }
            }
        free(mark);
        free(dense);
        free(cols);
    }

    free(rowlen);
    free(g.len);
    free(g.pos);
    free(g.val);
    free(g.w);
    free(inv.start);
    free(inv.gen);
    free(inv.slot);
}

/* ---- Benchmark -------------------------------------------------------------- */

/* Allocates the vectors and first-touches them in the block schedule. */
static void make_vectors(void)
{
    x = npb_alloc((size_t)na * sizeof *x, "CG vectors");
    z = npb_alloc((size_t)na * sizeof *z, "CG vectors");
    p = npb_alloc((size_t)na * sizeof *p, "CG vectors");
    q = npb_alloc((size_t)na * sizeof *q, "CG vectors");
    r = npb_alloc((size_t)na * sizeof *r, "CG vectors");
#pragma omp parallel for schedule(static)
    for (int b = 0; b < NBLK; b++)
        for (int j = blk_lo(b); j < blk_lo(b + 1); j++) {
            x[j] = 1.0;
            z[j] = q[j] = r[j] = p[j] = 0.0;
        }
}

static void reset_x(void)
{
#pragma omp parallel for schedule(static)
    for (int b = 0; b < NBLK; b++)
        for (int j = blk_lo(b); j < blk_lo(b + 1); j++)
            x[j] = 1.0;
}

/* One outer iteration: z ~ A^-1 x by CGITMAX unpreconditioned CG steps from
 * z = 0, the residual norm ||x - A z||, zeta = shift + 1/(x.z), and
 * x = z/||z||. All in one parallel region; every reduction is a block sum
 * (see NBLK), each followed by the barrier that ends its loop. */
static void cg_iteration(double *rnorm_out, double *zeta_out)
{
    double rnorm = 0.0, zeta = 0.0;
#pragma omp parallel
    {
        double rho = 0.0;
#pragma omp for schedule(static)
        for (int b = 0; b < NBLK; b++) {
            double s = 0.0;
            for (int j = blk_lo(b); j < blk_lo(b + 1); j++) {
                double xj = x[j];
                q[j] = 0.0;
                z[j] = 0.0;
                r[j] = xj;
                p[j] = xj;
                s += xj * xj;
            }
            part_b[b] = s;
        }
        rho = sum_blocks(part_b);

        for (int it = 0; it < CGITMAX; it++) {
            /* q = A p and p.q */
#pragma omp for schedule(static)
            for (int b = 0; b < NBLK; b++) {
                double s = 0.0;
                for (int j = blk_lo(b); j < blk_lo(b + 1); j++) {
                    double t = row_dot(j, p);
                    q[j] = t;
                    s += p[j] * t;
                }
                part_a[b] = s;
            }
            double alpha = rho / sum_blocks(part_a);

            /* z += alpha p, r -= alpha q, and r.r */
#pragma omp for schedule(static)
            for (int b = 0; b < NBLK; b++) {
                double s = 0.0;
                for (int j = blk_lo(b); j < blk_lo(b + 1); j++) {
                    z[j] += alpha * p[j];
                    double rj = r[j] - alpha * q[j];
                    r[j] = rj;
                    s += rj * rj;
                }
                part_b[b] = s;
            }
            double rho_new = sum_blocks(part_b);
            double beta = rho_new / rho;
            rho = rho_new;

            /* p = r + beta p; the loop's barrier completes p before A p. */
#pragma omp for schedule(static)
            for (int b = 0; b < NBLK; b++)
                for (int j = blk_lo(b); j < blk_lo(b + 1); j++)
                    p[j] = r[j] + beta * p[j];
        }

        /* ||x - A z|| */
#pragma omp for schedule(static)
        for (int b = 0; b < NBLK; b++) {
            double s = 0.0;
            for (int j = blk_lo(b); j < blk_lo(b + 1); j++) {
                double d = x[j] - row_dot(j, z);
                s += d * d;
            }
            part_a[b] = s;
        }
        double res = sqrt(sum_blocks(part_a));

        /* x.z and z.z. Their loop rewrites part_a, so every thread must
         * have read the residual partials first: hence the barrier. */
#pragma omp barrier
#pragma omp for schedule(static)
        for (int b = 0; b < NBLK; b++) {
            double sxz = 0.0, szz = 0.0;
            for (int j = blk_lo(b); j < blk_lo(b + 1); j++) {
                sxz += x[j] * z[j];
                szz += z[j] * z[j];
            }
            part_b[b] = sxz;
            part_a[b] = szz;
        }
        double xz = sum_blocks(part_b);
        double inv_norm = 1.0 / sqrt(sum_blocks(part_a));

        /* x = z / ||z|| */
#pragma omp for schedule(static)
        for (int b = 0; b < NBLK; b++)
            for (int j = blk_lo(b); j < blk_lo(b + 1); j++)
                x[j] = inv_norm * z[j];

#pragma omp master
        {
            rnorm = res;
            zeta = shift + 1.0 / xz;
        }
    }
    *rnorm_out = rnorm;
    *zeta_out = zeta;
}

int main(int argc, char **argv)
{
    char cls = npb_class_from_args_allowed(argc, argv, "cg", "SWABC");
    int ci = npb_class_index(cls);
    na = cg_na[ci];
    nonzer = cg_nonzer[ci];
    shift = cg_shift[ci];
    int niter = cg_niter[ci];

    printf("\n NAS Parallel Benchmarks (ompnuma C/OpenMP) - CG Benchmark\n\n");
    printf(" Size: %11d\n", na);
    printf(" Iterations: %5d\n", niter);
    printf(" Number of available threads: %5d\n", omp_get_max_threads());

    double t_init = npb_wtime();
    make_matrix();
    make_vectors();
    printf(" Number of nonzeros = %d\n", rowstr[na]);
    printf(" Initialization time = %.3f seconds\n", npb_wtime() - t_init);

    /* Untimed warm-up iteration (pages, caches, thread team), then x = 1. */
    double rnorm, zeta;
    cg_iteration(&rnorm, &zeta);
    reset_x();

    printf("\n   iteration           ||r||                 zeta\n");
    double t0 = npb_timer_start();
    for (int it = 1; it <= niter; it++) {
        cg_iteration(&rnorm, &zeta);
        printf("    %5d       %20.14e%20.13e\n", it, rnorm, zeta);
    }
    double t = npb_timer_stop(t0);

    int ok = npb_rel_ok(zeta, cg_zeta_ref[ci], CG_EPSILON);
    printf(" Zeta is    %20.13e\n", zeta);
    printf(" Reference  %20.13e\n", cg_zeta_ref[ci]);
    printf(" Error is   %20.13e\n", fabs(zeta - cg_zeta_ref[ci]) / cg_zeta_ref[ci]);

    double nz1 = (double)nonzer * (nonzer + 1);
    double mops = 2.0 * niter * na * (3.0 + nz1 + 25.0 * (5.0 + nz1) + 3.0) / t / 1e6;
    npb_print_results("CG", cls, na, 0, 0, niter, t, mops, "floating point", ok);

    free(rowstr);
    free(colidx);
    free(aval);
    free(x);
    free(z);
    free(p);
    free(q);
    free(r);
    return ok ? 0 : 1;
}
