// A gcc program using the predefined allocators (directly, as the default
// allocator, through calloc, aligned allocation and realloc) gets usable
// memory on the libgomp.so.1 drop-in as on libgomp, and no "OMP: Warning
// #190 ... not available" line per allocation, which libgomp never prints
// (the LLVM runtime without libmemkind serves them all from the default
// allocator). omp_get_default_allocator still answers what was set.
// REQUIRES: gcc
// RUN: %gcc-omp %s -o %t
// RUN: %stock %t > %t.stock 2> %t.stock.err
// RUN: %dropin %t > %t.dropin 2> %t.err
// RUN: diff %t.stock %t.dropin
// RUN: diff %t.stock.err %t.err
// RUN: FileCheck %s < %t.dropin
// CHECK-COUNT-8: allocator {{[1-8]}}: alloc ok, default ok, calloc zeroed, aligned ok, realloc kept
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    const omp_allocator_handle_t all[] = {omp_default_mem_alloc, omp_large_cap_mem_alloc, omp_const_mem_alloc,
                                          omp_high_bw_mem_alloc, omp_low_lat_mem_alloc, omp_cgroup_mem_alloc,
                                          omp_pteam_mem_alloc, omp_thread_mem_alloc};
    for (int i = 0; i < 8; i++) {
        omp_allocator_handle_t a = all[i];
        char *p = omp_alloc(64, a);
        int alloc_ok = p != NULL;
        if (p)
            memset(p, 1, 64);
        omp_free(p, a);

        omp_set_default_allocator(a);
        char *d = omp_alloc(64, omp_null_allocator);
        int default_ok = d != NULL && omp_get_default_allocator() == a;
        omp_free(d, omp_null_allocator);
        omp_set_default_allocator(omp_default_mem_alloc);

        unsigned char *c = omp_calloc(16, 4, a);
        int zeroed = c != NULL;
        for (int k = 0; c && k < 64; k++)
            zeroed &= c[k] == 0;
        void *al = omp_aligned_alloc(256, 100, a);
        int aligned = al != NULL && (uintptr_t)al % 256 == 0;
        omp_free(al, a);
        c = omp_realloc(c, 128, a, a);
        int kept = c != NULL && c[63] == 0;
        omp_free(c, a);
        printf("allocator %d: alloc %s, default %s, calloc %s, aligned %s, realloc %s\n", (int)a,
               alloc_ok ? "ok" : "FAILED", default_ok ? "ok" : "FAILED", zeroed ? "zeroed" : "NOT zeroed",
               aligned ? "ok" : "FAILED", kept ? "kept" : "LOST");
    }
    return 0;
}
