/* rt_policy.h: running a placement policy from the runtime: its workspace, its model, its time. */
#ifndef OMPNUMA_RT_POLICY_H
#define OMPNUMA_RT_POLICY_H

#include <stdint.h>
#include "pl.h"

/* The cost model every decision and prediction of the runtime uses. */
const pl_model_t *rt_policy_model(void);

/*
 * Run `policy` on a TNT of `team` rows over `topo` (rt_mach->pl, or a
 * team's own sub-topology): node and core (index within the node) per
 * thread, the decision time in *us. Reuses the workspace it keeps between
 * decisions, allocating only when a decision needs a larger one or another
 * decision holds it: never from a hot hook. Returns 0, or -1 with errno (ENOMEM, or
 * EINVAL when the policy refuses the table).
 */
int rt_policy_run(pl_policy_t policy, const pl_topo_t *topo, const uint64_t *refs, int team, int *nodes,
                  int *cores, double *us);

/* Ready the kept workspace for a decision of `policy` on `team` threads over
 * nnodes nodes before one is due: allocated and every page touched, so the
 * decision itself takes no page fault (a fresh 1024 x 16 critpath workspace
 * took about 60). Cold: where the runtime may allocate (a region's first
 * sight). Nothing when the kept one is as large, or in use, or on one node,
 * where no decision runs. */
void rt_policy_prepare(pl_policy_t policy, int team, int nnodes);

#endif
