// npb-mg-W-stock: MG class W uses the NPB 3.1+ definition (128^3, 4 iterations, reference 0.6467329375339e-05) and verifies.
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/mg.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: %stock %t W | FileCheck %s

// NPB 3.0 defined W as 64^3 with 40 iterations; that definition must not come back.
// CHECK: Size:  128x 128x 128  (class W)
// CHECK-NEXT: Iterations: 4
// CHECK: L2 Norm is  6.467329375{{[0-9]+}}e-06
// CHECK: Class = W
// CHECK-NEXT: Size = 128x128x128
// CHECK-NEXT: Iterations = 4
// CHECK: Verification = SUCCESSFUL
