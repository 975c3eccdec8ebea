// Tasks, taskwait, taskgroup and depend clauses give the same results on the
// stock runtimes and on ompnuma's drop-in, for clang and gcc programs.
// REQUIRES: clang, gcc
// RUN: %clang-omp %s -o %t.clang
// RUN: %stock %t.clang > %t.clang.stock
// RUN: %dropin env OMP_PLACEMENT_DISPLAY_ENV=true %t.clang > %t.clang.dropin 2> %t.clang.err
// RUN: diff %t.clang.stock %t.clang.dropin
// RUN: FileCheck %s < %t.clang.dropin
// RUN: FileCheck %s --check-prefix=LOADED < %t.clang.err
// RUN: %gcc-omp %s -o %t.gcc
// RUN: %stock %t.gcc > %t.gcc.stock
// RUN: %dropin env OMP_PLACEMENT_DISPLAY_ENV=true %t.gcc > %t.gcc.dropin 2> %t.gcc.err
// RUN: diff %t.gcc.stock %t.gcc.dropin
// RUN: FileCheck %s < %t.gcc.dropin
// RUN: FileCheck %s --check-prefix=LOADED < %t.gcc.err
//
// CHECK: fib(20)=6765
// CHECK-NEXT: chain=abcdefgh
// CHECK-NEXT: taskgroup=45
// CHECK-NEXT: taskloop=4950
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
#include <omp.h>
#include <stdio.h>

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a) if (n > 10)
    a = fib(n - 1);
#pragma omp task shared(b) if (n > 10)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    long f = 0;
#pragma omp parallel
#pragma omp single
    f = fib(20);
    printf("fib(20)=%ld\n", f);

    /* Each task appends after its predecessor: the depend chain orders them. */
    char chain[9] = {0};
    int pos = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 8; i++) {
#pragma omp task depend(inout : pos) firstprivate(i) shared(chain, pos)
        chain[pos++] = (char)('a' + i);
    }
    printf("chain=%s\n", chain);

    int total = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        for (int i = 0; i < 10; i++) {
#pragma omp task firstprivate(i) shared(total)
            {
#pragma omp atomic
                total += i;
            }
        }
    }
    printf("taskgroup=%d\n", total);

    long tl = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+ : tl) grainsize(10)
    for (int i = 0; i < 100; i++)
        tl += i;
    printf("taskloop=%ld\n", tl);
    return 0;
}
