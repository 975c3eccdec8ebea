// npb-ep-bad-class: EP rejects a missing or unknown class with a usage line and exit status 2.
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/ep.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: sh -c '%t X; echo status=$?' 2>&1 | FileCheck %s
// RUN: sh -c '%t; echo status=$?' 2>&1 | FileCheck %s
// RUN: sh -c '%t S W; echo status=$?' 2>&1 | FileCheck %s
// RUN: sh -c '%t SS; echo status=$?' 2>&1 | FileCheck %s
// Lower case is accepted, like the reference suite's make CLASS=s.
// RUN: %t s | FileCheck %s --check-prefix=LOWER

// CHECK: usage: npb-ep CLASS  (CLASS is one of S W A B C)
// CHECK-NEXT: status=2
// CHECK-NOT: Verification
// LOWER: Class = S
// LOWER: Verification = SUCCESSFUL
