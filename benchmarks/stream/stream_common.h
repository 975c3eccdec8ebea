/* stream_common.h: what the three STREAM variants share: options, clocks, NUMA node count, omp_numa hints, reports. */
#ifndef STREAM_COMMON_H
#define STREAM_COMMON_H

#include <stddef.h>

#include "omp_numa.h"

/* Which variant is parsing its command line: each accepts a different option set. */
typedef enum st_variant { ST_PLAIN, ST_NESTED, ST_TWISTED } st_variant;

typedef struct st_options {
    size_t n;             /* elements per vector; per team in the nested variants */
    int ntimes;           /* executions of each kernel; the first one is a warm-up and is not rated */
    int teams;            /* nested variants: teams (outer threads), default one per NUMA node with CPUs */
    int threads_per_team; /* nested variants: threads in each inner team */
    int remote_all;       /* twisted: 1 = all three vectors of phase 2 belong to another team, 0 = two of them */
    int hints;            /* pass omp_numa_attach hints for the data each thread works on */
    const char *json;     /* NULL, "-" (one line on stdout) or a file name */
} st_options;

/* One rated line of the report: a kernel (or a kernel in one phase) timed ntimes times. */
typedef struct st_row {
    const char *name;     /* "Copy", "Triad-phase2", ...: printed and used as the JSON key */
    double bytes;         /* bytes read + written by one execution, all teams together */
    const double *times;  /* [ntimes] seconds, all teams together (slowest team) */
    const double *team_times; /* NULL, or [teams][ntimes] seconds of each team on its own */
} st_row;

/* The STREAM scalar used by scale and triad. */
#define ST_SCALAR 3.0

/* Parses argv into *o with the variant's defaults. Exits with status 2 after printing usage on a bad option. */
void st_parse(int argc, char **argv, st_variant v, st_options *o);

/* Number of NUMA nodes that have CPUs (from /sys/devices/system/node), at least 1. */
int st_numa_nodes(void);

/* Monotonic clock in seconds. */
double st_now(void);

/* n doubles, page aligned, in small pages and not touched (first touch decides each page's node, not a
 * 2 MiB transparent huge page's whichever thread reaches it first); under --hints also registered
 * with ompnuma's memory manager, which only accepts attachments of ranges it knows. Exits with status 2
 * when there is no memory. st_free undoes both. */
double *st_alloc(size_t n, const char *what);
void st_free(double *v);

/* The omp_numa_* calls used by --hints, resolved at run time so that a stock run never loads
 * libompnuma.so. st_hints_init() exits with status 2 when --hints is given and they cannot be found. */
typedef struct st_hints {
    __typeof__(omp_numa_register) *reg;
    __typeof__(omp_numa_unregister) *unreg;
    __typeof__(omp_numa_attach) *attach;
    __typeof__(omp_numa_detach) *detach;
    __typeof__(omp_numa_update_hints) *update;
} st_hints;
extern st_hints st_numa;
void st_hints_init(void);

/* Attaches this thread's static share [lo, hi) of v (of n elements) to it. Call inside the team
 * that works on v; a no-op unless --hints resolved the API. */
void st_attach_share(double *v, size_t n, const char *what);
/* Detaches the share st_attach_share attached for the calling thread. */
void st_detach_share(double *v, size_t n);
/* Called by every thread of a team after its attachments: asks ompnuma to re-place the team from them
 * (omp_numa_update_hints at the team's barrier). A no-op unless --hints resolved the API. */
void st_hints_apply(void);

/* Static share [*lo, *hi) of n elements for thread t of nt, the split `schedule(static)` makes. */
void st_share(size_t n, int t, int nt, size_t *lo, size_t *hi);

/* Compares v[0..n) with the expected value; prints a line naming the vector when the mean
 * relative error exceeds STREAM's tolerance for doubles. Returns 1 when v is right. */
int st_check(const char *what, const double *v, size_t n, double expected);

/* The four STREAM kernels, in the order STREAM runs them. */
typedef enum st_kernel { ST_COPY, ST_SCALE, ST_ADD, ST_TRIAD, ST_NKERNELS } st_kernel;
extern const char *const st_kernel_names[ST_NKERNELS];

/* Runs kernel q once as an inner parallel region of `threads` threads (called by the master of each
 * team of the nested variants): copy c=a, scale b=s*c, add c=a+b, triad a=b+s*c. Each kernel is its
 * own region, so a placement runtime sees four distinct regions per team, as in STREAM. */
void st_team_kernel(st_kernel q, double *a, double *b, double *c, size_t n, int threads, double s);

/* Called by the master of a team: allocates its three vectors and initialises them to (ia, ib, ic) in an
 * inner region of `threads` threads with the kernels' split (first touch), attaching each thread's share
 * under --hints. Returns the number of threads the inner region really had. */
int st_team_init(double **a, double **b, double **c, size_t n, int threads, double ia, double ib, double ic);

/* Prepares nesting (one active level per team level, no dynamic adjustment) and checks that the outer
 * region got all its teams. st_teams_missing prints why and returns 1 when `got` < o->teams. */
void st_nesting_on(void);
int st_teams_missing(const st_options *o, int got);
/* Warns on stderr for each team whose inner region had another size than o->threads_per_team. */
void st_warn_inner(const st_options *o, const int *inner);

/* The teams of Nested- and Twisted-STREAM: each team's three vectors, how many threads its inner
 * region had, and the timings of `rows` timed rows (kernels or phases) of o->ntimes executions:
 * times[row][k] for all teams together, team_times[row][t][k] for each team. */
typedef struct st_nest {
    int     teams, ntimes;
    size_t  n;
    double *times, *team_times;
    double **vecs;   /* [3 * teams]: a, b, c of team t at 3t, 3t+1, 3t+2 */
    int    *inner;   /* [teams] */
    int     outer;   /* teams the outer region really had */
    double  t0;      /* start of the current timed execution (shared by the teams) */
} st_nest;

/* 0, or 2 (the programs' exit status) when memory ran out. */
int  st_nest_alloc(st_nest *s, const st_options *o, int rows);
void st_nest_free(st_nest *s);
/* Called by the master of team t inside the outer region: st_team_init of the team's vectors. */
void st_nest_init_team(st_nest *s, int t, int threads, double ia, double ib, double ic);
/* Called by the master of team t inside the outer region: one timed execution k of row `row`. All teams
 * start together (so the rate is the machine's, not one node's) and the slowest ends it. */
void st_nest_timed(st_nest *s, int row, int t, int k, st_kernel q, double *a, double *b, double *c, int threads,
                   double scalar);
/* Checks team t's vectors against (ea, eb, ec), naming them "a of team t" ...; 1 when all are right. */
int  st_nest_check(const st_nest *s, int t, double ea, double eb, double ec);

/* Prints the bandwidth table, the verification and the timed total, and the JSON record
 * when o->json is set. `extra` is NULL or more JSON members ("\"k\": v, ...") for the record. */
void st_report(const char *bench, const st_options *o, int threads, const st_row *rows, int nrows,
               int valid, double total_seconds, const char *extra);

#endif /* STREAM_COMMON_H */
