/* pl.h: the pure placement library: TNT, topology model, mapping, policies, cost model. */
#ifndef OMPNUMA_PL_H
#define OMPNUMA_PL_H

/*
 * Conventions for the whole library
 * ---------------------------------
 * - No system calls, no globals, no printing, no hidden allocation. Every
 *   array is owned by the caller; policies that need scratch space take a
 *   workspace whose size pl_workspace_bytes() tells.
 * - Functions return 0 (or a count) on success and a negative errno value on
 *   failure: -EINVAL for malformed input (Nd = 0, mismatched sizes, NULL
 *   where an array is required, a negative capacity), -ENOSPC when the
 *   threads do not fit the cores, -ENOBUFS when a caller buffer is too small,
 *   -E2BIG when an exhaustive search would exceed its budget, -EOVERFLOW when
 *   a 64-bit total asked for would wrap (the policies and the cost model sum
 *   in double and never wrap; pl_csv_parse refuses tables whose counts add up
 *   beyond 2^64 - 1).
 * - Determinism: equal inputs give equal outputs; ties are broken towards the
 *   lower thread index, then the lower node index.
 * - Thread and node indices count from 0 (the paper counts from 1).
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The machine as placement sees it. Memory-only nodes have capacity 0. */
typedef struct pl_topo {
    int           nnodes;      /* Nd >= 1 */
    const int    *capacity;    /* [nnodes] cores per node that threads may use */
    const double *distance;    /* [nnodes * nnodes] row-major, SLIT units (local = 10);
                                  NULL means 10 local, 10 * numa_factor remote */
    double        numa_factor; /* remote/local latency ratio >= 1; 0 = derive from distance */
} pl_topo_t;

/* Thread-node table: refs[t * nnodes + d] = memory references of thread t to node d. */
typedef struct pl_tnt {
    int             nthreads;  /* N >= 1 */
    int             nnodes;    /* must equal the topology's nnodes */
    const uint64_t *refs;
} pl_tnt_t;

/* A placement: node[t] and core[t] (index of the core within its node, 0-based). */
typedef struct pl_mapping {
    int  nthreads;
    int *node;
    int *core;
} pl_mapping_t;

typedef enum pl_policy {
    PL_POLICY_COMPACT = 0,      /* fill node 0, then node 1, ... (OS "close")   */
    PL_POLICY_SCATTER,          /* round-robin over nodes (OS "spread")         */
    PL_POLICY_EXHAUSTIVE,       /* Algorithm 1: optimum under the cost model
                                   (branch and bound, symmetry pruning); -E2BIG
                                   beyond PL_EXHAUSTIVE_MAX_THREADS threads or
                                   PL_EXHAUSTIVE_BUDGET search nodes            */
    PL_POLICY_MAXLOCAL,         /* Algorithm 2: greedy local accesses, Eq. 1-3  */
    PL_POLICY_CRITPATH,         /* Algorithm 3: critical path, Eq. 4            */
    PL_POLICY_CRITPATH_REFINE,  /* Algorithm 3 + swap/move refinement under the
                                   cost model, also started from maxlocal,
                                   scatter and compact (up to 64 threads); a
                                   fixed work budget bounds it (milliseconds)  */
    PL_POLICY_COUNT
} pl_policy_t;

/* Cost model parameters (see pl_model.c for where each default comes from). */
/*
 * Predicted time of thread t placed on node n (R = the region's total references,
 * I_n = references issued by all threads placed on node n, M = remote references
 * of the whole mapping, w = t's references weighted by distance[n][d] / distance[n][n],
 * rem = t's references to nodes other than n):
 *
 *   time(t) = local_ns * ( w * (1 + node_congestion * I_n / R)
 *                        + remote_traffic * rem * M / R )
 *
 * The region's predicted time is the slowest thread (the critical path).
 * "The same node" below is the node the thread runs on: threads crowded on one
 * node share its cache, memory controller port and link (the paper's "local
 * contention" that Algorithm 2 avoids).
 */
typedef struct pl_model {
    double local_ns;        /* cost of one local reference                      */
    double node_congestion; /* extra cost per reference, per unit of the share
                               of all references that are issued from the same
                               node (the node the thread runs on)              */
    double remote_traffic;  /* extra cost per remote reference, per unit of the
                               share of all references that are remote          */
} pl_model_t;

/* Largest number of nodes the library accepts (pl_check answers -EINVAL above). */
#define PL_MAX_NODES 1024
/* Exhaustive search gives up with -E2BIG beyond this many threads or after
 * visiting this many search nodes (a deterministic budget, not a clock). */
#define PL_EXHAUSTIVE_MAX_THREADS 64
#define PL_EXHAUSTIVE_BUDGET 20000000L

void pl_model_default(pl_model_t *model);

/* NUMA factor of a topology: its numa_factor if > 0, else the mean remote
 * distance over the mean local distance (1.0 for a single node). */
double pl_numa_factor(const pl_topo_t *topo);

/* Validate a topology / TNT pair: 0 or a negative errno (see above). */
int pl_check(const pl_topo_t *topo, const pl_tnt_t *tnt);

/* Scratch bytes pl_decide needs for this policy and size. */
size_t pl_workspace_bytes(pl_policy_t policy, int nthreads, int nnodes);

/* Decide a mapping. out->nthreads must equal tnt->nthreads and out->node /
 * out->core must have room for that many entries. work may be NULL when
 * pl_workspace_bytes() is 0. Returns 0 or a negative errno. */
int pl_decide(pl_policy_t policy, const pl_topo_t *topo, const pl_tnt_t *tnt,
              const pl_model_t *model, pl_mapping_t *out, void *work, size_t work_bytes);

/* Predicted time of each thread under the model (per_thread may be NULL) and
 * of the region, the slowest thread, in *critical. Returns 0 or -errno. */
int pl_predict(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *model,
               const pl_mapping_t *map, double *per_thread, double *critical);

/* Local and remote reference totals of a mapping; -EOVERFLOW when one
 * exceeds 2^64 - 1. */
int pl_locality(const pl_tnt_t *tnt, const pl_mapping_t *map, uint64_t *local, uint64_t *remote);

/*
 * Evidence behind a move (pl_evidence.c). A TNT is a sample: a count c
 * could as well have been c +- sqrt(c). A move is worth making only when
 * the gain the model predicts for it survives that error, so the gain is
 * computed twice: on the table, and on the table moved against the move
 * by PL_EVIDENCE_Z standard errors in every count (counts of nodes the
 * move brings a thread nearer to lowered, counts of nodes it takes the
 * thread away from raised; the counts of threads that stay are kept). The
 * move has evidence when both gains are positive. It covers both reasons a
 * policy moves threads: locality (on two nodes a thread alone needs 5
 * references, all on the other node: [0,4] at worst gains nothing) and
 * spreading threads that crowd a node (the model's congestion: a few
 * references per thread spread evenly say nothing about it, millions do).
 * NPB CG's main region, [[0,3],[0,1]] swapped, predicts 2x faster and at
 * worst a loss: no evidence.
 */
#define PL_EVIDENCE_Z 2.0

typedef struct pl_evidence {
    uint64_t refs;       /* references in the whole table */
    uint64_t least;      /* fewest references of one thread */
    int      moved;      /* threads whose node changes */
    double   gain;       /* predicted critical path saved, as a share of the one before:
                            (before - after) / before, on the table */
    double   worst;      /* the same on the table moved against the move */
    int      enough;     /* gain > 0 and worst > 0 */
} pl_evidence_t;

/* The evidence for moving each thread t from node from[t] to node to[t]
 * under the model (pl_predict). scratch: [nthreads * nnodes] counts, the
 * caller's. 0, or -EINVAL (bad topology, table or model, a node out of
 * range, NULL arrays). */
int pl_evidence(const pl_topo_t *topo, const pl_tnt_t *tnt, const pl_model_t *model, const int *from,
                const int *to, uint64_t *scratch, pl_evidence_t *out);

/*
 * Whether a thread is at home beyond sampling error: with `local`
 * references on the node it runs on and `remote` on others, the chance of
 * seeing so few remote ones, were half of its references remote, is below
 * PL_HOME_ALPHA (a one-sided sign test). It takes 7 references all local,
 * 11 with one remote, 14 with two, 17 with three; [13,3] is not enough. A
 * thread at home cannot gain by moving to another node. Exact up to 2 000
 * references, the normal approximation beyond.
 */
#define PL_HOME_ALPHA 0.01
int pl_home(uint64_t local, uint64_t remote);

/*
 * Whether a thread's sample promises a gain from a move: most of its
 * references (PL_PROMISE_MIN at least) are on a node it does not run on.
 * A sampler that pays per sample may then spend PL_PROMISE_FACTOR times its
 * budget on the region (pl_budget_fits).
 */
#define PL_PROMISE_MIN 4
#define PL_PROMISE_FACTOR 10
int pl_promising(uint64_t local, uint64_t remote);

/*
 * Whether a sampler that has spent `spent` ns, and whose next sample is
 * estimated at `next` ns, stays within `percent` % of a run of `run` ns
 * (PL_PROMISE_FACTOR times that when `promising`). percent <= 0: no budget.
 */
int pl_budget_fits(uint64_t spent, uint64_t next, uint64_t run, double percent, int promising);

/*
 * Decision trace of the greedy policies (maxlocal, critpath; the first phase of
 * critpath+refine): one step per placed thread, in placement order, with the
 * candidates that step compared. Filled as far as the arrays allow; nsteps and
 * ncands say how many entries were written, truncated is 1 when some did not fit.
 * Other policies leave nsteps = ncands = 0.
 */
typedef struct pl_candidate {
    int    thread, node;
    double value;      /* TNT value V(thread, node)                               */
    double impact;     /* critpath: IF(thread, node) (Eq. 4); maxlocal: 0          */
    double node_load;  /* critpath: CPImpact[node]; maxlocal: LC[node], both before
                          this step                                                */
    double score;      /* critpath: impact + node_load (lowest wins);
                          maxlocal: value (eligible when >= the step's threshold)   */
} pl_candidate_t;

typedef struct pl_step {
    int    thread, node;     /* the decision of this step                      */
    int    max_thread, max_node; /* e_max: the largest remaining TNT element      */
    double threshold;        /* maxlocal: V(e_max) / NUMA factor (Eq. 2); else 0 */
    int    first_cand, ncand;/* this step's candidates in the candidate array    */
} pl_step_t;

typedef struct pl_trace {
    pl_step_t      *steps;   int max_steps; int nsteps;
    pl_candidate_t *cands;   int max_cands; int ncands;
    int             truncated;
} pl_trace_t;

/* pl_decide with a trace (trace may be NULL, then it is pl_decide). */
int pl_decide_traced(pl_policy_t policy, const pl_topo_t *topo, const pl_tnt_t *tnt,
                     const pl_model_t *model, pl_mapping_t *out, void *work,
                     size_t work_bytes, pl_trace_t *trace);

const char *pl_policy_name(pl_policy_t policy);
/* Accepts the names pl_policy_name returns ("compact", "scatter", "exhaustive",
 * "maxlocal", "critpath", "critpath+refine"). 0 or -EINVAL. */
int pl_policy_from_name(const char *name, pl_policy_t *policy);

/*
 * TNT files (CSV): one row per thread, one column per node; an optional
 * header row (its first field is empty or a word: not starting with a digit,
 * '+', '-' or '.', and not nan/inf/infinity); counts are unsigned decimal
 * integers whose sum over a table fits in 64 bits; blank lines and lines starting
 * with '#' are comments, except '# region NAME', which starts a new table
 * for the region NAME (symbol or code address). Tables before any
 * '# region' line have an empty name and apply to every region.
 *
 * Two passes, no allocation: call with tables == NULL to learn how many
 * tables and cells there are, then with buffers that large.
 */
typedef struct pl_csv_table {
    char      name[128];     /* region name, "" for the default table */
    int       nthreads, nnodes;
    uint64_t *refs;          /* points into the caller's cells buffer */
} pl_csv_table_t;

/* Returns the number of tables (>= 1) or a negative errno; on failure err
 * receives one line saying which line of the text is wrong and why (ragged
 * row, negative, non-integer or non-numeric count, counts whose sum exceeds
 * 2^64 - 1, empty input). *ncells receives the
 * number of cells needed. */
int pl_csv_parse(const char *text, size_t len,
                 pl_csv_table_t *tables, int max_tables,
                 uint64_t *cells, size_t max_cells, size_t *ncells,
                 char *err, size_t errlen);

/*
 * Nested teams as bubbles (pl_bubble.c)
 * -------------------------------------
 * Each OpenMP team is a bubble; a team created by thread i of team P is a
 * bubble inside P, and its thread 0 is that same OS thread (OpenMP makes the
 * encountering thread the master of the inner team). The tree is an array in
 * parent-before-child order; it describes teams that exist at the same time,
 * so a thread masters at most one inner team.
 *
 * Slots: thread i of bubble b is slot off(b) + i, where off(b) is the sum of
 * nthreads of bubbles 0..b-1; pl_bubble_slots() gives the total. Output
 * arrays are indexed by slot. The slot of an inner team's thread 0 repeats
 * the node and core of its master's slot (it is the same thread).
 *
 * The subtree of a slot is the slot itself plus every thread its inner team
 * (and their inner teams, recursively) adds: load(slot) = 1 + sum over the
 * inner team c it masters of (size(c) - 1); size(b) = sum of load over b's
 * slots. Every distinct OS thread takes one core slot.
 *
 * Oversubscription: when the tree has T distinct threads and the topology C
 * cores, every node counts k = ceil(T / C) slots per core (k = 1 when the
 * threads fit), the schedulers below run on those slots, and the j-th thread
 * placed on node n gets core j mod capacity[n]: the cores of the chosen node
 * are shared round-robin, at most k threads per core: from core j mod
 * capacity[n] on, a thread takes the first core with fewer than k threads
 * and none of its teammates, else the first with fewer than k threads, so a
 * team that fits its node's cores gets distinct cores where the others
 * leave room.
 */
typedef struct pl_bubble {
    int           parent;     /* index of the enclosing bubble (< this index), -1 for an outermost team */
    int           master;     /* index, within the parent's threads, of the thread that created this
                                 team; ignored for an outermost team                                    */
    int           nthreads;   /* >= 1, the master included                                               */
    const double *node_bytes; /* [nnodes] bytes of data attached to this team per node (omp_numa_attach
                                 hints), or NULL for none; finite and >= 0                              */
} pl_bubble_t;

typedef enum pl_bubble_sched {
    /*
     * Cache (section 3.3 of Broquedis et al. 2009): teammates as close as
     * possible, outer teams spread.
     * 1. Outermost level. The entities are the outermost teams. While there are
     *    fewer entities than nodes with cores, the outermost team with the most
     *    threads in its subtree (lowest index on ties) is burst into its
     *    threads, each carrying its subtree. Entities are taken heaviest
     *    subtree first (lowest index on ties); each goes to the node with the
     *    most free slots (lowest index on ties) and reserves its subtree's
     *    slots there, then on the nodes nearest to it (distance, then most free,
     *    then lowest index). So a 4 x 4 nest on 4 nodes puts one outer thread
     *    and its inner team per node, and independent outermost teams go to
     *    different nodes while nodes remain.
     * 2. Inside a team (including a whole outermost team), given the slots
     *    reserved for it and its master's node m: the master's own subtree is
     *    reserved on m first; then its other threads, heaviest subtree first
     *    (lowest index on ties), each go to the node nearest to m whose
     *    remaining reservation holds its whole subtree (m itself first), else
     *    to the nearest with any room; the subtree reserves its slots from that
     *    node outwards. An inner team therefore fills its master's node's free
     *    cores first and straddles nodes only when its subtree is larger than
     *    the room there; it then takes whole nodes nearest to its master, and
     *    the innermost teams, which share the most, are the ones kept whole.
     */
    PL_BUBBLE_CACHE = 0,
    /*
     * Memory (section 3.3, "A Scheduling Policy Guided by Memory Hints"): a
     * bubble's preferred node is the argmax of its node_bytes (lowest node on
     * ties); a bubble without bytes inherits its parent's (-1 at the top).
     * Outermost entities (as in cache step 1) are weighted by the bytes of
     * their subtree (or, with none, of their outermost team) and taken
     * heaviest first (then heaviest subtree, then lowest index); each goes to
     * the argmax node of those bytes if its free slots hold the whole subtree,
     * else to the nearest node to it that does, else the nearest with any
     * room; entities without bytes follow, placed as by cache. Inside a
     * team, a thread whose inner team has bytes goes to their argmax node if
     * the team's reservation holds its subtree there; otherwise cache step 2.
     * An inner team contains its master, so its bytes pull the master too.
     */
    PL_BUBBLE_MEMORY,
    PL_BUBBLE_SCHED_COUNT
} pl_bubble_sched_t;

typedef struct pl_bubble_map {
    int  nslots;    /* must equal pl_bubble_slots() of the tree            */
    int *node;      /* [nslots] node of each slot                           */
    int *core;      /* [nslots] core within that node (see oversubscription) */
    int *preferred; /* [nbubbles] preferred node of each bubble under memory
                       (-1 none; always -1 under cache), or NULL            */
} pl_bubble_map_t;

/* Largest number of slots a tree may have (pl_bubble_slots answers -E2BIG). */
#define PL_BUBBLE_MAX_SLOTS (1 << 20)

/* Validate the tree's shape and count its slots. Returns the count (>= 1) or
 * -EINVAL: bubbles NULL or nbubbles < 1, nthreads < 1, a parent not before
 * its child (which also rules out cycles), a master outside 0..parent's
 * nthreads - 1, two inner teams with the same parent and master; -E2BIG
 * beyond PL_BUBBLE_MAX_SLOTS. O(nbubbles^2) for the last check. */
int pl_bubble_slots(const pl_bubble_t *bubbles, int nbubbles);

/* Scratch bytes pl_bubble_decide needs (0 for sizes it would reject): per
 * slot nnodes + 8 ints and a double (each slot keeps the per-node reservation
 * of its subtree), per bubble 4 ints and nnodes doubles, 3 ints per node,
 * plus alignment. */
size_t pl_bubble_workspace_bytes(int nbubbles, int nslots, int nnodes);

/* Place every thread of the tree. Returns 0, or -EINVAL (a bad tree as
 * pl_bubble_slots says, a bad topology as pl_check says, node_bytes negative
 * or not finite, out NULL or out->nslots wrong, an unknown scheduler),
 * -ENOSPC when no node has a core, -ENOBUFS when work_bytes is below
 * pl_bubble_workspace_bytes(). Deterministic; O(nslots * nnodes^2) at worst. */
int pl_bubble_decide(pl_bubble_sched_t sched, const pl_topo_t *topo,
                     const pl_bubble_t *bubbles, int nbubbles,
                     pl_bubble_map_t *out, void *work, size_t work_bytes);

const char *pl_bubble_sched_name(pl_bubble_sched_t sched); /* "cache", "memory" */
int pl_bubble_sched_from_name(const char *name, pl_bubble_sched_t *sched);

/*
 * Threads or data (section 4.4, Twisted-STREAM): a bubble runs on node cur
 * and its buffers hold node_bytes[n] bytes on node n. Four ways to go on:
 *
 *   stay      nothing moves; every byte off cur is accessed remotely.
 *   threads   the threads move to node X (the cheapest X != cur whose
 *             capacity, read as the cores free for this bubble, is at least
 *             nthreads); bytes off X become or stay remote.
 *   data      every byte off cur migrates to cur; all accesses local.
 *   mixed     the threads and the local buffer (on cur) go to R, the node
 *             holding the largest remote data (lowest node on ties); only
 *             offered when 0 < node_bytes[cur] < node_bytes[R] and R has room,
 *             i.e. the paper's "migrates both thread and local vector near to
 *             the other vector". Bytes on third nodes stay remote.
 *
 * Each option's cost, in microseconds, is its one-time move cost plus the
 * remote-access penalty it leaves for the rest of the run:
 *
 *   migrate(B)   = B > 0 ? mig_fixed_us + mig_page_us * ceil(B / page_bytes) : 0
 *                  one move_pages call per source node; MaMI's linear model,
 *                  120 + 11 * pages us on the paper's machine (section 3.2)
 *   move_threads = thread_fixed_us + thread_us * nthreads
 *                  (footnote 2: about 2.5 us latency and 0.06 us per thread)
 *   penalty(x, n, B) = B * accesses_per_byte * local_us_per_byte
 *                      * (distance[x][n] / distance[x][x] - 1), at least 0
 *                  the extra cost of reaching node n's memory from node x:
 *                  Table 3's remote/local latency ratios (x1.18 .. x1.46),
 *                  here from the topology's distances, times how often the
 *                  rest of the run touches each byte (MaMI's access cost)
 *
 *   stay    = sum_{n != cur} penalty(cur, n, B_n)
 *   threads = move_threads + sum_{n != X} penalty(X, n, B_n)
 *   data    = sum_{n != cur} migrate(B_n)
 *   mixed   = move_threads + migrate(B_cur) + sum_{n != cur, R} penalty(R, n, B_n)
 *
 * The cheapest applicable option wins; ties go to the earlier of stay,
 * threads, data, mixed (the least disruptive).
 */
typedef struct pl_move_cost {
    double mig_fixed_us;      /* a of the migration line, per call          */
    double mig_page_us;       /* b of the migration line, per page          */
    double page_bytes;        /* > 0                                        */
    double thread_fixed_us;   /* latency of moving a team's threads          */
    double thread_us;         /* per thread moved                            */
    double local_us_per_byte; /* cost of one local access to one byte        */
    double accesses_per_byte; /* accesses to each byte in the rest of the run */
} pl_move_cost_t;

typedef enum pl_move_kind {
    PL_MOVE_STAY = 0,
    PL_MOVE_THREADS,
    PL_MOVE_DATA,
    PL_MOVE_MIXED,
    PL_MOVE_COUNT
} pl_move_kind_t;

typedef struct pl_move_option {
    int    applicable;  /* 0: the option does not exist here (costs are HUGE_VAL) */
    int    node;        /* where the threads run afterwards (-1 when not applicable) */
    double bytes_moved; /* bytes migrated                                          */
    double move_us;     /* one-time cost: thread and page migration                */
    double remote_us;   /* remote-access penalty left for the rest of the run      */
    double total_us;    /* move_us + remote_us                                     */
} pl_move_option_t;

typedef struct pl_move_choice {
    pl_move_kind_t   choice;
    pl_move_option_t option[PL_MOVE_COUNT]; /* indexed by pl_move_kind_t */
} pl_move_choice_t;

/* The paper's machine: a = 120 us, b = 11 us per 4 KiB page, threads 2.5 us
 * + 0.06 us each, one 64-byte line per 83 ns locally (Table 3, read), each
 * byte accessed once. */
void pl_move_cost_default(pl_move_cost_t *cost);

/* Fill out with every option's costs and the choice. Returns 0 or -EINVAL
 * (bad topology, cur outside 0..nnodes-1, nthreads < 1, node_bytes or out
 * NULL, a byte count or cost parameter negative or not finite, page_bytes
 * <= 0). Stay is always applicable. */
int pl_threads_or_data(const pl_topo_t *topo, int cur, int nthreads,
                       const double *node_bytes, const pl_move_cost_t *cost,
                       pl_move_choice_t *out);

const char *pl_move_kind_name(pl_move_kind_t kind); /* "stay", "threads", "data", "mixed" */

#ifdef __cplusplus
}
#endif
#endif /* OMPNUMA_PL_H */
