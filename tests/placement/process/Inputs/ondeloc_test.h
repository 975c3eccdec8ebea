/* ondeloc_test.h: helpers of the OnDeLocMap+ tests: symmetric matrices written pair by pair, one decision printed per line. */
#ifndef ONDELOC_TEST_H
#define ONDELOC_TEST_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "process/pl_process.h"

#define OT_MAX 16

/* Half of the pair's bytes each way, so the pair volume is exactly v. */
static inline void ot_pair(uint64_t *m, int n, int x, int y, uint64_t v)
{
    m[x * n + y] = v / 2;
    m[y * n + x] = v - v / 2;
}

/* Decide, print "moved M nodes a b c ... why r r r", keep node[] for the next call. */
static inline int ot_map(const pl_topo_t *topo, int n, const uint64_t *m, const int *prev,
                         int *node, int *core)
{
    pl_comm_matrix_t cm = { n, m };
    pl_mapping_t out = { n, node, core };
    pl_ondeloc_rule_t why[OT_MAX];
    size_t wb = pl_ondeloc_workspace_bytes(n, topo->nnodes);
    void *w = malloc(wb);
    int rc = pl_ondeloc_map(topo, &cm, prev, &out, why, w, wb);
    free(w);
    if (rc < 0) {
        printf("rc %d\n", rc);
        return rc;
    }
    printf("moved %d nodes", rc);
    for (int r = 0; r < n; r++)
        printf(" %d", node[r]);
    printf(" why");
    for (int r = 0; r < n; r++)
        printf(" %s", pl_ondeloc_rule_name(why[r]));
    printf("\n");
    return rc;
}
#endif
