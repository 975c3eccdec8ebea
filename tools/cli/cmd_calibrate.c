/* cmd_calibrate.c: `ompnuma calibrate`: measure the memory cost model on this machine and cache it for omp_numa_cost_*. */
#include "cmd.h"
#include "rt_mem.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ompnuma calibrate [--show | --no-write]\n"
            "\n"
            "Measure the memory cost model used by omp_numa_cost_migrate and\n"
            "omp_numa_cost_access (migration a + b*pages, local latency and\n"
            "bandwidth) and write it to the per-machine cache, which programs\n"
            "then read at their first cost query instead of measuring.\n"
            "\n"
            "  --show      print the model programs would use now (the cache\n"
            "              when it matches this machine), write nothing\n"
            "  --no-write  measure and print, but do not write the cache\n"
            "  --help      this text\n"
            "\n"
            "Cache: $XDG_CACHE_HOME/ompnuma/memory-model-HOST (default ~/.cache).\n");
}

static void print_model(const rt_mem_model_t *m)
{
    double page = (double)rt_mem_page_size();
    printf("nodes            %d\n", rt_mem_num_nodes());
    printf("migration        %.1f + %.3f x pages us  (%.0f MB/s for large moves)%s\n", m->a_us, m->b_us,
           m->b_us > 0 ? page / m->b_us : 0.0,
           m->moved ? "" : "  [one node: per-page copy estimated from memcpy]");
    printf("MaMI (paper)     120.0 + 11.000 x pages us  (%.0f MB/s)\n", page / 11.0);
    printf("local latency    %.1f ns\n", m->lat_ns);
    printf("local read       %.0f MB/s\n", m->read_mbs);
    printf("local write      %.0f MB/s\n", m->write_mbs);
    printf("local memcpy     %.0f MB/s\n", m->memcpy_mbs);
    printf("source           %s\n", m->source);
}

int ompnuma_cmd_calibrate(int argc, char **argv)
{
    int show = 0, write = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--show")) {
            show = 1;
        } else if (!strcmp(argv[i], "--no-write")) {
            write = 0;
        } else {
            fprintf(stderr, "ompnuma calibrate: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    rt_mem_model_t m;
    char path[4096];
    int have_path = rt_mem_cache_path(path, sizeof path) == 0;
    if (show) {
        if (rt_mem_model(&m) != 0) {
            fprintf(stderr, "ompnuma calibrate: %s\n", strerror(errno));
            return 1;
        }
        print_model(&m);
        if (have_path)
            printf("cache            %s\n", path);
        return 0;
    }
    if (rt_mem_calibrate(&m) != 0) {
        fprintf(stderr, "ompnuma calibrate: measurement failed: %s\n", strerror(errno));
        return 1;
    }
    print_model(&m);
    if (!write)
        return 0;
    if (!have_path || rt_mem_cache_write(&m) != 0) {
        fprintf(stderr, "ompnuma calibrate: cannot write the cache%s%s: %s\n", have_path ? " " : "",
                have_path ? path : "", strerror(errno));
        return 1;
    }
    printf("written to       %s\n", path);
    return 0;
}
