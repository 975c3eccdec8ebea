// exit() called inside a parallel region, by the primary or by a worker: the
// report is still written (once, complete and valid), and the exit status is
// the program's.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: rm -f %t.p.json %t.w.json
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.p.json %t 0; test $? = 3
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.w.json %t 1; test $? = 3
// RUN: %python -c "import json,sys; [print(len(json.load(open(f))['regions']) >= 1) for f in sys.argv[1:]]" %t.p.json %t.w.json | FileCheck %s
// RUN: %ompnuma report --validate %t.p.json
// CHECK: True
// CHECK-NEXT: True
#include <omp.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int who = argc > 1 ? atoi(argv[1]) : 0;
    for (int e = 0; e < 3; e++) {
#pragma omp parallel num_threads(2)
        if (e == 2 && omp_get_thread_num() == who)
            exit(3);
    }
    return 0;
}
