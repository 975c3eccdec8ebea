// npb-is-verification-failure: IS reports each failed rank check, UNSUCCESSFUL, and exit status 1 when ranks do not match.
// REQUIRES: clang
// Shifting every expected rank by one makes all 50 partial checks fail on a
// correct ranking; the full sort check still passes.
// RUN: %clang-omp -DIS_RANK_BIAS=1 %srcroot/benchmarks/npb/is.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: sh -c '%stock %t S; echo status=$?' | FileCheck %s

// CHECK: Failed partial verification: iteration 1, test key 0 (rank 1, expected 2)
// CHECK: Passed verifications = 1 of 51
// CHECK: Verification = UNSUCCESSFUL
// CHECK: status=1
