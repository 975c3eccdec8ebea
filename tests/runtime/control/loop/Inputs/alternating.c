/* alternating.c: two 2-thread regions run one after the other, again and again. */
#include <omp.h>
#include <stdio.h>

__attribute__((noinline)) long region_a(int it)
{
    long s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    s += omp_get_thread_num() + it;
    return s;
}

__attribute__((noinline)) long region_b(int it)
{
    long s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    s += 2 * omp_get_thread_num() + it;
    return s;
}

int main(void)
{
    long s = 0;
    for (int it = 0; it < 200; it++)
        s += region_a(it) + region_b(it);
    printf("sum %ld\n", s);
    return 0;
}
