// A region resting while its source's budget declines an arming asks the source again (`due`: a clock read and the
// budget's test) before its executions; when they are short, at most once in 16 of them. IQ-TREE rested for its whole
// run with the page sampler named: 28 000 forks of 0.5 to 1 ms in the paced 2-node VM, each asking, about 1.4 % of
// the run. A region whose executions are long (its fastest timed one 5 ms) still asks before each; and once the
// source says an arming fits, the region stops resting at once. White box: the source's `due` is the test's
// (linked in place of rt_counters_due), which counts the questions and says no until told otherwise.
// RUN: %clang-omp %s %rt-internals -Wl,--wrap=rt_counters_due -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" OMP_PLACEMENT=critpath %t | FileCheck %s
// CHECK: short executions: 64 rested, 4 questions
// CHECK-NEXT: long executions: 64 rested, 64 questions
// CHECK-NEXT: short, then due: 15 more executions rested, question 2 lets it run
#include <stdio.h>

#include "rt_counters.h"
#include "rt_loop.h"
#include "rt_region.h"
#include "rt_settings.h"
#include "rt_topology.h"

static int questions, answer;

int __wrap_rt_counters_due(const rt_sample_t *s)
{
    (void)s;
    questions++;
    return answer;
}

static void short_region(void)
{
}

static void long_region(void)
{
}

static rt_region_t *resting(const void *code, uint64_t fastest_ns)
{
    rt_region_t *r = rt_region_get(code, 2, NULL, -1);
    if (!r)
        return NULL;
    r->outcome = RT_OUTCOME_SAMPLING;
    r->measuring = 1;
    r->resting = 1;
    r->cp_min = fastest_ns;
    return r;
}

static void rest(const char *what, rt_region_t *r, int n)
{
    int rested = 0;
    questions = 0;
    for (int i = 0; i < n; i++)
        rested += rt_loop_resting(r);
    printf("%s: %d rested, %d questions\n", what, rested, questions);
}

int main(void)
{
    rt_settings_init();
    if (rt_machine_init(NULL, 0) != 0)
        return 1;
    rt_loop_init();
    rt_region_t *s = resting((const void *)short_region, 200000), *l = resting((const void *)long_region, 5000000);
    if (!s || !l)
        return 2;
    rest("short executions", s, 64);
    rest("long executions", l, 64);
    /* Declined once more, then the source would arm: the short region hears it at its next question. */
    questions = 0;
    rt_loop_resting(s);
    answer = 1;
    int n = 0;
    while (rt_loop_resting(s) && n < 100)
        n++;
    printf("short, then due: %d more executions rested, question %d lets it run\n", n, questions);
    return 0;
}
