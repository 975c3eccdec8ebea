/* rt_mem.c: the memory manager's core: node facts, allocation policies, the registry of known areas, attach hints, statistics. */
#include "rt_mem.h"
#include "rt_sys.h"
#include "rt_mem_int.h"
#include "rt_util.h"

#include <errno.h>
#include <limits.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MPOL_LOCAL
#define MPOL_LOCAL 4
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

int    rt_mem_nnodes = 1;
int    rt_mem_numa_ok;
size_t rt_mem_pagesz = 4096;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static unsigned char node_ok[RT_MEM_MAX_NODES];  /* memory the process may use */
static int *cpu_node;                            /* [ncpu_map] from sysfs */
static int ncpu_map;

/* CPU -> node from sysfs (nodeN/cpulist), read once. libnuma's own lookup
 * prints warnings for bad CPUs, and the runtime must stay silent. */
static void load_cpu_map(void)
{
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    if (ncpu < 1)
        ncpu = 1;
    ncpu_map = (int)ncpu;
    cpu_node = malloc(sizeof *cpu_node * (size_t)ncpu_map);
    if (!cpu_node) {
        ncpu_map = 0;
        return;
    }
    for (int c = 0; c < ncpu_map; c++)
        cpu_node[c] = rt_mem_numa_ok ? -1 : 0;
    int *list = malloc(sizeof *list * (size_t)ncpu_map);
    for (int n = 0; list && rt_mem_numa_ok && n < rt_mem_nnodes; n++) {
        char path[96], buf[4096];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", n);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = 0;
        long k = rt_kernel_list(buf, list, ncpu_map);
        for (long i = 0; i < k && i < ncpu_map; i++)
            if (list[i] < ncpu_map)
                cpu_node[list[i]] = n;
    }
    free(list);
}

static void do_init(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    rt_mem_pagesz = ps > 0 ? (size_t)ps : 4096;
    rt_mem_numa_ok = numa_available() >= 0;
    if (rt_mem_numa_ok) {
        int max = numa_max_node();
        rt_mem_nnodes = max + 1 > RT_MEM_MAX_NODES ? RT_MEM_MAX_NODES : max + 1;
        for (int n = 0; n < rt_mem_nnodes; n++)
            node_ok[n] = numa_bitmask_isbitset(numa_all_nodes_ptr, (unsigned)n) != 0;
    } else {
        rt_mem_nnodes = 1;
        node_ok[0] = 1;
    }
    load_cpu_map();
}

int rt_mem_init_once(void)
{
    pthread_once(&init_once, do_init);
    return 0;
}

int rt_mem_num_nodes(void)
{
    rt_mem_init_once();
    return rt_mem_nnodes;
}

int rt_mem_node_valid(int node)
{
    rt_mem_init_once();
    return node >= 0 && node < rt_mem_nnodes && node_ok[node];
}

size_t rt_mem_page_size(void)
{
    rt_mem_init_once();
    return rt_mem_pagesz;
}

int rt_mem_node_of_cpu(int cpu)
{
    rt_mem_init_once();
    if (cpu < 0 || cpu >= ncpu_map || cpu_node[cpu] < 0) {
        errno = EINVAL;
        return -1;
    }
    return cpu_node[cpu];
}

int rt_mem_thread_node(void)
{
    rt_mem_init_once();
    unsigned cpu = 0, node = 0;
    if (rt_getcpu(&cpu, &node) != 0) {
        errno = ENOSYS;
        return -1;
    }
    return rt_mem_numa_ok ? (int)node : 0;
}

/* ---------------- registry ---------------- */

enum { K_HEAP = 1, K_MAP, K_REG };

typedef struct area {
    uintptr_t base;       /* the user's pointer */
    size_t    size;       /* the user's size */
    uintptr_t start, end; /* page extent */
    int       kind, policy, node;
    int       dirty;      /* pages may have left their heap node (migrated or armed) */
} area_t;

typedef struct attach {
    uintptr_t base;
    uintptr_t start, end;
    int       thread_num;
} attach_t;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static area_t  *areas;        /* sorted by base; user ranges never overlap */
static size_t   nareas, capareas;
static attach_t *attaches;
static size_t   nattaches, capattaches;
static uint64_t st_moved, st_move_failed;
static size_t   st_allocs, st_regs;

/* Index of the first area with base > a. Precondition: reg_lock held. */
static size_t upper(uintptr_t a)
{
    size_t lo = 0, hi = nareas;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (areas[mid].base <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The area whose user range holds [a, a + size), or NULL. Lock held. */
static area_t *find_containing(uintptr_t a, size_t size)
{
    size_t i = upper(a);
    if (i == 0)
        return NULL;
    area_t *ar = &areas[i - 1];
    if (a + size < a || a + size > ar->base + ar->size)
        return NULL;
    return ar;
}

static area_t *find_exact(uintptr_t a)
{
    size_t i = upper(a);
    return i > 0 && areas[i - 1].base == a ? &areas[i - 1] : NULL;
}

/* Insert keeping the order; fails with EINVAL when the user range overlaps
 * a known area, ENOMEM when the table cannot grow. Lock held. */
static int insert_area(const area_t *a)
{
    size_t i = upper(a->base);
    if ((i > 0 && areas[i - 1].base + areas[i - 1].size > a->base) ||
        (i < nareas && areas[i].base < a->base + a->size)) {
        errno = EINVAL;
        return -1;
    }
    if (nareas == capareas) {
        size_t cap = capareas ? capareas * 2 : 64;
        area_t *n = realloc(areas, sizeof *n * cap);
        if (!n) {
            errno = ENOMEM;
            return -1;
        }
        areas = n;
        capareas = cap;
    }
    memmove(&areas[i + 1], &areas[i], sizeof *areas * (nareas - i));
    areas[i] = *a;
    nareas++;
    return 0;
}

/* Drop attachments inside [base, base + size). Lock held. */
static void drop_attaches(uintptr_t base, size_t size)
{
    size_t j = 0;
    for (size_t i = 0; i < nattaches; i++)
        if (!(attaches[i].base >= base && attaches[i].base < base + size))
            attaches[j++] = attaches[i];
    __atomic_store_n(&nattaches, j, __ATOMIC_RELAXED);
}

static void remove_area(area_t *a)
{
    drop_attaches(a->base, a->size);
    size_t i = (size_t)(a - areas);
    memmove(&areas[i], &areas[i + 1], sizeof *areas * (nareas - i - 1));
    nareas--;
}

/* ---------------- allocation ---------------- */

static void node_mask(unsigned long *mask, size_t words, int only)
{
    memset(mask, 0, words * sizeof *mask);
    for (int n = 0; n < rt_mem_nnodes; n++)
        if (only >= 0 ? n == only : node_ok[n])
            mask[n / (8 * sizeof *mask)] |= 1UL << (n % (8 * sizeof *mask));
}

/* Map len bytes with policy. Returns the mapping or NULL with errno. */
static void *map_with_policy(size_t len, int policy, int node)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        errno = ENOMEM;
        return NULL;
    }
    if (!rt_mem_numa_ok)
        return p;
    unsigned long mask[RT_MEM_MAX_NODES / (8 * sizeof(unsigned long))];
    size_t words = sizeof mask / sizeof mask[0];
    unsigned long maxnode = (unsigned long)rt_mem_nnodes + 1;
    int rc = 0;
    switch (policy) {
    case RT_MEM_BIND:
        node_mask(mask, words, node);
        rc = mbind(p, len, MPOL_BIND, mask, maxnode, 0);
        break;
    case RT_MEM_INTERLEAVE:
        node_mask(mask, words, -1);
        rc = mbind(p, len, MPOL_INTERLEAVE, mask, maxnode, 0);
        break;
    case RT_MEM_FIRST_TOUCH:
        /* Local allocation even when the thread has another task policy. */
        mbind(p, len, MPOL_LOCAL, NULL, 0, 0);
        break;
    case RT_MEM_NEXT_TOUCH:
        /* Small pages: each page goes to its own toucher (see rt_mem_pager.c). */
        madvise(p, len, MADV_NOHUGEPAGE);
        if (node >= 0) {
            /* Start on node, then let the next toucher take each page. */
            node_mask(mask, words, node);
            rc = mbind(p, len, MPOL_BIND, mask, maxnode, 0);
            if (rc == 0 && madvise(p, len, MADV_POPULATE_WRITE) != 0)
                for (size_t off = 0; off < len; off += rt_mem_pagesz)
                    ((volatile char *)p)[off] = 0;
            if (rc == 0)
                mbind(p, len, MPOL_LOCAL, NULL, 0, 0);
            if (rc == 0 && rt_pager_arm((uintptr_t)p, (uintptr_t)p + len) != 0)
                rc = -1;
        } else {
            mbind(p, len, MPOL_LOCAL, NULL, 0, 0);
        }
        break;
    }
    if (rc != 0) {
        int e = errno;
        rt_pager_disarm((uintptr_t)p, (uintptr_t)p + len, 1);
        munmap(p, len);
        errno = e == EINVAL ? EINVAL : ENOMEM;
        return NULL;
    }
    return p;
}

void *rt_mem_alloc(size_t size, int policy, int node)
{
    rt_mem_init_once();
    if (size == 0 || policy < RT_MEM_FIRST_TOUCH || policy > RT_MEM_NEXT_TOUCH) {
        errno = EINVAL;
        return NULL;
    }
    /* BIND needs a node; NEXT_TOUCH takes an optional starting node; the
     * other policies take none. */
    int need_node = policy == RT_MEM_BIND;
    int may_node = need_node || policy == RT_MEM_NEXT_TOUCH;
    if ((need_node || (may_node && node != -1)) ? !rt_mem_node_valid(node) : node != -1) {
        errno = EINVAL;
        return NULL;
    }
    size_t len = rt_pg_up(size);
    if (len < size) {
        errno = ENOMEM;
        return NULL;
    }
    area_t a = { .size = size, .kind = K_MAP, .policy = policy, .node = node };
    void *p;
    if (policy == RT_MEM_BIND && len <= RT_MEM_HEAP_MAX) {
        p = rt_heap_alloc(node, len);
        a.kind = K_HEAP;
    } else {
        p = map_with_policy(len, policy, node);
    }
    if (!p)
        return NULL;
    a.base = a.start = (uintptr_t)p;
    a.end = a.start + len;
    a.dirty = policy == RT_MEM_NEXT_TOUCH && node >= 0;
    pthread_mutex_lock(&reg_lock);
    int rc = insert_area(&a);
    if (rc == 0)
        st_allocs++;
    pthread_mutex_unlock(&reg_lock);
    if (rc != 0) {
        int e = errno;
        rt_pager_disarm(a.start, a.end, 1);
        if (a.kind == K_HEAP)
            rt_heap_free(p, len, node, 0);
        else
            munmap(p, len);
        errno = e;
        return NULL;
    }
    return p;
}

int rt_mem_free(void *ptr)
{
    rt_mem_init_once();
    if (!ptr)
        return 0;
    pthread_mutex_lock(&reg_lock);
    area_t *ap = find_exact((uintptr_t)ptr);
    if (!ap || ap->kind == K_REG) {
        pthread_mutex_unlock(&reg_lock);
        errno = EINVAL;
        return -1;
    }
    area_t a = *ap;
    remove_area(ap);
    st_allocs--;
    pthread_mutex_unlock(&reg_lock);
    /* An armed area gives its pages back accessible, and the pager forgets
     * it before the pages can be reused. */
    rt_pager_disarm(a.start, a.end, 1);
    if (a.kind == K_HEAP)
        rt_heap_free(ptr, a.end - a.start, a.node, a.dirty);
    else
        munmap(ptr, a.end - a.start);
    return 0;
}

int rt_mem_register(void *ptr, size_t size)
{
    rt_mem_init_once();
    uintptr_t b = (uintptr_t)ptr;
    if (!ptr || size == 0 || b + size < b) {
        errno = EINVAL;
        return -1;
    }
    area_t a = { .base = b, .size = size, .start = rt_pg_down(b), .end = rt_pg_up(b + size),
                 .kind = K_REG, .policy = -1, .node = -1 };
    /* The range must be mapped: msync fails with ENOMEM on any hole. */
    if (msync((void *)a.start, a.end - a.start, MS_ASYNC) != 0) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&reg_lock);
    int rc = insert_area(&a);
    if (rc == 0)
        st_regs++;
    pthread_mutex_unlock(&reg_lock);
    return rc;
}

int rt_mem_unregister(void *ptr)
{
    rt_mem_init_once();
    pthread_mutex_lock(&reg_lock);
    area_t *ap = find_exact((uintptr_t)ptr);
    if (!ap || ap->kind != K_REG) {
        pthread_mutex_unlock(&reg_lock);
        errno = EINVAL;
        return -1;
    }
    area_t a = *ap;
    remove_area(ap);
    st_regs--;
    pthread_mutex_unlock(&reg_lock);
    rt_pager_disarm(a.start, a.end, 1);
    return 0;
}

/* Resolve (ptr, size) inside a known area to its page range; marks the area
 * dirty when mark_dirty. With owned, only the pages the area owns whole
 * (those that may be protected): an allocation owns its pages; memory
 * registered with omp_numa_register shares its first and last pages with
 * whatever lies beside it (malloc's neighbours, the allocator's and the
 * runtime's own records), which a thread ompnuma does not control may
 * touch: those pages stay out, and the range is empty when no page is the
 * area's alone. Returns 0 or -1 with EINVAL. */
static int known_range(const void *ptr, size_t size, uintptr_t *start, uintptr_t *end, int mark_dirty, int owned)
{
    uintptr_t a = (uintptr_t)ptr;
    if (!ptr || size == 0) {
        errno = EINVAL;
        return -1;
    }
    uintptr_t lo = 0, hi = UINTPTR_MAX;
    pthread_mutex_lock(&reg_lock);
    area_t *ar = find_containing(a, size);
    if (ar && mark_dirty)
        ar->dirty = 1;
    if (ar && owned && ar->kind == K_REG) {
        lo = rt_pg_up(ar->base);
        hi = rt_pg_down(ar->base + ar->size);
    }
    pthread_mutex_unlock(&reg_lock);
    if (!ar) {
        errno = EINVAL;
        return -1;
    }
    *start = rt_pg_down(a) > lo ? rt_pg_down(a) : lo;
    *end = rt_pg_up(a + size) < hi ? rt_pg_up(a + size) : hi;
    if (*end < *start)
        *end = *start;
    return 0;
}

/* Who is told of an attachment: the placement loop (blind regions start
 * sampling) and the drop-ins (teams record their members again). */
static rt_mem_attached_fn attached_fns[4];
static int nattached_fns;

void rt_mem_on_attach(rt_mem_attached_fn fn)
{
    if (nattached_fns < (int)(sizeof attached_fns / sizeof attached_fns[0]))
        attached_fns[nattached_fns++] = fn;
}

int rt_mem_attach(void *ptr, size_t size, int thread_num)
{
    rt_mem_init_once();
    uintptr_t s, e;
    if (thread_num < 0) {
        errno = EINVAL;
        return -1;
    }
    if (known_range(ptr, size, &s, &e, 0, 0) != 0)
        return -1;
    pthread_mutex_lock(&reg_lock);
    int rc = 0;
    size_t i;
    for (i = 0; i < nattaches && attaches[i].base != (uintptr_t)ptr; i++)
        ;
    if (i == nattaches) {
        if (nattaches == capattaches) {
            size_t cap = capattaches ? capattaches * 2 : 32;
            attach_t *n = realloc(attaches, sizeof *n * cap);
            if (!n) {
                errno = ENOMEM;
                rc = -1;
                goto out;
            }
            attaches = n;
            capattaches = cap;
        }
        __atomic_store_n(&nattaches, nattaches + 1, __ATOMIC_RELAXED);
    }
    attaches[i] = (attach_t){ .base = (uintptr_t)ptr, .start = s, .end = e, .thread_num = thread_num };
out:
    pthread_mutex_unlock(&reg_lock);
    for (int k = 0; rc == 0 && k < nattached_fns; k++)
        attached_fns[k]();
    return rc;
}

size_t rt_mem_attachments(void)
{
    return __atomic_load_n(&nattaches, __ATOMIC_RELAXED);
}

int rt_mem_detach(void *ptr)
{
    rt_mem_init_once();
    pthread_mutex_lock(&reg_lock);
    size_t before = nattaches, j = 0;
    for (size_t i = 0; i < nattaches; i++)
        if (attaches[i].base != (uintptr_t)ptr)
            attaches[j++] = attaches[i];
    __atomic_store_n(&nattaches, j, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&reg_lock);
    if (j == before || !ptr) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

/* ---------------- migration and queries ---------------- */

static const rt_mem_sampler_t *sampler;

void rt_mem_set_sampler(const rt_mem_sampler_t *s)
{
    __atomic_store_n(&sampler, s, __ATOMIC_RELEASE);
}

/* The sampler's pages in [s, e) back in the kernel's view until unhold. */
static const rt_mem_sampler_t *hold(uintptr_t s, uintptr_t e)
{
    const rt_mem_sampler_t *h = __atomic_load_n(&sampler, __ATOMIC_ACQUIRE);
    if (h)
        h->hold(s, e);
    return h;
}

static void unhold(const rt_mem_sampler_t *h)
{
    if (h)
        h->done();
}

const rt_mem_sampler_t *rt_mem_i_hold(uintptr_t start, uintptr_t end)
{
    return hold(start, end);
}

void rt_mem_i_unhold(const rt_mem_sampler_t *h)
{
    unhold(h);
}

int rt_mem_i_managed(uintptr_t start, uintptr_t end)
{
    pthread_mutex_lock(&reg_lock);
    size_t i = upper(end - 1);
    int overlap = i > 0 && areas[i - 1].end > start;
    pthread_mutex_unlock(&reg_lock);
    return overlap;
}

int rt_mem_migrate_on_next_touch(void *ptr, size_t size)
{
    rt_mem_init_once();
    uintptr_t s, e;
    if (known_range(ptr, size, &s, &e, 1, 1) != 0)
        return -1;
    if (s == e) /* no page the area owns whole: nothing to arm */
        return 0;
    /* Held: the sampler's end of execution would otherwise give access
     * back to pages armed here, and they would never move. */
    const rt_mem_sampler_t *h = hold(s, e);
    int rc = rt_pager_arm(s, e);
    int err = errno;
    unhold(h);
    errno = err;
    return rc;
}

int rt_mem_migrate_to_node(void *ptr, size_t size, int node)
{
    rt_mem_init_once();
    uintptr_t s, e;
    if (!rt_mem_node_valid(node)) {
        errno = EINVAL;
        return -1;
    }
    if (known_range(ptr, size, &s, &e, 1, 0) != 0)
        return -1;
    /* An explicit move cancels next touch on the range: armed pages are
     * PROT_NONE and move_pages cannot move them. */
    rt_pager_disarm(s, e, 0);
    uint64_t moved = 0, failed = 0;
    const rt_mem_sampler_t *h = hold(s, e);
    int rc = rt_move_range(s, e, node, &moved, &failed);
    int err = errno;
    unhold(h);
    __atomic_add_fetch(&st_moved, moved, __ATOMIC_RELAXED);
    __atomic_add_fetch(&st_move_failed, failed, __ATOMIC_RELAXED);
    errno = err;
    return rc;
}

int rt_mem_nodes_of(const void *ptr, size_t size, size_t *pages_per_node)
{
    rt_mem_init_once();
    uintptr_t a = (uintptr_t)ptr;
    if (!ptr || size == 0 || !pages_per_node || a + size < a) {
        errno = EINVAL;
        return -1;
    }
    uintptr_t s = rt_pg_down(a), e = rt_pg_up(a + size);
    if (msync((void *)s, e - s, MS_ASYNC) != 0) {
        errno = EINVAL;
        return -1;
    }
    size_t np = (e - s) / rt_mem_pagesz;
    int *status = malloc(sizeof *status * np);
    if (!status) {
        errno = ENOMEM;
        return -1;
    }
    const rt_mem_sampler_t *h = hold(s, e);
    int rc = rt_move_query(s, np, status);
    int err = errno;
    unhold(h);
    if (rc != 0) {
        free(status);
        errno = err;
        return -1;
    }
    memset(pages_per_node, 0, sizeof *pages_per_node * (size_t)rt_mem_nnodes);
    size_t unplaced = 0;
    for (size_t i = 0; i < np; i++) {
        if (status[i] >= 0 && status[i] < rt_mem_nnodes)
            pages_per_node[status[i]]++;
        else
            unplaced++;
    }
    free(status);
    return unplaced > INT_MAX ? INT_MAX : (int)unplaced;
}

int rt_mem_node_memory(int node, size_t *total, size_t *free_bytes)
{
    if (!rt_mem_node_valid(node)) {
        errno = EINVAL;
        return -1;
    }
    long long fr = 0, tot;
    if (rt_mem_numa_ok) {
        tot = numa_node_size64(node, &fr);
    } else {
        long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
        tot = pages > 0 ? (long long)pages * (long long)rt_mem_pagesz : -1;
        fr = avail > 0 ? (long long)avail * (long long)rt_mem_pagesz : 0;
    }
    if (tot < 0) {
        errno = ENOSYS;
        return -1;
    }
    if (total)
        *total = (size_t)tot;
    if (free_bytes)
        *free_bytes = fr > 0 ? (size_t)fr : 0;
    return 0;
}

/* ---------------- hints ---------------- */

int rt_mem_hints_snapshot(rt_mem_hint_t **out, int *nnodes)
{
    rt_mem_init_once();
    *out = NULL;
    *nnodes = rt_mem_nnodes;
    pthread_mutex_lock(&reg_lock);
    size_t n = nattaches;
    attach_t *copy = n ? malloc(sizeof *copy * n) : NULL;
    if (n && copy)
        memcpy(copy, attaches, sizeof *copy * n);
    pthread_mutex_unlock(&reg_lock);
    if (n == 0)
        return 0;
    size_t nn = (size_t)rt_mem_nnodes;
    rt_mem_hint_t *h = copy ? calloc(1, sizeof *h * n + sizeof(size_t) * nn * n) : NULL;
    if (!h) {
        free(copy);
        errno = ENOMEM;
        return -1;
    }
    size_t *counts = (size_t *)(h + n);
    for (size_t i = 0; i < n; i++) {
        h[i].base = (const void *)copy[i].base;
        h[i].bytes = copy[i].end - copy[i].start;
        h[i].thread_num = copy[i].thread_num;
        h[i].pages_per_node = counts + i * nn;
        h[i].home = -1;
        int un = rt_mem_nodes_of((const void *)copy[i].start, h[i].bytes, h[i].pages_per_node);
        /* A buffer freed since the copy was taken just reports nothing placed. */
        h[i].unplaced = un >= 0 ? (size_t)un : h[i].bytes / rt_mem_pagesz;
        size_t best = 0;
        for (size_t k = 0; k < nn; k++)
            if (h[i].pages_per_node[k] > best)
                best = h[i].pages_per_node[k], h[i].home = (int)k;
    }
    free(copy);
    *out = h;
    return (int)n;
}

void rt_mem_hints_free(rt_mem_hint_t *hints, int n)
{
    (void)n;
    free(hints);   /* counts live in the same block */
}

static pthread_mutex_t hook_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_mem_replace_fn hook_fn;
static void *hook_ctx;

/* Teams with an AT_BARRIER call in progress. */
#define MAX_PENDING 64
static struct { uint64_t key; int size, arrived, used; } pending[MAX_PENDING];

void rt_mem_set_replace_hook(rt_mem_replace_fn fn, void *ctx)
{
    pthread_mutex_lock(&hook_lock);
    hook_fn = fn;
    hook_ctx = ctx;
    pthread_mutex_unlock(&hook_lock);
}

static int run_hook(int team_size, int level)
{
    pthread_mutex_lock(&hook_lock);
    rt_mem_replace_fn fn = hook_fn;
    void *ctx = hook_ctx;
    pthread_mutex_unlock(&hook_lock);
    if (!fn) {
        errno = ENOSYS;
        return -1;
    }
    rt_mem_hint_t *h;
    int nn;
    int n = rt_mem_hints_snapshot(&h, &nn);
    if (n < 0)
        return -1;
    int rc = fn(h, n, nn, team_size, level, ctx);
    int err = errno;
    rt_mem_hints_free(h, n);
    errno = err;
    return rc;
}

int rt_mem_update_hints(int when, uint64_t team_key, int team_size, int level)
{
    rt_mem_init_once();
    if ((when != RT_MEM_NOW && when != RT_MEM_AT_BARRIER) || team_size < 1) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&hook_lock);
    int have = hook_fn != NULL;
    int last = 1;
    if (have && when == RT_MEM_AT_BARRIER && team_size > 1) {
        int free_slot = -1, i;
        for (i = 0; i < MAX_PENDING; i++) {
            if (pending[i].used && pending[i].key == team_key)
                break;
            if (!pending[i].used && free_slot < 0)
                free_slot = i;
        }
        if (i == MAX_PENDING) {
            if (free_slot < 0) {
                pthread_mutex_unlock(&hook_lock);
                errno = ENOMEM;
                return -1;
            }
            i = free_slot;
            pending[i].used = 1;
            pending[i].key = team_key;
            pending[i].size = team_size;
            pending[i].arrived = 0;
        }
        last = ++pending[i].arrived >= pending[i].size;
        if (last)
            pending[i].used = 0;
    }
    pthread_mutex_unlock(&hook_lock);
    if (!have) {
        errno = ENOSYS;
        return -1;
    }
    return last ? run_hook(team_size, level) : 0;
}

/* ---------------- statistics ---------------- */

void rt_mem_get_stats(rt_mem_stats_t *out)
{
    rt_mem_init_once();
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&reg_lock);
    out->live_allocs = st_allocs;
    out->registered = st_regs;
    out->attached = nattaches;
    pthread_mutex_unlock(&reg_lock);
    out->heap_bytes = rt_heap_bytes();
    out->pages_moved = __atomic_load_n(&st_moved, __ATOMIC_RELAXED);
    out->pages_move_failed = __atomic_load_n(&st_move_failed, __ATOMIC_RELAXED);
    rt_pager_stats(&out->nt_faults, &out->nt_pages_moved, &out->nt_failed);
}
