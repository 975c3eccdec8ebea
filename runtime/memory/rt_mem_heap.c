/* rt_mem_heap.c: per-node heaps (as MaMI has them): chunks bound to a node, carved into page runs, so small allocations need no system call. */
#include "rt_mem.h"
#include "rt_mem_int.h"

#include <errno.h>
#include <numaif.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Runs are whole pages so that every allocation owns its pages: a policy,
 * a migration or next-touch arming of one allocation never moves another's
 * bytes. Chunks use small pages only (MADV_NOHUGEPAGE) for the same reason:
 * moving one page of a transparent huge page would move its 511 neighbours. */
#define MAX_CHUNK_PAGES (RT_MEM_HEAP_CHUNK / 4096)

typedef struct chunk {
    uintptr_t     base;
    size_t        free_pages;
    uint64_t      used[MAX_CHUNK_PAGES / 64];
    struct chunk *next;
} chunk_t;

typedef struct heap {
    pthread_mutex_t lock;
    chunk_t        *chunks;
} heap_t;

static heap_t heaps[RT_MEM_MAX_NODES] = {
    [0 ... RT_MEM_MAX_NODES - 1] = { .lock = PTHREAD_MUTEX_INITIALIZER, .chunks = NULL }
};
static size_t total_bytes;   /* bytes mapped for chunks, all nodes; updated atomically */

static size_t chunk_pages(void) { return RT_MEM_HEAP_CHUNK / rt_mem_pagesz; }

static int bit(const chunk_t *c, size_t i) { return (c->used[i / 64] >> (i % 64)) & 1; }

static void set_bits(chunk_t *c, size_t first, size_t n, int v)
{
    for (size_t i = first; i < first + n; i++) {
        if (v)
            c->used[i / 64] |= (uint64_t)1 << (i % 64);
        else
            c->used[i / 64] &= ~((uint64_t)1 << (i % 64));
    }
}

/* First fit: index of a run of n free pages, or -1. */
static long find_run(const chunk_t *c, size_t n)
{
    size_t np = chunk_pages(), run = 0;
    for (size_t i = 0; i < np; i++) {
        run = bit(c, i) ? 0 : run + 1;
        if (run == n)
            return (long)(i + 1 - n);
    }
    return -1;
}

static chunk_t *new_chunk(int node)
{
    chunk_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    void *p = mmap(NULL, RT_MEM_HEAP_CHUNK, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        free(c);
        return NULL;
    }
    madvise(p, RT_MEM_HEAP_CHUNK, MADV_NOHUGEPAGE);
    if (rt_mem_numa_ok) {
        unsigned long mask[RT_MEM_MAX_NODES / (8 * sizeof(unsigned long))] = { 0 };
        mask[node / (8 * sizeof(unsigned long))] |= 1UL << (node % (8 * sizeof(unsigned long)));
        if (mbind(p, RT_MEM_HEAP_CHUNK, MPOL_BIND, mask, (unsigned long)rt_mem_nnodes + 1, 0) != 0) {
            int e = errno;
            munmap(p, RT_MEM_HEAP_CHUNK);
            free(c);
            errno = e == EINVAL ? EINVAL : ENOMEM;
            return NULL;
        }
    }
    c->base = (uintptr_t)p;
    c->free_pages = chunk_pages();
    __atomic_add_fetch(&total_bytes, RT_MEM_HEAP_CHUNK, __ATOMIC_RELAXED);
    return c;
}

void *rt_heap_alloc(int node, size_t bytes)
{
    size_t n = bytes / rt_mem_pagesz;
    heap_t *h = &heaps[node];
    void *out = NULL;
    pthread_mutex_lock(&h->lock);
    for (chunk_t *c = h->chunks; c && !out; c = c->next) {
        if (c->free_pages < n)
            continue;
        long first = find_run(c, n);
        if (first >= 0) {
            set_bits(c, (size_t)first, n, 1);
            c->free_pages -= n;
            out = (void *)(c->base + (size_t)first * rt_mem_pagesz);
        }
    }
    if (!out) {
        chunk_t *c = new_chunk(node);
        if (c) {
            c->next = h->chunks;
            h->chunks = c;
            set_bits(c, 0, n, 1);
            c->free_pages -= n;
            out = (void *)c->base;
        }
    }
    pthread_mutex_unlock(&h->lock);
    if (!out && errno != EINVAL)
        errno = ENOMEM;
    return out;
}

void rt_heap_free(void *p, size_t bytes, int node, int dirty)
{
    heap_t *h = &heaps[node];
    uintptr_t a = (uintptr_t)p;
    size_t n = bytes / rt_mem_pagesz;
    /* Pages that left the node are dropped: their next fault allocates them
     * on the node again through the chunk's binding. */
    if (dirty)
        madvise(p, bytes, MADV_DONTNEED);
    pthread_mutex_lock(&h->lock);
    for (chunk_t *c = h->chunks; c; c = c->next) {
        if (a >= c->base && a < c->base + RT_MEM_HEAP_CHUNK) {
            set_bits(c, (a - c->base) / rt_mem_pagesz, n, 0);
            c->free_pages += n;
            break;
        }
    }
    pthread_mutex_unlock(&h->lock);
}

size_t rt_heap_bytes(void)
{
    return __atomic_load_n(&total_bytes, __ATOMIC_RELAXED);
}
