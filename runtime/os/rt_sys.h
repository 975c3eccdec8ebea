/* rt_sys.h: the raw system calls the runtime makes outside a libc wrapper,
 * each declared once with its contract. Every one is a single system call,
 * async-signal-safe (the pagefault source's resolver calls them inside its
 * SIGSEGV handler), and inline: the callers are hot or in a handler. Only
 * runtime/os/ calls syscall(2) (tools/check_layers.py enforces it). */
#ifndef OMPNUMA_RT_SYS_H
#define OMPNUMA_RT_SYS_H

#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* The calling thread's kernel id. Cannot fail. */
static inline pid_t rt_gettid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

/* The CPU the calling thread runs on and that CPU's node, into whichever of
 * cpu and node is not NULL. 0, or -1 with errno. */
static inline int rt_getcpu(unsigned *cpu, unsigned *node)
{
    return (int)syscall(SYS_getcpu, cpu, node, NULL);
}

/* move_pages(2) on this process: with nodes NULL, each page's node (or a
 * negated errno) into status[i]; else each page moved to nodes[i] (flags:
 * MPOL_MF_MOVE), the outcome into status[i]. 0, the number of pages not
 * moved, or -1 with errno. */
static inline long rt_move_pages(unsigned long n, void **pages, const int *nodes, int *status, int flags)
{
    return syscall(SYS_move_pages, 0, n, pages, nodes, status, flags);
}

/* Signal sig to thread tid of this process (sig 0: whether it exists). 0, or -1 with errno (ESRCH: gone). */
static inline int rt_tgkill(pid_t tid, int sig)
{
    return (int)syscall(SYS_tgkill, getpid(), tid, sig);
}

#endif
