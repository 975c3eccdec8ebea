/* cmd_topo.c: `ompnuma topo`: the topology model, distances, NUMA factor, and what each counter source can do here. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "rt_affinity.h"
#include "rt_counters.h"
#include "rt_perf.h"
#include "rt_settings.h"
#include "rt_topology.h"
#include "rt_util.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ompnuma topo [--topology SPEC] [--format text|json]\n"
            "\n"
            "Shows the NUMA topology ompnuma sees (this machine, or SPEC: an hwloc synthetic\n"
            "string, an hwloc XML file, or nodes=N,cores=C[,factor=F]), its distance matrix\n"
            "and NUMA factor, whether pins apply, and which counter sources work here.\n");
}

static void print_text(const rt_topo_t *t)
{
    printf("topology: %s\n", t->origin);
    printf("nodes: %d, cpus: %d, this system: %s\n", t->nnodes, t->ncpus, t->this_system ? "yes" : "no");
    for (int n = 0; n < t->nnodes; n++) {
        printf("node %d (os %d): %d cpus [", n, t->os_index[n], t->capacity[n]);
        for (int c = 0; c < t->capacity[n]; c++)
            printf("%s%d", c ? "," : "", t->cpus[n][c]);
        printf("], %.1f MiB\n", (double)t->memory[n] / (1024.0 * 1024.0));
    }
    printf("distances%s:\n", t->distances_known ? "" : " (not reported; assumed)");
    for (int i = 0; i < t->nnodes; i++) {
        printf(" ");
        for (int j = 0; j < t->nnodes; j++)
            printf(" %5.1f", t->distance[i * t->nnodes + j]);
        printf("\n");
    }
    printf("numa factor: %.2f\n", t->numa_factor);
    printf("pins: %s\n", rt_affinity_mode());
    printf("counter sources:\n");
    for (int s = RT_SOURCE_PERF; s < RT_SOURCE_COUNT; s++)
        printf("  %-14s %s\n", rt_source_name((rt_source_t)s),
               rt_counters_reason(s)[0] ? rt_counters_reason(s) : "available");
    char perf[512];
    rt_perf_describe(perf, sizeof perf);
    printf("perf here: %s\n", perf);
}

static void print_json(const rt_topo_t *t)
{
    printf("{\"origin\":");
    rt_json_string(stdout, t->origin);
    printf(",\"nodes\":%d,\"cpus\":%d,\"this_system\":%s,\"cpus_per_node\":[", t->nnodes, t->ncpus,
           t->this_system ? "true" : "false");
    for (int n = 0; n < t->nnodes; n++) {
        printf("%s[", n ? "," : "");
        for (int c = 0; c < t->capacity[n]; c++)
            printf("%s%d", c ? "," : "", t->cpus[n][c]);
        printf("]");
    }
    printf("],\"distances\":[");
    for (int i = 0; i < t->nnodes; i++) {
        printf("%s[", i ? "," : "");
        for (int j = 0; j < t->nnodes; j++)
            printf("%s%g", j ? "," : "", t->distance[i * t->nnodes + j]);
        printf("]");
    }
    printf("],\"numa_factor\":%.4g,\"pins\":", t->numa_factor);
    rt_json_string(stdout, rt_affinity_mode());
    printf(",\"sources\":{");
    for (int s = RT_SOURCE_PERF; s < RT_SOURCE_COUNT; s++) {
        printf("%s\"%s\":", s > RT_SOURCE_PERF ? "," : "", rt_source_name((rt_source_t)s));
        if (rt_counters_reason(s)[0])
            rt_json_string(stdout, rt_counters_reason(s));
        else
            printf("null");
    }
    char perf[512];
    rt_perf_describe(perf, sizeof perf);
    printf("},\"perf\":");
    rt_json_string(stdout, perf);
    printf("}\n");
}

int ompnuma_cmd_topo(int argc, char **argv)
{
    static const struct option options[] = {
        {"topology", required_argument, NULL, 't'},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *spec = NULL, *format = "text";
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "t:f:h", options, NULL)) != -1) {
        switch (c) {
        case 't': spec = optarg; break;
        case 'f': format = optarg; break;
        case 'h': usage(stdout); return 0;
        default:
            cmd_error("topo", "unknown option or missing value: %s", argv[optind - 1]);
            usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        cmd_error("topo", "unexpected argument \"%s\"", argv[optind]);
        usage(stderr);
        return 2;
    }
    if (strcmp(format, "text") && strcmp(format, "json")) {
        cmd_error("topo", "--format \"%s\" is not text or json", format);
        usage(stderr);
        return 2;
    }
    /* The same view the runtime takes at start-up, settings included. */
    rt_settings_init();
    rt_topo_t topo;
    if (cmd_load_topology("topo", spec, &topo) != 0)
        return 2;
    rt_machine_adopt(&topo, 0);
    rt_affinity_init();
    rt_counters_probe();
    if (!strcmp(format, "json"))
        print_json(&rt_mach->topo);
    else
        print_text(&rt_mach->topo);
    return 0;
}
