/* rt_runtime.c: bring the runtime up once (settings, machine, pinning mode, counters, hints) and down at exit. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_cache.h"
#include "rt_counters.h"
#include "rt_data.h"
#include "rt_hints.h"
#include "rt_log.h"
#include "rt_loop.h"
#include "rt_region.h"
#include "rt_monitor.h"
#include "rt_report.h"
#include "rt_runtime.h"
#include "rt_settings.h"
#include "rt_topology.h"

static int initialized, finished;
static pid_t started_in;

/* exit() called inside a parallel region never reaches the tool's
 * finalizer: the report and the cache are written from here too, once. */
static void at_exit(void)
{
    rt_runtime_fini();
}

/* OMP_PLACEMENT_DISPLAY_ENV=verbose: what the runtime made of the settings. */
static void display_verbose(FILE *out)
{
    fprintf(out, "OMPNUMA RUNTIME BEGIN\n");
    fprintf(out, "  topology='%s' nodes=%d cpus=%d numa_factor=%.2f\n", rt_mach->ok ? rt_mach->topo.origin : rt_mach->error,
            rt_mach->topo.nnodes, rt_mach->topo.ncpus, rt_mach->pl.numa_factor);
    fprintf(out, "  pinning='%s'\n", rt_affinity_mode());
    if (rt_affinity_binding_note()[0])
        fprintf(out, "  binding='%s'\n", rt_affinity_binding_note());
    rt_source_t used = rt_counters_used();
    fprintf(out, "  source='%s'\n", used == RT_SOURCE_AUTO ? "none" : rt_source_name(used));
    for (int s = RT_SOURCE_PERF; s < RT_SOURCE_COUNT; s++)
        if (rt_counters_reason(s)[0])
            fprintf(out, "  source.%s='unavailable: %s'\n", rt_source_name(s), rt_counters_reason(s));
    fprintf(out, "OMPNUMA RUNTIME END\n");
    fflush(out);
}

int rt_runtime_wanted(void)
{
    rt_settings_init();
    return rt_conf->mode != RT_MODE_OFF || rt_conf->report != RT_REPORT_NONE || rt_conf->display_env;
}

void rt_runtime_preload(void)
{
    rt_settings_init();
    rt_data_preload();
}

void rt_runtime_display(void)
{
    static int shown;
    if (rt_conf->display_env && !__atomic_exchange_n(&shown, 1, __ATOMIC_ACQ_REL))
        rt_settings_print(rt_conf, stderr);
}

void rt_runtime_init(void)
{
    if (initialized)
        return;
    started_in = getpid();
    rt_settings_init();
    if (rt_machine_init(NULL, rt_conf->numa_factor) != 0) {
        rt_warn("topology: %s; placement is off", rt_mach->error);
        rt_settings_switch_off();
    }
    rt_affinity_init();
    rt_loop_init();
    rt_counters_init();
    rt_data_preload(); /* the OMPT route has no load-time start: from here on */
    rt_data_init();
    rt_hints_init();
    if (rt_conf->mode != RT_MODE_OFF)
        rt_cache_load();
    rt_monitor_init();
    rt_runtime_display();
    if (rt_conf->display_env == 2)
        display_verbose(stderr);
    if (rt_affinity_binding_note()[0])
        rt_verbose(1, "%s", rt_affinity_binding_note());
    rt_verbose(1, "topology: %s, %d nodes, %d cpus, NUMA factor %.2f; pins %s", rt_mach->topo.origin,
               rt_mach->topo.nnodes, rt_mach->topo.ncpus, rt_mach->pl.numa_factor, rt_affinity_mode());
    initialized = 1;
    atexit(at_exit);
}

void rt_runtime_fini(void)
{
    if (!initialized || __atomic_exchange_n(&finished, 1, __ATOMIC_ACQ_REL))
        return;
    rt_monitor_stop(); /* its last step ends before the report is written */
    /* The verbose log accounts for every region the program ran without a decision. */
    for (int i = 0; rt_log_verbosity >= 1 && i < rt_region_count(); i++) {
        const rt_region_t *r = rt_region_at(i);
        char why[RT_LOOP_WHY_MAX];
        rt_loop_why(r, why, sizeof why);
        if (why[0] && (r->executions || !r->redirect))
            rt_verbose(1, "region %d: no decision: %s", r->id, why);
    }
    if (getpid() == started_in && rt_conf->mode != RT_MODE_OFF)
        rt_cache_save();
    rt_report_write(getpid() != started_in);
}
