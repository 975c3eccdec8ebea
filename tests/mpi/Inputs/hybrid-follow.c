/* hybrid-follow.c: hybrid ranks (an OpenMP team each) exchange in pairs r <-> r ^ (size/2) while the team sweeps its buffer; at the end each rank prints its CPUs and how many of its team's threads run inside them, on how many distinct CPUs. */
#define _GNU_SOURCE
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WORDS (1 << 16)

int main(int argc, char **argv)
{
    int provided, r, s;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    int ms = argc > 1 ? atoi(argv[1]) : 3000;
    static double buf[WORDS];
    static char out[1 << 16], in[1 << 16];
    int partner = r ^ (s / 2);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int stop = 0; !stop;) {
        MPI_Sendrecv(out, sizeof out, MPI_BYTE, partner, 0, in, sizeof in, MPI_BYTE, partner, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma omp parallel for schedule(static)
        for (int i = 0; i < WORDS; i++)
            buf[i] = buf[i] * 0.5 + 1.0;
        clock_gettime(CLOCK_MONOTONIC, &t);
        int mine = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > ms;
        MPI_Allreduce(&mine, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        usleep(2000); /* a 4-vCPU guest on a shared host: leave the mapper room */
    }
    /* The rank's CPUs: the primary's mask in serial code (the allotment). */
    cpu_set_t rank;
    sched_getaffinity(0, sizeof rank, &rank);
    int inside = 0, team = 0;
    cpu_set_t used;
    CPU_ZERO(&used);
    /* The team as the region loop placed it: the same region's next execution. */
    for (int rep = 0; rep < 2; rep++) {
        inside = team = 0;
        CPU_ZERO(&used);
#pragma omp parallel for schedule(static) reduction(+ : inside, team)
        for (int i = 0; i < WORDS; i++) {
            buf[i] = buf[i] * 0.5 + 1.0;
            if (i % (WORDS / omp_get_num_threads()) == 0) {
                cpu_set_t m, both;
                sched_getaffinity(0, sizeof m, &m);
                CPU_AND(&both, &m, &rank);
                team++;
                inside += CPU_EQUAL(&both, &m) && CPU_ISSET(sched_getcpu(), &rank);
#pragma omp critical
                CPU_OR(&used, &used, &m);
            }
        }
    }
    char cpus[256] = "";
    for (int c = 0, o = 0; c < CPU_SETSIZE && o < 240; c++)
        if (CPU_ISSET(c, &rank))
            o += snprintf(cpus + o, sizeof cpus - (size_t)o, "%s%d", o ? "," : "", c);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < s; k++) {
        if (k == r) {
            printf("rank %d cpus %s team %d inside %d on %d cpus\n", r, cpus, team, inside, CPU_COUNT(&used));
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
