/* stream_common.c: options, clocks, NUMA node count, omp_numa hints and reports shared by the STREAM variants. */
#include "stream_common.h"

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* The second seed runs STREAM on 20 million doubles per vector (160 MB), far beyond any cache. */
#define ST_DEFAULT_N 20000000UL
#define ST_DEFAULT_NTIMES 10
/* STREAM's tolerance for the mean relative error of 8-byte results; overridable at compile time so that
 * a test can watch the failure path. */
#ifndef ST_EPSILON
#define ST_EPSILON 1.e-13
#endif

static void usage(const char *prog, st_variant v, FILE *out)
{
    fprintf(out, "usage: %s [options]\n"
                 "  -n, --size N          elements per vector%s (default %lu%s)\n"
                 "  -t, --ntimes K        executions of each kernel, the first is not rated (default %d, at least 2)\n",
            prog, v == ST_PLAIN ? "" : " of each team",
            ST_DEFAULT_N, v == ST_PLAIN ? "" : " divided by the number of teams", ST_DEFAULT_NTIMES);
    if (v != ST_PLAIN)
        fprintf(out, "  -T, --teams T         teams, each on its own vectors (default: NUMA nodes with CPUs)\n"
                     "  -p, --threads-per-team P  threads in each team (default: OMP_NUM_THREADS / teams, at least 1)\n");
    if (v == ST_TWISTED)
        fprintf(out, "  -r, --remote all|two  phase 2 uses all three vectors of the next team, or only the\n"
                     "                        written and one read vector (default all)\n");
    fprintf(out, "  -H, --hints           tell ompnuma which data each thread uses (omp_numa_attach);\n"
                 "                        needs libompnuma.so, i.e. ompnuma's lib/ on LD_LIBRARY_PATH\n"
                 "  -j, --json FILE       also write the results as one JSON record to FILE ('-' = stdout)\n"
                 "exit status: 0 results verified, 1 verification failed, 2 bad usage or no memory\n");
}

static unsigned long parse_count(const char *prog, st_variant v, const char *opt, const char *s, unsigned long min)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || x < min) {
        fprintf(stderr, "%s: %s: \"%s\" is not a whole number >= %lu\n", prog, opt, s, min);
        usage(prog, v, stderr);
        exit(2);
    }
    return (unsigned long)x;
}

void st_parse(int argc, char **argv, st_variant v, st_options *o)
{
    static const struct option longopts[] = {
        {"size", required_argument, 0, 'n'},   {"ntimes", required_argument, 0, 't'},
        {"teams", required_argument, 0, 'T'},  {"threads-per-team", required_argument, 0, 'p'},
        {"remote", required_argument, 0, 'r'}, {"hints", no_argument, 0, 'H'},
        {"json", required_argument, 0, 'j'},   {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *prog = argv[0];
    unsigned long n = 0;
    memset(o, 0, sizeof *o);
    o->ntimes = ST_DEFAULT_NTIMES;
    o->remote_all = 1;
    int c;
    while ((c = getopt_long(argc, argv, "n:t:T:p:r:Hj:h", longopts, NULL)) != -1) {
        int ok = 1;
        switch (c) {
        case 'n': n = parse_count(prog, v, "--size", optarg, 1); break;
        case 't': o->ntimes = (int)parse_count(prog, v, "--ntimes", optarg, 2); break;
        case 'T': ok = v != ST_PLAIN; if (ok) o->teams = (int)parse_count(prog, v, "--teams", optarg, 1); break;
        case 'p':
            ok = v != ST_PLAIN;
            if (ok) o->threads_per_team = (int)parse_count(prog, v, "--threads-per-team", optarg, 1);
            break;
        case 'r':
            ok = v == ST_TWISTED && (!strcmp(optarg, "all") || !strcmp(optarg, "two"));
            o->remote_all = ok && !strcmp(optarg, "all");
            break;
        case 'H': o->hints = 1; break;
        case 'j': o->json = optarg; break;
        case 'h': usage(prog, v, stdout); exit(0);
        default: ok = 0;
        }
        if (!ok) {
            usage(prog, v, stderr);
            exit(2);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument \"%s\"\n", prog, argv[optind]);
        usage(prog, v, stderr);
        exit(2);
    }
    if (v != ST_PLAIN) {
        if (!o->teams)
            o->teams = st_numa_nodes();
        if (!o->threads_per_team) {
            int all = omp_get_max_threads();
            o->threads_per_team = all / o->teams > 0 ? all / o->teams : 1;
        }
    } else {
        o->teams = 1;
        o->threads_per_team = omp_get_max_threads();
    }
    if (!n)
        n = v == ST_PLAIN ? ST_DEFAULT_N : ST_DEFAULT_N / (unsigned long)o->teams;
    o->n = n ? n : 1;
    if (o->hints)
        st_hints_init();
}

/* Counts the nodes of a Linux cpulist/nodelist such as "0-1,3". Returns 0 when it cannot be parsed. */
static int count_list(const char *s)
{
    int count = 0;
    while (*s && *s != '\n') {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        if (end == s)
            return 0;
        s = end;
        if (*s == '-') {
            hi = strtol(s + 1, &end, 10);
            if (end == s + 1 || hi < lo)
                return 0;
            s = end;
        }
        count += (int)(hi - lo + 1);
        if (*s == ',')
            s++;
    }
    return count;
}

int st_numa_nodes(void)
{
    /* has_cpu leaves out memory-only nodes, which cannot host a team. */
    static const char *const files[] = {"/sys/devices/system/node/has_cpu", "/sys/devices/system/node/online"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = fopen(files[i], "r");
        if (!f)
            continue;
        char line[4096];
        int count = fgets(line, sizeof line, f) ? count_list(line) : 0;
        fclose(f);
        if (count > 0)
            return count;
    }
    return 1;
}

double st_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double *st_alloc(size_t n, const char *what)
{
    /* Page alignment: first touch places whole pages, so the shares of the threads start on page bounds
     * when the vector is large. In small pages: with transparent huge pages on (Debian's guests:
     * always), a 2 MiB page across several threads' shares went to whichever thread touched it first,
     * and which vectors had such pages depended on where the mappings fell (4x1, -n 250000, 4 threads
     * bound in order: 21 and 51 % of the misses remote in two runs, where every share is its thread's;
     * 0.9 to 2.3 % in small pages). */
    size_t bytes = (n * sizeof(double) + 4095) & ~(size_t)4095;
    void *p = NULL;
    if (n > ((size_t)-1) / sizeof(double) - 4096 || posix_memalign(&p, 4096, bytes)) {
        fprintf(stderr, "stream: cannot allocate %s (%zu bytes)\n", what, bytes);
        exit(2);
    }
    madvise(p, bytes, MADV_NOHUGEPAGE); /* advice: where it is refused (no huge pages), nothing changes */
    /* A hint that cannot be given changes no result, only placement: say so and go on. */
    if (st_numa.reg && st_numa.reg(p, bytes) != 0)
        fprintf(stderr, "stream: omp_numa_register(%s) failed: %s\n", what, strerror(errno));
    return p;
}

void st_free(double *v)
{
    if (st_numa.unreg)
        st_numa.unreg(v);
    free(v);
}

st_hints st_numa;

void st_hints_init(void)
{
    /* Under the drop-in libomp.so.5 the API is already loaded (the facade depends on libompnuma.so);
     * otherwise load it by name, which LD_LIBRARY_PATH resolves. */
    void *h = RTLD_DEFAULT;
    const char *why = "symbols missing";
    if (!dlsym(RTLD_DEFAULT, "omp_numa_attach") && !(h = dlopen("libompnuma.so", RTLD_NOW | RTLD_LOCAL))) {
        why = dlerror();
    } else {
        *(void **)&st_numa.reg = dlsym(h, "omp_numa_register");
        *(void **)&st_numa.unreg = dlsym(h, "omp_numa_unregister");
        *(void **)&st_numa.attach = dlsym(h, "omp_numa_attach");
        *(void **)&st_numa.detach = dlsym(h, "omp_numa_detach");
        *(void **)&st_numa.update = dlsym(h, "omp_numa_update_hints");
    }
    if (!st_numa.reg || !st_numa.unreg || !st_numa.attach || !st_numa.detach || !st_numa.update) {
        fprintf(stderr, "stream: --hints needs omp_numa_register, omp_numa_attach, omp_numa_update_hints and their "
                        "inverses from libompnuma.so (put ompnuma's lib/ on LD_LIBRARY_PATH): %s\n", why);
        memset(&st_numa, 0, sizeof st_numa);
        exit(2);
    }
}

void st_share(size_t n, int t, int nt, size_t *lo, size_t *hi)
{
    size_t q = n / (size_t)nt, r = n % (size_t)nt, ut = (size_t)t;
    *lo = ut * q + (ut < r ? ut : r);
    *hi = *lo + q + (ut < r ? 1 : 0);
}

void st_attach_share(double *v, size_t n, const char *what)
{
    if (!st_numa.attach)
        return;
    size_t lo, hi;
    st_share(n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
    if (hi > lo && st_numa.attach(v + lo, (hi - lo) * sizeof(double), omp_get_thread_num()) != 0 &&
        omp_get_thread_num() == 0)
        fprintf(stderr, "stream: omp_numa_attach(%s) failed: %s\n", what, strerror(errno));
}

void st_hints_apply(void)
{
    if (!st_numa.update)
        return;
    /* ENOSYS is a runtime without a re-placement hook: the hints stay recorded for its counter source. */
    static int told;
    if (st_numa.update(OMP_NUMA_AT_BARRIER) != 0 && omp_get_thread_num() == 0 && !told) {
        told = 1;
        fprintf(stderr, "stream: omp_numa_update_hints: %s; the threads keep their places\n", strerror(errno));
    }
}

void st_detach_share(double *v, size_t n)
{
    if (!st_numa.detach)
        return;
    size_t lo, hi;
    st_share(n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
    if (hi > lo)
        st_numa.detach(v + lo);
}

int st_check(const char *what, const double *v, size_t n, double expected)
{
    double err = 0.0;
    long wrong = 0;
    const long ln = (long)n;
#pragma omp parallel for reduction(+ : err, wrong)
    for (long j = 0; j < ln; j++) {
        double d = fabs(v[j] - expected);
        err += d;
        /* NaN compares false: count it explicitly. */
        if (!(d <= ST_EPSILON * fabs(expected)))
            wrong++;
    }
    double mean = err / (double)n;
    double rel = expected != 0.0 ? mean / fabs(expected) : mean;
    if (!(rel <= ST_EPSILON)) {
        printf("Failed validation on %s: expected %.15e, mean relative error %e, %ld of %zu elements wrong\n",
               what, expected, rel, wrong, n);
        return 0;
    }
    return 1;
}

/* Rating of one row: the best (shortest) execution after the warm-up gives the bandwidth, as in STREAM. */
typedef struct st_rating {
    double best_mbps, avg, min, max;
} st_rating;

static st_rating rate(const double *t, int ntimes, double bytes)
{
    st_rating r = {0, 0, 1e300, 0};
    for (int k = 1; k < ntimes; k++) {
        r.avg += t[k];
        if (t[k] < r.min)
            r.min = t[k];
        if (t[k] > r.max)
            r.max = t[k];
    }
    r.avg /= (double)(ntimes - 1);
    r.best_mbps = r.min > 0 ? 1e-6 * bytes / r.min : 0.0;
    return r;
}

void st_report(const char *bench, const st_options *o, int threads, const st_row *rows, int nrows, int valid,
               double total_seconds, const char *extra)
{
    printf("%-15s %13s %12s %12s %12s\n", "Function", "Best MB/s", "Avg time", "Min time", "Max time");
    for (int i = 0; i < nrows; i++) {
        st_rating r = rate(rows[i].times, o->ntimes, rows[i].bytes);
        char label[64];
        snprintf(label, sizeof label, "%s:", rows[i].name);
        printf("%-15s %13.1f %12.6f %12.6f %12.6f\n", label, r.best_mbps, r.avg, r.min, r.max);
    }
    printf("Verification = %s\n", valid ? "SUCCESSFUL" : "UNSUCCESSFUL");
    printf("Time in seconds = %.6f\n", total_seconds);
    if (!o->json)
        return;

    FILE *f = strcmp(o->json, "-") ? fopen(o->json, "w") : stdout;
    if (!f) {
        fprintf(stderr, "stream: cannot write %s: %s\n", o->json, strerror(errno));
        return;
    }
    fprintf(f, "{\"benchmark\": \"%s\", \"n\": %zu, \"ntimes\": %d, \"teams\": %d, \"threads_per_team\": %d, "
               "\"threads\": %d, \"hints\": %s, \"verification\": \"%s\", \"time_s\": %.9f, ",
            bench, o->n, o->ntimes, o->teams, o->threads_per_team, threads, o->hints ? "true" : "false",
            valid ? "SUCCESSFUL" : "UNSUCCESSFUL", total_seconds);
    if (extra)
        fprintf(f, "%s, ", extra);
    fprintf(f, "\"kernels\": {");
    for (int i = 0; i < nrows; i++) {
        st_rating r = rate(rows[i].times, o->ntimes, rows[i].bytes);
        fprintf(f, "%s\"%s\": {\"bytes\": %.0f, \"best_MBps\": %.3f, \"avg_s\": %.9f, \"min_s\": %.9f, \"max_s\": %.9f",
                i ? ", " : "", rows[i].name, rows[i].bytes, r.best_mbps, r.avg, r.min, r.max);
        if (rows[i].team_times) {
            /* Each team alone moved bytes/teams; its own best rate shows imbalance between nodes. */
            fprintf(f, ", \"team_best_MBps\": [");
            for (int t = 0; t < o->teams; t++) {
                st_rating tr = rate(rows[i].team_times + (size_t)t * (size_t)o->ntimes, o->ntimes,
                                    rows[i].bytes / o->teams);
                fprintf(f, "%s%.3f", t ? ", " : "", tr.best_mbps);
            }
            fprintf(f, "]");
        }
        fprintf(f, "}");
    }
    fprintf(f, "}}\n");
    if (f != stdout)
        fclose(f);
}

const char *const st_kernel_names[ST_NKERNELS] = {"Copy", "Scale", "Add", "Triad"};

void st_team_kernel(st_kernel q, double *a, double *b, double *c, size_t n, int threads, double s)
{
    const long ln = (long)n;
    switch (q) {
    case ST_COPY:
#pragma omp parallel for schedule(static) num_threads(threads)
        for (long j = 0; j < ln; j++)
            c[j] = a[j];
        break;
    case ST_SCALE:
#pragma omp parallel for schedule(static) num_threads(threads)
        for (long j = 0; j < ln; j++)
            b[j] = s * c[j];
        break;
    case ST_ADD:
#pragma omp parallel for schedule(static) num_threads(threads)
        for (long j = 0; j < ln; j++)
            c[j] = a[j] + b[j];
        break;
    case ST_TRIAD:
#pragma omp parallel for schedule(static) num_threads(threads)
        for (long j = 0; j < ln; j++)
            a[j] = b[j] + s * c[j];
        break;
    case ST_NKERNELS:
        break;
    }
}

int st_team_init(double **a, double **b, double **c, size_t n, int threads, double ia, double ib, double ic)
{
    double *va = st_alloc(n, "a"), *vb = st_alloc(n, "b"), *vc = st_alloc(n, "c");
    const long ln = (long)n;
    int got = 1;
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (long j = 0; j < ln; j++) {
            va[j] = ia;
            vb[j] = ib;
            vc[j] = ic;
        }
#pragma omp master
        got = omp_get_num_threads();
        st_attach_share(va, n, "a");
        st_attach_share(vb, n, "b");
        st_attach_share(vc, n, "c");
        st_hints_apply();
    }
    *a = va;
    *b = vb;
    *c = vc;
    return got;
}

void st_nesting_on(void)
{
    omp_set_dynamic(0);
    if (omp_get_max_active_levels() < 2)
        omp_set_max_active_levels(2);
}

int st_teams_missing(const st_options *o, int got)
{
    if (got >= o->teams)
        return 0;
    fprintf(stderr, "stream: asked for %d teams, the outer parallel region got %d threads (thread limit?)\n",
            o->teams, got);
    return 1;
}

/* Prints the inner team sizes when nesting did not give every team its threads: the results then
 * describe fewer threads than asked for. */
void st_warn_inner(const st_options *o, const int *inner)
{
    for (int t = 0; t < o->teams; t++)
        if (inner[t] != o->threads_per_team) {
            fprintf(stderr, "stream: team %d runs %d threads instead of %d (nested parallelism limited?)\n", t,
                    inner[t], o->threads_per_team);
        }
}

int st_nest_alloc(st_nest *s, const st_options *o, int rows)
{
    *s = (st_nest){.teams = o->teams, .ntimes = o->ntimes, .n = o->n};
    size_t T = (size_t)o->teams, K = (size_t)o->ntimes;
    s->times = calloc((size_t)rows * K, sizeof(double));
    s->team_times = calloc((size_t)rows * T * K, sizeof(double));
    s->vecs = calloc(3 * T, sizeof(double *));
    s->inner = calloc(T, sizeof(int));
    if (s->times && s->team_times && s->vecs && s->inner)
        return 0;
    st_nest_free(s);
    return 2;
}

void st_nest_free(st_nest *s)
{
    for (int i = 0; s->vecs && i < 3 * s->teams; i++)
        st_free(s->vecs[i]);
    free(s->vecs);
    free(s->inner);
    free(s->times);
    free(s->team_times);
    *s = (st_nest){0};
}

void st_nest_init_team(st_nest *s, int t, int threads, double ia, double ib, double ic)
{
    double *a, *b, *c;
    s->inner[t] = st_team_init(&a, &b, &c, s->n, threads, ia, ib, ic);
    s->vecs[3 * t] = a;
    s->vecs[3 * t + 1] = b;
    s->vecs[3 * t + 2] = c;
}

void st_nest_timed(st_nest *s, int row, int t, int k, st_kernel q, double *a, double *b, double *c, int threads,
                   double scalar)
{
    /* Orphaned constructs: they bind to the outer region whose team masters call this. */
#pragma omp barrier
#pragma omp master
    s->t0 = st_now();
#pragma omp barrier
    double mine = st_now();
    st_team_kernel(q, a, b, c, s->n, threads, scalar);
    s->team_times[((size_t)row * (size_t)s->teams + (size_t)t) * (size_t)s->ntimes + (size_t)k] = st_now() - mine;
#pragma omp barrier
#pragma omp master
    s->times[(size_t)row * (size_t)s->ntimes + (size_t)k] = st_now() - s->t0;
}

int st_nest_check(const st_nest *s, int t, double ea, double eb, double ec)
{
    const double expected[3] = {ea, eb, ec};
    int valid = 1;
    for (int v = 0; v < 3; v++) {
        char name[32];
        snprintf(name, sizeof name, "%c of team %d", "abc"[v], t);
        valid &= st_check(name, s->vecs[3 * t + v], s->n, expected[v]);
    }
    return valid;
}
