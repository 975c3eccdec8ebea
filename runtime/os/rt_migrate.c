/* rt_migrate.c: migrate_pages(2) of this process's own pages to one node, CAP_SYS_NICE set aside so that shared pages stay. */
#include <errno.h>
#include <linux/capability.h>
#include <linux/mempolicy.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rt_migrate.h"
#include "rt_sys.h"

#define WORDS (RT_MIGRATE_NODES / 64)

/* CAP_SYS_NICE in the calling thread's effective set on or off: 1 if it
 * was there before, 0 if not, -1 with errno on failure. */
static int sys_nice_effective(int on)
{
    struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    if (syscall(SYS_capget, &hdr, data) != 0)
        return -1;
    uint32_t bit = 1u << (CAP_SYS_NICE % 32);
    int had = (data[CAP_SYS_NICE / 32].effective & bit) != 0;
    if (had == on)
        return had;
    if (on)
        data[CAP_SYS_NICE / 32].effective |= bit;
    else
        data[CAP_SYS_NICE / 32].effective &= ~bit;
    return syscall(SYS_capset, &hdr, data) == 0 ? had : -1;
}

long rt_migrate_own_pages(int os_node)
{
    if (os_node < 0 || os_node >= RT_MIGRATE_NODES) {
        errno = EINVAL;
        return -1;
    }
    unsigned long from[WORDS], to[WORDS];
    const unsigned long maxnode = RT_MIGRATE_NODES;
    memset(to, 0, sizeof to);
    if (syscall(SYS_get_mempolicy, NULL, from, maxnode, NULL, MPOL_F_MEMS_ALLOWED) != 0)
        memset(from, 0xff, sizeof from); /* unknown: every node, slower but complete */
    to[os_node / 64] |= 1UL << (os_node % 64);
    from[os_node / 64] &= ~(1UL << (os_node % 64));
    int any = 0;
    for (int w = 0; w < WORDS; w++)
        any |= from[w] != 0;
    if (!any)
        return 0;
    int had = sys_nice_effective(0);
    if (had < 0) {
        errno = EPERM; /* moving shared pages is what must not happen */
        return -1;
    }
    /* migrate_pages, like mbind, reads one bit fewer than maxnode (get_mempolicy
     * above does not): without the + 1, node RT_MIGRATE_NODES - 1 was left out. */
    long r = syscall(SYS_migrate_pages, 0, maxnode + 1, from, to);
    int err = errno;
    if (had)
        sys_nice_effective(1);
    errno = err;
    return r;
}

double rt_migrate_timed_ns(void **pages, int n, int to_os, int *status)
{
    int *nodes = malloc((size_t)(n > 0 ? n : 1) * sizeof *nodes);
    if (!nodes)
        return -1;
    for (int i = 0; i < n; i++)
        nodes[i] = to_os;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long r = rt_move_pages((unsigned long)n, pages, nodes, status, MPOL_MF_MOVE);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int err = errno;
    free(nodes);
    errno = err;
    if (r < 0)
        return -1;
    return (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
}

/* Move the trial's pages to node `to`: ns per page that landed there, -1
 * when none did. */
static double timed_leg(void **pages, int to)
{
    int status[RT_MIGRATE_TRIAL_PAGES];
    double ns = rt_migrate_timed_ns(pages, RT_MIGRATE_TRIAL_PAGES, to, status);
    if (ns < 0)
        return -1;
    int landed = 0;
    for (int i = 0; i < RT_MIGRATE_TRIAL_PAGES; i++)
        landed += status[i] == to;
    if (!landed) {
        errno = EIO;
        return -1;
    }
    return ns / landed;
}

double rt_migrate_page_ns(int from_os, int to_os)
{
    if (from_os < 0 || from_os >= RT_MIGRATE_NODES || to_os < 0 || to_os >= RT_MIGRATE_NODES
        || from_os == to_os) {
        errno = EINVAL;
        return -1;
    }
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), len = RT_MIGRATE_TRIAL_PAGES * pg;
    char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED)
        return -1;
    madvise(buf, len, MADV_NOHUGEPAGE);
    memset(buf, 1, len);
    void *pages[RT_MIGRATE_TRIAL_PAGES];
    int nodes[RT_MIGRATE_TRIAL_PAGES], status[RT_MIGRATE_TRIAL_PAGES];
    for (int i = 0; i < RT_MIGRATE_TRIAL_PAGES; i++) {
        pages[i] = buf + (size_t)i * pg;
        nodes[i] = from_os;
    }
    double best = -1;
    if (rt_move_pages(RT_MIGRATE_TRIAL_PAGES, pages, nodes, status, MPOL_MF_MOVE) >= 0) {
        double there = timed_leg(pages, to_os);
        double back = there >= 0 ? timed_leg(pages, from_os) : -1;
        best = back >= 0 && back < there ? back : there;
    }
    int err = errno;
    munmap(buf, len);
    errno = err;
    return best;
}
