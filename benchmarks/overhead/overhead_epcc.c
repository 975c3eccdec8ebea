/* overhead_epcc.c: EPCC-style synchronisation overheads (parallel, for, barrier, reduction, nested parallel, empty parallel) of the OpenMP runtime it runs on, timed or counted in instructions under callgrind. */
#include <errno.h>
#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
/* The count mode marks each construct's executions for callgrind (valgrind's client requests are a
 * few no-op instructions when the program runs natively). Without the header it cannot count. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define HAVE_CALLGRIND 0
#endif

/* The EPCC method: time `innerreps` executions of a construct that wraps a short delay, subtract the
 * time of the same delays run sequentially (the reference), divide by innerreps; repeat `outerreps`
 * times and keep the median. Every construct runs `warmup` times first, from the same code address,
 * so that a runtime which learns per region (ompnuma) has settled that region before it is timed. */

typedef struct options {
    int threads;
    long innerreps, outerreps, warmup;
    double delay_us;
    const char *json;
    int count; /* count mode: each construct runs warmup times, then innerreps counted times */
    int per_thread; /* count mode: each thread marks its own counters (callgrind --separate-threads=yes) */
} options;

static long delay_length;
static volatile double delay_sink;

/* A few nanoseconds of work per iteration that the compiler cannot remove or fold. */
__attribute__((noinline)) static void delay(long n)
{
    double a = 0.0;
    for (long i = 0; i < n; i++)
        a += (double)i;
    if (a < 0.0)
        delay_sink = a;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Iterations of delay() that take about `us` microseconds on this core. */
static long calibrate(double us)
{
    long n = 1;
    for (;;) {
        double t = now();
        for (int r = 0; r < 1000; r++)
            delay(n);
        t = (now() - t) / 1000.0;
        if (t > 20e-6 || n > (1L << 30))
            return (long)(n * (us * 1e-6) / t) > 0 ? (long)(n * (us * 1e-6) / t) : 1;
        n *= 2;
    }
}

/* Count mode with --per-thread: while a construct's counted executions run, the name they are counted
 * under. Callgrind with --separate-threads=yes keeps one set of counters per thread, and a client
 * request reaches the calling thread's only: each thread zeroes its counters as it begins the first
 * counted execution and dumps them as it ends the last (the work of one execution that falls outside
 * both marks, the fork before the first and the join after the last, is what a thread misses). */
static const char *mark_label;

static inline void mark_begin(long j)
{
#if HAVE_CALLGRIND
    if (__builtin_expect(mark_label != NULL, 0) && j == 0)
        CALLGRIND_ZERO_STATS;
#endif
}

static inline void mark_end(long j, long reps)
{
#if HAVE_CALLGRIND
    if (__builtin_expect(mark_label != NULL, 0) && j == reps - 1)
        CALLGRIND_DUMP_STATS_AT(mark_label);
#endif
}

/* Results each construct's body checks: they make the run fail when the runtime loses work. */
static long reduction_total;
static long (*for_iterations)[8]; /* [threads][8]: a counter per thread, one cache line apart */
static int team_size_seen;

/* Each function times `reps` executions of one construct site; warm-up and measurement both call it,
 * so ompnuma sees one region per construct. */
static double ref_delay(long reps)
{
    double t = now();
    for (long j = 0; j < reps; j++)
        delay(delay_length);
    return now() - t;
}

static double ref_reduction(long reps)
{
    long aaaa = 0;
    double t = now();
    for (long j = 0; j < reps; j++) {
        delay(delay_length);
        aaaa += 1;
    }
    t = now() - t;
    if (aaaa != reps)
        reduction_total = -1;
    return t;
}

static double test_parallel(long reps, int nt)
{
    double t = now();
    for (long j = 0; j < reps; j++) {
#pragma omp parallel num_threads(nt)
        {
            mark_begin(j);
            delay(delay_length);
            mark_end(j, reps);
        }
    }
    return now() - t;
}

static double test_parallel_empty(long reps, int nt)
{
    double t = now();
    for (long j = 0; j < reps; j++) {
#pragma omp parallel num_threads(nt)
        {
            mark_begin(j);
            /* Nothing but a compiler barrier: without a body at all clang drops the region. */
            __asm__ volatile("" ::: "memory");
            mark_end(j, reps);
        }
    }
    return now() - t;
}

static double test_for(long reps, int nt)
{
    double t = now();
#pragma omp parallel num_threads(nt)
    {
        const int me = omp_get_thread_num();
        mark_begin(0);
        for (long j = 0; j < reps; j++) {
#pragma omp for
            for (int i = 0; i < nt; i++) {
                delay(delay_length);
                for_iterations[me][0]++;
            }
        }
        mark_end(0, 1);
    }
    return now() - t;
}

static double test_barrier(long reps, int nt)
{
    double t = now();
#pragma omp parallel num_threads(nt)
    {
#pragma omp master
        team_size_seen = omp_get_num_threads();
        mark_begin(0);
        for (long j = 0; j < reps; j++) {
            delay(delay_length);
#pragma omp barrier
        }
        mark_end(0, 1);
    }
    return now() - t;
}

/* Two outer threads (one when nt is 1), each the primary of an inner team of nt / 2 (at least 1):
 * nt threads in all. */
static long nested_inner_done;
static double test_nested(long reps, int nt)
{
    const int outer = nt > 1 ? 2 : 1, inner = nt / 2 > 1 ? nt / 2 : 1;
    long done = 0;
    double t = now();
    for (long j = 0; j < reps; j++) {
#pragma omp parallel num_threads(outer) reduction(+ : done)
        {
#pragma omp parallel num_threads(inner) reduction(+ : done)
            {
                mark_begin(j);
                delay(delay_length);
                done += 1;
                mark_end(j, reps);
            }
        }
    }
    t = now() - t;
    nested_inner_done += done;
    return t;
}

static double test_reduction(long reps, int nt)
{
    long total = 0;
    double t = now();
    for (long j = 0; j < reps; j++) {
        long aaaa = 0;
#pragma omp parallel reduction(+ : aaaa) num_threads(nt)
        {
            mark_begin(j);
            delay(delay_length);
            aaaa += 1;
            mark_end(j, reps);
        }
        total += aaaa;
    }
    t = now() - t;
    if (reduction_total >= 0)
        reduction_total += total;
    return t;
}

enum { C_PARALLEL, C_FOR, C_BARRIER, C_REDUCTION, C_NESTED, C_PARALLEL_EMPTY, C_N };
static const char *const construct_names[C_N] = {"parallel", "for", "barrier", "reduction", "nested",
                                                 "parallel-empty"};

static double run_test(int c, long reps, int nt)
{
    switch (c) {
    case C_PARALLEL: return test_parallel(reps, nt);
    case C_FOR: return test_for(reps, nt);
    case C_BARRIER: return test_barrier(reps, nt);
    case C_REDUCTION: return test_reduction(reps, nt);
    case C_NESTED: return test_nested(reps, nt);
    default: return test_parallel_empty(reps, nt);
    }
}

/* The reference EPCC subtracts: the delays alone (the empty region has none). */
static double run_ref(int c, long reps)
{
    if (c == C_PARALLEL_EMPTY)
        return 0.0;
    return c == C_REDUCTION ? ref_reduction(reps) : ref_delay(reps);
}

/* 20 ms asleep: long enough, even under valgrind, for the workers to reach their wait. */
static void quiesce(void)
{
    struct timespec ts = {0, 20 * 1000 * 1000};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
        ;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void usage(const char *prog, FILE *out)
{
    fprintf(out, "usage: %s [options]\n"
                 "  -n, --innerreps N   executions of a construct per measurement (default 5000)\n"
                 "  -o, --outerreps K   measurements per construct; the median is reported (default 21)\n"
                 "  -w, --warmup W      executions of each construct before it is measured (default 1000)\n"
                 "  -d, --delay US      work inside each construct, microseconds (default 0.1, as EPCC)\n"
                 "  -t, --threads T     team size (default: OMP_NUM_THREADS or the number of CPUs)\n"
                 "  -j, --json FILE     also write the results as one JSON record to FILE ('-' = stdout)\n"
                 "  -c, --count         no timing: run each construct W times, then N times between\n"
                 "                      callgrind marks (run under valgrind --tool=callgrind; see\n"
                 "                      benchmarks/overhead/count.py)\n"
                 "  -p, --per-thread    with --count: each thread marks its own counters, for\n"
                 "                      valgrind --tool=callgrind --separate-threads=yes\n"
                 "exit status: 0 results verified, 1 a construct lost work, 2 bad usage\n",
            prog);
}

static long parse_long(const char *prog, const char *opt, const char *s, long min)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min) {
        fprintf(stderr, "%s: %s: \"%s\" is not a whole number >= %ld\n", prog, opt, s, min);
        usage(prog, stderr);
        exit(2);
    }
    return v;
}

static void parse(int argc, char **argv, options *o)
{
    static const struct option longopts[] = {
        {"innerreps", required_argument, 0, 'n'}, {"outerreps", required_argument, 0, 'o'},
        {"warmup", required_argument, 0, 'w'},    {"delay", required_argument, 0, 'd'},
        {"threads", required_argument, 0, 't'},   {"json", required_argument, 0, 'j'},
        {"count", no_argument, 0, 'c'},           {"per-thread", no_argument, 0, 'p'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    *o = (options){omp_get_max_threads(), 5000, 21, 1000, 0.1, NULL, 0, 0};
    int c;
    while ((c = getopt_long(argc, argv, "n:o:w:d:t:j:cph", longopts, NULL)) != -1) {
        switch (c) {
        case 'n': o->innerreps = parse_long(argv[0], "--innerreps", optarg, 1); break;
        case 'o': o->outerreps = parse_long(argv[0], "--outerreps", optarg, 1); break;
        case 'w': o->warmup = parse_long(argv[0], "--warmup", optarg, 0); break;
        case 't': o->threads = (int)parse_long(argv[0], "--threads", optarg, 1); break;
        case 'j': o->json = optarg; break;
        case 'c': o->count = 1; break;
        case 'p': o->per_thread = 1; break;
        case 'd': {
            char *end;
            o->delay_us = strtod(optarg, &end);
            if (end == optarg || *end || !(o->delay_us >= 0.0 && o->delay_us <= 1e6)) {
                fprintf(stderr, "%s: --delay: \"%s\" is not a number of microseconds in [0, 1e6]\n", argv[0], optarg);
                exit(2);
            }
            break;
        }
        case 'h': usage(argv[0], stdout); exit(0);
        default: usage(argv[0], stderr); exit(2);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument \"%s\"\n", argv[0], argv[optind]);
        usage(argv[0], stderr);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    options o;
    parse(argc, argv, &o);
    omp_set_dynamic(0);
    if (omp_get_max_active_levels() < 2)
        omp_set_max_active_levels(2);
    /* Counting wants the same instructions at every run: a calibrated delay would differ. The delay's
     * instructions are the program's own, the same on every runtime, so count mode leaves it out. */
    delay_length = o.delay_us > 0 && !o.count ? calibrate(o.delay_us) : 0;
    const int nt = o.threads;
    for_iterations = calloc((size_t)nt, sizeof *for_iterations);
    double stats[C_N][5]; /* median, min, max overhead; median reference and test time per execution */
    double *over = malloc(sizeof(double) * (size_t)o.outerreps);
    double *refs = malloc(sizeof(double) * (size_t)o.outerreps);
    double *tests = malloc(sizeof(double) * (size_t)o.outerreps);
    if (!over || !refs || !tests || !for_iterations)
        return 2;

    double t_all = now();
    if (o.count && !HAVE_CALLGRIND) {
        fprintf(stderr, "overhead-epcc: --count needs valgrind/callgrind.h at build time (Debian package valgrind)\n");
        return 2;
    }
    /* Count mode: callgrind's counters are zeroed after a construct's warm-up and dumped, labelled with
     * the construct's name, after its counted executions; every thread's instructions are in the dump. */
    for (int c = 0; o.count && c < C_N; c++) {
        run_test(c, o.warmup, nt);
#if HAVE_CALLGRIND
        /* The pauses let every worker finish what the last region left it (its end callbacks, going
         * to sleep) before the counters are zeroed or dumped: no count depends on where valgrind
         * happened to switch threads at either edge. */
        quiesce();
        if (o.per_thread) {
            mark_label = construct_names[c];
            run_test(c, o.innerreps, nt);
            mark_label = NULL;
            quiesce();
            continue;
        }
        CALLGRIND_ZERO_STATS;
        run_test(c, o.innerreps, nt);
        quiesce();
        CALLGRIND_DUMP_STATS_AT(construct_names[c]);
#endif
    }
    for (int c = 0; !o.count && c < C_N; c++) {
        run_ref(c, o.warmup);
        run_test(c, o.warmup, nt);
        for (long k = 0; k < o.outerreps; k++) {
            /* Reference and test alternate so slow drifts of the machine hit both alike. */
            refs[k] = run_ref(c, o.innerreps) / (double)o.innerreps;
            tests[k] = run_test(c, o.innerreps, nt) / (double)o.innerreps;
            over[k] = tests[k] - refs[k];
        }
        stats[c][0] = median(over, o.outerreps);
        stats[c][1] = over[0];
        stats[c][2] = over[o.outerreps - 1];
        stats[c][3] = median(refs, o.outerreps);
        stats[c][4] = median(tests, o.outerreps);
    }
    t_all = now() - t_all;

    /* What every construct had to do, counted while it did it. */
    const long runs = o.warmup + o.innerreps * (o.count ? 1 : o.outerreps);
    long for_done = 0;
    for (int i = 0; i < nt; i++)
        for_done += for_iterations[i][0];
    int valid = 1;
    if (team_size_seen != nt) {
        printf("Failed: the barrier test ran with %d threads, not %d\n", team_size_seen, nt);
        valid = 0;
    }
    if (for_done != runs * nt) {
        printf("Failed: omp for executed %ld iterations, expected %ld\n", for_done, runs * nt);
        valid = 0;
    }
    if (reduction_total != runs * nt) {
        printf("Failed: reduction total %ld, expected %ld\n", reduction_total, runs * nt);
        valid = 0;
    }
    const long nested_expected = runs * (nt > 1 ? 2 : 1) * (nt / 2 > 1 ? nt / 2 : 1);
    if (nested_inner_done != nested_expected) {
        printf("Failed: nested regions ran %ld inner tasks, expected %ld\n", nested_inner_done, nested_expected);
        valid = 0;
    }
    if (o.count) {
        printf("EPCC-style constructs counted: %d threads, %ld executions per construct after %ld warm-up "
               "executions, no delay\n", nt, o.innerreps, o.warmup);
        for (int c = 0; c < C_N; c++)
            printf("counted %s\n", construct_names[c]);
        printf("Verification = %s\n", valid ? "SUCCESSFUL" : "UNSUCCESSFUL");
        free(over);
        free(refs);
        free(tests);
        free(for_iterations);
        return valid ? 0 : 1;
    }

    printf("EPCC-style overheads: %d threads, delay %.3g us (%ld iterations), %ld executions x %ld measurements "
           "per construct after %ld warm-up executions\n",
           nt, o.delay_us, delay_length, o.innerreps, o.outerreps, o.warmup);
    printf("%-16s %12s %12s %12s %12s %12s\n", "construct", "overhead ns", "min ns", "max ns", "ref ns", "test ns");
    for (int c = 0; c < C_N; c++)
        printf("%-16s %12.1f %12.1f %12.1f %12.1f %12.1f\n", construct_names[c], 1e9 * stats[c][0],
               1e9 * stats[c][1], 1e9 * stats[c][2], 1e9 * stats[c][3], 1e9 * stats[c][4]);
    printf("Verification = %s\n", valid ? "SUCCESSFUL" : "UNSUCCESSFUL");
    printf("Time in seconds = %.6f\n", t_all);

    if (o.json) {
        FILE *f = strcmp(o.json, "-") ? fopen(o.json, "w") : stdout;
        if (!f) {
            fprintf(stderr, "overhead-epcc: cannot write %s: %s\n", o.json, strerror(errno));
            return 2;
        }
        fprintf(f, "{\"benchmark\": \"overhead-epcc\", \"threads\": %d, \"delay_us\": %g, \"delay_iterations\": %ld, "
                   "\"innerreps\": %ld, \"outerreps\": %ld, \"warmup\": %ld, \"verification\": \"%s\", "
                   "\"time_s\": %.9f, \"constructs\": {",
                nt, o.delay_us, delay_length, o.innerreps, o.outerreps, o.warmup, valid ? "SUCCESSFUL" : "UNSUCCESSFUL",
                t_all);
        for (int c = 0; c < C_N; c++)
            fprintf(f, "%s\"%s\": {\"overhead_ns\": %.3f, \"min_ns\": %.3f, \"max_ns\": %.3f, \"ref_ns\": %.3f, "
                       "\"test_ns\": %.3f}",
                    c ? ", " : "", construct_names[c], 1e9 * stats[c][0], 1e9 * stats[c][1], 1e9 * stats[c][2],
                    1e9 * stats[c][3], 1e9 * stats[c][4]);
        fprintf(f, "}}\n");
        if (f != stdout)
            fclose(f);
    }
    free(over);
    free(refs);
    free(tests);
    free(for_iterations);
    return valid ? 0 : 1;
}
