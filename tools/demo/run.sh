#!/usr/bin/env bash
# run.sh: the demo (README command 1): an unmodified program with a bad placement, re-pinned by ompnuma.
#
# Where the demo runs, best first:
#   - this machine, when it has several NUMA nodes: stock and ompnuma side by side, timed;
#   - a 2-node virtual machine (ompnuma vm) with emulated NUMA costs, when this machine
#     has one node and the numaemu QEMU plugin is built: a real kernel with real nodes,
#     remote misses cost more, and the plugin counts every miss per vCPU and node (ground truth). The stock runtime, ompnuma and
#     the oracle (the same program with every thread next to its data from the start)
#     run alternately in the same VM (OMPNUMA_DEMO_ROUNDS rounds, default 2). Time is
#     paced (ompnuma vm --pace: OMPNUMA_DEMO_PACE, a cost in ns per instruction,
#     100 unless set, or `default` for ompnuma vm's own default, 150 on this
#     machine kind): the guest's clock follows a model of a 2-socket server, so the
#     times do not depend on this machine's load (a smaller input: ~5 min).
#     OMPNUMA_DEMO_PACE=off charges OMPNUMA_DEMO_REMOTE_NS (default 1500) ns per remote
#     miss in host time instead: faster, with times that depend on the host;
#   - the same VM without the plugin: real page placement, but timings there are
#     emulation and say nothing about NUMA performance;
#   - a synthetic 2-node topology on this machine, when no VM can boot.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${OMPNUMA_BUILD_DIR:-$top/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

prog="$build/demo/swapped"
mkdir -p "$build/demo"
clang-19 -fopenmp -O2 -g "$top/tools/demo/swapped.c" -o "$prog"

# The program: 2 threads, 32 MiB, 30 iterations. Its threads start bound in order
# (OMP_PROC_BIND=close) so the first touch is deterministic, and each then works
# on the block its mirror thread touched: every reference is remote.
settings=(OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores
          OMP_PLACEMENT=critpath,source=pagefault,track=anon,sample=2 OMP_PLACEMENT_VERBOSE=1)
args=(32 30)

nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
echo "== ompnuma demo: a program whose threads work on memory their neighbours first-touched"
if [ "$nodes" -gt 1 ]; then
  echo "== this machine has $nodes NUMA nodes: stock runtime, then ompnuma, same run"
  for run in 1 2 3; do
    s=$( { /usr/bin/time -f %e env OMP_NUM_THREADS=2 OMP_PROC_BIND=close "$prog" "${args[@]}" >/dev/null; } 2>&1 )
    o=$( { /usr/bin/time -f %e env LD_LIBRARY_PATH="$build/lib" "${settings[@]}" "$prog" "${args[@]}" >/dev/null; } 2>&1 | tail -1)
    echo "run $run: stock ${s}s  ompnuma ${o}s"
  done
  env LD_LIBRARY_PATH="$build/lib" "${settings[@]}" OMP_PLACEMENT_REPORT="$work/report.json" "$prog" "${args[@]}"
elif [ -n "$(ls ~/.cache/ompnuma/vm/*/vmlinux 2>/dev/null)" ] && command -v qemu-system-x86_64 >/dev/null &&
     [ -f "$build/share/ompnuma/numaemu.so" ]; then
  remote_ns=${OMPNUMA_DEMO_REMOTE_NS:-1500}
  rounds=${OMPNUMA_DEMO_ROUNDS:-2}
  # Paced by default: unpaced times are the host's emulation speed plus the
  # charges, and on an idle host the oracle (every access local) once ran
  # slower than stock, so the move was rolled back in one round of two.
  # OMPNUMA_DEMO_PACE=off runs unpaced (faster, and times that depend on the host).
  # 100 ns per instruction: the demo's program (two threads meeting once per
  # sweep of about a second) kept to the model at that cost beside two host CPU
  # burners in 10 runs of 10 (benchmarks/README.md, "Paced emulated time");
  # ompnuma vm's default is set for barriers every few hundred microseconds.
  pace=${OMPNUMA_DEMO_PACE:-100}
  [ "$pace" = off ] && pace=
  mark="$build/bin/ompnuma-emu-mark"
  # Every run is exec'ed on CPU 0 (ompnuma vm --start-cpu): its stack and its libraries' data start on node 0.
  start="$build/bin/ompnuma-start-on"
  # 16 MiB, 24 iterations: ompnuma samples, times a baseline, moves and verifies
  # within the first third; the last third is settled. Paced, an iteration of
  # 4 MiB takes about a second of the model's time.
  eargs=(16 24 times)
  cost=(--remote-ns "$remote_ns")
  what="a remote cache miss costs ${remote_ns} ns more (numaemu QEMU plugin, which also counts every miss)"
  if [ -n "$pace" ]; then
    eargs=(4 24 times)
    if [ "$pace" = default ]; then cost=(--pace); else cost=(--pace "$pace"); fi
    what="paced time (ompnuma vm ${cost[*]}): the guest's clock follows a model of a 2-socket server
   (local miss 90 ns, remote 140 ns), slowed down to what this machine can emulate under load"
  fi
  stock_env="OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES=cores"
  omp_env="$stock_env LD_LIBRARY_PATH=$build/lib OMP_PLACEMENT=critpath,source=pagefault,track=anon,sample=2 OMP_PLACEMENT_VERBOSE=1"
  {
    for r in $(seq 1 "$rounds"); do
      # Tags are the plugin's per-interval counts: 10R+1 stock, 10R+2 ompnuma.
      echo "echo '=== stock $r'; '$mark' tag $((10 * r + 1)); env $stock_env '$start' 0 '$prog' ${eargs[*]} 2>&1; '$mark' tag 0"
      echo "echo '=== ompnuma $r'; '$mark' tag $((10 * r + 2)); env $omp_env OMP_PLACEMENT_REPORT=/tmp/report.json '$start' 0 '$prog' ${eargs[*]} 2>&1; '$mark' tag 0"
      # 10R+3: the oracle, every thread next to its data from the start.
      echo "echo '=== oracle $r'; '$mark' tag $((10 * r + 3)); env $stock_env '$start' 0 '$prog' ${eargs[*]} local 2>&1; '$mark' tag 0"
    done
    echo "echo '=== report'; cat /tmp/report.json"
  } > "$work/guest.sh"
  echo "== this machine has one NUMA node: a 2-node virtual machine (real kernel) with emulated NUMA costs:"
  echo "   $what;"
  echo "   the stock runtime, ompnuma and the oracle run alternately in the same VM, $rounds rounds (~2-5 min)"
  "$build/bin/ompnuma" vm --nodes 2 --cpus-per-node 1 --mem 256 --distances '10,21;21,10' \
      "${cost[@]}" --counts "$work/counts.json" \
      --file "$prog" --file "$build/lib" --file "$mark" --file "$start" --file "$work/guest.sh" --timeout 3600 -- \
      /bin/sh "$work/guest.sh" > "$work/out.txt"
  python3 "$top/tools/demo/demo_emu.py" "$work/out.txt" "$work/counts.json" "${cost[*]}"
  cp "$work/out.txt.report.json" "$work/report.json"
elif [ -n "$(ls ~/.cache/ompnuma/vm/*/vmlinux 2>/dev/null)" ] && command -v qemu-system-x86_64 >/dev/null; then
  echo "== this machine has one NUMA node: running in a 2-node virtual machine (real kernel, emulated timing;"
  echo "   the numaemu plugin that gives remote memory a cost is not built: see tools/numavm/README.md)"
  env_args=()
  for s in "${settings[@]}"; do env_args+=(--env "$s"); done
  "$build/bin/ompnuma" vm --nodes 2 --cpus-per-node 1 --mem 256 --distances '10,21;21,10' \
      --file "$prog" --file "$build/lib" --env LD_LIBRARY_PATH="$build/lib" --env OMP_PLACEMENT_REPORT=/tmp/report.json \
      "${env_args[@]}" --timeout 300 -- \
      /bin/sh -c "'$prog' ${args[*]} && echo '--- report ---' && cat /tmp/report.json" > "$work/out.txt"
  sed -n '1,/^--- report ---$/p' "$work/out.txt" | grep -v '^--- report ---$'
  sed -n '/^--- report ---$/,$p' "$work/out.txt" | tail -n +2 > "$work/report.json"
else
  echo "== one NUMA node and no virtual machine: a synthetic 2-node topology on this machine's 2 CPUs"
  env LD_LIBRARY_PATH="$build/lib" HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 \
      "${settings[@]}" OMP_PLACEMENT_REPORT="$work/report.json" "$prog" "${args[@]}"
fi
echo "== the report (ompnuma report --tnt):"
"$build/bin/ompnuma" report --tnt "$work/report.json"
