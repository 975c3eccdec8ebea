/* rt_migrate.h: this process's own pages moved to one NUMA node with migrate_pages(2), the pages it shares left where they are. */
#ifndef OMPNUMA_RT_MIGRATE_H
#define OMPNUMA_RT_MIGRATE_H

/* Kernel nodes 0 .. RT_MIGRATE_NODES - 1 (the masks the calls pass). */
#define RT_MIGRATE_NODES 1024

/*
 * Move the pages this process maps alone to kernel node os_node, from every
 * other node it may use (get_mempolicy's MPOL_F_MEMS_ALLOWED; every node
 * when that is unknown). Only those: with CAP_SYS_NICE, migrate_pages(2)
 * also moves pages the process shares with others (an MPI library's
 * shared-memory segments, libraries' page cache), and every rank of a host
 * pulling the same pages to its own node at once made the calls take
 * seconds of system time each. The calling thread's CAP_SYS_NICE
 * (capabilities are per thread) is therefore set aside for the call and
 * given back afterwards. The sources are the allowed nodes, not every
 * possible one: the kernel walks the address space once per source node,
 * and 1023 sources made one call take seconds whatever it moved.
 *
 * Blocks for as long as the kernel copies; not from a signal handler.
 * Returns the pages left behind (>= 0; 0 also when os_node is the only
 * node there is), or -1 with errno: EINVAL (os_node outside
 * 0 .. RT_MIGRATE_NODES - 1), EPERM (CAP_SYS_NICE could not be set aside:
 * nothing moved), or migrate_pages's.
 */
long rt_migrate_own_pages(int os_node);

/*
 * move_pages(2) of n pages (MPOL_MF_MOVE, the process's own pages) to
 * kernel node to_os, timed: the call's ns, each page's node or -errno in
 * status[]; -1 with errno when the call failed. The one timed move that
 * the migration trial below and the memory cost model's calibration
 * (rt_mem_cost.c) are built on.
 */
double rt_migrate_timed_ns(void **pages, int n, int to_os, int *status);

/*
 * What migrating one page costs here, measured: RT_MIGRATE_TRIAL_PAGES pages
 * of a private buffer are put on kernel node from_os, then moved to to_os
 * and back with move_pages(2), each leg timed; the faster leg's time per
 * page moved, in ns (the call's own cost included: a price, for deciding
 * whether a move pays, that errs high for a few pages and close for many).
 * About 2 x 16 page copies: for a rare decision, not a hot path. -1 with
 * errno: EINVAL (a node outside 0 .. RT_MIGRATE_NODES - 1, or both the
 * same), EIO (no page moved: a node without memory or not allowed), or
 * mmap's, move_pages's.
 */
#define RT_MIGRATE_TRIAL_PAGES 16
double rt_migrate_page_ns(int from_os, int to_os);

#endif
