// mapper-thin-phase-held.c: a phase whose traffic is a sliver of the one the mapping was decided on (r^4 with 64 KiB messages, then r^1 with 1-byte ones: 65536 times thinner) does not move the ranks, however much its pairing differs: a new mapping's gain is weighed by its window's volume (pl_ondeloc_worth). The report counts the mappings held for it, and the last remap is still the first phase's pairs (synthetic 4-node topology, dry run).
// REQUIRES: mpi
// The phases are counted in iterations but the mapper's intervals in time: a thin phase wins after as many held
// decisions as halving the reference takes (16 here, against 3 to 8 held in its 300 iterations at intervals of up to
// 100 ms); a host so loaded that the phase spans many more decisions can let it through.
// ALLOW_RETRIES: 2
// RUN: %mpicc %S/Inputs/pairs.c -o %t
// RUN: rm -f %t.json
// RUN: %mpirun -np 8 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,interval=20,max_interval=100,topology=node:4 core:2 pu:1,report=%t.json" %t 4,1:1 300 > /dev/null
// RUN: %python %S/Inputs/check_report.py %t.json --entry last --pairs 0:4,1:5,2:6,3:7 | FileCheck %s
// RUN: %python -c "import json,sys; m=json.load(open(sys.argv[1]))['mpi']; print('held thin', m['held_thin_window'] >= 1, 'decisions', m['decisions'])" %t.json | FileCheck %s --check-prefix=HELD
// CHECK: pairs together: 4/4
// CHECK: pair nodes distinct: 4
// HELD: held thin True
