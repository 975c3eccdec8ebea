/* vmpages.h: helpers for the memory manager's VM tests: where each page is, asked of the kernel directly (not through ompnuma). */
#ifndef VMPAGES_H
#define VMPAGES_H
#include <numaif.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* status[i] = node of page i of [p, p + n pages), or a negative errno. */
static inline void vm_nodes(const void *p, size_t n, int *status)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    void **pages = malloc(sizeof *pages * n);
    for (size_t i = 0; i < n; i++)
        pages[i] = (char *)p + i * ps;
    if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0) != 0)
        for (size_t i = 0; i < n; i++)
            status[i] = -999;
    free(pages);
}

/* Number of pages of [p, p + n pages) on node. */
static inline size_t vm_count_on(const void *p, size_t n, int node)
{
    int *st = malloc(sizeof *st * n);
    vm_nodes(p, n, st);
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += st[i] == node;
    free(st);
    return c;
}

/* kB of transparent huge pages in the mappings overlapping [p, p + len). */
static inline long vm_thp_kb(const void *p, size_t len)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    long kb = 0, v;
    int in = 0;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            in = lo < (uintptr_t)p + len && hi > (uintptr_t)p;
        else if (in && sscanf(line, "AnonHugePages: %ld kB", &v) == 1)
            kb += v;
    }
    if (f)
        fclose(f);
    return kb;
}
#endif
