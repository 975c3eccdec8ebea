// stale-shm-replaced.c: a row left by a killed run (dead creator, another job's token, wrong size or garbage) is detected and replaced; a live row of the same job is not; the sweep removes rows of dead hosts' keys only.
// RUN: %clang-omp -I%srcroot/runtime/os %srcroot/runtime/os/rt_mpishm.c %s -o %t && %t | FileCheck %s
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rt_mpishm.h"

/* The runtime's convention: a failed call returns -1 and says why in errno. */
#define FAILS_WITH(call, e) ((call) == -1 && errno == (e))

/* A pid that existed and is gone: a child that has been reaped. */
static int dead_pid(void)
{
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    waitpid(p, NULL, 0);
    return (int)p;
}

int main(void)
{
    char name[128];
    int dead = dead_pid();
    rt_mpishm_name(name, sizeof name, dead, 0);
    shm_unlink(name);
    // A killed run: the child creates the row and dies without unlinking it.
    pid_t p = fork();
    if (p == 0) {
        rt_mpi_row_t *r;
        int rep;
        _exit(rt_mpishm_create(name, 0, 4, 77, &r, &rep) ? 1 : 0);
    }
    int st;
    waitpid(p, &st, 0);
    printf("child created: %d\n", WIFEXITED(st) && WEXITSTATUS(st) == 0);
    // CHECK: child created: 1
    rt_mpi_row_t *row = NULL;
    int replaced = -1;
    int rc = rt_mpishm_create(name, 0, 4, 77, &row, &replaced);
    printf("same token, dead creator: rc %d replaced %d mine %d\n", rc, replaced,
           row && row->creator_pid == getpid());
    // CHECK-NEXT: same token, dead creator: rc 0 replaced 1 mine 1
    atomic_fetch_add(&row->cell[2].bytes, 5);
    // A live row of this job under the same name is a conflict, not a stale object.
    rt_mpi_row_t *again = NULL;
    printf("live row of this job: %d\n", FAILS_WITH(rt_mpishm_create(name, 0, 4, 77, &again, &replaced), EEXIST));
    // CHECK-NEXT: live row of this job: 1
    // The mapper opens it only with the job's token and size.
    rt_mpi_row_t *seen = NULL;
    printf("open: %d", rt_mpishm_open(name, 4, 77, &seen));
    printf(" %d", FAILS_WITH(rt_mpishm_open(name, 4, 78, &again), EPROTO));
    printf(" %d\n", FAILS_WITH(rt_mpishm_open(name, 5, 77, &again), EPROTO));
    // CHECK-NEXT: open: 0 1 1
    printf("shared: %llu\n", (unsigned long long)atomic_load(&seen->cell[2].bytes));
    // CHECK-NEXT: shared: 5
    rt_mpishm_unmap(seen, 4);
    // Another job (token) under the same name while its creator is alive: still ours to replace,
    // the name holds our host key, so a live row of another token can only be left over.
    rc = rt_mpishm_create(name, 0, 4, 99, &again, &replaced);
    printf("other token: rc %d replaced %d\n", rc, replaced);
    // CHECK-NEXT: other token: rc 0 replaced 1
    rt_mpishm_unmap(again, 4);
    rt_mpishm_unmap(row, 4);
    shm_unlink(name);
    // Garbage of the wrong size under the name.
    int fd = shm_open(name, O_RDWR | O_CREAT, 0600);
    ssize_t w = write(fd, "garbage", 7);
    close(fd);
    rc = rt_mpishm_create(name, 0, 4, 77, &row, &replaced);
    printf("garbage (%zd bytes): rc %d replaced %d zeroed %d\n", w, rc, replaced,
           row && atomic_load(&row->cell[2].bytes) == 0 && atomic_load(&row->node) == -1);
    // CHECK-NEXT: garbage (7 bytes): rc 0 replaced 1 zeroed 1
    rt_mpishm_unmap(row, 4);
    // The sweep: rows whose key is a dead pid go, rows under a live key (ours) stay.
    char live[128];
    rt_mpishm_name(live, sizeof live, getpid(), 3);
    rt_mpishm_create(live, 3, 4, 1, &row, &replaced);
    int swept = rt_mpishm_sweep();
    int dead_gone = shm_open(name, O_RDONLY, 0) < 0 && errno == ENOENT;
    int live_kept = shm_open(live, O_RDONLY, 0) >= 0;
    printf("sweep: removed >= 1: %d, dead key gone %d, live key kept %d\n", swept >= 1, dead_gone, live_kept);
    // CHECK-NEXT: sweep: removed >= 1: 1, dead key gone 1, live key kept 1
    rt_mpishm_unmap(row, 4);
    shm_unlink(live);
    // Bad arguments.
    printf("bad: %d", FAILS_WITH(rt_mpishm_create(NULL, 0, 4, 1, &row, NULL), EINVAL));
    printf(" %d", FAILS_WITH(rt_mpishm_create(live, 4, 4, 1, &row, NULL), EINVAL));
    printf(" %d\n", FAILS_WITH(rt_mpishm_open(live, 4, 1, &row), ENOENT));
    // CHECK-NEXT: bad: 1 1 1
    return 0;
}
