/* emu_sweep.h: helpers of the emulated-NUMA VM tests: a buffer bound to one node, pinning, and line sweeps. */
#ifndef EMU_SWEEP_H
#define EMU_SWEEP_H
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_emu_mark.h"

enum { EMU_LINE = 64 };

/* bytes of anonymous memory on node (MPOL_BIND, small pages so that every
 * page lands there), first-touched; exits when the kernel put a page elsewhere. */
static char *emu_node_buffer(size_t bytes, int node)
{
    char *b = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED || madvise(b, bytes, MADV_NOHUGEPAGE) != 0) {
        perror("mmap");
        exit(1);
    }
    unsigned long mask = 1ul << node;
    if (syscall(SYS_mbind, b, bytes, 2 /* MPOL_BIND */, &mask, 8 * sizeof mask, 0) != 0) {
        perror("mbind");
        exit(1);
    }
    memset(b, 1, bytes);
    long page = sysconf(_SC_PAGESIZE);
    size_t pages = bytes / (size_t)page, wrong = 0;
    void **addr = malloc(pages * sizeof *addr);
    int *status = malloc(pages * sizeof *status);
    for (size_t i = 0; i < pages; i++)
        addr[i] = b + i * (size_t)page;
    if (syscall(SYS_move_pages, 0, pages, addr, NULL, status, 0) != 0) {
        perror("move_pages");
        exit(1);
    }
    for (size_t i = 0; i < pages; i++)
        wrong += status[i] != node;
    free(addr);
    free(status);
    if (wrong) {
        fprintf(stderr, "%zu of %zu pages not on node %d\n", wrong, pages, node);
        exit(1);
    }
    return b;
}

static void emu_pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0) {
        perror("sched_setaffinity");
        exit(1);
    }
}

/* One read per line, `times` times over; returns the lines read. */
static size_t emu_sweep(const char *b, size_t bytes, int times)
{
    const volatile char *v = b;
    unsigned long sum = 0;
    for (int k = 0; k < times; k++)
        for (size_t i = 0; i < bytes; i += EMU_LINE)
            sum += (unsigned long)v[i];
    if (sum == 1)
        puts("");
    return (size_t)times * (bytes / EMU_LINE);
}

static double emu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
#endif
