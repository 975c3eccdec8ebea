// In 2-node and 4-node guests, OMP_NUMA_BIND puts every page on its node (heap and mapped sizes) and OMP_NUMA_INTERLEAVE cycles pages over all nodes, checked page by page with move_pages queries; data intact.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -I%S/Inputs -I%S/../memory/Inputs %memlib -lnuma -o %t
// RUN: %numa-vm-run(2x2) -- %t | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: %numa-vm-run(4x1) -- %t | FileCheck %s --check-prefixes=CHECK,FOUR
#include "memtest.h"
#include "vmpages.h"

int main(void)
{
    int nn = omp_numa_num_nodes();
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    printf("nodes %d\n", nn);
    /* 12 KiB comes from the node's heap, 1 MiB is mapped directly; both stay
     * below 2 MiB so no transparent huge page can form. */
    size_t sizes[2] = { 3 * ps, 256 * ps };
    for (int node = 0; node < nn; node++) {
        for (int s = 0; s < 2; s++) {
            size_t n = sizes[s] / ps;
            unsigned char *p = omp_numa_alloc(sizes[s], OMP_NUMA_BIND, node);
            mt_fill(p, sizes[s], (unsigned)node);
            size_t on = vm_count_on(p, n, node);
            printf("bind node %d %s: %zu of %zu pages on node, data %s\n", node, s ? "mapped" : "heap", on, n,
                   mt_verify(p, sizes[s], (unsigned)node) ? "intact" : "CORRUPT");
            omp_numa_free(p);
        }
    }
    size_t n = 256;
    unsigned char *p = omp_numa_alloc(n * ps, OMP_NUMA_INTERLEAVE, -1);
    mt_fill(p, n * ps, 9);
    int st[256];
    vm_nodes(p, n, st);
    int cycle = 1;
    size_t per[8] = { 0 };
    for (size_t i = 0; i < n; i++) {
        if (st[i] < 0 || st[i] >= nn) {
            cycle = 0;
            continue;
        }
        per[st[i]]++;
        if (i > 0 && st[i] != (st[i - 1] + 1) % nn)
            cycle = 0;
    }
    printf("interleave: consecutive pages on consecutive nodes: %s\n", cycle ? "yes" : "no");
    for (int k = 0; k < nn; k++)
        printf("interleave: node %d has %zu pages\n", k, per[k]);
    size_t counts[8];
    omp_numa_nodes_of(p, n * ps, counts);
    int agree = 1;
    for (int k = 0; k < nn; k++)
        agree &= counts[k] == per[k];
    printf("nodes_of agrees: %s, data %s\n", agree ? "yes" : "no", mt_verify(p, n * ps, 9) ? "intact" : "CORRUPT");
    omp_numa_free(p);
    return 0;
}
// TWO: nodes 2
// FOUR: nodes 4
// CHECK: bind node 0 heap: 3 of 3 pages on node, data intact
// CHECK-NEXT: bind node 0 mapped: 256 of 256 pages on node, data intact
// CHECK-NEXT: bind node 1 heap: 3 of 3 pages on node, data intact
// CHECK-NEXT: bind node 1 mapped: 256 of 256 pages on node, data intact
// FOUR-NEXT: bind node 2 heap: 3 of 3 pages on node, data intact
// FOUR-NEXT: bind node 2 mapped: 256 of 256 pages on node, data intact
// FOUR-NEXT: bind node 3 heap: 3 of 3 pages on node, data intact
// FOUR-NEXT: bind node 3 mapped: 256 of 256 pages on node, data intact
// CHECK-NEXT: interleave: consecutive pages on consecutive nodes: yes
// TWO-NEXT: interleave: node 0 has 128 pages
// TWO-NEXT: interleave: node 1 has 128 pages
// FOUR-NEXT: interleave: node 0 has 64 pages
// FOUR-NEXT: interleave: node 1 has 64 pages
// FOUR-NEXT: interleave: node 2 has 64 pages
// FOUR-NEXT: interleave: node 3 has 64 pages
// CHECK-NEXT: nodes_of agrees: yes, data intact
