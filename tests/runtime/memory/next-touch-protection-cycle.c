// Next touch: arming protects the pages (PROT_NONE), the first access faults, the pager restores access and moves the page; every byte survives, for reads and for writes.
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t && %t | FileCheck %s
#include "memtest.h"
#include "rt_fault.h"
#include "rt_mem.h"
#include <unistd.h>

int main(void)
{
    size_t ps = (size_t)sysconf(_SC_PAGESIZE), n = 32 * ps;
    unsigned char *p = rt_mem_alloc(n, OMP_NUMA_FIRST_TOUCH, -1);
    mt_fill(p, n, 1);
    rt_fault_stats_t f0, f1;
    rt_mem_stats_t s;
    rt_fault_get_stats(&f0);
    EXPECT_OK("arm", rt_mem_migrate_on_next_touch(p, n));
    printf("page 0 after arming: %s\n", mt_prot(p));
    volatile unsigned char c = p[5];   /* read fault */
    (void)c;
    printf("page 0 after a read: %s\n", mt_prot(p));
    printf("page 1 still armed: %s\n", mt_prot(p + ps));
    ((volatile unsigned char *)p)[ps + 7] += 0;   /* write fault */
    printf("page 1 after a write: %s\n", mt_prot(p + ps));
    printf("data: %s\n", mt_verify(p, n, 1) ? "intact" : "CORRUPT");
    rt_fault_get_stats(&f1);
    rt_mem_get_stats(&s);
    /* mt_verify touched the other 30 pages: 32 faults in all. */
    printf("faults resolved: %llu\n", (unsigned long long)(f1.resolved - f0.resolved));
    printf("pager faults: %llu, pages not moved: %llu\n", (unsigned long long)s.nt_faults,
           (unsigned long long)s.nt_failed);
    printf("forwarded: %llu\n", (unsigned long long)(f1.forwarded - f0.forwarded));
    printf("all accessible: %s\n", strcmp(mt_prot(p + n - 1), "rw-p") == 0 ? "yes" : "no");

    /* Armed again: the new arming takes over the same pages. */
    EXPECT_OK("re-arm", rt_mem_migrate_on_next_touch(p, n));
    EXPECT_OK("re-arm part", rt_mem_migrate_on_next_touch(p + 4 * ps, 4 * ps));
    printf("data after re-arming: %s\n", mt_verify(p, n, 1) ? "intact" : "CORRUPT");
    rt_mem_get_stats(&s);
    printf("pager faults: %llu\n", (unsigned long long)s.nt_faults);
    EXPECT_ERR("arm unknown", rt_mem_migrate_on_next_touch(&c, 1), -1, EINVAL);
    EXPECT_ERR("arm size 0", rt_mem_migrate_on_next_touch(p, 0), -1, EINVAL);
    rt_mem_free(p);
    return 0;
}
// CHECK: arm: ok
// CHECK-NEXT: page 0 after arming: ---p
// CHECK-NEXT: page 0 after a read: rw-p
// CHECK-NEXT: page 1 still armed: ---p
// CHECK-NEXT: page 1 after a write: rw-p
// CHECK-NEXT: data: intact
// CHECK-NEXT: faults resolved: 32
// CHECK-NEXT: pager faults: 32, pages not moved: 0
// CHECK-NEXT: forwarded: 0
// CHECK-NEXT: all accessible: yes
// CHECK-NEXT: re-arm: ok
// CHECK-NEXT: re-arm part: ok
// CHECK-NEXT: data after re-arming: intact
// CHECK-NEXT: pager faults: 64
// CHECK-NEXT: arm unknown: ok
// CHECK-NEXT: arm size 0: ok
