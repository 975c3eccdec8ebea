/* stream_twisted.c: Twisted-STREAM: Nested-STREAM's triad, then a second phase in which each team works on the next team's vectors (seed 2, §4.4). */
#include "stream_common.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* Phase 2 scales by another scalar, so the final values prove that phase 2 ran over every vector set and,
 * with --remote two, that each set was combined with the right team's local vector. */
#define ST_SCALAR2 (ST_SCALAR + 1.0)

int main(int argc, char **argv)
{
    st_options o;
    st_parse(argc, argv, ST_TWISTED, &o);
    st_nesting_on();
    const int T = o.teams, K = o.ntimes;
    const size_t n = o.n;
    st_nest s;
    if (st_nest_alloc(&s, &o, 2))
        return 2;
    double t_all = 0.0;

#pragma omp parallel num_threads(T)
    {
        const int t = omp_get_thread_num();
#pragma omp master
        s.outer = omp_get_num_threads();
        /* Team-specific values: a set handled by the wrong team or skipped shows in the check. */
        st_nest_init_team(&s, t, o.threads_per_team, 1.0, 2.0 + t, 0.5 * (t + 1));
        double *a = s.vecs[3 * t], *b = s.vecs[3 * t + 1], *c = s.vecs[3 * t + 2];
#pragma omp barrier
#pragma omp master
        t_all = st_now();
        for (int phase = 0; phase < 2; phase++) {
            /* Phase 2: the written vector a and the read vector b belong to the next team; so does c
             * with --remote all, while with --remote two the team keeps reading its own c. */
            const int u = phase ? (t + 1) % T : t;
            double *pa = s.vecs[3 * u], *pb = s.vecs[3 * u + 1], *pc = s.vecs[3 * (phase && !o.remote_all ? t : u) + 2];
            if (phase && st_numa.attach) {
                /* Tell ompnuma what changed: the same threads now use another team's data. */
#pragma omp parallel num_threads(o.threads_per_team)
                {
                    st_detach_share(a, n);
                    st_detach_share(b, n);
                    st_detach_share(c, n);
                    st_attach_share(pa, n, "a of the next team");
                    st_attach_share(pb, n, "b of the next team");
                    st_attach_share(pc, n, o.remote_all ? "c of the next team" : "c");
                    st_hints_apply();
                }
            }
            for (int k = 0; k < K; k++)
                st_nest_timed(&s, phase, t, k, ST_TRIAD, pa, pb, pc, o.threads_per_team,
                              phase ? ST_SCALAR2 : ST_SCALAR);
        }
#pragma omp master
        t_all = st_now() - t_all;
    }
    if (st_teams_missing(&o, s.outer))
        return 2;
    st_warn_inner(&o, s.inner);

    int valid = 1, threads = 0;
    for (int u = 0; u < T; u++) {
        /* Set u was last written by team u-1 in phase 2, with its own c under --remote two. */
        const int from = o.remote_all ? u : (u + T - 1) % T;
        const double eb = 2.0 + u, ec = 0.5 * (u + 1), ea = eb + ST_SCALAR2 * 0.5 * (from + 1);
        valid &= st_nest_check(&s, u, ea, eb, ec);
        threads += s.inner[u];
    }

    printf("Twisted-STREAM: %d teams x %d threads, %zu elements per vector (%.1f MiB per team), %d executions per "
           "phase, phase 2 on the next team's vectors (%s)\n",
           T, o.threads_per_team, n, 3.0 * n * sizeof(double) / 1048576.0, K,
           T == 1 ? "one team: its own vectors" : o.remote_all ? "all three remote" : "a and b remote, c local");
    const double w = 3.0 * (double)sizeof(double) * (double)n * T;
    st_row rows[2] = {{"Triad-phase1", w, s.times, s.team_times},
                      {"Triad-phase2", w, s.times + K, s.team_times + (size_t)T * K}};
    char extra[96];
    snprintf(extra, sizeof extra, "\"variant\": \"twisted\", \"remote\": \"%s\"", o.remote_all ? "all" : "two");
    st_report("stream-twisted", &o, threads, rows, 2, valid, t_all, extra);
    st_nest_free(&s);
    return valid ? 0 : 1;
}
