// mapper-thin-phase-held.c: a phase whose traffic is a sliver of the one the mapping was decided on (r^4 with 64 KiB messages, then r^1 with 1-byte ones: 65536 times thinner) does not move the ranks, however much its pairing differs: a new mapping's gain is weighed by its window's volume (pl_ondeloc_worth). A thin window that keeps the mapping (the first phase's pairs, thin, before the thin r^1) neither resets the volume it is weighed against nor hides the next heavy phase (r^2) from the probes. The report counts the mappings held for it (synthetic 4-node topology, dry run).
// REQUIRES: mpi
// The phases are counted in iterations but the mapper's intervals in time: a thin phase wins after as many held
// decisions as halving the reference takes (13 here, against 3 or 4 held in a thin phase of 300 iterations, probed
// every 50 ms and decided every second probe); a host so loaded that the phase spans many more decisions can let it
// through.
// ALLOW_RETRIES: 2
// RUN: %mpicc %S/Inputs/pairs.c -o %t
// RUN: rm -f %t.a.json %t.b.json
// RUN: %mpirun -np 8 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,interval=50,min_interval=50,max_interval=100,topology=node:4 core:2 pu:1,report=%t.a.json" %t 4,4:1,1:1 300 > /dev/null
// RUN: %python %S/Inputs/check_report.py %t.a.json --entry last --pairs 0:4,1:5,2:6,3:7 | FileCheck %s
// RUN: %python -c "import json,sys; m=json.load(open(sys.argv[1]))['mpi']; print('held thin', m['held_thin_window'] >= 1)" %t.a.json | FileCheck %s --check-prefix=HELD
// RUN: %mpirun -np 8 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI="ondeloc,interval=50,min_interval=50,max_interval=100,topology=node:4 core:2 pu:1,report=%t.b.json" %t 4,1:1,2 300 > /dev/null
// RUN: %python %S/Inputs/check_report.py %t.b.json --entry last --pairs 0:2,1:3,4:6,5:7 | FileCheck %s
// RUN: %python -c "import json,sys; m=json.load(open(sys.argv[1]))['mpi']; print('held thin', m['held_thin_window'] >= 1)" %t.b.json | FileCheck %s --check-prefix=HELD
// CHECK: pairs together: 4/4
// CHECK: pair nodes distinct: 4
// HELD: held thin True
