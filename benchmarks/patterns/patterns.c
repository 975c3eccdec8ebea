/* patterns.c: placement-pattern benchmark: threads sweep blocks first-touched by another thread (swapped, shifted), by themselves (local) or by the primary in serial code (serial), or read a table every thread shares (shared, or interleaved over the nodes: its oracle); one region per iteration, all in one long region, or in nested teams. */
#include <errno.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_emu_mark.h"

/* Usage: patterns MODE [MiB [iterations]]
 *   local    thread t first-touches block t and sweeps it: nothing to gain by placement
 *   swapped  thread t first-touches block n-1-t and sweeps block t (the demo's pattern)
 *   shifted  thread t first-touches block t and sweeps block (t+1) mod n
 *   serial   the primary first-touches every block in serial code, then thread t sweeps block t
 *            (the common unmodified program: its data all on one node, which moving threads
 *            cannot fix when that node's cores are fewer than the threads)
 *   shared   the primary first-touches a lookup table in serial code, then every thread reads
 *            a 32nd of its entries at pseudo-random places per iteration (a cross-section
 *            lookup: shared and read-only; its place, not any thread's, decides)
 *   interleaved  shared with the table's pages interleaved over every node before the primary
 *            touches them: the best static placement of a table every thread reads, where no
 *            thread's references are all remote (shared's oracle, benchmarks/harness)
 * MODE-long (local-long, swapped-long, shifted-long, serial-long) runs every iteration
 * inside one parallel region, with a barrier between iterations: the shape
 * per-region placement cannot help (one execution) and online migration
 * (imar2) is for. Each thread sweeps its block in SLICES worksharing loops
 * per iteration, so the OMPT dispatch events a migration monitor weighs come
 * many times per sweep, not once.
 * MODE-nested (local-nested, swapped-nested, serial-nested, ...) is BT-MZ's shape: an outer
 * team that runs once, each of its threads running an inner team once per
 * iteration over its own zone (run with OMP_NUM_THREADS=Z,T and
 * OMP_MAX_ACTIVE_LEVELS=2); the blocks are numbered over all Z x T threads,
 * outer thread first, and first-touched the same way, so every inner team
 * has data of its own. Bind with OMP_PROC_BIND=spread,close.
 * Threads start bound in order (run with OMP_PROC_BIND=close), so first touch
 * is deterministic. Prints "Time in seconds = X" (the iterations, not the
 * first touch) and "Verification = SUCCESSFUL" when every element equals the
 * serial recurrence (shared: the table is unchanged and every thread's sums of
 * the last iteration equal a serial replay), as benchmarks/harness reads them.
 * For the emulated-NUMA plugin (tools/numavm), the first half of the
 * iterations runs under tag 1 and the second half under tag 2 (a no-op
 * instruction elsewhere): the remote share of the late iterations, once a
 * placement settled. */
static int owner_of(const char *mode, int t, int n)
{
    if (strcmp(mode, "swapped") == 0)
        return n - 1 - t;
    if (strcmp(mode, "shifted") == 0)
        return (t + n - 1) % n; /* block t is touched by t-1 and swept by t */
    return t;
}

/* serial, shared and interleaved: the primary first-touches the memory in serial code. */
static int touched_serially(const char *mode)
{
    return !strcmp(mode, "serial") || !strcmp(mode, "shared") || !strcmp(mode, "interleaved");
}

/* shared and interleaved: the threads read a table. */
static int reads_table(const char *mode)
{
    return !strcmp(mode, "shared") || !strcmp(mode, "interleaved");
}

/* interleaved: the pages of [p, p + bytes) go round-robin over every online
 * node at their first touch (MPOL_INTERLEAVE, Linux's mbind(2), without
 * libnuma). 0, or -1 with errno. */
static int interleave(void *p, size_t bytes)
{
    enum { MPOL_INTERLEAVE_ = 3, MAX_NODES = 1024 };
    unsigned long mask[MAX_NODES / (8 * sizeof(unsigned long))] = {0};
    FILE *f = fopen("/sys/devices/system/node/online", "r"); /* "0-3", "0,2-3" */
    if (!f)
        return -1;
    int lo, hi, c = ',', any = 0;
    while (c == ',' && fscanf(f, "%d", &lo) == 1) {
        hi = lo;
        if ((c = fgetc(f)) == '-' && fscanf(f, "%d", &hi) == 1)
            c = fgetc(f);
        for (int n = lo; n >= 0 && n <= hi && n < MAX_NODES; n++, any = 1)
            mask[n / (8 * sizeof *mask)] |= 1ul << (n % (8 * sizeof *mask));
    }
    fclose(f);
    if (!any) {
        errno = ENOENT;
        return -1;
    }
    /* maxnode counts one more than the bits the kernel reads. */
    return (int)syscall(SYS_mbind, p, bytes, MPOL_INTERLEAVE_, mask, (unsigned long)MAX_NODES + 1, 0u);
}

/* Worksharing loops per sweep in the long modes. */
enum { SLICES = 256 };

/* The emulator's tag of iteration it of iters (see the usage). */
static void tag_iteration(int it, int iters)
{
    rt_emu_mark_tag(it < iters / 2 ? 1 : 2);
}

/* shared: thread t's sum of iteration it, lookups places in the table of n
 * entries (a 64-bit generator per thread and iteration, the same in the
 * verification's replay). */
static double lookups(const double *table, size_t n, int t, int it, size_t count)
{
    uint64_t x = (uint64_t)(t + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(it + 1) * 0xc2b2ae3d27d4eb4full;
    double sum = 0;
    for (size_t k = 0; k < count; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        sum += table[x % n];
    }
    return sum;
}

/* One sweep step of elements [lo, hi): the recurrence the verification replays. */
static void sweep(double *a, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; i++)
        a[i] = a[i] * 0.999 + 0.25;
}

/* Block bounds of block b of nb over n elements (the last takes the rest). */
static void block(size_t n, int b, int nb, size_t *lo, size_t *hi)
{
    size_t blk = n / (size_t)nb;
    *lo = (size_t)b * blk;
    *hi = b == nb - 1 ? n : *lo + blk;
}

/* The iterations in one region: block b (its bounds as in the per-region
 * loop) is swept in SLICES static loops over the blocks, so thread b sweeps
 * block b, as there. */
static void sweep_long(double *a, size_t n, int iters)
{
#pragma omp parallel
    {
        int m = omp_get_num_threads();
        for (int it = 0; it < iters; it++) {
#pragma omp master
            tag_iteration(it, iters);
            for (int s = 0; s < SLICES; s++) {
#pragma omp for schedule(static) nowait
                for (int b = 0; b < m; b++) {
                    size_t lo, hi;
                    block(n, b, m, &lo, &hi);
                    size_t len = hi - lo;
                    sweep(a, lo + len * (size_t)s / SLICES, lo + len * (size_t)(s + 1) / SLICES);
                }
            }
#pragma omp barrier
        }
    }
    rt_emu_mark_tag(0);
}

/* An element's value before the first sweep: what the verification replays from. */
static double start_value(size_t i)
{
    return (double)(i % 1000) * 0.5;
}

/* Thread t of nb first-touches the blocks it owns under mode (serial,
 * shared and interleaved: none, the primary touches everything before). */
static void first_touch(const char *mode, double *a, size_t n, int t, int nb)
{
    if (touched_serially(mode))
        return;
    for (int b = 0; b < nb; b++) {
        size_t lo, hi;
        block(n, b, nb, &lo, &hi);
        for (size_t i = lo; owner_of(mode, b, nb) == t && i < hi; i++)
            a[i] = start_value(i);
    }
}

/* serial, shared and interleaved: the primary first-touches everything, in serial code. */
static void serial_touch(const char *mode, double *a, size_t n)
{
    if (touched_serially(mode))
        for (size_t i = 0; i < n; i++)
            a[i] = start_value(i);
}

/* One team: the first touch, then the iterations (a region each, or one long region). */
static int run_flat(const char *mode, double *a, size_t n, int iters, int one_region, double *secs, double *sums)
{
    int nt = 1, shared = reads_table(mode);
    serial_touch(mode, a, n);
#pragma omp parallel
    {
#pragma omp single
        nt = omp_get_num_threads();
        first_touch(mode, a, n, omp_get_thread_num(), nt);
    }
    double t0 = omp_get_wtime();
    if (one_region)
        sweep_long(a, n, iters);
    else
        for (int it = 0; it < iters; it++) {
            tag_iteration(it, iters);
#pragma omp parallel
            {
                int t = omp_get_thread_num();
                size_t lo, hi;
                if (shared) {
                    sums[t] = lookups(a, n, t, it, n / 32);
                } else {
                    block(n, t, omp_get_num_threads(), &lo, &hi);
                    sweep(a, lo, hi);
                }
            }
        }
    rt_emu_mark_tag(0);
    *secs = omp_get_wtime() - t0;
    return nt;
}

/* The nested shape: the first touch in nested teams as the sweeps run, then
 * one outer region whose threads run their inner team once per iteration. */
static int run_nested(const char *mode, double *a, size_t n, int iters, double *secs)
{
    int zones = 1, inner = 1;
#pragma omp parallel
    {
#pragma omp single
        zones = omp_get_num_threads();
#pragma omp parallel
        {
#pragma omp single
            if (omp_get_ancestor_thread_num(1) == 0)
                inner = omp_get_num_threads();
        }
    }
    int nb = zones * inner;
    serial_touch(mode, a, n);
#pragma omp parallel num_threads(zones)
#pragma omp parallel num_threads(inner)
    {
        first_touch(mode, a, n, omp_get_ancestor_thread_num(1) * inner + omp_get_thread_num(), nb);
    }
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(zones)
    {
        int z = omp_get_thread_num();
        for (int it = 0; it < iters; it++) {
            if (z == 0)
                tag_iteration(it, iters);
#pragma omp parallel num_threads(inner)
            {
                size_t lo, hi;
                block(n, z * inner + omp_get_thread_num(), nb, &lo, &hi);
                sweep(a, lo, hi);
            }
        }
    }
    rt_emu_mark_tag(0);
    *secs = omp_get_wtime() - t0;
    return nb;
}

int main(int argc, char **argv)
{
    char mode[16] = "";
    int one_region = 0, nested = 0;
    if (argc > 1 && strlen(argv[1]) < sizeof mode) {
        strcpy(mode, argv[1]);
        char *dash = strrchr(mode, '-');
        if (dash && (!strcmp(dash, "-long") || !strcmp(dash, "-nested"))) {
            one_region = !strcmp(dash, "-long");
            nested = !one_region;
            *dash = '\0';
        }
    }
    if ((strcmp(mode, "local") && strcmp(mode, "swapped") && strcmp(mode, "shifted") && strcmp(mode, "serial") &&
         !reads_table(mode)) || (reads_table(mode) && (one_region || nested))) {
        fprintf(stderr, "usage: patterns local|swapped|shifted|serial[-long|-nested] [MiB [iterations]]\n"
                        "       patterns shared|interleaved [MiB [iterations]]\n");
        return 2;
    }
    size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : 32;
    int iters = argc > 3 ? atoi(argv[3]) : 20;
    if (mib < 1 || iters < 1) {
        fprintf(stderr, "patterns: MiB and iterations must be positive\n");
        return 2;
    }
    size_t n = mib * 1024 * 1024 / sizeof(double);
    /* In small pages: with transparent huge pages on (Debian's guests:
     * always), a huge page across two blocks goes to whichever thread
     * touches it first, and `local` on 4 nodes was 19 % remote under off.
     * Aligning to 2 MiB was enough only for blocks of whole multiples of 2
     * MiB: `swapped-long 4 8` on 4 threads (1 MiB blocks) was still 78 %
     * remote under off and 49.5 % under the oracle. The advice is refused
     * where there are no huge pages, and nothing changes there. */
    double *a = NULL;
    if (posix_memalign((void **)&a, 2u << 20, n * sizeof *a) != 0) {
        fprintf(stderr, "patterns: out of memory\n");
        return 1;
    }
    madvise(a, n * sizeof *a, MADV_NOHUGEPAGE);
    if (!strcmp(mode, "interleaved") && interleave(a, n * sizeof *a) != 0) {
        fprintf(stderr, "patterns: cannot interleave the table over the nodes: %s\n", strerror(errno));
        return 1;
    }
    double secs = 0;
    int shared = reads_table(mode), threads = omp_get_max_threads();
    double *sums = calloc((size_t)threads, sizeof *sums);
    int nt = nested ? run_nested(mode, a, n, iters, &secs) : run_flat(mode, a, n, iters, one_region, &secs, sums);
    /* Every element went through the same recurrence from its start value
     * (shared: none did, and every thread's last sums replay serially). */
    int ok = sums != NULL;
    for (size_t i = 0; i < n && ok; i += 4099) {
        double v = start_value(i);
        for (int it = 0; it < iters && !shared; it++)
            v = v * 0.999 + 0.25;
        ok = a[i] == v;
    }
    for (int t = 0; shared && ok && t < nt && t < threads; t++)
        ok = sums[t] == lookups(a, n, t, iters - 1, n / 32);
    free(sums);
    printf("patterns %s%s: %d threads, %zu MiB, %d iterations\n", mode,
           one_region ? "-long" : nested ? "-nested" : "", nt, mib, iters);
    printf("Time in seconds = %.6f\n", secs);
    printf("Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    free(a);
    return ok ? 0 : 1;
}
