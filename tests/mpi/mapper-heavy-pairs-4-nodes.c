// mapper-heavy-pairs-4-nodes.c: on a synthetic 4-node topology (dry run) the mapper puts each heavy pair on one node and the four pairs on four nodes; every rank records it; the interval grows while the mapping holds.
// REQUIRES: mpi
// RUN: %mpicc %S/Inputs/pairs.c -o %t
// RUN: rm -f %t.json %t.bind
// RUN: %mpirun -np 8 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,interval=20,max_interval=80,topology=node:4 core:2 pu:1,report=%t.json,bindings=%t.bind" %t 4 400 > %t.out 2> %t.err
// RUN: %python %S/Inputs/check_report.py %t.json --pairs 0:4,1:5,2:6,3:7 | FileCheck %s
// RUN: FileCheck %s --check-prefix=BIND < %t.bind
// Nothing on stderr: no output unless asked.
// RUN: not grep . %t.err
// The same program without the library prints the same.
// RUN: %mpirun -np 8 %t 4 400 > %t.ref
// RUN: diff %t.ref %t.out
// CHECK: remaps {{[1-9][0-9]*}} decisions>=remaps True
// CHECK: pairs together: 4/4
// CHECK: pair nodes distinct: 4
// CHECK: every rank applied its node: yes
// CHECK: threads per rank >= {{[1-9]}}
// CHECK: threads refused 0
// CHECK: dry run yes
// CHECK: interval grew: yes
// BIND: MCW rank {{[0-7]}} bound to NUMA node {{[0-3]}}: {{.*}}{{B/\.|\./B}}{{.*}} (remap 1, dry run)
