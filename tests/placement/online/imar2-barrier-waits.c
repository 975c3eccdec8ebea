// imar2-barrier-waits.c: without a PMU, P leaves out the time a thread waited at barriers: in a team that meets at a barrier every sweep, counted in, every thread's work per second is the slowest one's, so a swap that brings 2 of 4 crossed threads home cannot show and a noisy host rolls such swaps back; left out, the team reaches its data on 4 nodes for every seed.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <math.h>
#include "imar_test.h"

/* 4 nodes x 1 core, 4 threads; thread t sweeps data on node 3 - t (the
 * benchmark's swapped-long) and starts on core t: every thread is remote.
 * A remote sweep takes 5 x as long; each sweep ends at a barrier, so in an
 * interval every thread does the slowest one's number of sweeps and waits
 * the rest of its time. The host adds up to +-6 % to each thread's work. */
enum { N = 4 };
static const int core_node[N] = { 0, 1, 2, 3 };
static int home(const int *core, int t) { return core_node[core[t]] == N - 1 - t; }

static void interval(const int *core, int leave_out, pl_rng_t *noise, double *perf)
{
    int cap[N] = { 1, 1, 1, 1 };
    pl_topo_t topo = { N, cap, NULL, 2.0 };
    uint64_t none[N] = { 0 };
    double slowest = 1;
    for (int t = 0; t < N; t++)
        slowest = home(core, t) ? slowest : 5;
    double sweeps = 100 / slowest;          /* in a 1 s interval */
    for (int t = 0; t < N; t++) {
        uint64_t r;
        pl_rng_below(noise, 1201, &r);
        double jitter = 1 + ((double)r - 600) / 10000;
        double busy = sweeps * 0.01 * (home(core, t) ? 1 : 5);   /* seconds sweeping */
        /* Spinning at the barrier burns CPU: cpu = the whole interval. */
        pl_imar_nopmu_t in = { sweeps * 256 * jitter, 1.0, 1.0, core_node[core[t]], none,
                               leave_out ? 1.0 - busy : 0 };
        if (pl_imar_perf_nopmu(&topo, &in, NULL, &perf[t]))
            perf[t] = -1;
    }
}

/* Steps until every thread is home (0: not within `limit`); then 40 more,
 * and *stayed says whether every rollback or rest after it left them home. */
static int run(int leave_out, uint64_t seed, int limit, int *stayed)
{
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    p.remote_min = 0; /* the paper's lottery, without a TNT to gate or steer it: P alone decides */
    pl_imar_t im;
    int core[N] = { 0, 1, 2, 3 };
    double record[N * N], perf[N];
    pl_imar_dest_t d[2 * N];
    pl_rng_t noise;
    pl_rng_seed(&noise, seed * 7919);
    pl_imar_init(&im, &p, N, N, core_node, N, core, NULL, record, seed);
    int when = 0, ok = 1;
    for (int i = 0; i < (when ? when + 40 : limit); i++) {
        int all = 1;
        for (int t = 0; t < N; t++)
            all &= home(core, t);
        if (all && !when)
            when = i;
        interval(core, leave_out, &noise, perf);
        pl_imar_step_t st;
        if (pl_imar2_step(&im, perf, d, 2 * N, &st))
            return -1;
        if (st.action != PL_IMAR_NONE)
            pl_imar_apply(&im, &st.move);
        if (when && st.action != PL_IMAR_MIGRATE)
            for (int t = 0; t < N; t++)
                ok &= home(core, t);
    }
    *stayed = when && ok;
    return when;
}

int main(void)
{
    /* One interval with threads 0 and 3 home (swapped), 1 and 2 not. */
    int half[N] = { 3, 1, 2, 0 };
    double in[N], out[N];
    pl_rng_t quiet;
    pl_rng_seed(&quiet, 1);
    interval(half, 0, &quiet, in);
    pl_rng_seed(&quiet, 1);
    interval(half, 1, &quiet, out);
    printf("waits counted in: %.0f %.0f %.0f %.0f\n", in[0], in[1], in[2], in[3]);
    printf("waits left out:   %.0f %.0f %.0f %.0f\n", out[0], out[1], out[2], out[3]);
    /* Counted in, the two threads at home look like the others (about
     * 5000 each, the noise apart); left out, they do 5 x the work per second. */
    // CHECK:      waits counted in: {{(4[89]|5[01])[0-9][0-9]}} {{(4[89]|5[01])[0-9][0-9]}} {{(4[89]|5[01])[0-9][0-9]}} {{(4[89]|5[01])[0-9][0-9]}}
    // CHECK-NEXT: waits left out:   {{2[3-6][0-9][0-9][0-9]}} {{(4[89]|5[01])[0-9][0-9]}} {{(4[89]|5[01])[0-9][0-9]}} {{2[3-6][0-9][0-9][0-9]}}
    /* The same numbers when nothing waited: a thread's own time is the interval. */
    int crossed[N] = { 0, 1, 2, 3 };
    pl_rng_seed(&quiet, 1);
    interval(crossed, 0, &quiet, in);
    pl_rng_seed(&quiet, 1);
    interval(crossed, 1, &quiet, out);
    int same = 1;
    for (int t = 0; t < N; t++)
        same &= in[t] == out[t];
    printf("no waits, same P %d\n", same);
    // CHECK-NEXT: no waits, same P 1

    /* A thread that only waited: nothing to judge. */
    int cap[N] = { 1, 1, 1, 1 };
    pl_topo_t topo = { N, cap, NULL, 2.0 };
    uint64_t none[N] = { 0 };
    double v;
    pl_imar_nopmu_t w = { 0, 1.0, 1.0, 0, none, 1.0 };
    printf("only waited: %d\n", pl_imar_perf_nopmu(&topo, &w, NULL, &v));
    // CHECK-NEXT: only waited: -61
    w.wait_s = -0.1;
    printf("negative wait: %d\n", pl_imar_perf_nopmu(&topo, &w, NULL, &v));
    // CHECK-NEXT: negative wait: -22

    /* IMAR2 over 20 seeds, at most 30 steps to bring every thread home. */
    int conv[2] = { 0, 0 }, stay[2] = { 0, 0 }, slow[2] = { 0, 0 };
    for (int leave_out = 0; leave_out < 2; leave_out++)
        for (uint64_t seed = 1; seed <= 20; seed++) {
            int st, when = run(leave_out, seed, 30, &st);
            conv[leave_out] += when > 0;
            stay[leave_out] += st;
            slow[leave_out] = when > slow[leave_out] ? when : slow[leave_out];
        }
    printf("waits counted in: home %d/20 (slowest after %d steps), stayed %d/20\n", conv[0], slow[0], stay[0]);
    printf("waits left out: home %d/20 (slowest after %d steps), stayed %d/20\n", conv[1], slow[1], stay[1]);
    // CHECK-NEXT: waits counted in: home {{([0-9]|1[0-9])}}/20
    // CHECK-NEXT: waits left out: home 20/20 (slowest after {{[0-9]+}} steps), stayed 20/20
    return 0;
}
