// mapper-phase-change.c: when the heavy pairs change (r^4, then r^1), the mapper remaps: its first decision keeps the first phase's pairs together, its last the second phase's, on a synthetic 4-node topology (dry run).
// REQUIRES: mpi
// The phases are counted in iterations but the mapper's intervals in time: on a
// loaded machine the second phase can end before the mapper caught up.
// ALLOW_RETRIES: 2
// RUN: %mpicc %S/Inputs/pairs.c -o %t
// RUN: rm -f %t.json
// RUN: %mpirun -np 8 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,interval=20,max_interval=40,topology=node:4 core:2 pu:1,report=%t.json" %t 4,1 300 > /dev/null
// RUN: %python %S/Inputs/check_report.py %t.json --entry first --pairs 0:4,1:5,2:6,3:7 | FileCheck %s --check-prefix=FIRST
// RUN: %python %S/Inputs/check_report.py %t.json --entry last --pairs 0:1,2:3,4:5,6:7 | FileCheck %s --check-prefix=LAST
// FIRST: pairs together: 4/4
// FIRST: pair nodes distinct: 4
// LAST: remaps {{[2-9]|[1-9][0-9]+}} decisions>=remaps True
// LAST: pairs together: 4/4
// LAST: pair nodes distinct: 4
// LAST: every rank applied its node: yes
