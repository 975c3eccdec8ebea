/* sched-reads.c: linked into a test program (with -rdynamic), it stands in front of libc's open() and counts the
 * kernel's per-thread scheduler files the process opens: a thread's own (/proc/thread-self/sched, or its own TID's)
 * and another thread's (/proc/self/task/TID/sched of a TID not the opener's); printed at exit. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int own, other;

static void count(const char *path)
{
    const char *task = strstr(path, "/task/");
    size_t n = strlen(path);
    if (n < 6 || strcmp(path + n - 6, "/sched"))
        return;
    if (strstr(path, "thread-self") || (task && atoi(task + 6) == (int)syscall(SYS_gettid)))
        __atomic_add_fetch(&own, 1, __ATOMIC_RELAXED);
    else if (task)
        __atomic_add_fetch(&other, 1, __ATOMIC_RELAXED);
}

static int forward(const char *name, const char *path, int flags, va_list ap)
{
    int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
    count(path);
    return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = forward("open", path, flags, ap);
    va_end(ap);
    return fd;
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = forward("open64", path, flags, ap);
    va_end(ap);
    return fd;
}

__attribute__((destructor)) static void show(void)
{
    fprintf(stderr, "sched files read: own %s, another thread's %d\n", own ? "some" : "none", other);
}
