/* mpi_kernels.c: MPI kernels with known communication patterns (ring, halo, heavy pairs, all-to-all, a phase change), each step a message exchange plus a sweep of the rank's own memory by its OpenMP team (hybrid ranks with OMP_NUM_THREADS > 1). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * usage: mpi_kernels PATTERN [MSG_BYTES [ITERS [LOCAL_MIB]]]
 *   ring      Sendrecv to rank+1, from rank-1
 *   halo      Sendrecv with both neighbours of a 1-D ring
 *   pairs     Sendrecv with rank ^ (size/2): heavy pairs that a round-robin
 *             mapping puts on different nodes
 *   alltoall  MPI_Alltoall, MSG_BYTES / size to each rank
 *   phase     pairs for the first half, then size-1-rank (0-3 and 1-2 of 4):
 *             under --map-by core both halves pair ranks of different
 *             nodes (rank ^ 1 would pair the ranks core mapping already put
 *             together), so only a mapping that follows the change helps
 * Each iteration also sweeps LOCAL_MIB of the rank's memory (read and
 * write; 0: none, a run of messages only), so that where the rank runs
 * relative to its pages matters; the
 * rank's OpenMP team shares the sweep (and first-touched its own part), so
 * OMP_NUM_THREADS > 1 makes hybrid ranks.
 * Rank 0 prints "PATTERN seconds checksum"; the time is the slowest rank's
 * between two barriers.
 */
static int partner_of(const char *pat, int r, int s, int it, int iters)
{
    if (!strcmp(pat, "pairs") || (!strcmp(pat, "phase") && it < iters / 2))
        return (r ^ (s / 2)) < s ? r ^ (s / 2) : r;
    if (!strcmp(pat, "phase"))
        return s - 1 - r;
    return -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    const char *pat = argc > 1 ? argv[1] : "pairs";
    long bytes = argc > 2 ? atol(argv[2]) : 1 << 20;
    int iters = argc > 3 ? atoi(argv[3]) : 200;
    long local = (argc > 4 ? atol(argv[4]) : 8) << 20;
    if (strcmp(pat, "ring") && strcmp(pat, "halo") && strcmp(pat, "pairs") && strcmp(pat, "alltoall")
        && strcmp(pat, "phase")) {
        if (r == 0)
            fprintf(stderr, "mpi_kernels: unknown pattern %s (ring, halo, pairs, alltoall, phase)\n", pat);
        MPI_Finalize();
        return 2;
    }
    if (bytes < s)
        bytes = s;
    char *out = malloc((size_t)bytes), *in = malloc((size_t)bytes);
    double *mem = malloc((size_t)local);
    long nmem = local / (long)sizeof(double);
    if (!out || !in || (!mem && nmem)) {
        fprintf(stderr, "mpi_kernels: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(out, r, (size_t)bytes);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < nmem; i++)
        mem[i] = (double)(i % 7);
    double sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        int right = (r + 1) % s, left = (r + s - 1) % s;
        int p = partner_of(pat, r, s, it, iters);
        if (!strcmp(pat, "ring")) {
            MPI_Sendrecv(out, (int)bytes, MPI_BYTE, right, 0, in, (int)bytes, MPI_BYTE, left, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (!strcmp(pat, "halo")) {
            MPI_Sendrecv(out, (int)bytes / 2, MPI_BYTE, right, 0, in, (int)bytes / 2, MPI_BYTE, left, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Sendrecv(out, (int)bytes / 2, MPI_BYTE, left, 1, in + bytes / 2, (int)bytes / 2, MPI_BYTE,
                         right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (!strcmp(pat, "alltoall")) {
            MPI_Alltoall(out, (int)(bytes / s), MPI_BYTE, in, (int)(bytes / s), MPI_BYTE, MPI_COMM_WORLD);
        } else if (p != r) {
            MPI_Sendrecv(out, (int)bytes, MPI_BYTE, p, 0, in, (int)bytes, MPI_BYTE, p, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        }
        sum += in[it % bytes];
#pragma omp parallel for schedule(static)
        for (long i = 0; i < nmem; i++)
            mem[i] = mem[i] * 0.5 + 1.0;
    }
    double t = MPI_Wtime() - t0, tmax = 0, total = 0;
    if (nmem)
        sum += mem[nmem - 1];
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (r == 0)
        printf("%s %.6f %.1f\n", pat, tmax, total);
    free(out);
    free(in);
    free(mem);
    MPI_Finalize();
    return 0;
}
