/* two-regions.c: two parallel regions of 8 threads in their own functions, for the replay tests. */
#include <omp.h>
#include <stdio.h>

__attribute__((noinline)) double region_a(double *x, int n)
{
    double s = 0;
#pragma omp parallel for num_threads(8) reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++)
        s += x[i] * 2;
    return s;
}

__attribute__((noinline)) double region_b(double *x, int n)
{
    double s = 0;
#pragma omp parallel for num_threads(8) reduction(+ : s) schedule(static)
    for (int i = 0; i < n; i++)
        s += x[i] + 1;
    return s;
}

int main(void)
{
    static double x[1 << 16];
    for (int i = 0; i < 1 << 16; i++)
        x[i] = i % 17;
    double s = 0;
    for (int it = 0; it < 12; it++)
        s += region_a(x, 1 << 16) + region_b(x, 1 << 16);
    printf("sum %.1f\n", s);
    return 0;
}
