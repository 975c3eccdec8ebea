// hybrid-team-inside-allotment.c: a hybrid rank's OpenMP team is decided by critpath inside the CPUs the MPI mapper gave the rank. Synthetic topology of 4 nodes of 4 cores (dry run), two pairs of ranks: the mapper puts each pair on a node of its own (pair 0-1 on node 0 and pair 2-3 on node 1, or the mirror image: the two pairs talk equally), each rank on its half of the node; each rank's team of two, whose table wants nodes 2 and 3, is decided inside its half: on node 1 one thread on each of its two CPUs (not squeezed), on node 0, where the threads already run (CPUs of this machine), left on its CPUs. Without the mapper the same table sends the team to nodes 2 and 3.
// REQUIRES: mpi
// RUN: %mpicc -fopenmp %s -o %t
// RUN: printf '0,0,9000,0\n0,0,0,9000\n' > %t.csv
// RUN: rm -f %t.on.*.json %t.off.*.json
// RUN: %mpirun -np 4 --bind-to none -x LD_LIBRARY_PATH=%libdir -x HWLOC_SYNTHETIC="pack:4 [numa] core:4 pu:1" -x OMP_NUM_THREADS=2 -x OMP_PLACEMENT=critpath,sample=2,source=replay:%t.csv -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI=ondeloc,interval=100,min_interval=100 sh -c 'OMP_PLACEMENT_REPORT=%t.on.$OMPI_COMM_WORLD_RANK.json exec %t'
// RUN: %python %S/Inputs/check_allotment.py --cpus-per-node 4 %t.on.0.json %t.on.1.json %t.on.2.json %t.on.3.json | FileCheck %s
// RUN: %mpirun -np 2 --bind-to none -x LD_LIBRARY_PATH=%libdir -x HWLOC_SYNTHETIC="pack:4 [numa] core:4 pu:1" -x OMP_NUM_THREADS=2 -x OMP_PLACEMENT=critpath,sample=2,source=replay:%t.csv sh -c 'OMP_PLACEMENT_REPORT=%t.off.$OMPI_COMM_WORLD_RANK.json exec %t'
// RUN: %python %S/Inputs/check_allotment.py %t.off.0.json %t.off.1.json | FileCheck %s --check-prefix=OFF
// CHECK: rank report: allotment [0, 1] mapping [0, 0] cpus [-1, -1] unchanged inside yes decided in it yes
// CHECK: rank report: allotment [2, 3] mapping [0, 0] cpus [-1, -1] unchanged inside yes decided in it yes
// CHECK: rank report: allotment [4, 5] mapping [1, 1] cpus [{{4, 5|5, 4}}] decided inside yes decided in it yes
// CHECK: rank report: allotment [6, 7] mapping [1, 1] cpus [{{6, 7|7, 6}}] decided inside yes decided in it yes
// CHECK: ranks sharing a node: 0+1 2+3
// OFF: rank report 0: allotment none mapping [2, 3] cpus [8, 12] decided
// OFF: rank report 1: allotment none mapping [2, 3] cpus [8, 12] decided
#include <mpi.h>
#include <omp.h>
#include "Inputs/exchange.h"

static double sink[2];

static void region(void)
{
#pragma omp parallel
    sink[omp_get_thread_num() & 1] += 1;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    /* Long enough for the mapper's first remap (100 ms), the rank's next MPI
     * call and two sampling phases of the region after it, on a loaded machine. */
    exchange_for(1500, region);
    MPI_Finalize();
    return 0;
}
