/* rt_task.c: per-thread kernel facts by tid: CPU time (thread CPU clock or schedstat), bound or last CPU, stat fields, thread count; the calling thread's stack. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_procfs.h"
#include "rt_sys.h"
#include "rt_task.h"

/* The kernel's encoding of a thread's CPU-time clock (include/linux/posix-timers.h):
 * the complemented tid shifted by 3, CPUCLOCK_PERTHREAD_MASK (4) and
 * CPUCLOCK_SCHED (2). glibc's pthread_getcpuclockid makes the same word from
 * the thread's tid; the runtime knows threads by tid only. */
static clockid_t thread_clock(pid_t tid)
{
    return (clockid_t)((~(unsigned)tid << 3) | 4u | 2u);
}

/* A small /proc/self/task/TID/<name> file into buf; its length or -1. */
static ssize_t read_task_file(pid_t tid, const char *name, char *buf, size_t len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/%s", (int)tid, name);
    return rt_procfs_read(path, buf, len);
}

int rt_task_cpu_ns(pid_t tid, uint64_t *ns)
{
    struct timespec ts;
    if (tid <= 0) {
        errno = EINVAL;
        return -1;
    }
    if (clock_gettime(thread_clock(tid), &ts) == 0) {
        *ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        return 0;
    }
    char buf[128];
    if (read_task_file(tid, "schedstat", buf, sizeof buf) < 0) {
        if (errno == ENOENT)
            errno = ESRCH;
        return -1;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    if (end == buf || errno) {
        errno = EIO;
        return -1;
    }
    *ns = v;
    return 0;
}

int rt_task_stat_field(pid_t tid, int field, uint64_t *out)
{
    char buf[1024];
    if (tid <= 0 || field < 3) {
        errno = EINVAL;
        return -1;
    }
    if (read_task_file(tid, "stat", buf, sizeof buf) < 0) {
        if (errno == ENOENT)
            errno = ESRCH;
        return -1;
    }
    /* The command name (field 2) may hold spaces and parentheses: fields
     * are counted from the last ')'. */
    char *p = strrchr(buf, ')');
    for (int at = 2; p && at < field; at++)
        p = strchr(p + 1, ' ');
    if (!p || p[1] < '0' || p[1] > '9') {
        errno = EIO;
        return -1;
    }
    *out = strtoull(p + 1, NULL, 10);
    return 0;
}

int rt_task_cpu(pid_t tid)
{
    cpu_set_t mask;
    CPU_ZERO(&mask);
    if (tid > 0 && sched_getaffinity(tid, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) == 1)
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &mask))
                return c;
    uint64_t cpu;
    if (rt_task_stat_field(tid, 39, &cpu) != 0) /* "processor" */
        return -1;
    return (int)cpu;
}

int rt_task_own_stack(uintptr_t *lo, uintptr_t *hi)
{
    pthread_attr_t attr;
    void *stack;
    size_t size;
    int rc = pthread_getattr_np(pthread_self(), &attr);
    if (rc == 0) {
        rc = pthread_attr_getstack(&attr, &stack, &size);
        pthread_attr_destroy(&attr);
    }
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    *lo = (uintptr_t)stack;
    *hi = (uintptr_t)stack + size;
    return 0;
}

int rt_task_initial(void)
{
    return rt_gettid() == getpid();
}

static int count_one(pid_t tid, void *ctx)
{
    (void)tid;
    (void)ctx;
    return 0;
}

int rt_task_count(void)
{
    return rt_procfs_each_task(count_one, NULL);
}
