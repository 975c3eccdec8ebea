// A tool linked into a library that comes after libomp in the lookup scope
// is found by stock libomp (its own ompt_start_tool passes the call on to
// the next definition): on the drop-in it starts too, chained behind
// ompnuma's tool, and sees the same events, while ompnuma's report still
// lists the regions.
// REQUIRES: clang
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %clang-omp -shared -fPIC %S/Inputs/user-tool.c -o %t.dir/libusertool.so
// RUN: %clang-omp %s -o %t -Wl,--no-as-needed %real-libomp -L%t.dir -lusertool -Wl,-rpath,%t.dir
// RUN: %stock %t > %t.stock 2> %t.stock.err
// RUN: FileCheck %s --input-file %t.stock.err --implicit-check-not=tool:
// RUN: rm -f %t.json
// RUN: env OMP_PLACEMENT_REPORT=%t.json %dropin %t > %t.dropin 2> %t.err
// RUN: diff %t.stock %t.dropin
// RUN: diff %t.stock.err %t.err
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('regions', [(r['team_size'], r['executions']) for r in d['regions']])" %t.json | FileCheck %s --check-prefix=REPORT
//
// CHECK: tool: initialize thread_begin=always parallel_begin=always
// CHECK-NEXT: tool: thread_begin initial
// CHECK-DAG: tool: parallel_begin requested=2 team
// CHECK-DAG: tool: parallel_begin requested=2 team
// CHECK-DAG: tool: thread_begin worker
// CHECK: tool: finalize
// REPORT: regions [(2, 2)]
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
    for (int i = 0; i < 2; i++) {
#pragma omp parallel
#pragma omp master
        n++;
    }
    printf("regions run %d\n", n);
    return 0;
}
