// npb-is-S-dropin: IS class S verifies with the ompnuma drop-in libraries first on the library path, built by clang and by gcc.
// REQUIRES: clang, gcc
// RUN: %clang-omp %srcroot/benchmarks/npb/is.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t.clang
// RUN: %gcc-omp %srcroot/benchmarks/npb/is.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t.gcc
// RUN: %dropin %t.clang S | FileCheck %s
// RUN: %dropin %t.gcc S | FileCheck %s

// The class-S test keys of iteration 10 (npb-facts.md, IS debug checkpoint).
// CHECK: Test keys in the last iteration: 50 158 310 1697 1855
// CHECK-NOT: Failed
// CHECK: Passed verifications = 51 of 51
// CHECK: IS Benchmark Completed.
// CHECK-NEXT: Class = S
// CHECK-NEXT: Size = 65536
// CHECK-NEXT: Iterations = 10
// CHECK: Total threads = 2
// CHECK: Operation type = keys ranked
// CHECK-NEXT: Verification = SUCCESSFUL
