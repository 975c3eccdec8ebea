// The page sampler logs the address, thread and node of each sampled reference into the sample's address log (what data placement plans from): one entry per reference counted in the table, each inside the memory touched, with the thread's index and the page's node; the log is bounded (what does not fit is counted as dropped), carries the sampler's spacing (bytes between two watched spans), and an execution that is not recorded (a position of its region's cycle already sampled) is not armed: it protects nothing and logs nothing. The watched pages come in spans of 4 adjacent ones (one mprotect a span), each page its own reference. White box: the source's operations called directly, on a synthetic 2-node topology of this machine's CPUs (first touch emulated: a page belongs to the node of the CPU that touches it first while sampled).
// RUN: %clang-omp %s %rt-internals -o %t
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PLACEMENT=critpath,source=pagefault,budget=off,track=anon %t | FileCheck %s
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_settings.h"
#include "rt_sources.h"
#include "rt_topology.h"

static volatile char *buf;
static size_t len = 8u << 20, ps;

static void one_execution(rt_sample_t *s, const char *what)
{
    static int team;
    const rt_source_ops_t *src = &rt_source_pagefault;
    uint64_t added = 0;
    src->region_begin(s, &team);
    src->thread_begin(s, 0, &team);
    for (size_t i = 0; i < len; i += ps)
        buf[i]++;
    int armed = (src->region_end(s, &added) & RT_SOURCE_ARMED) != 0;
    rt_addr_log_t *log = s->addrs;
    int inside = 1, thread0 = 1, node1 = 1;
    for (uint32_t k = 0; k < log->n; k++) {
        inside &= log->entry[k].addr >= (uintptr_t)buf && log->entry[k].addr < (uintptr_t)buf + len;
        thread0 &= log->entry[k].thread == 0;
        node1 &= log->entry[k].node == 1;
    }
    /* Spans: runs of adjacent logged pages (logged in the order touched: ascending). */
    int spans = 0;
    for (uint32_t k = 0; k < log->n; k++)
        spans += k == 0 || log->entry[k].addr / ps != log->entry[k - 1].addr / ps + 1;
    printf("%s: armed %d, added %llu, logged %u, all counted %d, inside %d, thread 0 %d, node 1 %d, spacing %llu, "
           "spans %d\n", what, armed, (unsigned long long)added, log->n, log->n + log->dropped == added, inside, thread0, node1,
           (unsigned long long)log->spacing, spans);
}

int main(void)
{
    rt_settings_init();
    rt_machine_init(NULL, 0);
    ps = (size_t)sysconf(_SC_PAGESIZE);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(1, &one);
    sched_setaffinity(0, sizeof one, &one); /* node 1 of the synthetic topology */
    buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    for (size_t i = 0; i < len; i += ps)
        buf[i] = 1;
    rt_source_pagefault.start();

    uint64_t tnt[2] = {0}, samples[1] = {0};
    static pl_data_sample_t entries[4096];
    rt_addr_log_t log = {.entry = entries, .cap = 4096};
    static int code;
    rt_sample_t s = {.codeptr = &code, .parent_id = -1, .team_size = 1, .nnodes = 2, .tnt = tnt,
                     .samples = samples, .record = 1, .addrs = &log};
    // Every page is protected while its node is unknown (2048); 32 watched per thread: a span of 4 in 256 pages.
    one_execution(&s, "first");
    // CHECK: first: armed 1, added 2048, logged 2048, all counted 1, inside 1, thread 0 1, node 1 1, spacing 1048576, spans 1
    // Now every page's node is known: only the watched ones are protected, 8 spans of 4.
    log = (rt_addr_log_t){.entry = entries, .cap = 4096};
    one_execution(&s, "watched");
    // CHECK-NEXT: watched: armed 1, added 32, logged 32, all counted 1, inside 1, thread 0 1, node 1 1, spacing 1048576, spans 8
    log = (rt_addr_log_t){.entry = entries, .cap = 10};
    one_execution(&s, "bounded");
    // CHECK-NEXT: bounded: armed 1, added 32, logged 10, all counted 1, inside 1, thread 0 1, node 1 1, spacing 1048576, spans 3
    log = (rt_addr_log_t){.entry = entries, .cap = 4096};
    s.record = 0;
    one_execution(&s, "not recorded");
    // CHECK-NEXT: not recorded: armed 0, added 0, logged 0, all counted 1, inside 1, thread 0 1, node 1 1, spacing 0, spans 0
    return 0;
}
