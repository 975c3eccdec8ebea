// npb-cg-bad-class: CG rejects a missing or unknown class with a usage line and exit status 2.
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/cg.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: sh -c '%t E; echo status=$?' 2>&1 | FileCheck %s
// RUN: sh -c '%t; echo status=$?' 2>&1 | FileCheck %s
// RUN: sh -c '%t ""; echo status=$?' 2>&1 | FileCheck %s

// CHECK: usage: npb-cg CLASS  (CLASS is one of S W A B C)
// CHECK-NEXT: status=2
// CHECK-NOT: Verification
