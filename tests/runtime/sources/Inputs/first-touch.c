/* first-touch.c: each thread of a 2-thread team writes PAGES pages of its own half of a buffer, in a region run
 * REPEAT times (only the first run faults); prints a checksum that does not depend on placement. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long pages = argc > 1 ? atol(argv[1]) : 1000, repeat = argc > 2 ? atol(argv[2]) : 4;
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), bytes = 2 * (size_t)pages * ps;
    char *buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED)
        return 1;
    madvise(buf, bytes, MADV_NOHUGEPAGE); /* one fault per page */
    for (long r = 0; r < repeat; r++) {
#pragma omp parallel num_threads(2)
        {
            /* A write without a read: one fault per page (a read first would map the zero page and fault again). */
            char *mine = buf + (size_t)omp_get_thread_num() * (size_t)pages * ps;
            for (long p = 0; p < pages; p++)
                mine[(size_t)p * ps] = (char)(r + 1);
        }
    }
    long sum = 0;
    for (size_t i = 0; i < bytes; i += ps)
        sum += buf[i];
    printf("checksum %ld\n", sum);
    return 0;
}
