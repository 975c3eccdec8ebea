/* pl_data.h: the data of unmodified programs: from sampled references (address, thread, node of the page) and where the threads run, which address ranges to migrate or interleave, priced against moving threads. */
#ifndef OMPNUMA_PL_DATA_H
#define OMPNUMA_PL_DATA_H

/*
 * When threads cannot all run next to their data (the cores of the data's
 * node are too few, or threads of several nodes share it), the data can
 * move instead. A source that knows the address of each sampled reference
 * (the page sampler, PEBS, IBS) gives, per sampled reference, its address,
 * the thread that made it and the node holding the page. From those, where
 * each thread runs, and the program's mappings, pl_data_plan proposes range
 * actions (Carrefour's rules, Dashti et al. 2013, for unmodified programs):
 *
 *   migrate     a range only the threads of one node use goes to that node;
 *   interleave  a range threads of several nodes share is spread page by
 *               page over their nodes (it balances both the remote
 *               references among the threads, hence the critical path, and
 *               the load among the memory controllers).
 *
 * Ranges from samples. A sampler sees a few pages of each mapping; most
 * OpenMP programs divide their arrays in blocks, so the pages between two
 * samples of one user belong to that user too. Samples are sorted by
 * address; within a mapping, consecutive samples closer than the bridge
 * (the distance between two pages the sampler watches at once: a longer gap
 * holds pages it watched that nobody touched) form a chain. A chain splits
 * into runs of samples whose threads run on one node (the user node):
 *   - a run of at least min_run samples is private to its node;
 *   - consecutive shorter runs that together hold min_run samples or more
 *     are shared (threads of several nodes alternate there);
 *   - fewer than that between two private runs is left alone (a boundary
 *     whose owner the samples do not tell);
 *   - a private run shorter than 2 x min_run between two shared ones is
 *     part of them: in a table every node uses, some runs of one node are
 *     long by chance (2^-(min_run-1) per sample on two nodes);
 *   - next to a shared piece, a private run of node u is part of it when a
 *     run as long is likely there by chance: u's share q of the shared
 *     piece's samples (estimated (n_u + 1) / (n + 2)) gives q^(len - 1)
 *     at least 2^-(2 min_run - 1). A sampler records the thread that came
 *     first to a watched page, and one thread may come first nine times in
 *     ten (it runs faster, it is local): its runs in a shared table are long;
 *   - two private runs of one node with samples of other nodes between them
 *     (left alone or shared) are one shared piece with them: the other
 *     nodes use that node's pages. Runs priced apart would each move to
 *     the node of the thread with the most samples in it.
 * A piece reaches from the midpoint between its first sample and the one
 * before it (same chain) to the midpoint between its last sample and the
 * next; at a chain's ends it reaches half a bridge beyond its sample, within
 * its mapping. Pages are never split: a boundary falls on a page.
 *
 * Work. Every thread's samples weigh the same in all: a row's count says
 * which pages the sampler watched and which thread touched each first, not
 * how much the thread works (the threads of a balanced loop work alike; in
 * a shared table a watched page counts for whichever thread came first).
 *
 * Pricing. Each piece's option (private: migrate to its node; shared:
 * interleave over its users' nodes, or migrate to one of them, whichever
 * the model predicts shortest) changes the table: the samples of a migrated
 * piece count on the target node, those of an interleaved one 1/k on each
 * of its k nodes. pl_predict's critical path before and after (threads where
 * they run) gives the relative gain; times the region's critical path and
 * its expected remaining executions, the time saved. A piece costs
 * mig_fixed_us + mig_page_us x the pages it moves (estimated as its pages
 * times the share of its samples not already where the option puts them).
 * Pieces are taken in the order of their own net saving; the plan is the
 * prefix with the largest net saving at worst (below).
 *
 * Evidence (as pl_evidence for threads). The gain is computed again on the
 * table moved against the plan by PL_EVIDENCE_Z standard errors: each flow
 * of a thread's samples from node d to node e that brings them nearer to
 * the thread shrinks by z sqrt(flow), each that takes them away grows by as
 * much (at most all of the thread's samples on d). The plan is enough when
 * that worst gain is positive and the time it saves at worst exceeds the
 * cost.
 *
 * Working with the kernel: with no_migrate (Linux's automatic NUMA
 * balancing is on: it migrates private pages to their users by itself) no
 * migrate action is proposed; shared ranges are still interleaved, which
 * the kernel does not do.
 *
 * Conventions as in pl.h: no allocation (the caller's workspace), no system
 * call, negative errnos, deterministic (ties to the lower address).
 */

#include <stddef.h>
#include <stdint.h>
#include "pl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One sampled reference. */
typedef struct pl_data_sample {
    uint64_t addr;    /* the referenced address (any byte of its page) */
    int32_t  thread;  /* team index, 0 .. nthreads - 1 (others are ignored) */
    int32_t  node;    /* node holding the page when sampled, -1 unknown */
} pl_data_sample_t;

/* A mapping of the program. */
typedef struct pl_data_range {
    uint64_t lo, hi;  /* [lo, hi), page-aligned, sorted by lo, not overlapping */
    int      movable; /* 0: counted, never acted on (a file mapping, memory the program
                         placed itself with a policy of its own) */
} pl_data_range_t;

typedef enum pl_data_kind {
    PL_DATA_MIGRATE = 0,
    PL_DATA_INTERLEAVE
} pl_data_kind_t;

typedef struct pl_data_action {
    pl_data_kind_t kind;
    uint64_t lo, hi;      /* page-aligned, inside range `range` */
    int      range;       /* index into the ranges */
    int      node;        /* migrate: the target node; interleave: -1 */
    uint64_t nodes;       /* interleave: bit n = node n (nodes 0..63) takes pages; migrate: 1 << node */
    int      shared;      /* 1: threads of several nodes use it (its option may still be migrate) */
    uint64_t samples;     /* samples inside */
    uint64_t remote;      /* of them, on another node than their thread's */
    double   pages;       /* pages it is predicted to move */
    double   cost_us;     /* mig_fixed_us + mig_page_us x pages */
    double   gain;        /* its own relative gain, alone on the table */
} pl_data_action_t;

typedef struct pl_data_params {
    uint64_t page_bytes;   /* power of two */
    uint64_t bridge_bytes; /* longest gap between consecutive samples of a chain; 0: twice the mean
                              gap between the samples of each mapping */
    int      min_run;      /* samples a private run needs (PL_DATA_MIN_RUN when 0) */
    int      no_migrate;   /* propose interleaves only (the kernel migrates private pages) */
    double   mig_fixed_us; /* migration cost line: per action ... */
    double   mig_page_us;  /* ... and per page moved */
    double   cp_ns;        /* the region's critical path, one execution */
    double   executions;   /* executions expected from now on */
} pl_data_params_t;

#define PL_DATA_MIN_RUN 8

typedef struct pl_data_plan {
    int      nactions;     /* actions written (the chosen prefix) */
    int      candidates;   /* pieces with an option predicted to gain */
    uint64_t samples;      /* samples counted (valid thread, node and thread node) */
    uint64_t remote;       /* of them, on another node than their thread's */
    double   gain;         /* relative critical path saved, on the table */
    double   worst;        /* the same, the table moved against the plan */
    double   saved_us;     /* gain x cp x executions */
    double   worst_saved_us;
    double   cost_us;      /* sum of the actions' costs */
    double   pages;        /* pages predicted to move */
    int      enough;       /* worst > 0 and worst_saved_us > cost_us */
} pl_data_plan_t;

/* Workspace pl_data_plan needs; 0 for sizes it would refuse. */
size_t pl_data_workspace_bytes(int nsamples, int nthreads, int nnodes);

/*
 * Plan the data moves of one region. samples are sorted by address in place
 * (the only change made to an input). thread_node[t]: the node thread t runs
 * on (-1 unknown: its samples are ignored). The actions (at most
 * max_actions candidates are considered, the best alone first) go to
 * actions, the totals to plan. Returns 0, or -EINVAL (bad topology or
 * model, nthreads < 1, nsamples < 0, NULL arrays, ranges unsorted,
 * overlapping or not page-aligned, parameters negative or not finite,
 * page_bytes not a power of two, more than 64 nodes), -ENOBUFS (work_bytes
 * below pl_data_workspace_bytes).
 */
int pl_data_plan(const pl_topo_t *topo, const pl_model_t *model, pl_data_sample_t *samples, int nsamples,
                 int nthreads, const int *thread_node, const pl_data_range_t *ranges, int nranges,
                 const pl_data_params_t *params, pl_data_action_t *actions, int max_actions,
                 pl_data_plan_t *plan, void *work, size_t work_bytes);

/*
 * Threads or data (Broquedis et al. section 4.4: move the cheaper). The
 * threads' option saves threads_saved_us at worst over the remaining
 * executions (their move, and the data's move on top of it when there is
 * one: the paper's mixed move) and costs threads_cost_us; the data's
 * option is plan, the threads staying where they run. 1 when the plan is
 * enough and saves more net of its cost than the threads' option, else 0.
 */
int pl_data_prefer(const pl_data_plan_t *plan, double threads_saved_us, double threads_cost_us);

/*
 * Whether a team's sample, its threads where map puts them (every one of
 * them at home, pl_home), still promises a data move: PL_PROMISE_MIN of its
 * references at least are on another node than their thread's (as a
 * thread's promise: a probe of a dozen pages a thread shows a third of them
 * remote with 4 to 8), one in PL_DATA_PROMISE_SHARE of them at least, and
 * the model's critical path (pl_predict) with every reference on its
 * thread's node is PL_DATA_PROMISE_GAIN shorter than with the table as
 * sampled: the most any data move could save. Threads at home have nothing
 * to gain from moving; their data may (an input the primary initialised,
 * of which each thread reads a part beside its own pages), unless the
 * remote references are off the critical path (NPB IS W's rank: the thread
 * with remote keys is not the slowest; a plan on the full sample predicted
 * 0 to 1 %). The full sample that follows is what a plan rests on.
 * scratch: [nthreads * nnodes] counts, the caller's. 1 or 0, or -EINVAL
 * (as pl_predict), -EOVERFLOW (as pl_locality).
 */
#define PL_DATA_PROMISE_SHARE 8
#define PL_DATA_PROMISE_GAIN 0.05
int pl_data_promising(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *model, const pl_mapping_t *map,
                      uint64_t *scratch);

const char *pl_data_kind_name(pl_data_kind_t kind); /* "migrate", "interleave" */

#ifdef __cplusplus
}
#endif
#endif /* OMPNUMA_PL_DATA_H */
