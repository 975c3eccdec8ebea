// npb-ft-W-stock: FT class W, the one grid with a short z dimension (128x128x32), verifies every iteration's checksum.
// REQUIRES: clang
// RUN: %clang-omp %srcroot/benchmarks/npb/ft.c %srcroot/benchmarks/npb/npb_common.c -I%srcroot/runtime/os -lm -o %t
// RUN: %stock %t W | FileCheck %s

// Class W checksums (npb-verify.json FT.W) to 11 significant digits.
// CHECK: Size:  128x 128x  32  (class W)
// CHECK: T = 1 Checksum = 5.6736121789{{[0-9]+}}e+02 5.2932468491{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 2 Checksum = 5.6314368852{{[0-9]+}}e+02 5.2821499866{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 3 Checksum = 5.5940240899{{[0-9]+}}e+02 5.2709965580{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 4 Checksum = 5.5606980470{{[0-9]+}}e+02 5.2600279049{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 5 Checksum = 5.5308989912{{[0-9]+}}e+02 5.2494008456{{[0-9]+}}e+02 ok
// CHECK-NEXT: T = 6 Checksum = 5.5041597345{{[0-9]+}}e+02 5.2392122470{{[0-9]+}}e+02 ok
// CHECK: Class = W
// CHECK-NEXT: Size = 128x128x32
// CHECK: Verification = SUCCESSFUL
