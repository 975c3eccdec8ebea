// npb-is-W-A-stock: the CMake-built npb-is verifies classes W and A, with the test-key values of the last iteration.
// RUN: %stock %bindir/npb-is W | FileCheck %s --check-prefix=W
// RUN: %stock %bindir/npb-is A | FileCheck %s --check-prefix=A

// Test keys: npb-facts.md, IS debug checkpoints (computed independently).
// W: Test keys in the last iteration: 6786 11782 54665 56197 60014
// W: Passed verifications = 51 of 51
// W: Class = W
// W-NEXT: Size = 1048576
// W: Verification = SUCCESSFUL
// A: Test keys in the last iteration: 17237 62059 101168 428502 500879
// A: Passed verifications = 51 of 51
// A: Class = A
// A-NEXT: Size = 8388608
// A: Verification = SUCCESSFUL
