/* gomp_region_times.c: an LD_PRELOAD instrument for programs that fork their teams through GNU libgomp's
 * GOMP_parallel (the Debian applications): it times each call, each team thread's start and end of the outlined
 * body, and the return, on whichever runtime answers GOMP_parallel (GNU libgomp, LLVM's libomp, ompnuma's
 * facade), and writes one line per call to stderr at exit. It splits a gap between two runtimes into the
 * program's own work (body), the fork (call to each thread's start) and the join (the last body's end to the
 * return). Clock: CLOCK_MONOTONIC, which a paced guest of ompnuma's VM runs at model time.
 *
 * Records go to a fixed table (no allocation in the wrapper); calls past it, and threads past the first
 * GRT_THREADS of a team, are counted but not timed. Nested calls get records of their own. */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

enum { GRT_CALLS = 4096, GRT_THREADS = 8 };

typedef void (*grt_fn)(void *);

struct grt_call {
    double call, ret;
    unsigned threads;
    double start[GRT_THREADS], end[GRT_THREADS];
};

static struct grt_call calls[GRT_CALLS];
static atomic_uint ncalls;

int omp_get_thread_num(void);

static double grt_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct grt_body {
    grt_fn fn;
    void *data;
    struct grt_call *rec; /* NULL: past the table */
};

static void grt_run(void *p)
{
    const struct grt_body *b = p;
    int t = omp_get_thread_num();
    int timed = b->rec && t >= 0 && t < GRT_THREADS;
    if (timed)
        b->rec->start[t] = grt_now();
    b->fn(b->data);
    if (timed)
        b->rec->end[t] = grt_now();
}

__attribute__((visibility("default"))) void GOMP_parallel(grt_fn fn, void *data, unsigned num_threads,
                                                        unsigned flags)
{
    static void (*real)(grt_fn, void *, unsigned, unsigned);
    if (!real)
        real = (void (*)(grt_fn, void *, unsigned, unsigned))dlsym(RTLD_NEXT, "GOMP_parallel");
    unsigned i = atomic_fetch_add(&ncalls, 1);
    struct grt_body b = {fn, data, i < GRT_CALLS ? &calls[i] : NULL};
    if (b.rec)
        b.rec->call = grt_now();
    real(grt_run, &b, num_threads, flags);
    if (b.rec) {
        b.rec->ret = grt_now();
        b.rec->threads = 0;
        for (unsigned t = 0; t < GRT_THREADS; t++)
            if (b.rec->end[t] > 0)
                b.rec->threads = t + 1;
    }
}

__attribute__((destructor)) static void grt_report(void)
{
    unsigned n = atomic_load(&ncalls);
    FILE *out = fdopen(dup(STDERR_FILENO), "w");
    if (!out)
        return;
    fprintf(out, "gomp-region-times: %u GOMP_parallel calls%s\n", n, n > GRT_CALLS ? " (the first 4096 timed)" : "");
    for (unsigned i = 0; i < n && i < GRT_CALLS; i++) {
        const struct grt_call *c = &calls[i];
        double last = 0;
        fprintf(out, "call %u: at %.6f threads %u", i, c->call, c->threads);
        for (unsigned t = 0; t < c->threads; t++) {
            fprintf(out, " | t%u fork %.6f body %.6f", t, c->start[t] - c->call, c->end[t] - c->start[t]);
            if (c->end[t] > last)
                last = c->end[t];
        }
        fprintf(out, " | join %.6f total %.6f\n", c->threads ? c->ret - last : 0.0, c->ret - c->call);
    }
    fclose(out);
}
