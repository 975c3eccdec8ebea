// private-resident.c: rt_procfs_private_resident counts this process's private resident pages (/proc/self/statm):
// 8 MiB of anonymous memory touched adds at least 2 048 pages, unmapped they are gone; a file mapping read (shared
// with the page cache) adds none of its pages.
// RUN: %clang-omp %s %rt-internals -o %t && %t %t | FileCheck %s
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt_procfs.h"

int main(int argc, char **argv)
{
    (void)argc;
    long page = sysconf(_SC_PAGESIZE);
    size_t bytes = 8u << 20;
    int64_t before = rt_procfs_private_resident();
    char *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED)
        return 1;
    memset(a, 1, bytes);
    int64_t touched = rt_procfs_private_resident();
    munmap(a, bytes);
    int64_t after = rt_procfs_private_resident();
    printf("known %d grew %d shrank %d\n", before >= 0, touched - before >= (int64_t)(bytes / (size_t)page),
           touched - after >= (int64_t)(bytes / (size_t)page));
    // CHECK: known 1 grew 1 shrank 1
    int fd = open(argv[1], O_RDONLY);
    off_t len = lseek(fd, 0, SEEK_END);
    const volatile char *f = mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (f == MAP_FAILED)
        return 1;
    int64_t mapped = rt_procfs_private_resident();
    unsigned sum = 0;
    for (off_t i = 0; i < len; i += page)
        sum += (unsigned char)f[i];
    int64_t read_all = rt_procfs_private_resident();
    printf("file pages private %d (%u)\n", read_all - mapped > len / page / 2, sum > 0);
    // CHECK: file pages private 0 ({{[01]}})
    return 0;
}
