/* rt_data.c: data placement per region: plan the data's move from sampled addresses, make it when it beats moving the threads, verify like a re-pin, undo completely; the memory behind a region's remote references. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/pl_data.h"
#include "rt_affinity.h"
#include "rt_counters.h"
#include "rt_data.h"
#include "rt_log.h"
#include "rt_mem.h"
#include "rt_origin.h"
#include "rt_pages.h"
#include "rt_policy.h"
#include "rt_procfs.h"
#include "rt_settings.h"
#include "rt_symbol.h"
#include "rt_task.h"
#include "rt_topology.h"
#include "rt_util.h"

/* Samples a region's log holds: what the page sampler watches for its team
 * (32 pages per thread and execution) over 4 x `sample` executions (a phase
 * and its extensions), from LOG_MIN to LOG_MAX entries of 16 bytes: at most
 * 64 KiB, from the heap, never a mapping the page sampler watches. A loop
 * that samples longer, or a PMU's denser samples, fill it: the rest is
 * counted as dropped, the plan rests on what fits. */
#define LOG_MIN 256
#define LOG_MAX 4096
#define MAX_ACTIONS 32
#define MAX_RANGES 256
#define MEMORY_ROWS 8
#define MAX_GROUPS 64

enum { ST_NONE = 0, ST_DECLINED, ST_DECIDED, ST_VERIFYING, ST_KEPT, ST_UNDONE, ST_FAILED };
static const char *const state_names[] = {"none", "declined", "decided", "verifying", "kept", "undone", "failed"};

typedef struct move {
    pl_data_action_t act;
    rt_mem_undo_t    undo;
    int              err;       /* errno of the memory manager's answer, 0 when it went through */
} move_t;

/* A piece of memory behind remote references: a static object (symbol) or a mapping. */
typedef struct memory {
    char      name[128];
    int       symbol;
    uintptr_t lo, hi;
    uint64_t  samples, remote;
    int       node;             /* the node holding most of its sampled pages */
    rt_origin_t origin;         /* where it was first touched (origin.sampled 0: not recorded) */
    char      origin_at[96];    /* the touching instruction's function */
    char      origin_line[160]; /* and its file:line, when the object has line information */
} memory_t;

typedef struct data {
    rt_addr_log_t   log;
    int             resamples;  /* the sampling phase (the loop's resamples) the log belongs to */
    int             state;
    int             decisions;
    pl_data_plan_t  plan;
    pl_data_params_t params;
    double          thread_gain;
    int             with_threads; /* the data moved with the threads (the mixed move), planned where they go */
    char            line[96];   /* where the migration line came from */
    char            why[256];
    move_t         *moves;
    int             nmoves;
    uint64_t        moved, failed, back;
    double          move_ms, undo_ms;
    double          cp_before, cp_after;
    uint64_t        logged, dropped; /* samples of the phase decided on */
    memory_t        mem[MEMORY_ROWS];
    int             nmem;
    uint64_t        remote_total, other_remote;
} data_t;

static data_t *by_id[RT_REGION_MAX];

static data_t *get(const rt_region_t *r, int create)
{
    if (r->id < 0 || r->id >= RT_REGION_MAX)
        return NULL;
    data_t *d = __atomic_load_n(&by_id[r->id], __ATOMIC_ACQUIRE);
    if (d || !create)
        return d;
    long cap = (long)r->team_size * 32 * rt_conf->sample * 4;
    cap = cap < LOG_MIN ? LOG_MIN : cap > LOG_MAX ? LOG_MAX : cap;
    d = calloc(1, sizeof *d);
    pl_data_sample_t *entry = malloc((size_t)cap * sizeof *entry);
    if (!d || !entry) {
        free(d);
        free(entry);
        return NULL;
    }
    d->log = (rt_addr_log_t){.entry = entry, .cap = (uint32_t)cap};
    data_t *none = NULL;
    if (!__atomic_compare_exchange_n(&by_id[r->id], &none, d, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        free(entry);
        free(d);
        return none;
    }
    return d;
}

int rt_data_on(void)
{
    return rt_conf->mode == RT_MODE_LOOP && rt_conf->data && rt_mach->topo.nnodes > 1 && rt_counters_addresses();
}

rt_addr_log_t *rt_data_log(const rt_region_t *r, int phase)
{
    if (!rt_data_on())
        return NULL;
    data_t *d = get(r, 1);
    if (!d)
        return NULL;
    if (d->resamples != phase) { /* a fresh sampling phase: a fresh table, a fresh log */
        d->resamples = phase;
        d->log.n = 0;
        d->log.dropped = 0;
        d->log.spacing = 0;
    }
    return &d->log;
}

/* ---- inputs of the planner ---- */

static int by_addr(const void *x, const void *y)
{
    const pl_data_sample_t *a = x, *b = y;
    return (a->addr > b->addr) - (a->addr < b->addr);
}

/* The first sample at or above addr (samples sorted). */
static uint32_t lower_bound(const rt_addr_log_t *log, uint64_t addr)
{
    uint32_t lo = 0, hi = log->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (log->entry[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A mapping kept for the plan, with its path (rt_mapping_t's points into
 * the maps file's buffer). */
typedef struct kept {
    rt_mapping_t m;
    char         path[256];
} kept_t;

typedef struct mappings {
    const rt_addr_log_t *log;
    pl_data_range_t     *range;
    kept_t              *map;
    int                  n;
} mappings_t;

/* Keep the mappings that hold samples. A private writable one may move
 * (anonymous memory, the heap, a program's or library's data and bss),
 * unless the program gave it a policy of its own. */
static int keep_mapping(const rt_mapping_t *m, void *ctx)
{
    mappings_t *ms = ctx;
    uint32_t k = lower_bound(ms->log, m->lo);
    if (k >= ms->log->n || ms->log->entry[k].addr >= m->hi)
        return 0;
    int movable = m->perms[0] == 'r' && m->perms[1] == 'w' && m->perms[3] == 'p' && rt_pages_has_default_policy(m->lo) == 1;
    ms->range[ms->n] = (pl_data_range_t){.lo = m->lo, .hi = m->hi, .movable = movable};
    kept_t *kept = &ms->map[ms->n];
    kept->m = *m;
    snprintf(kept->path, sizeof kept->path, "%s", m->path);
    kept->m.path = kept->path;
    return ++ms->n == MAX_RANGES;
}

/* The node each thread ran on while sampled (-1 unknown). */
static void thread_nodes(const rt_region_t *r, int *node)
{
    for (int t = 0; t < r->team_size; t++)
        node[t] = rt_topo_node_of_cpu(&rt_mach->topo, r->seen_cpu[t]);
}

/* ---- the memory behind remote references ---- */

static char origin_why[192]; /* why first touches are not recorded */
static int  origin_tried;    /* the recorder was asked for, once: at load, or at the runtime's start */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The group of sample s in mapping m: its static object when a symbol covers
 * it (file-backed data: the program's or a library's arrays), else the mapping. */
static void group_of(const pl_data_sample_t *s, const rt_mapping_t *m, memory_t *g)
{
    size_t size;
    uintptr_t start;
    *g = (memory_t){.lo = m->lo, .hi = m->hi, .node = -1};
    if (m->inode && rt_symbol_data((const void *)(uintptr_t)s->addr, g->name, sizeof g->name, &start, &size) == 0) {
        g->symbol = 1;
        g->lo = start;
        g->hi = start + size;
        return;
    }
    snprintf(g->name, sizeof g->name, "%s", !m->path[0] ? "anonymous" : m->path[0] == '[' ? m->path : base_name(m->path));
}

/* Where m was first touched, when the recorder saw it (rt_origin.h). */
static void first_touch(memory_t *m)
{
    if (rt_origin_of(m->lo, m->hi, &m->origin) != 0) {
        m->origin.sampled = 0;
        return;
    }
    rt_symbolize((const void *)m->origin.ip, m->origin_at, sizeof m->origin_at);
    /* rt_symbol_source takes a return address (the byte before it is the call). */
    if (rt_symbol_source((const void *)(m->origin.ip + 1), m->origin_line, sizeof m->origin_line) != 0)
        m->origin_line[0] = '\0';
}

static int by_remote(const void *x, const void *y)
{
    const memory_t *a = x, *b = y;
    if (a->remote != b->remote)
        return a->remote > b->remote ? -1 : 1;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* Whether sample s is on another node than its thread's: 1 or 0, or -1 when
 * either node is unknown. */
static int sample_remote(const pl_data_sample_t *s, const int *thread_node, int nt)
{
    int u = s->thread >= 0 && s->thread < nt ? thread_node[s->thread] : -1;
    if (u < 0 || s->node < 0 || s->node >= rt_mach->topo.nnodes)
        return -1;
    return s->node != u;
}

/* Which memory holds r's remote sampled references (a sample is remote when
 * its page is off the node its thread ran on), biggest share first. Named
 * only when a report or the verbose log will say it: naming reads the
 * symbol tables. */
static void attribute(data_t *d, const mappings_t *ms, const int *thread_node, int nt)
{
    int nd = rt_mach->topo.nnodes;
    memory_t *g = calloc(MAX_GROUPS, sizeof *g);
    uint64_t *per_node = calloc((size_t)MAX_GROUPS * (size_t)nd, sizeof *per_node);
    int ng = 0;
    d->nmem = 0;
    d->remote_total = d->other_remote = 0;
    for (uint32_t k = 0; g && per_node && k < d->log.n; k++) {
        const pl_data_sample_t *s = &d->log.entry[k];
        int remote = sample_remote(s, thread_node, nt), m = 0;
        if (remote < 0)
            continue;
        d->remote_total += remote;
        while (m < ms->n && !(s->addr >= ms->range[m].lo && s->addr < ms->range[m].hi))
            m++;
        if (m == ms->n) {
            d->other_remote += remote;
            continue;
        }
        memory_t one;
        group_of(s, &ms->map[m].m, &one);
        int i = 0;
        while (i < ng && !(g[i].lo == one.lo && g[i].hi == one.hi))
            i++;
        if (i == ng) {
            if (ng == MAX_GROUPS) {
                d->other_remote += remote;
                continue;
            }
            g[ng++] = one;
        }
        g[i].samples++;
        g[i].remote += remote;
        per_node[(size_t)i * (size_t)nd + (size_t)s->node]++;
    }
    for (int i = 0; i < ng; i++)
        for (int n = 0; n < nd; n++)
            if (per_node[(size_t)i * (size_t)nd + (size_t)n] &&
                (g[i].node < 0 || per_node[(size_t)i * (size_t)nd + (size_t)n] > per_node[(size_t)i * (size_t)nd + (size_t)g[i].node]))
                g[i].node = n;
    if (g)
        qsort(g, (size_t)ng, sizeof *g, by_remote);
    for (int i = 0; i < ng; i++) {
        if (!g[i].remote)
            continue;
        if (d->nmem < MEMORY_ROWS)
            d->mem[d->nmem++] = g[i];
        else
            d->other_remote += g[i].remote;
    }
    free(g);
    free(per_node);
    for (int i = 0; i < d->nmem; i++)
        first_touch(&d->mem[i]);
}

/* ---- deciding and moving ---- */

static void forget_moves(data_t *d)
{
    for (int i = 0; i < d->nmoves; i++)
        rt_mem_undo_free(&d->moves[i].undo);
    free(d->moves);
    d->moves = NULL;
    d->nmoves = 0;
}

/* Why the data stays, in words with the numbers. */
static void declined(data_t *d, int threads_better)
{
    const pl_data_plan_t *p = &d->plan;
    if (!p->samples)
        snprintf(d->why, sizeof d->why, "%llu sampled addresses, none with a thread and node known",
                 (unsigned long long)d->logged);
    else if (!p->remote)
        snprintf(d->why, sizeof d->why, "every one of %llu sampled references is on its thread's node",
                 (unsigned long long)p->samples);
    else if (!p->candidates)
        snprintf(d->why, sizeof d->why, "%llu of %llu sampled references are remote, in no range a move is "
                 "predicted to help%s", (unsigned long long)p->remote, (unsigned long long)p->samples,
                 d->params.no_migrate ? " (Linux balances private pages here: only shared ones are interleaved)" : "");
    else if (!(p->worst > 0))
        snprintf(d->why, sizeof d->why, "%llu sampled references: too few to decide: moving the data is predicted "
                 "%.0f %% faster, %.0f %% within sampling error", (unsigned long long)p->samples, 100 * p->gain,
                 100 * p->worst);
    else if (!p->enough)
        snprintf(d->why, sizeof d->why, "moving %.0f pages costs %.1f ms, more than it saves at worst (%.1f ms over "
                 "the %.0f executions expected)", p->pages, p->cost_us / 1e3, p->worst_saved_us / 1e3,
                 d->params.executions);
    else if (threads_better)
        snprintf(d->why, sizeof d->why, "moving the threads saves more (%.0f %% at worst, for almost nothing) than "
                 "moving %.0f pages (%.0f %%, %.1f ms)", 100 * d->thread_gain, p->pages, 100 * p->worst,
                 p->cost_us / 1e3);
}

/* The kernel nodes of an action's topology nodes. */
static int os_nodes(const pl_data_action_t *a, int *out)
{
    int n = 0;
    for (int k = 0; k < rt_mach->topo.nnodes && k < 64; k++)
        if ((a->nodes >> k) & 1)
            out[n++] = rt_mach->topo.os_index[k];
    return n;
}

/* Every page back where it was; the moves stay listed for the report. */
static void undo_all(data_t *d)
{
    for (int i = d->nmoves - 1; i >= 0; i--) {
        rt_mem_undo_t *u = &d->moves[i].undo;
        if (!u->node)
            continue;
        rt_mem_undo_range(u);
        d->back += u->back;
        d->undo_ms += u->undo_ms;
        rt_mem_undo_free(u);
    }
}

/* Make the plan's moves. The number that moved at least a page. */
static int apply(data_t *d, const pl_data_action_t *act, int n)
{
    d->moves = calloc((size_t)n, sizeof *d->moves);
    if (!d->moves)
        return 0;
    d->nmoves = n;
    d->moved = d->failed = d->back = 0;
    d->move_ms = d->undo_ms = 0;
    int ok = 0;
    for (int i = 0; i < n; i++) {
        move_t *m = &d->moves[i];
        int nodes[64], k = os_nodes(&act[i], nodes);
        m->act = act[i];
        int rc = act[i].kind == PL_DATA_MIGRATE ? rt_mem_place_range(act[i].lo, act[i].hi, nodes[0], &m->undo)
                                                : rt_mem_spread_range(act[i].lo, act[i].hi, nodes, k, &m->undo);
        m->err = rc ? errno : 0;
        d->moved += m->undo.moved;
        d->failed += m->undo.failed;
        d->move_ms += m->undo.move_ms;
        ok += m->undo.moved > 0;
        if (rc)
            rt_verbose(1, "data: %s %#llx-%#llx: %s", pl_data_kind_name(act[i].kind), (unsigned long long)act[i].lo,
                       (unsigned long long)act[i].hi, strerror(m->err));
    }
    return ok;
}

/* Everything one decision plans with. */
typedef struct inputs {
    int              *thread_node;
    pl_data_range_t  *range;
    kept_t           *map;
    mappings_t        ms;
    pl_data_action_t *act;       /* [MAX_ACTIONS] of the plan chosen */
    pl_data_action_t *other;     /* [MAX_ACTIONS] of the other one */
    void             *work;
    size_t            wb;
} inputs_t;

static void inputs_free(inputs_t *in)
{
    free(in->thread_node);
    free(in->range);
    free(in->map);
    free(in->act);
    free(in->other);
    free(in->work);
}

/* The planner's inputs for r's log, its threads where they run now, the
 * log sorted and the program's mappings read: 0, or -1 (out of memory). */
static int inputs_take(inputs_t *in, data_t *d, const rt_region_t *r)
{
    int nt = r->team_size, nd = rt_mach->topo.nnodes;
    *in = (inputs_t){.thread_node = malloc((size_t)nt * sizeof *in->thread_node),
                     .range = malloc(MAX_RANGES * sizeof *in->range), .map = malloc(MAX_RANGES * sizeof *in->map),
                     .act = malloc(MAX_ACTIONS * sizeof *in->act), .other = malloc(MAX_ACTIONS * sizeof *in->other),
                     .wb = pl_data_workspace_bytes((int)d->log.n, nt, nd)};
    in->work = in->wb ? malloc(in->wb) : NULL;
    if (!in->thread_node || !in->range || !in->map || !in->act || !in->other || !in->work) {
        inputs_free(in);
        return -1;
    }
    thread_nodes(r, in->thread_node);
    qsort(d->log.entry, d->log.n, sizeof *d->log.entry, by_addr);
    in->ms = (mappings_t){.log = &d->log, .range = in->range, .map = in->map};
    rt_pages_each_mapping(keep_mapping, &in->ms);
    return 0;
}

/* The planner's parameters for r's log: the page, the log's spacing, the
 * kernel's balancing, the migration line, the region's critical path cp_ns
 * and its executions so far (as many are expected). */
static pl_data_params_t plan_params(const data_t *d, const rt_region_t *r, const pl_move_cost_t *line, double cp_ns)
{
    int balancing = rt_numa_balancing_mode();
    return (pl_data_params_t){.page_bytes = rt_mem_page_size(), .bridge_bytes = d->log.spacing,
                              .no_migrate = balancing == 1 || balancing == 3, .mig_fixed_us = line->mig_fixed_us,
                              .mig_page_us = line->mig_page_us, .cp_ns = cp_ns, .executions = (double)r->executions};
}

/* Plan with params, the threads on thread_node[] (where they run now, or
 * where their decision puts them), the region's critical path then cp_ns. */
static int plan_with(const data_t *d, const pl_data_params_t *params, const rt_region_t *r, inputs_t *in,
                     const int *thread_node, double cp_ns, pl_data_plan_t *plan, pl_data_action_t *act)
{
    pl_data_params_t p = *params;
    p.cp_ns = cp_ns;
    return pl_data_plan(&rt_mach->pl, rt_policy_model(), d->log.entry, (int)d->log.n, r->team_size, thread_node,
                        in->range, in->ms.n, &p, act, MAX_ACTIONS, plan, in->work, in->wb);
}

/* Whether a sample of the log is on another node than its thread's. */
static int any_remote(const rt_addr_log_t *log, const int *thread_node, int nt)
{
    for (uint32_t i = 0; i < log->n; i++)
        if (sample_remote(&log->entry[i], thread_node, nt) > 0)
            return 1;
    return 0;
}

static void record_dry_run(data_t *d, const rt_region_t *r)
{
    d->state = ST_DECIDED;
    rt_verbose(1, "region %d: dry run: would move %.0f pages of %d ranges", r->id, d->plan.pages, d->plan.nactions);
}

int rt_data_decide(rt_region_t *r, const int *to_node, double cp_ns, int threads, int must, double thread_gain,
                   int moved)
{
    data_t *d = get(r, 0);
    if (!d || !d->log.n || d->state == ST_VERIFYING)
        return RT_DATA_NONE;
    int nt = r->team_size, rc = RT_DATA_NONE;
    inputs_t in;
    if (inputs_take(&in, d, r) != 0)
        return RT_DATA_NONE;
    d->decisions++;
    d->logged = d->log.n;
    d->dropped = d->log.dropped;
    d->thread_gain = threads ? thread_gain : 0;
    d->with_threads = 0;
    d->why[0] = '\0';

    /* Priced only when a reference is remote: else nothing can move, and
     * the trial that prices a page here (rt_mem_cost_line) would cost a
     * program with nothing to gain its page moves (a loop of patterns
     * local-long, paced 2-node VM). */
    pl_move_cost_t line;
    pl_move_cost_default(&line);
    if (!any_remote(&d->log, in.thread_node, nt))
        snprintf(d->line, sizeof d->line, "not priced: no remote reference");
    else if (rt_mem_cost_line(&line.mig_fixed_us, &line.mig_page_us, d->line, sizeof d->line) != 0)
        snprintf(d->line, sizeof d->line, "MaMI's line (no calibration cached, no trial here)");
    double cp = cp_ns > 0 ? cp_ns : 0;
    d->params = plan_params(d, r, &line, cp);
    if (rt_conf->report != RT_REPORT_NONE || rt_log_verbosity >= 1)
        attribute(d, &in.ms, in.thread_node, nt);

    /* The data's option: the threads stay where they run. */
    if (plan_with(d, &d->params, r, &in, in.thread_node, cp, &d->plan, in.act) != 0)
        goto out;
    /* The threads' option: their move, and the data's on top of it (the
     * mixed move) when that pays for itself too. */
    pl_data_plan_t mixed = {0};
    double threads_saved = 0, threads_cost = 0;
    if (threads) {
        double after = cp * (1 - (thread_gain > 0 ? thread_gain : 0));
        if (plan_with(d, &d->params, r, &in, to_node, after, &mixed, in.other) != 0)
            goto out;
        uint64_t nmoves = 0, ns = 0;
        rt_affinity_totals(&nmoves, &ns);
        threads_cost = nmoves ? (double)moved * (double)ns / (double)nmoves / 1e3 : 0.0;
        threads_saved = (thread_gain > 0 ? thread_gain : 0) * cp / 1e3 * d->params.executions;
        if (mixed.enough) {
            threads_saved += mixed.worst_saved_us;
            threads_cost += mixed.cost_us;
        }
    }
    const pl_data_action_t *act = in.act;
    if (!must && pl_data_prefer(&d->plan, threads_saved, threads_cost)) {
        rc = RT_DATA_ALONE;
    } else if (threads && mixed.enough) {
        rc = RT_DATA_WITH;
        d->plan = mixed;
        d->params.cp_ns = cp * (1 - (thread_gain > 0 ? thread_gain : 0));
        d->with_threads = 1;
        act = in.other;
    } else {
        d->state = ST_DECLINED;
        declined(d, d->plan.enough);
        rt_verbose(1, "region %d: the data stays: %s", r->id, d->why);
        goto out;
    }
    if (!rt_affinity_applies()) {
        record_dry_run(d, r);
        goto out;
    }
    forget_moves(d);
    if (!apply(d, act, d->plan.nactions)) {
        undo_all(d);
        d->state = ST_FAILED;
        snprintf(d->why, sizeof d->why, "no page moved (%s)", d->nmoves ? strerror(d->moves[0].err) : "out of memory");
        rc = RT_DATA_NONE;
        goto out;
    }
    d->state = ST_VERIFYING;
    rt_verbose(1, "region %d: data%s: %d ranges, %llu pages moved (%llu stayed) in %.1f ms (predicted %.0f pages, "
               "%.1f ms; %.0f %% faster, %.0f %% at worst)", r->id, d->with_threads ? ", with the threads" : "",
               d->nmoves, (unsigned long long)d->moved, (unsigned long long)d->failed, d->move_ms, d->plan.pages,
               d->plan.cost_us / 1e3, 100 * d->plan.gain, 100 * d->plan.worst);
out:
    inputs_free(&in);
    return rc;
}

double rt_data_promise(const rt_region_t *r)
{
    data_t *d = get(r, 0);
    if (!d || !d->log.n || d->state == ST_VERIFYING)
        return 0;
    inputs_t in;
    if (inputs_take(&in, d, r) != 0)
        return 0;
    /* The gain alone: any positive critical path, MaMI's line (no trial). */
    pl_move_cost_t line;
    pl_move_cost_default(&line);
    pl_data_params_t p = plan_params(d, r, &line, 1e6);
    pl_data_plan_t plan = {0};
    double gain = plan_with(d, &p, r, &in, in.thread_node, p.cp_ns, &plan, in.act) == 0 ? plan.gain : 0;
    inputs_free(&in);
    return gain;
}

int rt_data_wants_more(const rt_region_t *r)
{
    const data_t *d = get(r, 0);
    const pl_data_plan_t *p = d ? &d->plan : NULL;
    return p && d->state == ST_DECLINED && p->candidates && p->gain >= PL_DATA_PROMISE_GAIN && !(p->worst > 0);
}

int rt_data_verified(rt_region_t *r, double before_ns, double after_ns)
{
    data_t *d = get(r, 0);
    if (!d || d->state != ST_VERIFYING)
        return 0;
    int alone = !d->with_threads;
    d->cp_before = before_ns;
    d->cp_after = after_ns;
    if (after_ns < before_ns) {
        d->state = ST_KEPT;
        for (int i = 0; i < d->nmoves; i++) /* kept: nothing will go back */
            rt_mem_undo_free(&d->moves[i].undo);
        rt_verbose(1, "region %d: critical path %.0f ns -> %.0f ns after the data moved; kept", r->id, d->cp_before,
                   d->cp_after);
        return alone;
    }
    undo_all(d);
    d->state = ST_UNDONE;
    rt_verbose(1, "region %d: critical path %.0f ns after the data moved, %.0f ns before: not faster; %llu pages "
               "back in %.1f ms", r->id, d->cp_after, d->cp_before, (unsigned long long)d->back, d->undo_ms);
    return alone;
}

/* ---- the report ---- */

static void json_hex(FILE *f, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%#llx", (unsigned long long)v);
    rt_json_string(f, buf);
}

static void json_nodes(FILE *f, uint64_t mask)
{
    fputc('[', f);
    for (int k = 0, first = 1; k < 64; k++)
        if ((mask >> k) & 1) {
            fprintf(f, "%s%d", first ? "" : ",", k);
            first = 0;
        }
    fputc(']', f);
}

void rt_data_report_json(FILE *f, const rt_region_t *r)
{
    const data_t *d = get(r, 0);
    if (!d || !d->decisions) {
        fputs("null", f);
        return;
    }
    const pl_data_plan_t *p = &d->plan;
    fprintf(f, "{\"state\":\"%s\",\"why\":", state_names[d->state]);
    if (d->why[0])
        rt_json_string(f, d->why);
    else
        fputs("null", f);
    fprintf(f, ",\"samples\":%llu,\"dropped\":%llu,\"spacing\":%llu,\"kernel_balancing\":%s,\"line\":",
            (unsigned long long)d->logged, (unsigned long long)d->dropped, (unsigned long long)d->params.bridge_bytes,
            d->params.no_migrate ? "true" : "false");
    rt_json_string(f, d->line);
    fprintf(f, ",\"plan\":{\"samples\":%llu,\"remote\":%llu,\"candidates\":%d,\"ranges\":%d,\"gain\":%.6g,"
            "\"worst\":%.6g,\"critical_path_ns\":%.0f,\"executions\":%.0f,\"saved_ms\":%.6g,\"worst_saved_ms\":%.6g,"
            "\"cost_ms\":%.6g,\"pages\":%.0f,\"enough\":%s,\"threads_gain\":%.6g,\"with_threads\":%s}",
            (unsigned long long)p->samples, (unsigned long long)p->remote, p->candidates, p->nactions, p->gain,
            p->worst, d->params.cp_ns, d->params.executions, p->saved_us / 1e3, p->worst_saved_us / 1e3,
            p->cost_us / 1e3, p->pages, p->enough ? "true" : "false", d->thread_gain, d->with_threads ? "true" : "false");
    fprintf(f, ",\"moves\":[");
    for (int i = 0; i < d->nmoves; i++) {
        const move_t *m = &d->moves[i];
        fprintf(f, "%s{\"kind\":\"%s\",\"address\":", i ? "," : "", pl_data_kind_name(m->act.kind));
        json_hex(f, m->act.lo);
        fprintf(f, ",\"bytes\":%llu,\"nodes\":", (unsigned long long)(m->act.hi - m->act.lo));
        json_nodes(f, m->act.nodes);
        fprintf(f, ",\"shared\":%s,\"samples\":%llu,\"remote\":%llu,\"predicted_pages\":%.0f,\"predicted_ms\":%.6g,"
                "\"pages\":%llu,\"stayed\":%llu,\"ms\":%.6g,\"back\":%llu,\"undo_ms\":%.6g,\"error\":",
                m->act.shared ? "true" : "false", (unsigned long long)m->act.samples, (unsigned long long)m->act.remote,
                m->act.pages, m->act.cost_us / 1e3, (unsigned long long)m->undo.moved,
                (unsigned long long)m->undo.failed, m->undo.move_ms, (unsigned long long)m->undo.back,
                m->undo.undo_ms);
        if (m->err)
            rt_json_string(f, strerror(m->err));
        else
            fputs("null", f);
        fputc('}', f);
    }
    fprintf(f, "],\"pages\":%llu,\"ms\":%.6g,\"back\":%llu,\"undo_ms\":%.6g,\"verified\":",
            (unsigned long long)d->moved, d->move_ms, (unsigned long long)d->back, d->undo_ms);
    if (d->state == ST_KEPT || d->state == ST_UNDONE)
        fprintf(f, "{\"before_ns\":%.0f,\"after_ns\":%.0f}", d->cp_before, d->cp_after);
    else
        fputs("null", f);
    fprintf(f, ",\"remote\":%llu,\"memory\":[", (unsigned long long)d->remote_total);
    for (int i = 0; i < d->nmem; i++) {
        const memory_t *m = &d->mem[i];
        fprintf(f, "%s{\"name\":", i ? "," : "");
        rt_json_string(f, m->name);
        fprintf(f, ",\"symbol\":%s,\"address\":", m->symbol ? "true" : "false");
        json_hex(f, m->lo);
        fprintf(f, ",\"bytes\":%llu,\"samples\":%llu,\"remote\":%llu,\"share\":%.4f,\"node\":%d,\"first_touch\":",
                (unsigned long long)(m->hi - m->lo), (unsigned long long)m->samples, (unsigned long long)m->remote,
                d->remote_total ? (double)m->remote / (double)d->remote_total : 0.0, m->node);
        if (m->origin.sampled) {
            fputs("{\"at\":", f);
            rt_json_string(f, m->origin_at);
            fputs(",\"line\":", f);
            if (m->origin_line[0])
                rt_json_string(f, m->origin_line);
            else
                fputs("null", f);
            fprintf(f, ",\"initial_thread\":%s,\"threads\":%d,\"pages\":%llu,\"sampled\":%llu}",
                    m->origin.initial ? "true" : "false", m->origin.threads, (unsigned long long)m->origin.pages,
                    (unsigned long long)m->origin.sampled);
        } else {
            fputs("null", f);
        }
        fputc('}', f);
    }
    fprintf(f, "],\"other_remote\":%llu}", (unsigned long long)d->other_remote);
}

static double mib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0);
}

void rt_data_report_text(FILE *f, const rt_region_t *r)
{
    const data_t *d = get(r, 0);
    if (!d || !d->decisions)
        return;
    const pl_data_plan_t *p = &d->plan;
    if (d->state == ST_DECLINED || d->state == ST_FAILED)
        fprintf(f, "ompnuma: %3s data: stays: %s\n", "", d->why);
    else
        fprintf(f, "ompnuma: %3s data%s: %s: %d ranges, %llu pages moved in %.1f ms (predicted %.0f pages, %.1f ms; "
                "%.0f %% faster, %.0f %% at worst)%s\n", "", d->with_threads ? " (with the threads)" : "",
                state_names[d->state], p->nactions,
                (unsigned long long)d->moved, d->move_ms, p->pages, p->cost_us / 1e3, 100 * p->gain, 100 * p->worst,
                d->state == ST_UNDONE ? ", not faster: undone" : "");
    if (d->state == ST_KEPT || d->state == ST_UNDONE)
        fprintf(f, "ompnuma: %3s   critical path %.1f us before, %.1f us after%s\n", "", d->cp_before / 1e3,
                d->cp_after / 1e3, d->state == ST_UNDONE ? "; pages back" : "");
    for (int i = 0; i < d->nmoves; i++) {
        const move_t *m = &d->moves[i];
        fprintf(f, "ompnuma: %3s   %s %#llx (%.1f MiB) to node%s", "", pl_data_kind_name(m->act.kind),
                (unsigned long long)m->act.lo, mib(m->act.hi - m->act.lo), m->act.kind == PL_DATA_MIGRATE ? "" : "s");
        for (int k = 0, first = 1; k < 64; k++)
            if ((m->act.nodes >> k) & 1) {
                fprintf(f, "%s%d", first ? " " : ",", k);
                first = 0;
            }
        fprintf(f, ": %llu pages in %.1f ms (predicted %.0f, %.1f ms)", (unsigned long long)m->undo.moved,
                m->undo.move_ms, m->act.pages, m->act.cost_us / 1e3);
        if (d->state == ST_UNDONE)
            fprintf(f, "; %llu back in %.1f ms", (unsigned long long)m->undo.back, m->undo.undo_ms);
        fputc('\n', f);
    }
    for (int i = 0; i < d->nmem; i++) {
        const memory_t *m = &d->mem[i];
        fprintf(f, "ompnuma: %3s %s %s %.1f MiB at %#llx (mostly node %d): %.0f %% of %llu remote references\n",
                "", i ? "                     " : "remote references in:", m->name, mib(m->hi - m->lo),
                (unsigned long long)m->lo, m->node, d->remote_total ? 100.0 * (double)m->remote / (double)d->remote_total : 0.0,
                (unsigned long long)d->remote_total);
        if (!m->origin.sampled)
            continue;
        char by[48];
        if (m->origin.threads > 1)
            snprintf(by, sizeof by, "%d threads", m->origin.threads);
        else
            snprintf(by, sizeof by, "%s", m->origin.initial ? "the initial thread" : "a thread it created");
        fprintf(f, "ompnuma: %3s                        first touched by %s in %s%s%s%s: %llu of %llu sampled pages\n",
                "", by, m->origin_at, m->origin_line[0] ? " (" : "", m->origin_line, m->origin_line[0] ? ")" : "",
                (unsigned long long)m->origin.pages, (unsigned long long)m->origin.sampled);
    }
}

/* ---- recording first touches for the report ---- */

void rt_data_preload(void)
{
    /* Only where a report or the log may name memory: a placement policy
     * with data placement, asked for a report, a source that may log
     * addresses (auto takes perf where a PMU has them), from the initial
     * thread before it creates others (they inherit the recorder). */
    if (rt_conf->mode == RT_MODE_OFF || !rt_conf->data ||
        (rt_conf->report == RT_REPORT_NONE && rt_log_verbosity < 1) ||
        (rt_conf->source != RT_SOURCE_AUTO && rt_conf->source != RT_SOURCE_PERF &&
         rt_conf->source != RT_SOURCE_PAGEFAULT) ||
        !rt_task_initial() || __atomic_exchange_n(&origin_tried, 1, __ATOMIC_ACQ_REL))
        return;
    rt_origin_start(origin_why, sizeof origin_why);
}

void rt_data_init(void)
{
    if (rt_origin_on() && (rt_conf->mode == RT_MODE_OFF || !rt_counters_addresses() || rt_mach->topo.nnodes < 2)) {
        rt_origin_stop(); /* no memory will be named */
        return;
    }
    if (rt_origin_on())
        rt_verbose(1, "first touches: recorded (the kernel's software page-fault event, one fault in %d)",
                   RT_ORIGIN_PERIOD);
    else if (__atomic_load_n(&origin_tried, __ATOMIC_ACQUIRE) && rt_counters_addresses())
        rt_verbose(1, "first touches: not recorded: %s", origin_why);
}
