/* rt_pages.c: a process's own pages: node queries and moves (move_pages), memory policies (mbind, get_mempolicy), the mappings (/proc/self/maps). */
#include <errno.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_pages.h"

#define MASK_WORDS 16 /* nodes 0..1023 */

int rt_pages_where(void *const *pages, size_t n, int *status)
{
    if (syscall(SYS_move_pages, 0, (unsigned long)n, pages, NULL, status, 0) != 0)
        return -1;
    return 0;
}

int rt_pages_move(void *const *pages, const int *nodes, size_t n, int *status)
{
    if (syscall(SYS_move_pages, 0, (unsigned long)n, pages, nodes, status, MPOL_MF_MOVE) < 0 && errno != ENOENT)
        return -1;
    return 0;
}

int rt_pages_interleave(uintptr_t lo, uintptr_t hi, const int *nodes, int n)
{
    unsigned long mask[MASK_WORDS] = {0};
    const int bits = (int)(8 * sizeof *mask);
    for (int i = 0; i < n; i++) {
        if (nodes[i] < 0 || nodes[i] >= MASK_WORDS * bits) {
            errno = EINVAL;
            return -1;
        }
        mask[nodes[i] / bits] |= 1ul << (nodes[i] % bits);
    }
    return (int)syscall(SYS_mbind, (void *)lo, (unsigned long)(hi - lo), MPOL_INTERLEAVE, mask,
                        (unsigned long)(MASK_WORDS * bits), 0) == 0 ? 0 : -1;
}

int rt_pages_default_policy(uintptr_t lo, uintptr_t hi)
{
    return syscall(SYS_mbind, (void *)lo, (unsigned long)(hi - lo), MPOL_DEFAULT, NULL, 0ul, 0) == 0 ? 0 : -1;
}

int rt_pages_has_default_policy(uintptr_t addr)
{
    int mode = -1;
    unsigned long mask[MASK_WORDS];
    if (syscall(SYS_get_mempolicy, &mode, mask, (unsigned long)(MASK_WORDS * 8 * sizeof *mask), (void *)addr,
                MPOL_F_ADDR) != 0)
        return -1;
    return mode == MPOL_DEFAULT;
}

int rt_pages_parse_mapping(char *line, uintptr_t *lo, uintptr_t *hi, const char **perms, uint64_t *offset,
                           unsigned long *inode, const char **path)
{
    char *e;
    *lo = (uintptr_t)strtoull(line, &e, 16);
    if (*e != '-')
        return -1;
    *hi = (uintptr_t)strtoull(e + 1, &e, 16);
    if (*e != ' ' || strlen(e + 1) < 4)
        return -1;
    *perms = e + 1;
    char *p = e + 5;
    *offset = (uint64_t)strtoull(p, &p, 16);
    while (*p == ' ')
        p++;
    while (*p && *p != ' ' && *p != '\n') /* the device */
        p++;
    *inode = strtoul(p, &p, 10);
    while (*p == ' ')
        p++;
    p[strcspn(p, "\n")] = '\0';
    *path = p;
    return 0;
}

int rt_pages_each_mapping(int (*fn)(const rt_mapping_t *m, void *ctx), void *ctx)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return -1;
    char line[4400];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        rt_mapping_t m = {0};
        const char *perms, *path;
        if (rt_pages_parse_mapping(line, &m.lo, &m.hi, &perms, &m.offset, &m.inode, &path) != 0)
            continue;
        memcpy(m.perms, perms, 4);
        snprintf(m.path, sizeof m.path, "%s", path);
        n++;
        if (fn(&m, ctx))
            break;
    }
    fclose(f);
    return n;
}
