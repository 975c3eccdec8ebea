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
    /* times[q][k]: all teams together; team_times[q][t][k]: each team on its own. */
    double *times = calloc((size_t)ST_NKERNELS * (size_t)K, sizeof(double));
    double *team_times = calloc((size_t)ST_NKERNELS * (size_t)T * (size_t)K, sizeof(double));
    double **vecs = calloc(3 * (size_t)T, sizeof(double *));
    int *inner = calloc((size_t)T, sizeof(int));
    if (!times || !team_times || !vecs || !inner)
        return 2;
    int outer = 0;
    double t_all = 0.0;

#pragma omp parallel num_threads(T)
    {
        const int t = omp_get_thread_num();
#pragma omp master
        outer = omp_get_num_threads();
        double *a, *b, *c;
        inner[t] = st_team_init(&a, &b, &c, n, o.threads_per_team, 1.0, 2.0, 0.0);
        vecs[3 * t] = a;
        vecs[3 * t + 1] = b;
        vecs[3 * t + 2] = c;
#pragma omp barrier
#pragma omp master
        t_all = st_now();
        double t0 = 0.0;
        for (int k = 0; k < K; k++) {
            for (int q = 0; q < ST_NKERNELS; q++) {
                /* All teams start a kernel together, so the rate is the machine's, not one node's. */
#pragma omp barrier
#pragma omp master
                t0 = st_now();
#pragma omp barrier
                double mine = st_now();
                st_team_kernel((st_kernel)q, a, b, c, n, o.threads_per_team, ST_SCALAR);
                team_times[((size_t)q * T + t) * K + k] = st_now() - mine;
#pragma omp barrier
#pragma omp master
                times[(size_t)q * K + k] = st_now() - t0;
            }
        }
#pragma omp master
        t_all = st_now() - t_all;
    }
    if (st_teams_missing(&o, outer))
        return 2;
    st_warn_inner(&o, inner);

    double ea = 1.0, eb = 2.0, ec = 0.0;
    for (int k = 0; k < K; k++) {
        ec = ea;
        eb = ST_SCALAR * ec;
        ec = ea + eb;
        ea = eb + ST_SCALAR * ec;
    }
    int valid = 1, threads = 0;
    for (int t = 0; t < T; t++) {
        char name[3][32];
        for (int v = 0; v < 3; v++)
            snprintf(name[v], sizeof name[v], "%c of team %d", "abc"[v], t);
        valid &= st_check(name[0], vecs[3 * t], n, ea);
        valid &= st_check(name[1], vecs[3 * t + 1], n, eb);
        valid &= st_check(name[2], vecs[3 * t + 2], n, ec);
        threads += inner[t];
    }

    printf("Nested-STREAM: %d teams x %d threads, %zu elements per vector (%.1f MiB per team), %d executions\n", T,
           o.threads_per_team, n, 3.0 * n * sizeof(double) / 1048576.0, K);
    const double w = (double)sizeof(double) * (double)n * T;
    const double per_elem[ST_NKERNELS] = {2, 2, 3, 3};
    st_row rows[ST_NKERNELS];
    for (int q = 0; q < ST_NKERNELS; q++)
        rows[q] = (st_row){st_kernel_names[q], per_elem[q] * w, times + (size_t)q * K, team_times + (size_t)q * T * K};
    char extra[64];
    snprintf(extra, sizeof extra, "\"variant\": \"nested\"");
    st_report("stream-nested", &o, threads, rows, ST_NKERNELS, valid, t_all, extra);
    for (int i = 0; i < 3 * T; i++)
        st_free(vecs[i]);
    free(vecs);
    free(inner);
    free(times);
    free(team_times);
    return valid ? 0 : 1;
}
