/* once-and-many.c: one region that runs once, one that runs 20 times, one whose threads touch no tracked memory. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (4u << 20)

int main(void)
{
    double *a = malloc(N * sizeof *a), sum = 0;
#pragma omp parallel num_threads(2)
    {
        /* once */
        int t = omp_get_thread_num();
        memset(a + (size_t)t * (N / 2), 0, N / 2 * sizeof *a);
    }
    for (int e = 0; e < 20; e++) {
#pragma omp parallel for num_threads(2) reduction(+ : sum)
        for (size_t i = 0; i < N; i++)
            sum += a[i];
    }
    int x[2];
    for (int e = 0; e < 20; e++) {
#pragma omp parallel num_threads(2)
        x[omp_get_thread_num()] = e; /* only the stack: nothing tracked */
    }
    printf("sum %.0f %d\n", sum, x[0] + x[1]);
    free(a);
    return 0;
}
