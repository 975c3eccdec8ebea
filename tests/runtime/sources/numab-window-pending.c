// The numa_balancing source samples by time: its region_end answers RT_SOURCE_PENDING (the loop keeps sampling)
// while the window is younger than `window` ms, and after it while no team thread's hinting faults showed (here, one
// node with balancing off, none ever do); an execution that is not recorded (the loop left the phase) closes the
// window, and the next sampled execution opens a new one. White box: the source's operations called directly.
// RUN: %clang-omp %s %rt-internals -o %t && env OMP_PLACEMENT=window=30 %t | FileCheck %s
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_settings.h"
#include "rt_sources.h"
#include "rt_topology.h"

static const char *answer(int rc)
{
    return rc == RT_SOURCE_PENDING ? "pending" : rc == 0 ? "done" : "other";
}

int main(void)
{
    rt_settings_init();
    rt_machine_init(NULL, 0);
    uint64_t tnt[8] = {0}, samples[2] = {0}, added;
    static int code;
    rt_sample_t s = {.codeptr = &code, .parent_id = -1, .id = 0, .team_size = 1, .nnodes = rt_mach->topo.nnodes,
                     .tnt = tnt, .samples = samples, .record = 1};
    const rt_source_ops_t *src = &rt_source_numab;
    printf("window %d ms\n", rt_conf->window_ms);
    // CHECK: window 30 ms
    src->start();
    src->region_begin(&s, NULL);
    src->thread_begin(&s, 0, NULL);
    printf("first execution: %s\n", answer(src->region_end(&s, &added)));
    printf("at once: %s\n", answer(src->region_end(&s, &added)));
    usleep(60 * 1000);
    added = 0;
    int rc = src->region_end(&s, &added);
    printf("after the window, no faults: %s, added %llu\n", answer(rc), (unsigned long long)added);
    // CHECK-NEXT: first execution: pending
    // CHECK-NEXT: at once: pending
    // CHECK-NEXT: after the window, no faults: pending, added 0
    s.record = 0;
    printf("not recorded: %s\n", answer(src->region_end(&s, &added)));
    printf("closed, again: %s\n", answer(src->region_end(&s, &added)));
    // CHECK-NEXT: not recorded: done
    // CHECK-NEXT: closed, again: done
    s.record = 1;
    src->region_begin(&s, NULL);
    src->thread_begin(&s, 0, NULL);
    printf("a new window: %s\n", answer(src->region_end(&s, &added)));
    // CHECK-NEXT: a new window: pending
    return 0;
}
