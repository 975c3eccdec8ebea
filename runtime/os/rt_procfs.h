/* rt_procfs.h: small /proc files read without allocating, and the NUMA-balancing statistics of a thread's sched file parsed. */
#ifndef OMPNUMA_RT_PROCFS_H
#define OMPNUMA_RT_PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RT_NUMA_FAULTS_NODES 64   /* kernel nodes 0..63 */

/* What /proc/<pid>/task/<tid>/sched says about NUMA balancing
 * (kernel/sched/debug.c, CONFIG_NUMA_BALANCING and CONFIG_SCHED_DEBUG). */
typedef struct rt_numa_faults {
    uint64_t faults[RT_NUMA_FAULTS_NODES]; /* task_private + task_shared per kernel node of the memory:
                                              the kernel's decayed count of hinting faults */
    int      nodes;              /* 1 + the highest node that has a numa_faults line */
    int      current_node;       /* the node of the CPU the thread last ran on, -1 unknown */
    uint64_t pages_migrated;     /* numa_pages_migrated: pages the kernel moved on this thread's faults */
    uint64_t scan_seq;           /* mm->numa_scan_seq: scan passes over the process's memory so far */
    uint64_t total;              /* total_numa_faults */
} rt_numa_faults_t;

/* Read a whole small file into buf (NUL-terminated). Bytes read, or -1 with
 * errno (the file does not fit: EFBIG). No allocation. */
ssize_t rt_procfs_read(const char *path, char *buf, size_t len);

/* Call fn(tid, ctx) for every thread of this process (getdents64 on
 * /proc/self/task into a buffer on the stack: no allocation, usable from
 * inside any call of the program's); fn returns nonzero to stop the walk.
 * Returns the threads visited, or -1 with errno (no procfs). */
int rt_procfs_each_task(int (*fn)(pid_t tid, void *ctx), void *ctx);

/* Parse a sched file's text. 0, or -1 (EINVAL) when it has no numa_faults
 * line (a kernel without NUMA balancing statistics). Pure: tests hand it
 * recorded text. */
int rt_numa_faults_parse(const char *text, rt_numa_faults_t *out);

/* Read and parse the calling thread's own file (/proc/thread-self/sched);
 * buf is the caller's scratch space. 0 or -1 with errno. Only a thread's own:
 * reading another running thread's file (/proc/self/task/TID/sched) from the
 * primary made the kernel's balancing migrate a program's pages one scan
 * pass later in about half the runs of benchmarks/patterns serial in the
 * 2-node VM (7 % slower), where reading one's own never did
 * (benchmarks/README.md, "With Linux's balancing"). */
int rt_numa_faults_read_self(char *buf, size_t len, rt_numa_faults_t *out);

/* The counter `name` of /proc/vmstat (host-wide, e.g. "pgmigrate_success"),
 * or -1 when the file or the line is missing. Reads ~8 KiB into a stack
 * buffer: for rare events (a remap), not hot paths. */
int64_t rt_vmstat_counter(const char *name);

/* Process pid's resident anonymous pages (pid 0: this process): statm's
 * resident less its shared (file and shmem) pages, the kernel's RssAnon,
 * what migrate_pages(2) of the process's own pages walks and copies. One
 * small read: another process's file says only its counters. -1 with errno
 * (ESRCH: no such process). */
int64_t rt_procfs_anon_pages(pid_t pid);

/* /proc/sys/kernel/numa_balancing (0 off, 1 normal, 2 memory tiering, 3
 * both), or -1 when the kernel has none. */
int rt_numa_balancing_mode(void);

#endif
