/* rt_origin.h: where memory was first touched: the instruction and the thread behind each page's first fault, recorded by the kernel's software page-fault event, for the report. */
#ifndef OMPNUMA_RT_ORIGIN_H
#define OMPNUMA_RT_ORIGIN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * What a user needs to fix a first-touch problem is where the memory was
 * first touched: serial initialisation puts every page on one node, long
 * before any parallel region the runtime sees. The kernel knows: every first
 * touch of a page is a page fault, and its software page-fault event
 * (perf_event_open, no PMU needed, perf_event_paranoid <= 2 or CAP_PERFMON)
 * samples the faulting instruction, the thread and the data address. One
 * event on the process's initial thread, inherited by every thread it
 * creates (never by a forked process), writes into one ring; nothing reads
 * it until a report asks (rt_origin_of), so the program's threads pay only
 * the kernel's record per sampled fault.
 *
 * Which fault of a page was its first: the earliest of its samples (their
 * time). Later faults on the same page (the page sampler's protection, the
 * kernel's NUMA hinting faults, a page dropped and touched again) come after
 * it. Which instruction first touched a range: the one behind most of the
 * range's earliest sampled pages (not the very first: an allocator writes
 * its header on a mapping's first page before the program touches the rest).
 * One fault in RT_ORIGIN_PERIOD is sampled: an array is first touched by
 * thousands of faults of one loop, so every array is seen; a ring that
 * filled up drops later records (counted, in rt_origin_stats).
 */
#define RT_ORIGIN_PERIOD 4

/* Start recording, from the calling thread (the process's initial thread,
 * before it creates any other: they inherit it). 0, or -1 with a one-line
 * reason in why (perf_event_open refused: its errno and the permission it
 * needs). Idempotent. */
int  rt_origin_start(char *why, size_t len);
/* Stop and give the ring back (nobody will ask). */
void rt_origin_stop(void);
int  rt_origin_on(void);

/* The first touch of [lo, hi) (above), and how many of the range's sampled
 * pages the same instruction touched first. */
#define RT_ORIGIN_THREADS 64
typedef struct rt_origin {
    uintptr_t ip;       /* the touching instruction */
    pid_t     tid;      /* the thread of its earliest sample */
    int       initial;  /* tid is the process's initial thread: serial code, or its primary */
    uint64_t  pages;    /* sampled pages ip touched first ... */
    int       threads;  /* ... from this many threads (at most RT_ORIGIN_THREADS) */
    uint64_t  sampled;  /* sampled pages of the range */
} rt_origin_t;

/* 0 with *o filled, or -1 when nothing is recorded for the range (or the
 * recorder is off). Reads the ring first; thread-safe; never from an event
 * hook (it allocates). */
int  rt_origin_of(uintptr_t lo, uintptr_t hi, rt_origin_t *o);

/* Pages whose first touch was recorded, and records the kernel dropped
 * because the ring was full. */
void rt_origin_stats(uint64_t *pages, uint64_t *lost);

#endif
