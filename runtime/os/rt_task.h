/* rt_task.h: what the kernel says about one thread of this process (by tid): its CPU time, the CPU it runs on, its stat fields; and the calling thread's stack. */
#ifndef OMPNUMA_RT_TASK_H
#define OMPNUMA_RT_TASK_H

#include <stdint.h>
#include <sys/types.h>

/* Nanoseconds of CPU time thread tid has used, into *ns: the thread's
 * CPU-time clock (the clock pthread_getcpuclockid names, built from the tid
 * so that any thread can read another's), else the first field of
 * /proc/self/task/TID/schedstat. 0, or -1 with errno (ESRCH: no such thread). */
int rt_task_cpu_ns(pid_t tid, uint64_t *ns);

/* The CPU thread tid is bound to when its mask holds one CPU, else the one
 * it last ran on (/proc/self/task/TID/stat). The CPU, or -1 with errno. */
int rt_task_cpu(pid_t tid);

/* Field `field` of thread tid's /proc/self/task/TID/stat, numbered as in
 * proc(5) (3 and on: after the command name), an unsigned decimal, into
 * *out. 0, or -1 with errno (ESRCH: no such thread; EIO: no such field). */
int rt_task_stat_field(pid_t tid, int field, uint64_t *out);

/* The calling thread's stack as glibc reports it, [*lo, *hi): for a
 * thread it created, up to the end of its stack block, or, when the creator
 * chose the stack size (libomp's threads), up to its static TLS; for the
 * initial thread, its stack mapping. 0, or -1 with errno. */
int rt_task_own_stack(uintptr_t *lo, uintptr_t *hi);

/* Whether the calling thread is the process's initial thread (main's):
 * its stack is the [stack] mapping, and its TLS lies apart from it. */
int rt_task_initial(void);

/* Threads of this process (entries of /proc/self/task), or -1 with errno. */
int rt_task_count(void);

#endif
