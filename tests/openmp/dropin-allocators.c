// OpenMP 5 allocators: omp_alloc/omp_free with the predefined allocators and a
// custom one from omp_init_allocator (through gcc these are the OMP_5.0.1 entry
// points the libgomp.so.1 facade forwards) behave the same on stock and drop-in.
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
// CHECK: default: ok sum=4950
// CHECK-NEXT: custom: allocator!=null aligned64=1 sum=4950
// CHECK-NEXT: fallback null: too_big=null
// CHECK-NEXT: default_allocator_roundtrip=1
// CHECK-NEXT: supported_active_levels>=1: 1
// LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

static long fill_and_sum(int *p)
{
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 100; i++) {
        p[i] = i;
        s += p[i];
    }
    return s;
}

int main(void)
{
    int *a = omp_alloc(100 * sizeof(int), omp_default_mem_alloc);
    printf("default: %s sum=%ld\n", a ? "ok" : "null", a ? fill_and_sum(a) : -1L);
    omp_free(a, omp_default_mem_alloc);

    omp_alloctrait_t traits[] = {{omp_atk_alignment, 64}, {omp_atk_fallback, omp_atv_null_fb},
                                 {omp_atk_pool_size, 1 << 20}};
    omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 3, traits);
    int *b = omp_alloc(100 * sizeof(int), al);
    printf("custom: allocator%s aligned64=%d sum=%ld\n", al != omp_null_allocator ? "!=null" : "=null",
           b && ((uintptr_t)b % 64) == 0, b ? fill_and_sum(b) : -1L);
    omp_free(b, al);
    void *big = omp_alloc((size_t)2 << 20, al); /* larger than the pool: null fallback */
    printf("fallback null: too_big=%s\n", big ? "allocated" : "null");
    omp_free(big, al);
    omp_destroy_allocator(al);

    omp_set_default_allocator(omp_low_lat_mem_alloc);
    int rt = omp_get_default_allocator() == omp_low_lat_mem_alloc;
    omp_set_default_allocator(omp_default_mem_alloc);
    printf("default_allocator_roundtrip=%d\n", rt);
    printf("supported_active_levels>=1: %d\n", omp_get_supported_active_levels() >= 1);
    return 0;
}
