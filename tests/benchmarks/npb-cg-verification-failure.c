// npb-cg-verification-failure: CG reports UNSUCCESSFUL and exits with status 1 when zeta is outside the tolerance.
// REQUIRES: clang
// A negative tolerance rejects every zeta, so the real comparison and exit
// path run on a correct result.
// RUN: %clang-omp -DCG_EPSILON=-1.0 %srcroot/benchmarks/npb/cg.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: sh -c '%stock %t S; echo status=$?' | FileCheck %s

// CHECK: Zeta is     8.59717750786{{[0-9]+}}e+00
// CHECK: Verification = UNSUCCESSFUL
// CHECK: status=1
