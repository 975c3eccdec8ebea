/* barren-regions.c: the program's memory is an array of MIB MiB (8 by default) that its serial part fills and
 * reads, while eight parallel regions, run in turn for SECS seconds (3), compute on their threads' own stack
 * variables and never touch it: what a page sampler tracks, no region of this program refers to.
 * usage: barren-regions [SECS [MIB]] */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* About 20 us of arithmetic on the thread's own variables. */
static double spin(int k)
{
    double x = 1.0 + k;
    for (int i = 0; i < 4000; i++)
        x = x * 0.999 + 0.5;
    return x;
}

/* Region number K: a parallel region of its own, in a function of its own. */
#define REGION(K)                                                                                                      \
    static __attribute__((noinline)) double region##K(void)                                                           \
    {                                                                                                                  \
        double sum = 0;                                                                                                \
        _Pragma("omp parallel reduction(+ : sum)") sum += spin(K + omp_get_thread_num());                             \
        return sum;                                                                                                    \
    }
REGION(0)
REGION(1)
REGION(2)
REGION(3)
REGION(4)
REGION(5)
REGION(6)
REGION(7)
static double (*const regions[8])(void) = {region0, region1, region2, region3, region4, region5, region6, region7};

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 3.0, sum = 0;
    size_t n = (argc > 2 ? strtoul(argv[2], NULL, 10) : 8) << 17;
    double *a = mmap(NULL, n * sizeof *a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED)
        return 1;
    for (size_t i = 0; i < n; i++)
        a[i] = (double)(i % 7);
    long executions = 0;
    for (double t0 = seconds(); seconds() - t0 < secs; executions++)
        sum += regions[executions % 8]();
    double check = 0;
    for (size_t i = 0; i < n; i++)
        check += a[i];
    printf("array %.0f, regions %s\n", check, sum > 0 && executions > 0 ? "ok" : "bad");
    return 0;
}
