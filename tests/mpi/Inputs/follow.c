/* follow.c: pairs r <-> r ^ (size/2) exchange while each rank's buffer is half first-touched on node 0 and half on the last node (with `shared`, all ranks also map a POSIX shm segment rank 0 touched on the last node); at the end each rank prints its CPUs and where its pages are. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGES 256
#define SHARED_PAGES 64

/* Pages of p[0..n) on the node of the first one: *node gets that node. -1 when the query fails. */
static int on_first_node(char *p, int n, long pg, int *node)
{
    void *pages[PAGES];
    int status[PAGES];
    for (int i = 0; i < n; i++)
        pages[i] = p + (long)i * pg;
    if (syscall(SYS_move_pages, 0, n, pages, NULL, status, 0))
        return -1;
    int same = 0;
    for (int i = 0; i < n; i++)
        same += status[i] == status[0];
    *node = status[0];
    return same;
}

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
    int with_shared = argc > 2 && !strcmp(argv[2], "shared");
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
    /* A segment every rank maps and reads (mapped by all, so no rank owns
     * its pages): rank 0 creates it and touches it on the last node. Named
     * after the ranks' parent (mpirun, one host) and set up with barriers
     * only: no traffic before every rank mapped it, so no remap either (a
     * remap applied while rank 0 alone mapped it would rightly move it). */
    char *sh = NULL;
    if (with_shared) {
        char name[64];
        snprintf(name, sizeof name, "/ompnuma-test-follow.%d", (int)getppid());
        int fd = r == 0 ? shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600) : -1;
        if (r == 0 && (fd < 0 || ftruncate(fd, pg * SHARED_PAGES)))
            MPI_Abort(MPI_COMM_WORLD, 3);
        if (r == 0) {
            sh = mmap(NULL, (size_t)pg * SHARED_PAGES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (sh == MAP_FAILED)
                MPI_Abort(MPI_COMM_WORLD, 3);
            touch_on(sh, (size_t)pg * SHARED_PAGES, last, &all);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (r != 0) {
            fd = shm_open(name, O_RDWR, 0);
            sh = fd < 0 ? MAP_FAILED : mmap(NULL, (size_t)pg * SHARED_PAGES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (sh == MAP_FAILED)
                MPI_Abort(MPI_COMM_WORLD, 3);
        }
        close(fd);
        volatile char sink = 0;
        for (int i = 0; i < SHARED_PAGES; i++)
            sink += sh[(long)i * pg];
        (void)sink;
        MPI_Barrier(MPI_COMM_WORLD);
        if (r == 0)
            shm_unlink(name);
    }
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
    int node0 = -1, same = on_first_node(buf, PAGES, pg, &node0);
    char shared[64] = "";
    if (sh) {
        int shnode = -1, shsame = on_first_node(sh, SHARED_PAGES, pg, &shnode);
        snprintf(shared, sizeof shared, " shared %d/%d on node %d", shsame, SHARED_PAGES, shnode);
    }
    for (int k = 0; k < s; k++) {
        if (k == r) {
            printf("rank %d cpus %s of %d pages %d/%d on node %d%s%s\n", r, cpus, ncpu, same, PAGES, node0,
                   shared, same < 0 ? " (query failed)" : "");
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
