// emu-kernel-copy-charged.c: with --charge-kernel the emulated-NUMA plugin counts the guest kernel's copies (process_vm_readv from a process on the other node) on the node of the pages, as it counts memcpy; without it the kernel's copy is free.
// 2x1 guest. The child, pinned to node 1, first-touches 8 MiB bound to
// node 1 and waits. The parent, pinned to node 0, reads them twice under
// tag 1 with process_vm_readv, 64 KiB at a time into one 64 KiB buffer that
// stays in the cache model: every line of the source misses on node 1 from
// vCPU 0, the destination hits. Tag 2 does the same with memcpy from a
// node-1 buffer of its own (user-mode accesses, counted either way). Open
// MPI's shared-memory transport copies messages this way (CMA), so a
// remote pair's messages cost nothing in the emulator without the option.
// Counts are asserted, never times.
// REQUIRES: numa-emu
// ALLOW_RETRIES: 2
// RUN: %clang-omp %emu-mark-include %s -o %t
// RUN: %numa-vm-run(2x1) --charge-kernel --counts %t.on.json -- %t > %t.on.expect
// RUN: %emu-counts check %t.on.json %t.on.expect --tolerance 0.05 | FileCheck %s --check-prefix=ON
// RUN: %numa-vm-run(2x1) --counts %t.off.json -- %t > %t.off.expect
// RUN: not %emu-counts check %t.off.json %t.off.expect --tolerance 0.05 | FileCheck %s --check-prefix=OFF-USER
// RUN: %emu-counts tags %t.off.json | FileCheck %s --check-prefix=OFF
// ON: tag 1: vcpu 0 node 1: ok
// ON: tag 2: vcpu 0 node 1: ok
// Without the option the kernel's copy is (nearly) free: under 1000 of the
// 262144 misses on node 1.
// OFF: tag 1 entered 1 misses {{\[\[}}{{[0-9]+}}, {{[0-9][0-9]?[0-9]?}}],
// OFF-USER: tag 2: vcpu 0 node 1: ok
#include "Inputs/emu_sweep.h" /* first: it asks for _GNU_SOURCE */

#include <signal.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define BYTES (8u << 20)
#define CHUNK (64u << 10)

int main(void)
{
    int to_parent[2];
    if (pipe(to_parent) != 0) {
        perror("pipe");
        return 1;
    }
    pid_t child = fork();
    if (child == 0) {
        emu_pin(1);
        char *src = emu_node_buffer(BYTES, 1);
        if (write(to_parent[1], &src, sizeof src) != sizeof src)
            _exit(1);
        pause();
        _exit(0);
    }
    emu_pin(0);
    char *theirs;
    if (read(to_parent[0], &theirs, sizeof theirs) != sizeof theirs) {
        fprintf(stderr, "the child did not start\n");
        return 1;
    }
    static char dst[CHUNK];
    memset(dst, 0, sizeof dst);
    rt_emu_mark_tag(1);
    for (int k = 0; k < 2; k++)
        for (size_t off = 0; off < BYTES; off += CHUNK) {
            struct iovec local = {dst, CHUNK}, remote = {theirs + off, CHUNK};
            if (process_vm_readv(child, &local, 1, &remote, 1, 0) != (ssize_t)CHUNK) {
                perror("process_vm_readv");
                return 1;
            }
        }
    rt_emu_mark_tag(0);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    char *mine = emu_node_buffer(BYTES, 1);
    rt_emu_mark_tag(2);
    for (int k = 0; k < 2; k++)
        for (size_t off = 0; off < BYTES; off += CHUNK)
            memcpy(dst, mine + off, CHUNK);
    rt_emu_mark_tag(0);
    if (dst[0] != 1)
        return 1;
    printf("expect tag 1 vcpu 0 node 1 lines %u\n", 2 * BYTES / EMU_LINE);
    printf("expect tag 2 vcpu 0 node 1 lines %u\n", 2 * BYTES / EMU_LINE);
    return 0;
}
