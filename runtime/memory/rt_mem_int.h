/* rt_mem_int.h: internals shared by the memory manager's files (heaps, page moves, pager); not used outside rt_mem*.c. */
#ifndef OMPNUMA_RT_MEM_INT_H
#define OMPNUMA_RT_MEM_INT_H

#include <stddef.h>
#include <stdint.h>

/* Upper bound on node numbers the manager handles (kernel node ids). */
#define RT_MEM_MAX_NODES 1024

/* rt_mem.c: node facts, set once by rt_mem_init_once(). */
int    rt_mem_init_once(void);       /* 0, or -1 with errno */
extern int    rt_mem_nnodes;          /* numa_max_node() + 1, at least 1 */
extern int    rt_mem_numa_ok;         /* 1 when the kernel has NUMA system calls */
extern size_t rt_mem_pagesz;

static inline uintptr_t rt_pg_down(uintptr_t a) { return a & ~(uintptr_t)(rt_mem_pagesz - 1); }
static inline uintptr_t rt_pg_up(uintptr_t a)   { return (a + rt_mem_pagesz - 1) & ~(uintptr_t)(rt_mem_pagesz - 1); }

/* rt_mem.c: the sampler's hold around a move of [start, end) (rt_mem_set_sampler;
 * unhold(NULL) is a no-op), and whether [start, end) overlaps an area this
 * manager allocated or registered (page extents). */
struct rt_mem_sampler;
const struct rt_mem_sampler *rt_mem_i_hold(uintptr_t start, uintptr_t end);
void   rt_mem_i_unhold(const struct rt_mem_sampler *h);
int    rt_mem_i_managed(uintptr_t start, uintptr_t end);

/* rt_mem_heap.c: per-node heaps of page runs.
 * rt_heap_alloc: bytes is a multiple of the page size, at most
 * RT_MEM_HEAP_MAX; the pages are bound to node (mbind), small pages only.
 * rt_heap_free: returns the run; dirty != 0 when its pages may have left the
 * node (migrated), which drops them so they are faulted on the node again. */
void  *rt_heap_alloc(int node, size_t bytes);
void   rt_heap_free(void *p, size_t bytes, int node, int dirty);
size_t rt_heap_bytes(void);

/* rt_mem_move.c: page placement through move_pages.
 * rt_move_query: status[i] = node of page i of [start, start + n pages), or a
 * negative errno (-ENOENT not present). Returns 0 or -1 with errno.
 * rt_move_range: put every page of [start, end) on node: populate pages never
 * touched, move, then check with a query. *moved counts pages that changed
 * node, *failed those still elsewhere (their data is where it was). Returns
 * 0 when every page is on node, else -1 with errno (ENOSYS, ENOMEM, or the
 * first page's error such as EBUSY / EACCES / EFAULT). */
int    rt_move_query(uintptr_t start, size_t npages, int *status);
int    rt_move_range(uintptr_t start, uintptr_t end, int node, uint64_t *moved, uint64_t *failed);

/* rt_mem_pager.c: next-touch pager. Ranges are page-aligned.
 * rt_pager_arm: protect [start, end) so each page (or huge-page unit) moves
 * to the node of the first thread that touches it. Returns 0 or -1 with errno.
 * rt_pager_disarm: make every armed unit overlapping [start, end) accessible
 * again without moving it. retire != 0 also drops the pager's regions that
 * lie inside the range (precondition: nobody touches the range meanwhile,
 * as for free and unregister).
 * rt_pager_stats: faults that migrated a unit, pages moved, pages that could
 * not be moved. */
int    rt_pager_arm(uintptr_t start, uintptr_t end);
void   rt_pager_disarm(uintptr_t start, uintptr_t end, int retire);
void   rt_pager_stats(uint64_t *faults, uint64_t *pages, uint64_t *failed);

#endif
