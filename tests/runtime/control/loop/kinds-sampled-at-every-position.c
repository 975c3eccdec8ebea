// A region whose executions are of kinds that differ (FFTW's one region: a forward and a backward transform,
// two loops each, only the first reading the serially filled input) is sampled at every position of its
// cycle, and takes its whole sample. The page sampler's budget armed every other execution, so FFTW's samples
// never saw the loop that reads the input, and the region stopped "at home" after two of them. White box: the
// page sampler is the source (intrusive), whose arming the test plays: the budget declines the execution after
// each armed one. A steady region at home still stops after its first sampled execution.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,source=pagefault,sample=4 OMP_PLACEMENT_VERBOSE=1 %t 2>&1 | FileCheck %s
#include <string.h>

#include "rt_counters.h"
#include "two_nodes.h"

/* n executions of r of critical paths cp[i % ncp] (ns). The budget declines the first (the page sampler's
 * first try) and each one after an armed one; an armed execution adds 4 references on its own node to each
 * thread's, and its faults take 1 % of it. Prints the positions armed. */
static void run(const char *what, rt_region_t *r, const uint64_t *cp, int ncp, int n)
{
    int armed_before = 1;
    char at[64] = "";
    for (int i = 0; i < n && r->outcome == RT_OUTCOME_SAMPLING; i++) {
        rt_sample_t s;
        rt_loop_sample(r, &s);
        uint64_t t = cp[i % ncp];
        int armed = s.record && !armed_before;
        if (armed) {
            rt_loop_source_armed(r);
            r->tnt[0] += 4;
            r->tnt[3] += 4;
            *s.slowed_ns = t / 100;
            t += t / 100;
            snprintf(at + strlen(at), sizeof at - strlen(at), " %d", i % 4);
        } else if (s.record) {
            rt_loop_source_declined(r);
        }
        armed_before = armed;
        r->executions++; // execution_end's count
        rt_loop_region_end(r, t);
    }
    printf("%s: armed at%s\n%s: %s after %llu executions\n", what, at, what, rt_outcome_name(r->outcome),
           (unsigned long long)r->executions);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0); // its lines among the log's, in order
    if (loop_on_two_nodes())
        return 1;
    rt_counters_init();
    if (!rt_counters_intrusive()) {
        printf("the page sampler is not the source\n");
        return 1;
    }
    static int fftw, steady;
    static const uint64_t none[4];
    // FFTW's four loops (ms, paced 2-node VM): the first execution, which first-touches, is left out; the
    // second and third are 2.1 x apart, the third and fourth 2.2 x: the region varies.
    // CHECK: region 0: its executions vary
    // The budget's stride would take positions 1 and 3 only, and two sampled executions would be a home (8
    // references each, all local). Once the region varies, an execution at a taken position runs unsampled,
    // and the sample takes 2 and 0 too: 4 executions sampled, then 8 unsampled that show the cycle.
    // CHECK: region 0: its executions repeat in a cycle of 4
    // CHECK: region 0: every thread runs on the node of most of its references; nothing to move
    // CHECK: fftw: armed at 1 3 2 0{{$}}
    // CHECK-NEXT: fftw: unchanged after 17 executions
    static const uint64_t kinds[] = {2290000, 3874000, 1863000, 4150000};
    run("fftw", sampled_region(&fftw, none), kinds, 4, 40);
    // Alike executions: home after two sampled ones, as before.
    // CHECK-NOT: region 1: its executions vary
    // CHECK: region 1: every thread runs on the node of most of its references after 2 sampled executions
    // CHECK: steady: armed at 1 3{{$}}
    // CHECK-NEXT: steady: unchanged after 4 executions
    static const uint64_t alike[] = {1000000, 1010000, 990000, 1005000};
    run("steady", sampled_region(&steady, none), alike, 4, 40);
    return 0;
}
