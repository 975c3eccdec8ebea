// `task detach(event)` in gcc programs on the libgomp drop-in: gcc hands GOMP_task the event variable to fill, which
// the LLVM runtime's GOMP_task ignores (the handle stayed garbage and omp_fulfill_event crashed inside libomp). The
// drop-in creates such a task through the runtime's own detach support. Cases of GCC's testsuite (task-detach-1, -2,
// -5): chains of detached tasks fulfilled by later tasks, on 2 threads and on 1; each thread's own chain, untied; a
// task that depends (depend out) on a detached one runs only once its event is fulfilled; an undeferred (if(0))
// detached task fulfilled in its body. Same output as on GCC's own libgomp.
// REQUIRES: gcc
// RUN: %gcc-omp %s -o %t
// RUN: env -u LD_LIBRARY_PATH %t > %t.libgomp
// RUN: %dropin timeout 60 %t > %t.dropin
// RUN: diff %t.libgomp %t.dropin
// RUN: FileCheck %s < %t.dropin
// CHECK: chain 2 threads: x 1 y 1 z 1
// CHECK-NEXT: chain 1 thread: x 1 y 1 z 1
// CHECK-NEXT: per thread, untied: x 3 y 3 z 3 of 3
// CHECK-NEXT: dependent task after the fulfilment: yes
// CHECK-NEXT: undeferred: done 1
#include <omp.h>
#include <stdio.h>

static void chain(int threads)
{
    int x = 0, y = 0, z = 0;
    omp_event_handle_t e1, e2;
#pragma omp parallel num_threads(threads)
#pragma omp single
    {
#pragma omp task detach(e1)
        x++;
#pragma omp task detach(e2)
        {
            y++;
            omp_fulfill_event(e1);
        }
#pragma omp task
        {
            z++;
            omp_fulfill_event(e2);
        }
    }
    printf("chain %d thread%s: x %d y %d z %d\n", threads, threads > 1 ? "s" : "", x, y, z);
}

static void per_thread(void)
{
    int x = 0, y = 0, z = 0, n = 0;
    omp_event_handle_t e1, e2;
#pragma omp parallel num_threads(3) firstprivate(e1, e2)
    {
#pragma omp single
        n = omp_get_num_threads();
#pragma omp task detach(e1) untied
#pragma omp atomic update
        x++;
#pragma omp task detach(e2) untied
        {
#pragma omp atomic update
            y++;
            omp_fulfill_event(e1);
        }
#pragma omp task untied
        {
#pragma omp atomic update
            z++;
            omp_fulfill_event(e2);
        }
    }
    printf("per thread, untied: x %d y %d z %d of %d\n", x, y, z, n);
}

static void dependent(void)
{
    int a = 0, fulfilled = 0, seen = -1;
    omp_event_handle_t e;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task detach(e) depend(out : a) shared(a)
        a = 1;
#pragma omp task depend(in : a) shared(fulfilled, seen)
        {
#pragma omp atomic read
            seen = fulfilled;
        }
#pragma omp task shared(fulfilled)
        {
#pragma omp atomic write
            fulfilled = 1;
            omp_fulfill_event(e);
        }
    }
    printf("dependent task after the fulfilment: %s\n", seen == 1 ? "yes" : "no");
}

static void undeferred(void)
{
    int done = 0;
    omp_event_handle_t e;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task detach(e) if (0) shared(done)
        {
            done++;
            omp_fulfill_event(e);
        }
    }
    printf("undeferred: done %d\n", done);
}

int main(void)
{
    chain(2);
    chain(1);
    per_thread();
    dependent();
    undeferred();
    return 0;
}
