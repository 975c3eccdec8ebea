/* omp_numa.h: ompnuma's public API: NUMA memory management and placement hints for OpenMP programs. */
#ifndef OMP_NUMA_H
#define OMP_NUMA_H

/*
 * Error convention (every function): on failure a function returns -1, or
 * NULL for pointers, or a negative value for costs, and sets errno:
 *   EINVAL  a bad node, size, policy, thread number, or a pointer the
 *           manager does not know
 *   ENOMEM  memory could not be obtained
 *   ENOSYS  the kernel lacks the feature (for example move_pages)
 * Sizes are rounded up to whole pages.
 *
 * Terms used below.
 *   node     a NUMA node as the kernel numbers it, 0 .. omp_numa_num_nodes()-1.
 *            A node is "valid" when this process may place memory on it
 *            (it has memory and is in the cpuset's allowed memory nodes).
 *   known    memory returned by omp_numa_alloc, or registered with
 *            omp_numa_register, and not yet freed or unregistered. A range
 *            (ptr, size) is known when it lies inside one known area; any
 *            part of an area will do. Operations act on the whole pages the
 *            range touches, so bytes sharing those pages move with them.
 *   placed   a page that exists (has been touched); untouched pages are on
 *            no node until their first touch.
 * No operation ever changes or loses a byte of data: a migration that fails
 * leaves the pages where they were, accessible, and says so.
 * All functions are thread-safe. None may be called from a signal handler.
 * Calls that move pages move only pages this process maps alone; pages
 * shared with another process stay (and are reported as not moved).
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Placement policies for omp_numa_alloc. */
typedef enum omp_numa_policy {
    OMP_NUMA_FIRST_TOUCH = 0,  /* each page on the node of the thread that first touches it */
    OMP_NUMA_BIND        = 1,  /* every page on the given node */
    OMP_NUMA_INTERLEAVE  = 2,  /* pages round-robin over all valid nodes */
    OMP_NUMA_NEXT_TOUCH  = 3   /* each page moves to the node of its next toucher */
} omp_numa_policy_t;

/* When omp_numa_update_hints acts. */
typedef enum omp_numa_sync {
    OMP_NUMA_NOW        = 0,   /* at once, from the calling thread */
    OMP_NUMA_AT_BARRIER = 1    /* once every thread of the team has called */
} omp_numa_sync_t;

/*
 * Number of NUMA nodes: the highest node number plus one (1 on a machine or
 * kernel without NUMA). Never fails.
 */
int omp_numa_num_nodes(void);

/*
 * Node of the CPU with operating-system number cpu.
 * Returns the node, or -1 with EINVAL when cpu is negative, not a CPU of
 * this machine, or belongs to no node.
 */
int omp_numa_node_of_cpu(int cpu);

/*
 * Node of the CPU the calling thread is running on at this instant (it can
 * change unless the thread is pinned).
 * Returns the node, or -1 with ENOSYS when the kernel cannot tell.
 */
int omp_numa_get_thread_node(void);

/*
 * Allocate size bytes (rounded up to whole pages, page-aligned) placed by
 * policy. The memory is not initialised (fresh pages read as zero).
 *   size    > 0
 *   policy  one of omp_numa_policy_t
 *   node    OMP_NUMA_BIND: the node (required, valid).
 *           OMP_NUMA_NEXT_TOUCH: -1, or a valid node on which the pages are
 *           placed first and from which each page moves to the node of the
 *           first thread that touches it. With -1 the pages are untouched,
 *           so their first touch places them (next touch of fresh memory).
 *           OMP_NUMA_FIRST_TOUCH, OMP_NUMA_INTERLEAVE: must be -1.
 * Small OMP_NUMA_BIND allocations (up to 256 KiB) come from a per-node heap
 * and cost no system call once the heap has room; other allocations are
 * mapped directly. NEXT_TOUCH memory uses small pages, so each page goes to
 * its own toucher.
 * Returns the memory, or NULL with errno:
 *   EINVAL  size 0, unknown policy, node not valid for the policy
 *   ENOMEM  no memory (or no memory on node)
 */
void *omp_numa_alloc(size_t size, omp_numa_policy_t policy, int node);

/*
 * Free memory from omp_numa_alloc; also drops its attachments and any
 * pending next-touch arming. ptr NULL does nothing.
 * Precondition: no other thread uses the memory any more.
 * errno: EINVAL when ptr is not a pointer returned by omp_numa_alloc (or was
 * already freed); nothing is freed then.
 */
void omp_numa_free(void *ptr);

/*
 * Make memory allocated elsewhere (malloc, mmap, static, stack) known to the
 * manager so that attach, migrate and next touch accept it. Its placement is
 * not changed.
 *   ptr, size  the area; any alignment; must be mapped.
 * Returns 0, or -1 with errno:
 *   EINVAL  ptr NULL, size 0, the range is not entirely mapped, or it
 *           overlaps a known area
 *   ENOMEM  the manager's table cannot grow
 */
int omp_numa_register(void *ptr, size_t size);

/*
 * Forget an area registered with omp_numa_register: drops its attachments;
 * pages still armed for next touch are made accessible again where they are.
 * The memory itself is untouched.
 * Returns 0, or -1 with EINVAL when ptr is not the start of a registered area.
 */
int omp_numa_unregister(void *ptr);

/*
 * Attach (ptr, size) to thread thread_num of the current team: a hint that
 * this thread works on these bytes. Hints feed the `hints` counter source
 * and the bubble scheduler, which may move threads towards their data; the
 * memory itself does not move. Attaching the same ptr again replaces its
 * previous attachment.
 *   ptr, size   a known range
 *   thread_num  >= 0, the omp_get_thread_num() of the owner
 * Returns 0, or -1 with errno:
 *   EINVAL  thread_num < 0, size 0, or the range is not known
 *   ENOMEM  the manager's table cannot grow
 */
int omp_numa_attach(void *ptr, size_t size, int thread_num);

/*
 * Remove the attachment made with this ptr.
 * Returns 0, or -1 with EINVAL when no attachment starts at ptr.
 */
int omp_numa_detach(void *ptr);

/*
 * Arm the pages of (ptr, size) so that each moves to the node of the thread
 * that touches it next (a user-level pager: the pages are protected, the
 * first access faults, the pager restores access and moves the page). Pages
 * of a mapping that holds transparent huge pages move in whole 2 MiB units
 * (the unit the kernel moves); other pages move one by one. A page that
 * cannot move stays where it is, accessible (see the statistics). Several
 * threads touching one page at once: one moves it, the others wait for it.
 * A later omp_numa_migrate_to_node or a new arming of the same pages
 * replaces the arming. Of memory registered with omp_numa_register, only
 * the pages that lie entirely inside the registered area are armed: a page
 * it shares with other memory (malloc's neighbours) stays where it is,
 * accessible.
 * Preconditions: the range is readable and writable memory, and stays
 * mapped until it is touched, unregistered or freed; the program's own
 * SIGSEGV handler, if installed after this call, passes faults it does not
 * recognise to the handler it replaced (ompnuma re-installs itself on top at
 * each arming, so handlers installed earlier need not).
 * Each page touched splits the protected mapping until its neighbours are
 * touched too; should the kernel refuse to split further (vm.max_map_count,
 * reached only by touching hundreds of thousands of scattered pages), the
 * rest of that arming is cancelled: its pages become accessible where they
 * are and count as not moved.
 * Returns 0, or -1 with errno:
 *   EINVAL  size 0, the range is not known, or cannot be protected
 *   ENOMEM  too many armed ranges at once, or no memory for the pager
 *   ENOSYS  the kernel has no NUMA system calls
 */
int omp_numa_migrate_on_next_touch(void *ptr, size_t size);

/*
 * Move every page of (ptr, size) to node now (move_pages), whatever its
 * current placement; pages never touched are first created (as zero pages
 * would read) so that the whole range ends on node. Huge pages move whole.
 * Cancels a pending next-touch arming of these pages.
 * Returns 0 when every page is on node; otherwise -1 with errno, and the
 * pages that did not move keep their data where they were
 * (omp_numa_nodes_of tells where):
 *   EINVAL  node not valid, size 0, or the range is not known
 *   ENOMEM  no memory on node or for the request
 *   ENOSYS  the kernel has no move_pages
 *   EBUSY, EACCES, EFAULT, ENOENT  the error of the first page that could
 *           not be moved (busy, shared with another process, the shared
 *           zero page, not present)
 */
int omp_numa_migrate_to_node(void *ptr, size_t size, int node);

/*
 * Count the pages of (ptr, size) on each node. Any mapped memory is
 * accepted, known or not.
 *   pages_per_node  array of omp_numa_num_nodes() entries, filled (zeroed
 *                   first)
 * Returns the number of pages of the range placed on no node (never
 * touched, or not readable at the moment), at most INT_MAX; or -1 with:
 *   EINVAL  ptr or pages_per_node NULL, size 0, or the range not mapped
 *   ENOMEM  no memory for the query
 *   ENOSYS  the kernel has no move_pages
 */
int omp_numa_nodes_of(const void *ptr, size_t size, size_t *pages_per_node);

/*
 * Estimated time, in microseconds, to migrate size bytes from node from to
 * node to: a + b * pages, a line calibrated on this machine at first use
 * (or read from the cache written by `ompnuma calibrate`); MaMI measured
 * 120 + 11 * pages on its platform. 0 when from == to.
 * Returns the cost, or a negative value with errno:
 *   EINVAL  size 0, or from / to not valid
 *   ENOMEM  calibration could not get its buffers
 */
double omp_numa_cost_migrate(size_t size, int from, int to);

/*
 * Estimated time, in microseconds, for a thread on node from to read
 * (is_write == 0) or write (is_write != 0) size bytes held on node to:
 *   (local latency + size / local bandwidth) * distance(from, to) / distance(from, from)
 * with latency and read / write bandwidth measured on this machine at first
 * use and distances from the kernel's matrix (SLIT).
 * Returns the cost, or a negative value with errno:
 *   EINVAL  size 0, from not a node, or to not valid
 *   ENOMEM  calibration could not get its buffers
 */
double omp_numa_cost_access(size_t size, int from, int to, int is_write);

/*
 * Memory of node: total and currently free, in bytes (either pointer may be
 * NULL).
 * Returns 0, or -1 with EINVAL (node not valid) or ENOSYS (the kernel does
 * not report node sizes).
 */
int omp_numa_node_memory(int node, size_t *total, size_t *free);

/*
 * Ask the runtime to re-place the current team from the attach hints:
 * threads move towards the nodes that hold the buffers attached to them.
 *   when  OMP_NUMA_NOW: the calling thread requests it at once.
 *         OMP_NUMA_AT_BARRIER: every thread of the team calls; the request
 *         is made when the last one does. No thread waits in this call.
 * The re-placement is done by ompnuma's placement loop (threads re-pin at
 * their next implicit-task begin).
 * Returns 0, or -1 with errno:
 *   EINVAL  when is not an omp_numa_sync_t, or the calling thread is in no
 *           team ompnuma measures (serial code, or a team nested deeper
 *           than the levels it measures). With nothing of its team attached
 *           there is nothing to re-place, and the call returns 0 in any
 *           team. Through the drop-ins, a settled region's teams record
 *           their members only once a buffer is attached: a call in the very
 *           execution that attached a settled region's first buffer gets
 *           EINVAL, and the next executions re-place.
 *   ENOSPC  the team has more threads than the machine has cores: there is
 *           no mapping to decide
 *   ENOSYS  no placement runtime is active to act on hints (OMP_PLACEMENT=off,
 *           or libompnuma used without its drop-ins or its OpenMP tool)
 *   ENOMEM  too many teams waiting at once, or no memory for the hints
 */
int omp_numa_update_hints(omp_numa_sync_t when);

#ifdef __cplusplus
}
#endif
#endif /* OMP_NUMA_H */
