// npb-mg-verification-failure: MG reports UNSUCCESSFUL and exits with status 1 when the norm is outside the tolerance.
// REQUIRES: clang
// A negative tolerance rejects every norm, so the real comparison and exit
// path run on a correct result.
// RUN: %clang-omp -DMG_EPSILON=-1.0 %srcroot/benchmarks/npb/mg.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: sh -c '%stock %t S; echo status=$?' | FileCheck %s

// CHECK: L2 Norm is  5.307707005{{[0-9]+}}e-05
// CHECK: Verification = UNSUCCESSFUL
// CHECK: status=1
