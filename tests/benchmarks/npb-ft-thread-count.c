// npb-ft-thread-count: FT prints the same checksums to the last digit, and verifies, with 1 and with 2 threads.
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/ft.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: %stock env OMP_NUM_THREADS=1 %t S > %t.1
// RUN: %stock env OMP_NUM_THREADS=2 %t S > %t.2
// RUN: FileCheck %s --check-prefixes=CHECK,ONE < %t.1
// RUN: FileCheck %s --check-prefixes=CHECK,TWO < %t.2
// Every line is transformed the same way whichever thread takes it, and the
// checksum is summed by one thread in a fixed order.
// RUN: grep Checksum %t.1 > %t.1.res
// RUN: grep Checksum %t.2 > %t.2.res
// RUN: diff %t.1.res %t.2.res

// CHECK: T = 6 Checksum =
// ONE: Total threads = 1
// TWO: Total threads = 2
// CHECK: Verification = SUCCESSFUL
