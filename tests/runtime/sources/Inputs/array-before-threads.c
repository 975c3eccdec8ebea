/* array-before-threads.c: a 32 MiB array malloc'd before the first parallel region (so before libomp's worker
 * exists), each thread first-touching and then sweeping its own half over `sweeps` regions; prints whether the
 * kernel merged the array's mapping with the worker's stack block (the array's mapping then starts below the
 * array, right above a PROT_NONE guard page) and the sum. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N (4u << 20) /* doubles */

/* Whether the mapping holding p starts below p, right after a ---p mapping. */
static int merged_with_stack(const void *p)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512], prev_perms[8] = "";
    unsigned long prev_hi = 0;
    int merged = 0;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
            continue;
        if ((uintptr_t)p >= lo && (uintptr_t)p < hi)
            merged = lo < (uintptr_t)p - 4096 && prev_hi == lo && perms[0] == 'r' && prev_perms[0] == '-';
        prev_hi = hi;
        snprintf(prev_perms, sizeof prev_perms, "%s", perms);
    }
    if (f)
        fclose(f);
    return merged;
}

int main(int argc, char **argv)
{
    int sweeps = argc > 1 ? atoi(argv[1]) : 8;
    double *a = malloc(N * sizeof *a), sum = 0;
    if (!a)
        return 1;
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        for (size_t i = (size_t)t * N / 2; i < (size_t)(t + 1) * N / 2; i++)
            a[i] = 1.0;
    }
    printf("array merged with a thread's stack: %s\n", merged_with_stack(a) ? "yes" : "no");
    for (int s = 0; s < sweeps; s++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        {
            int t = omp_get_thread_num();
            for (size_t i = (size_t)t * N / 2; i < (size_t)(t + 1) * N / 2; i += 512)
                sum += a[i];
        }
    }
    printf("sum %.0f\n", sum);
    free(a);
    return 0;
}
