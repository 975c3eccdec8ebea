// npb-ep-S-stock: EP class S verifies on the stock runtime, built by clang and by gcc.
// REQUIRES: clang, gcc
// RUN: %clang-omp %srcroot/benchmarks/npb/ep.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t.clang
// RUN: %gcc-omp %srcroot/benchmarks/npb/ep.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t.gcc
// RUN: %stock %t.clang S | FileCheck %s
// RUN: %stock %t.gcc S | FileCheck %s

// The per-annulus counts of class S (npb-verify.json EP.S.counts_q0_q9).
// CHECK: No. Gaussian pairs = 13176389
// CHECK:   0         6140517
// CHECK-NEXT:   1         5865300
// CHECK-NEXT:   2         1100361
// CHECK-NEXT:   3           68546
// CHECK-NEXT:   4            1648
// CHECK-NEXT:   5              17
// CHECK-NEXT:   6               0
// CHECK: EP Benchmark Completed.
// CHECK-NEXT: Class = S
// CHECK-NEXT: Size = 33554432
// CHECK: Total threads = 2
// CHECK: Operation type = Random numbers generated
// CHECK-NEXT: Verification = SUCCESSFUL
