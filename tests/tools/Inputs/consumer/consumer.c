/* consumer.c: calls the omp_numa API from a parallel region. */
#include <omp.h>
#include <omp_numa.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n += omp_numa_num_nodes() > 0;
    printf("threads that saw nodes: %d\n", n);
    return 0;
}
