#!/bin/sh
# fake-app.sh: a stand-in application for the harness tests; prints a checksum of its output, a different one under OMP_PROC_BIND=close (as a runtime that corrupted the output would).
echo " Checksum = ${OMP_PROC_BIND:+corrupt-}5eed"
echo " Verification = SUCCESSFUL"
echo " Time in seconds = 2.5"
