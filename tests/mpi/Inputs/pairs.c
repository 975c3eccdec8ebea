/* pairs.c: ranks exchange with one partner each, heavily, for a number of phases; the partner of rank r in phase p is r ^ mask[p], and each message is 64 KiB unless the phase says otherwise (MASK:BYTES). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* usage: pairs MASK[:BYTES][,MASK[:BYTES]...] ITERATIONS_PER_PHASE */
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
        const char *colon = strchr(m, ':'), *comma = strchr(m, ',');
        long bytes = colon && (!comma || colon < comma) ? atol(colon + 1) : (long)sizeof out;
        if (bytes < 1 || bytes > (long)sizeof out) { /* every rank reads the same phases: all stop here */
            if (r == 0)
                fprintf(stderr, "pairs: %ld bytes a message: a phase takes 1 to %zu\n", bytes, sizeof out);
            MPI_Finalize();
            return 2;
        }
        for (int it = 0; it < iters; it++) {
            if (partner < s) {
                memset(out, (char)(r + it), (size_t)bytes);
                MPI_Sendrecv(out, (int)bytes, MPI_BYTE, partner, 0, in, (int)bytes, MPI_BYTE, partner, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                checksum += in[it % bytes];
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
