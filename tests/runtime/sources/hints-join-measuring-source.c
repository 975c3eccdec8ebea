// What the program says joins what a measuring source sees: on a synthetic
// 2-node topology the page sampler (named) never protects these small buffers; the threads attached them (omp_numa_attach), so the
// region's TNT holds references to the attached pages and the region gets a
// decision instead of "no references".
// RUN: %clang-omp %s %libompnuma -o %t
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" OMP_PLACEMENT=source=pagefault,budget=off OMP_PLACEMENT_REPORT=%t.json %t
// RUN: %python -c "import json,sys; r=json.load(open(sys.argv[1])); g=max(r['regions'], key=lambda g: g['executions']); print('source', r['source']['used']); print('executions', g['executions'], 'every thread has references', all(sum(row) > 0 for row in g['tnt']), 'no_data', g['outcome'] == 'no_data')" %t.json | FileCheck %s
// CHECK: source pagefault
// CHECK-NEXT: executions 20 every thread has references True no_data False
#include <omp.h>
#include <omp_numa.h>
#include <string.h>

#define BYTES (64 << 10) /* 16 pages: far below what the page sampler tracks */

int main(void)
{
    char *buf[2];
    for (int t = 0; t < 2; t++) {
        buf[t] = omp_numa_alloc(BYTES, OMP_NUMA_BIND, 0);
        if (!buf[t])
            return 1;
        memset(buf[t], 0, BYTES);
        omp_numa_attach(buf[t], BYTES, t);
    }
    for (int e = 0; e < 20; e++) {
#pragma omp parallel num_threads(2)
        {
            char *b = buf[omp_get_thread_num()];
            for (int i = 0; i < BYTES; i += 64)
                b[i]++;
        }
    }
    for (int t = 0; t < 2; t++) {
        omp_numa_detach(buf[t]);
        omp_numa_free(buf[t]);
    }
    return 0;
}
