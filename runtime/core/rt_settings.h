/* rt_settings.h: every OMP_PLACEMENT* environment variable, parsed once through one table into settings no one changes. */
#ifndef OMPNUMA_RT_SETTINGS_H
#define OMPNUMA_RT_SETTINGS_H

#include <limits.h>
#include <stdio.h>
#include "pl.h"

typedef enum rt_source {
    RT_SOURCE_AUTO = 0,
    RT_SOURCE_PERF,
    RT_SOURCE_NUMAB,      /* the kernel's NUMA-balancing hinting faults per thread */
    RT_SOURCE_PAPI,
    RT_SOURCE_PAGEFAULT,
    RT_SOURCE_HINTS,
    RT_SOURCE_REPLAY,
    RT_SOURCE_COUNT
} rt_source_t;

typedef enum rt_report_mode {
    RT_REPORT_NONE = 0,
    RT_REPORT_STDERR,     /* readable summary on stderr */
    RT_REPORT_FILE        /* JSON into report_path */
} rt_report_mode_t;

/* Pages the pagefault source may protect: only what the omp_numa_* API
 * manages, or also large anonymous mappings and the data/bss segments. */
typedef enum rt_track {
    RT_TRACK_API = 0,
    RT_TRACK_ANON,
    RT_TRACK_ALL
} rt_track_t;

/* The event the perf source samples: the PMU's load-address sampler
 * (auto), or, for testing where there is no PMU, the kernel's software
 * page-fault event, which carries the faulting data address: it sees a
 * thread's first touches, not its loads. */
typedef enum rt_perf_event {
    RT_PERF_EVENT_AUTO = 0,
    RT_PERF_EVENT_PAGE_FAULTS
} rt_perf_event_t;

/* What the runtime does, derived once from the policy word. */
typedef enum rt_mode {
    RT_MODE_OFF = 0,      /* OMP_PLACEMENT=off: measure nothing unless a report is asked for */
    RT_MODE_LOOP,         /* the per-region placement loop with `policy` */
    RT_MODE_BUBBLE,       /* nested teams as bubbles; `policy` inside a team */
    RT_MODE_MONITOR       /* OMP_PLACEMENT=imar2: the online migration monitor alone; regions measured only */
} rt_mode_t;

/* Online thread migration beside (or instead of) the region loop. */
typedef enum rt_migrate {
    RT_MIGRATE_OFF = 0,
    RT_MIGRATE_IMAR2      /* the IMAR2 monitor (control/rt_monitor.c) */
} rt_migrate_t;

/* Where the primary thread goes when a region that moved it ends and serial
 * code follows: back to its own mask (each execution then costs it a move
 * there and back), or it stays on the region's CPU, as libomp leaves a
 * primary bound to its place when the OpenMP binding is on. auto: stay when
 * that binding is on, return when it is off (rt_event_openmp_binding). */
typedef enum rt_primary {
    RT_PRIMARY_AUTO = 0,
    RT_PRIMARY_RETURN,
    RT_PRIMARY_STAY
} rt_primary_t;

/* OMP_PLACEMENT_MPI: the MPI process mapper (control/rt_mpimap.c), which
 * the PMPI layer (libompnuma_mpi.so) runs in the ranks of a job. */
typedef struct rt_mpi_settings {
    int    enabled;           /* ondeloc */
    int    dry_run;           /* decide and record, move nothing */
    int    verbose;           /* the mapper's decisions, bindings and memory moves on stderr */
    double interval_ms;       /* first mapping interval */
    double v;                 /* interval factor, > 1 */
    double min_interval_ms;   /* the interval's bounds; probes for a phase change every min_interval */
    double max_interval_ms;
    double min_gain;          /* share of the traffic a new mapping must bring on-node to replace the current one */
    double budget;            /* what the remaps' memory moves may cost, % of the run so far (0: no limit) */
    char   report[PATH_MAX];  /* JSON timeline ("" none); "%h" is replaced by the host name */
    char   matrix[PATH_MAX];  /* communication matrix: ".mat" space-separated, else CSV */
    char   bindings[PATH_MAX];/* --report-bindings-like lines: "stderr" or a file */
    char   topology[PATH_MAX];/* hwloc synthetic description or XML file; "" = this machine */
    /* What was wrong with the value, in one warning line ("" nothing): the
     * job's, said once by its rank 0 (every rank reads the same value). */
    char   warning[1024];
} rt_mpi_settings_t;

typedef struct rt_settings {
    /* What a region's fork reads (rt_events.h), first: one cache line. */
    rt_mode_t        mode;
    rt_migrate_t     migrate;        /* imar2: the monitor runs (alone in RT_MODE_MONITOR) */
    char             cache_path[PATH_MAX]; /* placement cache ("" none): decisions kept between runs */
    pl_policy_t      policy;         /* inside a team, where a TNT exists */
    pl_bubble_sched_t scheduler;     /* cache or memory, for bubble */
    int              sample;         /* executions sampled before deciding */
    double           numa_factor;    /* 0 = auto (from the distance matrix) */
    rt_source_t      source;
    char             replay_path[PATH_MAX];
    int              emu_tag;        /* tag sampled executions for the emulated-NUMA plugin's counts */
    int              verify;         /* measure after a move and roll back if slower */
    int              loops;          /* a region's repeating worksharing loops are placed inside
                                        its first execution (rt_events.c) */
    int              data;           /* the region loop may move a region's data (control/rt_data.c) */
    int              dry_run;        /* record intended pins, apply none */
    rt_primary_t     primary;        /* the primary in serial code after a region that moved it */
    rt_track_t       track;
    int              window_ms;      /* sources sampled by time (numa_balancing): shortest window */
    rt_perf_event_t  perf_event;
    rt_report_mode_t report;
    char             report_path[PATH_MAX];
    int              verbose;        /* 0, 1 decisions, 2 every event of interest */
    double           period_ms;      /* IMAR2's shortest period (ms) */
    double           period_max_ms;  /* its longest (ms), >= period_ms */
    double           ratio;          /* rollback when the total performance falls below ratio x the previous */
    double           budget;         /* the page sampler's cost, % of the run so far (0: no limit) */
    double           remote_min;     /* locality gate: no trial while every thread's remote share in the
                                        running region's TNT is below it (0: never gated) */
    unsigned long long seed;         /* the lottery's seed: equal seeds, equal measurements, equal decisions */
    int              display_env;    /* 0, 1 (true: the settings), 2 (verbose: and what the runtime made of
                                        them: topology, pinning mode, counter sources) */
    rt_mpi_settings_t mpi;           /* OMP_PLACEMENT_MPI */
} rt_settings_t;

/*
 * The process's settings, resolved once from the environment by
 * rt_settings_init (idempotent, thread-safe) and never changed afterwards,
 * with one exception made at start-up only: rt_settings_switch_off when the
 * machine has no usable topology. Read them through rt_conf: a constant
 * address, so a read costs no load of a pointer (nor its cache line).
 */
extern rt_settings_t rt_settings_resolved_; /* written by rt_settings.c alone */
static const rt_settings_t *const rt_conf = &rt_settings_resolved_;
void rt_settings_init(void);
void rt_settings_switch_off(void);

/* Defaults, then explicit values (NULL, empty or blanks = unset), for rt_settings_init, tests
 * and the CLI. Every variable with bad values gives exactly one warning line
 * naming the variable, its value (control characters escaped) and what is
 * used instead; nothing else happens as a side effect. OMP_PLACEMENT_MPI's
 * line is not printed but kept in s->mpi.warning: the PMPI layer's rank 0
 * says it, once for the job. */
void rt_settings_parse(rt_settings_t *s, const char *placement, const char *report,
                       const char *verbose, const char *display_env, const char *mpi);

/* OMP_DISPLAY_ENV-style dump of the effective settings. */
void rt_settings_print(const rt_settings_t *s, FILE *out);

/* "critpath,sample=4,..." : the canonical OMP_PLACEMENT string. */
void rt_settings_format(const rt_settings_t *s, char *buf, size_t len);

/* "ondeloc,interval=500,v=2,...": the canonical OMP_PLACEMENT_MPI string. */
void rt_settings_format_mpi(const rt_settings_t *s, char *buf, size_t len);

const char *rt_source_name(rt_source_t source);

/* "off", "bubble", "imar2" or the placement policy's name. */
const char *rt_settings_policy_name(const rt_settings_t *s);

#endif
