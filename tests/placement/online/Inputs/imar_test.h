/* imar_test.h: shared set-up of the IMAR2 unit tests: the paper's Table 2 state (6 cores, 3 nodes, 3 processes of 2 threads). */
#ifndef IMAR_TEST_H
#define IMAR_TEST_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "online/pl_online.h"

#define NONE PL_IMAR_NO_RECORD

/* Cores 0,1 on node 0; 2,3 on node 1; 4,5 on node 2 (the paper's example machine). */
static const int paper_core_node[6] = { 0, 0, 1, 1, 2, 2 };
/* Threads in the paper's order: 100, 101, 200, 201, 300, 301. */
static const int paper_tid[6] = { 100, 101, 200, 201, 300, 301 };
static const int paper_group[6] = { 0, 0, 1, 1, 2, 2 };
/* Table 2: where each thread runs after some iterations, and its record per node. */
static const int paper_core[6] = { 2, 4, 0, 5, 1, 3 };
static const double paper_record[6 * 3] = {
    2.5, 1.9, 2.9,   /* 100 */
    2.7, 1.8, 3.1,   /* 101 */
    0.9, 1.4, NONE,  /* 200 */
    NONE, 1.6, 2.1,  /* 201 */
    3.3, NONE, 6.3,  /* 300 */
    NONE, 8.1, 5.7,  /* 301 */
};

/* Table 2 in im (core and record are the caller's arrays of 6 and 18).
 * params NULL: the paper's IMAR2, the defaults without the locality gate
 * (the paper has no TNT, so with the gate nothing would migrate). */
static inline int paper_state(pl_imar_t *im, const pl_imar_params_t *params, int *core,
                              double *record, uint64_t seed)
{
    pl_imar_params_t paper;
    if (!params) {
        pl_imar_params_default(&paper);
        paper.remote_min = 0;
        params = &paper;
    }
    memcpy(core, paper_core, sizeof paper_core);
    int rc = pl_imar_init(im, params, 3, 6, paper_core_node, 6, core, paper_group, record, seed);
    if (!rc)
        memcpy(record, paper_record, sizeof paper_record);
    return rc;
}

/* Each thread's current performance (Table 3's first row). */
static inline void paper_current(const pl_imar_t *im, double *perf)
{
    for (int t = 0; t < im->nthreads; t++)
        perf[t] = im->record[t * im->nnodes + im->core_node[im->core[t]]];
}

static inline void print_move(const char *what, const pl_imar_move_t *mv)
{
    printf("%s thread %d core %d -> %d partner %d%s\n", what, mv->thread, mv->from_core,
           mv->to_core, mv->partner, mv->rollback ? " (rollback)" : "");
}
#endif
