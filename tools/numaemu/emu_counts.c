/* emu_counts.c: tags, reset, snapshots and the JSON ground-truth file of the emulated-NUMA plugin. */
#include "emu_counts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t *zalloc(size_t n)
{
    return calloc(n ? n : 1, sizeof(uint64_t));
}

int emu_counts_init(struct emu_counts *k, int vcpus, int nodes, int paced)
{
    memset(k, 0, sizeof *k);
    k->vcpus = vcpus;
    k->nodes = nodes;
    k->cur = -1;
    k->misses = zalloc((size_t)vcpus * nodes);
    k->accesses = zalloc(vcpus);
    k->unmapped = zalloc(vcpus);
    k->delay_ns = zalloc(vcpus);
    k->bw_stalls = zalloc(nodes);
    k->bw_wait_ns = zalloc(nodes);
    k->paced = paced;
    k->pace = zalloc((size_t)EMU_PACE_FIELDS * vcpus);
    k->lag_bins = zalloc(paced ? (size_t)EMU_LAG_BINS * vcpus : 0);
    k->pages = calloc((size_t)vcpus * EMU_PAGE_SLOTS, sizeof *k->pages);
    k->pages_other = zalloc(vcpus);
    pthread_mutex_init(&k->lock, NULL);
    if (!k->misses || !k->accesses || !k->unmapped || !k->delay_ns || !k->bw_stalls || !k->bw_wait_ns || !k->pace ||
        !k->lag_bins || !k->pages || !k->pages_other) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

/* The current tag's host time up to now. Lock held. */
static void leave_tag(struct emu_counts *k, uint64_t now)
{
    int cur = __atomic_load_n(&k->cur, __ATOMIC_RELAXED);
    if (cur >= 0)
        k->tags[cur].wall_ns += now - k->tags[cur].since_ns;
}

void emu_counts_set_tag(struct emu_counts *k, uint32_t id)
{
    uint64_t now = emu_now_ns();
    pthread_mutex_lock(&k->lock);
    if (id == 0 || id >= EMU_TAG_IDS) {
        leave_tag(k, now);
        __atomic_store_n(&k->cur, -1, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&k->lock);
        return;
    }
    int slot = k->slot_of[id] - 1;
    if (slot < 0 && k->ntags < EMU_MAX_TAGS) {
        struct emu_tag *t = &k->tags[k->ntags];
        t->misses = zalloc((size_t)k->vcpus * k->nodes);
        t->accesses = zalloc(k->vcpus);
        t->pace = zalloc((size_t)EMU_PACE_FIELDS * k->vcpus);
        if (t->misses && t->accesses && t->pace) {
            t->id = id;
            slot = k->ntags++;
            k->slot_of[id] = (int16_t)(slot + 1);
        } else {
            free(t->misses);
            free(t->accesses);
            free(t->pace);
            t->misses = t->accesses = t->pace = NULL;
        }
    }
    if (slot >= 0) {
        k->tags[slot].entered++;
    } else {
        k->tags_dropped++;
    }
    leave_tag(k, now);
    if (slot >= 0)
        k->tags[slot].since_ns = now;
    __atomic_store_n(&k->cur, slot, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&k->lock);
}

/* Paced time at host time now: what was paced before plus the current stretch. Read without the lock by
 * vCPUs (a torn pair only misfiles one lag event's second). */
static uint64_t paced_at(struct emu_counts *k, uint64_t now)
{
    uint64_t since = __atomic_load_n(&k->pace_since, __ATOMIC_RELAXED);
    return __atomic_load_n(&k->paced_ns, __ATOMIC_RELAXED) + (since && now > since ? now - since : 0);
}

void emu_counts_lag(struct emu_counts *k, int vcpu, uint64_t ns, uint64_t now)
{
    emu_counts_pace(k, vcpu, EMU_PACE_LAG_NS, ns);
    uint64_t bin = paced_at(k, now) / EMU_LAG_BIN_NS;
    if (bin >= EMU_LAG_BINS)
        bin = EMU_LAG_BINS - 1;
    __atomic_fetch_add(&k->lag_bins[(size_t)vcpu * EMU_LAG_BINS + bin], ns, __ATOMIC_RELAXED);
}

void emu_counts_pacing(struct emu_counts *k, int on, uint64_t now_ns)
{
    pthread_mutex_lock(&k->lock);
    if (on && !k->pace_since)
        __atomic_store_n(&k->pace_since, now_ns, __ATOMIC_RELAXED);
    else if (!on && k->pace_since) {
        __atomic_store_n(&k->paced_ns, k->paced_ns + now_ns - k->pace_since, __ATOMIC_RELAXED);
        __atomic_store_n(&k->pace_since, 0, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&k->lock);
}

static void zero(uint64_t *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        __atomic_store_n(&a[i], 0, __ATOMIC_RELAXED);
}

void emu_counts_reset(struct emu_counts *k)
{
    pthread_mutex_lock(&k->lock);
    size_t vn = (size_t)k->vcpus * k->nodes;
    zero(k->misses, vn);
    zero(k->accesses, k->vcpus);
    zero(k->unmapped, k->vcpus);
    zero(k->delay_ns, k->vcpus);
    zero(k->bw_stalls, k->nodes);
    zero(k->bw_wait_ns, k->nodes);
    size_t pn = (size_t)EMU_PACE_FIELDS * k->vcpus;
    zero(k->pace, pn);
    if (k->paced)
        zero(k->lag_bins, (size_t)EMU_LAG_BINS * k->vcpus);
    zero((uint64_t *)k->pages, (size_t)k->vcpus * EMU_PAGE_SLOTS * (sizeof *k->pages / sizeof(uint64_t)));
    zero(k->pages_other, k->vcpus);
    uint64_t now = emu_now_ns();
    __atomic_store_n(&k->paced_ns, 0, __ATOMIC_RELAXED);
    if (k->pace_since)
        __atomic_store_n(&k->pace_since, now, __ATOMIC_RELAXED);
    /* Tags keep their slots (a vCPU may be counting into one right now);
     * those not entered since are left out of the file. */
    for (int i = 0; i < k->ntags; i++) {
        zero(k->tags[i].misses, vn);
        zero(k->tags[i].accesses, k->vcpus);
        zero(k->tags[i].pace, pn);
        k->tags[i].entered = 0;
        k->tags[i].wall_ns = 0;
        k->tags[i].since_ns = now;
    }
    k->tags_dropped = 0;
    free(k->snaps);
    k->snaps = NULL;
    k->snaps_len = 0;
    k->nsnaps = 0;
    pthread_mutex_unlock(&k->lock);
}

/* A growing string; on allocation failure it stays as it was and flags it. */
struct sb {
    char *s;
    size_t len, cap;
    int failed;
};

static void sb_printf(struct sb *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
}

static uint64_t ld(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void sb_vec(struct sb *b, const uint64_t *v, int n)
{
    sb_printf(b, "[");
    for (int i = 0; i < n; i++)
        sb_printf(b, "%s%llu", i ? ", " : "", (unsigned long long)ld(&v[i]));
    sb_printf(b, "]");
}

/* The first cols of each row of a matrix whose rows are stride apart. */
static void sb_matrix_stride(struct sb *b, const uint64_t *m, int rows, int cols, int stride)
{
    sb_printf(b, "[");
    for (int r = 0; r < rows; r++) {
        sb_printf(b, "%s", r ? ", " : "");
        sb_vec(b, m + (size_t)r * stride, cols);
    }
    sb_printf(b, "]");
}

static void sb_matrix(struct sb *b, const uint64_t *m, int rows, int cols)
{
    sb_matrix_stride(b, m, rows, cols, cols);
}

/* The pace members of a counts object or a tag (per vCPU: pace is EMU_PACE_FIELDS x vcpus). */
static void sb_pace(struct sb *b, const uint64_t *pace, int vcpus)
{
    static const char *const names[EMU_PACE_FIELDS] = {"insns", "model_ns", "lag_ns", "wait_ns"};
    for (int f = 0; f < EMU_PACE_FIELDS; f++) {
        sb_printf(b, ", \"%s\": ", names[f]);
        sb_vec(b, pace + (size_t)f * vcpus, vcpus);
    }
}

/* "remote_pages": per vCPU, the EMU_PAGES_SHOWN pages with the most remote
 * misses in tagged intervals, most first; "remote_pages_other": per vCPU,
 * the misses of pages beyond its table and of pages not shown. */
static void sb_remote_pages(struct sb *b, const struct emu_counts *k)
{
    sb_printf(b, ", \"remote_pages\": [");
    uint64_t *other = calloc((size_t)k->vcpus, sizeof *other);
    for (int v = 0; v < k->vcpus; v++) {
        const struct emu_page *t = k->pages + (size_t)v * EMU_PAGE_SLOTS;
        uint64_t shown_below = UINT64_MAX, all = 0, shown = 0;
        size_t last = SIZE_MAX;
        sb_printf(b, "%s[", v ? ", " : "");
        for (int n = 0; n < EMU_PAGES_SHOWN; n++) {
            /* The next page by misses (ties by slot): a selection, EMU_PAGES_SHOWN passes. */
            size_t best = SIZE_MAX;
            for (size_t i = 0; i < EMU_PAGE_SLOTS; i++) {
                uint64_t m = __atomic_load_n(&t[i].misses, __ATOMIC_RELAXED);
                if (!t[i].page || !m || m > shown_below || (m == shown_below && i <= last))
                    continue;
                if (best == SIZE_MAX || m > t[best].misses)
                    best = i;
            }
            if (best == SIZE_MAX)
                break;
            shown_below = t[best].misses;
            last = best;
            shown += t[best].misses;
            sb_printf(b, "%s{\"page\": \"0x%llx\", \"node\": %llu, \"misses\": %llu}", n ? ", " : "",
                      (unsigned long long)((t[best].page - 1) << 12), (unsigned long long)t[best].node,
                      (unsigned long long)t[best].misses);
        }
        for (size_t i = 0; i < EMU_PAGE_SLOTS; i++)
            all += t[i].page ? __atomic_load_n(&t[i].misses, __ATOMIC_RELAXED) : 0;
        if (other)
            other[v] = all - shown + __atomic_load_n(&k->pages_other[v], __ATOMIC_RELAXED);
        sb_printf(b, "]");
    }
    sb_printf(b, "], \"remote_pages_other\": ");
    if (other)
        sb_vec(b, other, k->vcpus);
    else
        sb_printf(b, "null");
    free(other);
}

/* "misses", "accesses", ... and "tags": the members of one counts object, as of now. Lock held. */
static void sb_counts(struct sb *b, struct emu_counts *k, uint64_t now)
{
    sb_printf(b, "\"misses\": ");
    sb_matrix(b, k->misses, k->vcpus, k->nodes);
    sb_printf(b, ", \"accesses\": ");
    sb_vec(b, k->accesses, k->vcpus);
    sb_printf(b, ", \"unmapped\": ");
    sb_vec(b, k->unmapped, k->vcpus);
    sb_printf(b, ", \"delay_ns\": ");
    sb_vec(b, k->delay_ns, k->vcpus);
    sb_printf(b, ", \"bandwidth_stalls\": ");
    sb_vec(b, k->bw_stalls, k->nodes);
    sb_printf(b, ", \"bandwidth_wait_ns\": ");
    sb_vec(b, k->bw_wait_ns, k->nodes);
    int cur = __atomic_load_n(&k->cur, __ATOMIC_RELAXED);
    if (k->paced) {
        sb_pace(b, k->pace, k->vcpus);
        uint64_t paced = paced_at(k, now);
        uint64_t bins = paced / EMU_LAG_BIN_NS + 1;
        sb_printf(b, ", \"paced_ns\": %llu, \"lag_bin_ns\": %u, \"lag_ns_per_bin\": ", (unsigned long long)paced,
                  EMU_LAG_BIN_NS);
        sb_matrix_stride(b, k->lag_bins, k->vcpus, bins < EMU_LAG_BINS ? (int)bins : EMU_LAG_BINS, EMU_LAG_BINS);
    }
    sb_remote_pages(b, k);
    sb_printf(b, ", \"tags_dropped\": %llu, \"tags\": [", (unsigned long long)k->tags_dropped);
    int first = 1;
    for (int i = 0; i < k->ntags; i++) {
        struct emu_tag *t = &k->tags[i];
        if (!t->entered)
            continue;
        sb_printf(b, "%s{\"tag\": %u, \"entered\": %llu, \"misses\": ", first ? "" : ", ", t->id,
                  (unsigned long long)t->entered);
        sb_matrix(b, t->misses, k->vcpus, k->nodes);
        sb_printf(b, ", \"accesses\": ");
        sb_vec(b, t->accesses, k->vcpus);
        if (k->paced) {
            sb_pace(b, t->pace, k->vcpus);
            sb_printf(b, ", \"wall_ns\": %llu",
                      (unsigned long long)(t->wall_ns + (i == cur ? now - t->since_ns : 0)));
        }
        sb_printf(b, "}");
        first = 0;
    }
    sb_printf(b, "]");
}

void emu_counts_snapshot(struct emu_counts *k)
{
    pthread_mutex_lock(&k->lock);
    struct sb b = {k->snaps, k->snaps_len, k->snaps_len, 0};
    /* b.cap == len makes the first printf grow the buffer as needed. */
    sb_printf(&b, "%s{", k->nsnaps ? ", " : "");
    sb_counts(&b, k, emu_now_ns());
    sb_printf(&b, "}");
    if (!b.failed) {
        k->snaps = b.s;
        k->snaps_len = b.len;
        k->nsnaps++;
    } else {
        k->snaps = b.s;
    }
    pthread_mutex_unlock(&k->lock);
}

int emu_counts_write_file(struct emu_counts *k, const char *config, const char *path)
{
    struct sb b = {0};
    pthread_mutex_lock(&k->lock);
    sb_printf(&b, "{%s, ", config);
    sb_counts(&b, k, emu_now_ns());
    sb_printf(&b, ", \"snapshots\": [%.*s]}\n", (int)k->snaps_len, k->snaps ? k->snaps : "");
    pthread_mutex_unlock(&k->lock);
    if (b.failed) {
        free(b.s);
        errno = ENOMEM;
        return -1;
    }
    size_t n = strlen(path) + 8;
    char *tmp = malloc(n);
    if (!tmp) {
        free(b.s);
        errno = ENOMEM;
        return -1;
    }
    snprintf(tmp, n, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int rc = -1;
    if (f) {
        size_t w = fwrite(b.s, 1, b.len, f);
        int closed = fclose(f);
        if (w == b.len && closed == 0 && rename(tmp, path) == 0)
            rc = 0;
        else
            unlink(tmp);
    }
    int saved = errno;
    free(tmp);
    free(b.s);
    errno = saved;
    return rc;
}
