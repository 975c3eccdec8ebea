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
 */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum omp_numa_policy {
    OMP_NUMA_FIRST_TOUCH = 0,
    OMP_NUMA_BIND        = 1,
    OMP_NUMA_INTERLEAVE  = 2,
    OMP_NUMA_NEXT_TOUCH  = 3
} omp_numa_policy_t;

typedef enum omp_numa_sync {
    OMP_NUMA_NOW        = 0,
    OMP_NUMA_AT_BARRIER = 1
} omp_numa_sync_t;

int    omp_numa_num_nodes(void);
int    omp_numa_node_of_cpu(int cpu);
int    omp_numa_get_thread_node(void);
void  *omp_numa_alloc(size_t size, omp_numa_policy_t policy, int node);
void   omp_numa_free(void *ptr);
int    omp_numa_register(void *ptr, size_t size);
int    omp_numa_unregister(void *ptr);
int    omp_numa_attach(void *ptr, size_t size, int thread_num);
int    omp_numa_detach(void *ptr);
int    omp_numa_migrate_on_next_touch(void *ptr, size_t size);
int    omp_numa_migrate_to_node(void *ptr, size_t size, int node);
int    omp_numa_nodes_of(const void *ptr, size_t size, size_t *pages_per_node);
double omp_numa_cost_migrate(size_t size, int from, int to);
double omp_numa_cost_access(size_t size, int from, int to, int is_write);
int    omp_numa_node_memory(int node, size_t *total, size_t *free);
int    omp_numa_update_hints(omp_numa_sync_t when);

#ifdef __cplusplus
}
#endif
#endif /* OMP_NUMA_H */
