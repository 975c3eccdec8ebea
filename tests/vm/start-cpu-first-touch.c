// start-cpu-first-touch.c: `ompnuma vm --start-cpu CPU` execs the command on that CPU, keeps it there while the
// loader runs and gives it every CPU back at the program's entry point (or before, at the first system call that
// could see them: tests/tools/start-on-constructors-see-cpus.c): the pages the exec and the loader
// first-touch (the main stack, a library's data, the initial thread's TLS block) are on that CPU's node in every
// run, and the program may run on every CPU, as without the option. Without it, the kernel's exec balancing picks
// the CPU: in the paced 4-node VM the primary's stack, heap and libraries' data landed on nodes 0 to 3 from run to
// run. Released at the exec instead of the entry, the loader ran wherever the scheduler put it next (CI, 4x1:
// libc data on node 2 once). A CPU the guest lacks is refused with one line, status 2.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -o %t
// RUN: %numa-vm-run(2x1) --start-cpu 0 -- %t | FileCheck %s --check-prefix=ZERO
// RUN: %numa-vm-run(2x1) --start-cpu 1 -- %t | FileCheck %s --check-prefix=ONE
// RUN: %numa-vm-run(4x1) --start-cpu 3 -- %t | FileCheck %s --check-prefix=THREE
// RUN: sh -c '%numa-vm-run(2x1) --start-cpu 2 -- %t 2> %t.err; echo "exit $? lines $(wc -l < %t.err)"; cat %t.err' | FileCheck %s --check-prefix=BAD
// ZERO: stack on node 0, libc data on node 0, may run on 0-1
// ONE: stack on node 1, libc data on node 1, may run on 0-1
// THREE: stack on node 3, libc data on node 3, may run on 0-3
// BAD:      exit 2 lines 1
// BAD-NEXT: ompnuma vm: --start-cpu 2: the guest has CPUs 0..1
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The node holding the page of p (move_pages, no move), or -1. */
static int node_of(const void *p)
{
    void *page = (void *)((uintptr_t)p & ~(uintptr_t)4095);
    int status = -1;
    if (syscall(SYS_move_pages, 0, 1, &page, NULL, &status, 0) != 0)
        return -1;
    return status;
}

int main(void)
{
    char allowed[256] = "?";
    FILE *f = fopen("/proc/self/status", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Cpus_allowed_list:", 18))
            sscanf(line + 18, " %255s", allowed);
    if (f)
        fclose(f);
    int here = 0;
    /* errno lives in libc's writable data (thread-local, in the initial thread's block the loader set up). */
    printf("stack on node %d, libc data on node %d, may run on %s\n", node_of(&here), node_of(&errno), allowed);
    return 0;
}
