// A page the program protects itself, after the page sampler gave it back within the same sampled execution, reaches
// the program's SIGSEGV handler after one retry (a page being given back at that moment is retried until it is
// done): the dispatcher resolves one fault per program fault, where it used to retry each such page 10000 times
// (a program that mprotects inside a sampled region took 5-50 times longer). White box: the source's operations
// called directly on a synthetic 2-node topology (first touch emulated: every page of the buffer is protected).
// RUN: %clang-omp %s %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" OMP_PLACEMENT=source=pagefault,budget=off,track=anon %t | FileCheck %s
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_fault.h"
#include "rt_settings.h"
#include "rt_sources.h"
#include "rt_topology.h"

#define BYTES (2u << 20)
#define OWN_PAGES 16

static char *buf;
static volatile int own_faults;

static void on_own(int sig, siginfo_t *si, void *uc)
{
    char *p = si->si_addr;
    if (p < buf || p >= buf + BYTES)
        _exit(98);
    mprotect((void *)((uintptr_t)p & ~(uintptr_t)4095), 4096, PROT_READ | PROT_WRITE);
    own_faults++;
}

int main(void)
{
    rt_settings_init();
    rt_machine_init(NULL, 0);
    buf = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(buf, 1, BYTES);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_own;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);

    const rt_source_ops_t *src = &rt_source_pagefault;
    uint64_t tnt[2] = {0}, samples[1] = {0}, added = 0;
    static int code, team;
    rt_sample_t s = {.codeptr = &code, .parent_id = -1, .id = 0, .team_size = 1, .nnodes = rt_mach->topo.nnodes,
                     .tnt = tnt, .samples = samples, .record = 1};
    src->start();
    src->region_begin(&s, &team);
    src->thread_begin(&s, 0, &team);
    volatile long sum = 0;
    for (size_t i = 0; i < BYTES; i += 4096)
        sum += buf[i];
    rt_fault_stats_t before, after;
    rt_fault_get_stats(&before);
    /* The program's own protection, inside the same execution. */
    mprotect(buf, OWN_PAGES * 4096, PROT_READ);
    for (size_t i = 0; i < OWN_PAGES * 4096; i += 4096)
        buf[i] = 2;
    rt_fault_get_stats(&after);
    src->region_end(&s, &added);
    printf("sampled references %llu\n", (unsigned long long)added);
    printf("program faults %d, resolved meanwhile %llu, forwarded %llu\n", own_faults,
           (unsigned long long)(after.resolved - before.resolved),
           (unsigned long long)(after.forwarded - before.forwarded));
    // CHECK: sampled references 512
    // CHECK-NEXT: program faults 16, resolved meanwhile 16, forwarded 16
    return 0;
}
