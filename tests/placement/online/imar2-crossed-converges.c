// imar2-crossed-converges.c: threads that all start on the wrong node (the paper's crossed test) end next to their data, measured by the no-PMU formula, on 2 and 4 nodes and for every seed tried; then the locality gate holds (no thread's data is elsewhere): no trial away from the data, nothing to roll back, and the period reaches its maximum.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_sim.h"

/* Runs one crossed case for seeds 1..20; prints how many converged within
 * `limit` intervals and whether they stayed converged afterwards. */
static void crossed(const char *name, int nodes, int cpn, const int *start, const int *data,
                    int n, int limit)
{
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    int converged = 0, kept = 0, at_max = 0, rolled = 0, worst = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        sim_t s;
        if (sim_init(&s, &p, nodes, cpn, n, start, data, seed))
            return;
        int when = -1;
        for (int i = 0; i < limit && when < 0; i++) {
            sim_step(&s);
            if (sim_local(&s) == n)
                when = i + 1;
        }
        if (when < 0)
            continue;
        converged++;
        worst = when > worst ? when : worst;
        /* Twenty more intervals: no trial away from the data (a migration away would be undone at the next step). */
        int ok = 1;
        int r0 = s.rollbacks;
        for (int i = 0; i < 20; i++) {
            pl_imar_step_t st = sim_step(&s);
            if (st.action == PL_IMAR_ROLLBACK || st.action == PL_IMAR_NONE)
                ok &= sim_local(&s) == n;
        }
        kept += ok;
        rolled += s.rollbacks > r0;
        at_max += s.im.period_ms == p.period_max_ms;
    }
    printf("%s: converged %d/20 within %d (slowest after %d), stayed %d/20, rolled back %d/20, period at max %d/20\n",
           name, converged, limit, worst, kept, rolled, at_max);
}

int main(void)
{
    /* 2 nodes x 4 cores, 8 threads: threads 0-3 on node 0 with data on node 1, and the reverse. */
    int s2[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, d2[8] = { 1, 1, 1, 1, 0, 0, 0, 0 };
    crossed("2 nodes", 2, 4, s2, d2, 8, 60);
    // CHECK: 2 nodes: converged 20/20 within 60 (slowest after {{[0-9]+}}), stayed 20/20, rolled back 0/20, period at max 20/20

    /* 4 nodes x 2 cores, the paper's crossed pairs: node 0 <-> 1, node 2 <-> 3. */
    int s4[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, d4[8] = { 1, 1, 0, 0, 3, 3, 2, 2 };
    crossed("4 nodes", 4, 2, s4, d4, 8, 120);
    // CHECK: 4 nodes: converged 20/20 within 120 (slowest after {{[0-9]+}}), stayed 20/20, rolled back 0/20, period at max 20/20

    /* Fewer threads than cores: a thread can reach its data through a free core. */
    int sf[2] = { 0, 2 }, df[2] = { 1, 0 };
    crossed("2 nodes, free cores", 2, 2, sf, df, 2, 20);
    // CHECK: 2 nodes, free cores: converged 20/20 within 20 (slowest after {{[0-9]+}}), stayed 20/20, rolled back 0/20, period at max 20/20
    return 0;
}
