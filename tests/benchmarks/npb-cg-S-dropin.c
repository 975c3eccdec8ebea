// npb-cg-S-dropin: CG class S verifies with the ompnuma drop-in libraries first on the library path, built by clang and by gcc.
// REQUIRES: clang, gcc
// RUN: %clang-omp %srcroot/benchmarks/npb/cg.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t.clang
// RUN: %gcc-omp %srcroot/benchmarks/npb/cg.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t.gcc
// RUN: %dropin %t.clang S | FileCheck %s
// RUN: %dropin %t.gcc S | FileCheck %s

// Assembly size and the zeta checkpoints of class S (npb-facts.md, CG).
// CHECK: Number of nonzeros = 78148
// CHECK: {{^ +}}1 {{.*}} 9.99864415791{{[0-9]*}}e+00
// CHECK: {{^ +}}2 {{.*}} 8.57332792032{{[0-9]*}}e+00
// CHECK: {{^ +}}10 {{.*}} 8.59717750644{{[0-9]*}}e+00
// CHECK: {{^ +}}15 {{.*}} 8.59717750786{{[0-9]*}}e+00
// CHECK: CG Benchmark Completed.
// CHECK-NEXT: Class = S
// CHECK-NEXT: Size = 1400
// CHECK-NEXT: Iterations = 15
// CHECK: Total threads = 2
// CHECK: Operation type = floating point
// CHECK-NEXT: Verification = SUCCESSFUL
