// ondeloc-evidence.c: a new mapping replaces the current one only when its gain in on-node share, weighed by its window's volume against the one the current mapping was decided on, reaches min_gain; a thin window (under half the reference) halves the reference instead of replacing it, so traffic that stays thin wins only once the reference has come down to it.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <math.h>
#include "ondeloc_test.h"

static void worth(const char *what, double gain, double rate, double decided)
{
    printf("%s %d\n", what, pl_ondeloc_worth(gain, rate, decided, 0.1));
}

int main(void)
{
    // Nothing decided yet (the start binding): the share alone.
    worth("first, gain 0.5", 0.5, 10, 0);
    // CHECK: first, gain 0.5 1
    worth("first, gain 0.05", 0.05, 10, 0);
    // CHECK-NEXT: first, gain 0.05 0
    // A phase change at the same traffic: the whole pairing changes.
    worth("same volume, gain 1", 1.0, 5000, 5000);
    // CHECK-NEXT: same volume, gain 1 1
    // All-to-all's noise in a heavier window: the bar stays min_gain.
    worth("ten times heavier, gain 0.05", 0.05, 50000, 5000);
    // CHECK-NEXT: ten times heavier, gain 0.05 0
    // A quarter of the traffic, the pairing reversed: a quarter of 1 beats 0.1.
    worth("a quarter, gain 1", 1.0, 1250, 5000);
    // CHECK-NEXT: a quarter, gain 1 1
    // A phase's last few messages, or a collective's bytes between two phases: a thousandth of the traffic.
    worth("a thousandth, gain 1", 1.0, 5, 5000);
    // CHECK-NEXT: a thousandth, gain 1 0
    worth("a twentieth, gain 0.9", 0.9, 250, 5000);
    // CHECK-NEXT: a twentieth, gain 0.9 0
    worth("bad rate", 1.0, -1, 5000);
    // CHECK-NEXT: bad rate -22
    worth("bad gain", NAN, 1, 5000);
    // CHECK-NEXT: bad gain -22
    printf("bad min_gain %d\n", pl_ondeloc_worth(1, 1, 1, 1.5));
    // CHECK-NEXT: bad min_gain -22

    // Thin: under half the reference, never before a first one.
    printf("thin %d %d %d %d\n", pl_ondeloc_thin(2499, 5000), pl_ondeloc_thin(2500, 5000), pl_ondeloc_thin(1, 0),
           pl_ondeloc_thin(-1, 5000));
    // CHECK-NEXT: thin 1 0 0 -22

    // The reference: the window's when the mapping changed on it or it is not thin; halved after a thin one.
    double ref = 5000;
    int decisions = 0;
    while (pl_ondeloc_worth(0.9, 250, ref, 0.1) != 1 && decisions < 20) {
        ref = pl_ondeloc_reference(250, ref, 0);
        decisions++;
    }
    printf("thin traffic that stays: replaces after %d held decisions, reference %g\n", decisions, ref);
    // CHECK-NEXT: thin traffic that stays: replaces after 2 held decisions, reference 1250
    // A phase's last messages kept the mapping (nothing better): the reference halves, it does not drop to them.
    printf("kept on a thin window: %g\n", pl_ondeloc_reference(4, 262144, 0));
    // CHECK-NEXT: kept on a thin window: 131072
    printf("kept on a full window: %g\n", pl_ondeloc_reference(4000, 5000, 0));
    // CHECK-NEXT: kept on a full window: 4000
    printf("heavier: %g\n", pl_ondeloc_reference(9000, 5000, 0));
    // CHECK-NEXT: heavier: 9000
    printf("changed on a thin window: %g\n", pl_ondeloc_reference(10, 5000, 1));
    // CHECK-NEXT: changed on a thin window: 10
    printf("halved no lower than the window: %g\n", pl_ondeloc_reference(2400, 5000, 0));
    // CHECK-NEXT: halved no lower than the window: 2500
    printf("bad: %d\n", isnan(pl_ondeloc_reference(-1, 5000, 0)));
    // CHECK-NEXT: bad: 1
    return 0;
}
