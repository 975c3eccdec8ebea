// npb-ft-verification-failure: FT marks the checksums WRONG, reports UNSUCCESSFUL and exits with status 1 when they are outside the tolerance.
// REQUIRES: clang
// A negative tolerance rejects every checksum, so the real comparison and
// exit path run on a correct result.
// RUN: %clang-omp -DFT_EPSILON=-1.0 %srcroot/benchmarks/npb/ft.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: sh -c '%stock %t S; echo status=$?' | FileCheck %s

// CHECK: T = 1 Checksum = 5.5460870049{{[0-9]+}}e+02 4.8453633319{{[0-9]+}}e+02 WRONG
// CHECK: T = 6 Checksum = {{.*}} WRONG
// CHECK: Verification = UNSUCCESSFUL
// CHECK: status=1
