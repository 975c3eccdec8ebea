// The numa_balancing source samples by time: its region_end answers RT_SOURCE_PENDING (the loop keeps sampling)
// while the window is younger than `window` ms, and after it while no team thread's hinting faults showed (here, one
// node with balancing off, none ever do); an execution that is not recorded (the loop left the phase) closes the
// window, and the next sampled execution opens a new one. Between two readings it waits (RT_SOURCE_WAITS): the
// executions need nothing from the team until `due` says a reading is due (it asks for it then), once the window
// is `window` ms old. White box: the source's operations called directly.
// RUN: %clang-omp %s %rt-internals -o %t && env OMP_PLACEMENT=window=30 %t | FileCheck %s
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_settings.h"
#include "rt_sources.h"
#include "rt_topology.h"

static const char *answer(int rc)
{
    return rc == RT_SOURCE_PENDING                     ? "pending"
           : rc == (RT_SOURCE_PENDING | RT_SOURCE_WAITS) ? "pending, waits"
           : rc == 0                                     ? "done"
                                                         : "other";
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
    printf("due before the window: %d\n", src->due(&s));
    usleep(60 * 1000);
    printf("due after it: %d\n", src->due(&s));
    printf("until answered: %d\n", src->due(&s));
    src->thread_begin(&s, 0, NULL);
    added = 0;
    int rc = src->region_end(&s, &added);
    printf("its reading, no faults: %s, added %llu\n", answer(rc), (unsigned long long)added);
    printf("due after the reading: %d\n", src->due(&s));
    usleep(60 * 1000);
    rc = src->region_end(&s, &added);
    printf("an execution ends past the window: %s\n", answer(rc));
    // CHECK-NEXT: first execution: pending, waits
    // CHECK-NEXT: at once: pending, waits
    // CHECK-NEXT: due before the window: 0
    // CHECK-NEXT: due after it: 1
    // CHECK-NEXT: until answered: 1
    // CHECK-NEXT: its reading, no faults: pending, waits, added 0
    // CHECK-NEXT: due after the reading: 0
    // CHECK-NEXT: an execution ends past the window: pending
    s.record = 0;
    printf("not recorded: %s\n", answer(src->region_end(&s, &added)));
    printf("closed, again: %s\n", answer(src->region_end(&s, &added)));
    // CHECK-NEXT: not recorded: done
    // CHECK-NEXT: closed, again: done
    s.record = 1;
    src->region_begin(&s, NULL);
    src->thread_begin(&s, 0, NULL);
    printf("a new window: %s\n", answer(src->region_end(&s, &added)));
    // CHECK-NEXT: a new window: pending, waits
    return 0;
}
