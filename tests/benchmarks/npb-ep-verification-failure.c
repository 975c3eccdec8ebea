// npb-ep-verification-failure: EP reports UNSUCCESSFUL and exits with status 1 when its sums are outside the tolerance.
// REQUIRES: clang
// A negative tolerance rejects every value, so the real comparison and exit
// path run on a correct result.
// RUN: %clang-omp -DEP_EPSILON=-1.0 %srcroot/benchmarks/npb/ep.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: sh -c '%stock %t S; echo status=$?' | FileCheck %s

// CHECK: No. Gaussian pairs = 13176389
// CHECK: Verification = UNSUCCESSFUL
// CHECK: status=1
