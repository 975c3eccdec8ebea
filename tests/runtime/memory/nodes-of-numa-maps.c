// In a 2x2 guest, omp_numa_nodes_of agrees with the kernel's /proc/self/numa_maps for a mapping split between the nodes, and with numactl --membind for plain mmap memory the manager does not know.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -I%S/Inputs -I%S/../memory/Inputs %memlib -lnuma -o %t
// RUN: %numa-vm-run(2x2) -- %t split | FileCheck %s --check-prefix=SPLIT
// RUN: %numa-vm-run(2x2) --file %t -- numactl --membind=1 %t membind | FileCheck %s --check-prefix=MEMBIND
#include "memtest.h"
#include "vmpages.h"
#include <sys/mman.h>

/* N<node>=<pages> of the numa_maps line of the mapping starting at p. */
static long numa_maps_count(const void *p, int node)
{
    FILE *f = fopen("/proc/self/numa_maps", "r");
    char line[1024], key[16];
    long v = -1;
    snprintf(key, sizeof key, " N%d=", node);
    while (f && fgets(line, sizeof line, f)) {
        if (strtoul(line, NULL, 16) != (unsigned long)(uintptr_t)p)
            continue;
        char *k = strstr(line, key);
        v = k ? strtol(k + strlen(key), NULL, 10) : 0;
    }
    if (f)
        fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), n = 300;
    size_t per[2];
    if (!strcmp(argv[1], "split")) {
        unsigned char *p = omp_numa_alloc(n * ps, OMP_NUMA_FIRST_TOUCH, -1);
        madvise(p, n * ps, MADV_NOHUGEPAGE);
        mt_fill(p, n * ps, 1);
        omp_numa_migrate_to_node(p, n * ps, 0);   /* the main thread may run on either node */
        omp_numa_migrate_to_node(p + 100 * ps, 120 * ps, 1);
        int un = omp_numa_nodes_of(p, n * ps, per);
        printf("nodes_of: node0 %zu node1 %zu unplaced %d\n", per[0], per[1], un);
        printf("numa_maps: node0 %ld node1 %ld\n", numa_maps_count(p, 0), numa_maps_count(p, 1));
    } else {
        /* Plain memory under the task policy numactl set. */
        unsigned char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        madvise(p, n * ps, MADV_NOHUGEPAGE);
        mt_fill(p, n * ps, 2);
        int un = omp_numa_nodes_of(p, n * ps, per);
        printf("nodes_of: node0 %zu node1 %zu unplaced %d\n", per[0], per[1], un);
        printf("numa_maps: node0 %ld node1 %ld\n", numa_maps_count(p, 0), numa_maps_count(p, 1));
    }
    return 0;
}
// SPLIT: nodes_of: node0 180 node1 120 unplaced 0
// SPLIT-NEXT: numa_maps: node0 180 node1 120
// MEMBIND: nodes_of: node0 0 node1 300 unplaced 0
// MEMBIND-NEXT: numa_maps: node0 0 node1 300
