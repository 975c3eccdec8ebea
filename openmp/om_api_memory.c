/* om_api_memory.c: the exported omp_numa_* entry points; thin wrappers over the runtime's memory manager (rt_mem.h). */
#include "omp_numa.h"
#include "rt_core.h"
#include "rt_mem.h"

#include <omp.h>
#include <stdint.h>

OMPNUMA_EXPORT int omp_numa_num_nodes(void) { return rt_mem_num_nodes(); }
OMPNUMA_EXPORT int omp_numa_node_of_cpu(int cpu) { return rt_mem_node_of_cpu(cpu); }
OMPNUMA_EXPORT int omp_numa_get_thread_node(void) { return rt_mem_thread_node(); }

/* The public enums onto the memory manager's; anything else stays out of
 * range, so the runtime's EINVAL check answers it. */
static int mem_policy(omp_numa_policy_t policy)
{
    switch (policy) {
    case OMP_NUMA_FIRST_TOUCH: return RT_MEM_FIRST_TOUCH;
    case OMP_NUMA_BIND:        return RT_MEM_BIND;
    case OMP_NUMA_INTERLEAVE:  return RT_MEM_INTERLEAVE;
    case OMP_NUMA_NEXT_TOUCH:  return RT_MEM_NEXT_TOUCH;
    }
    return -1;
}

static int mem_when(omp_numa_sync_t when)
{
    switch (when) {
    case OMP_NUMA_NOW:        return RT_MEM_NOW;
    case OMP_NUMA_AT_BARRIER: return RT_MEM_AT_BARRIER;
    }
    return -1;
}

OMPNUMA_EXPORT void *omp_numa_alloc(size_t size, omp_numa_policy_t policy, int node)
{
    return rt_mem_alloc(size, mem_policy(policy), node);
}

OMPNUMA_EXPORT void omp_numa_free(void *ptr) { rt_mem_free(ptr); }
OMPNUMA_EXPORT int omp_numa_register(void *ptr, size_t size) { return rt_mem_register(ptr, size); }
OMPNUMA_EXPORT int omp_numa_unregister(void *ptr) { return rt_mem_unregister(ptr); }

OMPNUMA_EXPORT int omp_numa_attach(void *ptr, size_t size, int thread_num)
{
    return rt_mem_attach(ptr, size, thread_num);
}

OMPNUMA_EXPORT int omp_numa_detach(void *ptr) { return rt_mem_detach(ptr); }

OMPNUMA_EXPORT int omp_numa_migrate_on_next_touch(void *ptr, size_t size)
{
    return rt_mem_migrate_on_next_touch(ptr, size);
}

OMPNUMA_EXPORT int omp_numa_migrate_to_node(void *ptr, size_t size, int node)
{
    return rt_mem_migrate_to_node(ptr, size, node);
}

OMPNUMA_EXPORT int omp_numa_nodes_of(const void *ptr, size_t size, size_t *pages_per_node)
{
    return rt_mem_nodes_of(ptr, size, pages_per_node);
}

OMPNUMA_EXPORT double omp_numa_cost_migrate(size_t size, int from, int to)
{
    return rt_mem_cost_migrate(size, from, to);
}

OMPNUMA_EXPORT double omp_numa_cost_access(size_t size, int from, int to, int is_write)
{
    return rt_mem_cost_access(size, from, to, is_write);
}

OMPNUMA_EXPORT int omp_numa_node_memory(int node, size_t *total, size_t *free)
{
    return rt_mem_node_memory(node, total, free);
}

/* A team is identified among the teams active at the same time by its
 * nesting level and the thread numbers of its ancestors: two concurrent
 * teams at one level descend from different ancestor threads. */
static uint64_t team_key(int level)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)level;
    for (int l = 1; l < level; l++) {
        h ^= (uint64_t)omp_get_ancestor_thread_num(l) + 1;
        h *= 1099511628211ull;
    }
    return h;
}

OMPNUMA_EXPORT int omp_numa_update_hints(omp_numa_sync_t when)
{
    int level = omp_get_level();
    return rt_mem_update_hints(mem_when(when), team_key(level), omp_get_num_threads(), level);
}
