// elfutils' libdw names regions (ELF symbols, file:line) and is loaded when a name is first asked
// for, not with the drop-in: a run that asks for none (no report, no verbose log) never maps it, and
// one that writes a report still names its region from the full symbol table (the static function
// below is not in the dynamic one), with its file:line. Loading it with the drop-in took 0.3 to 0.6 ms of every start.
// RUN: %clang-omp %s -o %t
// RUN: %dropin %t | FileCheck %s --check-prefix=QUIET
// RUN: rm -f %t.json && env OMP_PLACEMENT_REPORT=%t.json %dropin %t > /dev/null
// RUN: %python %S/Inputs/print-names.py %t.json | FileCheck %s --check-prefix=NAMED
// QUIET: libdw mapped at the end of main: no
// NAMED: sweep+0x{{[0-9a-f]+}} libdw-loaded-when-named.c:{{[0-9]+}}
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

static __attribute__((noinline)) double sweep(double *a, int n)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += a[i] = i * 0.5;
    return s;
}

int main(void)
{
    static double a[4096];
    double s = 0;
    for (int k = 0; k < 8; k++)
        s += sweep(a, 4096);
    printf("sum %g\n", s);
    printf("libdw mapped at the end of main: %s\n", dlopen("libdw.so.1", RTLD_LAZY | RTLD_NOLOAD) ? "yes" : "no");
    return 0;
}
