/* rt_data.h: data placement per region: when moving threads cannot bring them next to their data, move the data (migrate, interleave), verify, undo; and the memory behind a region's remote references. */
#ifndef OMPNUMA_RT_DATA_H
#define OMPNUMA_RT_DATA_H

#include <stdio.h>

#include "rt_region.h"
#include "rt_sources.h"

/*
 * Part of the region loop (docs/architecture.md). Its state per region is
 * its own (allocated at a region's first sampled execution with addresses,
 * indexed by region id); the loop calls it at three points:
 *
 *   rt_loop_sample      rt_data_log: where the source logs the addresses of
 *                       the sampled references (a new sampling phase of the
 *                       region starts a new log, as its table);
 *   end of sampling     rt_data_decide: plan (placement/data), compare with
 *                       the threads' move, apply when the data's move wins;
 *   end of verification rt_data_verified: keep, or undo completely.
 *
 * Only under the region loop (a placement policy), with data=on, on two
 * nodes or more, and with a source that logs addresses (perf; pagefault).
 */

/* Whether data placement acts at all (the conditions above). */
int rt_data_on(void);

/* The log the counter source writes r's sampled addresses into, or NULL
 * (nothing to log: see above); phase: the loop's count of r's sampling
 * phases (a new one starts a new log). Allocates at a region's first need. */
rt_addr_log_t *rt_data_log(const rt_region_t *r, int phase);

enum {
    RT_DATA_NONE = 0,   /* the data stays: the threads' decision goes on */
    RT_DATA_ALONE,      /* the data moved (in dry run: would), the threads stay where they run */
    RT_DATA_WITH        /* the data moved with the threads' decision (planned where they go): the
                           threads' move goes on, and its verification judges both */
};

/* At the end of r's sampling phase, its threads' decision made: to_node =
 * the node it gives each thread, cp_ns = r's critical path measured before
 * it (0 unknown), threads = whether it moves them, must = whether they must move
 * whatever the data does (they ran where they may not stay), thread_gain =
 * its relative gain at worst (0 without evidence), moved = the threads it
 * moves. Plans the data's move on r's log with the threads where they run
 * and, when they move, where they go; makes the better of (the data alone)
 * and (the threads, with the data's move on top when it pays) when the
 * data's part has evidence and pays for itself over r's expected remaining
 * executions (Broquedis et al. 4.4). In dry run it is recorded, not made.
 * Also records the memory behind r's remote references for the report.
 * Allocates; system calls (a maps read, the moves). */
int rt_data_decide(rt_region_t *r, const int *to_node, double cp_ns, int threads, int must, double thread_gain,
                   int moved);

/* After a move's verification window (critical path after_ns against
 * before_ns), when the data moved: kept when faster, else every page back
 * where it was and the default policy back. Returns 1 when the data moved
 * alone (the threads have nothing to restore), 0 otherwise. */
int rt_data_verified(rt_region_t *r, double before_ns, double after_ns);

/* What moving r's data is predicted to gain on its sample so far, its
 * threads staying where they ran (the plan's relative gain, within sampling
 * error or not; 0 when nothing is logged or no range would help). Reads the
 * program's mappings: the region loop asks it only of a home whose table
 * promises a data move (pl_data_promising). */
double rt_data_promise(const rt_region_t *r);

/* Whether r's last decision left its data where it was for too few samples
 * alone: its plan had ranges to act on and a gain predicted, but not one
 * that survives sampling error. The region loop samples more then, as it
 * does for a thread move that thin (the same extensions), and a plan
 * predicted to gain nothing samples no more. */
int rt_data_wants_more(const rt_region_t *r);

/* Where the memory behind remote references was first touched
 * (memory/rt_origin.h): rt_data_preload starts recording at the program's
 * load, before main, when the settings may want it named (a placement
 * policy with data=on, a report or the verbose log, a source that may have
 * addresses); rt_data_init, once the counter source is chosen, stops it
 * when no memory will be named after all. */
void rt_data_preload(void);
void rt_data_init(void);

/* r's data section: a JSON value ("null" when it has none), and readable
 * lines for the stderr table. */
void rt_data_report_json(FILE *f, const rt_region_t *r);
void rt_data_report_text(FILE *f, const rt_region_t *r);

#endif
