// Node queries on this machine: node count, CPU -> node, the thread's node, node memory, and their error paths.
// RUN: %clang-omp %s -I%S/Inputs %memlib -o %t && %t | FileCheck %s
#include "memtest.h"
#include <unistd.h>

int main(void)
{
    int n = omp_numa_num_nodes();
    printf("nodes >= 1: %s\n", n >= 1 ? "yes" : "no");
    int node0 = omp_numa_node_of_cpu(0);
    printf("cpu0 node valid: %s\n", node0 >= 0 && node0 < n ? "yes" : "no");
    int t = omp_numa_get_thread_node();
    printf("thread node valid: %s\n", t >= 0 && t < n ? "yes" : "no");
    EXPECT_ERR("cpu -1", omp_numa_node_of_cpu(-1), -1, EINVAL);
    EXPECT_ERR("cpu beyond", omp_numa_node_of_cpu((int)sysconf(_SC_NPROCESSORS_CONF) + 64), -1, EINVAL);

    size_t total = 0, fr = 0;
    EXPECT_OK("node_memory", omp_numa_node_memory(node0, &total, &fr));
    printf("free <= total, total > 0: %s\n", total > 0 && fr <= total ? "yes" : "no");
    EXPECT_OK("node_memory NULL outputs", omp_numa_node_memory(node0, NULL, NULL));
    EXPECT_ERR("node_memory -1", omp_numa_node_memory(-1, &total, &fr), -1, EINVAL);
    EXPECT_ERR("node_memory beyond", omp_numa_node_memory(n, &total, &fr), -1, EINVAL);
    return 0;
}
// CHECK: nodes >= 1: yes
// CHECK-NEXT: cpu0 node valid: yes
// CHECK-NEXT: thread node valid: yes
// CHECK-NEXT: cpu -1: ok
// CHECK-NEXT: cpu beyond: ok
// CHECK-NEXT: node_memory: ok
// CHECK-NEXT: free <= total, total > 0: yes
// CHECK-NEXT: node_memory NULL outputs: ok
// CHECK-NEXT: node_memory -1: ok
// CHECK-NEXT: node_memory beyond: ok
