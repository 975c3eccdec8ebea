/* stream.c: STREAM (copy, scale, add, triad) on one team, vectors initialised by first touch (seed 2, §4.2). */
#include "stream_common.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    st_options o;
    st_parse(argc, argv, ST_PLAIN, &o);
    const size_t n = o.n;
    const long ln = (long)n;
    double *a = st_alloc(n, "a"), *b = st_alloc(n, "b"), *c = st_alloc(n, "c");
    int threads = 1;

    /* Initialised in parallel with the kernels' split, so first touch puts each thread's share on its node. */
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (long j = 0; j < ln; j++) {
            a[j] = 1.0;
            b[j] = 2.0;
            c[j] = 0.0;
        }
#pragma omp master
        threads = omp_get_num_threads();
        st_attach_share(a, n, "a");
        st_attach_share(b, n, "b");
        st_attach_share(c, n, "c");
        st_hints_apply();
    }

    printf("STREAM: %zu elements per vector (%.1f MiB each, %.1f MiB total), %d executions, %d threads\n", n,
           n * sizeof(double) / 1048576.0, 3.0 * n * sizeof(double) / 1048576.0, o.ntimes, threads);

    double *times = calloc(4 * (size_t)o.ntimes, sizeof(double));
    if (!times)
        return 2;
    double *tc = times, *ts = times + o.ntimes, *ta = times + 2 * o.ntimes, *tt = times + 3 * o.ntimes;
    const double s = ST_SCALAR;
    double t_all = st_now();
    for (int k = 0; k < o.ntimes; k++) {
        double t = st_now();
#pragma omp parallel for schedule(static)
        for (long j = 0; j < ln; j++)
            c[j] = a[j];
        tc[k] = st_now() - t;

        t = st_now();
#pragma omp parallel for schedule(static)
        for (long j = 0; j < ln; j++)
            b[j] = s * c[j];
        ts[k] = st_now() - t;

        t = st_now();
#pragma omp parallel for schedule(static)
        for (long j = 0; j < ln; j++)
            c[j] = a[j] + b[j];
        ta[k] = st_now() - t;

        t = st_now();
#pragma omp parallel for schedule(static)
        for (long j = 0; j < ln; j++)
            a[j] = b[j] + s * c[j];
        tt[k] = st_now() - t;
    }
    t_all = st_now() - t_all;

    /* The same recurrence on scalars gives the value every element must hold. */
    double ea = 1.0, eb = 2.0, ec = 0.0;
    for (int k = 0; k < o.ntimes; k++) {
        ec = ea;
        eb = s * ec;
        ec = ea + eb;
        ea = eb + s * ec;
    }
    int valid = st_check("a", a, n, ea);
    valid &= st_check("b", b, n, eb);
    valid &= st_check("c", c, n, ec);

    const double w = (double)sizeof(double) * (double)n;
    st_row rows[] = {{"Copy", 2 * w, tc, NULL}, {"Scale", 2 * w, ts, NULL},
                     {"Add", 3 * w, ta, NULL},  {"Triad", 3 * w, tt, NULL}};
    st_report("stream", &o, threads, rows, 4, valid, t_all, NULL);
    free(times);
    st_free(a);
    st_free(b);
    st_free(c);
    return valid ? 0 : 1;
}
