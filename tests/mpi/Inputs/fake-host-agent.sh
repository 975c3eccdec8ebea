#!/bin/sh
# fake-host-agent.sh: an rsh agent for Open MPI (plm_rsh_agent) that "logs in" to host $1 by running the command in a UTS namespace named after it: two emulated hosts on one machine.
host=$1
shift
exec unshare --uts sh -c "hostname $host; $*"
