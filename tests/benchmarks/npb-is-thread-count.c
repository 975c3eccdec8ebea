// npb-is-thread-count: IS ranks and verifies identically with 1, 2 and 3 threads (3 exercises uneven key and bucket shares).
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/is.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: %stock env OMP_NUM_THREADS=1 %t S > %t.1
// RUN: %stock env OMP_NUM_THREADS=2 %t S > %t.2
// RUN: %stock env OMP_NUM_THREADS=3 %t S > %t.3
// RUN: FileCheck %s --check-prefixes=CHECK,ONE < %t.1
// RUN: FileCheck %s --check-prefixes=CHECK,TWO < %t.2
// RUN: FileCheck %s --check-prefixes=CHECK,THREE < %t.3
// Everything but timings and thread counts must agree.
// RUN: grep -v -e time -e Time -e Mop/s -e threads %t.1 > %t.1.res
// RUN: grep -v -e time -e Time -e Mop/s -e threads %t.2 > %t.2.res
// RUN: grep -v -e time -e Time -e Mop/s -e threads %t.3 > %t.3.res
// RUN: diff %t.1.res %t.2.res
// RUN: diff %t.1.res %t.3.res

// CHECK: Passed verifications = 51 of 51
// ONE: Total threads = 1
// TWO: Total threads = 2
// THREE: Total threads = 3
// CHECK: Verification = SUCCESSFUL
