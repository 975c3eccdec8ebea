/* rt_mpimap.c: the MPI mapper thread (OnDeLoc-MPI): reads the ranks' rows, decides with OnDeLocMap+, publishes nodes, adapts the interval, writes the matrix and the timeline. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pl.h"
#include "process/pl_process.h"
#include "rt_affinity.h"
#include "rt_core.h"
#include "rt_fault.h"
#include "rt_log.h"
#include "rt_migrate.h"
#include "rt_mpimap.h"
#include "rt_procfs.h"
#include "rt_settings.h"
#include "rt_topology.h"
#include "rt_util.h"

/* The mapper's log, on stderr: OMP_PLACEMENT_MPI's verbose asks for it
 * (OMP_PLACEMENT_VERBOSE is the OpenMP side's). */
#define say(...)                                                                                    \
    do {                                                                                            \
        if (rt_conf->mpi.verbose)                                                                   \
            rt_verbose(0, __VA_ARGS__);                                                             \
    } while (0)

/* ---------------------------------------------------------- the rank's side */

int rt_mpimap_apply(rt_mpi_row_t *row)
{
    uint32_t e1 = atomic_load_explicit(&row->epoch, memory_order_acquire);
    if (e1 == 0 || (e1 & 1) || e1 == atomic_load_explicit(&row->applied_epoch, memory_order_relaxed))
        return 0;
    int node = atomic_load_explicit(&row->node, memory_order_relaxed);
    int os_node = atomic_load_explicit(&row->os_node, memory_order_relaxed);
    int dry = atomic_load_explicit(&row->dry_run, memory_order_relaxed);
    cpu_set_t set;
    CPU_ZERO(&set);
    int any = 0;
    for (int w = 0; w < RT_MPISHM_MASK_WORDS; w++) {
        uint64_t bits = atomic_load_explicit(&row->cpumask[w], memory_order_relaxed);
        for (int b = 0; b < 64; b++)
            if (bits >> b & 1) {
                if (w * 64 + b < CPU_SETSIZE)
                    CPU_SET(w * 64 + b, &set);
                any = 1;
            }
    }
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&row->epoch, memory_order_relaxed) != e1)
        return 0; /* the mapper is publishing again: take the next one */
    int failed = 0, threads;
    long pages = (long)atomic_load_explicit(&row->applied_pages, memory_order_relaxed); /* the last move's */
    if (!any) {
        threads = 0;
    } else {
        threads = rt_affinity_allot(&set, dry, &failed);
        if (threads < 0)
            threads = 0;
        /* The memory moves only when the rank's node changed: a new share
         * of the same node (another rank came or left) moves threads only,
         * and what the rank allocated since its last move is on the node
         * already (first touch by its threads there). */
        if (!dry && os_node >= 0
            && atomic_load_explicit(&row->migrated_to, memory_order_relaxed) != os_node + 1) {
            /* What the move costs, for the report and verbose: its time and
             * the pages the host migrated meanwhile (host-wide: ranks that
             * move at the same time count each other's pages too). */
            int64_t v0 = rt_vmstat_counter("pgmigrate_success");
            int64_t anon = rt_procfs_anon_pages(0);
            uint64_t t0 = rt_now_ns();
            pages = rt_migrate_own_pages(os_node);
            int err = errno;
            uint64_t ns = rt_now_ns() - t0;
            int64_t v1 = rt_vmstat_counter("pgmigrate_success");
            uint64_t moved = v0 >= 0 && v1 >= v0 ? (uint64_t)(v1 - v0) : 0;
            atomic_fetch_add_explicit(&row->migrate_calls, 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&row->migrate_ns, ns, memory_order_relaxed);
            atomic_fetch_add_explicit(&row->migrate_moved, moved, memory_order_relaxed);
            if (anon > 0)
                atomic_fetch_add_explicit(&row->migrate_anon, (uint64_t)anon, memory_order_relaxed);
            if (pages >= 0) {
                atomic_store_explicit(&row->migrated_to, os_node + 1, memory_order_relaxed);
                say("mpi: rank %d moved its memory to node %d: %.2f ms, %llu pages migrated on the "
                    "host meanwhile, %ld left",
                    (int)row->world_rank, os_node, (double)ns / 1e6, (unsigned long long)moved, pages);
            } else {
                say("mpi: rank %d could not move its memory to node %d: %s", (int)row->world_rank,
                    os_node, strerror(err));
            }
        }
    }
    atomic_store_explicit(&row->applied_node, node, memory_order_relaxed);
    atomic_store_explicit(&row->applied_threads, threads, memory_order_relaxed);
    atomic_store_explicit(&row->applied_failed, failed, memory_order_relaxed);
    atomic_store_explicit(&row->applied_pages, pages, memory_order_relaxed);
    atomic_fetch_add_explicit(&row->applied_count, 1, memory_order_relaxed);
    atomic_store_explicit(&row->applied_epoch, e1, memory_order_release);
    return 1;
}

/* ------------------------------------------------------------------ mapper */

typedef struct remap {
    double   t_ms;        /* since the mapper started */
    double   interval_ms; /* the interval that ended here */
    double   next_ms;     /* the interval chosen after it */
    uint64_t bytes;       /* traffic between this host's ranks in the interval */
    int      moved;       /* ranks whose node changed */
    int      first;       /* offset of this decision's nodes in the node pool */
} remap_t;

struct rt_mpimap {
    rt_mpimap_config_t cfg;       /* local_world and host point at the copies below */
    int           *world;         /* [n] the local ranks' world ranks */
    char           host[256];
    rt_topo_t      topo;          /* OMP_PLACEMENT_MPI's topology, this machine by default */
    int            topo_loaded;
    rt_mpi_row_t **rows;          /* [n] the local ranks' rows, mapped */
    pl_topo_t      pt;
    int            n;             /* local ranks */
    uint64_t      *last;          /* [n * n] cumulative bytes at the last decision */
    uint64_t      *delta;         /* [n * n] the interval's bytes */
    uint64_t      *probe_last;    /* [n * n] cumulative bytes at the last probe */
    uint64_t      *probe_delta;   /* [n * n] the probe window's bytes */
    uint64_t      *drift_delta;   /* [n * n] the previous probe's window, when it had drifted */
    int            drifting;      /* the previous probe's window had drifted */
    double         decided_share; /* on-node share the mapping kept of the matrix it was decided on */
    double         decided_rate;  /* bytes per ms new windows are weighed against (pl_ondeloc_reference) */
    int            early;         /* decisions taken at a probe: the traffic had left the mapping */
    int           *prev, *prev_core, *node, *core;
    int           *start;         /* [n] the node each rank was bound to at start, -1 unknown */
    int           *slots;         /* [nnodes] ranks a node holds: its cores / width (pt.capacity) */
    int            width;         /* cores each rank was bound to at start (hybrid ranks: > 1) */
    int           *published;     /* [n] whether the last decision bound rank i anew */
    pl_ondeloc_rule_t *why;
    void          *work;
    size_t         work_bytes;
    int            have_prev;
    int            decisions, changes, errors;
    int            held;          /* new mappings not taken: below min_gain */
    int            held_thin;     /* of those, held for their window's thin volume alone */
    int            held_cost;     /* new mappings not taken: their memory moves over the budget */
    double         trial_ns;      /* a page move's price from rt_migrate_page_ns: 0 not yet, < 0 failed */
    double         interval_ms;
    remap_t       *tl;            /* every decision that changed the mapping */
    int            ntl, captl;
    int           *pool;          /* nodes of those decisions */
    size_t         npool, cappool;
    int            dropped;       /* remaps not kept (memory) */
    uint64_t       idle_intervals;
    int            bindings_fd;   /* -1 none */
    int            dry_run;
    struct timespec t0;
    pthread_t      thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int            stop;
    int            started;
};

static double ms_between(const struct timespec *t0, const struct timespec *t)
{
    return (double)(t->tv_sec - t0->tv_sec) * 1e3 + (double)(t->tv_nsec - t0->tv_nsec) / 1e6;
}

static double since_ms(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return ms_between(t0, &t);
}

/*
 * Rank i's share of its node: the ranks the decision put on one node split
 * its CPUs in slot order (pl_ondeloc_map's core[], ties by rank): one
 * contiguous block each when they fit, one CPU each (shared in turn) when
 * the node has fewer CPUs than ranks. Ranks on one node then do not share
 * CPUs (two busy ranks allowed on the same CPUs can end up on one, each
 * waiting for the other's time slice), and a rank alone on its node gets
 * all of it, where its OpenMP team spreads.
 */
static void share(const rt_mpimap_t *m, int i, uint64_t mask[RT_MPISHM_MASK_WORDS])
{
    const rt_topo_t *t = &m->topo;
    int d = m->node[i], cap = t->capacity[d], cnt = 0, pos = 0;
    for (int j = 0; j < m->n; j++)
        if (m->node[j] == d) {
            cnt++;
            pos += m->core[j] < m->core[i] || (m->core[j] == m->core[i] && j < i);
        }
    memset(mask, 0, sizeof(uint64_t) * RT_MPISHM_MASK_WORDS);
    if (cap <= 0)
        return;
    int lo = cnt <= cap ? pos * cap / cnt : pos % cap;
    int hi = cnt <= cap ? (pos + 1) * cap / cnt : lo + 1;
    for (int c = lo; c < hi; c++) {
        int cpu = t->cpus[d][c];
        if (cpu >= 0 && cpu < 64 * RT_MPISHM_MASK_WORDS)
            mask[cpu / 64] |= 1ULL << (cpu % 64);
    }
}

/* "[././.][B/./.]": one bracket per node, B for the rank's CPUs. */
static void core_map(const rt_topo_t *t, const uint64_t *mask, char *buf, size_t len)
{
    size_t o = 0;
    for (int d = 0; d < t->nnodes && o + 8 < len; d++) {
        buf[o++] = '[';
        for (int c = 0; c < t->capacity[d] && o + 4 < len; c++) {
            int cpu = t->cpus[d][c];
            if (c)
                buf[o++] = '/';
            buf[o++] = cpu >= 0 && cpu < 64 * RT_MPISHM_MASK_WORDS && (mask[cpu / 64] >> (cpu % 64) & 1) ? 'B' : '.';
        }
        buf[o++] = ']';
    }
    buf[o] = 0;
}

static void binding_line(rt_mpimap_t *m, int i, int was)
{
    char cores[512], line[1024];
    uint64_t mask[RT_MPISHM_MASK_WORDS];
    share(m, i, mask);
    core_map(&m->topo, mask, cores, sizeof cores);
    char wasbuf[32] = "";
    if (was >= 0)
        snprintf(wasbuf, sizeof wasbuf, ", was node %d", was);
    int k = snprintf(line, sizeof line, "[%s:%d] MCW rank %d bound to NUMA node %d: %s (remap %d%s%s)\n",
                     m->cfg.host, (int)m->rows[i]->creator_pid, m->cfg.local_world[i], m->node[i],
                     cores, m->changes, wasbuf, m->dry_run ? ", dry run" : "");
    if (k < 0)
        return;
    size_t len = (size_t)k < sizeof line ? (size_t)k : sizeof line - 1;
    if (m->bindings_fd >= 0 && write(m->bindings_fd, line, len) != (ssize_t)len && m->bindings_fd != STDERR_FILENO) {
        /* A full disk, /dev/full, a reader gone: said once, the file given up. */
        rt_warn("OMP_PLACEMENT_MPI: bindings=%s cannot be written (%s); using none", rt_conf->mpi.bindings,
                strerror(errno));
        close(m->bindings_fd);
        m->bindings_fd = -1;
    }
    if (rt_conf->mpi.verbose && m->bindings_fd != STDERR_FILENO) {
        ssize_t w = write(STDERR_FILENO, line, len);
        (void)w;
    }
}

/* Publish node[i] and its share to rank i's row (a seqlock write: odd
 * epoch while writing), when either changed. Returns 1 when published. */
static int publish(rt_mpimap_t *m, int i)
{
    rt_mpi_row_t *r = m->rows[i];
    const rt_topo_t *t = &m->topo;
    int d = m->node[i];
    uint64_t mask[RT_MPISHM_MASK_WORDS];
    share(m, i, mask);
    int same = m->have_prev && m->prev[i] == d; /* only the mapper writes the target */
    for (int w = 0; w < RT_MPISHM_MASK_WORDS && same; w++)
        same = atomic_load_explicit(&r->cpumask[w], memory_order_relaxed) == mask[w];
    if (same)
        return 0;
    atomic_fetch_add_explicit(&r->epoch, 1, memory_order_acq_rel); /* odd: writing */
    atomic_store_explicit(&r->node, d, memory_order_relaxed);
    atomic_store_explicit(&r->os_node, !m->dry_run && t->nnodes > 1 ? t->os_index[d] : -1,
                          memory_order_relaxed);
    atomic_store_explicit(&r->dry_run, m->dry_run, memory_order_relaxed);
    for (int w = 0; w < RT_MPISHM_MASK_WORDS; w++)
        atomic_store_explicit(&r->cpumask[w], mask[w], memory_order_relaxed);
    atomic_fetch_add_explicit(&r->epoch, 1, memory_order_release); /* even: ready */
    return 1;
}

static void remember(rt_mpimap_t *m, const remap_t *e)
{
    if (m->ntl == m->captl || m->npool + (size_t)m->n > m->cappool) {
        int cap = m->captl ? 2 * m->captl : 16;
        size_t cp = (size_t)cap * (size_t)m->n;
        remap_t *tl = cap <= 100000 ? realloc(m->tl, sizeof *tl * (size_t)cap) : NULL;
        if (tl)
            m->tl = tl;
        int *pool = tl ? realloc(m->pool, sizeof *pool * cp) : NULL;
        if (!tl || !pool) {
            m->dropped++;
            return;
        }
        m->pool = pool;
        m->captl = cap;
        m->cappool = cp;
    }
    m->tl[m->ntl] = *e;
    m->tl[m->ntl].first = (int)m->npool;
    memcpy(m->pool + m->npool, m->node, sizeof(int) * (size_t)m->n);
    m->npool += (size_t)m->n;
    m->ntl++;
}

/* The bytes each pair sent since *last was read (delta, the rank's own cells
 * 0), *last brought up to date; the total. */
static uint64_t read_rows(rt_mpimap_t *m, uint64_t *last, uint64_t *delta)
{
    int n = m->n;
    uint64_t vol = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            uint64_t cur = atomic_load_explicit(&m->rows[i]->cell[m->cfg.local_world[j]].bytes,
                                                memory_order_relaxed);
            size_t k = (size_t)i * n + j;
            delta[k] = i == j ? 0 : cur - last[k];
            last[k] = cur;
            vol += delta[k];
        }
    return vol;
}

/*
 * Whether the memory moves of the new mapping in m->node fit the budget:
 * every move so far and these together may cost at most `budget` % of the
 * run so far (the mapper's time since it started). OnDeLocMap+ weighs only
 * the traffic; in a short run a rank's memory move can cost more than the
 * rest of the run gains (the paced 4-node VM: 7-10 s a rank in a 40 s run).
 *
 * A rank's move is priced when its node changes and its memory is not on
 * the new node already (it moved there before, or started there): its
 * resident anonymous pages, which migrate_pages walks and copies, at the
 * price a page took in this host's earlier moves (their time over the
 * pages the moving ranks had), or before any at a trial's
 * (rt_migrate_page_ns, once). Moves are summed, though ranks move in
 * parallel: each rank's move stalls it and whoever waits for its messages.
 * A dry run moves no memory, and a price that cannot be measured (the
 * trial failed: a node without memory) holds nothing.
 */
static int affordable(rt_mpimap_t *m)
{
    const rt_topo_t *t = &m->topo;
    double budget = rt_conf->mpi.budget;
    if (budget <= 0 || m->dry_run || t->nnodes < 2 || !t->this_system)
        return 1;
    int64_t pages = 0;
    int ranks = 0;
    for (int i = 0; i < m->n; i++) {
        int os = t->os_index[m->node[i]];
        if ((m->have_prev && m->prev[i] == m->node[i])
            || atomic_load_explicit(&m->rows[i]->migrated_to, memory_order_relaxed) == os + 1)
            continue;
        int64_t a = rt_procfs_anon_pages(m->rows[i]->creator_pid);
        pages += a > 0 ? a : 0;
        ranks++;
    }
    if (!pages)
        return 1;
    uint64_t spent = 0, anon = 0;
    for (int i = 0; i < m->n; i++) {
        spent += atomic_load_explicit(&m->rows[i]->migrate_ns, memory_order_relaxed);
        anon += atomic_load_explicit(&m->rows[i]->migrate_anon, memory_order_relaxed);
    }
    double per_page = anon ? (double)spent / (double)anon : 0;
    const char *from = "this host's moves";
    if (!anon) {
        if (m->trial_ns == 0) {
            m->trial_ns = rt_migrate_page_ns(t->os_index[0], t->os_index[1]);
            if (m->trial_ns < 0)
                say("mpi: moving a page cannot be priced on %s (%s): remaps are not held for cost",
                    m->cfg.host, strerror(errno));
        }
        per_page = m->trial_ns;
        from = "a trial";
    }
    if (per_page <= 0)
        return 1;
    double cost = per_page * (double)pages, run = since_ms(&m->t0) * 1e6;
    if (pl_budget_fits(spent, (uint64_t)cost, (uint64_t)run, budget, 0))
        return 1;
    say("mpi: kept the mapping on %s: moving %d ranks' memory (%lld pages at %.1f us each, the "
        "price %s measured) would cost about %.0f ms, over the budget of %.1f ms (%g %% of the "
        "%.0f ms run so far, %.1f ms spent)", m->cfg.host, ranks, (long long)pages, per_page / 1e3,
        from, cost / 1e6, run * budget / 100 / 1e6, budget, run / 1e6, (double)spent / 1e6);
    return 0;
}

/* One decision on the traffic since the last one (window NULL: the whole
 * interval) or on a probe's window (the traffic left the mapping): decide,
 * publish, adapt the interval. used: the interval it ends; span_ms: the
 * time the traffic decided on took (the windows' own at a probe). */
static void step(rt_mpimap_t *m, const uint64_t *window, double used, double span_ms)
{
    int n = m->n;
    uint64_t vol = read_rows(m, m->last, m->delta); /* read in any case: the next interval counts from now */
    if (window) {
        vol = 0;
        for (size_t k = 0; k < (size_t)n * n; k++)
            vol += m->delta[k] = window[k];
    }
    if (vol == 0) {
        /* Nothing to learn from: keep the mapping and the interval. */
        m->idle_intervals++;
        return;
    }
    pl_comm_matrix_t cm = { n, m->delta };
    pl_mapping_t out = { n, m->node, m->core };
    int moved = pl_ondeloc_map(&m->pt, &cm, m->have_prev ? m->prev : NULL, &out, m->why, m->work,
                               m->work_bytes);
    if (moved < 0) {
        if (!m->errors++)
            rt_warn("OMP_PLACEMENT_MPI: the mapper cannot decide on this topology (%s); keeping "
                    "the current mapping", strerror(-moved));
        return;
    }
    /* A new mapping that keeps hardly more of the traffic on-node than the
     * current one is not worth its moves (all-to-all: any pairing keeps
     * about the same share, and the heaviest pair is the interval's noise),
     * nor one decided on a window of a fraction of the traffic the current
     * one was decided on: that fraction of the evidence (pl_ondeloc_worth). */
    double rate = span_ms > 0 ? (double)vol / span_ms : 0;
    double now_share = moved > 0 && m->have_prev ? pl_ondeloc_local_share(&cm, m->prev) : 0;
    double new_share = moved > 0 && m->have_prev ? pl_ondeloc_local_share(&cm, m->node) : 0;
    double min_gain = rt_conf->mpi.min_gain;
    int for_volume = 0; /* held although its share gained min_gain: its window was thin */
    if (moved > 0 && m->have_prev && pl_ondeloc_worth(new_share - now_share, rate, m->decided_rate, min_gain) != 1) {
        for_volume = new_share - now_share >= min_gain;
        if (for_volume)
            say("mpi: kept the mapping on %s: a new one would keep %.3f of the traffic on-node instead of "
                "%.3f, in a window of %.0f bytes/ms against the %.0f the mapping was decided on (min_gain %g "
                "weighed by volume)", m->cfg.host, new_share, now_share, rate, m->decided_rate, min_gain);
        else
            say("mpi: kept the mapping on %s: a new one would keep %.3f of the traffic on-node "
                "instead of %.3f (min_gain %g)", m->cfg.host, new_share, now_share, min_gain);
        memcpy(m->node, m->prev, sizeof(int) * (size_t)n);
        memcpy(m->core, m->prev_core, sizeof(int) * (size_t)n);
        moved = 0;
        m->held++;
        m->held_thin += for_volume;
    }
    pl_ondeloc_interval_t rule = { rt_conf->mpi.v, rt_conf->mpi.min_interval_ms,
                                   rt_conf->mpi.max_interval_ms };
    double next = used;
    if (moved > 0 && !affordable(m)) {
        m->held_cost++;
        if (!m->have_prev) {
            /* Nothing bound yet: the ranks stay where they run, and a later
             * interval, of a longer run, decides again. */
            m->decisions++;
            pl_ondeloc_next_interval(&rule, used, 0, &next);
            m->interval_ms = next;
            return;
        }
        memcpy(m->node, m->prev, sizeof(int) * (size_t)n);
        memcpy(m->core, m->prev_core, sizeof(int) * (size_t)n);
        moved = 0;
    }
    m->decisions++;
    /* A thin window kept the mapping: it says little of the traffic the
     * mapping serves, and a probe must still see the next phase drift from
     * what the mapping kept of its own. */
    if (moved > 0 || pl_ondeloc_thin(rate, m->decided_rate) != 1)
        m->decided_share = pl_ondeloc_local_share(&cm, m->node);
    m->decided_rate = pl_ondeloc_reference(rate, m->decided_rate, moved > 0);
    /* A probe that kept the mapping (its window straddled the change, or
     * the new traffic has no better mapping) is not a full interval of a
     * stable mapping: the interval stays. */
    if (!window || moved > 0)
        pl_ondeloc_next_interval(&rule, used, moved > 0, &next);
    /* Every rank whose node or share of it changed: a rank that kept its
     * node may get another share when the node's other ranks changed, and
     * the first decision binds ranks that kept their start nodes to their
     * shares. Each decision that bound a rank anew is a remap. */
    int published = 0;
    for (int i = 0; i < n; i++)
        published += m->published[i] = publish(m, i);
    if (published > 0) {
        m->changes++;
        if (rt_conf->mpi.verbose) {
            char nodes[512];
            size_t o = 0;
            for (int i = 0; i < n && o + 12 < sizeof nodes; i++)
                o += (size_t)snprintf(nodes + o, sizeof nodes - o, "%s%d", i ? " " : "", m->node[i]);
            say("mpi: remap %d on %s after %.0f ms: nodes %s (%d moved, %llu bytes, "
                "next interval %g ms)%s%s", m->changes, m->cfg.host, used, nodes, moved,
                (unsigned long long)vol, next, window ? " at a probe" : "",
                m->dry_run ? " dry run" : "");
        }
        for (int i = 0; i < n; i++)
            if (m->published[i] && (m->bindings_fd >= 0 || rt_conf->mpi.verbose))
                binding_line(m, i, m->have_prev && m->prev[i] != m->node[i] ? m->prev[i] : -1);
        remap_t e = { since_ms(&m->t0), used, next, vol, moved, 0 };
        remember(m, &e);
    }
    memcpy(m->prev, m->node, sizeof(int) * (size_t)n);
    memcpy(m->prev_core, m->core, sizeof(int) * (size_t)n);
    m->have_prev = 1;
    m->interval_ms = next;
}

/*
 * The ranks' start nodes as their previous mapping (OnDeLocMap+): the node
 * holding every CPU a rank is bound to when the mapper starts (mpirun's
 * --bind-to core or numa), unknown when its CPUs span nodes (--bind-to
 * none). The first decision then keeps pairs the binding already put
 * together and moves one rank of a split pair, and the min_gain rule
 * compares a new mapping with the binding's. Only on this machine's
 * topology (a synthetic one's CPUs are not the ranks'). A rank bound to one
 * node first-touched its memory there: its row records that node as where
 * its memory is, so that staying there later moves no memory (the mapper
 * writes migrated_to here, before its first publish; the rank afterwards).
 *
 * Hybrid ranks, each bound to several CPUs (mpirun's --map-by slot:PE=T for
 * an OpenMP team of T), keep as many: a node holds its cores / width of
 * them (slots, the policy's capacity), width the fewest CPUs a rank was
 * bound to. Placed a core a rank, pairs of 2-thread ranks shared the 2
 * cores of a node, each team on one core: paced, ondeloc ran 1.5x `core`
 * (4 ranks on 4 nodes of 2 cores). When the slots cannot hold every rank,
 * a core a rank as before.
 */
static void seed_start(rt_mpimap_t *m, int *cpus, int *slot)
{
    const rt_topo_t *t = &m->topo;
    int n = m->n, nn = t->nnodes, least = 0;
    for (int i = 0; i < n; i++)
        m->start[i] = -1;
    if (!t->this_system)
        return;
    for (int i = 0; i < n; i++) {
        cpu_set_t set;
        int *row = cpus + (size_t)i * nn, counted = 0;
        slot[i] = -1;
        if (sched_getaffinity(m->rows[i]->creator_pid, sizeof set, &set) != 0)
            continue; /* no CPUs counted: unknown */
        for (int d = 0; d < nn; d++)
            for (int c = 0; c < t->capacity[d]; c++) {
                int cpu = t->cpus[d][c];
                if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set)) {
                    row[d]++;
                    counted++;
                    if (slot[i] < 0)
                        slot[i] = c;
                }
            }
        if (counted != CPU_COUNT(&set)) /* a CPU outside the topology's nodes: unknown */
            memset(row, 0, sizeof(int) * (size_t)nn);
        else if (counted > 0 && (!least || counted < least))
            least = counted;
    }
    m->width = least > 1 ? least : 1;
    int room = 0;
    for (int d = 0; d < nn; d++)
        room += t->capacity[d] / m->width;
    if (room < n)
        m->width = 1;
    for (int d = 0; d < nn; d++)
        m->slots[d] = t->capacity[d] / m->width;
    if (pl_ondeloc_start_nodes(n, nn, cpus, m->start) <= 0)
        return;
    for (int i = 0; i < n; i++) {
        int d = m->start[i];
        m->prev[i] = d;
        m->prev_core[i] = d >= 0 ? slot[i] / m->width : 0;
        if (d >= 0)
            atomic_store_explicit(&m->rows[i]->migrated_to, t->os_index[d] + 1, memory_order_relaxed);
    }
    m->have_prev = 1;
}

static int before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/*
 * Decide at the end of each interval, and look at the traffic every
 * min_interval in between (a probe: reading the rows costs n*n loads): when
 * the current mapping keeps much less of two consecutive windows on-node
 * than it did when decided (pl_ondeloc_drifted), decide at once on those
 * windows. The interval
 * grows to seconds while a mapping holds; without probes a phase change
 * waited that long and was then decided on a matrix mostly of the old phase
 * (mpi-kernels' phase in the 4-node VM: its second half never remapped).
 */
static void *mapper_main(void *arg)
{
    rt_mpimap_t *m = arg;
    /* Signals belong to the application's threads (faults excepted). */
    sigset_t all;
    rt_fault_async_signals(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    const rt_mpi_settings_t *set = &rt_conf->mpi;
    struct timespec last = m->t0, probed = m->t0, due = m->t0, drift_from = m->t0;
    rt_timespec_add_ms(&due, m->interval_ms);
    pthread_mutex_lock(&m->lock);
    while (!m->stop) {
        struct timespec dl;
        clock_gettime(CLOCK_MONOTONIC, &dl);
        rt_timespec_add_ms(&dl, set->min_interval_ms);
        if (before(&due, &dl))
            dl = due;
        int rc = 0;
        while (!m->stop && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&m->cond, &m->lock, &dl);
        if (m->stop)
            break;
        pthread_mutex_unlock(&m->lock);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double used = ms_between(&last, &now), window = ms_between(&probed, &now);
        struct timespec window_from = probed;
        probed = now;
        uint64_t vol = read_rows(m, m->probe_last, m->probe_delta);
        int decide = !before(&now, &due);
        pl_comm_matrix_t w = { m->n, m->probe_delta };
        int drifted = !decide && vol > 0 && m->decisions > 0
                      && pl_ondeloc_drifted(&w, m->node, m->decided_share, set->min_gain) == 1;
        size_t nn = (size_t)m->n * m->n;
        if (drifted && !m->drifting) {
            /* One short window can be unrepresentative (only a collective's
             * few bytes, a loaded rank's late messages): wait for the next
             * window with traffic (empty ones say nothing: ranks that
             * exchange once a second leave most windows empty). */
            memcpy(m->drift_delta, m->probe_delta, sizeof(uint64_t) * nn);
            drift_from = window_from;
        } else if (drifted) {
            for (size_t k = 0; k < nn; k++)
                m->probe_delta[k] += m->drift_delta[k];
            say("mpi: the traffic left the mapping on %s: %.3f of two windows on-node (the last "
                "%.0f ms), %.3f when decided; deciding now, %.0f ms into a %g ms interval",
                m->cfg.host, pl_ondeloc_local_share(&w, m->node), window, m->decided_share, used,
                m->interval_ms);
            m->early++;
            /* The interval rule as at its end: a change divides it. */
            step(m, m->probe_delta, m->interval_ms, ms_between(&drift_from, &now));
            decide = 2;
            drifted = 0;
        }
        if (vol > 0 || decide)
            m->drifting = drifted;
        if (decide == 1) {
            step(m, NULL, m->interval_ms, used);
            m->drifting = 0;
        }
        if (decide) {
            last = now;
            due = now;
            rt_timespec_add_ms(&due, m->interval_ms);
        }
        pthread_mutex_lock(&m->lock);
    }
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

static void free_map(rt_mpimap_t *m)
{
    free(m->last);
    free(m->delta);
    free(m->probe_last);
    free(m->probe_delta);
    free(m->drift_delta);
    free(m->prev);
    free(m->prev_core);
    free(m->node);
    free(m->core);
    free(m->start);
    free(m->slots);
    free(m->published);
    free(m->why);
    free(m->work);
    free(m->tl);
    free(m->pool);
    if (m->bindings_fd > STDERR_FILENO)
        close(m->bindings_fd);
    for (int i = 0; m->rows && i < m->n; i++)
        rt_mpishm_unmap(m->rows[i], m->cfg.world_size);
    free(m->rows);
    free(m->world);
    if (m->topo_loaded)
        rt_topo_free(&m->topo);
    free(m);
}

/* What start needs before the thread: copies of the caller's arrays, the
 * topology, every local rank's row. 0, or -1 with errno and why. */
static int take_inputs(rt_mpimap_t *m, const rt_mpimap_config_t *cfg, char *why, size_t len)
{
    m->cfg = *cfg;
    m->n = cfg->nlocal;
    snprintf(m->host, sizeof m->host, "%s", cfg->host);
    m->cfg.host = m->host;
    m->world = malloc(sizeof(int) * (size_t)m->n);
    m->rows = calloc((size_t)m->n, sizeof *m->rows);
    if (!m->world || !m->rows) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    memcpy(m->world, cfg->local_world, sizeof(int) * (size_t)m->n);
    m->cfg.local_world = m->world;
    const char *spec = rt_conf->mpi.topology;
    if (rt_topo_load(spec[0] ? spec : NULL, &m->topo, why, len) != 0) {
        errno = EINVAL;
        return -1;
    }
    m->topo_loaded = 1;
    for (int i = 0; i < m->n; i++) {
        char name[128];
        rt_mpishm_name(name, sizeof name, cfg->key, m->world[i]);
        if (rt_mpishm_open(name, cfg->world_size, cfg->token, &m->rows[i]) != 0) {
            int e = errno;
            snprintf(why, len, "rank %d's row: %s", m->world[i], strerror(e));
            errno = e;
            return -1;
        }
    }
    return 0;
}

/* path with "%h" replaced by the host; with several hosts and no "%h", the
 * host goes before the extension so that hosts do not overwrite each other. */
static void host_path(const rt_mpimap_t *m, const char *path, char *out, size_t len)
{
    const char *h = strstr(path, "%h");
    if (h) {
        snprintf(out, len, "%.*s%s%s", (int)(h - path), path, m->cfg.host, h + 2);
        return;
    }
    if (m->cfg.nhosts <= 1) {
        snprintf(out, len, "%s", path);
        return;
    }
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    if (dot && (!slash || dot > slash))
        snprintf(out, len, "%.*s.%s%s", (int)(dot - path), path, m->cfg.host, dot);
    else
        snprintf(out, len, "%s.%s", path, m->cfg.host);
}

int rt_mpimap_start(rt_mpimap_t **out, const rt_mpimap_config_t *cfg, char *why, size_t len)
{
    if (!out || !cfg || cfg->nlocal < 1 || cfg->world_size < cfg->nlocal || !cfg->local_world || !cfg->host) {
        snprintf(why, len, "bad arguments");
        errno = EINVAL;
        return -1;
    }
    rt_mpimap_t *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    m->bindings_fd = -1;
    if (take_inputs(m, cfg, why, len) != 0) {
        int e = errno;
        free_map(m);
        errno = e;
        return -1;
    }
    const rt_topo_t *t = &m->topo;
    m->slots = malloc((size_t)t->nnodes * sizeof *m->slots);
    m->width = 1;
    if (m->slots)
        memcpy(m->slots, t->capacity, (size_t)t->nnodes * sizeof *m->slots);
    m->pt = (pl_topo_t){ t->nnodes, m->slots, t->distance, t->numa_factor };
    m->dry_run = rt_conf->mpi.dry_run || !t->this_system;
    size_t nn = (size_t)m->n * m->n;
    m->last = calloc(nn, sizeof *m->last);
    m->delta = calloc(nn, sizeof *m->delta);
    m->probe_last = calloc(nn, sizeof *m->probe_last);
    m->probe_delta = calloc(nn, sizeof *m->probe_delta);
    m->drift_delta = calloc(nn, sizeof *m->drift_delta);
    m->prev = calloc((size_t)m->n, sizeof(int));
    m->prev_core = calloc((size_t)m->n, sizeof(int));
    m->node = calloc((size_t)m->n, sizeof(int));
    m->core = calloc((size_t)m->n, sizeof(int));
    m->start = calloc((size_t)m->n, sizeof(int));
    m->published = calloc((size_t)m->n, sizeof(int));
    int *cpus = calloc((size_t)m->n * (size_t)(t->nnodes + 1), sizeof(int)); /* and a slot per rank */
    m->why = calloc((size_t)m->n, sizeof *m->why);
    m->work_bytes = pl_ondeloc_workspace_bytes(m->n, t->nnodes);
    m->work = m->work_bytes ? malloc(m->work_bytes) : NULL;
    if (!m->last || !m->delta || !m->probe_last || !m->probe_delta || !m->drift_delta || !m->prev || !m->prev_core
        || !m->node || !m->core || !m->start || !m->slots || !m->published || !cpus || !m->why || !m->work) {
        free(cpus);
        free_map(m);
        snprintf(why, len, "out of memory");
        errno = ENOMEM;
        return -1;
    }
    seed_start(m, cpus, cpus + (size_t)m->n * (size_t)t->nnodes);
    free(cpus);
    m->interval_ms = rt_conf->mpi.interval_ms;
    if (rt_conf->mpi.bindings[0]) {
        if (!strcmp(rt_conf->mpi.bindings, "stderr"))
            m->bindings_fd = STDERR_FILENO;
        else {
            char p[PATH_MAX];
            host_path(m, rt_conf->mpi.bindings, p, sizeof p);
            m->bindings_fd = rt_open_output(p, 1);
            if (m->bindings_fd < 0)
                rt_warn("OMP_PLACEMENT_MPI: bindings=%s cannot be written (%s); using none", p,
                        strerror(errno));
        }
    }
    pthread_mutex_init(&m->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&m->cond, &ca);
    pthread_condattr_destroy(&ca);
    clock_gettime(CLOCK_MONOTONIC, &m->t0);
    int rc = pthread_create(&m->thread, NULL, mapper_main, m);
    if (rc) {
        pthread_cond_destroy(&m->cond);
        pthread_mutex_destroy(&m->lock);
        free_map(m);
        snprintf(why, len, "mapper thread: %s", strerror(rc));
        errno = rc;
        return -1;
    }
    m->started = 1;
    *out = m;
    if (cfg->world_rank == 0) {
        char set[4 * PATH_MAX + 256]; /* the four paths and the numbers */
        rt_settings_format_mpi(rt_conf, set, sizeof set);
        say("mpi: %s on %d host(s), %d rank(s); topology %s (%d nodes)%s", set, cfg->nhosts, cfg->world_size,
            t->origin, t->nnodes, m->dry_run ? ", dry run" : "");
    if (m->width > 1)
        say("mpi: the ranks on %s were bound to %d CPUs each: they keep as many (a node holds its CPUs / %d)",
            m->host, m->width, m->width);
    }
    return 0;
}

static uint64_t cell(const rt_mpimap_t *m, int i, int w, int msgs)
{
    const rt_mpi_cell_t *c = &m->rows[i]->cell[w];
    return msgs ? atomic_load(&c->msgs) : atomic_load(&c->bytes);
}

/* The row of world rank w on this host, or -1. */
static int local_of(const rt_mpimap_t *m, int w)
{
    for (int i = 0; i < m->n; i++)
        if (m->cfg.local_world[i] == w)
            return i;
    return -1;
}

/* The world matrix of bytes: this host's rows, zeros for the other hosts'
 * ranks (their own host writes those), so the files of all hosts add up. */
static void write_matrix(const rt_mpimap_t *m)
{
    char p[PATH_MAX];
    host_path(m, rt_conf->mpi.matrix, p, sizeof p);
    FILE *f = rt_open_output_stream(p);
    if (!f) {
        rt_warn("OMP_PLACEMENT_MPI: matrix=%s cannot be written (%s); using none", p, strerror(errno));
        return;
    }
    size_t pl = strlen(p);
    int mat = pl > 4 && !strcmp(p + pl - 4, ".mat");
    int W = m->cfg.world_size;
    if (!mat) {
        fprintf(f, "# bytes sent by the row's rank to the column's rank (application traffic); host %s\n",
                m->cfg.host);
        fprintf(f, "rank");
        for (int w = 0; w < W; w++)
            fprintf(f, ",%d", w);
        fprintf(f, "\n");
    }
    for (int r = 0; r < W; r++) {
        int i = local_of(m, r);
        if (!mat)
            fprintf(f, "%d", r);
        for (int w = 0; w < W; w++)
            fprintf(f, mat ? (w ? " %llu" : "%llu") : ",%llu",
                    (unsigned long long)(i >= 0 ? cell(m, i, w, 0) : 0));
        fprintf(f, "\n");
    }
    if (fclose(f))
        rt_warn("OMP_PLACEMENT_MPI: matrix=%s cannot be written (%s); using none", p, strerror(errno));
}

static void write_report(const rt_mpimap_t *m)
{
    char p[PATH_MAX], set[4 * PATH_MAX + 256]; /* the four paths and the numbers */
    host_path(m, rt_conf->mpi.report, p, sizeof p);
    FILE *f = rt_open_output_stream(p);
    if (!f) {
        rt_warn("OMP_PLACEMENT_MPI: report=%s cannot be written (%s); using none", p, strerror(errno));
        return;
    }
    const rt_topo_t *t = &m->topo;
    rt_settings_format_mpi(rt_conf, set, sizeof set);
    fprintf(f, "{\n  \"mpi\": {\n    \"policy\": \"ondeloc\",\n    \"settings\": ");
    rt_json_string(f, set);
    fprintf(f, ",\n    \"host\": ");
    rt_json_string(f, m->cfg.host);
    fprintf(f, ",\n    \"hosts\": %d,\n    \"world_size\": %d,\n    \"topology\": ", m->cfg.nhosts,
            m->cfg.world_size);
    rt_json_string(f, t->origin);
    fprintf(f, ",\n    \"nodes\": %d,\n    \"capacity\": [", t->nnodes);
    for (int d = 0; d < t->nnodes; d++)
        fprintf(f, "%s%d", d ? ", " : "", t->capacity[d]);
    fprintf(f, "],\n    \"rank_width\": %d", m->width);
    fprintf(f, ",\n    \"dry_run\": %s,\n    \"local_ranks\": [", m->dry_run ? "true" : "false");
    for (int i = 0; i < m->n; i++)
        fprintf(f, "%s%d", i ? ", " : "", m->cfg.local_world[i]);
    fprintf(f, "],\n    \"decisions\": %d,\n    \"remaps\": %d,\n    \"held_below_min_gain\": %d,\n"
               "    \"held_thin_window\": %d,\n    \"held_over_budget\": %d,\n"
               "    \"idle_intervals\": %llu,\n    \"decisions_at_probes\": %d,\n"
               "    \"final_interval_ms\": %g,\n    \"dropped_remaps\": %d,\n    \"timeline\": [",
            m->decisions, m->changes, m->held, m->held_thin, m->held_cost, (unsigned long long)m->idle_intervals, m->early, m->interval_ms,
            m->dropped);
    for (int k = 0; k < m->ntl; k++) {
        const remap_t *e = &m->tl[k];
        fprintf(f, "%s\n      {\"t_ms\": %.3f, \"interval_ms\": %g, \"next_interval_ms\": %g, "
                   "\"bytes\": %llu, \"moved\": %d, \"nodes\": [",
                k ? "," : "", e->t_ms, e->interval_ms, e->next_ms, (unsigned long long)e->bytes, e->moved);
        for (int i = 0; i < m->n; i++)
            fprintf(f, "%s%d", i ? ", " : "", m->pool[e->first + i]);
        fprintf(f, "]}");
    }
    fprintf(f, "%s],\n    \"ranks\": [", m->ntl ? "\n    " : "");
    for (int i = 0; i < m->n; i++) {
        rt_mpi_row_t *r = m->rows[i];
        uint64_t bytes = 0, msgs = 0;
        for (int w = 0; w < m->cfg.world_size; w++) {
            bytes += cell(m, i, w, 0);
            msgs += cell(m, i, w, 1);
        }
        fprintf(f, "%s\n      {\"rank\": %d, \"pid\": %d, \"node\": %d, \"applied_node\": %d, "
                   "\"applied\": %llu, \"threads\": %d, \"threads_refused\": %d, \"pages_left\": %lld, "
                   "\"bytes\": %llu, \"msgs\": %llu, \"mpi_internal_bytes\": %llu, "
                   "\"mpi_internal_msgs\": %llu, \"ompnuma_bytes\": %llu, \"ompnuma_msgs\": %llu, "
                   "\"untracked_persistent_starts\": %llu, \"migrations\": %llu, \"migrate_ms\": %.3f, "
                   "\"host_pages_migrated\": %llu, \"start_node\": %d}",
                i ? "," : "", m->cfg.local_world[i], (int)r->creator_pid, m->have_prev ? m->prev[i] : -1,
                (int)atomic_load(&r->applied_node), (unsigned long long)atomic_load(&r->applied_count),
                (int)atomic_load(&r->applied_threads), (int)atomic_load(&r->applied_failed),
                (long long)atomic_load(&r->applied_pages), (unsigned long long)bytes,
                (unsigned long long)msgs, (unsigned long long)atomic_load(&r->internal_bytes),
                (unsigned long long)atomic_load(&r->internal_msgs),
                (unsigned long long)atomic_load(&r->own_bytes),
                (unsigned long long)atomic_load(&r->own_msgs),
                (unsigned long long)atomic_load(&r->untracked_starts),
                (unsigned long long)atomic_load(&r->migrate_calls),
                (double)atomic_load(&r->migrate_ns) / 1e6,
                (unsigned long long)atomic_load(&r->migrate_moved), m->start[i]);
    }
    fprintf(f, "\n    ],\n    \"matrix_bytes\": [");
    for (int i = 0; i < m->n; i++) {
        fprintf(f, "%s\n      [", i ? "," : "");
        for (int w = 0; w < m->cfg.world_size; w++)
            fprintf(f, "%s%llu", w ? ", " : "", (unsigned long long)cell(m, i, w, 0));
        fprintf(f, "]");
    }
    fprintf(f, "\n    ],\n    \"matrix_msgs\": [");
    for (int i = 0; i < m->n; i++) {
        fprintf(f, "%s\n      [", i ? "," : "");
        for (int w = 0; w < m->cfg.world_size; w++)
            fprintf(f, "%s%llu", w ? ", " : "", (unsigned long long)cell(m, i, w, 1));
        fprintf(f, "]");
    }
    fprintf(f, "\n    ]\n  }\n}\n");
    if (fclose(f))
        rt_warn("OMP_PLACEMENT_MPI: report=%s cannot be written (%s); using none", p, strerror(errno));
}

void rt_mpimap_stop(rt_mpimap_t *m)
{
    if (!m)
        return;
    if (m->started) {
        pthread_mutex_lock(&m->lock);
        m->stop = 1;
        pthread_cond_signal(&m->cond);
        pthread_mutex_unlock(&m->lock);
        pthread_join(m->thread, NULL);
        pthread_cond_destroy(&m->cond);
        pthread_mutex_destroy(&m->lock);
    }
    if (rt_conf->mpi.matrix[0])
        write_matrix(m);
    if (rt_conf->mpi.report[0])
        write_report(m);
    free_map(m);
}
