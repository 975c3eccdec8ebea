/* pl_eval.c: placement-eval, quality (vs the exhaustive optimum) and decision time of every policy on generated TNT corpora. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pl.h"

/*
 * Corpus families: access patterns that occur in real OpenMP codes.
 *   block-local  static schedule over first-touched arrays: each block of
 *                threads mostly reads its own node (NPB CG/MG after init).
 *   shifted      the same, but the data sits one node away (initialised by a
 *                differently numbered team, or a changed team size).
 *   all-shared   interleaved or shared data: every thread reads every node.
 *   heavy-thread block-local with one thread doing three times the work: the
 *                critical path the paper's Algorithm 3 is about.
 *   hot-node     serial initialisation touched most data on node 0.
 *   random       uniformly random counts, no structure.
 */
enum { F_BLOCK, F_SHIFTED, F_SHARED, F_HEAVY, F_HOT, F_RANDOM, F_COUNT };
static const char *const family_names[F_COUNT] = {
    "block-local", "shifted", "all-shared", "heavy-thread", "hot-node", "random" };

static const pl_policy_t policies[] = {
    PL_POLICY_COMPACT, PL_POLICY_SCATTER, PL_POLICY_MAXLOCAL, PL_POLICY_CRITPATH,
    PL_POLICY_CRITPATH_REFINE, PL_POLICY_EXHAUSTIVE };
#define NPOL ((int)(sizeof policies / sizeof policies[0]))
#define P_EXH (NPOL - 1)

typedef struct { int nodes, cores; } shape_t;
static const shape_t shapes[] = { { 2, 8 }, { 4, 4 }, { 8, 8 } };
#define NSHAPE ((int)(sizeof shapes / sizeof shapes[0]))

/* splitmix64: a fixed, documented generator so corpora are reproducible. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

/* Fill refs[n * nd] for a family; per-thread work varies by +-10 %. */
static void generate(int fam, int n, int nd, uint64_t seed, uint64_t *refs)
{
    uint64_t s = seed;
    const double base = 1e6;
    int heavy = (int)(rng_next(&s) % (uint64_t)n);
    for (int t = 0; t < n; t++) {
        double work = base * (0.9 + 0.2 * rng_unit(&s));
        int home = (int)((long)t * nd / n);
        double share[PL_MAX_NODES];
        for (int d = 0; d < nd; d++)
            share[d] = 0;
        switch (fam) {
        case F_BLOCK:
        case F_HEAVY:
            for (int d = 0; d < nd; d++)
                share[d] = 0.15 / nd;
            share[home] += 0.85;
            if (fam == F_HEAVY && t == heavy)
                work *= 3;
            break;
        case F_SHIFTED:
            for (int d = 0; d < nd; d++)
                share[d] = 0.15 / nd;
            share[(home + 1) % nd] += 0.85;
            break;
        case F_SHARED:
            for (int d = 0; d < nd; d++)
                share[d] = 1.0 / nd;
            break;
        case F_HOT:
            for (int d = 0; d < nd; d++)
                share[d] = 0.1 / nd;
            share[0] += 0.6;
            share[home] += 0.3;
            break;
        default:
            for (int d = 0; d < nd; d++)
                share[d] = rng_unit(&s);
            break;
        }
        double sum = 0;
        for (int d = 0; d < nd; d++) {
            /* 5 % multiplicative noise: counters never repeat exactly. */
            share[d] *= 0.95 + 0.1 * rng_unit(&s);
            sum += share[d];
        }
        for (int d = 0; d < nd; d++)
            refs[(size_t)t * nd + d] = (uint64_t)llround(work * share[d] / sum);
    }
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

static double median(double *v, int n)
{
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct result {
    int family, shape, nthreads, seed;
    int rc[NPOL];
    double crit[NPOL], us[NPOL];
} result_t;

/* Decide with one policy; returns rc, the predicted critical path and the
 * median decision time over `repeat` runs. */
static int run_policy(pl_policy_t pol, const pl_topo_t *topo, const pl_tnt_t *tnt,
                      const pl_model_t *model, int repeat, double *crit, double *us)
{
    int n = tnt->nthreads;
    int *node = malloc(sizeof(int) * n), *core = malloc(sizeof(int) * n);
    size_t wb = pl_workspace_bytes(pol, n, tnt->nnodes);
    void *work = malloc(wb ? wb : 1);
    double times[64];
    if (repeat > 64) repeat = 64;
    if (repeat < 1) repeat = 1;
    pl_mapping_t map = { n, node, core };
    int rc = 0;
    for (int r = 0; r < repeat; r++) {
        double t0 = now_us();
        rc = pl_decide(pol, topo, tnt, model, &map, work, wb);
        times[r] = now_us() - t0;
        if (rc)
            break;
    }
    *us = median(times, rc ? 1 : repeat);
    *crit = NAN;
    if (!rc)
        pl_predict(topo, tnt, model, &map, NULL, crit);
    free(node);
    free(core);
    free(work);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: placement-eval [--cases K] [--seed S] [--repeat R] [--exhaustive-max N]\n"
        "                      [--scaling-max N] [--json FILE] [--quick]\n"
        "  --cases K           TNTs per family, topology and team size (default 8)\n"
        "  --repeat R          decisions timed per case; the median is kept (default 5)\n"
        "  --exhaustive-max N  run exhaustive up to N threads (default 16)\n"
        "  --scaling-max N     largest team of the scaling sweep on 16 nodes (default 1024)\n"
        "  --quick             tiny corpus for tests: 2 cases, repeat 1, scaling to 64\n");
}

int main(int argc, char **argv)
{
    int cases = 8, repeat = 5, exh_max = 16, scal_max = 1024;
    uint64_t seed0 = 1;
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--quick")) { cases = 2; repeat = 1; scal_max = 64; }
        else if (v && !strcmp(a, "--cases")) { cases = atoi(v); i++; }
        else if (v && !strcmp(a, "--seed")) { seed0 = strtoull(v, NULL, 10); i++; }
        else if (v && !strcmp(a, "--repeat")) { repeat = atoi(v); i++; }
        else if (v && !strcmp(a, "--exhaustive-max")) { exh_max = atoi(v); i++; }
        else if (v && !strcmp(a, "--scaling-max")) { scal_max = atoi(v); i++; }
        else if (v && !strcmp(a, "--json")) { json = v; i++; }
        else { fprintf(stderr, "placement-eval: unknown or incomplete option '%s'\n", a); usage(stderr); return 2; }
    }
    if (cases < 1 || repeat < 1) {
        fprintf(stderr, "placement-eval: --cases and --repeat must be >= 1\n");
        return 2;
    }
    pl_model_t model;
    pl_model_default(&model);

    int maxres = F_COUNT * NSHAPE * 2 * cases;
    result_t *res = calloc((size_t)maxres, sizeof *res);
    int nres = 0;
    for (int sh = 0; sh < NSHAPE; sh++) {
        int nd = shapes[sh].nodes, cores = shapes[sh].cores;
        int cap[PL_MAX_NODES];
        for (int d = 0; d < nd; d++)
            cap[d] = cores;
        /* The paper's machine has NUMA factor 1.5; distance NULL = uniform remote. */
        pl_topo_t topo = { nd, cap, NULL, 1.5 };
        for (int half = 0; half < 2; half++) {
            int n = half ? nd * cores / 2 : nd * cores;
            uint64_t *refs = malloc(sizeof(uint64_t) * (size_t)n * nd);
            for (int f = 0; f < F_COUNT; f++)
                for (int c = 0; c < cases; c++) {
                    result_t *r = &res[nres++];
                    r->family = f; r->shape = sh; r->nthreads = n; r->seed = c;
                    generate(f, n, nd, seed0 * 1000003u + (uint64_t)(f * 7919 + sh * 104729 + half * 31 + c * 131), refs);
                    pl_tnt_t tnt = { n, nd, refs };
                    for (int p = 0; p < NPOL; p++) {
                        if (p == P_EXH && n > exh_max) { r->rc[p] = -E2BIG; r->crit[p] = NAN; continue; }
                        r->rc[p] = run_policy(policies[p], &topo, &tnt, &model,
                                              p == P_EXH ? 1 : repeat, &r->crit[p], &r->us[p]);
                    }
                }
            free(refs);
        }
    }

    /* Summary per policy. */
    printf("placement-eval: %d cases (%d families x %d topologies x 2 team sizes x %d), model local=%.3g congestion=%.3g remote=%.3g\n",
           nres, F_COUNT, NSHAPE, cases, model.local_ns, model.node_congestion, model.remote_traffic);
    printf("%-16s %8s %9s %9s %7s %7s %9s %9s %10s %10s\n", "policy", "optimal", "mean/opt", "max/opt",
           "<=1%", "<=5%", "<=compact", "<=scatter", "vs-best-os", "median-us");
    double *tmp = malloc(sizeof(double) * (size_t)nres);
    double within1[NPOL] = { 0 }, within5[NPOL] = { 0 }, qmean[NPOL] = { 0 }, qmax[NPOL] = { 0 };
    double le_c[NPOL] = { 0 }, le_s[NPOL] = { 0 }, vsos[NPOL] = { 0 }, med_us[NPOL] = { 0 };
    int nopt = 0;
    for (int i = 0; i < nres; i++)
        nopt += res[i].rc[P_EXH] == 0;
    for (int p = 0; p < NPOL; p++) {
        int k = 0, ko = 0;
        double lsum = 0;
        for (int i = 0; i < nres; i++) {
            result_t *r = &res[i];
            if (r->rc[p])
                continue;
            double best_os = fmin(r->crit[0], r->crit[1]);
            le_c[p] += r->crit[p] <= r->crit[0] * (1 + 1e-9);
            le_s[p] += r->crit[p] <= r->crit[1] * (1 + 1e-9);
            lsum += log(r->crit[p] / best_os);
            tmp[k++] = r->us[p];
            if (r->rc[P_EXH] == 0) {
                double q = r->crit[p] / r->crit[P_EXH];
                qmean[p] += q;
                if (q > qmax[p]) qmax[p] = q;
                within1[p] += q <= 1.01;
                within5[p] += q <= 1.05;
                ko++;
            }
        }
        med_us[p] = median(tmp, k);
        if (k) { le_c[p] /= k; le_s[p] /= k; vsos[p] = exp(lsum / k); }
        if (ko) { qmean[p] /= ko; within1[p] /= ko; within5[p] /= ko; }
        printf("%-16s %8d %9.4f %9.4f %6.1f%% %6.1f%% %8.1f%% %8.1f%% %10.4f %10.1f\n",
               pl_policy_name(policies[p]), ko, qmean[p], qmax[p], 100 * within1[p], 100 * within5[p],
               100 * le_c[p], 100 * le_s[p], vsos[p], med_us[p]);
    }
    printf("(optimal: cases where exhaustive finished; <=compact, <=scatter, vs-best-os (geometric mean of\n"
           " predicted time / min(compact, scatter)): over the cases the policy ran, exhaustive only up to\n"
           " --exhaustive-max threads; median-us: thread CPU time of one decision)\n");

    /* Per family and topology: critpath+refine and critpath quality. */
    printf("\n%-13s %-5s %4s %12s %12s %12s\n", "family", "topo", "N", "critpath/opt", "refine/opt", "maxlocal/opt");
    for (int sh = 0; sh < NSHAPE; sh++)
        for (int half = 0; half < 2; half++)
            for (int f = 0; f < F_COUNT; f++) {
                double q[3] = { 0, 0, 0 };
                int k = 0, n = 0;
                for (int i = 0; i < nres; i++) {
                    result_t *r = &res[i];
                    int rn = shapes[sh].nodes * shapes[sh].cores / (half ? 2 : 1);
                    if (r->shape != sh || r->family != f || r->nthreads != rn)
                        continue;
                    n = rn;
                    if (r->rc[P_EXH])
                        continue;
                    q[0] += r->crit[3] / r->crit[P_EXH];
                    q[1] += r->crit[4] / r->crit[P_EXH];
                    q[2] += r->crit[2] / r->crit[P_EXH];
                    k++;
                }
                if (!k)
                    continue;
                printf("%-13s %dx%-3d %4d %12.4f %12.4f %12.4f\n", family_names[f], shapes[sh].nodes,
                       shapes[sh].cores, n, q[0] / k, q[1] / k, q[2] / k);
            }

    /* Decision time scaling on 16 nodes. */
    printf("\nscaling (16 nodes, random and block-local TNTs: the slower one, median CPU us of %d decisions)\n", repeat < 5 ? 5 : repeat);
    printf("%6s %10s %10s %10s %10s %16s\n", "N", "compact", "scatter", "maxlocal", "critpath", "critpath+refine");
    int nscal = 0, scal_n[16];
    double scal_us[16][5];
    for (int n = 16; n <= scal_max && nscal < 16; n *= 2, nscal++) {
        int nd = 16, cap[16];
        for (int d = 0; d < nd; d++)
            cap[d] = (n + nd - 1) / nd;
        pl_topo_t topo = { nd, cap, NULL, 1.5 };
        uint64_t *refs = malloc(sizeof(uint64_t) * (size_t)n * nd);
        scal_n[nscal] = n;
        printf("%6d", n);
        for (int p = 0; p < 5; p++) {
            double v[2];
            for (int f = 0; f < 2; f++) {
                generate(f ? F_BLOCK : F_RANDOM, n, nd, seed0 + (uint64_t)n, refs);
                pl_tnt_t tnt = { n, nd, refs };
                double crit;
                run_policy(policies[p], &topo, &tnt, &model, repeat < 5 ? 5 : repeat, &crit, &v[f]);
            }
            scal_us[nscal][p] = fmax(v[0], v[1]);
            printf(" %*.1f", p == 4 ? 16 : 10, scal_us[nscal][p]);
        }
        printf("\n");
        free(refs);
    }

    /* Targets of issue 3. */
    double cp_big = NAN;
    int big_n = 0;
    for (int i = 0; i < nscal; i++)
        if (scal_n[i] >= big_n) { big_n = scal_n[i]; cp_big = scal_us[i][3]; }
    int t1 = nopt > 0 && within1[4] >= 0.95;
    int t2 = big_n >= 1024 && cp_big <= 50.0;
    printf("\ntargets: critpath+refine within 1%% of optimum in %.1f%% of %d cases (target >= 95%%): %s; "
           "critpath decision at %dx16: %.1f us (target <= 50 us at 1024x16): %s\n",
           100 * within1[4], nopt, nopt ? (t1 ? "met" : "NOT met") : "not measured",
           big_n, cp_big, big_n >= 1024 ? (t2 ? "met" : "NOT met") : "not measured");

    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            fprintf(stderr, "placement-eval: cannot write %s: %s\n", json, strerror(errno));
            return 1;
        }
        fprintf(f, "{\n  \"model\": {\"local_ns\": %g, \"node_congestion\": %g, \"remote_traffic\": %g},\n",
                model.local_ns, model.node_congestion, model.remote_traffic);
        fprintf(f, "  \"numa_factor\": 1.5,\n  \"policies\": [\n");
        for (int p = 0; p < NPOL; p++)
            fprintf(f, "    {\"name\": \"%s\", \"optimal_cases\": %d, \"mean_over_opt\": %.6f, \"max_over_opt\": %.6f, "
                    "\"within_1pct\": %.4f, \"within_5pct\": %.4f, \"le_compact\": %.4f, \"le_scatter\": %.4f, "
                    "\"geomean_over_best_os\": %.6f, \"median_us\": %.3f}%s\n",
                    pl_policy_name(policies[p]), p == P_EXH ? nopt : nopt, qmean[p], qmax[p], within1[p],
                    within5[p], le_c[p], le_s[p], vsos[p], med_us[p], p + 1 < NPOL ? "," : "");
        fprintf(f, "  ],\n  \"cases\": [\n");
        for (int i = 0; i < nres; i++) {
            result_t *r = &res[i];
            fprintf(f, "    {\"family\": \"%s\", \"nodes\": %d, \"cores\": %d, \"threads\": %d, \"seed\": %d, \"predicted\": {",
                    family_names[r->family], shapes[r->shape].nodes, shapes[r->shape].cores, r->nthreads, r->seed);
            for (int p = 0; p < NPOL; p++) {
                if (r->rc[p]) fprintf(f, "\"%s\": null%s", pl_policy_name(policies[p]), p + 1 < NPOL ? ", " : "");
                else fprintf(f, "\"%s\": %.6g%s", pl_policy_name(policies[p]), r->crit[p], p + 1 < NPOL ? ", " : "");
            }
            fprintf(f, "}, \"decision_us\": {");
            for (int p = 0; p < NPOL; p++)
                fprintf(f, "\"%s\": %.3f%s", pl_policy_name(policies[p]), r->rc[p] ? -1.0 : r->us[p], p + 1 < NPOL ? ", " : "");
            fprintf(f, "}}%s\n", i + 1 < nres ? "," : "");
        }
        fprintf(f, "  ],\n  \"scaling\": {\"nodes\": 16, \"points\": [\n");
        for (int i = 0; i < nscal; i++) {
            fprintf(f, "    {\"threads\": %d", scal_n[i]);
            for (int p = 0; p < 5; p++)
                fprintf(f, ", \"%s\": %.3f", pl_policy_name(policies[p]), scal_us[i][p]);
            fprintf(f, "}%s\n", i + 1 < nscal ? "," : "");
        }
        fprintf(f, "  ]},\n  \"targets\": {\"refine_within_1pct\": %.4f, \"refine_target_met\": %s, "
                "\"critpath_us_at_max\": %.3f, \"max_threads\": %d, \"critpath_target_met\": %s}\n}\n",
                within1[4], t1 ? "true" : "false", cp_big, big_n, t2 ? "true" : "false");
        fclose(f);
        printf("wrote %s\n", json);
    }
    free(tmp);
    free(res);
    return 0;
}
