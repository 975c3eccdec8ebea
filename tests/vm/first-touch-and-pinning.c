// first-touch-and-pinning.c: in a 2x2 guest, OpenMP threads bound to CPUs 0 and 2 run there, and first touch puts each one's pages on its node.
// The basis of the memory and placement tests: real kernel placement, queried with move_pages.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -o %t
// RUN: %numa-vm-run(2x2) --env OMP_NUM_THREADS=2 --env OMP_PLACES='{0},{2}' --env OMP_PROC_BIND=true -- %t | FileCheck %s
// CHECK-DAG: thread 0 cpu 0 node 0 pages 256 on-own-node 256
// CHECK-DAG: thread 1 cpu 2 node 1 pages 256 on-own-node 256
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { PAGES = 256 };

int main(void) {
  long page = sysconf(_SC_PAGESIZE);
  size_t bytes = PAGES * (size_t)page;
  char *buf[2];
  for (int t = 0; t < 2; t++) {
    buf[t] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf[t] == MAP_FAILED) { perror("mmap"); return 1; }
    // Huge pages would be placed whole by whichever thread touched first.
    if (madvise(buf[t], bytes, MADV_NOHUGEPAGE) != 0) { perror("madvise"); return 1; }
  }
  int failed = 0;
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    memset(buf[t], t + 1, bytes);  // first touch, by this thread only
    unsigned cpu = 0, node = 0;
    if (getcpu(&cpu, &node) != 0) failed = 1;
    void *pages[PAGES];
    int status[PAGES];
    for (int i = 0; i < PAGES; i++) pages[i] = buf[t] + i * page;
    // nodes == NULL: query where each page is, move nothing.
    if (syscall(SYS_move_pages, 0, PAGES, pages, NULL, status, 0) != 0) failed = 1;
    int mine = 0;
    for (int i = 0; i < PAGES; i++) mine += status[i] == (int)node;
#pragma omp critical
    printf("thread %d cpu %u node %u pages %d on-own-node %d\n", t, cpu, node, PAGES, mine);
  }
  return failed;
}
