// mapper-phase-change-at-probe.c: a phase change after the interval has grown long is decided at the next probe (every min_interval), on the probe's window, not at the end of the long interval: the last decision pairs the second phase's ranks, taken at a probe (synthetic 2 nodes, dry run).
// REQUIRES: mpi
// The first phase (pairs 0-2, 1-3: at least 1.5 s) lets the interval grow from
// 20 ms to over a second; the second (0-1, 2-3: as long) would end
// before that interval, or be outweighed in it by the first phase. Probes
// every 20 ms see two windows in a row leave the mapping and decide at once.
// RUN: %mpicc %S/Inputs/pairs.c -o %t
// RUN: rm -f %t.json
// RUN: %mpirun -np 4 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,verbose,interval=20,topology=node:2 core:2 pu:1,report=%t.json" %t 2,1 1500 > /dev/null 2> %t.err
// RUN: FileCheck %s --check-prefix=VERBOSE < %t.err
// RUN: %python %S/Inputs/check_report.py %t.json --entry first --pairs 0:2,1:3 | FileCheck %s --check-prefix=FIRST
// RUN: %python %S/Inputs/check_report.py %t.json --entry last --pairs 0:1,2:3 | FileCheck %s --check-prefix=LAST
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// VERBOSE: ompnuma: mpi: remap 1 on {{.*}} next interval 20 ms) dry run
// VERBOSE: ompnuma: mpi: the traffic left the mapping on {{.*}}: 0.{{[0-8][0-9]*}} of two windows on-node (the last {{[0-9]+}} ms), {{1.000|0.[0-9]+}} when decided; deciding now, {{[0-9]+}} ms into a {{[0-9]+}} ms interval
// VERBOSE: ompnuma: mpi: remap 2 on {{.*}}: nodes {{.*}} ({{[1-4]}} moved, {{[0-9]+}} bytes, next interval {{[0-9.]+}} ms) at a probe dry run
// FIRST: pairs together: 2/2
// LAST: pairs together: 2/2
// LAST: pair nodes distinct: 2
// JSON: "decisions_at_probes": {{[1-9]}},
