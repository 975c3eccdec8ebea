/* pl_greedy.c: the OS-default mappings (compact, scatter) and the paper's greedy Algorithms 2 and 3. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "pl_internal.h"
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define PL_AVX2 1 /* the set-up has an AVX2 path, taken when the CPU has it */
#endif

/* Fill node 0, then node 1, ...: what OMP_PROC_BIND=close gives on a machine
 * whose cores are numbered node by node. */
int pl_i_compact(const pl_topo_t *topo, int n, int *node)
{
    int d = 0, used = 0;
    for (int t = 0; t < n; t++) {
        while (d < topo->nnodes && used >= topo->capacity[d]) { d++; used = 0; }
        if (d >= topo->nnodes)
            return -ENOSPC;
        node[t] = d;
        used++;
    }
    return 0;
}

/* Round-robin over the nodes that still have a free core: OMP_PROC_BIND=spread
 * at node granularity. Precondition: at most PL_MAX_NODES nodes. */
int pl_i_scatter(const pl_topo_t *topo, int n, int *node)
{
    int used[PL_MAX_NODES];
    int nd = topo->nnodes, d = 0;
    memset(used, 0, sizeof(int) * nd);
    for (int t = 0; t < n; t++) {
        int tries = 0;
        while (used[d] >= topo->capacity[d]) {
            d = (d + 1) % nd;
            if (++tries > nd)
                return -ENOSPC;
        }
        node[t] = d;
        used[d]++;
        d = (d + 1) % nd;
    }
    return 0;
}

/*
 * The sorted element list of the paper, kept as one list per node column,
 * ordered by (V descending, thread ascending). Both algorithms only ever look
 * at the largest remaining element of each column, so each column has a
 * cursor that skips threads already placed: a selection step costs O(Nd).
 *
 * Nothing is sorted before a cursor needs it. Cursors rarely reach the bottom
 * of a column (nodes fill up first), and most of what they do pass over are
 * threads already placed on other nodes. So the set-up (bucket_columns) only
 * threads each column's elements onto 2^bbits value buckets (linked lists in
 * thread order, the highest bucket read first, no counting pass), and when a
 * cursor runs out,
 * the still unplaced threads of the next buckets (whole buckets, until 16 or
 * what the node can still take) are gathered and sorted exactly: insertion
 * sort when few, else a stable LSD radix sort on the bits below the bucket's
 * prefix. A placed thread never becomes unplaced again, so
 * leaving it out of the sort changes no answer of the cursor; gathering in
 * thread order and sorting stably keeps ties in thread order. Everything is
 * O(N*Nd) plus the unplaced elements actually read; this is what keeps
 * critpath in tens of microseconds at 1024 threads (the paper uses a parallel
 * radix sort for the same reason).
 */
#define INSERTION_MAX 32
/* Unplaced threads a cursor gathers at once: whole buckets until at least
 * this many. Fewer would call the gathering (and its mispredicted branches)
 * on almost every step; more would sort threads no cursor reaches. */
#define CHUNK_MIN 16

typedef struct kv { uint64_t v; int t; } kv_t;

typedef struct cols {
    const uint64_t *refs;
    int   n, nd;
    int   bbits;      /* 2^bbits buckets per column, about 4 elements each */
    int  *run;        /* [nd][ls] sorted unplaced threads of the chunk being read, then n */
    double *ifv;      /* [nd][ls] critpath: IF (Eq. 4) of each run entry; NULL for maxlocal */
    double factor;    /* NUMA factor of the IFs */
    const int *capacity; /* [nd] cores of each node */
    int  *link;       /* [nd][ls] next thread of the same bucket, -1 ends */
    int   ls;         /* column stride of link, run and ifv: col_stride(n) */
    int  *head;       /* [nd][2^bbits] first thread of each bucket, -1 empty */
    uint64_t *tv;     /* [n] scratch of the gathering: values */
    kv_t *tmp;        /* [2n] scratch of the radix sort */
    uint64_t *vmax;   /* [nd] maximum of the column (portable set-up: its OR, same bit length) */
    uint64_t *cmin;   /* [nd] bucket = (v - cmin) >> shift; 0 in the portable set-up */
    int  *bucket;     /* [nd] next bucket to read (they go down), -1 none */
    int  *pos;        /* [nd] cursor in run */
    int  *len;        /* [nd] length of run */
    int  *shift;      /* [nd] bucket = v >> shift */
    int  *used;       /* [nd] threads placed on the node */
    int  *seg;        /* [2n] scratch of the gathering: start and end of each bucket to sort */
    unsigned char *placed; /* [n+1]; placed[n] stays 0: every run ends with n */
    double *load;     /* [nd] CPImpact (critpath) or LC (maxlocal) */
    double *rowsum;   /* [n] */
    int  *cand;       /* [nd] critpath: cached top thread of the column, -1 closed */
    double *impact;   /* [nd] critpath: IF of the cached top */
} cols_t;

/* Enough buckets for about four elements each: fewer make the exact sorts
 * longer, more cost a pointer per empty bucket. */
static int bucket_bits(int n)
{
    int b = 1;
    while (b < 10 && (1L << (b + 2)) < n)
        b++;
    return b;
}

/* Columns of link, run and ifv start one or two cache lines apart, not a
 * multiple of 4 KiB: the AVX2 set-up writes one link of every column per
 * row, and the steps read the first entries of every column's run and ifv;
 * at a stride of 4 or 8 KiB these would all fall into one set of the
 * first-level cache. At least n + 1 (a run ends with n). */
static int col_stride(int n)
{
    return ((n + 15) & ~15) + 16;
}

/* Sort k gathered threads of one bucket of column d (values in tv, threads in
 * run) by value descending, stably: they share the bits of v above shift. */
static void sort_bucket(cols_t *c, int d, int *run, uint64_t *tv, int k)
{
    if (k <= INSERTION_MAX) {
        /* Only strictly greater values move: equal ones keep thread order. */
        for (int i = 1; i < k; i++) {
            uint64_t v = tv[i];
            int t = run[i], j = i;
            for (; j > 0 && tv[j - 1] < v; j--) {
                tv[j] = tv[j - 1];
                run[j] = run[j - 1];
            }
            tv[j] = v;
            run[j] = t;
        }
        return;
    }
    kv_t *a = c->tmp, *x = c->tmp + c->n;
    for (int i = 0; i < k; i++)
        a[i] = (kv_t){ tv[i], run[i] };
    /* The bits below the bucket's prefix in as few passes of at most 8 bits
     * as there must be, split evenly: the counts of a pass are cleared and
     * summed over 2^bits entries, not 256 (a 13-bit remainder takes 7 + 6,
     * 192 counts, rather than 8 + 5 over 512). The digits are those of
     * v - cmin, whose bits above shift are the bucket's. */
    uint64_t lo = c->cmin[d];
    int sh = c->shift[d], passes = (sh + 7) / 8, width = passes ? (sh + passes - 1) / passes : 0;
    for (int s = 0; s < sh; s += width) {
        int count[257];
        int bits = sh - s < width ? sh - s : width;
        unsigned mask = (1u << bits) - 1;
        memset(count, 0, sizeof(int) * (mask + 2));
        /* Bucket mask - digit: descending order, stable within a digit. */
        for (int i = 0; i < k; i++)
            count[mask - (((a[i].v - lo) >> s) & mask) + 1]++;
        for (unsigned i = 1; i <= mask + 1; i++)
            count[i] += count[i - 1];
        for (int i = 0; i < k; i++)
            x[count[mask - (((a[i].v - lo) >> s) & mask)]++] = a[i];
        kv_t *y = a; a = x; x = y;
    }
    for (int i = 0; i < k; i++) {
        tv[i] = a[i].v;
        run[i] = a[i].t;
    }
}

/*
 * Refill run[d] with the unplaced threads of the next buckets of column d,
 * whole buckets until CHUNK_MIN or the column's end, sorted; returns how many.
 * The gathering has no branch on placed (an unplaced thread just advances the
 * write index). For critpath the IF of every gathered thread is computed here
 * in one independent batch, so that a step reads it instead of waiting for
 * the row total and two floating-point operations.
 */
/* Not inlined into top(): a cursor's usual step skips placed threads and
 * returns, and should not pay for this function's registers and frame. */
__attribute__((noinline)) static int load_chunk(cols_t *c, int d)
{
    int n = c->n, nd = c->nd;
    const int *link = c->link + (size_t)d * c->ls;
    const int *head = c->head + ((size_t)d << c->bbits);
    const unsigned char *placed = c->placed;
    const uint64_t *col = c->refs + d;
    int *run = c->run + (size_t)d * c->ls;
    uint64_t *tv = c->tv;
    double *ifv = c->ifv ? c->ifv + (size_t)d * c->ls : NULL;
    /* A column's first gathering in a decision writes ifv lines that nothing
     * touched before it, and in the runtime a decision starts on caches the
     * team's threads just evicted: asked for here, before the walks, those
     * misses overlap the walks instead of stalling the IF batch (measured:
     * 2 to 3 % of a cold decision). Three lines: CHUNK_MIN entries and the
     * last bucket's overshoot. */
    if (ifv)
        for (int i = 0; i < 3 * 8; i += 8)
            __builtin_prefetch(ifv + i, 1);
    /* No more than the node can still take: a full node closes its column,
     * and the buckets below are often a few large ones (block-local columns:
     * the many small remote counts) that no cursor reaches. */
    int want = c->capacity[d] - c->used[d];
    want = want < CHUNK_MIN ? want : CHUNK_MIN;
    /* The walks only note where a bucket with two or more unplaced threads
     * starts and ends (most have none or one): the values are loaded, and
     * those buckets sorted, after all walks, each in one loop rather than a
     * loop of zero, one or two turns (a mispredicted exit) per bucket. The
     * end is stored with the start (a store per bucket) rather than found
     * again from the values' prefixes (a loop with a mispredicted exit per
     * sorted bucket: 3 % of a decision). */
    int k = 0, b = c->bucket[d], nseg = 0;
    int *seg = c->seg;
    for (; b >= 0 && k < want; b--) {
        int k0 = k;
        for (int t = head[b]; t >= 0; t = link[t]) {
            run[k] = t;
            k += !placed[t];
        }
        seg[2 * nseg] = k0;
        seg[2 * nseg + 1] = k;
        nseg += k - k0 > 1;
    }
    c->bucket[d] = b;
    run[k] = n;
    /* The values of the unplaced threads only: each is a cache line of the
     * table, and these loads wait for no link. */
    for (int i = 0; i < k; i++)
        tv[i] = col[(size_t)run[i] * nd];
    for (int j = 0; j < nseg; j++)
        sort_bucket(c, d, run + seg[2 * j], tv + seg[2 * j], seg[2 * j + 1] - seg[2 * j]);
    if (ifv) {
        double f = c->factor;
        const double *rowsum = c->rowsum;
        for (int i = 0; i < k; i++) {
            double v = (double)tv[i];
            ifv[i] = v + f * (rowsum[run[i]] - v);
        }
    }
    return k;
}

/* Largest remaining element of column d, or -1; pos[d] is its run index. */
static inline int top(cols_t *c, int d)
{
    const int *run = c->run + (size_t)d * c->ls;
    const unsigned char *placed = c->placed;
    int p = c->pos[d];
    for (;;) {
        /* The run ends with thread n, never placed: no bound check. */
        while (placed[run[p]])
            p++;
        if (p < c->len[d] || c->bucket[d] < 0)
            break;
        c->len[d] = load_chunk(c, d);
        p = 0;
    }
    c->pos[d] = p;
    return p < c->len[d] ? run[p] : -1;
}

/*
 * The set-up reads the TNT twice: one row-major pass gives the row totals
 * and each column's range, then each column is threaded onto its buckets,
 * last thread first so that every bucket lists its threads in ascending
 * order. The portable passes bucket [0, 2^bits of the column's maximum); the
 * AVX2 ones, which get each column's minimum for two instructions per four
 * entries, bucket [minimum, maximum]: an all-shared table's columns (values
 * within 10 % of each other) then fill all their buckets instead of 13 of
 * 256, and a gathering sorts a few threads instead of 80. The buckets only
 * decide how much a gathering sorts; which thread a cursor returns is the
 * same either way.
 */

/* Row totals in 64 bits (exact unless the overflow check in bucket_columns
 * redoes them) and the OR of every column, four rows at a time: one update of
 * the column ORs per four elements. */
static void rows_portable(cols_t *c)
{
    int n = c->n, nd = c->nd;
    const uint64_t *restrict refs = c->refs;
    uint64_t *restrict vmax = c->vmax;
    double *restrict rowsum = c->rowsum;
    for (int d = 0; d < nd; d++)
        vmax[d] = c->cmin[d] = 0;
    int t = 0;
    for (; t + 4 <= n; t += 4) {
        const uint64_t *r0 = refs + (size_t)t * nd, *r1 = r0 + nd, *r2 = r1 + nd, *r3 = r2 + nd;
        uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int d = 0; d < nd; d++) {
            s0 += r0[d];
            s1 += r1[d];
            s2 += r2[d];
            s3 += r3[d];
            vmax[d] |= r0[d] | r1[d] | r2[d] | r3[d];
        }
        rowsum[t] = (double)s0;
        rowsum[t + 1] = (double)s1;
        rowsum[t + 2] = (double)s2;
        rowsum[t + 3] = (double)s3;
    }
    for (; t < n; t++) {
        const uint64_t *row = refs + (size_t)t * nd;
        uint64_t r = 0;
        for (int d = 0; d < nd; d++) {
            r += row[d];
            vmax[d] |= row[d];
        }
        rowsum[t] = (double)r;
    }
}

/* Two columns per pass: the pair's values share a cache line of the table,
 * which a column at a time loads once per column (measured: 2 to 4 % of a
 * 1024 x 16 decision; four at a time spill registers and are slower). A node
 * without cores is threaded too and never read. */
static void thread_portable(cols_t *c)
{
    int n = c->n, nd = c->nd, bb = c->bbits, t, d = 0;
    const uint64_t *restrict refs = c->refs;
    for (; d + 2 <= nd; d += 2) {
        int *restrict h0 = c->head + ((size_t)d << bb), *restrict h1 = h0 + (1 << bb);
        int *restrict l0 = c->link + (size_t)d * c->ls, *restrict l1 = l0 + c->ls;
        const uint64_t *restrict col = refs + d;
        int s0 = c->shift[d], s1 = c->shift[d + 1];
        for (t = n - 1; t >= 0; t--) {
            uint64_t b0 = col[(size_t)t * nd] >> s0, b1 = col[(size_t)t * nd + 1] >> s1;
            l0[t] = h0[b0];
            h0[b0] = t;
            l1[t] = h1[b1];
            h1[b1] = t;
        }
    }
    for (; d < nd; d++) {
        int *restrict head = c->head + ((size_t)d << bb);
        int *restrict link = c->link + (size_t)d * c->ls;
        const uint64_t *restrict col = refs + d;
        int sh = c->shift[d];
        for (t = n - 1; t >= 0; t--) {
            uint64_t b = col[(size_t)t * nd] >> sh;
            link[t] = head[b];
            head[b] = t;
        }
    }
}

#ifdef PL_AVX2
/* Columns d0 .. d0 + 4 * ng - 1 (ng <= 4, a constant once inlined: the
 * minima and maxima stay in registers). Unsigned order through signed
 * compares of the values with their top bit flipped. Row totals go to
 * sums[t], added to what earlier blocks left there unless first. */
__attribute__((target("avx2"), always_inline)) static inline void
rows_block_avx2(cols_t *c, int d0, int ng, uint64_t *sums, int first)
{
    int n = c->n, nd = c->nd;
    const __m256i flip = _mm256_set1_epi64x(INT64_MIN);
    __m256i mn[4], mx[4];
    for (int g = 0; g < ng; g++) {
        mn[g] = _mm256_set1_epi64x(INT64_MAX);
        mx[g] = _mm256_set1_epi64x(INT64_MIN);
    }
    for (int t = 0; t < n; t++) {
        const uint64_t *row = c->refs + (size_t)t * nd + d0;
        __m256i s = _mm256_setzero_si256();
        for (int g = 0; g < ng; g++) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(row + 4 * g));
            s = _mm256_add_epi64(s, x);
            x = _mm256_xor_si256(x, flip);
            mn[g] = _mm256_blendv_epi8(mn[g], x, _mm256_cmpgt_epi64(mn[g], x));
            mx[g] = _mm256_blendv_epi8(mx[g], x, _mm256_cmpgt_epi64(x, mx[g]));
        }
        __m128i h = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        h = _mm_add_epi64(h, _mm_unpackhi_epi64(h, h));
        uint64_t sum = (uint64_t)_mm_cvtsi128_si64(h);
        sums[t] = first ? sum : sums[t] + sum;
    }
    for (int g = 0; g < ng; g++) {
        _mm256_storeu_si256((__m256i *)(c->cmin + d0 + 4 * g), _mm256_xor_si256(mn[g], flip));
        _mm256_storeu_si256((__m256i *)(c->vmax + d0 + 4 * g), _mm256_xor_si256(mx[g], flip));
    }
}

/* nd a multiple of 4: row totals, column minima and maxima, by blocks of up
 * to 16 columns; the totals of several blocks add up in the gathering's
 * scratch (tv, unused until the first gathering). */
__attribute__((target("avx2"))) static void rows_avx2(cols_t *c)
{
    uint64_t *sums = c->tv;
    for (int d0 = 0; d0 < c->nd; d0 += 16) {
        int first = d0 == 0;
        switch ((c->nd - d0) / 4) {
        case 1:  rows_block_avx2(c, d0, 1, sums, first); break;
        case 2:  rows_block_avx2(c, d0, 2, sums, first); break;
        case 3:  rows_block_avx2(c, d0, 3, sums, first); break;
        default: rows_block_avx2(c, d0, 4, sums, first); break;
        }
    }
    for (int t = 0; t < c->n; t++)
        c->rowsum[t] = (double)sums[t];
}

/* Thread columns d0 .. d0 + 4 * ng - 1 row by row: the bucket slots of a
 * row's values, (v - cmin) >> shift plus the column's first slot, in four
 * vector operations per four columns, then two stores and a load each. */
__attribute__((target("avx2"), always_inline)) static inline void
thread_block_avx2(cols_t *c, int d0, int ng)
{
    int n = c->n, nd = c->nd, bb = c->bbits, ls = c->ls;
    int *restrict head = c->head;
    int *restrict link = c->link + (size_t)d0 * ls;
    __m256i lo[4], sh[4], base[4];
    for (int g = 0; g < ng; g++) {
        int d = d0 + 4 * g;
        lo[g] = _mm256_loadu_si256((const __m256i *)(c->cmin + d));
        sh[g] = _mm256_set_epi64x(c->shift[d + 3], c->shift[d + 2], c->shift[d + 1], c->shift[d]);
        base[g] = _mm256_set_epi64x((int64_t)(d + 3) << bb, (int64_t)(d + 2) << bb,
                                    (int64_t)(d + 1) << bb, (int64_t)d << bb);
    }
    uint64_t slot[16];
    for (int t = n - 1; t >= 0; t--) {
        const uint64_t *row = c->refs + (size_t)t * nd + d0;
        for (int g = 0; g < ng; g++) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(row + 4 * g));
            x = _mm256_add_epi64(_mm256_srlv_epi64(_mm256_sub_epi64(x, lo[g]), sh[g]), base[g]);
            _mm256_storeu_si256((__m256i *)(slot + 4 * g), x);
        }
        for (int j = 0; j < 4 * ng; j++) {
            link[(size_t)j * ls + t] = head[slot[j]];
            head[slot[j]] = t;
        }
    }
}

__attribute__((target("avx2"))) static void thread_avx2(cols_t *c)
{
    for (int d0 = 0; d0 < c->nd; d0 += 16) {
        switch ((c->nd - d0) / 4) {
        case 1:  thread_block_avx2(c, d0, 1); break;
        case 2:  thread_block_avx2(c, d0, 2); break;
        case 3:  thread_block_avx2(c, d0, 3); break;
        default: thread_block_avx2(c, d0, 4); break;
        }
    }
}
#endif

/* Whether this CPU takes the AVX2 set-up (the decisions are the same). */
int pl_i_greedy_simd(void)
{
#ifdef PL_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

static void bucket_columns(cols_t *c, const pl_topo_t *topo, int simd)
{
    int n = c->n, nd = c->nd, bb = c->bbits;
    const uint64_t *restrict refs = c->refs;
#ifdef PL_AVX2
    simd = simd && nd % 4 == 0;
    if (simd)
        rows_avx2(c);
    else
#endif
        rows_portable(c);
    /* Row totals are summed in 64 bits when no row can overflow (every
     * column below 2^bits_d, and the sum of those bounds below 2^64), else in
     * double. */
    unsigned __int128 bound = 0;
    for (int d = 0; d < nd; d++) {
        int bits = 0, rbits = 0;
        for (uint64_t v = c->vmax[d]; v; v >>= 1)
            bits++;
        for (uint64_t span = c->vmax[d] - c->cmin[d]; span; span >>= 1)
            rbits++;
        c->shift[d] = rbits > bb ? rbits - bb : 0;
        bound += (unsigned __int128)1 << bits;
    }
    if (bound > (unsigned __int128)UINT64_MAX)
        for (int t = 0; t < n; t++) {
            double r = 0;
            for (int d = 0; d < nd; d++)
                r += (double)refs[(size_t)t * nd + d];
            c->rowsum[t] = r;
        }
    for (int d = 0; d < nd; d++) {
        c->pos[d] = c->len[d] = 0;
        c->run[(size_t)d * c->ls] = n;
        if (topo->capacity[d] <= 0) {
            /* A node without cores never receives a thread: no column to read. */
            c->bucket[d] = -1;
            continue;
        }
        c->bucket[d] = (1 << bb) - 1;
    }
    for (size_t i = 0; i < ((size_t)nd << bb); i++)
        c->head[i] = -1;
#ifdef PL_AVX2
    if (simd) {
        thread_avx2(c);
        return;
    }
#endif
    thread_portable(c);
}

static size_t critpath_sel_bytes(int n, int nd);

size_t pl_i_greedy_bytes(int n, int nd)
{
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(int) * (size_t)col_stride(n) * nd);
    pl_i_take(&a, sizeof(double) * (size_t)col_stride(n) * nd);
    pl_i_take(&a, sizeof(int) * (size_t)col_stride(n) * nd);
    pl_i_take(&a, sizeof(int) * ((size_t)nd << bucket_bits(n)));
    pl_i_take(&a, sizeof(double) * n);
    pl_i_take(&a, sizeof(uint64_t) * (size_t)n);
    pl_i_take(&a, sizeof(kv_t) * 2 * (size_t)n);
    pl_i_take(&a, sizeof(int) * 2 * (size_t)n);
    pl_i_take(&a, sizeof(uint64_t) * nd);
    pl_i_take(&a, sizeof(uint64_t) * nd);
    for (int i = 0; i < 6; i++)
        pl_i_take(&a, sizeof(int) * nd);
    pl_i_take(&a, (size_t)n + 1);
    pl_i_take(&a, sizeof(double) * nd);
    pl_i_take(&a, sizeof(double) * nd);
    return a.used + critpath_sel_bytes(n, nd);
}

/* with_if: critpath, whose cursors carry the IF of every gathered thread;
 * simd: take the AVX2 set-up (pl_i_greedy_simd). */
static int cols_init(cols_t *c, pl_arena_t *a, const pl_topo_t *topo, const pl_tnt_t *tnt,
                     int with_if, int simd)
{
    int n = tnt->nthreads, nd = tnt->nnodes;
    c->refs = tnt->refs;
    c->n = n;
    c->nd = nd;
    c->bbits = bucket_bits(n);
    c->ls = col_stride(n);
    c->run = pl_i_take(a, sizeof(int) * (size_t)c->ls * nd);
    c->ifv = pl_i_take(a, sizeof(double) * (size_t)c->ls * nd);
    c->link = pl_i_take(a, sizeof(int) * (size_t)c->ls * nd);
    c->head = pl_i_take(a, sizeof(int) * ((size_t)nd << c->bbits));
    c->rowsum = pl_i_take(a, sizeof(double) * n);
    c->tv = pl_i_take(a, sizeof(uint64_t) * (size_t)n);
    c->tmp = pl_i_take(a, sizeof(kv_t) * 2 * (size_t)n);
    c->seg = pl_i_take(a, sizeof(int) * 2 * (size_t)n);
    c->vmax = pl_i_take(a, sizeof(uint64_t) * nd);
    c->cmin = pl_i_take(a, sizeof(uint64_t) * nd);
    c->bucket = pl_i_take(a, sizeof(int) * nd);
    c->pos = pl_i_take(a, sizeof(int) * nd);
    c->len = pl_i_take(a, sizeof(int) * nd);
    c->shift = pl_i_take(a, sizeof(int) * nd);
    c->used = pl_i_take(a, sizeof(int) * nd);
    c->cand = pl_i_take(a, sizeof(int) * nd);
    c->placed = pl_i_take(a, (size_t)n + 1);
    c->load = pl_i_take(a, sizeof(double) * nd);
    c->impact = pl_i_take(a, sizeof(double) * nd);
    if (!c->impact)
        return -ENOBUFS;
    memset(c->placed, 0, (size_t)n + 1);
    if (!with_if)
        c->ifv = NULL;
    c->factor = pl_numa_factor(topo);
    c->capacity = topo->capacity;

    for (int d = 0; d < nd; d++) {
        c->used[d] = 0;
        c->load[d] = 0;
    }
    bucket_columns(c, topo, simd);
    return 0;
}

static void trace_begin(pl_trace_t *tr)
{
    if (!tr)
        return;
    tr->nsteps = tr->ncands = tr->truncated = 0;
}

static void trace_cand(pl_trace_t *tr, int t, int d, double v, double impact, double load,
                       double score)
{
    if (!tr)
        return;
    if (!tr->cands || tr->ncands >= tr->max_cands) { tr->truncated = 1; return; }
    tr->cands[tr->ncands++] = (pl_candidate_t){ t, d, v, impact, load, score };
}

static void trace_step(pl_trace_t *tr, int first, int t, int d, int mt, int md, double thr)
{
    if (!tr)
        return;
    if (!tr->steps || tr->nsteps >= tr->max_steps) { tr->truncated = 1; return; }
    int nc = tr->ncands - first;
    tr->steps[tr->nsteps++] = (pl_step_t){ t, d, mt, md, thr, first, nc < 0 ? 0 : nc };
}

/* e_max over the column tops: largest V, then lower thread, then lower node. */
static void find_max(cols_t *c, const pl_topo_t *topo, int *mt, int *md)
{
    *mt = *md = -1;
    uint64_t best = 0;
    for (int d = 0; d < c->nd; d++) {
        if (c->used[d] >= topo->capacity[d])
            continue;
        int t = top(c, d);
        if (t < 0)
            continue;
        uint64_t v = c->refs[(size_t)t * c->nd + d];
        if (*mt < 0 || v > best || (v == best && t < *mt)) {
            best = v; *mt = t; *md = d;
        }
    }
}

static void place(cols_t *c, int *node, int t, int d)
{
    node[t] = d;
    c->placed[t] = 1;
    c->used[d]++;
}

/*
 * Algorithm 2 (MaxLocal). Each step takes e_max, the largest remaining
 * element, and the largest remaining element of every other node that still
 * has a free core. Moving thread i away from its best node j to node k is
 * worth it only when V(k) >= V(e_max) / NUMA factor (Eq. 1-2), so candidates
 * below that threshold are dropped. Among the rest the node with the lowest
 * local contention LC wins (findLowestLocalContentionElement), ties going to
 * the larger V as in the paper's example (e(3,2) "because it has most local
 * memory references"), then to the lower thread and node. When e_max's own
 * node is the least contended, e_max itself is taken.
 */
int pl_i_maxlocal(const pl_topo_t *topo, const pl_tnt_t *tnt, int *node,
                  pl_arena_t *a, pl_trace_t *trace, int simd)
{
    cols_t c;
    int rc = cols_init(&c, a, topo, tnt, 0, simd);
    if (rc)
        return rc;
    double factor = pl_numa_factor(topo);
    int nd = tnt->nnodes;
    trace_begin(trace);
    for (int step = 0; step < tnt->nthreads; step++) {
        int mt, md;
        find_max(&c, topo, &mt, &md);
        if (mt < 0)
            return -ENOSPC;
        double thr = (double)c.refs[(size_t)mt * nd + md] / factor;
        int bt = -1, bd = -1, first = trace ? trace->ncands : 0;
        for (int d = 0; d < nd; d++) {
            if (c.used[d] >= topo->capacity[d])
                continue;
            int t = top(&c, d);
            double v = (double)c.refs[(size_t)t * nd + d];
            trace_cand(trace, t, d, v, 0.0, c.load[d], v);
            if (v < thr)
                continue;
            if (bt < 0) { bt = t; bd = d; continue; }
            double bv = (double)c.refs[(size_t)bt * nd + bd];
            if (c.load[d] < c.load[bd]
                || (c.load[d] == c.load[bd] && (v > bv || (v == bv && t < bt)))) {
                bt = t; bd = d;
            }
        }
        place(&c, node, bt, bd);
        c.load[bd] += (double)c.refs[(size_t)bt * nd + bd];
        trace_step(trace, first, bt, bd, mt, md, thr);
    }
    return 0;
}

/*
 * Algorithm 3 (MinCP). The candidates of a step are the largest remaining
 * element of every node with a free core (e_max is one of them); the one with
 * the lowest IF + CPImpact[node] wins, ties to the lower thread, then node,
 * and CPImpact[node] += IF.
 *
 * IF follows Eq. 4: IF(i, j) = V(i, j) + NUMA factor * sum of i's references
 * to the other nodes. The paper's Table 3 prints, in its IF column, only the
 * remote sums (4592431 for e(2,1)) while its CPImpact[1] = 9715950 is the
 * Eq. 4 value of e(1,1) with factor 1.5; we use Eq. 4 throughout. The choice
 * of Table 3, e(3,2), is the same either way.
 */
/*
 * Selection state of critpath: a tournament tree over the node columns and,
 * per thread, the list of columns whose candidate it is. A tree node holds
 * its winner's key: the score's bits, then the thread, then the column, as
 * one 128-bit integer. Scores are IF + CPImpact, sums of products of
 * non-negative counts and a finite, positive NUMA factor (pl_check_topo
 * refuses others): never NaN, never -0, so their bits order as the doubles
 * do, and
 * the smallest key is the paper's findLowestCPElement with our ties (lower
 * thread, then lower column). Re-seeding a leaf is then one compare and two
 * conditional moves per level, without branches: the outcome is
 * data-dependent, and every step of the greedy loop waits for the root.
 */
typedef unsigned __int128 sel_key_t;
#define SEL_NONE (~(sel_key_t)0) /* an empty subtree: larger than every key */

typedef struct sel {
    cols_t *c;
    int p;          /* leaves: a power of two >= nd */
    uint64_t *hi;   /* [2p] winner of each subtree: its key's score bits ... */
    uint64_t *lo;   /* [2p] ... and its thread and column */
    int *head;      /* [n] first column whose candidate is the thread, -1 none */
    int *next;      /* [nd] links of those lists */
} sel_t;

static size_t critpath_sel_bytes(int n, int nd)
{
    int p = 1;
    while (p < nd)
        p *= 2;
    pl_arena_t a = { NULL, 0, 0 };
    pl_i_take(&a, sizeof(uint64_t) * 2 * (size_t)p);
    pl_i_take(&a, sizeof(uint64_t) * 2 * (size_t)p);
    pl_i_take(&a, sizeof(int) * n);
    pl_i_take(&a, sizeof(int) * nd);
    return a.used;
}

static inline sel_key_t sel_key(double score, int t, int d)
{
    uint64_t bits;
    memcpy(&bits, &score, sizeof bits);
    return ((sel_key_t)bits << 64) | ((uint64_t)(uint32_t)t << 32) | (uint32_t)d;
}

/* The smaller of two keys (hi, lo words) without a branch: which one wins is
 * data, and a compiler left to itself makes a (mispredicted) jump of the
 * select. On x86-64 the borrow of y - x picks y with two conditional moves:
 * 3 cycles from x to the result (compare, subtract with borrow, move)
 * against 5 for masks; a step waits for its replays to reach the root.
 * Elsewhere an empty asm hides the mask's origin: otherwise the compiler
 * turns the masks back into a select and the select into a jump. Keys are
 * never equal (the thread and column differ). */
static inline void sel_min(uint64_t *xh, uint64_t *xl, uint64_t yh, uint64_t yl)
{
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    /* b is scratch, early-clobbered: it must not share yh's register. */
    uint64_t h = *xh, l = *xl, b;
    __asm__("mov %[yh], %[b]\n\t"
            "cmp %[l], %[yl]\n\t"
            "sbb %[h], %[b]\n\t"
            "cmovc %[yl], %[l]\n\t"
            "cmovc %[yh], %[h]"
            : [l] "+r"(l), [h] "+r"(h), [b] "=&r"(b)
            : [yl] "r"(yl), [yh] "r"(yh)
            : "cc");
    *xh = h;
    *xl = l;
#else
    uint64_t m = -(uint64_t)(((sel_key_t)*xh << 64 | *xl) < ((sel_key_t)yh << 64 | yl));
    __asm__("" : "+r"(m));
    *xl = yl ^ ((*xl ^ yl) & m);
    *xh = yh ^ ((*xh ^ yh) & m);
#endif
}

/* Re-seed leaf d with key x and replay its path to the root; returns the
 * root's key (the next step reads it from a register, not back from the
 * store). The tree is two arrays of words (score bits; thread and column):
 * a level is two loads, the compare, the selects and two stores, indexed
 * without scaling. */
static inline sel_key_t sel_update(sel_t *s, int d, sel_key_t x)
{
    uint64_t *hi = s->hi, *lo = s->lo;
    uint64_t xh = (uint64_t)(x >> 64), xl = (uint64_t)x;
    size_t i = (size_t)s->p + (size_t)d;
    hi[i] = xh;
    lo[i] = xl;
    for (; i > 1; i >>= 1) {
        sel_min(&xh, &xl, hi[i ^ 1], lo[i ^ 1]);
        hi[i >> 1] = xh;
        lo[i >> 1] = xl;
    }
    return ((sel_key_t)xh << 64) | xl;
}

static void sel_link(sel_t *s, int d, int t)
{
    s->c->cand[d] = t;
    if (t < 0)
        return;
    /* A column leaves a list only when the list's thread is placed, and then
     * the whole list is consumed: no unlinking, no back links. */
    s->next[d] = s->head[t];
    s->head[t] = d;
}

/* The candidate of column d from its cursor, in *t (-1 when the node is
 * full or the column empty), and its IF; returns its key, SEL_NONE for none.
 * The column is not yet on the candidate's list (sel_link). */
static inline sel_key_t sel_cand(sel_t *s, int d, int *t)
{
    cols_t *c = s->c;
    *t = c->used[d] < c->capacity[d] ? top(c, d) : -1;
    if (*t < 0)
        return SEL_NONE;
    double impact = c->ifv[(size_t)d * c->ls + c->pos[d]];
    c->impact[d] = impact;
    return sel_key(impact + c->load[d], *t, d);
}

/* sel_cand, and the column joins its candidate's list. */
static inline sel_key_t sel_refill(sel_t *s, int d)
{
    int t;
    sel_key_t x = sel_cand(s, d, &t);
    sel_link(s, d, t);
    return x;
}

int pl_i_critpath(const pl_topo_t *topo, const pl_tnt_t *tnt, int *node,
                  pl_arena_t *a, pl_trace_t *trace, int simd)
{
    cols_t c;
    int rc = cols_init(&c, a, topo, tnt, 1, simd);
    if (rc)
        return rc;
    int n = tnt->nthreads, nd = tnt->nnodes;
    /*
     * A step changes only the columns whose candidate was the placed thread
     * (its own node's among them, whose CPImpact grew): they are found through
     * the thread's list and re-seeded in the tree, O(log Nd) each, instead of
     * rescanning all Nd columns.
     */
    sel_t s = { .c = &c, .p = 1 };
    while (s.p < nd)
        s.p *= 2;
    s.hi = pl_i_take(a, sizeof(uint64_t) * 2 * (size_t)s.p);
    s.lo = pl_i_take(a, sizeof(uint64_t) * 2 * (size_t)s.p);
    s.head = pl_i_take(a, sizeof(int) * n);
    s.next = pl_i_take(a, sizeof(int) * nd);
    if (!s.next)
        return -ENOBUFS;
    /* place() writes node[] a thread at a time in the steps' order: on a
     * cold cache each line of it would be a miss taken there. Asked for in
     * order here, its lines arrive together (measured with the ifv lines of
     * load_chunk: 4 to 5 % of a cold decision). */
    for (int t = 0; t < n; t += 16)
        __builtin_prefetch(node + t, 1);
    for (int t = 0; t < n; t++)
        s.head[t] = -1;
    for (int i = 0; i < 2 * s.p; i++)
        s.hi[i] = s.lo[i] = UINT64_MAX;
    sel_key_t root = SEL_NONE;
    for (int d = 0; d < nd; d++)
        root = sel_update(&s, d, sel_refill(&s, d));
    trace_begin(trace);
    for (int step = 0; step < n; step++) {
        if (root == SEL_NONE) /* a NaN's bits, never a score's */
            return -ENOSPC;
        int bd = (int)(uint32_t)root, bt = (int)(uint32_t)((uint64_t)root >> 32);
        if (trace) {
            /* e_max: the largest V among the candidates (the paper's getFistMaxElement). */
            int mt = -1, md = -1, first = trace->ncands;
            uint64_t vmax = 0;
            for (int d = 0; d < nd; d++) {
                int t = c.cand[d];
                if (t < 0)
                    continue;
                uint64_t v = c.refs[(size_t)t * nd + d];
                if (mt < 0 || v > vmax || (v == vmax && t < mt)) { vmax = v; mt = t; md = d; }
                trace_cand(trace, t, d, (double)v, c.impact[d], c.load[d], c.impact[d] + c.load[d]);
            }
            trace_step(trace, first, bt, bd, mt, md, 0.0);
        }
        place(&c, node, bt, bd);
        c.load[bd] += c.impact[bd];
        /* The columns whose candidate was bt read on from their cursor's
         * next entry, without waiting for the store of placed[bt]. bd, one
         * of them, goes first: it is known from the root, so its refill
         * does not wait for the load of bt's list (measured: 2 to 3 % of a
         * decision). It joins its new candidate's list after the walk,
         * which still reads bd's link in bt's list. */
        int d = s.head[bt], tb;
        s.head[bt] = -1;
        c.pos[bd]++;
        root = sel_update(&s, bd, sel_cand(&s, bd, &tb));
        while (d >= 0) {
            int nx = s.next[d];
            if (d != bd) {
                c.pos[d]++;
                root = sel_update(&s, d, sel_refill(&s, d));
            }
            d = nx;
        }
        sel_link(&s, bd, tb);
    }
    return 0;
}
