// npb-ft-bad-class: FT rejects a missing or unknown class with a usage line and exit status 2, and runs nothing.
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/ft.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: sh -c '%t X; echo status=$?' 2>&1 | FileCheck %s
// RUN: sh -c '%t; echo status=$?' 2>&1 | FileCheck %s
// RUN: sh -c '%t S W; echo status=$?' 2>&1 | FileCheck %s

// CHECK-NOT: NAS Parallel
// CHECK: usage: npb-ft CLASS  (CLASS is one of S W A B C)
// CHECK-NEXT: status=2
// CHECK-NOT: Benchmark
