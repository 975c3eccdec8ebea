// Where memory was first touched (rt_origin): the kernel's software page-fault event, inherited by the threads the
// initial thread creates, records the instruction and the thread of each page's first fault. Buffer A's first four
// pages are touched by another function first (as an allocator writes its header), then all of it by the initial
// thread in serial code: touch_serial is A's first touch. B is first touched by a thread the initial thread created;
// C only by a forked child, whose faults must not count (and which must not read the rings it shares with its
// parent). Then A's pages are dropped and touched again by a thread: A's first touch stays the serial one (one fault
// in RT_ORIGIN_PERIOD is sampled, so the second pass may sample pages the first did not: up to 512 sampled pages).
// B's pages are all sampled at one fault in 4 of the worker's, so one stray fault of its own (its stack) shifts
// the count by one: 257 of 257 in one clean-clone run (2026-11-29), 256 of 256 in every other.
// RUN: %clang-omp -rdynamic %s %rt-internals -o %t && %t | FileCheck %s
// CHECK: start 0
// CHECK-NEXT: the child reads nothing: yes
// CHECK-NEXT: A: first touched by touch_serial, initial thread yes, 255 of 256 sampled pages, 1 thread
// CHECK-NEXT: B: first touched by touch_worker, initial thread no, {{25[5-7]}} of {{25[5-7]}} sampled pages, 1 thread
// CHECK-NEXT: C: nothing recorded
// CHECK-NEXT: A again: first touched by touch_serial, initial thread yes, 255 of {{256|[2-4][0-9][0-9]|5[01][0-9]|512}} sampled pages, 1 thread
// CHECK-NEXT: lost 0
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_origin.h"
#include "rt_symbol.h"

#define PAGES 1024
static size_t ps;

static char *fresh(void)
{
    char *p = mmap(NULL, PAGES * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(p, PAGES * ps, MADV_NOHUGEPAGE); /* one fault per page */
    return p;
}

__attribute__((noinline)) void touch_serial(volatile char *p)
{
    for (size_t i = 0; i < PAGES; i++)
        p[i * ps] = 1;
}

/* An allocator's header: the first pages of a mapping, touched before the program's loop. */
__attribute__((noinline)) void touch_header(volatile char *p)
{
    for (size_t i = 0; i < 4; i++) /* four faults: one of them sampled whatever the event's phase */
        p[i * ps] = 3;
}

__attribute__((noinline)) void touch_worker(volatile char *p)
{
    for (size_t i = 0; i < PAGES; i++)
        p[i * ps] = 2;
}

static void *worker(void *p)
{
    touch_worker(p);
    return NULL;
}

static void show(const char *what, char *p)
{
    rt_origin_t o;
    if (rt_origin_of((uintptr_t)p, (uintptr_t)p + PAGES * ps, &o) != 0) {
        printf("%s: nothing recorded\n", what);
        return;
    }
    char name[128];
    rt_symbolize((const void *)o.ip, name, sizeof name);
    char *plus = strchr(name, '+');
    if (plus)
        *plus = '\0';
    printf("%s: first touched by %s, initial thread %s, %llu of %llu sampled pages, %d thread%s\n", what, name,
           o.initial ? "yes" : "no", (unsigned long long)o.pages, (unsigned long long)o.sampled, o.threads,
           o.threads == 1 ? "" : "s");
}

int main(void)
{
    char why[256];
    ps = (size_t)sysconf(_SC_PAGESIZE);
    char *a = fresh(), *b = fresh(), *c = fresh();
    int rc = rt_origin_start(why, sizeof why);
    printf("start %d%s%s\n", rc, rc ? ": " : "", rc ? why : "");
    touch_header(a);
    touch_serial(a);
    pthread_t t;
    pthread_create(&t, NULL, worker, b);
    pthread_join(t, NULL);
    pid_t child = fork();
    if (child == 0) {
        touch_worker(c);
        rt_origin_t o;
        _exit(rt_origin_of((uintptr_t)a, (uintptr_t)a + PAGES * ps, &o) == -1 ? 0 : 1);
    }
    int status = -1;
    waitpid(child, &status, 0);
    printf("the child reads nothing: %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "yes" : "no");
    show("A", a);
    show("B", b);
    show("C", c);
    madvise(a, PAGES * ps, MADV_DONTNEED);
    pthread_create(&t, NULL, worker, a);
    pthread_join(t, NULL);
    show("A again", a);
    uint64_t pages, lost;
    rt_origin_stats(&pages, &lost);
    printf("lost %llu\n", (unsigned long long)lost);
    return 0;
}
