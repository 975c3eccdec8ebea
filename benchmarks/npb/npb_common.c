/* npb_common.c: the NPB random-number generator, timer, class parsing and summary printing. */
/* clock_gettime and CLOCK_MONOTONIC are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "npb_common.h"
#include "rt_emu_mark.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MASK46 ((UINT64_C(1) << 46) - 1)
#define TWO_M46 0x1p-46

/* Precondition for all generator entry points: seeds and multipliers are
 * integers in [0, 2^46), so the conversions to uint64_t are exact. */
static inline uint64_t mulmod46(uint64_t a, uint64_t x)
{
    /* The product wraps mod 2^64; its low 46 bits are a*x mod 2^46. */
    return (a * x) & MASK46;
}

double randlc(double *x, double a)
{
    uint64_t r = mulmod46((uint64_t)a, (uint64_t)*x);
    *x = (double)r;
    return (double)r * TWO_M46;
}

void vranlc(int n, double *x, double a, double *y)
{
    if (n <= 0)
        return;
    uint64_t ua = (uint64_t)a;
    uint64_t cur = (uint64_t)*x;
    int i = 0;
    /* One multiply chain is latency-bound (multiply + mask per value). Four
     * interleaved chains, each stepping by a^4, give the same sequence with
     * four independent multiplies in flight. */
    if (n >= 8) {
        uint64_t a2 = mulmod46(ua, ua);
        uint64_t a4 = mulmod46(a2, a2);
        uint64_t l0 = mulmod46(ua, cur);
        uint64_t l1 = mulmod46(ua, l0);
        uint64_t l2 = mulmod46(ua, l1);
        uint64_t l3 = mulmod46(ua, l2);
        for (; i + 4 <= n; i += 4) {
            y[i] = (double)l0 * TWO_M46;
            y[i + 1] = (double)l1 * TWO_M46;
            y[i + 2] = (double)l2 * TWO_M46;
            y[i + 3] = (double)l3 * TWO_M46;
            cur = l3;
            l0 = mulmod46(a4, l0);
            l1 = mulmod46(a4, l1);
            l2 = mulmod46(a4, l2);
            l3 = mulmod46(a4, l3);
        }
    }
    for (; i < n; i++) {
        cur = mulmod46(ua, cur);
        y[i] = (double)cur * TWO_M46;
    }
    *x = (double)cur;
}

double npb_pow46(double a, uint64_t k)
{
    uint64_t base = (uint64_t)a;
    uint64_t r = 1;
    while (k != 0) {
        if (k & 1)
            r = mulmod46(r, base);
        base = mulmod46(base, base);
        k >>= 1;
    }
    return (double)r;
}

double npb_skip46(double seed, double a, uint64_t k)
{
    return (double)mulmod46((uint64_t)npb_pow46(a, k), (uint64_t)seed);
}

double npb_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double npb_timer_start(void)
{
    rt_emu_mark_tag(1);
    return npb_wtime();
}

double npb_timer_stop(double t0)
{
    double t = npb_wtime() - t0;
    rt_emu_mark_tag(0);
    return t;
}

int npb_class_index(char cls)
{
    static const char order[] = "SWABC";
    const char *p = cls ? strchr(order, cls) : NULL;
    return p ? (int)(p - order) : -1;
}

static void usage_exit(const char *kernel, const char *allowed)
{
    fprintf(stderr, "usage: npb-%s CLASS  (CLASS is one of", kernel);
    for (const char *p = allowed; *p; p++)
        fprintf(stderr, " %c", *p);
    fprintf(stderr, ")\n");
    exit(2);
}

char npb_class_from_args_allowed(int argc, char **argv, const char *kernel,
                                 const char *allowed)
{
    if (argc != 2 || argv[1][0] == '\0' || argv[1][1] != '\0')
        usage_exit(kernel, allowed);
    char c = argv[1][0];
    if (c >= 'a' && c <= 'z')
        c = (char)(c - 'a' + 'A');
    if (npb_class_index(c) < 0 || strchr(allowed, c) == NULL)
        usage_exit(kernel, allowed);
    return c;
}

char npb_class_from_args(int argc, char **argv, const char *kernel)
{
    return npb_class_from_args_allowed(argc, argv, kernel, "SWAB");
}

int npb_rel_ok(double value, double ref, double eps)
{
    if (!isfinite(value))
        return 0;
    /* Written so that a NaN anywhere makes the comparison false. */
    return fabs(value - ref) <= eps * fabs(ref);
}

void npb_print_results(const char *name, char cls, long n1, long n2, long n3,
                       int niter, double t, double mops, const char *optype,
                       int verified)
{
    int threads = omp_get_max_threads();
    printf("\n %s Benchmark Completed.\n", name);
    printf(" Class = %c\n", cls);
    if (n2 == 0 && n3 == 0)
        printf(" Size = %ld\n", n1);
    else
        printf(" Size = %ldx%ldx%ld\n", n1, n2, n3);
    printf(" Iterations = %d\n", niter);
    printf(" Time in seconds = %.4f\n", t);
    printf(" Total threads = %d\n", threads);
    printf(" Mop/s total = %.2f\n", mops);
    printf(" Mop/s/thread = %.2f\n", mops / threads);
    printf(" Operation type = %s\n", optype);
    printf(" Verification = %s\n", verified ? "SUCCESSFUL" : "UNSUCCESSFUL");
    printf(" Version = ompnuma NPB 3.4 (C, OpenMP)\n");
    fflush(stdout);
}

void *npb_alloc(size_t bytes, const char *what)
{
    /* aligned_alloc wants a multiple of the alignment. */
    size_t rounded = (bytes + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (p == NULL) {
        fprintf(stderr, "npb: cannot allocate %zu bytes for %s\n", bytes, what);
        exit(1);
    }
    return p;
}
