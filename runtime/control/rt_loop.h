/* rt_loop.h: the per-region placement loop (docs/architecture.md, "The region loop"). */
#ifndef OMPNUMA_RT_LOOP_H
#define OMPNUMA_RT_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "pl.h"
#include "rt_region.h"
#include "rt_sources.h"

/* The executions a region's cycle is looked for in (rt_loop.c). */
#define RT_LOOP_RING 8

/* A region's part in a compromise mapping (rt_loop_region_t.compromise). */
typedef enum {
    RT_COMPROMISE_NONE = 0,
    RT_COMPROMISE_PENDING, /* pinned to it; not measured faster yet */
    RT_COMPROMISE_KEPT,    /* the team measured faster under it, or verify=off */
    RT_COMPROMISE_UNDONE,  /* the team was not faster: back to its own pins, never tried again */
} rt_compromise_t;

/*
 * The loop's own state of a region, allocated with the record (the loop is
 * told of each new one, rt_region_on_create) and written by rt_loop.c
 * alone (tools/check_layers.py checks it). The region record keeps what
 * the events read at every execution: the outcome, measuring, quiet,
 * confirming, the pins. Others read it through rt_loop_of.
 */
typedef struct rt_loop_region {
    uint64_t    *window;        /* the current timing window's critical paths, in order (a
                                   loop's median is taken, a region's fastest per cycle position) */
    uint64_t     ring[RT_LOOP_RING]; /* region: its latest consecutive critical paths while
                                   sampling that no source slowed, ring_n of them so far
                                   (rt_loop.c: "cycle") */
    uint32_t     ring_n;
    uint64_t     seen_min, seen_max; /* region: its fastest and slowest execution while sampling,
                                   its first left out, less what the source's faults took */
    uint64_t     slowed_ns;     /* region: what the source's faults took of the execution ending
                                   (rt_sample_t.slowed_ns) */
    int          apart;         /* region: executions KINDS_APART from the others (rt_loop.c: "cycle") */
    int          varies;        /* region: two such, at least: its executions are of kinds that differ */
    unsigned     positions;     /* region, while it varies: the positions (execution number mod
                                   CYCLE_MAX) its sampled executions took */
    int          cycle;         /* region: executions in the cycle its baseline showed (1 none) */
    int          window_n;      /* region: its baseline's length, the verification's (0 not yet) */
    int          phase_execs;   /* executions in the current phase */
    int          settle;        /* construct: executions let pass since a move */
    uint64_t     cp_phase_sum;  /* critical-path sum in the current phase */
    uint64_t     phase_min, phase_max;
    int          resamples;     /* times a drift or a new allotment re-opened sampling */
    unsigned     allot_gen;     /* the rank's allotment (rt_affinity_allotment) its last
                                   sampling phase ended in: a new one re-opens sampling */
    double       cp_before_ns;  /* the baseline window's critical path (window_cp) before the decision */
    double       cp_after_ns;   /* the verification window's after it (0: not measured) */
    double       cp_settled_ns; /* mean of the first window once settled: drift reference
                                   (0 not yet measured, -1 skip the next window) */
    double       noise;         /* relative spread measured while sampling */
    uint64_t    *tnt_samples;   /* [team_size] samples each thread contributed */
    uint64_t    *tnt_after;     /* [team_size * nnodes] sampled again once a move was kept */
    int         *map_node;      /* [team_size] decided node, -1 undecided */
    int         *prev_pin_cpu;  /* [team_size] the placement before the decision */
    int         *decided_cpu;   /* [team_size] CPU the decision gives each thread, -1 none */
    int          extensions;    /* sampling phases added because the table was too thin */
    int          data_promised; /* a sample with every thread at home promised a data move
                                   (pl_data_promising): its phase went on */
    pl_evidence_t evidence;     /* what the last decision's move rested on (pl_evidence) */
    int          decision_policy;
    double       decision_us;
    double       predicted_before, predicted_after;
    uint64_t     armed_execs;   /* sampled executions the counter source armed for it */
    uint64_t     armed_seen;    /* armed_execs the loop has counted */
    int          unarmed;       /* sampling executions in a row the source could not arm */
    uint64_t     unarmed_since; /* when the first of them ended (ns) */
    int          busy_now;      /* the execution ending was not armed: another held the source */
    uint64_t     declined;      /* ... that it did not arm, or that rested after such a one, to
                                   stay within its budget (not counted) */
    int          declined_now;  /* the execution ending was one of them */
    int          budget_rest;   /* resting until the source's budget allows an arming */
    int          rest_skip;     /* resting executions left before the source is asked again */
    int          loops_waiting; /* its repeating loops with no record yet: their source could
                                   not sample them (rt_loop_loops_waiting) */
    uint64_t     repins_mark;   /* the region's repins at the start of the current window */
    int          compromise;    /* pins shared with other regions to stop bouncing
                                   (rt_compromise_t) */
    double       cp_window_ns;  /* mean of the last settled window */
    double       cp_alone_ns;   /* under a compromise: that mean before it ... */
    double       cp_shared_ns;  /* ... and the first settled window's under it (0: not yet) */
    const char  *note;          /* why the last decision moved nothing (a static string), or NULL */
    int          cached;        /* it started from a mapping kept in an earlier run (rt_loop_adopt) */
} rt_loop_region_t;

/* Once, before the first region: the loop is told of each new record. */
void rt_loop_init(void);

/* The loop's state of r (never NULL for a record created after rt_loop_init). */
const rt_loop_region_t *rt_loop_of(const rt_region_t *r);

/* The primary thread, after execution of r whose critical path was cp ns.
 * Advances r through sampling -> baseline -> decision -> verification ->
 * settled, re-opening sampling on drift. Allocates only when deciding. */
void rt_loop_region_end(rt_region_t *r, uint64_t cp);

/* r samples while its source waits (r->resting: by time, or for its
 * budget): before a fork, or a loop's execution, whether this execution
 * still rests (1), or a reading is due and it is sampled in full (0,
 * resting cleared until its end says again). The encountering thread,
 * holding r's `ending`. */
int rt_loop_resting(rt_region_t *r);

/* A region created while the counter source could add nothing (r->blind:
 * not sampled, settled as no_data) begins its sampling phase if the source
 * can now see (rt_counters_blind: an attach since, which also set
 * `measuring` so that its next fork comes here), else stays unsampled. The
 * encountering thread, before a fork, holding r's `ending`. Returns
 * whether it began. */
int rt_loop_source_sees(rt_region_t *r);

/* What a counter source is told about the current execution of r: the loop
 * alone knows which table is being filled and whether a phase just began. */
void rt_loop_sample(rt_region_t *r, rt_sample_t *out);

/* The counter source armed an execution of r (rt_events.c): one an
 * intrusive source samples counts toward its phase. */
void rt_loop_source_armed(rt_region_t *r);
/* It did not arm the execution of r ending: another execution held it. */
void rt_loop_source_busy(rt_region_t *r);
/* The counter source did not arm r's execution that ends, to stay within
 * its budget (RT_SOURCE_DECLINED). */
void rt_loop_source_declined(rt_region_t *r);

/* One more (delta 1) or one fewer (-1) of the loops repeating inside r's
 * execution waits for its source before it gets a record (rt_events.c):
 * r's `why` counts them. r's primary. */
void rt_loop_loops_waiting(rt_region_t *r, int delta);

/* omp_numa_update_hints decided cpus[t] on nodes[t] for r's threads
 * (rt_hints.c); pin[t] is cpus[t] for a thread that moves, -1 for one that
 * stays. The decision is r's (its mapping, its report); the pins hold for
 * its next executions. */
void rt_loop_hinted(rt_region_t *r, const int *nodes, const int *cpus, const int *pin);

/* Start r, not yet executed, from a mapping kept earlier (the placement
 * cache): cpus per thread, and the critical path measured before that move.
 * No sampling; the mapping is verified against before_ns like any move.
 * 0, or -1 with errno EINVAL (r has already begun its loop). */
int rt_loop_adopt(rt_region_t *r, const int *cpus, double before_ns);

/* Why r has no decision in effect, in words for the report and the log
 * ("ran 1 execution: 1 of the 4 sampled ones it needs", "no references
 * ..."); "" when it has one (kept, rolled back, decided in dry run). */
void rt_loop_why(const rt_region_t *r, char *buf, size_t len);
#define RT_LOOP_WHY_MAX 512 /* what a why holds, its end included */

/* r's part of its report object (tools/report/report_schema.json), in the
 * report's order: from "tnt" to "decision", and "resamples", "allotment"
 * (rt_report.c writes the rest); its readable lines under the table's row
 * (why, evidence). */
void rt_loop_report_json(FILE *f, const rt_region_t *r);
void rt_loop_report_json_phases(FILE *f, const rt_region_t *r);
void rt_loop_report_text(FILE *f, const rt_region_t *r);

#endif
