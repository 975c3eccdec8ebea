/* cancel.c: 200 executions of a 2-thread region whose primary cancels it (`omp cancel parallel`) while the other
 * thread passes a cancellation point. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    int past = 0;
    for (int e = 0; e < 200; e++) {
#pragma omp parallel num_threads(2) reduction(+ : past)
        {
            if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
            }
#pragma omp cancellation point parallel
            past++;
        }
    }
    printf("200 regions, cancelled: %s\n", omp_get_cancellation() ? "yes" : "no");
    return past < 0;
}
