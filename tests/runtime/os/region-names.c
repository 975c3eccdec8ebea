// Regions are named from the ELF symbol table, not as binary+offset, though
// the functions are not exported: a static function, main, and the function
// gcc or clang outlines for the enclosing region of a nested one; their
// file:line comes from the debug information. Without symbols and debug
// information (stripped) the name falls back to binary+offset, no line.
// REQUIRES: clang, gcc
// RUN: %gcc-omp %s -o %t.gcc
// RUN: %clang-omp %s -o %t.clang
// RUN: cp %t.clang %t.stripped && strip %t.stripped
// RUN: for exe in %t.gcc %t.clang %t.stripped; do \
// RUN:   rm -f $exe.json; env OMP_PLACEMENT_REPORT=$exe.json %dropin $exe > /dev/null || exit 1; done
// RUN: %python %S/Inputs/print-names.py %t.gcc.json | FileCheck %s
// RUN: %python %S/Inputs/print-names.py %t.clang.json | FileCheck %s
// RUN: %python %S/Inputs/print-names.py %t.stripped.json | FileCheck %s --check-prefix=STRIPPED
// RUN: nm -D %t.clang | FileCheck %s --check-prefix=NOT-EXPORTED
// NOT-EXPORTED-NOT: sum_to
// STRIPPED-COUNT-3: region-names.c.tmp.stripped+0x{{[0-9a-f]+}} None
#include <omp.h>
#include <stdio.h>

static __attribute__((noinline)) long sum_to(int n)
{
    long s = 0;
// CHECK: sum_to+0x{{[0-9a-f]+}} region-names.c:[[@LINE+1]]
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

int main(void)
{
    long t = 0;
    omp_set_max_active_levels(2);
    for (int k = 0; k < 2; k++) {
        t += sum_to(100);
// CHECK-NEXT: main+0x{{[0-9a-f]+}} region-names.c:[[@LINE+1]]
#pragma omp parallel num_threads(2) reduction(+ : t)
        {
// CHECK-NEXT: {{main\._omp_fn\.[0-9]+|main\.omp_outlined}}+0x{{[0-9a-f]+}} region-names.c:[[@LINE+1]]
#pragma omp parallel num_threads(2) reduction(+ : t)
            t += 1;
        }
    }
    printf("t=%ld\n", t);
    return 0;
}
