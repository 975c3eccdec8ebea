/* rt_migrate.c: migrate_pages(2) of this process's own pages to one node, CAP_SYS_NICE set aside so that shared pages stay. */
#include <errno.h>
#include <linux/capability.h>
#include <linux/mempolicy.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_migrate.h"

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
    long r = syscall(SYS_migrate_pages, 0, maxnode, from, to);
    int err = errno;
    if (had)
        sys_nice_effective(1);
    errno = err;
    return r;
}
