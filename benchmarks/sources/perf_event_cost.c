/* perf_event_cost.c: the per-thread cost of sampling one execution with a perf event: open + map + enable + disable + drain + unmap + close, against enable + disable + drain on an event kept open (the perf source's design). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_perf.h"

#define RING_PAGES 16

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500;
    if (n < 1 || n > 100000) {
        fprintf(stderr, "usage: perf-event-cost [ITERATIONS 1..100000]\n");
        return 2;
    }
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_PAGE_FAULTS;
    a.sample_period = 1;
    a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU;
    a.disabled = 1;
    a.exclude_kernel = 1;
    double *t_open = malloc((size_t)n * sizeof *t_open), *t_kept = malloc((size_t)n * sizeof *t_kept);
    rt_perf_stats_t st = {0};
    for (int i = 0; i < n; i++) {
        double t0 = now_us();
        int fd = rt_perf_open(&a, 0);
        rt_perf_ring_t ring;
        if (fd < 0 || rt_perf_ring_map(fd, RING_PAGES, &ring) != 0) {
            perror("perf_event_open");
            return 1;
        }
        rt_perf_enable(fd);
        rt_perf_disable(fd);
        rt_perf_ring_drain(&ring, a.sample_type, NULL, NULL, &st);
        rt_perf_ring_close(&ring);
        t_open[i] = now_us() - t0;
    }
    int fd = rt_perf_open(&a, 0);
    rt_perf_ring_t ring;
    if (fd < 0 || rt_perf_ring_map(fd, RING_PAGES, &ring) != 0)
        return 1;
    for (int i = 0; i < n; i++) {
        double t0 = now_us();
        rt_perf_enable(fd);
        rt_perf_disable(fd);
        rt_perf_ring_drain(&ring, a.sample_type, NULL, NULL, &st);
        t_kept[i] = now_us() - t0;
    }
    rt_perf_ring_close(&ring);
    qsort(t_open, (size_t)n, sizeof *t_open, cmp);
    qsort(t_kept, (size_t)n, sizeof *t_kept, cmp);
    printf("per thread and sampled execution, %d runs, software page-fault event, %d-page ring:\n", n, RING_PAGES);
    printf("  opened each time: median %.1f us, min %.1f us\n", t_open[n / 2], t_open[0]);
    printf("  kept open:        median %.1f us, min %.1f us\n", t_kept[n / 2], t_kept[0]);
    free(t_open);
    free(t_kept);
    return 0;
}
