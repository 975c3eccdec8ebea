/* nest.c: up to three nested parallel constructs, team sizes from the command line (outer first). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static int sizes[3], levels;
static long leaves;

static void leaf(void)
{
#pragma omp atomic
    leaves++;
}

static void level3(void)
{
#pragma omp parallel num_threads(sizes[2])
    leaf();
}

static void level2(void)
{
#pragma omp parallel num_threads(sizes[1])
    if (levels > 2)
        level3();
    else
        leaf();
}

int main(int argc, char **argv)
{
    levels = argc - 1 < 3 ? argc - 1 : 3;
    for (int k = 0; k < levels; k++)
        sizes[k] = atoi(argv[k + 1]);
    omp_set_max_active_levels(levels);
    for (int it = 0; it < 2; it++) {
#pragma omp parallel num_threads(sizes[0])
        if (levels > 1)
            level2();
        else
            leaf();
    }
    printf("leaves %ld\n", leaves);
    return 0;
}
