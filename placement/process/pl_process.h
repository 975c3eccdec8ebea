/* pl_process.h: MPI ranks onto NUMA nodes from a communication matrix (OnDeLocMap+, Agung et al. 2020). */
#ifndef OMPNUMA_PL_PROCESS_H
#define OMPNUMA_PL_PROCESS_H

/*
 * Same conventions as pl.h: no system calls, globals, printing or hidden
 * allocation; 0 or a count on success, a negative errno on failure; equal
 * inputs give equal outputs. Ranks here are the ranks of one host (the mapper
 * of each host maps only its own ranks), numbered 0..nranks-1.
 */

#include <stddef.h>
#include <stdint.h>
#include "pl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* volume[x * nranks + y] = bytes rank x sent to rank y in the last interval.
 * The diagonal is ignored. A pair's volume is volume[x][y] + volume[y][x]. */
typedef struct pl_comm_matrix {
    int             nranks;   /* >= 1 */
    const uint64_t *volume;   /* [nranks * nranks] */
} pl_comm_matrix_t;

/* Why a rank got its node (the optional why[] output of pl_ondeloc_map). */
typedef enum pl_ondeloc_rule {
    PL_ONDELOC_PREVIOUS = 0, /* it stayed on its previous node, its pair partner with it        */
    PL_ONDELOC_JOIN,         /* its pair was split before; it joined its partner's previous node */
    PL_ONDELOC_ROUND_ROBIN,  /* its pair went to the next node with free slots                 */
    PL_ONDELOC_IDLE_PREVIOUS,/* no pair placed it (no traffic); kept its previous node          */
    PL_ONDELOC_IDLE_ROUND_ROBIN, /* no pair placed it and its previous node was full or unknown */
    PL_ONDELOC_RULE_COUNT
} pl_ondeloc_rule_t;

/*
 * OnDeLocMap+ (Algorithm 1 of the paper).
 *
 * 1. Every node offers k * capacity[d] slots, k = ceil(nranks / total cores)
 *    (k = 1 when the ranks fit; more ranks than cores share cores evenly).
 * 2. Pairs (x < y) with a non-zero pair volume are taken by volume, largest
 *    first (ties: lower x, then lower y). A pair one of whose ranks is
 *    already placed is skipped: that rank's heavier pair decided its node.
 * 3. For a pair of two unplaced ranks, previous nodes first (prev given,
 *    entries in 0..nnodes-1): a pair that shared a node keeps it when the
 *    node has two free slots (nothing migrates); a pair that was split joins
 *    the previous node of x, else of y, that has two free slots (one rank
 *    migrates). Otherwise the pair goes to the next node, in round robin
 *    from a cursor that starts at node 0, with two free slots (locality
 *    inside the pair); the cursor moves past it, so the next pair goes to
 *    another node (different pairs do not congest one node). When no node
 *    has two free slots, its ranks take the next nodes with one.
 *    The paper keeps each rank on its own previous node whenever that node
 *    has room, which, once every rank has one, reproduces the previous
 *    mapping forever; keeping only pairs that were together, and joining
 *    split ones with one migration, still migrates no rank needlessly.
 * 4. Ranks left unplaced (no traffic) go to their previous node when it has
 *    a free slot, else to the next node with one in the same round robin.
 *
 * prev may be NULL (no previous mapping); entries outside 0..nnodes-1 mean
 * "unknown". out->nthreads must equal comm->nranks; out->node receives each
 * rank's node, out->core (may be NULL) the slot index within that node in
 * placement order, modulo capacity (the core a rank would get when pinned to
 * one core). why may be NULL.
 *
 * Returns the number of ranks whose node differs from prev (every rank
 * counts when prev is NULL or unknown), or -EINVAL (bad topology as
 * pl_check_topo says, comm NULL or nranks < 1 or volume NULL, out NULL or
 * out->node NULL or out->nthreads != nranks), -ENOSPC (no node has a core),
 * -ENOBUFS (work_bytes below pl_ondeloc_workspace_bytes). O(P log P) for P
 * pairs plus O(nranks * nnodes).
 */
size_t pl_ondeloc_workspace_bytes(int nranks, int nnodes);
int pl_ondeloc_map(const pl_topo_t *topo, const pl_comm_matrix_t *comm, const int *prev,
                   pl_mapping_t *out, pl_ondeloc_rule_t *why, void *work, size_t work_bytes);

const char *pl_ondeloc_rule_name(pl_ondeloc_rule_t rule); /* "previous", "round-robin", ... */

/*
 * The node each rank starts on, from the CPUs it is bound to when the job
 * starts (mpirun's --bind-to): cpus[r * nnodes + d] = how many of rank r's
 * allowed CPUs are on node d. start[r] = the one node holding all of them,
 * or -1 (unknown) when they span several nodes (--bind-to none) or there
 * are none. These are the ranks' previous nodes for the first
 * pl_ondeloc_map: a first mapping that matches the binding moves nobody,
 * and a split pair joins one partner's node instead of both moving.
 * Returns how many ranks have a known start node, or -EINVAL (nranks or
 * nnodes < 1, cpus or start NULL, a negative count).
 */
int pl_ondeloc_start_nodes(int nranks, int nnodes, const int *cpus, int *start);

/*
 * The share of comm's volume that stays on a node under a mapping: the bytes
 * between ranks x != y with node[x] == node[y] >= 0, over all bytes, in
 * [0, 1] (0 when there are none). The mapper keeps its current mapping
 * unless a new one raises this share by its min_gain: when every pairing
 * keeps about the same share (all-to-all), pl_ondeloc_map's heaviest pair
 * changes with the interval's noise and each new choice would move ranks
 * and their memory for nothing. -EINVAL for comm or node NULL, nranks < 1
 * or volume NULL.
 */
double pl_ondeloc_local_share(const pl_comm_matrix_t *comm, const int *node);

/*
 * The evidence rule: whether a new mapping that keeps `gain` more of a
 * window's traffic on-node than the current one (new share - current
 * share) replaces it. The gain must reach min_gain, weighed by the window's
 * volume against the one the current mapping was decided on: rate and
 * decided_rate in bytes per ms, the weight min(1, rate / decided_rate)
 * (decided_rate 0: nothing decided yet, weight 1). A window with a
 * thousandth of the traffic (the last few messages of a phase, a
 * collective's bytes between two phases) is a thousandth of the evidence,
 * and its moves would save a thousandth of what the current mapping saves;
 * a heavier window does not lower the bar below min_gain (all-to-all's
 * noise). 1 replaces, 0 keeps, -EINVAL for a negative or non-finite rate,
 * a non-finite gain or min_gain outside [0, 1].
 */
int pl_ondeloc_worth(double gain, double rate, double decided_rate, double min_gain);

/*
 * Whether a window of `rate` bytes per ms is thin against the reference
 * decided_rate (under half of it; never before a first reference): it says
 * little of the traffic the mapping serves, so a decision that keeps the
 * mapping on it updates neither the reference (below) nor the share the
 * mapping is watched against (pl_ondeloc_drifted's decided_share). 1 thin,
 * 0 not, -EINVAL for a negative or non-finite rate or decided_rate.
 */
int pl_ondeloc_thin(double rate, double decided_rate);

/*
 * The volume the next window is weighed against (pl_ondeloc_worth), after
 * a decision on a window of `rate`: that window's when the mapping changed
 * on it or it is not thin (traffic that grew, or fell by less than half);
 * after a thin one the reference halves, down to rate at least. Thin
 * windows in a row (a phase's last messages, a collective's bytes, traffic
 * that fell for good) bring it down one halving a decision, so traffic that
 * stays thin replaces the mapping after log2(reference / rate x min_gain /
 * gain) decisions, at intervals that grow while the mapping holds. NAN for
 * a negative or non-finite rate or decided_rate.
 */
double pl_ondeloc_reference(double rate, double decided_rate, int changed);

/*
 * Whether the traffic has left the current mapping: the share of a recent
 * window's traffic (a probe, shorter than the mapping interval) that node
 * keeps on-node fell more than min_gain below decided_share, the share it
 * kept of the interval it was decided on. The interval grows while the
 * mapping holds (up to seconds), so a phase change would otherwise wait for
 * the end of a long interval and be decided on a matrix still dominated by
 * the old phase; the mapper decides at once instead, on the windows, when
 * two consecutive ones drifted (one can be a collective's bytes only). A window
 * without traffic has not drifted. 1 drifted, 0 not, -EINVAL for comm or
 * node NULL, nranks < 1, volume NULL, min_gain outside [0, 1] or not finite.
 */
int pl_ondeloc_drifted(const pl_comm_matrix_t *recent, const int *node, double decided_share,
                       double min_gain);

/*
 * The mapping interval rule (Eq. 1 and 2): an unchanged mapping multiplies
 * the interval by v (the mapping is stable, decide less often), a changed one
 * divides it by v (adapt quickly), and the result is kept within
 * [min_ms, max_ms].
 */
typedef struct pl_ondeloc_interval {
    double v;       /* > 1 (the paper uses 2) */
    double min_ms;  /* > 0 */
    double max_ms;  /* >= min_ms */
} pl_ondeloc_interval_t;

/* *next_ms = the next interval. 0, or -EINVAL for rule or next_ms NULL,
 * v <= 1, min_ms <= 0, max_ms < min_ms, cur_ms <= 0, any value not finite. */
int pl_ondeloc_next_interval(const pl_ondeloc_interval_t *rule, double cur_ms, int changed,
                             double *next_ms);

#ifdef __cplusplus
}
#endif
#endif /* OMPNUMA_PL_PROCESS_H */
