// A program linked with DT_RPATH to a directory holding the real runtime as
// libomp.so.5 ignores LD_LIBRARY_PATH: under %dropin the facade is bypassed
// and no report is written. `ompnuma run` sees the DT_RPATH, loads the facade
// with LD_PRELOAD instead (--explain says so), and the report appears. The
// same program linked with DT_RUNPATH takes the LD_LIBRARY_PATH route.
// REQUIRES: clang
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: ln -s %real-libomp %t.dir/libomp.so.5
// RUN: %clang-omp %s -o %t -Wl,--disable-new-dtags,-rpath,%t.dir
// RUN: rm -f %t.json
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s --check-prefix=OUT
// RUN: not test -e %t.json
// RUN: %ompnuma run --report stderr -- %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT --input-file %t.out
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.err
// RUN: %ompnuma run --explain --report %t.json -- %t > %t.out2 2> %t.explain
// RUN: FileCheck %s --check-prefix=EXPLAIN --input-file %t.explain -DLIBDIR=%libdir
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('executions', d['regions'][0]['executions'])" %t.json | FileCheck %s --check-prefix=JSON
// RUN: %clang-omp %s -o %t.runpath -Wl,--enable-new-dtags,-rpath,%t.dir
// RUN: %ompnuma run --explain -- %t.runpath 2>&1 > /dev/null | FileCheck %s --check-prefix=RUNPATH -DLIBDIR=%libdir
//
// OUT: executions 5
// REPORT: ompnuma: policy critpath,
// REPORT: ompnuma:   0 {{.*}} 2 5 {{.*}}
// EXPLAIN: ompnuma run: {{.*}}: LLVM OpenMP (libomp.so.5), DT_RPATH: LD_PRELOAD=[[LIBDIR]]/libomp.so.5
// JSON: executions 5
// RUNPATH: ompnuma run: {{.*}}.runpath: LLVM OpenMP (libomp.so.5), LD_LIBRARY_PATH=[[LIBDIR]]
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
    for (int i = 0; i < 5; i++) {
#pragma omp parallel
#pragma omp master
        n++;
    }
    printf("executions %d\n", n);
    return 0;
}
