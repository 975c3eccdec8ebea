/* rt_report.c: write the exit report: JSON for tools, a short table for people. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_bubble.h"
#include "rt_counters.h"
#include "rt_data.h"
#include "rt_hints.h"
#include "rt_log.h"
#include "rt_loop.h"
#include "rt_monitor.h"
#include "rt_region.h"
#include "rt_report.h"
#include "rt_settings.h"
#include "rt_symbol.h"
#include "rt_topology.h"
#include "rt_util.h"

#define SCHEMA "ompnuma-report/1"

static void json_topology(FILE *f)
{
    const rt_topo_t *t = &rt_mach->topo;
    fprintf(f, "\"topology\":{\"origin\":");
    rt_json_string(f, t->origin);
    fprintf(f, ",\"nodes\":%d,\"cpus\":%d,\"this_system\":%s,\"cpus_per_node\":[", t->nnodes, t->ncpus,
            t->this_system ? "true" : "false");
    for (int n = 0; n < t->nnodes; n++) {
        fputs(n ? "," : "", f);
        rt_json_int_array(f, t->cpus[n], t->capacity[n]);
    }
    fprintf(f, "],\"memory_bytes\":");
    rt_json_u64_array(f, t->memory, t->nnodes);
    fprintf(f, ",\"distances\":[");
    for (int i = 0; i < t->nnodes; i++) {
        fputs(i ? ",[" : "[", f);
        for (int j = 0; j < t->nnodes; j++)
            fprintf(f, "%s%g", j ? "," : "", t->distance[i * t->nnodes + j]);
        fputc(']', f);
    }
    fprintf(f, "],\"distances_known\":%s,\"numa_factor\":%.4g}", t->distances_known ? "true" : "false",
            rt_mach->pl.numa_factor);
}

static void json_region(FILE *f, const rt_region_t *r)
{
    char addr[32];
    char *sym = rt_symbol_name(r->codeptr, 1); /* whole, however long */
    snprintf(addr, sizeof addr, "%p", r->codeptr);
    fprintf(f, "{\"id\":%d,\"codeptr\":", r->id);
    rt_json_string(f, addr);
    fprintf(f, ",\"symbol\":");
    rt_json_string(f, sym ? sym : addr);
    free(sym);
    char src[PATH_MAX + 16];
    fprintf(f, ",\"source\":");
    if (rt_symbol_source(r->codeptr, src, sizeof src) == 0)
        rt_json_string(f, src);
    else
        fputs("null", f);
    uint64_t timed = r->timed_executions;
    fprintf(f, ",\"parent\":%d,\"parent_thread\":%d,\"level\":%d,\"construct\":%s,\"team_size\":%d,"
            "\"executions\":%llu,\"timed_executions\":%llu,\"busy_ns\":[", r->parent_id, r->parent_index, r->level,
            r->construct ? "true" : "false", r->team_size, (unsigned long long)r->executions, (unsigned long long)timed);
    for (int i = 0; i < r->team_size; i++)
        fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)(timed ? r->busy_sum[i] / timed : 0));
    const rt_loop_region_t *l = rt_loop_of(r);
    fprintf(f, "],\"critical_path_ns\":{\"mean\":%.0f,\"min\":%llu,\"max\":%llu,\"before\":%.0f,\"after\":%.0f}",
            timed ? (double)r->cp_sum / (double)timed : 0.0,
            (unsigned long long)(timed ? r->cp_min : 0), (unsigned long long)r->cp_max,
            l->cp_before_ns, l->cp_after_ns);
    rt_loop_report_json(f, r);
    rt_hints_report_json(f, r);
    rt_loop_report_json_phases(f, r);
    fprintf(f, ",\"data\":");
    rt_data_report_json(f, r);
    fputc('}', f);
}

int rt_report_json(FILE *f)
{
    char placement[PATH_MAX + 256], exe[PATH_MAX] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    rt_settings_format(rt_conf, placement, sizeof placement);
    fprintf(f, "{\"schema\":\"%s\",\"program\":", SCHEMA);
    rt_json_string(f, exe);
    fprintf(f, ",\"pid\":%d,\"settings\":{\"OMP_PLACEMENT\":", (int)getpid());
    rt_json_string(f, placement);
    fprintf(f, "},\"policy\":");
    rt_json_string(f, rt_settings_policy_name(rt_conf));
    fputc(',', f);
    json_topology(f);
    fprintf(f, ",\"pinning\":{\"applied\":%s,\"mode\":", rt_affinity_applies() ? "true" : "false");
    rt_json_string(f, rt_affinity_mode());
    fprintf(f, ",\"binding_note\":");
    rt_json_string(f, rt_affinity_binding_note());
    fprintf(f, ",\"moves\":{");
    for (int w = 0; w < RT_MOVER_COUNT; w++) {
        uint64_t count, ns;
        rt_affinity_stats((rt_mover_t)w, &count, &ns);
        fprintf(f, "%s\"%s\":{\"count\":%llu,\"ns\":%llu}", w ? "," : "", rt_mover_name((rt_mover_t)w),
                (unsigned long long)count, (unsigned long long)ns);
    }
    fprintf(f, "},\"allotment\":");
    cpu_set_t allotted;
    unsigned gen = rt_affinity_allotment(&allotted);
    if (gen) {
        fprintf(f, "{\"changes\":%u,\"cpus\":[", gen);
        for (int c = 0, k = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &allotted))
                fprintf(f, "%s%d", k++ ? "," : "", c);
        fputs("]}", f);
    } else {
        fputs("null", f);
    }
    fprintf(f, "},\"source\":{\"used\":");
    if (rt_counters_used() == RT_SOURCE_AUTO)
        fputs("null", f);
    else
        rt_json_string(f, rt_source_name(rt_counters_used()));
    fprintf(f, ",\"unavailable\":{");
    int first = 1;
    for (int s = RT_SOURCE_PERF; s < RT_SOURCE_COUNT; s++) {
        if (!rt_counters_reason(s)[0])
            continue;
        fprintf(f, "%s\"%s\":", first ? "" : ",", rt_source_name(s));
        rt_json_string(f, rt_counters_reason(s));
        first = 0;
    }
    fprintf(f, "}},\"regions\":[");
    /* Only what the program executed and what stands (rt_region_listed). */
    for (int i = 0, n = 0; i < rt_region_count(); i++) {
        const rt_region_t *r = rt_region_at(i);
        if (!rt_region_listed(r))
            continue;
        fputs(n++ ? "," : "", f);
        json_region(f, r);
    }
    fprintf(f, "],\"regions_not_measured\":%d,\"bubbles\":", rt_region_unmeasured());
    rt_bubble_report_json(f);
    fprintf(f, ",\"monitor\":");
    rt_monitor_report_json(f);
    fprintf(f, "}\n");
    return ferror(f) ? -1 : 0;
}

/* One line: how many regions got a decision, and why the others did not. */
static void summary(FILE *f)
{
    int n[RT_OUTCOME_COUNT] = {0}, total = 0;
    for (int i = 0; i < rt_region_count(); i++) {
        const rt_region_t *r = rt_region_at(i);
        if (!rt_region_listed(r))
            continue;
        n[r->outcome]++;
        total++;
    }
    int decided = n[RT_OUTCOME_KEPT] + n[RT_OUTCOME_ROLLED_BACK] + n[RT_OUTCOME_UNCHANGED] + n[RT_OUTCOME_DECIDED];
    fprintf(f, "ompnuma: %d region%s: %d decided (%d kept, %d rolled back, %d unchanged, %d in dry run); "
            "%d without a decision (%d ran too few times, %d still verifying, %d no references, %d off)\n",
            total, total == 1 ? "" : "s", decided, n[RT_OUTCOME_KEPT], n[RT_OUTCOME_ROLLED_BACK],
            n[RT_OUTCOME_UNCHANGED], n[RT_OUTCOME_DECIDED], total - decided, n[RT_OUTCOME_SAMPLING],
            n[RT_OUTCOME_VERIFYING], n[RT_OUTCOME_NO_DATA], n[RT_OUTCOME_OFF]);
    int unmeasured = rt_region_unmeasured();
    if (unmeasured)
        fprintf(f, "ompnuma: %d more region%s not measured: the table holds %d\n", unmeasured,
                unmeasured == 1 ? "" : "s", RT_REGION_MAX);
}

/* The table's region column: as wide as the longest name, up to
 * NAME_COLUMN_MAX; only a longer name is cut (with "..."), the JSON report
 * keeps it whole. */
#define NAME_COLUMN_MAX 72

static char *table_name(const rt_region_t *r)
{
    char *sym = rt_symbol_name(r->codeptr, 1), *out = NULL;
    /* a loop placed while its region ran */
    if (asprintf(&out, "%s%s", r->construct ? "loop " : "", sym ? sym : "?") < 0)
        out = NULL;
    free(sym);
    return out;
}

void rt_report_text(FILE *f)
{
    fprintf(f, "ompnuma: policy %s, source %s, %d node%s / %d cpus (%s), NUMA factor %.2f, pins %s\n",
            rt_settings_policy_name(rt_conf),
            rt_counters_used() == RT_SOURCE_AUTO ? "none" : rt_source_name(rt_counters_used()),
            rt_mach->topo.nnodes, rt_mach->topo.nnodes == 1 ? "" : "s", rt_mach->topo.ncpus, rt_mach->topo.origin,
            rt_mach->pl.numa_factor, rt_affinity_applies() ? "applied" : "not applied (dry run)");
    if (rt_affinity_binding_note()[0])
        fprintf(f, "ompnuma: %s\n", rt_affinity_binding_note());
    int nregions = rt_region_count(), width = 6;
    char **names = calloc((size_t)nregions + 1, sizeof *names);
    for (int i = 0; names && i < nregions; i++) {
        const rt_region_t *r = rt_region_at(i);
        if (rt_region_listed(r) && (names[i] = table_name(r)) && (int)strlen(names[i]) > width)
            width = strlen(names[i]) > NAME_COLUMN_MAX ? NAME_COLUMN_MAX : (int)strlen(names[i]);
    }
    fprintf(f, "ompnuma: %3s %-*s %4s %8s %12s %12s %12s  %-11s %s\n", "id", width, "region", "team", "execs",
            "crit_path_us", "before_us", "after_us", "outcome", "cpus");
    for (int i = 0; i < nregions; i++) {
        const rt_region_t *r = rt_region_at(i);
        if (!rt_region_listed(r))
            continue;
        char sym[NAME_COLUMN_MAX + 1], cpus[128];
        const char *name = names && names[i] ? names[i] : "?";
        if ((int)strlen(name) > width)
            snprintf(sym, sizeof sym, "%.*s...", width - 3, name);
        else
            snprintf(sym, sizeof sym, "%s", name);
        size_t n = 0;
        cpus[0] = '\0';
        for (int t = 0; t < r->team_size && n < sizeof cpus - 16; t++)
            n += (size_t)snprintf(cpus + n, sizeof cpus - n, "%s%d", t ? "," : "", r->pin_cpu[t]);
        if (n >= sizeof cpus - 16)
            snprintf(cpus + n, sizeof cpus - n, ",...");
        const rt_loop_region_t *l = rt_loop_of(r);
        fprintf(f, "ompnuma: %3d %-*s %4d %8llu %12.1f %12.1f %12.1f  %-11s %s\n", r->id, width, sym, r->team_size,
                (unsigned long long)r->executions,
                r->timed_executions ? (double)r->cp_sum / (double)r->timed_executions / 1e3 : 0.0, l->cp_before_ns / 1e3,
                l->cp_after_ns / 1e3, rt_outcome_name(r->outcome), cpus);
        rt_loop_report_text(f, r);
        rt_data_report_text(f, r);
    }
    for (int i = 0; names && i < nregions; i++)
        free(names[i]);
    free(names);
    rt_monitor_report_text(f);
    summary(f);
    fflush(f);
}

void rt_report_write(int child)
{
    switch (rt_conf->report) {
    case RT_REPORT_NONE:
        return;
    case RT_REPORT_STDERR:
        rt_report_text(stderr);
        return;
    case RT_REPORT_FILE: {
        /* A forked child that ends its OpenMP use must not overwrite its parent's report. */
        char path[sizeof rt_conf->report_path + 16];
        if (child)
            snprintf(path, sizeof path, "%s.%d", rt_conf->report_path, (int)getpid());
        else
            snprintf(path, sizeof path, "%s", rt_conf->report_path);
        FILE *f = rt_open_output_stream(path);
        if (!f) {
            rt_warn("OMP_PLACEMENT_REPORT=\"%s\": cannot open: %s; no report written", path, strerror(errno));
            return;
        }
        int rc = rt_report_json(f);
        if (fclose(f) != 0 || rc != 0)
            rt_warn("OMP_PLACEMENT_REPORT=\"%s\": write failed: %s", path, strerror(errno));
        return;
    }
    }
}
