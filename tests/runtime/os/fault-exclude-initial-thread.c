// fault-exclude-initial-thread.c: rt_fault_exclude_thread keeps each thread's TCB, TLS and stack from being sampled, and asks glibc for the stack (pthread_getattr_np) only for a thread it created: the initial thread's stack is the [stack] mapping, which no source tracks, and glibc finds its bounds by reading the whole of /proc/self/maps.
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include "rt_fault.h"

static int asked; /* pthread_getattr_np calls */

/* The runtime's calls land here: counted, then glibc's. */
int pthread_getattr_np(pthread_t t, pthread_attr_t *attr)
{
    static int (*real)(pthread_t, pthread_attr_t *);
    if (!real)
        real = (int (*)(pthread_t, pthread_attr_t *))dlsym(RTLD_NEXT, "pthread_getattr_np");
    __atomic_fetch_add(&asked, 1, __ATOMIC_RELAXED);
    return real(t, attr);
}

static int excluded(uintptr_t at)
{
    uintptr_t next = 0;
    return rt_fault_excluded(at, at + 1, &next);
}

static void *worker(void *arg)
{
    (void)arg;
    int local = 0;
    int before = asked, rc = rt_fault_exclude_thread();
    printf("worker: rc %d, asked glibc %d, tcb %d, stack %d\n", rc, asked - before,
           excluded((uintptr_t)__builtin_thread_pointer()), excluded((uintptr_t)&local));
    return NULL;
}

int main(void)
{
    int before = asked, rc = rt_fault_exclude_thread();
    printf("initial: rc %d, asked glibc %d, tcb %d\n", rc, asked - before,
           excluded((uintptr_t)__builtin_thread_pointer()));
    // CHECK: initial: rc 0, asked glibc 0, tcb 1
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 1;
    // CHECK: worker: rc 0, asked glibc 1, tcb 1, stack 1
    return 0;
}
