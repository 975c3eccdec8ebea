/* fork-lines.c EXECUTIONS [nested]: EXECUTIONS executions of a region whose team of two sweeps a small
 * array, and between them a serial sweep of a buffer larger than the last-level cache callgrind simulates
 * (fork_lines.py gives it 1 MiB): every cache line a fork reads, the program's, the runtime's or ompnuma's,
 * is then a miss, as in a program that streams through more memory than the cache between its regions.
 * nested: the same region forked inside a team of one (an outer region that runs once). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWEPT (2u << 20)
#define SMALL 4096

static double small[SMALL];

static double executions(int n, char *swept)
{
    double sum = 0;
    for (int k = 0; k < n; k++) {
        memset(swept, k, SWEPT);
#pragma omp parallel for num_threads(2) schedule(static)
        for (int i = 0; i < SMALL; i++)
            small[i] += i;
        sum += small[k % SMALL];
    }
    return sum;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    int nested = argc > 2 && strcmp(argv[2], "nested") == 0;
    char *swept = malloc(SWEPT);
    if (n < 1 || !swept) {
        fprintf(stderr, "usage: fork-lines EXECUTIONS [nested]\n");
        return 2;
    }
    double sum = 0;
    if (nested) {
        omp_set_max_active_levels(2);
#pragma omp parallel num_threads(1)
        sum = executions(n, swept);
    } else {
        sum = executions(n, swept);
    }
    printf("%.0f\n", sum);
    free(swept);
    return 0;
}
