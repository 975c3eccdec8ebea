/* rt_pages.c: a process's own pages: node queries and moves (move_pages), memory policies (mbind, get_mempolicy), the mappings (/proc/self/maps). */
#include <errno.h>
#include <fcntl.h>
#include <numaif.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_pages.h"
#include "rt_task.h"

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
    /* maxnode counts one more than the bits the kernel reads (as rt_mem.c passes it): without it,
     * node MASK_WORDS * bits - 1 was silently left out. */
    return (int)syscall(SYS_mbind, (void *)lo, (unsigned long)(hi - lo), MPOL_INTERLEAVE, mask,
                        (unsigned long)(MASK_WORDS * bits) + 1, 0) == 0 ? 0 : -1;
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

#define OWN_STACK_PAGES 256

int rt_pages_own_stack_to(int node, size_t *moved, size_t *seen)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), sp = (uintptr_t)__builtin_frame_address(0);
    uintptr_t tp = (uintptr_t)__builtin_thread_pointer();
    uintptr_t lo = sp & ~(page - 1), hi = (tp & ~(page - 1)) + page;
    *moved = *seen = 0;
    /* The TCB (glibc's struct pthread, 2.3 KiB) starts at the thread
     * pointer and ends the stack block, a page boundary: the page after the
     * one holding the thread pointer. Never past it: the mapping above may
     * be anything (in STREAM, 4 nodes, the first vector; its first pages
     * are the primary's, and taken along to a worker's node they cost the
     * primary 96 remote misses an execution). glibc reports the stack up to
     * the block's end, or, for a stack size the caller chose (libomp's
     * threads), up to its static TLS: either way that end rounded up. */
    uintptr_t stack, top;
    if (rt_task_own_stack(&stack, &top) != 0)
        return -1;
    top = (top + page - 1) & ~(page - 1);
    if (sp < stack || tp < stack || hi > top) {
        errno = EINVAL; /* the initial thread: its TLS is not above its stack */
        return -1;
    }
    if ((hi - lo) / page > OWN_STACK_PAGES)
        lo = hi - OWN_STACK_PAGES * page;
    void *pages[OWN_STACK_PAGES];
    int status[OWN_STACK_PAGES], nodes[OWN_STACK_PAGES];
    size_t n = 0, away = 0;
    for (uintptr_t p = lo; p < hi; p += page)
        pages[n++] = (void *)p;
    if (rt_pages_where(pages, n, status) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        *seen += status[i] >= 0;
        if (status[i] >= 0 && status[i] != node) {
            pages[away] = pages[i];
            nodes[away++] = node;
        }
    }
    if (!away)
        return 0;
    if (rt_pages_move(pages, nodes, away, status) != 0)
        return -1;
    for (size_t i = 0; i < away; i++)
        *moved += status[i] == node;
    return 0;
}

/* One line of /proc/self/maps, "lo-hi perms offset dev inode   path", read
 * in place (the path's newline becomes its end) into m (m->path points into
 * line): 0, or -1 when it is not such a line. By hand: sscanf was half of
 * what reading the maps cost a data decision (1 M guest instructions in the
 * paced VM) and most of a sampled execution's cost for the page sampler. */
static int parse_mapping(char *line, rt_mapping_t *m)
{
    char *e;
    m->lo = (uintptr_t)strtoull(line, &e, 16);
    if (*e != '-')
        return -1;
    m->hi = (uintptr_t)strtoull(e + 1, &e, 16);
    if (*e != ' ' || strnlen(e + 1, 4) < 4)
        return -1;
    memcpy(m->perms, e + 1, 4);
    m->perms[4] = '\0';
    char *p = e + 5;
    m->offset = (uint64_t)strtoull(p, &p, 16);
    while (*p == ' ')
        p++;
    while (*p && *p != ' ' && *p != '\n') /* the device */
        p++;
    m->inode = strtoul(p, &p, 10);
    while (*p == ' ')
        p++;
    p[strcspn(p, "\n")] = '\0';
    m->path = p;
    return 0;
}

int rt_pages_each_mapping(int (*fn)(const rt_mapping_t *m, void *ctx), void *ctx)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int n = rt_pages_each_mapping_in(fd, fn, ctx), err = errno;
    close(fd);
    errno = err;
    return n;
}

int rt_pages_each_mapping_in(int fd, int (*fn)(const rt_mapping_t *m, void *ctx), void *ctx)
{
    char buf[8192];
    size_t have = 0; /* bytes in buf: the start of a line not read to its end */
    int n = 0, stop = 0, eof = 0, err = 0, skip = 0;
    while (!stop && !eof) {
        ssize_t got = read(fd, buf + have, sizeof buf - 1 - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            err = errno;
            break;
        }
        if (got == 0) {
            eof = 1;
            if (!have)
                break;
            buf[have++] = '\n'; /* a last line without its newline */
        } else {
            have += (size_t)got;
        }
        char *line = buf, *end = buf + have, *nl;
        while (!stop && (nl = memchr(line, '\n', (size_t)(end - line)))) {
            *nl = '\0';
            rt_mapping_t m;
            if (!skip && parse_mapping(line, &m) == 0) {
                n++;
                stop = fn(&m, ctx) != 0;
            }
            skip = 0;
            line = nl + 1;
        }
        have = (size_t)(end - line);
        if (have == sizeof buf - 1) { /* longer than any line of this file can be: its rest is skipped */
            have = 0;
            skip = 1;
        }
        memmove(buf, line, have);
    }
    if (err) {
        errno = err;
        return -1;
    }
    return n;
}
