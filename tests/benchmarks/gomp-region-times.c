// gomp-region-times.so times each GOMP_parallel call (fork, each team thread's body, join) on whichever runtime
// answers it, GNU libgomp or the drop-in facade, and reports one line per call at exit: a team of 2 whose thread
// 1 sleeps 30 ms, a nested call inside a team of 1, and a team of 3.
// REQUIRES: gcc
// RUN: %gcc-omp %s -o %t
// RUN: %stock OMP_NUM_THREADS=2 LD_PRELOAD=%builddir/share/ompnuma/gomp-region-times.so %t 2>&1 | FileCheck %s
// RUN: %dropin OMP_NUM_THREADS=2 LD_PRELOAD=%builddir/share/ompnuma/gomp-region-times.so %t 2>&1 | FileCheck %s
// CHECK: program done
// CHECK-NEXT: gomp-region-times: 4 GOMP_parallel calls
// CHECK-NEXT: call 0: at {{[0-9.]+}} threads 2 | t0 fork {{[0-9.]+}} body {{[0-9.]+}} | t1 fork {{[0-9.]+}} body {{0\.0[3-9][0-9]*|0\.[1-9][0-9]*|[1-9][0-9.]*}} | join {{[0-9.]+}} total {{0\.0[3-9][0-9]*|0\.[1-9][0-9]*|[1-9][0-9.]*}}{{$}}
// CHECK-NEXT: call 1: at {{[0-9.]+}} threads 1 | t0 fork {{[0-9.]+}} body {{[0-9.]+}} | join {{[0-9.]+}} total {{[0-9.]+}}{{$}}
// CHECK-NEXT: call 2: at {{[0-9.]+}} threads 2 | t0 fork
// CHECK-NEXT: call 3: at {{[0-9.]+}} threads 3 | t0 fork {{.*}} | t1 fork {{.*}} | t2 fork {{.*}} | join
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        if (omp_get_thread_num() == 1)
            usleep(30000);
        sum += 1;
    }
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(1) reduction(+ : sum)
    {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        sum += 1;
    }
#pragma omp parallel num_threads(3) reduction(+ : sum)
    sum += 1;
    printf("sum %d\n", sum);
    fputs("program done\n", stderr);
    return sum == 7 ? 0 : 1;
}
