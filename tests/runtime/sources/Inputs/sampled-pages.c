/* Inside each sampled execution, before any thread touches the buffer (the
 * page sampler's pages are still protected): move the whole buffer to one
 * node, then ask where its pages are. Prints how many executions found
 * every page on the node it was moved to, and whether the data survived. */
#include <omp.h>
#include <omp_numa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTES (16u << 20) /* an anonymous mapping the sampler tracks */
#define EXECUTIONS 8

int main(void)
{
    unsigned char *buf = malloc(BYTES);
    int n = omp_numa_num_nodes();
    size_t *per = calloc((size_t)n, sizeof *per);
    if (!buf || !per)
        return 1;
    memset(buf, 7, BYTES);
    if (omp_numa_register(buf, BYTES) != 0)
        return 1;
    int all_there = 0, moved_ok = 0;
    size_t unplaced = 0;
    for (int e = 0; e < EXECUTIONS; e++) {
#pragma omp parallel num_threads(2)
        {
#pragma omp single
            {
                int to = e % n;
                moved_ok += omp_numa_migrate_to_node(buf, BYTES, to) == 0;
                int un = omp_numa_nodes_of(buf, BYTES, per);
                size_t total = 0;
                for (int k = 0; k < n; k++)
                    total += per[k];
                unplaced += un > 0 ? (size_t)un : 0;
                all_there += un == 0 && per[to] == total && total > 0;
            }
            unsigned long sum = 0;
            for (size_t i = (size_t)omp_get_thread_num() * 4096; i < BYTES; i += 8192)
                sum += buf[i];
            if (sum == 42)
                puts("unlikely");
        }
    }
    int intact = 1;
    for (size_t i = 0; i < BYTES; i += 4096)
        intact &= buf[i] == 7;
    printf("executions %d moved-ok %d all-on-target %d unplaced %zu intact %d\n", EXECUTIONS, moved_ok, all_there,
           unplaced, intact);
    omp_numa_unregister(buf);
    free(per);
    free(buf);
    return 0;
}
