/* where.c: a 2-thread region run N times (argv[1]); prints the CPU each thread ran on in the first execution. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 6, first[2] = {-1, -1};
    for (int e = 0; e < n; e++) {
#pragma omp parallel num_threads(2)
        if (e == 0)
            first[omp_get_thread_num()] = sched_getcpu();
    }
    printf("first execution: thread 0 on cpu %d, thread 1 on cpu %d\n", first[0], first[1]);
    return 0;
}
