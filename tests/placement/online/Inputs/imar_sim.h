/* imar_sim.h: a simulated machine for IMAR2 loop tests: threads whose data sit on one node do work in inverse proportion to their mean memory latency. */
#ifndef IMAR_SIM_H
#define IMAR_SIM_H
#include "imar_test.h"

#define SIM_MAX 16

typedef struct sim {
    int       nnodes, ncores, nthreads;
    int       core_node[SIM_MAX];
    int       core[SIM_MAX];
    int       data[SIM_MAX];           /* node holding most of each thread's data  */
    uint64_t  rows[SIM_MAX * SIM_MAX]; /* TNT rows: 90 % on data[t], rest spread   */
    double    record[SIM_MAX * SIM_MAX];
    int       cap[SIM_MAX];
    pl_topo_t topo;
    pl_imar_t im;
    int       migrations, rollbacks, nones;
} sim_t;

/* nodes x cores_per_node cores; thread t starts on core start[t] with its data on data[t], which the
 * TNT rows (im.refs) say. */
static inline int sim_init(sim_t *s, const pl_imar_params_t *p, int nodes, int cores_per_node,
                           int nthreads, const int *start, const int *data, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->nnodes = nodes;
    s->ncores = nodes * cores_per_node;
    s->nthreads = nthreads;
    for (int c = 0; c < s->ncores; c++)
        s->core_node[c] = c / cores_per_node;
    for (int n = 0; n < nodes; n++)
        s->cap[n] = cores_per_node;
    s->topo = (pl_topo_t){ nodes, s->cap, NULL, 2.0 };
    for (int t = 0; t < nthreads; t++) {
        s->core[t] = start[t];
        s->data[t] = data[t];
        for (int n = 0; n < nodes; n++)
            s->rows[t * nodes + n] = n == data[t] ? 900 : 100 / (nodes - 1);
    }
    int rc = pl_imar_init(&s->im, p, nodes, s->ncores, s->core_node, nthreads, s->core, NULL,
                          s->record, seed);
    s->im.refs = s->rows; /* the locality gate reads the TNT (a test may take it away) */
    return rc;
}

/* One interval: measure every thread with the no-PMU formula, step, apply. */
static inline pl_imar_step_t sim_step(sim_t *s)
{
    double perf[SIM_MAX];
    for (int t = 0; t < s->nthreads; t++) {
        int n = s->core_node[s->core[t]];
        pl_imar_nopmu_t in = { 0, 1.0, 1.0, n, &s->rows[t * s->nnodes] };
        double lat_only;
        pl_imar_weights_t w = { 0, 0, 1 };
        pl_imar_perf_nopmu(&s->topo, &in, &w, &lat_only);  /* 1 / L */
        in.work = 1000.0 * lat_only;                         /* slower when remote */
        if (pl_imar_perf_nopmu(&s->topo, &in, NULL, &perf[t]))
            perf[t] = -1;
    }
    pl_imar_dest_t d[2 * SIM_MAX];
    pl_imar_step_t st;
    if (pl_imar2_step(&s->im, perf, d, 2 * SIM_MAX, &st)) {
        st.action = PL_IMAR_NONE;
        return st;
    }
    if (st.action != PL_IMAR_NONE)
        pl_imar_apply(&s->im, &st.move);
    s->migrations += st.action == PL_IMAR_MIGRATE;
    s->rollbacks += st.action == PL_IMAR_ROLLBACK;
    s->nones += st.action == PL_IMAR_NONE;
    return st;
}

/* Threads running on the node that holds their data. */
static inline int sim_local(const sim_t *s)
{
    int k = 0;
    for (int t = 0; t < s->nthreads; t++)
        k += s->core_node[s->core[t]] == s->data[t];
    return k;
}
#endif
