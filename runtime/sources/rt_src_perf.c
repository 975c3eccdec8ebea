/* rt_src_perf.c: the perf counter source: probes for PMU address sampling (PEBS load latency, AMD IBS). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_sources.h"

/* The PMUs that give data addresses of loads, as the kernel exposes them. */
static const char *const address_pmus[] = {
    "/sys/bus/event_source/devices/cpu/events/mem-loads",  /* Intel PEBS load latency */
    "/sys/bus/event_source/devices/ibs_op/type",           /* AMD IBS op sampling    */
};

static int perf_open(struct perf_event_attr *attr)
{
    return (int)syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

static int probe(char *why, size_t len)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    int fd = perf_open(&attr);
    if (fd < 0) {
        int e = errno;
        snprintf(why, len, "no hardware PMU: perf_event_open(cycles) failed: %s%s", strerror(e),
                 e == EACCES || e == EPERM ? " (needs CAP_PERFMON or kernel.perf_event_paranoid <= 2)" : "");
        return -1;
    }
    close(fd);
    for (size_t i = 0; i < sizeof address_pmus / sizeof *address_pmus; i++)
        if (access(address_pmus[i], R_OK) == 0) {
            snprintf(why, len, "a PMU with load addresses exists (%s), but this build has no reader "
                     "for its samples", address_pmus[i]);
            return -1;
        }
    snprintf(why, len, "the PMU has no load-address sampling (neither PEBS mem-loads nor AMD IBS op)");
    return -1;
}

const rt_source_ops_t rt_source_perf = {
    .probe = probe,
    .intrusive = 0,
};
