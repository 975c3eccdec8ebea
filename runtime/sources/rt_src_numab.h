/* rt_src_numab.h: how the numa_balancing source turns two readings of a thread's hinting-fault statistics into faults per node (pure, for tests). */
#ifndef OMPNUMA_RT_SRC_NUMAB_H
#define OMPNUMA_RT_SRC_NUMAB_H

#include <stdint.h>

#include "rt_procfs.h"

/*
 * The faults one thread took on each kernel node between two readings,
 * into est[RT_NUMA_FAULTS_NODES]; returns their sum.
 *
 * The kernel keeps no plain count: at a thread's first fault after each
 * scan pass (mm->numa_scan_seq changed) it halves what it had and adds the
 * faults buffered since. Counts that did not change mean no fold: nothing.
 * Otherwise the earlier reading is decayed as many times as passes went by
 * (at least once) before it is subtracted; what remains weighs recent
 * faults more, as the kernel does.
 *
 * A fault that made the kernel migrate the page is counted on the page's
 * new node, the thread's own: numa_pages_migrated says how many did.
 * Assuming a steady rate over the window, that many (decayed like the rest)
 * are moved from the thread's node (current_node) to the others, in
 * proportion to what they already have (evenly when they have nothing):
 * where the memory was when the thread reached for it.
 */
uint64_t rt_numab_estimate(const rt_numa_faults_t *before, const rt_numa_faults_t *after, uint64_t *est);

#endif
