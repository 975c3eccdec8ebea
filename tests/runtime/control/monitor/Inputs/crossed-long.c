/* crossed-long.c: two threads pinned away from the data they sweep (bound to the other node), in one long region; prints where each thread ended and where its data is. */
#define _GNU_SOURCE
#include <numa.h>
#include <numaif.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"

/* The node most pages of [p, p + bytes) are on (move_pages, no move). */
static int data_node(char *p, size_t bytes)
{
    enum { PAGES = 64 };
    long page = sysconf(_SC_PAGESIZE);
    void *pages[PAGES];
    int status[PAGES], count[64] = {0}, best = -1;
    for (int i = 0; i < PAGES; i++)
        pages[i] = p + (size_t)i * (bytes / PAGES / (size_t)page) * (size_t)page;
    if (move_pages(0, PAGES, pages, NULL, status, 0) != 0)
        return -1;
    for (int i = 0; i < PAGES; i++)
        if (status[i] >= 0 && status[i] < 64 && ++count[status[i]] > (best >= 0 ? count[best] : 0))
            best = status[i];
    return best;
}

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 8;
    double secs = argc > 2 ? atof(argv[2]) : 2.0;
    size_t n = mib * 1024 * 1024 / sizeof(double), blk = n / 2;
    double sum = 0;
    int cpu[2] = {-1, -1}, go = 1;
    /* Small pages, so that each block's pages are where its first toucher ran
     * (the guest's transparent huge pages would not be split by the sampler). */
    double *a = mmap(NULL, n * sizeof *a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED || madvise(a, n * sizeof *a, MADV_NOHUGEPAGE) != 0 || numa_available() < 0)
        return 1;
    /* Block t lives on node 1 - t whoever touches it first (the monitor may
     * move threads while they first-touch). */
    for (int t = 0; t < 2; t++) {
        unsigned long mask = 1ul << (1 - t);
        if (mbind(a + (size_t)t * blk, blk * sizeof *a, MPOL_BIND, &mask, 8 * sizeof mask, 0) != 0)
            return 1;
    }
#pragma omp parallel num_threads(2)
    {
        size_t mirror = 1 - (size_t)omp_get_thread_num();
        for (size_t i = mirror * blk; i < (mirror + 1) * blk; i++)
            a[i] = (double)(i % 1000) * 0.5;
    }
    /* One short pass (sampled: the TNT), then the same region for `secs`. */
    for (int rep = 0; rep < 2; rep++) {
        double t0 = now();
        go = 1;
#pragma omp parallel num_threads(2) reduction(+ : sum)
        {
            int t = omp_get_thread_num();
            while (go) {
                for (size_t i = (size_t)t * blk; i < (size_t)(t + 1) * blk; i++) {
                    a[i] = a[i] * 0.999 + 0.25;
                    sum += a[i];
                }
#pragma omp barrier
#pragma omp single
                go = rep == 1 && now() - t0 < secs;
            }
            cpu[t] = sched_getcpu();
        }
    }
    for (int t = 0; t < 2; t++)
        printf("thread %d: on node %d, data on node %d\n", t, numa_node_of_cpu(cpu[t]),
               data_node((char *)(a + (size_t)t * blk), blk * sizeof *a));
    printf("checksum %s\n", sum > 0 ? "ok" : "bad");
    munmap(a, n * sizeof *a);
    return 0;
}
