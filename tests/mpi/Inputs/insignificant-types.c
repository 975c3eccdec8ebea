/* insignificant-types.c: arguments MPI ignores, legally: a scatter's send type created on its root only, and a gather
 * whose root passes MPI_IN_PLACE with a send type created on the non-roots only. */
#include <mpi.h>
#include <stdio.h>

/* Where they are not created they are whatever a static handle holds: nothing MPI knows. */
static MPI_Datatype blk, four;

int main(int argc, char **argv)
{
    int r, s, a[64], b[4], mine[4], all[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    if (r == 0) { /* every other int of the root's array, 4 per rank */
        MPI_Datatype v;
        for (int i = 0; i < 64; i++)
            a[i] = i;
        MPI_Type_vector(4, 1, 2, MPI_INT, &v);
        MPI_Type_create_resized(v, 0, 8 * sizeof(int), &blk);
        MPI_Type_commit(&blk);
        MPI_Type_free(&v);
    } else {
        MPI_Type_contiguous(4, MPI_INT, &four);
        MPI_Type_commit(&four);
    }
    MPI_Scatter(a, 1, blk, b, 4, MPI_INT, 0, MPI_COMM_WORLD);
    printf("rank %d got %d %d %d %d\n", r, b[0], b[1], b[2], b[3]);
    for (int i = 0; i < 4; i++)
        mine[i] = all[i] = r * 10 + i;
    if (r == 0)
        MPI_Gather(MPI_IN_PLACE, 1, four, all, 4, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Gather(mine, 1, four, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
    if (r == 0) {
        long t = 0;
        for (int i = 0; i < 4 * s; i++)
            t += all[i];
        printf("gathered sum %ld\n", t);
        MPI_Type_free(&blk);
    } else {
        MPI_Type_free(&four);
    }
    MPI_Finalize();
    return 0;
}
