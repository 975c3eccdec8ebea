#!/bin/sh
# fake-bench.sh: a stand-in benchmark for the harness tests; prints the settings it got (and the length of --vary-layout's padding), and fails its verification under OMP_PROC_BIND=close.
echo " Fake benchmark: OMP_PROC_BIND=${OMP_PROC_BIND:-unset} OMP_PLACEMENT=${OMP_PLACEMENT:-unset} LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-unset} args=$*"
echo " Layout padding: ${#OMPNUMA_LAYOUT_PAD} bytes"
if [ "${OMP_PROC_BIND:-}" = close ]; then
  echo " Verification = UNSUCCESSFUL"
else
  echo " Verification = SUCCESSFUL"
fi
echo " Time in seconds = 1.5"
exit 0
