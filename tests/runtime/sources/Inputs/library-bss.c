/* library-bss.c: static arrays of 2 MiB in the program and in a shared
 * object it links (built twice: with -DLIBRARY, the object): the program's
 * threads sweep both in a region that runs 4 times. Prints a checksum. */
#include <stddef.h>
#define N (1u << 18) /* doubles: 2 MiB, in .bss beyond the file's last page */

#ifdef LIBRARY
static double lib_table[N];

double *library_table(void)
{
    return lib_table;
}
#else
#include <omp.h>
#include <stdio.h>

double *library_table(void);
static double own_table[N];

int main(void)
{
    double *lib = library_table(), sum = 0;
    for (int e = 0; e < 4; e++) {
#pragma omp parallel for num_threads(2) schedule(static) reduction(+ : sum)
        for (size_t i = 0; i < N; i++) {
            own_table[i] += 1.0;
            lib[i] += 2.0;
            sum += own_table[i] + lib[i];
        }
    }
    printf("sum %.0f\n", sum);
    return 0;
}
#endif
