/* cmd_place.c: `ompnuma place`: decide a thread mapping for a TNT file on a topology and print it with its predicted cost. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "pl.h"
#include "rt_topology.h"
#include "rt_util.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ompnuma place --tnt FILE [--policy P] [--topology SPEC] [--region NAME]\n"
            "                     [--numa-factor F] [--repeat N] [--trace] [--format json|text]\n"
            "\n"
            "Decides where each thread of a thread-node table (TNT) should run and prints\n"
            "the mapping with the cost model's prediction.\n"
            "\n"
            "  --tnt FILE        CSV, one row per thread, one column per node, unsigned decimal\n"
            "                    counts summing below 2^64 per table; optional header row\n"
            "                    (its first field empty or a word, never +1, 1.5, 1e3, 0x10,\n"
            "                    nan); '#' comments, '# region NAME' sections ('-' = stdin);\n"
            "                    a regular file or stdin, at most 128 MiB\n"
            "  --policy P        compact, scatter, exhaustive, maxlocal, critpath (default),\n"
            "                    critpath+refine\n"
            "  --topology SPEC   hwloc synthetic string, hwloc XML file, or\n"
            "                    nodes=N,cores=C[,factor=F] (default: this machine)\n"
            "  --region NAME     the table of '# region NAME' (default: the first table)\n"
            "  --numa-factor F   NUMA factor of Algorithms 2 and 3 (Eq. 2, Eq. 4), F >= 1\n"
            "                    (default: the topology's); the cost model keeps the distances\n"
            "  --repeat N        decide N times and report the median and the smallest\n"
            "                    decision time (thread CPU time)\n"
            "  --trace           the greedy steps and the candidates each one compared\n"
            "  --format F        text (default) or json\n"
            "\n"
            "Indices count from 0. Exit status: 0 ok, 1 the decision failed, 2 bad usage or input.\n");
}

/* CPU time of this thread: a decision is pure computation, and on a shared
 * machine wall time would also count the time other processes ran. */
static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct out {
    const char *policy, *origin, *region;
    const pl_tnt_t *tnt;
    double factor;
    const pl_mapping_t *map;
    const double *per_thread;
    double crit;
    uint64_t local, remote;
    int repeat;
    double decision_us;
    double decision_min_us; /* the least disturbed run on a shared machine */
    const pl_trace_t *trace; /* NULL: not asked */
} out_t;

static int critical_thread(const out_t *o)
{
    int ct = 0;
    for (int t = 0; t < o->tnt->nthreads; t++)
        if (o->per_thread[t] > o->per_thread[ct])
            ct = t;
    return ct;
}

static void print_json(const out_t *o)
{
    int n = o->tnt->nthreads;
    printf("{\"policy\":");
    rt_json_string(stdout, o->policy);
    printf(",\"topology\":");
    rt_json_string(stdout, o->origin);
    printf(",\"region\":");
    rt_json_string(stdout, o->region);
    printf(",\"threads\":%d,\"nodes\":%d,\"numa_factor\":%.6g", n, o->tnt->nnodes, o->factor);
    printf(",\"mapping\":[");
    for (int t = 0; t < n; t++) printf("%s%d", t ? "," : "", o->map->node[t]);
    printf("],\"cores\":[");
    for (int t = 0; t < n; t++) printf("%s%d", t ? "," : "", o->map->core[t]);
    printf("],\"predicted\":%.6f,\"predicted_unit\":\"local references\",\"critical_thread\":%d",
           o->crit, critical_thread(o));
    printf(",\"per_thread\":[");
    for (int t = 0; t < n; t++) printf("%s%.6f", t ? "," : "", o->per_thread[t]);
    printf("],\"local\":%llu,\"remote\":%llu", (unsigned long long)o->local,
           (unsigned long long)o->remote);
    if (o->repeat > 0)
        printf(",\"repeat\":%d,\"decision_us\":%.3f,\"decision_min_us\":%.3f", o->repeat,
               o->decision_us, o->decision_min_us);
    if (o->trace) {
        const pl_trace_t *tr = o->trace;
        printf(",\"steps\":[");
        for (int s = 0; s < tr->nsteps; s++) {
            const pl_step_t *st = &tr->steps[s];
            printf("%s{\"thread\":%d,\"node\":%d,\"e_max\":[%d,%d],\"threshold\":%.6f,\"candidates\":[",
                   s ? "," : "", st->thread, st->node, st->max_thread, st->max_node, st->threshold);
            for (int c = 0; c < st->ncand; c++) {
                const pl_candidate_t *cd = &tr->cands[st->first_cand + c];
                printf("%s{\"thread\":%d,\"node\":%d,\"value\":%.0f,\"impact\":%.6f,\"node_load\":%.6f,\"score\":%.6f}",
                       c ? "," : "", cd->thread, cd->node, cd->value, cd->impact, cd->node_load, cd->score);
            }
            printf("]}");
        }
        printf("]");
    }
    printf("}\n");
}

static void print_text(const out_t *o)
{
    int n = o->tnt->nthreads;
    printf("policy %s on %s: %d threads, %d nodes, NUMA factor %.3g%s%s\n", o->policy, o->origin, n,
           o->tnt->nnodes, o->factor, o->region[0] ? ", region " : "", o->region);
    printf("%6s %5s %5s %16s\n", "thread", "node", "core", "predicted");
    for (int t = 0; t < n; t++)
        printf("%6d %5d %5d %16.1f\n", t, o->map->node[t], o->map->core[t], o->per_thread[t]);
    double all = (double)o->local + (double)o->remote;
    printf("critical path: %.1f local references (thread %d)\n", o->crit, critical_thread(o));
    printf("local: %llu (%.1f%%), remote: %llu\n", (unsigned long long)o->local,
           all > 0 ? 100.0 * (double)o->local / all : 0.0, (unsigned long long)o->remote);
    if (o->repeat > 0)
        printf("decision: %.3f us (median of %d, min %.3f us)\n", o->decision_us, o->repeat,
               o->decision_min_us);
    if (o->trace) {
        const pl_trace_t *tr = o->trace;
        for (int s = 0; s < tr->nsteps; s++) {
            const pl_step_t *st = &tr->steps[s];
            printf("step %d: thread %d -> node %d (e_max e(%d,%d)", s + 1, st->thread, st->node,
                   st->max_thread, st->max_node);
            if (st->threshold > 0)
                printf(", threshold %.2f", st->threshold);
            printf(")\n");
            for (int c = 0; c < st->ncand; c++) {
                const pl_candidate_t *cd = &tr->cands[st->first_cand + c];
                if (st->threshold > 0)
                    printf("  e(%d,%d) V=%.0f LC=%.0f%s\n", cd->thread, cd->node, cd->value,
                           cd->node_load, cd->value >= st->threshold ? "" : " (below threshold)");
                else
                    printf("  e(%d,%d) V=%.0f IF=%.1f CPImpact=%.1f sum=%.1f\n", cd->thread,
                           cd->node, cd->value, cd->impact, cd->node_load, cd->score);
            }
        }
        if (tr->truncated)
            printf("(trace truncated)\n");
    }
}

int ompnuma_cmd_place(int argc, char **argv)
{
    static const struct option opts[] = {
        {"policy", required_argument, NULL, 'p'},
        {"topology", required_argument, NULL, 't'},
        {"tnt", required_argument, NULL, 'f'},
        {"region", required_argument, NULL, 'r'},
        {"numa-factor", required_argument, NULL, 'F'},
        {"repeat", required_argument, NULL, 'n'},
        {"format", required_argument, NULL, 'o'},
        {"trace", no_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *policy_name = "critpath", *spec = NULL, *tnt_path = NULL, *region = NULL;
    const char *format = "text";
    double factor = 0;
    int repeat = 0, want_trace = 0;
    optind = 1;
    opterr = 0;
    for (;;) {
        int c = getopt_long(argc, argv, "", opts, NULL);
        if (c == -1)
            break;
        char *end = NULL;
        switch (c) {
        case 'p': policy_name = optarg; break;
        case 't': spec = optarg; break;
        case 'f': tnt_path = optarg; break;
        case 'r': region = optarg; break;
        case 'o': format = optarg; break;
        case 'T': want_trace = 1; break;
        case 'F':
            factor = strtod(optarg, &end);
            if (!end || *end || !(factor >= 1.0) || !isfinite(factor)) {
                cmd_error("place", "--numa-factor \"%s\" is not a number >= 1", optarg);
                return 2;
            }
            break;
        case 'n': {
            long v = strtol(optarg, &end, 10);
            if (!end || *end || v < 1 || v > 1000000) {
                cmd_error("place", "--repeat \"%s\" is not a count in 1..1000000", optarg);
                return 2;
            }
            repeat = (int)v;
            break;
        }
        case 'h': usage(stdout); return 0;
        default:
            cmd_error("place", "unknown option or missing value: %s", argv[optind - 1]);
            usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        cmd_error("place", "unexpected argument \"%s\"", argv[optind]);
        return 2;
    }
    pl_policy_t policy;
    if (pl_policy_from_name(policy_name, &policy)) {
        char known[256];
        size_t n = 0;
        for (int p = 0; p < PL_POLICY_COUNT && n < sizeof known; p++)
            n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", p ? ", " : "", pl_policy_name((pl_policy_t)p));
        cmd_error("place", "unknown policy \"%s\" (%s)", policy_name, known);
        return 2;
    }
    if (strcmp(format, "text") && strcmp(format, "json")) {
        cmd_error("place", "--format \"%s\" is not text or json", format);
        return 2;
    }
    if (!tnt_path) {
        cmd_error("place", "--tnt FILE is required");
        usage(stderr);
        return 2;
    }

    size_t len = 0;
    char *text = cmd_read_input("place", tnt_path, &len);
    if (!text)
        return 2;
    char err[256];
    size_t ncells = 0;
    int ntables = pl_csv_parse(text, len, NULL, 0, NULL, 0, &ncells, err, sizeof err);
    if (ntables < 0) {
        cmd_error("place", "%s: %s", tnt_path, err);
        free(text);
        return 2;
    }
    pl_csv_table_t *tables = calloc((size_t)ntables, sizeof *tables);
    uint64_t *cells = malloc(sizeof(uint64_t) * (ncells ? ncells : 1));
    int status = 2;
    rt_topo_t rtopo;
    int topo_loaded = 0;
    int *node = NULL, *core = NULL;
    double *per_thread = NULL, *times = NULL;
    void *work = NULL;
    pl_step_t *steps = NULL;
    pl_candidate_t *cands = NULL;
    if (!tables || !cells) {
        cmd_error("place", "out of memory");
        status = 1;
        goto done;
    }
    if (pl_csv_parse(text, len, tables, ntables, cells, ncells, NULL, err, sizeof err) != ntables) {
        cmd_error("place", "%s: %s", tnt_path, err);
        goto done;
    }
    const pl_csv_table_t *tab = &tables[0];
    if (region) {
        tab = NULL;
        for (int i = 0; i < ntables && !tab; i++)
            if (!strcmp(tables[i].name, region))
                tab = &tables[i];
        if (!tab) {
            cmd_error("place", "%s: no '# region %s' table", tnt_path, region);
            goto done;
        }
    }

    if (cmd_load_topology("place", spec, &rtopo) != 0)
        goto done;
    topo_loaded = 1;
    pl_topo_t topo;
    rt_topo_as_pl(&rtopo, &topo);
    if (factor > 0)
        topo.numa_factor = factor;
    if (tab->nnodes != topo.nnodes) {
        cmd_error("place", "%s: the table has %d node columns but the topology has %d nodes",
                tnt_path, tab->nnodes, topo.nnodes);
        goto done;
    }
    pl_tnt_t tnt = { tab->nthreads, tab->nnodes, tab->refs };
    int n = tnt.nthreads;
    pl_model_t model;
    pl_model_default(&model);
    size_t wb = pl_workspace_bytes(policy, n, tnt.nnodes);
    node = malloc(sizeof(int) * n);
    core = malloc(sizeof(int) * n);
    per_thread = malloc(sizeof(double) * n);
    times = malloc(sizeof(double) * (repeat > 0 ? repeat : 1));
    work = malloc(wb ? wb : 1);
    pl_trace_t trace = { 0 };
    if (want_trace) {
        trace.max_steps = n;
        trace.max_cands = n * tnt.nnodes;
        steps = malloc(sizeof(pl_step_t) * n);
        cands = malloc(sizeof(pl_candidate_t) * (size_t)n * tnt.nnodes);
        trace.steps = steps;
        trace.cands = cands;
    }
    if (!node || !core || !per_thread || !times || !work || (want_trace && (!steps || !cands))) {
        cmd_error("place", "out of memory");
        status = 1;
        goto done;
    }
    pl_mapping_t map = { n, node, core };
    int runs = repeat > 0 ? repeat : 1, rc = 0;
    for (int r = 0; r < runs && !rc; r++) {
        double t0 = now_us();
        rc = pl_decide_traced(policy, &topo, &tnt, &model, &map, work, wb, want_trace ? &trace : NULL);
        times[r] = now_us() - t0;
    }
    if (rc) {
        if (rc == -ENOSPC) {
            long cores = 0;
            for (int d = 0; d < topo.nnodes; d++) cores += topo.capacity[d];
            cmd_error("place", "%d threads do not fit the %ld cores of the topology", n, cores);
        } else if (rc == -E2BIG) {
            cmd_error("place", "exhaustive search over %d threads exceeds its budget (%d threads or %ld search nodes); use critpath+refine",
                    n, PL_EXHAUSTIVE_MAX_THREADS, PL_EXHAUSTIVE_BUDGET);
            status = 1;
        } else {
            cmd_error("place", "the %s policy failed: %s", policy_name, strerror(-rc));
            status = rc == -EINVAL ? 2 : 1;
        }
        goto done;
    }
    qsort(times, (size_t)runs, sizeof *times, cmp_double);
    out_t o = { .policy = pl_policy_name(policy), .origin = rtopo.origin, .region = tab->name,
                .tnt = &tnt, .factor = pl_numa_factor(&topo), .map = &map,
                .per_thread = per_thread, .repeat = repeat,
                .decision_us = runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]),
                .decision_min_us = times[0],
                .trace = want_trace ? &trace : NULL };
    if (pl_predict(&topo, &tnt, &model, &map, per_thread, &o.crit) || pl_locality(&tnt, &map, &o.local, &o.remote)) {
        cmd_error("place", "cannot evaluate the mapping");
        status = 1;
        goto done;
    }
    if (!strcmp(format, "json")) print_json(&o);
    else                         print_text(&o);
    status = 0;
done:
    free(steps);
    free(cands);
    free(work);
    free(times);
    free(per_thread);
    free(node);
    free(core);
    if (topo_loaded)
        rt_topo_free(&rtopo);
    free(cells);
    free(tables);
    free(text);
    return status;
}
