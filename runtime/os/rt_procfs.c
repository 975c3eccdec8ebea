/* rt_procfs.c: small /proc files read into the caller's buffer, and the numa_faults lines of a thread's sched file. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_procfs.h"

ssize_t rt_procfs_read(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t n = 0;
    for (;;) {
        if (n + 1 >= len) { /* one byte kept for the NUL: a file that fills it may go on */
            close(fd);
            errno = EFBIG;
            return -1;
        }
        ssize_t r = read(fd, buf + n, len - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    return (ssize_t)n;
}

int rt_procfs_each_task(int (*fn)(pid_t tid, void *ctx), void *ctx)
{
    int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    char buf[4096] __attribute__((aligned(8)));
    int n = 0, stop = 0;
    long got;
    while (!stop && (got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
        for (long off = 0; off < got && !stop;) {
            struct {
                uint64_t       ino;
                int64_t        off;
                unsigned short reclen;
                unsigned char  type;
                char           name[];
            } *e = (void *)(buf + off);
            off += e->reclen;
            if (e->name[0] < '0' || e->name[0] > '9')
                continue;
            n++;
            stop = fn((pid_t)strtol(e->name, NULL, 10), ctx);
        }
    close(fd);
    return n;
}

/* The number after "name ... :" on the line that starts with name, or 0. */
static int field(const char *line, const char *name, uint64_t *out)
{
    size_t n = strlen(name);
    if (strncmp(line, name, n) != 0 || (line[n] != ' ' && line[n] != ':'))
        return 0;
    const char *colon = strchr(line + n, ':');
    if (!colon)
        return 0;
    char *end;
    long long v = strtoll(colon + 1, &end, 10);
    if (end == colon + 1)
        return 0;
    *out = v < 0 ? 0 : (uint64_t)v;
    return 1;
}

int rt_numa_faults_parse(const char *text, rt_numa_faults_t *out)
{
    memset(out, 0, sizeof *out);
    out->current_node = -1;
    int seen = 0;
    for (const char *line = text; line && *line;) {
        const char *nl = strchr(line, '\n');
        int node;
        unsigned long long tp, ts;
        uint64_t v;
        /* "numa_faults node=0 task_private=16375 task_shared=0 group_private=0 group_shared=0" */
        if (sscanf(line, "numa_faults node=%d task_private=%llu task_shared=%llu", &node, &tp, &ts) == 3) {
            seen = 1;
            if (node >= 0 && node < RT_NUMA_FAULTS_NODES) {
                out->faults[node] = (uint64_t)tp + (uint64_t)ts;
                if (node + 1 > out->nodes)
                    out->nodes = node + 1;
            }
        } else if (sscanf(line, "current_node=%d", &node) == 1) {
            out->current_node = node;
        } else if (field(line, "numa_pages_migrated", &v)) {
            out->pages_migrated = v;
        } else if (field(line, "mm->numa_scan_seq", &v)) {
            out->scan_seq = v;
        } else if (field(line, "total_numa_faults", &v)) {
            out->total = v;
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!seen) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

int rt_numa_faults_read_self(char *buf, size_t len, rt_numa_faults_t *out)
{
    if (rt_procfs_read("/proc/thread-self/sched", buf, len) < 0)
        return -1;
    return rt_numa_faults_parse(buf, out);
}

int64_t rt_procfs_anon_pages(pid_t pid)
{
    char path[48], buf[256];
    if (pid)
        snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
    else
        snprintf(path, sizeof path, "/proc/self/statm");
    if (rt_procfs_read(path, buf, sizeof buf) < 0) {
        if (errno == ENOENT)
            errno = ESRCH;
        return -1;
    }
    unsigned long long size, resident, shared;
    if (sscanf(buf, "%llu %llu %llu", &size, &resident, &shared) != 3) {
        errno = EINVAL;
        return -1;
    }
    return resident > shared ? (int64_t)(resident - shared) : 0;
}

int rt_numa_balancing_mode(void)
{
    char buf[32];
    if (rt_procfs_read("/proc/sys/kernel/numa_balancing", buf, sizeof buf) < 0)
        return -1;
    return atoi(buf);
}

int64_t rt_vmstat_counter(const char *name)
{
    char buf[16384];
    if (rt_procfs_read("/proc/vmstat", buf, sizeof buf) < 0)
        return -1;
    size_t len = strlen(name);
    for (const char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, name, len) && l[len] == ' ')
            return strtoll(l + len + 1, NULL, 10);
    return -1;
}
