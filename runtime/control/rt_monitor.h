/* rt_monitor.h: the IMAR2 online migration monitor: a helper thread that measures the outermost team every period, runs placement/online and moves threads through the affinity owner. */
#ifndef OMPNUMA_RT_MONITOR_H
#define OMPNUMA_RT_MONITOR_H

#include <stdio.h>
#include "rt_region.h"
#include "rt_thread.h"

/*
 * With OMP_PLACEMENT=imar2 (alone) or <policy>,migrate=imar2 a helper thread
 * of the runtime wakes every period (IMAR2's, adaptive between period and
 * period_max), measures each thread of the current outermost team over the
 * interval just ended, calls pl_imar2_step, moves the threads it decides
 * through rt_affinity_move(.., RT_MOVER_MONITOR) and records the step in a
 * fixed-size timeline. Nothing of it exists unless asked: no thread, no
 * fork handler. It never runs in a forked child.
 *
 * Performance without a PMU (placement/online/pl_online.h,
 * pl_imar_perf_nopmu): work = the thread's rt_thread_t.work units done in
 * the interval, cpu = its CPU time (os/rt_task.h), wall = the interval, L =
 * the mean latency of its TNT row from the node it ran on (the current
 * outermost region's TNT, else the latest outermost one of the same team
 * size that has one; none: L = 1).
 */

/* Once at start-up, after the settings: remembers the process the monitor
 * may run in and, when asked for, registers its fork handlers. */
void rt_monitor_init(void);

/* The primary of an outermost team, as its implicit task begins in r (the
 * team's actual region): the team the monitor manages; the first call
 * starts the monitor. Only when rt_conf->migrate. */
void rt_monitor_team_begin(rt_region_t *r);
/* The same primary, as that implicit task ends. */
void rt_monitor_team_end(void);

/* A thread ends: the monitor stops reading it (waits for a step in
 * progress), and regions drop it as a member (rt_thread_forget). */
void rt_monitor_thread_end(rt_thread_t *thr);

/* At exit: stop the helper thread and wait for it (its last step ends first). */
void rt_monitor_stop(void);

/* Whether the helper thread is running now. */
int rt_monitor_running(void);

/* Whether the monitor sleeps for evidence (starved, with a source that
 * cannot peek at a running execution): until a team begins in a region
 * whose sampling found references, no step reads a thread's work or
 * waits, and the first step after it takes a new baseline; work and waits
 * counted meanwhile are never read. The flag (nonzero while it sleeps,
 * read with a relaxed atomic load by any thread) lives as long as the
 * process: the hot paths read it without a call. */
const int *rt_monitor_asleep_flag(void);
/* fn is called at each change of that flag, with its new value, under the
 * monitor's lock (by the helper as it falls asleep, by the primary that
 * wakes it): the OpenMP layer stops routing loops and barriers through
 * ompnuma while nothing reads them. Once, before the first region. */
void rt_monitor_on_sleep(void (*fn)(int asleep));

/* The report's "monitor" value: null when not asked for, else an object
 * with the settings, counts and the timeline (tools/report/report_schema.json). */
void rt_monitor_report_json(FILE *f);
/* One line for the readable report; nothing when not asked for. */
void rt_monitor_report_text(FILE *f);

#endif
