/* settings-prog.c: a small OpenMP program whose stdout must not change whatever OMP_PLACEMENT* says. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long sum = 0;
    for (int rep = 0; rep < 6; rep++) {
#pragma omp parallel for reduction(+ : sum)
        for (int i = 0; i < 1000; i++)
            sum += i;
    }
    printf("sum=%ld threads=%d\n", sum, omp_get_max_threads());
    return 0;
}
