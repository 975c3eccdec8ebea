/* team-sizes.c: one parallel construct run with 2 threads, then with 3 (as dynamic concurrency throttling does). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double sweep(double *a, size_t n, int threads)
{
    double s = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : s) schedule(static)
    for (size_t i = 0; i < n; i++) {
        a[i] += 1.0;
        s += a[i];
    }
    return s;
}

int main(void)
{
    size_t n = 4u << 20;
    double *a = calloc(n, sizeof *a), s = 0;
    if (!a)
        return 1;
    for (int it = 0; it < 12; it++)
        s += sweep(a, n, 2);
    for (int it = 0; it < 12; it++)
        s += sweep(a, n, 3);
    printf("sum %.1f\n", s);
    free(a);
    return 0;
}
