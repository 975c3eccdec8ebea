// gcc programs calling the deprecated omp_set_nested / omp_get_nested get
// libgomp's answers on the libgomp.so.1 drop-in and no "OMP: Info #276 ...
// deprecated" line, which libgomp never printed (LLVM prints one per call).
// REQUIRES: gcc
// RUN: %gcc-omp %s -o %t
// RUN: %stock %t > %t.stock 2> %t.stock.err
// RUN: %dropin %t > %t.dropin 2> %t.err
// RUN: diff %t.stock %t.dropin
// RUN: diff %t.stock.err %t.err
// RUN: FileCheck %s < %t.dropin
// CHECK: start nested=0 max_levels=1
// CHECK-NEXT: levels 3, nested on: nested=1 max_levels=supported
// CHECK-NEXT: nested off: nested=0 max_levels=1
// CHECK-NEXT: nested on: nested=1 max_levels=supported
// CHECK-NEXT: level 1 nested=1
// CHECK-NEXT: level 2 nested=0
#include <omp.h>
#include <stdio.h>

static const char *levels(void)
{
    int m = omp_get_max_active_levels();
    return m == omp_get_supported_active_levels() ? "supported" : m == 1 ? "1" : "other";
}

int main(void)
{
    printf("start nested=%d max_levels=%s\n", omp_get_nested(), levels());
    omp_set_max_active_levels(3);
    omp_set_nested(1);
    printf("levels 3, nested on: nested=%d max_levels=%s\n", omp_get_nested(), levels());
    omp_set_nested(0);
    printf("nested off: nested=%d max_levels=%s\n", omp_get_nested(), levels());
    omp_set_nested(1);
    printf("nested on: nested=%d max_levels=%s\n", omp_get_nested(), levels());
    /* Nested means: more levels allowed than are active. */
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
#pragma omp master
    {
        printf("level 1 nested=%d\n", omp_get_nested());
#pragma omp parallel num_threads(2)
#pragma omp master
        printf("level 2 nested=%d\n", omp_get_nested());
    }
    return 0;
}
