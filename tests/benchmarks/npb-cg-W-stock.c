// npb-cg-W-stock: the CMake-built npb-cg verifies class W, with the assembled matrix size and the first-iteration zeta.
// RUN: %stock %bindir/npb-cg W | FileCheck %s

// Non-zeros and iteration-1 zeta: npb-facts.md, CG (computed independently).
// CHECK: Number of nonzeros = 508402
// CHECK: {{^ +}}1 {{.*}} 1.19997003727{{[0-9]*}}e+01
// CHECK: Zeta is     1.03625950871{{[0-9]*}}e+01
// CHECK: Class = W
// CHECK-NEXT: Size = 7000
// CHECK-NEXT: Iterations = 15
// CHECK: Verification = SUCCESSFUL
