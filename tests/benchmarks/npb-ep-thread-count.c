// npb-ep-thread-count: EP prints the same sums and counts, and verifies, with 1 and with 2 threads.
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/ep.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: %stock env OMP_NUM_THREADS=1 %t S > %t.1
// RUN: %stock env OMP_NUM_THREADS=2 %t S > %t.2
// RUN: FileCheck %s --check-prefixes=CHECK,ONE < %t.1
// RUN: FileCheck %s --check-prefixes=CHECK,TWO < %t.2
// Everything but timings and the thread count must agree to the last digit:
// per-batch sums are added in batch order whatever the schedule.
// RUN: grep -v -e time -e Time -e Mop/s -e threads %t.1 > %t.1.res
// RUN: grep -v -e time -e Time -e Mop/s -e threads %t.2 > %t.2.res
// RUN: diff %t.1.res %t.2.res

// CHECK: Sums =
// ONE: Total threads = 1
// TWO: Total threads = 2
// CHECK: Verification = SUCCESSFUL
