/* reservation.c: a program that reserves far more memory than it touches, as OpenBLAS reserves its buffer
 * (hundreds of MiB, mapped once, mostly never touched): RESERVE_MIB reserved, the first TOUCH_MIB swept by
 * the team 8 times. Prints the sum it read. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define RESERVE_MIB 384
#define TOUCH_MIB 2

int main(void)
{
    size_t reserve = (size_t)RESERVE_MIB << 20, n = ((size_t)TOUCH_MIB << 20) / sizeof(double);
    double *a = mmap(NULL, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = 1.0;
    double sum = 0;
    for (int it = 0; it < 8; it++) {
#pragma omp parallel for reduction(+ : sum)
        for (size_t i = 0; i < n; i++)
            sum += a[i];
    }
    printf("sum %.0f\n", sum);
    return 0;
}
