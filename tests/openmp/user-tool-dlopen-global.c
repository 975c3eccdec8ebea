// A tool in a library the program loads with dlopen(RTLD_GLOBAL) before its
// first OpenMP call comes after libomp in the lookup scope: stock libomp
// starts it, and so does the drop-in, chained behind ompnuma's tool.
// REQUIRES: clang
// RUN: %clang-omp -shared -fPIC %S/Inputs/user-tool.c -o %t.tool.so
// RUN: %clang-omp %s -o %t -ldl
// RUN: %stock %t %t.tool.so > %t.stock 2> %t.stock.err
// RUN: FileCheck %s --input-file %t.stock.err
// RUN: env OMP_PLACEMENT=critpath %dropin %t %t.tool.so > %t.dropin 2> %t.err
// RUN: diff %t.stock %t.dropin
// RUN: diff %t.stock.err %t.err
// CHECK: tool: initialize thread_begin=always parallel_begin=always
// CHECK: tool: finalize
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2 || !dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL))
        return 2;
    int n = 0;
#pragma omp parallel
#pragma omp atomic
    n++;
    printf("ran %d\n", n > 0);
    return 0;
}
