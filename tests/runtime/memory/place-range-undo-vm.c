// The program's own memory placed for it and put back: rt_mem_place_range moves the present pages of a range to a node (untouched pages stay untouched), rt_mem_spread_range spreads them over nodes (by pages, or by 2 MiB units when transparent huge pages back the range) and sets an interleave policy, and rt_mem_undo_range puts every page back on its node and the default policy back; data intact; memory the program placed itself, or allocated through the API, is refused with EPERM. Checked page by page with move_pages queries.
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t
// RUN: %numa-vm-run(2x1) --file %t -- sh -c "echo always > /sys/kernel/mm/transparent_hugepage/enabled && %t" | FileCheck %s
#define _GNU_SOURCE
#include <errno.h>
#include <numaif.h>
#include <sched.h>
#include <sys/mman.h>

#include "rt_mem.h"
#include "vmpages.h"

static size_t ps;

static void count(const char *what, const void *p, size_t npages)
{
    int *st = malloc(sizeof *st * npages);
    vm_nodes(p, npages, st);
    size_t on[2] = {0, 0}, absent = 0;
    for (size_t i = 0; i < npages; i++) {
        if (st[i] == 0 || st[i] == 1)
            on[st[i]]++;
        else
            absent++;
    }
    int mode = -1;
    get_mempolicy(&mode, NULL, 0, (void *)p, MPOL_F_ADDR);
    printf("%s: node 0 %zu, node 1 %zu, absent %zu, policy %s\n", what, on[0], on[1], absent,
           mode == MPOL_INTERLEAVE ? "interleave" : mode == MPOL_DEFAULT ? "default" : "other");
    free(st);
}

static uint64_t sum(const unsigned char *p, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s = s * 31 + p[i];
    return s;
}

int main(void)
{
    ps = (size_t)sysconf(_SC_PAGESIZE);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof one, &one); /* first touch on node 0 */

    /* 4 MiB of small pages, the first 3 MiB touched. */
    size_t n = 4u << 20, np = n / ps;
    unsigned char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    madvise(p, n, MADV_NOHUGEPAGE);
    for (size_t i = 0; i < 3 * n / 4; i++)
        p[i] = (unsigned char)(i * 7);
    uint64_t before = sum(p, n);
    count("touched", p, np);
    // CHECK: touched: node 0 768, node 1 0, absent 256, policy default

    rt_mem_undo_t u;
    int rc = rt_mem_place_range((uintptr_t)p, (uintptr_t)p + n, 1, &u);
    printf("place: rc %d moved %llu failed %llu\n", rc, (unsigned long long)u.moved, (unsigned long long)u.failed);
    // CHECK-NEXT: place: rc 0 moved 768 failed 0
    count("placed", p, np);
    // CHECK-NEXT: placed: node 0 0, node 1 768, absent 256, policy default
    rc = rt_mem_undo_range(&u);
    printf("undo: rc %d back %llu\n", rc, (unsigned long long)u.back);
    // CHECK-NEXT: undo: rc 0 back 768
    count("undone", p, np);
    // CHECK-NEXT: undone: node 0 768, node 1 0, absent 256, policy default
    rt_mem_undo_free(&u);

    int both[2] = {0, 1};
    rc = rt_mem_spread_range((uintptr_t)p, (uintptr_t)p + n, both, 2, &u);
    printf("spread: rc %d moved %llu\n", rc, (unsigned long long)u.moved);
    // CHECK-NEXT: spread: rc 0 moved 384
    count("spread", p, np);
    // CHECK-NEXT: spread: node 0 384, node 1 384, absent 256, policy interleave
    rt_mem_undo_range(&u);
    rt_mem_undo_free(&u);
    count("spread undone", p, np);
    // CHECK-NEXT: spread undone: node 0 768, node 1 0, absent 256, policy default
    printf("data %s\n", sum(p, n) == before ? "intact" : "CORRUPT");
    // CHECK-NEXT: data intact

    /* 16 MiB on 2 MiB boundaries with transparent huge pages (on in this guest, see RUN): spread by
     * 2 MiB units. */
    size_t h = 16u << 20, hp = h / ps;
    unsigned char *raw = mmap(NULL, h + (2u << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *q = (unsigned char *)(((uintptr_t)raw + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
    madvise(q, h, MADV_HUGEPAGE);
    memset(q, 3, h);
    rc = rt_mem_spread_range((uintptr_t)q, (uintptr_t)q + h, both, 2, &u);
    int *st = malloc(sizeof *st * hp);
    vm_nodes(q, hp, st);
    int units_whole = 1, alternate = 1;
    for (size_t k = 0; k < 8; k++) {
        for (size_t i = 0; i < 512; i++)
            units_whole &= st[k * 512 + i] == st[k * 512];
        alternate &= st[k * 512] == (int)(((uintptr_t)q / (2u << 20) + k) % 2);
    }
    printf("huge: rc %d, each 2 MiB on one node %d, alternating %d\n", rc, units_whole, alternate);
    // CHECK-NEXT: huge: rc 0, each 2 MiB on one node 1, alternating 1
    rt_mem_undo_range(&u);
    rt_mem_undo_free(&u);
    printf("huge undone: on node 0 %zu of %zu\n", vm_count_on(q, hp, 0), hp);
    // CHECK-NEXT: huge undone: on node 0 4096 of 4096

    /* A range that does not start on a huge page (fresh huge pages: a move may split them): the moves
     * go by batches of small pages, and a huge page across two batches moves whole with the first;
     * every page of it still counts, and goes back. */
    unsigned char *raw2 = mmap(NULL, h + (2u << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *q2 = (unsigned char *)(((uintptr_t)raw2 + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
    madvise(q2, h, MADV_HUGEPAGE);
    memset(q2, 5, h);
    uintptr_t lo = (uintptr_t)q2 + (1u << 20), hi = (uintptr_t)q2 + (15u << 20);
    printf("unaligned: huge pages %d\n", vm_thp_kb(q2, h) > 0);
    // CHECK-NEXT: unaligned: huge pages 1
    rc = rt_mem_place_range(lo, hi, 1, &u);
    printf("unaligned: rc %d moved %llu of %zu\n", rc, (unsigned long long)u.moved, (size_t)((hi - lo) / ps));
    // CHECK-NEXT: unaligned: rc 0 moved 3584 of 3584
    rt_mem_undo_range(&u);
    rt_mem_undo_free(&u);
    printf("unaligned undone: on node 0 %zu of %zu\n", vm_count_on(q2, hp, 0), hp);
    // CHECK-NEXT: unaligned undone: on node 0 4096 of 4096

    /* The program's own policy, and the API's memory: refused. */
    unsigned long mask = 1;
    mbind(p, n, MPOL_BIND, &mask, 2, 0);
    rc = rt_mem_place_range((uintptr_t)p, (uintptr_t)p + n, 1, &u);
    printf("own policy: rc %d errno %s\n", rc, errno == EPERM ? "EPERM" : strerror(errno));
    // CHECK-NEXT: own policy: rc -1 errno EPERM
    rt_mem_undo_free(&u);
    void *api = rt_mem_alloc(n, RT_MEM_FIRST_TOUCH, -1);
    rc = rt_mem_place_range((uintptr_t)api, (uintptr_t)api + n, 1, &u);
    printf("api memory: rc %d errno %s\n", rc, errno == EPERM ? "EPERM" : strerror(errno));
    // CHECK-NEXT: api memory: rc -1 errno EPERM
    rt_mem_undo_free(&u);
    return 0;
}
