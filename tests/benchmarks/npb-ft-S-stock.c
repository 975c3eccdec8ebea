// npb-ft-S-stock: FT class S verifies every iteration's checksum on the stock runtime, built by clang and by gcc.
// REQUIRES: clang, gcc
// RUN: %clang-omp %srcroot/benchmarks/npb/ft.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t.clang
// RUN: %gcc-omp %srcroot/benchmarks/npb/ft.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t.gcc
// RUN: %stock %t.clang S | FileCheck %s
// RUN: %stock %t.gcc S | FileCheck %s

// Class S checksums (npb-verify.json FT.S), to the 11 significant digits the
// 1e-12 relative tolerance fixes; the program compares all of them itself.
// CHECK: Size:   64x  64x  64  (class S)
// CHECK: T = 1 Checksum = 5.5460870049{{[0-9]+}}e+02 4.8453633319{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 2 Checksum = 5.5463854091{{[0-9]+}}e+02 4.8653042695{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 3 Checksum = 5.5461484061{{[0-9]+}}e+02 4.8839107223{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 4 Checksum = 5.5454236074{{[0-9]+}}e+02 4.9012731690{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 5 Checksum = 5.5442550396{{[0-9]+}}e+02 4.9174758579{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 6 Checksum = 5.5426834119{{[0-9]+}}e+02 4.9325972449{{[0-9]+}}e+02 ok
// CHECK: FT Benchmark Completed.
// CHECK-NEXT: Class = S
// CHECK-NEXT: Size = 64x64x64
// CHECK-NEXT: Iterations = 6
// CHECK: Total threads = 2
// CHECK: Verification = SUCCESSFUL
