/* pl_online.h: online thread migration (IMAR2, Lorenzo et al.): performance record, lottery, interchange, rollback, adaptive period. */
#ifndef OMPNUMA_PL_ONLINE_H
#define OMPNUMA_PL_ONLINE_H

/*
 * The pure half of IMAR2. A monitor (in the runtime) wakes every period,
 * measures each managed thread's performance P over the interval just ended,
 * and calls pl_imar2_step(), which
 *   1. stores P of every measured thread in its record for the node it ran on
 *      (replacing the older value: behaviour changes are followed);
 *   2. sums the measured P into the interval's total performance;
 *   3. compares the total with the previous interval's and decides:
 *        total <  ratio * previous   the period doubles (at most period_max);
 *                                    the interchange applied after the
 *                                    previous step, if any, is rolled back and
 *                                    nothing else moves this interval;
 *        total >  previous           the period halves (at least period_min)
 *                                    when a migration was applied after the
 *                                    previous step (it paid off); a new
 *                                    migration is drawn;
 *        otherwise                   the period stays; a new migration is
 *                                    drawn, unless a migration was applied
 *                                    after the previous step (see "rest");
 *   4. for a migration: the migrating thread m is the one with the lowest
 *      performance divided by the mean of its group (the paper's process);
 *      every destination gets tickets (below), a lottery drawn from the
 *      state's own random generator picks one, and the interchange moves m
 *      to that core, swapping it with the thread there if the core is taken.
 * The monitor moves the threads and then calls pl_imar_apply() with the move;
 * the next step judges that move. Nothing moves unless the caller applies it,
 * so a move the affinity owner refused is simply never judged or rolled back.
 *
 * Trial and rest (where this differs from the paper, and why). The paper
 * draws a migration at every step that is not a rollback, and its period is
 * the time between steps: a program whose mapping is already the best runs
 * on a trial swap about half of the time (trial, rollback, trial, ...),
 * whatever the period, and on a 2-node machine with a 2-thread team that
 * trial makes every access remote. Here the period is how long a mapping
 * that did not gain rests untouched, and a trial is short:
 * - a step that draws a migration sets the wait until the next step
 *   (next_ms) to period_min: a trial is judged after the shortest period;
 * - a rollback (the period doubled), or a trial kept without a rise (within
 *   the ratio but not above the previous total), or a trial that could not
 *   be judged, draws nothing and sets next_ms to the period: the restored or
 *   kept mapping runs the whole period before the next draw ("rest");
 * - a trial that raised the total halves the period and draws the next one
 *   at once (a placement still improving migrates at the shortest period, as
 *   in the paper); a step with no trial to judge draws (next_ms =
 *   period_min) after the comparison above.
 * A mapping that keeps being confirmed thus spends period_min of every
 * period_min + period on a trial: the share falls as the period doubles,
 * to period_min / (period_min + period_max) (a fifth with the defaults).
 * The rules that decide (ratio, doubling, halving, rollback, lottery) are
 * the paper's.
 *
 * Locality gate (not in the paper, and why). A trial on a program already
 * next to its data moves a thread away from it: on 2 nodes every access of
 * the moved threads is remote until the rollback; with trials drawn
 * blindly, NPB MG went from 1 % to 34 % of its misses remote, CG from 0.4 %
 * to 32 %. So, with the gate on (params.remote_min > 0, default 0.1), a
 * thread migrates only toward data measured to be elsewhere. im->refs is
 * the TNT (references of each thread to memory on each node, from any
 * sample of the running work); a thread is eligible when its remote share,
 * 1 - refs[t][node of core[t]] / sum_n refs[t][n], is at least remote_min
 * and some node holds more of its references than its own beyond the
 * sampling error of both counts (each moved PL_EVIDENCE_Z standard errors
 * against the move, as pl_evidence does). A step that would draw draws none
 * (out->gated) while no measured thread is eligible, which includes having
 * no TNT at all (refs NULL): without evidence, nothing moves. The period
 * then doubles (at most period_max) and the mapping rests for it, as after
 * a rollback, so a team with nothing to gain is stepped (measured) once per
 * period_max, not once per period_min. The share is taken from where the
 * thread runs now, so after a move the same TNT says whether it is home.
 * Otherwise the migrating thread m is chosen among the eligible threads
 * only (the paper's rule among them), and only destinations on a node
 * measured to hold more of m's references than its own get tickets (on 4
 * nodes in a line the paper's lottery picks the swap that takes a crossed
 * pair home one time in three). The gate never stops a rollback.
 * remote_min = 0 turns the gate off: the paper's IMAR2, trials without
 * evidence.
 *
 * Where the paper leaves a case open, this is what is done (and why):
 * - Halving needs a migration to reward: after a rollback the total rises
 *   because the rollback undid harm, and halving then would cancel the
 *   doubling, so a program where every migration hurts would never slow its
 *   migrations down. After a rollback (or an interval without a move) a rise
 *   keeps the period.
 * - A drop below the ratio with nothing of ours to undo (no move applied, or
 *   the threads were moved by someone else since) doubles the period and
 *   still draws a migration: the paper rolls back instead of migrating only
 *   when it has something to roll back.
 * - The totals of two intervals are compared only when the same number of
 *   threads was measured in both; otherwise the step acts as on the first
 *   interval (period kept, migration drawn).
 * - Equal performance counts as "worse": only a strict gain earns the
 *   "better" tickets.
 *
 * Tickets (the paper's rules, with its Table 4 example as a test). m runs on
 * node n_m. Every core c on a node other than n_m is a destination, once per
 * managed thread s running on c (threads sharing a core are separate
 * destinations), or once with no partner when no managed thread runs on c.
 * Cores on n_m get none. A destination's tickets are the sum of
 *   for m, on c's node d:   t_worse  if record(m, d) <= record(m, n_m)
 *                           t_none   if m has no record on d
 *                           t_better if record(m, d) >  record(m, n_m)
 *   for s, on n_m:          t_worse / t_none / t_better likewise, comparing
 *                           record(s, n_m) with record(s, d); t_none also when
 *                           s has no record on d
 *   or, for a free core:    t_free.
 * Defaults 1 / 2 / 4, as the paper: an interchange good for both threads gets
 * 8 tickets, one bad for both 2, one about which nothing is known 4.
 * The capture of the paper lost the value of t_free; its statement that 8 is
 * the maximum bounds it by t_better, and a free core harms no partner, so the
 * default is t_free = 4 (a parameter).
 *
 * Lottery: the tickets are numbered in destination order (cores ascending,
 * threads ascending within a core); a ticket number r uniform in
 * [0, total) is drawn and the destination holding it wins
 * (pl_imar_pick()). The random generator is SplitMix64 (Steele, Lea, Flood,
 * "Fast splittable pseudorandom number generators", OOPSLA 2014): 64 bits of
 * state, state += 0x9e3779b97f4a7c15, output = the state mixed by
 * z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9; z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
 * z ^ (z >> 31). A number below n is drawn without modulo bias by
 * rejecting outputs below 2^64 mod n. The seed is the initial state, so equal
 * seeds and equal measurements give equal decisions.
 *
 * Performance (what P is; both functions below):
 * - With a PMU (the paper, eq. 1): P = GIPS^alpha * instB^beta * (1/lat)^gamma,
 *   GIPS = instructions retired / 1e9 / seconds of the interval, instB =
 *   instructions / bytes of DRAM traffic, lat = mean memory access latency in
 *   cycles. Larger is better.
 * - Without one: P = rate^alpha * share^beta * (1/L)^gamma, over the
 *   thread's own time: active = wall_s - wait_s, the interval less the time
 *   it waited at barriers, and busy = min(cpu_s, active):
 *   rate  = work / busy: work units done per second of the thread's CPU
 *           time (the GIPS analogue). work = loop iterations dispatched plus
 *           implicit tasks completed (OMPT events) in the interval; when no
 *           work was counted (a region without worksharing) rate is 1;
 *   share = busy / active, at most 1: how much of that time the thread ran;
 *           a thread sharing its core runs less (the paper's GIPS per
 *           second of the interval sees the same). With alpha = beta,
 *           rate * share = work per second of the thread's own time.
 *           Leaving the waits out matters for a team that meets at a
 *           barrier: counted in, every member's work per second is the
 *           slowest member's, so a migration that speeds up some threads
 *           but not the slowest one cannot show (4 threads on 4 nodes, a
 *           swap that brings 2 of them home). Spinning in a barrier burns
 *           CPU time, hence busy is capped by active;
 *   L     = the mean memory latency of the thread's TNT row from the node it
 *           ran on, in local latencies: sum_d refs[d] * dist(n, d) /
 *           dist(n, n) / sum_d refs[d] (1 with no references). With one
 *           remote distance it is 1 + remote_share * (numa_factor - 1): the
 *           remote share of the row raises it. It stands for the paper's
 *           latency, and for its instB, which has no counter without a PMU.
 *
 * Conventions are those of pl.h: every array is the caller's, nothing is
 * allocated, no system call, no global state; functions return 0 (or a
 * count) or a negative errno: -EINVAL for malformed input, -ENOBUFS for a
 * caller buffer too small. Indices count from 0.
 */

#include <stddef.h>
#include <stdint.h>
#include "pl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SplitMix64 state (see above). Copy it to replay a sequence. */
typedef struct pl_rng {
    uint64_t state;
} pl_rng_t;

void     pl_rng_seed(pl_rng_t *rng, uint64_t seed);
uint64_t pl_rng_next(pl_rng_t *rng);
/* A number uniform in [0, n) into *out. 0, or -EINVAL (rng or out NULL, n = 0). */
int      pl_rng_below(pl_rng_t *rng, uint64_t n, uint64_t *out);

/* Weights of the three factors of P (both formulas). */
typedef struct pl_imar_weights {
    double alpha, beta, gamma;   /* finite, >= 0; the paper's IMAR[..;1,1,1] */
} pl_imar_weights_t;

void pl_imar_weights_default(pl_imar_weights_t *w);   /* 1, 1, 1 */

/* One thread's interval with a PMU. */
typedef struct pl_imar_pmu {
    double instructions;     /* retired in the interval, >= 0                      */
    double seconds;          /* length of the interval, > 0                        */
    double bytes;            /* DRAM traffic (LLC misses * line size), >= 0; below
                                one 64-byte line it counts as one line, so a thread
                                that missed no line has a large, finite instB     */
    double latency_cycles;   /* mean load latency, > 0; an interval without latency
                                samples should pass the last measured value       */
} pl_imar_pmu_t;

/* P from hardware counters into *perf. 0 or -EINVAL (NULL pointers, a value
 * outside its range or not finite). w NULL = defaults. */
int pl_imar_perf_pmu(const pl_imar_pmu_t *s, const pl_imar_weights_t *w, double *perf);

/* One thread's interval without a PMU. */
typedef struct pl_imar_nopmu {
    double          work;    /* loop iterations dispatched + implicit tasks completed, >= 0 */
    double          cpu_s;   /* thread CPU time in the interval, >= 0                       */
    double          wall_s;  /* length of the interval, > 0                                 */
    int             node;    /* node the thread ran on                                      */
    const uint64_t *refs;    /* [topo->nnodes] the thread's TNT row (references per node)   */
    double          wait_s;  /* time of the interval it waited at barriers, >= 0 (0: none
                                counted); left out of the interval (see "Performance")   */
} pl_imar_nopmu_t;

/* P without a PMU into *perf. 0, -EINVAL (NULL pointers, a bad topology as
 * pl_check says, node out of range, a value outside its range or not finite),
 * or -ENODATA when cpu_s is 0 or wait_s >= wall_s: the thread did not run,
 * or only waited, there is nothing to judge; give it a negative performance
 * (not measured) for this interval, or keep its record where it ran.
 * w NULL = defaults. */
int pl_imar_perf_nopmu(const pl_topo_t *topo, const pl_imar_nopmu_t *s,
                       const pl_imar_weights_t *w, double *perf);

/* Parameters of IMAR2[period_min, period_max; ...; ratio] and its tickets. */
typedef struct pl_imar_params {
    int    t_worse, t_none, t_better, t_free;  /* 0..PL_IMAR_MAX_TICKETS          */
    double ratio;          /* 0 < ratio <= 1: acceptable drop of total performance */
    double period_min_ms;  /* > 0                                                  */
    double period_max_ms;  /* >= period_min_ms                                     */
    double remote_min;     /* 0..1: a thread migrates only when its remote share is
                              at least this and its data is measured elsewhere
                              (locality gate, above); 0: the gate is off         */
} pl_imar_params_t;

#define PL_IMAR_MAX_TICKETS 1000
/* Record value meaning "never measured on this node". Any negative value means the same. */
#define PL_IMAR_NO_RECORD (-1.0)

/* Tickets 1 / 2 / 4 / 4; ratio 0.97 and periods 1000 ms .. 4000 ms, the
 * paper's IMAR2[1,4;1,1,1;0.97] read as seconds; remote_min 0.1 (no trial
 * without a TNT that shows data elsewhere). The runtime may override. */
void pl_imar_params_default(pl_imar_params_t *p);

/* The interchange: thread moves from from_core to to_core; partner, if any
 * (>= 0), moves from to_core to from_core. */
typedef struct pl_imar_move {
    int thread;      /* -1: no move                                      */
    int from_core, to_core;
    int partner;     /* -1: to_core had no managed thread               */
    int rollback;    /* 1: this move undoes the previously applied one    */
} pl_imar_move_t;

/* One lottery destination. */
typedef struct pl_imar_dest {
    int core;        /* index into the state's cores                      */
    int partner;     /* thread swapped with, -1 for a free core            */
    int tickets_m;   /* the migrating thread's share of the tickets        */
    int tickets_s;   /* the partner's share, or t_free                    */
    int tickets;     /* tickets_m + tickets_s                             */
} pl_imar_dest_t;

/*
 * The state of one monitor. Caller-owned, like the arrays it points to; set
 * up by pl_imar_init, then read freely (core[], record[], period_ms are what a
 * report shows) and changed only through the functions below. core[] may be
 * rewritten by the caller when someone else moved threads: a pending move
 * that no longer matches is then neither judged nor rolled back.
 */
typedef struct pl_imar {
    pl_imar_params_t params;
    int        nnodes;
    int        ncores;
    const int *core_node;      /* [ncores] node of each core the monitor may use   */
    int        nthreads;
    int       *core;           /* [nthreads] core each managed thread runs on       */
    const int *group;          /* [nthreads] group (process, team) for normalising;
                                  NULL: all threads are one group                   */
    double    *record;         /* [nthreads * nnodes] last P of thread t on node n,
                                  negative when none                                */
    double     period_ms;      /* the adaptive period: how long a mapping rests     */
    double     next_ms;        /* the wait until the next step: period_min after a
                                  draw (a trial), else period_ms                    */
    double     prev_total;     /* the previous interval's total, negative: none     */
    int        prev_measured;  /* threads measured in the previous interval         */
    pl_imar_move_t pending;    /* applied since the last step, to be judged         */
    pl_rng_t   rng;
    const uint64_t *refs;      /* [nthreads * nnodes] the TNT the locality gate reads,
                                  set (or changed) by the caller before a step; NULL
                                  (as pl_imar_init leaves it): no TNT, never gated  */
} pl_imar_t;

/* Set up im over the caller's arrays: every record entry becomes
 * PL_IMAR_NO_RECORD, the period and the first wait (next_ms) period_min_ms,
 * no previous total, nothing pending, the generator seeded with seed. params NULL = defaults. 0 or
 * -EINVAL: im, core_node, core or record NULL; nnodes outside
 * 1..PL_MAX_NODES; ncores or nthreads < 1; a core_node[] or core[] entry out
 * of range; a parameter outside its range (see pl_imar_params_t). */
int pl_imar_init(pl_imar_t *im, const pl_imar_params_t *params,
                 int nnodes, int ncores, const int *core_node,
                 int nthreads, int *core, const int *group,
                 double *record, uint64_t seed);

/* Destinations a lottery may need: ncores + nthreads. -EINVAL when im is NULL. */
int pl_imar_max_dests(const pl_imar_t *im);

/* Store one interval's measurements: perf[t] >= 0 is thread t's P on the node
 * of core[t]; negative means not measured (the record is kept). Returns the
 * number of measured threads and their sum in *total (total may be NULL), or
 * -EINVAL (NULL im or perf, a NaN or infinite perf). */
int pl_imar_observe(pl_imar_t *im, const double *perf, double *total);

/* The migrating thread for this interval's measurements perf[] (as
 * pl_imar_observe takes them): the lowest perf[t] / mean of perf over the
 * measured threads of t's group, lowest index on ties. Threads not measured,
 * alone (measured) in their group, or in a group whose mean is 0 are not
 * candidates. *m = -1 when there is none; *norm (may be NULL) receives the
 * normalised value. 0 or -EINVAL. */
int pl_imar_select(const pl_imar_t *im, const double *perf, int *m, double *norm);

/* Every destination of thread m with its tickets (rules above), from the
 * current record. Writes *ndests entries and the sum of their tickets in
 * *total. 0, -EINVAL (NULL pointer, m out of range, m without a record on its
 * own node), -ENOBUFS when max_dests is too small (pl_imar_max_dests always
 * suffices). */
int pl_imar_tickets(const pl_imar_t *im, int m, pl_imar_dest_t *dests, int max_dests,
                    int *ndests, int64_t *total);

/* The destination holding ticket number r (0 <= r < total): *chosen. 0 or -EINVAL. */
int pl_imar_pick(const pl_imar_dest_t *dests, int ndests, int64_t r, int *chosen);

/* The lottery: pl_imar_pick of a ticket drawn from rng. 0, or -EINVAL (NULL
 * pointer, ndests < 1, a negative ticket count), -ENODATA when no destination
 * has a ticket. */
int pl_imar_draw(pl_rng_t *rng, const pl_imar_dest_t *dests, int ndests, int *chosen);

/* The largest remote share over the threads, each from the node of its
 * core (locality gate, above), into *max_remote: 1 when every thread has
 * references in im->refs, 0 (and *max_remote = -1) when im->refs is NULL
 * or some thread has none; -EINVAL for NULL pointers. */
int pl_imar_remote_max(const pl_imar_t *im, double *max_remote);

/* Record that the caller moved the threads as mv says: core[] is updated,
 * and a migration becomes the move the next step judges (a rollback clears
 * it). 0 or -EINVAL: NULL pointer, no move (thread -1), indices out of range,
 * thread not on from_core, partner not on to_core, from_core == to_core. */
int pl_imar_apply(pl_imar_t *im, const pl_imar_move_t *mv);

typedef enum pl_imar_action {
    PL_IMAR_NONE = 0,    /* nothing to move (no candidate, no tickets)          */
    PL_IMAR_MIGRATE,     /* move.thread goes to move.to_core (swap if partner)  */
    PL_IMAR_ROLLBACK     /* undo the previous interval's move                   */
} pl_imar_action_t;

/* What one step decided, for the caller and the report's timeline. */
typedef struct pl_imar_step {
    pl_imar_action_t action;
    pl_imar_move_t   move;          /* thread -1 for PL_IMAR_NONE                      */
    int              measured;      /* threads measured this interval                  */
    double           total;         /* this interval's total performance               */
    double           prev_total;    /* the previous one, negative when not comparable  */
    int              period_change; /* -1 halved, 0 kept (or at its bound), +1 doubled */
    double           period_ms;     /* the adaptive period after this step             */
    double           next_ms;       /* the wait until the next step (see "trial and
                                       rest")                                          */
    int              rest;          /* 1: the mapping rests for the period (rollback,
                                       or a trial kept without a rise)                 */
    double           norm;          /* migration: m's normalised performance           */
    double           perf_from;     /* migration: record of m on from_core's node      */
    double           perf_to;       /* migration: record of m on to_core's node, or
                                       negative when none                              */
    int              tickets;       /* migration: the winner's tickets                 */
    int64_t          total_tickets; /* migration: all tickets of the lottery           */
    int              ndests;        /* migration: destinations in dests[]              */
    int              gated;         /* 1: a draw was due and the locality gate held it
                                       (the period doubled, the mapping rests)          */
    double           max_remote;    /* the largest remote share (pl_imar_remote_max) when
                                       a draw was due, negative when unknown           */
} pl_imar_step_t;

/* One IMAR2 interval (see the top of this file): observe perf[], compare,
 * adjust the period, decide. dests[] (max_dests entries, pl_imar_max_dests
 * suffices) receives the lottery's destinations. Changes record[], the period,
 * the previous total and the generator; core[] changes only through
 * pl_imar_apply. 0, -EINVAL (NULL pointer, a NaN or infinite perf), or
 * -ENOBUFS when max_dests < pl_imar_max_dests(im); both are checked before
 * anything changes, so a failed step leaves the state as it was. */
int pl_imar2_step(pl_imar_t *im, const double *perf, pl_imar_dest_t *dests, int max_dests,
                  pl_imar_step_t *out);

const char *pl_imar_action_name(pl_imar_action_t a);  /* "none", "migrate", "rollback" */

#ifdef __cplusplus
}
#endif
#endif /* OMPNUMA_PL_ONLINE_H */
