// A user's OMPT tool given in OMP_TOOL_LIBRARIES gets every thread_begin
// and parallel_begin event and its finalize, exactly as on the stock
// runtime, while ompnuma's report still lists the regions: on the drop-in
// the runtime starts the tool itself (ompnuma takes regions at the ABI and
// is no tool there); through the OMPT route (libompnuma.so first in
// OMP_TOOL_LIBRARIES, on the stock runtime) the tool runs chained behind
// ompnuma's (ompnuma owns both events and forwards them).
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/user-tool.c -o %t.tool.so
// RUN: %clang-omp %s -o %t
// RUN: %stock env OMP_TOOL_LIBRARIES=%t.tool.so %t > %t.stock 2> %t.stock.err
// RUN: FileCheck %s --input-file %t.stock.err --implicit-check-not=tool: --implicit-check-not=ompnuma
// RUN: rm -f %t.json
// RUN: %dropin env OMP_TOOL_LIBRARIES=%t.tool.so OMP_PLACEMENT_REPORT=%t.json %t > %t.dropin 2> %t.err
// RUN: diff %t.stock %t.dropin
// RUN: FileCheck %s --input-file %t.err --implicit-check-not=tool: --implicit-check-not=ompnuma
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('regions', [(r['team_size'], r['executions']) for r in d['regions']])" %t.json | FileCheck %s --check-prefix=REPORT
// RUN: rm -f %t.ompt.json
// RUN: %stock env OMP_TOOL_LIBRARIES=%libdir/libompnuma.so:%t.tool.so OMP_PLACEMENT_REPORT=%t.ompt.json %t > %t.ompt 2> %t.ompt.err
// RUN: diff %t.stock %t.ompt
// RUN: FileCheck %s --input-file %t.ompt.err --implicit-check-not=tool: --implicit-check-not=ompnuma
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('regions', [(r['team_size'], r['executions']) for r in d['regions']])" %t.ompt.json | FileCheck %s --check-prefix=REPORT
//
// CHECK: tool: initialize thread_begin=always parallel_begin=always
// CHECK-NEXT: tool: thread_begin initial
// CHECK-DAG: tool: parallel_begin requested=2 team
// CHECK-DAG: tool: parallel_begin requested=2 team
// CHECK-DAG: tool: parallel_begin requested=2 team
// CHECK-DAG: tool: thread_begin worker
// CHECK: tool: finalize
// REPORT: regions [(2, 3)]
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
    for (int i = 0; i < 3; i++) {
#pragma omp parallel
#pragma omp master
        n++;
    }
    printf("regions run %d\n", n);
    return 0;
}
