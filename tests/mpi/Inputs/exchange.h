/* exchange.h: ranks r and r^1 exchange 4 KiB and run the caller's work (an OpenMP region) once per millisecond until every rank has done so for ms milliseconds: time for the mapper's remaps and for what the ranks do after them. */
#ifndef EXCHANGE_H
#define EXCHANGE_H
#include <mpi.h>
#include <time.h>
#include <unistd.h>

static void exchange_for(int ms, void (*work)(void))
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    char out[4096] = {0}, in[4096];
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int stop = 0; !stop;) {
        MPI_Sendrecv(out, sizeof out, MPI_CHAR, r ^ 1, 0, in, sizeof in, MPI_CHAR, r ^ 1, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        work();
        clock_gettime(CLOCK_MONOTONIC, &t);
        int mine = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > ms;
        MPI_Allreduce(&mine, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        usleep(1000);
    }
}
#endif
