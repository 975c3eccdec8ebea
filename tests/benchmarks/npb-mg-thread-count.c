// npb-mg-thread-count: MG prints the same residual norm to the last digit, and verifies, with 1 and with 2 threads.
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/mg.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: %stock env OMP_NUM_THREADS=1 %t S > %t.1
// RUN: %stock env OMP_NUM_THREADS=2 %t S > %t.2
// RUN: FileCheck %s --check-prefixes=CHECK,ONE < %t.1
// RUN: FileCheck %s --check-prefixes=CHECK,TWO < %t.2
// Every stencil point is computed the same way whoever owns its plane, and
// the per-plane norm partials are added in plane order.
// RUN: grep -e 'L2 Norm' -e 'Relative error' %t.1 > %t.1.res
// RUN: grep -e 'L2 Norm' -e 'Relative error' %t.2 > %t.2.res
// RUN: diff %t.1.res %t.2.res

// CHECK: L2 Norm is
// ONE: Total threads = 1
// TWO: Total threads = 2
// CHECK: Verification = SUCCESSFUL
