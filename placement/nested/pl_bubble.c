/* pl_bubble.c: nested teams as bubbles: the cache and memory bubble schedulers, and the threads-or-data choice of section 4.4. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "pl_internal.h"

static int bytes_ok(const double *v, int nd)
{
    for (int n = 0; v && n < nd; n++)
        if (!(v[n] >= 0) || !isfinite(v[n]))
            return 0;
    return 1;
}

/* Lowest node holding the most bytes of v, or -1 when v holds none. */
static int argmax_bytes(const double *v, int nd, double *sum)
{
    int best = -1;
    double s = 0;
    for (int n = 0; v && n < nd; n++) {
        s += v[n];
        if (v[n] > 0 && (best < 0 || v[n] > v[best]))
            best = n;
    }
    if (sum)
        *sum = s;
    return best;
}

int pl_bubble_slots(const pl_bubble_t *b, int nb)
{
    if (!b || nb < 1)
        return -EINVAL;
    long total = 0;
    for (int i = 0; i < nb; i++) {
        int p = b[i].parent;
        if (b[i].nthreads < 1 || p < -1 || p >= i)
            return -EINVAL;
        if (p >= 0) {
            if (b[i].master < 0 || b[i].master >= b[p].nthreads)
                return -EINVAL;
            /* Siblings come after their parent, so only p+1..i-1 can clash. */
            for (int j = p + 1; j < i; j++)
                if (b[j].parent == p && b[j].master == b[i].master)
                    return -EINVAL;
        }
        total += b[i].nthreads;
        if (total > PL_BUBBLE_MAX_SLOTS)
            return -E2BIG;
    }
    return (int)total;
}

/* Working state of one decision; every array lives in the caller's workspace. */
typedef struct bub {
    const pl_topo_t   *topo;
    const pl_bubble_t *b;
    int     nb, ns, nd, memory;
    long    share;    /* slots per core: > 1 when the tree oversubscribes the cores */
    int    *off;      /* [nb] first slot of each bubble                        */
    int    *size;     /* [nb] distinct threads of the bubble's subtree         */
    int    *burst;    /* [nb] 1 when an outermost bubble was burst into threads */
    int    *pref;     /* [nb] memory: preferred node (-1 none)                 */
    double *sub;      /* [nb * nd] memory: bytes of the bubble's subtree        */
    int    *load;     /* [ns] distinct threads of the slot's subtree           */
    int    *child;    /* [ns] inner team the slot masters, -1 none              */
    int    *spref;    /* [ns] memory: argmax node of that team's subtree bytes  */
    int    *order;    /* [ns] sort scratch of place_team                       */
    int    *eorder;   /* [ns] outermost entities in placement order             */
    int    *ubub;     /* [ns] entity u: its bubble                              */
    int    *uthr;     /* [ns] entity u: its thread when burst, -1 when whole     */
    int    *resv;     /* [ns * nd] slots reserved for the subtree of each slot,
                         the slot itself excluded                              */
    int    *freec;    /* [nd] unreserved slots per node                        */
    int    *used;     /* [nd] threads placed per node (core numbering)          */
    int    *cload;    /* [ns] oversubscribed: threads per core, node n's from
                         coff[n] (the tree has more slots than cores then)     */
    int    *coff;     /* [nd] */
    int    *tr;       /* [nd] reservation of the team being placed              */
    double *uw;       /* [ns] entity weight (bytes) for the memory order         */
    int    *upref;    /* [ns] entity preferred node                             */
    int    *node, *core;
} bub_t;

/* Carves every array of bub_t from the arena; with a NULL arena pointer it
 * only counts, which is how pl_bubble_workspace_bytes sizes the same layout. */
static void bub_layout(bub_t *s, pl_arena_t *a, int nb, int ns, int nd)
{
    size_t I = sizeof(int), D = sizeof(double);
    s->off = pl_i_take(a, I * nb);
    s->size = pl_i_take(a, I * nb);
    s->burst = pl_i_take(a, I * nb);
    s->pref = pl_i_take(a, I * nb);
    s->sub = pl_i_take(a, D * (size_t)nb * nd);
    s->load = pl_i_take(a, I * ns);
    s->child = pl_i_take(a, I * ns);
    s->spref = pl_i_take(a, I * ns);
    s->order = pl_i_take(a, I * ns);
    s->eorder = pl_i_take(a, I * ns);
    s->ubub = pl_i_take(a, I * ns);
    s->uthr = pl_i_take(a, I * ns);
    s->resv = pl_i_take(a, I * (size_t)ns * nd);
    s->freec = pl_i_take(a, I * nd);
    s->used = pl_i_take(a, I * nd);
    s->cload = pl_i_take(a, I * ns);
    s->coff = pl_i_take(a, I * nd);
    s->tr = pl_i_take(a, I * nd);
    s->uw = pl_i_take(a, D * ns);
    s->upref = pl_i_take(a, I * ns);
}

size_t pl_bubble_workspace_bytes(int nbubbles, int nslots, int nnodes)
{
    if (nbubbles < 1 || nslots < nbubbles || nslots > PL_BUBBLE_MAX_SLOTS || nnodes < 1
        || nnodes > PL_MAX_NODES)
        return 0;
    bub_t s;
    pl_arena_t a = { NULL, 0, 16 }; /* 16: slack to align the caller's pointer */
    bub_layout(&s, &a, nbubbles, nslots, nnodes);
    return a.used;
}

/* Distance key of node y seen from x: x itself always comes first, even under
 * a matrix whose diagonal is not its row minimum. */
static double near_key(const pl_topo_t *topo, int x, int y)
{
    return y == x ? -1.0 : pl_i_dist(topo, x, y);
}

/*
 * Node nearest to x among those with room[y] >= need (need >= 1); ties go to
 * the most room when most_room is set, then to the lowest index. -1 if none.
 */
static int nearest_with(const bub_t *s, const int *room, int x, int need, int most_room)
{
    int best = -1;
    double bk = 0;
    for (int y = 0; y < s->nd; y++) {
        if (room[y] < need)
            continue;
        double k = near_key(s->topo, x, y);
        if (best < 0 || k < bk || (k == bk && most_room && room[y] > room[best])) {
            best = y;
            bk = k;
        }
    }
    return best;
}

/* Move k slots from src to dst, from node x outwards (nearest, then most
 * room). Precondition: src holds at least k slots, which the reservation
 * invariant guarantees; -ENOSPC reports a broken invariant, not bad input. */
static int take(const bub_t *s, int *src, int *dst, int k, int x)
{
    while (k > 0) {
        int y = nearest_with(s, src, x, 1, 1);
        if (y < 0)
            return -ENOSPC;
        int m = src[y] < k ? src[y] : k;
        src[y] -= m;
        dst[y] += m;
        k -= m;
    }
    return 0;
}

/* Whether a thread of the team whose slots are [s0, slot) is on core c of node n. */
static int teammate_on(const bub_t *s, int s0, int slot, int n, int c)
{
    for (int t = s0; t < slot; t++)
        if (s->node[t] == n && s->core[t] == c)
            return 1;
    return 0;
}

/* Place thread slot of the team whose slots start at s0 (s0 = slot: no team)
 * on node n: core j mod capacity for the node's j-th thread. When the cores
 * are shared (oversubscription), from that core on, the first that holds
 * fewer than share threads and no teammate, else the first with fewer than
 * share threads (the node's reservation leaves one): a team that fits its
 * node's cores gets distinct cores where the others leave room (the round
 * robin alone gave a 2-thread inner team its master's one core on a 2-core
 * node), and no core holds more than share threads. */
static void place_in(bub_t *s, int slot, int n, int s0)
{
    int cap = s->topo->capacity[n], c = s->used[n] % cap;
    if (s->share > 1) {
        int *load = s->cload + s->coff[n], room = -1, best = -1;
        for (int step = 0; step < cap && best < 0; step++) {
            int d = (c + step) % cap;
            if (load[d] >= s->share)
                continue;
            room = room < 0 ? d : room;
            best = teammate_on(s, s0, slot, n, d) ? -1 : d;
        }
        c = best >= 0 ? best : room >= 0 ? room : c;
        load[c]++;
    }
    s->node[slot] = n;
    s->core[slot] = c;
    s->used[n]++;
}

static void place(bub_t *s, int slot, int n)
{
    place_in(s, slot, n, slot);
}

/* Stable insertion sort of idx[0..n) by key(a) before key(b); n is a team or
 * the outermost entities, small, and stability keeps ties at the lower index. */
static void sort_by(int *idx, int n, const bub_t *s, int (*before)(const bub_t *, int, int))
{
    for (int i = 1; i < n; i++) {
        int v = idx[i], j = i;
        while (j > 0 && before(s, v, idx[j - 1])) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = v;
    }
}

static int ent_load(const bub_t *s, int u)
{
    return s->uthr[u] < 0 ? s->size[s->ubub[u]] : s->load[s->off[s->ubub[u]] + s->uthr[u]];
}

static int ent_before(const bub_t *s, int u, int v)
{
    if (s->memory && s->uw[u] != s->uw[v])
        return s->uw[u] > s->uw[v];
    return ent_load(s, u) > ent_load(s, v);
}

static int slot_before(const bub_t *s, int a, int b)
{
    return s->load[a] > s->load[b];
}

/*
 * Place team bb whose thread 0 is already placed, with s->tr holding exactly
 * the slots of its subtree other than thread 0 (size - 1). See pl.h, cache
 * step 2, and the memory rule inside a team.
 */
static int place_team(bub_t *s, int bb)
{
    int nd = s->nd, s0 = s->off[bb], n = s->b[bb].nthreads, m = s->node[s0];
    int rc = take(s, s->tr, s->resv + (size_t)s0 * nd, s->load[s0] - 1, m);
    if (rc)
        return rc;
    for (int i = 1; i < n; i++)
        s->order[i - 1] = s0 + i;
    sort_by(s->order, n - 1, s, slot_before);
    for (int i = 0; i < n - 1; i++) {
        int slot = s->order[i], L = s->load[slot], p = s->memory ? s->spref[slot] : -1;
        int y = (p >= 0 && s->tr[p] >= L) ? p : nearest_with(s, s->tr, m, L, 0);
        if (y < 0)
            y = nearest_with(s, s->tr, m, 1, 1);
        if (y < 0)
            return -ENOSPC;
        s->tr[y]--;
        place_in(s, slot, y, s0);
        if ((rc = take(s, s->tr, s->resv + (size_t)slot * nd, L - 1, y)))
            return rc;
    }
    return 0;
}

/* Fill size, load, child; memory: sub, pref, spref. */
static void bub_tree(bub_t *s)
{
    int nb = s->nb, nd = s->nd;
    for (int i = 0, o = 0; i < nb; i++) {
        s->off[i] = o;
        s->size[i] = s->b[i].nthreads;
        s->burst[i] = 0;
        o += s->b[i].nthreads;
    }
    for (int t = 0; t < s->ns; t++) {
        s->load[t] = 1;
        s->child[t] = -1;
        s->spref[t] = -1;
    }
    for (int i = 0; i < nb; i++)
        for (int n = 0; n < nd; n++)
            s->sub[(size_t)i * nd + n] = s->b[i].node_bytes ? s->b[i].node_bytes[n] : 0.0;
    /* Children have larger indices than their parents: in reverse order a
     * bubble's size and bytes are final before they are added to its parent. */
    for (int c = nb - 1; c >= 0; c--) {
        int p = s->b[c].parent;
        if (p < 0)
            continue;
        int ms = s->off[p] + s->b[c].master;
        s->child[ms] = c;
        s->load[ms] += s->size[c] - 1;
        s->size[p] += s->size[c] - 1;
        for (int n = 0; n < nd; n++)
            s->sub[(size_t)p * nd + n] += s->sub[(size_t)c * nd + n];
        s->spref[ms] = argmax_bytes(s->sub + (size_t)c * nd, nd, NULL);
    }
    for (int i = 0; i < nb; i++) {
        int own = argmax_bytes(s->b[i].node_bytes, nd, NULL);
        int p = s->b[i].parent;
        s->pref[i] = own >= 0 ? own : (p >= 0 ? s->pref[p] : -1);
    }
}

/* Cache step 1: burst outermost bubbles while there are fewer entities than
 * nodes with cores; returns the number of entities. */
static int bub_entities(bub_t *s)
{
    int nb = s->nb, nd = s->nd, with_cores = 0, ents = 0;
    for (int n = 0; n < nd; n++)
        with_cores += s->topo->capacity[n] > 0;
    for (int i = 0; i < nb; i++)
        ents += s->b[i].parent < 0;
    while (ents < with_cores) {
        int best = -1;
        for (int i = 0; i < nb; i++)
            if (s->b[i].parent < 0 && !s->burst[i] && s->b[i].nthreads > 1
                && (best < 0 || s->size[i] > s->size[best]))
                best = i;
        if (best < 0)
            break;
        s->burst[best] = 1;
        ents += s->b[best].nthreads - 1;
    }
    int u = 0;
    for (int i = 0; i < nb; i++) {
        if (s->b[i].parent >= 0)
            continue;
        for (int t = 0; t < (s->burst[i] ? s->b[i].nthreads : 1); t++, u++) {
            s->ubub[u] = i;
            s->uthr[u] = s->burst[i] ? t : -1;
            /* A thread's bytes are those of the inner team it masters; with
             * none it inherits its outermost team's. */
            const double *v = s->burst[i] ? NULL : s->sub + (size_t)i * nd;
            int c = s->burst[i] ? s->child[s->off[i] + t] : -1;
            if (c >= 0)
                v = s->sub + (size_t)c * nd;
            double w = 0;
            int p = argmax_bytes(v, nd, &w);
            if (p < 0)
                p = argmax_bytes(s->b[i].node_bytes, nd, &w);
            s->upref[u] = s->memory ? p : -1;
            s->uw[u] = s->memory && p >= 0 ? w : 0.0;
        }
    }
    return u;
}

int pl_bubble_decide(pl_bubble_sched_t sched, const pl_topo_t *topo, const pl_bubble_t *bubbles,
                     int nbubbles, pl_bubble_map_t *out, void *work, size_t work_bytes)
{
    int ns = pl_bubble_slots(bubbles, nbubbles);
    if (ns < 0)
        return ns;
    int rc = pl_check_topo(topo);
    if (rc)
        return rc;
    if ((int)sched < 0 || sched >= PL_BUBBLE_SCHED_COUNT || !out || !out->node || !out->core
        || out->nslots != ns)
        return -EINVAL;
    int nd = topo->nnodes, nb = nbubbles;
    for (int i = 0; i < nb; i++)
        if (!bytes_ok(bubbles[i].node_bytes, nd))
            return -EINVAL;
    long cores = 0;
    for (int n = 0; n < nd; n++)
        cores += topo->capacity[n];
    if (cores == 0)
        return -ENOSPC;
    size_t need = pl_bubble_workspace_bytes(nb, ns, nd);
    if (work_bytes < need || !work)
        return -ENOBUFS;

    bub_t s = { .topo = topo, .b = bubbles, .nb = nb, .ns = ns, .nd = nd,
                .memory = sched == PL_BUBBLE_MEMORY, .node = out->node, .core = out->core };
    pl_arena_t a = { work, work_bytes, 0 };
    size_t mis = (uintptr_t)work & 15;
    if (mis) {
        a.p += 16 - mis;
        a.left -= 16 - mis;
    }
    bub_layout(&s, &a, nb, ns, nd);
    memset(s.resv, 0, sizeof(int) * (size_t)ns * nd);
    bub_tree(&s);

    long threads = 0;
    for (int i = 0; i < nb; i++)
        if (bubbles[i].parent < 0)
            threads += s.size[i];
    long k = (threads + cores - 1) / cores; /* slots per core, >= 1 */
    s.share = k;
    for (int n = 0, o = 0; k > 1 && n < nd; o += topo->capacity[n], n++) {
        s.coff[n] = o; /* cores < threads <= ns here: every core has its counter */
        memset(s.cload + o, 0, sizeof(int) * (size_t)topo->capacity[n]);
    }
    for (int n = 0; n < nd; n++) {
        s.freec[n] = (int)(k * topo->capacity[n]);
        s.used[n] = 0;
    }

    int ne = bub_entities(&s);
    for (int u = 0; u < ne; u++)
        s.eorder[u] = u;
    sort_by(s.eorder, ne, &s, ent_before);
    for (int e = 0; e < ne; e++) {
        int u = s.eorder[e], bb = s.ubub[u], L = ent_load(&s, u), p = s.upref[u];
        int y = -1;
        if (p >= 0)
            y = s.freec[p] >= L ? p : nearest_with(&s, s.freec, p, L, 0);
        if (y < 0 && p >= 0)
            y = nearest_with(&s, s.freec, p, 1, 1);
        if (y < 0) /* cache: the node with the most free slots, lowest on ties */
            for (int n = 0; n < nd; n++)
                if (s.freec[n] > 0 && (y < 0 || s.freec[n] > s.freec[y]))
                    y = n;
        if (y < 0)
            return -ENOSPC;
        memset(s.tr, 0, sizeof(int) * nd);
        if ((rc = take(&s, s.freec, s.tr, L, y)))
            return rc;
        int slot = s.off[bb] + (s.uthr[u] < 0 ? 0 : s.uthr[u]);
        s.tr[y]--;
        place(&s, slot, y);
        if (s.uthr[u] >= 0)
            memcpy(s.resv + (size_t)slot * nd, s.tr, sizeof(int) * nd);
        else if ((rc = place_team(&s, bb)))
            return rc;
    }
    /* Inner teams in array order: their master's slot is placed and holds the
     * reservation of exactly this team's new threads. */
    for (int i = 0; i < nb; i++) {
        int p = bubbles[i].parent;
        if (p < 0)
            continue;
        int ms = s.off[p] + bubbles[i].master, s0 = s.off[i];
        s.node[s0] = s.node[ms];
        s.core[s0] = s.core[ms];
        memcpy(s.tr, s.resv + (size_t)ms * nd, sizeof(int) * nd);
        memset(s.resv + (size_t)ms * nd, 0, sizeof(int) * nd);
        if ((rc = place_team(&s, i)))
            return rc;
    }
    if (out->preferred)
        for (int i = 0; i < nb; i++)
            out->preferred[i] = s.memory ? s.pref[i] : -1;
    return 0;
}

const char *pl_bubble_sched_name(pl_bubble_sched_t sched)
{
    switch (sched) {
    case PL_BUBBLE_CACHE:  return "cache";
    case PL_BUBBLE_MEMORY: return "memory";
    default:               return "unknown";
    }
}

int pl_bubble_sched_from_name(const char *name, pl_bubble_sched_t *sched)
{
    if (!name || !sched)
        return -EINVAL;
    for (int i = 0; i < PL_BUBBLE_SCHED_COUNT; i++)
        if (!strcmp(name, pl_bubble_sched_name((pl_bubble_sched_t)i))) {
            *sched = (pl_bubble_sched_t)i;
            return 0;
        }
    return -EINVAL;
}

/* ---- threads or data (section 4.4) ---------------------------------------- */

void pl_move_cost_default(pl_move_cost_t *c)
{
    c->mig_fixed_us = 120.0;          /* section 3.2: 120 + 11 x pages us      */
    c->mig_page_us = 11.0;
    c->page_bytes = 4096.0;
    c->thread_fixed_us = 2.5;         /* footnote 2: latency about 2.5 us       */
    c->thread_us = 0.06;              /* footnote 2: about 0.06 us per thread   */
    c->local_us_per_byte = 0.083 / 64.0; /* Table 3: 83 ns per local read of a
                                            64-byte line                         */
    c->accesses_per_byte = 1.0;
}

static double migrate_us(const pl_move_cost_t *c, double bytes)
{
    return bytes > 0 ? c->mig_fixed_us + c->mig_page_us * ceil(bytes / c->page_bytes) : 0.0;
}

static double penalty_us(const pl_topo_t *topo, const pl_move_cost_t *c, int x, int n, double bytes)
{
    double extra = pl_i_dist(topo, x, n) / pl_i_dist(topo, x, x) - 1.0;
    if (n == x || !(extra > 0) || bytes <= 0)
        return 0.0;
    return bytes * c->accesses_per_byte * c->local_us_per_byte * extra;
}

/* Remote penalty of all bytes seen from x, skipping node skip (-1: none). */
static double remote_from(const pl_topo_t *topo, const pl_move_cost_t *c, const double *b,
                          int x, int skip)
{
    double acc = 0;
    for (int n = 0; n < topo->nnodes; n++)
        if (n != skip)
            acc += penalty_us(topo, c, x, n, b[n]);
    return acc;
}

static void set_opt(pl_move_option_t *o, int node, double moved, double move, double remote)
{
    o->applicable = 1;
    o->node = node;
    o->bytes_moved = moved;
    o->move_us = move;
    o->remote_us = remote;
    o->total_us = move + remote;
}

int pl_threads_or_data(const pl_topo_t *topo, int cur, int nthreads, const double *b,
                       const pl_move_cost_t *c, pl_move_choice_t *out)
{
    int rc = pl_check_topo(topo);
    if (rc)
        return rc;
    if (!b || !c || !out || cur < 0 || cur >= topo->nnodes || nthreads < 1
        || !bytes_ok(b, topo->nnodes))
        return -EINVAL;
    const double par[] = { c->mig_fixed_us, c->mig_page_us, c->thread_fixed_us, c->thread_us,
                           c->local_us_per_byte, c->accesses_per_byte };
    if (!bytes_ok(par, (int)(sizeof par / sizeof par[0])) || !(c->page_bytes > 0)
        || !isfinite(c->page_bytes))
        return -EINVAL;

    int nd = topo->nnodes;
    for (int k = 0; k < PL_MOVE_COUNT; k++)
        out->option[k] = (pl_move_option_t){ 0, -1, 0.0, HUGE_VAL, HUGE_VAL, HUGE_VAL };
    double thr = c->thread_fixed_us + c->thread_us * nthreads;
    double remote_bytes = 0, data_us = 0;
    int big = -1; /* R: the node off cur with the most bytes */
    for (int n = 0; n < nd; n++) {
        if (n == cur)
            continue;
        remote_bytes += b[n];
        data_us += migrate_us(c, b[n]);
        if (b[n] > 0 && (big < 0 || b[n] > b[big]))
            big = n;
    }

    set_opt(&out->option[PL_MOVE_STAY], cur, 0.0, 0.0, remote_from(topo, c, b, cur, -1));
    for (int x = 0; x < nd; x++) {
        if (x == cur || topo->capacity[x] < nthreads)
            continue;
        double r = remote_from(topo, c, b, x, -1);
        pl_move_option_t *o = &out->option[PL_MOVE_THREADS];
        if (!o->applicable || thr + r < o->total_us)
            set_opt(o, x, 0.0, thr, r);
    }
    if (remote_bytes > 0)
        set_opt(&out->option[PL_MOVE_DATA], cur, remote_bytes, data_us, 0.0);
    if (big >= 0 && b[cur] > 0 && b[cur] < b[big] && topo->capacity[big] >= nthreads) {
        /* After the move the local buffer sits on R too: only third nodes stay remote. */
        set_opt(&out->option[PL_MOVE_MIXED], big, b[cur], thr + migrate_us(c, b[cur]),
                remote_from(topo, c, b, big, cur));
    }
    out->choice = PL_MOVE_STAY;
    for (int k = 1; k < PL_MOVE_COUNT; k++)
        if (out->option[k].applicable && out->option[k].total_us < out->option[out->choice].total_us)
            out->choice = (pl_move_kind_t)k;
    return 0;
}

const char *pl_move_kind_name(pl_move_kind_t kind)
{
    switch (kind) {
    case PL_MOVE_STAY:    return "stay";
    case PL_MOVE_THREADS: return "threads";
    case PL_MOVE_DATA:    return "data";
    case PL_MOVE_MIXED:   return "mixed";
    default:              return "unknown";
    }
}
