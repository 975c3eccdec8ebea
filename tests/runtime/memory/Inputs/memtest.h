/* memtest.h: helpers shared by the memory manager's tests: stable one-line results for FileCheck. */
#ifndef MEMTEST_H
#define MEMTEST_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp_numa.h>

/* Print "name: ok" when expr returned fail_value with errno e, else the values seen. */
#define EXPECT_ERR(name, expr, fail_value, e)                                                  \
    do {                                                                                       \
        errno = 0;                                                                             \
        long long r_ = (long long)(expr);                                                      \
        int e_ = errno;                                                                        \
        if (r_ == (long long)(fail_value) && e_ == (e))                                        \
            printf("%s: ok\n", name);                                                          \
        else                                                                                   \
            printf("%s: FAIL returned %lld errno %d (%s), want errno %d\n", name, r_, e_,      \
                   strerror(e_), (e));                                                         \
    } while (0)

/* Print "name: ok" when expr returns 0. */
#define EXPECT_OK(name, expr)                                                                  \
    do {                                                                                       \
        errno = 0;                                                                             \
        long long r_ = (long long)(expr);                                                      \
        if (r_ == 0)                                                                           \
            printf("%s: ok\n", name);                                                          \
        else                                                                                   \
            printf("%s: FAIL returned %lld errno %d (%s)\n", name, r_, errno, strerror(errno)); \
    } while (0)

/* Deterministic fill and checksum, so any lost or changed byte shows. */
static inline void mt_fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 2654435761u) >> 13) ^ (unsigned char)seed;
}
static inline int mt_verify(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ((unsigned char)((i * 2654435761u) >> 13) ^ (unsigned char)seed))
            return 0;
    return 1;
}

/* Protection of the mapping holding p, from /proc/self/maps ("rw-p", "---p"). */
static inline const char *mt_prot(const void *p)
{
    static char perms[8];
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    strcpy(perms, "none");
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char pr[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, pr) == 3 && (uintptr_t)p >= lo && (uintptr_t)p < hi) {
            strcpy(perms, pr);
            break;
        }
    }
    if (f)
        fclose(f);
    return perms;
}
#endif
