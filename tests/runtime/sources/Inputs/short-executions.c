/* short-executions.c: two threads each first-touch a buffer of their own, then one region runs N times (argument,
 * 200 by default), each thread reading one byte a page of its own buffer: executions of a millisecond or so. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BYTES (1u << 20)

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 200;
    char *buf[2];
    for (int t = 0; t < 2; t++) {
        buf[t] = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (buf[t] == MAP_FAILED)
            return 1;
    }
#pragma omp parallel num_threads(2)
    memset(buf[omp_get_thread_num()], 1, BYTES);
    long sum = 0;
    for (int e = 0; e < n; e++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        for (size_t i = 0; i < BYTES; i += 4096)
            sum += buf[omp_get_thread_num()][i];
    }
    printf("%s\n", sum == 2L * n * (BYTES / 4096) ? "read ok" : "read WRONG");
    return 0;
}
