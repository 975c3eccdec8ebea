/* rt_bubble.c: the bubble policy: each outermost region and its nested teams placed as one bubble tree. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rt_bubble.h"
#include "rt_log.h"
#include "rt_mem.h"
#include "rt_affinity.h"
#include "rt_settings.h"
#include "rt_topology.h"
#include "rt_util.h"

/*
 * A tree is built for each outermost region from the regions nested in it:
 * the outermost region is one bubble; a region nested in a team of P
 * threads (as the first nested construct of that team seen) is P bubbles,
 * one per master thread, since every thread of the enclosing team may
 * create its own inner team. Teams of a tree exist at the same time; two
 * outermost regions run one after the other, so each gets its own tree.
 *
 * pl_bubble_decide places every thread ("slot") of the tree. A thread
 * entering a team learns its slot from its master's slot and its index,
 * remembers it for the teams it creates in turn, and pins to the slot's
 * CPU. Nested constructs outside the tree (a second nested construct in
 * the same team) put their threads on their master's node, which is what
 * the cache scheduler would do with them.
 */

#define MAX_TREES 64
#define MAX_BUBBLES 4096  /* deeper levels of larger nests are left to the master's-node rule */

typedef struct tree {
    rt_region_t *root;
    int          nbubbles, nslots;
    int          nmoves;
    struct move {
        int              bubble, region, master, from;
        pl_move_choice_t choice;
    }           *moves;       /* [nmoves] threads-or-data choices (memory scheduler) */
    char         model[96];   /* where the migration cost line came from */
    int         *region_of;   /* [nbubbles] region id of each bubble */
    int         *off;         /* [nbubbles] first slot of each bubble */
    int         *child;       /* [nslots] bubble mastered by the slot's thread, -1 none */
    int         *cpu;         /* [nslots] */
    int         *node;        /* [nslots] */
    struct tree *replaced;    /* the tree this one replaced: kept, since threads may still read it */
} tree_t;

static tree_t *trees[MAX_TREES];
static int ntrees;
static int built_regions;             /* regions seen when the trees were last built */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

/* The first region nested in region p (by creation), or NULL: the shape of
 * the tree's next level (its siblings share its code address and size). */
static rt_region_t *first_child(const rt_region_t *p)
{
    for (int i = p->id + 1; i < rt_region_count(); i++) {
        rt_region_t *g = rt_region_at(i);
        if (g->parent_id == p->id)
            return g;
    }
    return NULL;
}

static void tree_free(tree_t *t)
{
    if (!t)
        return;
    free(t->region_of);
    free(t->off);
    free(t->child);
    free(t->cpu);
    free(t->node);
    free(t->moves);
    free(t);
}

/* The migration line: `ompnuma calibrate`'s cache for this machine when
 * there is one, else a trial's price a page (rt_mem_cost_line), else
 * MaMI's published 120 + 11 x pages us. Nothing is calibrated here: that
 * would stall the program for seconds. */
static void move_cost(pl_move_cost_t *cost, char *source, size_t len)
{
    pl_move_cost_default(cost);
    if (rt_mem_cost_line(&cost->mig_fixed_us, &cost->mig_page_us, source, len) == 0)
        cost->page_bytes = (double)rt_mem_page_size();
    else
        snprintf(source, len, "MaMI's line (no calibration cached, no trial here)");
}

/*
 * Threads or data (Broquedis et al. section 4.4), for each team of the
 * first nested level whose attached data lies off the node the cache
 * scheduler gives it: stay, move the threads to the data (the memory
 * scheduler's pull), move the data to the threads, or the mixed move. The
 * data moves happen here; what the threads do follows from the bytes left
 * for the memory scheduler. Recorded for the report.
 */
static void threads_or_data(tree_t *t, pl_bubble_t *b, double *bytes, const int *cache_node,
                            const rt_mem_hint_t *hints, int nhints)
{
    int nd = rt_mach->topo.nnodes;
    pl_topo_t topo = rt_mach->pl;
    pl_move_cost_t cost;
    move_cost(&cost, t->model, sizeof t->model);
    t->moves = calloc((size_t)t->nbubbles, sizeof *t->moves);
    if (!t->moves)
        return;
    for (int i = 1; i < t->nbubbles; i++) {
        if (!b[i].node_bytes || b[b[i].parent].parent != -1)
            continue;
        double *nb = bytes + (size_t)i * (size_t)nd, off_node = 0;
        int cur = cache_node[t->off[i]];
        for (int n = 0; n < nd; n++)
            off_node += n == cur ? 0 : nb[n];
        struct move *mv = &t->moves[t->nmoves];
        if (off_node <= 0 || pl_threads_or_data(&topo, cur, b[i].nthreads, nb, &cost, &mv->choice) != 0)
            continue;
        *mv = (struct move){.bubble = i, .region = t->region_of[i], .master = b[i].master, .from = cur,
                            .choice = mv->choice};
        t->nmoves++;
        pl_move_kind_t k = mv->choice.choice;
        int to = mv->choice.option[k].node;
        /* Data moves: this team's buffers (attached by its master) go to the threads' node. */
        for (int h = 0; h < nhints && (k == PL_MOVE_DATA || k == PL_MOVE_MIXED); h++) {
            if (hints[h].thread_num != b[i].master)
                continue;
            int home = hints[h].home < 0 ? -1 : hints[h].home;
            int target = k == PL_MOVE_DATA ? cur : to;
            if (k == PL_MOVE_MIXED && home != rt_mach->topo.os_index[cur])
                continue; /* mixed moves only the smaller, local buffer */
            if (rt_mem_migrate_to_node((void *)hints[h].base, hints[h].bytes, rt_mach->topo.os_index[target]) != 0)
                rt_verbose(1, "bubble: team of thread %d: moving %zu bytes to node %d failed; data left in place",
                           b[i].master, hints[h].bytes, target);
        }
        /* What pulls the team now: nothing (stay, data), its data (threads), the remote data (mixed). */
        for (int n = 0; n < nd; n++)
            if (k == PL_MOVE_STAY || k == PL_MOVE_DATA)
                nb[n] = 0;
            else if (k == PL_MOVE_MIXED && n == cur)
                nb[n] = 0;
        if (k == PL_MOVE_STAY || k == PL_MOVE_DATA)
            b[i].node_bytes = NULL;
        rt_verbose(1, "bubble: team of thread %d on node %d: %s (stay %.0f us, threads %.0f, data %.0f, mixed %.0f)",
                   b[i].master, cur, pl_move_kind_name(k), mv->choice.option[PL_MOVE_STAY].total_us,
                   mv->choice.option[PL_MOVE_THREADS].total_us, mv->choice.option[PL_MOVE_DATA].total_us,
                   mv->choice.option[PL_MOVE_MIXED].total_us);
    }
}

static tree_t *build(rt_region_t *root, const rt_mem_hint_t *hints, int nhints, int nkernel)
{
    /* The chain root -> first child -> its first child ...: bubble counts multiply. */
    rt_region_t *chain[RT_MAX_DEPTH];
    int depth = 0, nbubbles = 0, width = 1;
    for (rt_region_t *g = root; g && depth < RT_MAX_DEPTH && nbubbles + width <= MAX_BUBBLES; g = first_child(g)) {
        chain[depth++] = g;
        nbubbles += width;
        width *= g->team_size;
    }
    int nd = rt_mach->topo.nnodes;
    tree_t *t = calloc(1, sizeof *t);
    pl_bubble_t *b = calloc((size_t)nbubbles, sizeof *b);
    double *bytes = calloc((size_t)nbubbles * (size_t)nd, sizeof *bytes);
    /* Attached pages per node of each outer thread's buffers: the memory scheduler's pull. */
    uint64_t *pages = hints ? calloc((size_t)root->team_size * (size_t)nd, sizeof *pages) : NULL;
    if (!t || !b || !bytes || (hints && !pages))
        goto fail;
    if (hints)
        rt_mem_hints_fold(hints, nhints, nkernel, root->team_size, nd, pages, NULL);
    t->root = root;
    t->region_of = malloc((size_t)nbubbles * sizeof *t->region_of);
    t->off = malloc((size_t)nbubbles * sizeof *t->off);
    if (!t->region_of || !t->off)
        goto fail;
    /* Level by level: the bubbles of level k+1 are the children of every
     * thread of every bubble of level k, in order. */
    int first = 0, count = 1, n = 1;
    b[0] = (pl_bubble_t){.parent = -1, .master = 0, .nthreads = root->team_size};
    t->region_of[0] = root->id;
    for (int k = 1; k < depth; k++) {
        int next_first = n;
        for (int p = first; p < first + count; p++)
            for (int m = 0; m < b[p].nthreads; m++) {
                b[n] = (pl_bubble_t){.parent = p, .master = m, .nthreads = chain[k]->team_size};
                /* Each master's team is a record of its own once it ran (-1 until then:
                 * its first execution creates it, and the tree is rebuilt before it forks). */
                const rt_region_t *pr = rt_region_at(t->region_of[p]);
                const rt_region_t *own = pr ? rt_region_find(chain[k]->codeptr, chain[k]->team_size, pr, m) : NULL;
                t->region_of[n] = own ? own->id : -1;
                if (hints && k == 1) {
                    for (int x = 0; x < nd; x++)
                        bytes[(size_t)n * (size_t)nd + (size_t)x] =
                            (double)pages[(size_t)m * (size_t)nd + (size_t)x] * (double)rt_mem_page_size();
                    b[n].node_bytes = bytes + (size_t)n * (size_t)nd;
                }
                n++;
            }
        first = next_first;
        count = n - next_first;
    }
    t->nbubbles = n;
    int nslots = pl_bubble_slots(b, n);
    if (nslots < 1)
        goto fail;
    t->nslots = nslots;
    t->child = malloc((size_t)nslots * sizeof *t->child);
    t->cpu = malloc((size_t)nslots * sizeof *t->cpu);
    t->node = malloc((size_t)nslots * sizeof *t->node);
    int *core = malloc((size_t)nslots * sizeof *core);
    size_t wbytes = pl_bubble_workspace_bytes(n, nslots, nd);
    void *work = malloc(wbytes ? wbytes : 1);
    int rc = -1;
    if (t->child && t->cpu && t->node && core && work) {
        for (int i = 0, off = 0; i < n; i++) {
            t->off[i] = off;
            off += b[i].nthreads;
        }
        pl_topo_t topo = rt_mach->pl;
        pl_bubble_map_t map = {.nslots = nslots, .node = t->node, .core = core, .preferred = NULL};
        if (hints && rt_conf->scheduler == PL_BUBBLE_MEMORY) {
            /* Where locality alone (cache) would run each team, before its data is weighed. */
            const double *saved[MAX_BUBBLES];
            for (int i = 0; i < n; i++) {
                saved[i] = b[i].node_bytes;
                b[i].node_bytes = NULL;
            }
            rc = pl_bubble_decide(PL_BUBBLE_CACHE, &topo, b, n, &map, work, wbytes);
            for (int i = 0; i < n; i++)
                b[i].node_bytes = saved[i];
            if (rc == 0)
                threads_or_data(t, b, bytes, t->node, hints, nhints);
        }
        rc = pl_bubble_decide(rt_conf->scheduler, &topo, b, n, &map, work, wbytes);
    }
    if (rc == 0) {
        for (int s = 0; s < nslots; s++) {
            t->child[s] = -1;
            t->cpu[s] = rt_mach->topo.cpus[t->node[s]][core[s]];
        }
        for (int i = 1; i < n; i++)
            t->child[t->off[b[i].parent] + b[i].master] = i;
    }
    free(core);
    free(work);
    free(b);
    free(bytes);
    free(pages);
    if (rc != 0) {
        rt_verbose(1, "bubble: region %d: the tree of %d bubbles was refused (error %d)", root->id, n, rc);
        tree_free(t);
        return NULL;
    }
    return t;
fail:
    free(b);
    free(bytes);
    free(pages);
    tree_free(t);
    return NULL;
}

/* New regions change the trees: rebuild them. Called by an encountering
 * thread before its team forks (rt_bubble_refresh), so team members only
 * read published trees; concurrent encountering threads wait, since a
 * team placed by a stale tree would lose its slots. */
void rt_bubble_refresh(void)
{
    int count = rt_region_count();
    if (__atomic_load_n(&built_regions, __ATOMIC_ACQUIRE) == count)
        return;
    pthread_mutex_lock(&build_lock);
    count = rt_region_count();
    if (built_regions == count) {
        pthread_mutex_unlock(&build_lock);
        return;
    }
    rt_mem_hint_t *hints = NULL;
    int nkernel = 0, nhints = 0;
    if (rt_conf->scheduler == PL_BUBBLE_MEMORY)
        nhints = rt_mem_hints_snapshot(&hints, &nkernel);
    for (int i = 0; i < count; i++) {
        rt_region_t *g = rt_region_at(i);
        if (g->parent_id >= 0)
            continue;
        int slot;
        for (slot = 0; slot < ntrees && trees[slot]->root != g; slot++)
            ;
        if (slot == MAX_TREES)
            continue;
        tree_t *t = build(g, nhints > 0 ? hints : NULL, nhints, nkernel);
        if (!t)
            continue;
        /* Old trees are kept, reachable from their successor: threads may
         * still read them (they are small, and rebuilt rarely). */
        t->replaced = slot < ntrees ? trees[slot] : NULL;
        __atomic_store_n(&trees[slot], t, __ATOMIC_RELEASE);
        if (slot == ntrees)
            __atomic_store_n(&ntrees, ntrees + 1, __ATOMIC_RELEASE);
        rt_verbose(1, "bubble: region %d: %d bubbles, %d threads placed (%s)", g->id, t->nbubbles, t->nslots,
                   pl_bubble_sched_name(rt_conf->scheduler));
    }
    if (nhints > 0)
        rt_mem_hints_free(hints, nhints);
    __atomic_store_n(&built_regions, count, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&build_lock);
}

static const tree_t *tree_of(const rt_region_t *r)
{
    const rt_region_t *g = r;
    while (g->parent_id >= 0)
        g = rt_region_at(g->parent_id);
    int n = __atomic_load_n(&ntrees, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++) {
        const tree_t *t = __atomic_load_n(&trees[i], __ATOMIC_ACQUIRE);
        if (t->root == g)
            return t;
    }
    return NULL;
}

/* The order critpath gives a team inside its bubble (rt_loop.c), by region
 * id: [2 x team_size], the position each thread takes, then the one it
 * took before. NULL while the team keeps the identity order. Allocated at
 * its first reordering (a decision), published with a release store. */
static int *order[RT_REGION_MAX];

int rt_bubble_position(const rt_region_t *r, int index)
{
    const int *perm = __atomic_load_n(&order[r->id], __ATOMIC_ACQUIRE);
    int pos = perm ? __atomic_load_n(&perm[index], __ATOMIC_RELAXED) : index;
    return pos < 0 || pos >= r->team_size ? index : pos;
}

int rt_bubble_reorder(rt_region_t *r, const int *perm)
{
    int n = r->team_size, *o = __atomic_load_n(&order[r->id], __ATOMIC_ACQUIRE);
    if (!o) {
        if (!(o = malloc(2 * (size_t)n * sizeof *o)))
            return -1;
        for (int i = 0; i < n; i++)
            o[i] = o[n + i] = i;
        __atomic_store_n(&order[r->id], o, __ATOMIC_RELEASE);
    }
    for (int i = 0; i < n; i++) {
        o[n + i] = o[i];
        __atomic_store_n(&o[i], perm[i], __ATOMIC_RELAXED);
    }
    return 0;
}

void rt_bubble_restore(rt_region_t *r)
{
    int n = r->team_size, *o = __atomic_load_n(&order[r->id], __ATOMIC_ACQUIRE);
    for (int i = 0; o && i < n; i++)
        __atomic_store_n(&o[i], o[n + i], __ATOMIC_RELAXED);
}

int rt_bubble_place(rt_region_t *r, int index, int master_slot, int *slot)
{
    *slot = -1;
    const tree_t *t = tree_of(r);
    if (!t)
        return -1;
    /* The position among the team's CPUs: the thread's own unless critpath
     * reordered the team from its TNT (rt_loop.c). */
    int pos = rt_bubble_position(r, index);
    if (r->parent_id < 0) {
        *slot = pos;
    } else if (master_slot >= 0 && master_slot < t->nslots && t->child[master_slot] >= 0 &&
               t->region_of[t->child[master_slot]] == r->id) {
        *slot = t->off[t->child[master_slot]] + pos;
    } else if (master_slot >= 0 && master_slot < t->nslots) {
        /* A nested construct outside the tree: its master's node, cores in turn. */
        int node = t->node[master_slot], cap = rt_mach->topo.capacity[node];
        int first = 0;
        while (first < cap && rt_mach->topo.cpus[node][first] != t->cpu[master_slot])
            first++;
        return cap ? rt_mach->topo.cpus[node][(first + pos) % cap] : -1;
    }
    return *slot >= 0 && *slot < t->nslots ? t->cpu[*slot] : -1;
}

void rt_bubble_report_json(FILE *f)
{
    int n = __atomic_load_n(&ntrees, __ATOMIC_ACQUIRE);
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        const tree_t *t = __atomic_load_n(&trees[i], __ATOMIC_ACQUIRE);
        fprintf(f, "%s{\"root\":%d,\"scheduler\":", i ? "," : "", t->root->id);
        rt_json_string(f, pl_bubble_sched_name(rt_conf->scheduler));
        fprintf(f, ",\"bubbles\":%d,\"threads\":%d,\"cpus\":[", t->nbubbles, t->nslots);
        for (int s = 0; s < t->nslots; s++)
            fprintf(f, "%s%d", s ? "," : "", t->cpu[s]);
        fprintf(f, "],\"moves\":[");
        for (int m = 0; m < t->nmoves; m++) {
            const struct move *mv = &t->moves[m];
            fprintf(f, "%s{\"region\":%d,\"master\":%d,\"from_node\":%d,\"choice\":", m ? "," : "",
                    mv->region, mv->master, mv->from);
            rt_json_string(f, pl_move_kind_name(mv->choice.choice));
            fprintf(f, ",\"options\":{");
            for (int k = 0; k < PL_MOVE_COUNT; k++) {
                const pl_move_option_t *o = &mv->choice.option[k];
                fprintf(f, "%s\"%s\":", k ? "," : "", pl_move_kind_name((pl_move_kind_t)k));
                if (o->applicable)
                    fprintf(f, "{\"node\":%d,\"bytes_moved\":%.0f,\"move_us\":%.1f,\"remote_us\":%.1f,\"total_us\":%.1f}",
                            o->node, o->bytes_moved, o->move_us, o->remote_us, o->total_us);
                else
                    fputs("null", f);
            }
            fputs("}}", f);
        }
        fprintf(f, "],\"cost_model\":");
        rt_json_string(f, t->model[0] ? t->model : "");
        fputc('}', f);
    }
    fputc(']', f);
}

int rt_bubble_team_nodes(const rt_region_t *r, int *node)
{
    const tree_t *t = tree_of(r);
    if (!t)
        return -1;
    for (int b = 0; b < t->nbubbles; b++) {
        if (t->region_of[b] != r->id)
            continue;
        for (int i = 0; i < r->team_size; i++)
            node[i] = t->node[t->off[b] + i];
        return 0;
    }
    return -1;
}
