// procfs-anon-pages.c: rt_procfs_anon_pages, what the MPI mapper prices a rank's memory move by, counts a process's resident anonymous pages (statm's resident less its shared): 8 MiB touched add 2048 pages of 4 KiB, a file mapped and read adds none; another live process's count is readable, a dead one's is -1 with ESRCH.
// RUN: %clang-omp %s %rt-internals -o %t && %t | FileCheck %s
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rt_procfs.h"

#define MIB8 (8u << 20)

int main(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    int64_t before = rt_procfs_anon_pages(0);
    char *buf = mmap(NULL, MIB8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(buf, MIB8, MADV_NOHUGEPAGE);
    memset(buf, 1, MIB8);
    int64_t after = rt_procfs_anon_pages(0);
    /* Other allocations may come and go meanwhile (stdio's): a few pages. */
    int64_t added = after - before, want = (int64_t)(MIB8 / pg);
    printf("anonymous pages added by 8 MiB: %s\n", added >= want && added < want + 64 ? "all" : "wrong");
    // CHECK: anonymous pages added by 8 MiB: all
    int fd = open("/proc/self/exe", O_RDONLY);
    off_t size = lseek(fd, 0, SEEK_END);
    volatile const char *f = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    char sum = 0;
    for (off_t o = 0; o < size; o += pg)
        sum += f[o];
    int64_t mapped = rt_procfs_anon_pages(0);
    printf("a file read: %s\n", mapped - after < 16 ? "not anonymous" : "counted");
    // CHECK-NEXT: a file read: not anonymous
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    int64_t other = rt_procfs_anon_pages(child);
    printf("another process: %s\n", other > 0 ? "counted" : "not read");
    // CHECK-NEXT: another process: counted
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    errno = 0;
    int64_t gone = rt_procfs_anon_pages(child);
    printf("a dead process: %lld %s\n", (long long)gone, strerror(errno));
    // CHECK-NEXT: a dead process: -1 No such process
    return sum == 127;
}
