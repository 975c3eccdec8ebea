/* cpu-load.c: thread 0 works 20 times longer when it runs on CPU 1: a move there makes the region slower. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>

static volatile double sink;

static void spin(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++)
        x += i * 0.5;
    sink = x;
}

int main(void)
{
    for (int it = 0; it < 16; it++) {
#pragma omp parallel num_threads(2)
        {
            int t = omp_get_thread_num();
            spin(t == 0 && sched_getcpu() == 1 ? 4000000 : 200000);
        }
    }
    printf("done\n");
    return 0;
}
