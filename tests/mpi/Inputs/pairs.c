/* pairs.c: ranks exchange with one partner each, heavily, for a number of phases; the partner of rank r in phase p is r ^ mask[p]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* usage: pairs MASK[,MASK...] ITERATIONS_PER_PHASE */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    const char *masks = argc > 1 ? argv[1] : "4";
    int iters = argc > 2 ? atoi(argv[2]) : 100;
    static char out[1 << 16], in[1 << 16];
    long checksum = 0;
    for (const char *m = masks; *m;) {
        int mask = atoi(m);
        int partner = r ^ mask;
        for (int it = 0; it < iters; it++) {
            if (partner < s) {
                memset(out, (char)(r + it), sizeof out);
                MPI_Sendrecv(out, sizeof out, MPI_BYTE, partner, 0, in, sizeof in, MPI_BYTE, partner, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                checksum += in[it % sizeof in];
            }
            usleep(1000);
        }
        m = strchr(m, ',');
        if (!m)
            break;
        m++;
    }
    long total = 0;
    MPI_Reduce(&checksum, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (r == 0)
        printf("checksum %ld\n", total);
    MPI_Finalize();
    return 0;
}
