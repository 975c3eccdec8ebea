/* remote-sweep.c: two threads; each first-touches its own buffer, then for SECONDS sweeps the other's (one read per
 * page, the region run again and again). With "dump", each thread's sched file is printed before and after. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void dump(const char *when, int t)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/self/task/%ld/sched", (long)syscall(SYS_gettid));
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        printf("%s thread %d: %s", when, t, line);
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 6.0;
    size_t mib = argc > 2 ? (size_t)atol(argv[2]) : 32, bytes = mib << 20, ps = (size_t)sysconf(_SC_PAGESIZE);
    int want_dump = argc > 3 && !strcmp(argv[3], "dump");
    char *buf[2];
    for (int t = 0; t < 2; t++) {
        buf[t] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (buf[t] == MAP_FAILED)
            return 1;
        madvise(buf[t], bytes, MADV_NOHUGEPAGE); /* hinting faults per 4 KiB page */
    }
#pragma omp parallel num_threads(2)
    memset(buf[omp_get_thread_num()], 1, bytes);
    if (want_dump) {
#pragma omp parallel num_threads(2)
        {
#pragma omp critical
            dump("before", omp_get_thread_num());
        }
    }
    double t0 = omp_get_wtime();
    long sweeps = 0, sum = 0;
    while (omp_get_wtime() - t0 < seconds) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        {
            const volatile char *other = buf[1 - omp_get_thread_num()];
            for (size_t i = 0; i < bytes; i += ps)
                sum += other[i];
        }
        sweeps++;
    }
    printf("swept %s\n", sum == sweeps * 2 * (long)(bytes / ps) ? "ok" : "WRONG");
    if (want_dump) {
#pragma omp parallel num_threads(2)
        {
#pragma omp critical
            dump("after", omp_get_thread_num());
        }
    }
    return 0;
}
