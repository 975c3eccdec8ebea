// imar2-keeps-only-better.c: with the locality gate on (remote_min > 0, the default), a trial is kept only if the
// total rose after it; one that measured the same, a little lower (within the paper's ratio), or could not be
// compared is rolled back. The case: on a stale table the monitor moved a thread and kept it at a total of
// 1.4227 against 1.4238. The paper's IMAR2 (remote_min 0) still keeps a trial down to ratio x the previous total.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include "imar_test.h"

/* 2 nodes x 1 core, 2 threads each running away from its data: both eligible. */
static const int core_node[2] = {0, 1};
static const uint64_t refs[4] = {0, 1000, 1000, 0};

static const char *trial(double remote_min, double before, double after, int comparable)
{
    static pl_imar_t im;
    static int core[2];
    static double record[4];
    static pl_imar_dest_t d[4];
    pl_imar_params_t p;
    pl_imar_params_default(&p);
    p.remote_min = remote_min;
    core[0] = 0;
    core[1] = 1;
    if (pl_imar_init(&im, &p, 2, 2, core_node, 2, core, NULL, record, 7) != 0)
        return "init failed";
    im.refs = refs;
    pl_imar_step_t st;
    double perf1[2] = {before / 2, before / 2};
    if (pl_imar2_step(&im, perf1, d, 4, &st) != 0 || st.action != PL_IMAR_MIGRATE)
        return "no trial drawn";
    pl_imar_apply(&im, &st.move);
    /* Not comparable: one thread not measured in the interval after. */
    double perf2[2] = {after / 2, comparable ? after / 2 : -1.0};
    if (pl_imar2_step(&im, perf2, d, 4, &st) != 0)
        return "step failed";
    return st.action == PL_IMAR_ROLLBACK ? "rolled back" : "kept";
}

int main(void)
{
    // CHECK: gate on, total rose: kept
    printf("gate on, total rose: %s\n", trial(0.1, 1.4238, 1.5, 1));
    // CHECK-NEXT: gate on, total the same: rolled back
    printf("gate on, total the same: %s\n", trial(0.1, 1.4238, 1.4238, 1));
    // CHECK-NEXT: gate on, 0.1 % lower: rolled back
    printf("gate on, 0.1 %% lower: %s\n", trial(0.1, 1.4238, 1.4227, 1));
    // CHECK-NEXT: gate on, not comparable: rolled back
    printf("gate on, not comparable: %s\n", trial(0.1, 1.4238, 1.6, 0));
    // CHECK-NEXT: paper, 0.1 % lower: kept
    printf("paper, 0.1 %% lower: %s\n", trial(0, 1.4238, 1.4227, 1));
    // CHECK-NEXT: paper, 10 % lower: rolled back
    printf("paper, 10 %% lower: %s\n", trial(0, 1.4238, 1.28, 1));
    return 0;
}
