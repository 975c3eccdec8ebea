/* nested_trace.c: where the threads of nested teams run, execution by execution: two teams of two
 * (the shape of Nested-STREAM on two nodes), each sweeping its own vectors; for every execution, each
 * inner thread's CPU when its chunk starts and ends and the time its chunk took. It tells a slow
 * execution's cause: a thread that changed CPU (the kernel moved it, maybe to the other node, away
 * from the vectors its team first-touched), or a thread that waited.
 *
 * usage: nested-trace [ELEMENTS_PER_TEAM [EXECUTIONS]]   (defaults 200000 and 16)
 * Prints one line per team and execution, then a summary; exit status 2 on bad arguments. */
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { TEAMS = 2, INNER = 2, MAX_EXECUTIONS = 4096 };

typedef struct chunk {
    double start, work; /* seconds since the first execution, seconds */
    int    cpu0, cpu1;  /* at its start and its end */
} chunk_t;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long arg(const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "nested-trace: \"%s\" is not a number from %ld to %ld\n", s, lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    const size_t n = argc > 1 ? (size_t)arg(argv[1], INNER, 1L << 30) : 200000;
    const int K = argc > 2 ? (int)arg(argv[2], 1, MAX_EXECUTIONS) : 16;
    static double took[TEAMS][MAX_EXECUTIONS];
    static chunk_t ch[TEAMS][MAX_EXECUTIONS][INNER];
    int bad = 0;
    omp_set_max_active_levels(2);
    const double t0 = now();
#pragma omp parallel num_threads(TEAMS) reduction(| : bad)
    {
        const int t = omp_get_thread_num();
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        if (!a || !b || omp_get_num_threads() != TEAMS) {
            bad = 1;
        } else {
            /* The team's vectors, first-touched by its own threads. */
#pragma omp parallel for schedule(static) num_threads(INNER)
            for (size_t i = 0; i < n; i++)
                a[i] = 1.0, b[i] = 2.0;
            for (int k = 0; k < K; k++) {
                const double start = now();
#pragma omp parallel num_threads(INNER)
                {
                    chunk_t *c = &ch[t][k][omp_get_thread_num() % INNER];
                    c->cpu0 = sched_getcpu();
                    c->start = now() - t0;
#pragma omp for schedule(static) nowait
                    for (size_t i = 0; i < n; i++)
                        a[i] = 0.5 * a[i] + b[i];
                    c->work = now() - t0 - c->start;
                    c->cpu1 = sched_getcpu();
                }
                took[t][k] = now() - start;
            }
            /* a converges to 4: a_k = 4 - 3 / 2^k */
            for (size_t i = 0; i < n; i++)
                bad |= a[i] < 1.0 || a[i] > 4.0;
        }
        free(a);
        free(b);
    }
    if (bad) {
        fprintf(stderr, "nested-trace: no memory, no nesting, or a wrong result\n");
        return 1;
    }
    double fastest = 1e300, slowest = 0;
    int moved = 0;
    for (int t = 0; t < TEAMS; t++)
        for (int k = 0; k < K; k++) {
            printf("team %d execution %d: %.3f s", t, k, took[t][k]);
            int changed = 0;
            for (int j = 0; j < INNER; j++) {
                const chunk_t *c = &ch[t][k][j];
                int prev = k > 0 ? ch[t][k - 1][j].cpu1 : c->cpu0;
                changed |= c->cpu0 != prev || c->cpu1 != c->cpu0;
                printf(" | thread %d cpu %d->%d work %.3f s", j, c->cpu0, c->cpu1, c->work);
            }
            printf("%s\n", changed ? " | changed CPU" : "");
            moved += changed;
            fastest = took[t][k] < fastest ? took[t][k] : fastest;
            slowest = took[t][k] > slowest ? took[t][k] : slowest;
        }
    printf("nested-trace: %d teams x %d threads, %zu elements a team, %d executions; %d changed CPU; "
           "slowest / fastest %.2f\n", TEAMS, INNER, n, K, moved, slowest / fastest);
    return 0;
}
