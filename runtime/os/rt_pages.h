/* rt_pages.h: a process's own pages: which node holds them, moving them, their memory policy (move_pages, mbind, get_mempolicy), and its mappings (/proc/self/maps). */
#ifndef OMPNUMA_RT_PAGES_H
#define OMPNUMA_RT_PAGES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Node numbers here are the kernel's. Every call follows rt_core.h's
 * convention (0, or -1 with errno); none allocates, none is
 * async-signal-safe unless said.
 */

/* status[i] = the node of the page holding pages[i], or a negative errno
 * (-ENOENT: not present, -EFAULT: not mapped or the zero page). n > 0. */
int rt_pages_where(void *const *pages, size_t n, int *status);

/* Move each page pages[i] to nodes[i] (MPOL_MF_MOVE: only pages mapped by
 * this process alone); status[i] = its node afterwards or a negative errno.
 * 0, or -1 with errno when the call itself failed (ENOENT from kernels that
 * say so when nothing needed moving counts as success). */
int rt_pages_move(void *const *pages, const int *nodes, size_t n, int *status);

/* The memory policy of [lo, hi) (page-aligned): interleave over the kernel
 * nodes in nodes[0..n-1] for the pages faulted from now on (no page moves:
 * MPOL_MF_MOVE would leave pages already on any node of the mask). An
 * explicit policy also keeps Linux's automatic NUMA balancing off the range
 * (it scans only memory under the default policy). */
int rt_pages_interleave(uintptr_t lo, uintptr_t hi, const int *nodes, int n);

/* The default policy again on [lo, hi) (page-aligned). */
int rt_pages_default_policy(uintptr_t lo, uintptr_t hi);

/* 1 when the page holding addr has the default policy (none of its own:
 * the program set none), 0 when it has another, -1 with errno. */
int rt_pages_has_default_policy(uintptr_t addr);

/* The calling thread's own stack top, static TLS and thread control block
 * (from its stack pointer to the end of its TCB, which ends its stack
 * block, and never past it; the 256 pages below that end when that is
 * more): the pages of it not on node `node` moved
 * there. glibc writes a new thread's TCB and TLS from the thread that
 * creates it, so they start on that thread's node; with transparent huge
 * pages the whole 2 MiB around them (the thread's stack frames too) does
 * when its stack mapping is 2 MiB aligned. *moved: pages moved, *seen:
 * pages present. 0, or -1 with errno. Not for the initial thread, whose
 * stack and TLS lie apart. */
int rt_pages_own_stack_to(int node, size_t *moved, size_t *seen);

/* One line of /proc/self/maps. */
typedef struct rt_mapping {
    uintptr_t   lo, hi;
    char        perms[5];    /* "rw-p" */
    uint64_t    offset;
    unsigned long inode;
    const char *path;        /* "" anonymous, "[heap]", "[stack]", a file: valid during the callback only */
} rt_mapping_t;

/* Call fn(m, ctx) for each mapping, lowest first, until it returns
 * nonzero. The mappings visited, or -1 with errno. Reads the file with
 * read(2) into the stack (8 KiB; a line holds at most a path of PATH_MAX):
 * no stdio, no allocation, so a hook may call it (the page sampler's
 * arming: a fifth fewer guest instructions than fgets in the paced VM). */
int rt_pages_each_mapping(int (*fn)(const rt_mapping_t *m, void *ctx), void *ctx);

/* The same over a file in that format open on fd, from where it is (/proc
 * hands out whole lines per read; a copy in a regular file cuts them
 * anywhere). */
int rt_pages_each_mapping_in(int fd, int (*fn)(const rt_mapping_t *m, void *ctx), void *ctx);

#endif
