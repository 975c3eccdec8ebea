// count-pattern-exact.c: bytes and messages per peer are exact for a known pattern of blocking, non-blocking, persistent, Sendrecv sends and collectives on world and split communicators.
// REQUIRES: mpi
// RUN: %mpicc %s -o %t
// RUN: rm -f %t.csv %t.mat %t.json
// RUN: %mpirun -np 4 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,interval=50,topology=node:2 core:2 pu:1,matrix=%t.csv,report=%t.json" %t | FileCheck %s --check-prefix=APP
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %mpirun -np 4 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,topology=node:2 core:2 pu:1,matrix=%t.mat" %t > /dev/null
// RUN: FileCheck %s --check-prefix=MAT < %t.mat
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, s;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    int right = (r + 1) % s, left = (r + s - 1) % s, across = (r + 2) % s;
    int ints[100] = { 0 }, rints[100];
    double d[10] = { 0 }, rd[3][10];
    char c7[7] = { 0 }, r7[7], one = 1, rone;
    // Blocking: 100 ints (400 bytes) to the right.
    if (r % 2 == 0) {
        MPI_Send(ints, 100, MPI_INT, right, 0, MPI_COMM_WORLD);
        MPI_Recv(rints, 100, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(rints, 100, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(ints, 100, MPI_INT, right, 0, MPI_COMM_WORLD);
    }
    // Non-blocking: 3 x 10 doubles (240 bytes) to the right.
    MPI_Request q[6];
    for (int i = 0; i < 3; i++) {
        MPI_Irecv(rd[i], 10, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &q[i]);
        MPI_Isend(d, 10, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &q[3 + i]);
    }
    MPI_Waitall(6, q, MPI_STATUSES_IGNORE);
    // Persistent: 7 bytes to the left, started 5 times (35 bytes).
    MPI_Request ps, pr;
    MPI_Send_init(c7, 7, MPI_CHAR, left, 2, MPI_COMM_WORLD, &ps);
    MPI_Recv_init(r7, 7, MPI_CHAR, right, 2, MPI_COMM_WORLD, &pr);
    for (int i = 0; i < 5; i++) {
        MPI_Start(&pr);
        MPI_Start(&ps);
        MPI_Wait(&ps, MPI_STATUS_IGNORE);
        MPI_Wait(&pr, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&ps);
    MPI_Request_free(&pr);
    // Sendrecv: 1 byte across; to a null process: nothing.
    MPI_Sendrecv(&one, 1, MPI_CHAR, across, 3, &rone, 1, MPI_CHAR, across, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Send(ints, 100, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    // Bcast of 16 bytes from rank 0: 16 bytes from 0 to each other rank.
    char b16[16] = { 0 };
    MPI_Bcast(b16, 16, MPI_CHAR, 0, MPI_COMM_WORLD);
    // Allreduce of 2 ints on {0,2} and {1,3}: 8 bytes to the partner across (world ranks).
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
    int two[2] = { r, r }, sum[2];
    MPI_Allreduce(two, sum, 2, MPI_INT, MPI_SUM, half);
    MPI_Comm_free(&half);
    printf("rank %d sum %d\n", r, sum[0]);
    MPI_Finalize();
    return 0;
}
// The program's own output is unchanged.
// APP-DAG: rank 0 sum 2
// APP-DAG: rank 1 sum 4
// APP-DAG: rank 2 sum 2
// APP-DAG: rank 3 sum 4
// Right 400 + 240 = 640, left 35, across 1 + 8 = 9; rank 0 adds 16 to each other rank.
// CSV:      rank,0,1,2,3
// CSV-NEXT: 0,0,656,25,51
// CSV-NEXT: 1,35,0,640,9
// CSV-NEXT: 2,9,35,0,640
// CSV-NEXT: 3,640,9,35,0
// ompnuma's own set-up traffic is kept out of the matrix and counted apart; there is no nested MPI traffic.
// JSON:     "ranks": [
// JSON-NOT: "mpi_internal_bytes": {{[1-9]}}
// JSON:     "rank": 0, {{.*}} "mpi_internal_bytes": 0, "mpi_internal_msgs": 0, "ompnuma_bytes": {{[1-9][0-9]*}}, "ompnuma_msgs": {{[1-9][0-9]*}}
// JSON-NOT: "mpi_internal_bytes": {{[1-9]}}
// JSON:     "matrix_bytes": [
// Messages: right 1 + 3, left 5, across 1 + 1; plus rank 0's bcast.
// JSON:      "matrix_msgs": [
// JSON-NEXT:   [0, 5, 3, 6],
// JSON-NEXT:   [5, 0, 4, 2],
// JSON-NEXT:   [2, 5, 0, 4],
// JSON-NEXT:   [4, 2, 5, 0]
// MAT:      0 656 25 51
// MAT-NEXT: 35 0 640 9
// MAT-NEXT: 9 35 0 640
// MAT-NEXT: 640 9 35 0
