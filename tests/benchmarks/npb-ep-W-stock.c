// npb-ep-W-stock: the installed-layout npb-ep program (CMake build, -O3) verifies class W with the published per-annulus counts.
// RUN: %stock %bindir/npb-ep W | FileCheck %s

// npb-verify.json EP.W: gc and counts_q0_q9.
// CHECK: No. Gaussian pairs = 26354769
// CHECK:   0        12281576
// CHECK-NEXT:   1        11729692
// CHECK-NEXT:   2         2202726
// CHECK-NEXT:   3          137368
// CHECK-NEXT:   4            3371
// CHECK-NEXT:   5              36
// CHECK-NEXT:   6               0
// CHECK: Class = W
// CHECK-NEXT: Size = 67108864
// CHECK: Verification = SUCCESSFUL
