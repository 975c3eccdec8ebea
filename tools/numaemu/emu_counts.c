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

int emu_counts_init(struct emu_counts *k, int vcpus, int nodes)
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
    pthread_mutex_init(&k->lock, NULL);
    if (!k->misses || !k->accesses || !k->unmapped || !k->delay_ns || !k->bw_stalls || !k->bw_wait_ns) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

void emu_counts_set_tag(struct emu_counts *k, uint32_t id)
{
    if (id == 0 || id >= EMU_TAG_IDS) {
        __atomic_store_n(&k->cur, -1, __ATOMIC_RELAXED);
        return;
    }
    pthread_mutex_lock(&k->lock);
    int slot = k->slot_of[id] - 1;
    if (slot < 0 && k->ntags < EMU_MAX_TAGS) {
        struct emu_tag *t = &k->tags[k->ntags];
        t->misses = zalloc((size_t)k->vcpus * k->nodes);
        t->accesses = zalloc(k->vcpus);
        if (t->misses && t->accesses) {
            t->id = id;
            slot = k->ntags++;
            k->slot_of[id] = (int16_t)(slot + 1);
        } else {
            free(t->misses);
            free(t->accesses);
            t->misses = t->accesses = NULL;
        }
    }
    if (slot >= 0) {
        k->tags[slot].entered++;
    } else {
        k->tags_dropped++;
    }
    __atomic_store_n(&k->cur, slot, __ATOMIC_RELAXED);
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
    /* Tags keep their slots (a vCPU may be counting into one right now);
     * those not entered since are left out of the file. */
    for (int i = 0; i < k->ntags; i++) {
        zero(k->tags[i].misses, vn);
        zero(k->tags[i].accesses, k->vcpus);
        k->tags[i].entered = 0;
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

static void sb_matrix(struct sb *b, const uint64_t *m, int rows, int cols)
{
    sb_printf(b, "[");
    for (int r = 0; r < rows; r++) {
        sb_printf(b, "%s", r ? ", " : "");
        sb_vec(b, m + (size_t)r * cols, cols);
    }
    sb_printf(b, "]");
}

/* "misses", "accesses", ... and "tags": the members of one counts object. Lock held. */
static void sb_counts(struct sb *b, struct emu_counts *k)
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
    sb_counts(&b, k);
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
    sb_counts(&b, k);
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
