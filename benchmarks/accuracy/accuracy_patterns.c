/* accuracy_patterns.c: access patterns with known references per thread, to set each counter source's TNT beside the emulator's ground truth. */
#include <dlfcn.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Usage: accuracy-patterns MODE [MiB [iterations [seconds]]] [--hints]
 *
 * One buffer of MiB, split into one block per thread. A first region
 * first-touches it (thread t the block t, except `hot`), then one region runs
 * `iterations` times (and on until `seconds` have passed, for sources that
 * sample by time):
 *   local    thread t sweeps block t                    (all its references local)
 *   shifted  thread t sweeps block (t+1) mod n          (all on its neighbour's node)
 *   shared   every thread reads the whole buffer        (spread like the buffer's pages)
 *   hot      thread 0 first-touches everything; thread t sweeps block t (all on node 0)
 *   random   every thread reads random lines of the whole buffer (spread like the pages)
 * Run with OMP_PROC_BIND=close so that thread t's node, hence first touch, is fixed.
 * The buffer is an anonymous mapping (what the pagefault source tracks by
 * default) in small pages (MADV_NOHUGEPAGE), so first touch places each page,
 * not 2 MiB at a time.
 *
 * --hints registers the buffer with ompnuma and attaches to each thread what it
 * reads. One range has one owner (attaching a range again replaces it), so a
 * thread that reads the whole buffer (shared, random) gets slice t of every
 * block: every node's pages in the proportion it reads them.
 *
 * Prints a checksum line, "Time in seconds = X" and "Verification = SUCCESSFUL"
 * when every thread's result of the first execution equals the serial one. */

enum mode { LOCAL, SHIFTED, SHARED, HOT, RANDOM };
static const char *const names[] = {"local", "shifted", "shared", "hot", "random"};

typedef int (*register_fn)(void *, size_t);
typedef int (*attach_fn)(void *, size_t, int);

static void block(size_t n, int b, int nt, size_t *lo, size_t *hi)
{
    size_t q = n / (size_t)nt;
    *lo = (size_t)b * q;
    *hi = b == nt - 1 ? n : *lo + q;
}

/* xorshift64: a fixed random sequence per thread, the same on every run. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* What thread t computes in one execution of the iterated region over a (of n
 * doubles): a sum, so that shared and random read without writing (their
 * pages stay where first touch put them). */
static double work(enum mode m, double *a, size_t n, int t, int nt, int it)
{
    size_t lo, hi;
    double s = 0;
    switch (m) {
    case LOCAL:
    case HOT:
    case SHIFTED:
        block(n, m == SHIFTED ? (t + 1) % nt : t, nt, &lo, &hi);
        for (size_t i = lo; i < hi; i++)
            a[i] = a[i] * 0.5 + 1.0, s += a[i];
        return s;
    case SHARED:
        for (size_t i = 0; i < n; i++)
            s += a[i];
        return s;
    case RANDOM: {
        uint64_t x = 0x9e3779b97f4a7c15ull ^ ((uint64_t)(t + 1) << 32) ^ (uint64_t)it;
        size_t lines = n / 8, reads = lines / (size_t)nt;
        for (size_t r = 0; r < reads; r++)
            s += a[(next(&x) % lines) * 8];
        return s;
    }
    }
    return s;
}

int main(int argc, char **argv)
{
    int hints = 0, pos = 0, m = -1;
    const char *arg[4] = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--hints") == 0)
            hints = 1;
        else if (pos < 4)
            arg[pos++] = argv[i];
        else
            pos = 5;
    }
    for (int k = 0; arg[0] && k < 5; k++)
        if (strcmp(arg[0], names[k]) == 0)
            m = k;
    long mib = arg[1] ? strtol(arg[1], NULL, 10) : 16;
    long iters = arg[2] ? strtol(arg[2], NULL, 10) : 8;
    double secs = arg[3] ? strtod(arg[3], NULL) : 0;
    if (m < 0 || pos > 4 || mib < 1 || mib > 4096 || iters < 1 || !(secs >= 0 && secs <= 3600)) {
        fprintf(stderr, "usage: accuracy-patterns local|shifted|shared|hot|random [MiB [iterations [seconds]]] "
                        "[--hints]\n");
        return 2;
    }
    register_fn reg = NULL;
    attach_fn attach = NULL;
    if (hints) {
        /* Under ompnuma's drop-in the API is loaded with the runtime; nothing else provides it. */
        *(void **)&reg = dlsym(RTLD_DEFAULT, "omp_numa_register");
        *(void **)&attach = dlsym(RTLD_DEFAULT, "omp_numa_attach");
        if (!reg || !attach) {
            fprintf(stderr, "accuracy-patterns: --hints needs omp_numa_register and omp_numa_attach "
                            "(run on ompnuma's drop-in)\n");
            return 2;
        }
    }
    size_t bytes = (size_t)mib << 20, n = bytes / sizeof(double);
    double *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED) {
        perror("accuracy-patterns: mmap");
        return 1;
    }
    madvise(a, bytes, MADV_NOHUGEPAGE);
    if (reg && reg(a, bytes) != 0) {
        perror("accuracy-patterns: omp_numa_register");
        return 1;
    }
    int nt = 1, failed = 0;
#pragma omp parallel
    {
        int t = omp_get_thread_num();
#pragma omp single
        nt = omp_get_num_threads();
        size_t lo, hi;
        if (m == HOT)
            lo = 0, hi = t == 0 ? n : 0;
        else
            block(n, t, nt, &lo, &hi);
        for (size_t i = lo; i < hi; i++)
            a[i] = (double)(i % 1000);
        if (attach) {
            size_t alo, ahi;
            int rc = 0;
            if (m == SHARED || m == RANDOM) {
                for (int b = 0; b < nt; b++) {
                    size_t blo, bhi;
                    block(n, b, nt, &blo, &bhi);
                    block(bhi - blo, t, nt, &alo, &ahi);
                    rc |= attach(a + blo + alo, (ahi - alo) * sizeof *a, t);
                }
            } else {
                block(n, m == SHIFTED ? (t + 1) % nt : t, nt, &alo, &ahi);
                rc = attach(a + alo, (ahi - alo) * sizeof *a, t);
            }
            if (rc) {
#pragma omp atomic write
                failed = 1;
            }
        }
    }
    if (failed) {
        fprintf(stderr, "accuracy-patterns: omp_numa_attach failed\n");
        return 1;
    }
    /* Per thread: the sum of every execution, and of the first (verified below). */
    double *sums = calloc(2 * (size_t)nt, sizeof *sums), *first = sums + nt;
    if (!sums) {
        perror("accuracy-patterns: calloc");
        return 1;
    }
    double t0 = omp_get_wtime();
    long it = 0;
    while (it < iters || omp_get_wtime() - t0 < secs) {
#pragma omp parallel
        {
            int t = omp_get_thread_num();
            double s = work((enum mode)m, a, n, t, omp_get_num_threads(), (int)(it % iters));
            sums[t] += s;
            if (it == 0)
                first[t] = s;
        }
        it++;
    }
    double elapsed = omp_get_wtime() - t0;
    /* The first execution again, serially, on a fresh copy of the buffer: one
     * execution, not all, because the emulator makes every one slow. */
    double *b = malloc(bytes), total = 0;
    int ok = b != NULL;
    for (size_t i = 0; ok && i < n; i++)
        b[i] = (double)(i % 1000);
    for (int t = 0; ok && t < nt; t++)
        ok = work((enum mode)m, b, n, t, nt, 0) == first[t];
    for (int t = 0; t < nt; t++)
        total += sums[t];
    printf("accuracy-patterns %s: %d threads, %ld MiB, %ld executions, checksum %.6e\n", names[m], nt, mib, it,
           total);
    printf("Time in seconds = %.6f\n", elapsed);
    printf("Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    free(b);
    free(sums);
    munmap(a, bytes);
    return ok ? 0 : 1;
}
