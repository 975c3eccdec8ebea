/* modes.c: an MPI program that misbehaves on request: never calls MPI, calls MPI_Init twice, aborts, or exits with a status of its own. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* usage: modes none|twice|abort|exit3|plain */
int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "plain";
    if (!strcmp(mode, "none")) {
        printf("no MPI here\n");
        return 0;
    }
    MPI_Init(&argc, &argv);
    int r, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    int v = r + 1, sum = 0;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (r == 0)
        printf("sum %d\n", sum);
    fflush(stdout);
    if (!strcmp(mode, "twice")) {
        int rc = MPI_Init(&argc, &argv); /* erroneous: MPI decides what happens */
        printf("rank %d second init rc %d\n", r, rc != MPI_SUCCESS);
    }
    if (!strcmp(mode, "abort")) {
        if (r == 0)
            printf("key %d\n", (int)getpid()); /* local rank 0's pid names this host's rows */
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
        if (r == s - 1)
            MPI_Abort(MPI_COMM_WORLD, 3);
        for (;;)
            MPI_Barrier(MPI_COMM_WORLD); /* the others wait to be killed */
    }
    MPI_Finalize();
    return !strcmp(mode, "exit3") ? 3 : 0;
}
