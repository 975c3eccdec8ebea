/* memory_bench.c: memory-bench: throughput of omp_numa_migrate_to_node and of next-touch migration, small and huge pages, against memcpy and MaMI's 120 + 11 x pages us. */
#include <errno.h>
#include <omp_numa.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define HUGE_SZ (2u << 20)

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Pin the calling thread to the first CPU of node; returns 0 or -1. */
static int pin_to_node(int node)
{
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    for (int c = 0; c < ncpu; c++) {
        if (omp_numa_node_of_cpu(c) != node)
            continue;
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(c, &set);
        if (sched_setaffinity(0, sizeof set, &set) == 0)
            return 0;
    }
    return -1;
}

/* Transparent huge pages backing [p, p+len), in kB, from /proc/self/smaps. */
static long thp_kb(const void *p, size_t len)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    long kb = 0, v;
    int in = 0;
    uintptr_t a = (uintptr_t)p;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            in = lo < a + len && hi > a;
        else if (in && sscanf(line, "AnonHugePages: %ld kB", &v) == 1)
            kb += v;
    }
    if (f)
        fclose(f);
    return kb;
}

/* A buffer of len bytes on node src, small or huge pages, known to the manager. */
static unsigned char *make_buffer(size_t len, int huge, int src, void **map, size_t *maplen)
{
    *maplen = len + HUGE_SZ;
    unsigned char *m = mmap(NULL, *maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    *map = m;
    unsigned char *p = (unsigned char *)(((uintptr_t)m + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1));
    madvise(p, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    pin_to_node(src);
    for (size_t i = 0; i < len; i += 4096)
        p[i] = (unsigned char)(i >> 12);
    if (omp_numa_register(p, len) != 0 || omp_numa_migrate_to_node(p, len, src) != 0) {
        munmap(m, *maplen);
        return NULL;
    }
    return p;
}

static int check(const unsigned char *p, size_t len)
{
    for (size_t i = 0; i < len; i += 4096)
        if (p[i] != (unsigned char)(i >> 12))
            return 0;
    return 1;
}

static double best_of(double *t, int n)
{
    double b = t[0];
    for (int i = 1; i < n; i++)
        if (t[i] < b)
            b = t[i];
    return b;
}

typedef struct result {
    const char *what;
    const char *pages;
    double us;          /* best time for the whole buffer */
    double mbs;
    double us_per_page; /* per 4 KiB page */
    long thp_kb;
    int ok;
} result_t;

int main(int argc, char **argv)
{
    size_t mib = 64;
    int reps = 3, json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc)
            mib = strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--json"))
            json = 1;
        else {
            fprintf(stderr, "usage: memory-bench [--size MiB] [--reps N] [--json]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (mib < 2 || reps < 1 || reps > 100) {
        fprintf(stderr, "memory-bench: --size must be >= 2 MiB and --reps 1..100\n");
        return 2;
    }
    size_t len = mib << 20, pages = len / 4096;
    int nodes = omp_numa_num_nodes(), src = 0, dst = nodes > 1 ? 1 : 0;
    for (; dst < nodes && omp_numa_node_memory(dst, NULL, NULL) != 0; dst++)
        ;
    if (dst >= nodes)
        dst = 0;

    /* memcpy: the physical limit, measured now. */
    unsigned char *a = malloc(len), *b = malloc(len);
    memset(a, 1, len);
    memset(b, 2, len);
    double t[100];
    for (int r = 0; r < reps; r++) {
        double t0 = now_us();
        memcpy(b, a, len);
        t[r] = now_us() - t0;
    }
    __asm__ volatile("" ::"r"(b) : "memory");
    double memcpy_mbs = len / best_of(t, reps);
    free(a);
    free(b);

    result_t res[4];
    int nres = 0, fail = 0;
    for (int huge = 0; huge <= 1; huge++) {
        const char *pg = huge ? "huge" : "small";
        /* migrate_to_node: src -> dst, then back to src untimed. */
        void *map;
        size_t maplen;
        unsigned char *p = make_buffer(len, huge, src, &map, &maplen);
        if (!p) {
            fprintf(stderr, "memory-bench: buffer: %s\n", strerror(errno));
            return 1;
        }
        long thp = thp_kb(p, len);
        int ok = 1;
        for (int r = 0; r < reps; r++) {
            double t0 = now_us();
            ok &= omp_numa_migrate_to_node(p, len, dst) == 0;
            t[r] = now_us() - t0;
            ok &= omp_numa_migrate_to_node(p, len, src) == 0;
        }
        ok &= check(p, len);
        double bt = best_of(t, reps);
        res[nres++] = (result_t){ "migrate_to_node", pg, bt, len / bt, bt / pages, thp, ok };

        /* next touch: armed on src, touched from a thread pinned on dst. */
        ok = 1;
        for (int r = 0; r < reps; r++) {
            pin_to_node(src);
            ok &= omp_numa_migrate_to_node(p, len, src) == 0;
            ok &= omp_numa_migrate_on_next_touch(p, len) == 0;
            pin_to_node(dst);
            double t0 = now_us();
            for (size_t i = 0; i < len; i += 4096)
                ((volatile unsigned char *)p)[i] += 0;
            t[r] = now_us() - t0;
        }
        size_t per[1024] = { 0 };
        omp_numa_nodes_of(p, len, per);
        ok &= check(p, len) && per[dst] == pages;
        bt = best_of(t, reps);
        res[nres++] = (result_t){ "next_touch", pg, bt, len / bt, bt / pages, thp_kb(p, len), ok };
        omp_numa_unregister(p);
        munmap(map, maplen);
    }
    double mami_us = 120 + 11.0 * pages, model_us = omp_numa_cost_migrate(len, src, dst);

    if (json) {
        printf("{\"nodes\": %d, \"src\": %d, \"dst\": %d, \"bytes\": %zu, \"reps\": %d,\n", nodes, src, dst, len, reps);
        printf(" \"memcpy_mbs\": %.1f, \"mami_mbs\": %.1f, \"model_us\": %.1f,\n \"results\": [\n", memcpy_mbs,
               len / mami_us, model_us);
        for (int i = 0; i < nres; i++)
            printf("  {\"op\": \"%s\", \"pages\": \"%s\", \"us\": %.1f, \"mbs\": %.1f, \"us_per_page\": %.3f, "
                   "\"thp_kb\": %ld, \"ok\": %s}%s\n", res[i].what, res[i].pages, res[i].us, res[i].mbs,
                   res[i].us_per_page, res[i].thp_kb, res[i].ok ? "true" : "false", i + 1 < nres ? "," : "");
        printf(" ]}\n");
    } else {
        printf("memory-bench: %zu MiB, node %d -> node %d of %d, best of %d%s\n", mib, src, dst, nodes, reps,
               src == dst ? " (one node: no copy, the cost of the calls and faults alone)" : "");
        printf("%-16s %-6s %12s %10s %12s %10s %s\n", "operation", "pages", "time us", "MB/s", "us/4KiB", "THP kB",
               "data");
        for (int i = 0; i < nres; i++)
            printf("%-16s %-6s %12.1f %10.1f %12.3f %10ld %s\n", res[i].what, res[i].pages, res[i].us, res[i].mbs,
                   res[i].us_per_page, res[i].thp_kb, res[i].ok ? "ok" : "FAIL");
        printf("%-16s %-6s %12.1f %10.1f %12.3f\n", "memcpy", "-", len / memcpy_mbs, memcpy_mbs, len / memcpy_mbs / pages);
        printf("%-16s %-6s %12.1f %10.1f %12.3f\n", "MaMI 120+11p", "small", mami_us, len / mami_us, mami_us / pages);
        if (model_us >= 0)
            printf("%-16s %-6s %12.1f %10.1f %12.3f\n", "model a+b*p", "small", model_us,
                   model_us > 0 ? len / model_us : 0.0, model_us / pages);
    }
    for (int i = 0; i < nres; i++)
        fail |= !res[i].ok;
    return fail;
}
