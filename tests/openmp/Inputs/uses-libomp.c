/* uses-libomp.c: a library that depends on libomp (it calls it) but defines no ompt_start_tool. */
#include <omp.h>

int uses_libomp_threads(void)
{
    return omp_get_max_threads();
}
