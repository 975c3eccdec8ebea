/* bubble_test.h: shared helpers of the bubble scheduler tests: decide with an exact workspace, print one line per bubble. */
#ifndef BUBBLE_TEST_H
#define BUBBLE_TEST_H
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "pl.h"

/* Runs pl_bubble_decide with a malloc'ed workspace of exactly the advertised
 * size, offset by one byte so the library's own alignment is exercised. */
static inline int bt_decide(pl_bubble_sched_t sched, const pl_topo_t *topo, const pl_bubble_t *b,
                            int nb, int *node, int *core, int *pref)
{
    int ns = pl_bubble_slots(b, nb);
    if (ns < 0)
        return ns;
    size_t wb = pl_bubble_workspace_bytes(nb, ns, topo->nnodes);
    char *w = malloc(wb + 1);
    pl_bubble_map_t map = { ns, node, core, pref };
    int rc = pl_bubble_decide(sched, topo, b, nb, &map, w + 1, wb);
    free(w);
    return rc;
}

/* One line per bubble: "b<i>: node:core ..." for each of its threads. */
static inline void bt_print(const pl_bubble_t *b, int nb, const int *node, const int *core)
{
    for (int i = 0, off = 0; i < nb; off += b[i].nthreads, i++) {
        printf("b%d:", i);
        for (int t = 0; t < b[i].nthreads; t++)
            printf(" %d:%d", node[off + t], core[off + t]);
        printf("\n");
    }
}

/* Number of distinct nodes the threads of bubble i use. */
static inline int bt_nodes_used(const pl_bubble_t *b, int i, const int *node)
{
    int off = 0, n = 0;
    for (int j = 0; j < i; j++)
        off += b[j].nthreads;
    for (int t = 0; t < b[i].nthreads; t++) {
        int seen = 0;
        for (int u = 0; u < t; u++)
            seen |= node[off + u] == node[off + t];
        n += !seen;
    }
    return n;
}
#endif
