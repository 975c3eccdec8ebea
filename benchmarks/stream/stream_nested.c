/* stream_nested.c: Nested-STREAM: one team per NUMA node, each running the four STREAM kernels on its own vectors (seed 2, §4.3). */
#include "stream_common.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    st_options o;
    st_parse(argc, argv, ST_NESTED, &o);
    st_nesting_on();
    const int T = o.teams, K = o.ntimes;
    const size_t n = o.n;
    st_nest s;
    if (st_nest_alloc(&s, &o, ST_NKERNELS))
        return 2;
    double t_all = 0.0;

#pragma omp parallel num_threads(T)
    {
        const int t = omp_get_thread_num();
#pragma omp master
        s.outer = omp_get_num_threads();
        st_nest_init_team(&s, t, o.threads_per_team, 1.0, 2.0, 0.0);
        double *a = s.vecs[3 * t], *b = s.vecs[3 * t + 1], *c = s.vecs[3 * t + 2];
#pragma omp barrier
#pragma omp master
        t_all = st_now();
        for (int k = 0; k < K; k++)
            for (int q = 0; q < ST_NKERNELS; q++)
                st_nest_timed(&s, q, t, k, (st_kernel)q, a, b, c, o.threads_per_team, ST_SCALAR);
#pragma omp master
        t_all = st_now() - t_all;
    }
    if (st_teams_missing(&o, s.outer))
        return 2;
    st_warn_inner(&o, s.inner);

    double ea = 1.0, eb = 2.0, ec = 0.0;
    for (int k = 0; k < K; k++) {
        ec = ea;
        eb = ST_SCALAR * ec;
        ec = ea + eb;
        ea = eb + ST_SCALAR * ec;
    }
    int valid = 1, threads = 0;
    for (int t = 0; t < T; t++) {
        valid &= st_nest_check(&s, t, ea, eb, ec);
        threads += s.inner[t];
    }

    printf("Nested-STREAM: %d teams x %d threads, %zu elements per vector (%.1f MiB per team), %d executions\n", T,
           o.threads_per_team, n, 3.0 * n * sizeof(double) / 1048576.0, K);
    const double w = (double)sizeof(double) * (double)n * T;
    const double per_elem[ST_NKERNELS] = {2, 2, 3, 3};
    st_row rows[ST_NKERNELS];
    for (int q = 0; q < ST_NKERNELS; q++)
        rows[q] = (st_row){st_kernel_names[q], per_elem[q] * w, s.times + (size_t)q * K,
                           s.team_times + (size_t)q * T * K};
    st_report("stream-nested", &o, threads, rows, ST_NKERNELS, valid, t_all, "\"variant\": \"nested\"");
    st_nest_free(&s);
    return valid ? 0 : 1;
}
