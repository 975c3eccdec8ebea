/* follow.c: pairs r <-> r ^ (size/2) exchange while each rank's buffer is half first-touched on node 0 and half on the last node; at the end each rank prints its CPUs and where its pages are. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGES 256

/* Pin the calling thread to one CPU, touch, and come back to all. */
static void touch_on(char *p, size_t len, int cpu, const cpu_set_t *all)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
    memset(p, 1, len);
    sched_setaffinity(0, sizeof *all, all);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    int iters = argc > 1 ? atoi(argv[1]) : 300;
    long pg = sysconf(_SC_PAGESIZE);
    cpu_set_t all;
    sched_getaffinity(0, sizeof all, &all);
    int ncpu = CPU_COUNT(&all), first = -1, last = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all)) {
            if (first < 0)
                first = c;
            last = c;
        }
    char *buf = aligned_alloc((size_t)pg, (size_t)pg * PAGES);
    touch_on(buf, (size_t)pg * PAGES / 2, first, &all);
    touch_on(buf + pg * PAGES / 2, (size_t)pg * PAGES / 2, last, &all);
    static char out[1 << 16], in[1 << 16];
    int partner = r ^ (s / 2);
    for (int it = 0; it < iters; it++) {
        MPI_Sendrecv(out, sizeof out, MPI_BYTE, partner, 0, in, sizeof in, MPI_BYTE, partner, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        usleep(1000);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    cpu_set_t now;
    sched_getaffinity(0, sizeof now, &now);
    char cpus[256] = "";
    for (int c = 0, o = 0; c < CPU_SETSIZE && o < 240; c++)
        if (CPU_ISSET(c, &now))
            o += snprintf(cpus + o, sizeof cpus - (size_t)o, "%s%d", o ? "," : "", c);
    void *pages[PAGES];
    int status[PAGES];
    for (int i = 0; i < PAGES; i++)
        pages[i] = buf + (long)i * pg;
    long rc = syscall(SYS_move_pages, 0, PAGES, pages, NULL, status, 0);
    int node0 = status[0], same = 0;
    for (int i = 0; i < PAGES; i++)
        same += status[i] == node0;
    for (int k = 0; k < s; k++) {
        if (k == r) {
            printf("rank %d cpus %s of %d pages %d/%d on node %d%s\n", r, cpus, ncpu, same, PAGES, node0,
                   rc ? " (query failed)" : "");
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
