"""numavm_guest.py: the guest's /init (busybox sh): boots, runs jobs in an overlay chroot, reports on a serial port."""

# Ports (all switched to raw mode so that bytes pass unchanged):
#   ttyS0  kernel console; the agent's own failures go there too
#   ttyS1  the job's stdout, then the end marker NUMAVM-END-<nonce>
#   ttyS2  the job's stderr, then the same end marker
#   ttyS3  control: host -> guest "RUN <id> <nonce> <limit>" / "QUIT";
#          guest -> host "NUMAVM READY", "NUMAVM START <id>", "NUMAVM EXITED <id>"
#          (the command ended; clean-up follows), "NUMAVM DONE <id> <status>
#          <timed-out 0|1>", "NUMAVM FAIL <text>"
#
# A job is a directory <src>/ holding the files to add over /base (host paths,
# plus /.numavm/job.sh that sets the environment and directory and execs the
# command). It runs chrooted in an overlay of its files over /base, with fresh
# /proc, /sys, /dev and /dev/shm, in its own session so that everything it
# started is killed with it. The overlay's upper layer is dropped afterwards:
# a pooled guest starts every job from the same state.
#
# The end marker carries a random nonce the command never sees, so the host
# finds the end of the output without any byte being reserved: output stays
# binary-safe and a last line without newline is kept.
#
# Modes (kernel command line numavm.mode=): "oneshot" runs /jobs/1 from the
# initramfs and powers off (with numavm.hold=1, set when the emulated-NUMA
# plugin counts, it waits for a "GO" line on the control port before the job
# and again before powering off); "pool" loads 9p, mounts the host's share on /host
# and runs jobs sent on the control port until QUIT. numavm.thp= sets the
# transparent huge pages mode through sysfs before any job (Linux's own
# transparent_hugepage= is undone for machines under 512 MiB, the 2x1 layout),
# and every job starts with the guest's mode, whatever the one before set.

MODULES_ONESHOT = ["overlay"]
MODULES_POOL = ["overlay", "virtio_ring", "virtio", "virtio_pci_modern_dev", "virtio_pci_legacy_dev",
                "virtio_pci", "netfs", "fscache", "9pnet", "9pnet_virtio", "9p"]

INIT = r"""#!/bin/busybox sh
# numavm guest init: see tools/numavm/numavm_guest.py for the protocol.
export PATH=/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for t in /dev/ttyS1 /dev/ttyS2 /dev/ttyS3; do stty -F $t raw -echo; done
exec 3<>/dev/ttyS3 4>/dev/ttyS1 5>/dev/ttyS2

say() { echo "NUMAVM $*" >&3; }
# stty applies its settings with TCSADRAIN: it returns once the UART has sent
# everything written so far. Powering off sooner would lose queued bytes.
drain() { for t in "$@"; do stty -F $t raw -echo; done; }
off() {
    drain /dev/ttyS1 /dev/ttyS2 /dev/ttyS3
    poweroff -f
}
fail() {
    echo "numavm guest: $*" > /dev/ttyS0
    say FAIL "$*"
    off
}

mode=oneshot thp_asked=
for arg in $(cat /proc/cmdline); do
    case $arg in
    numavm.mode=*) mode=${arg#numavm.mode=} ;;
    numavm.thp=*) thp_asked=${arg#numavm.thp=} ;;
    esac
done
thp_mode=/sys/kernel/mm/transparent_hugepage/enabled
if [ -n "$thp_asked" ]; then
    echo $thp_asked > $thp_mode || fail "cannot set transparent huge pages to $thp_asked"
fi
# The mode every job starts with (the one asked, or the kernel's): a job
# that changes it does not change it for the next one.
thp_job=
read modes < $thp_mode
case "$modes" in *"[always]"*) thp_job=always ;; *"[madvise]"*) thp_job=madvise ;; *"[never]"*) thp_job=never ;; esac
if [ $mode = pool ]; then mods="@MODULES_POOL@"; else mods="@MODULES_ONESHOT@"; fi
for m in $mods; do
    insmod /modules/$m.ko || fail "cannot load module $m"
done
if [ $mode = pool ]; then
    mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=512000 host /host ||
        fail "cannot mount the host share"
fi

run_job() {
    id=$1 nonce=$2 limit=$3 src=$4
    [ -z "$thp_job" ] || echo $thp_job > $thp_mode
    j=/jobs/$id
    r=$j/root
    mkdir -p $j
    if [ "$src" != $j/files ]; then
        cp -a "$src" $j/files || fail "cannot copy job $id from $src"
    fi
    mkdir -p $j/work $r
    mount -t overlay overlay -o lowerdir=/base,upperdir=$j/files,workdir=$j/work $r ||
        fail "cannot mount the overlay of job $id"
    mount -t proc proc $r/proc && mount -t sysfs sysfs $r/sys &&
        mount -t devtmpfs devtmpfs $r/dev && mkdir -p $r/dev/shm &&
        mount -t tmpfs -o mode=1777 shm $r/dev/shm || fail "cannot mount /proc /sys /dev for job $id"
    mkfifo $j/o $j/e
    cat $j/o >&4 &
    co=$!
    cat $j/e >&5 &
    ce=$!
    # Not a process group leader (children of init share its group), so
    # setsid makes this very process the leader of a new session.
    setsid chroot $r /.numavm/bin/env -i /.numavm/bin/sh /.numavm/job.sh >$j/o 2>$j/e </dev/null &
    pid=$!
    wd=
    if [ "$limit" -gt 0 ]; then
        setsid sh -c "sleep $limit; touch $j/timedout; kill -KILL -$pid" >/dev/null 2>&1 &
        wd=$!
    fi
    say START $id
    wait $pid
    st=$?
    # The command is over (paced emulation stops here, not after the clean-up below).
    say EXITED $id
    if [ -n "$wd" ]; then
        kill -KILL -$wd 2>/dev/null
        # Reaped now, not while the control loop sits in `read`.
        wait $wd 2>/dev/null
    fi
    # Whatever the command left running in its session dies with it.
    kill -KILL -$pid 2>/dev/null
    wait $co
    wait $ce
    printf 'NUMAVM-END-%s' $nonce >&4
    printf 'NUMAVM-END-%s' $nonce >&5
    drain /dev/ttyS1 /dev/ttyS2
    to=0
    [ -e $j/timedout ] && to=1
    for m in $r/dev/shm $r/dev $r/sys $r/proc $r; do umount -l $m 2>/dev/null; done
    rm -rf $j
    say DONE $id $st $to
}

if [ $mode = pool ]; then
    say READY
    # A serial port has no end of file; `read` fails only when a signal
    # (a reaped child) interrupts it, so failures are retried. Many in a row
    # mean something is broken: stop rather than spin.
    misses=0
    while [ $misses -lt 100 ]; do
        if ! read -r cmd id nonce limit <&3; then
            misses=$((misses + 1))
            continue
        fi
        misses=0
        case $cmd in
            RUN) run_job $id $nonce $limit /host/$id/files ;;
            QUIT) break ;;
        esac
    done
else
    read -r id nonce limit < /jobs/1/spec || fail "no job in the initramfs"
    hold=0
    for arg in $(cat /proc/cmdline); do
        case $arg in numavm.hold=1) hold=1 ;; esac
    done
    say READY
    # Held (emulated NUMA): the host resets the plugin's counts, then says GO;
    # after DONE it reads them, then says GO again before the power-off.
    wait_host() { [ $hold = 1 ] || return 0; n=0; until read -r go <&3 || [ $n -ge 100 ]; do n=$((n + 1)); done; }
    wait_host
    run_job $id $nonce $limit /jobs/$id/files
    wait_host
fi
off
""".replace("@MODULES_POOL@", " ".join(MODULES_POOL)).replace("@MODULES_ONESHOT@", " ".join(MODULES_ONESHOT))
