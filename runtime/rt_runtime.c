/* rt_runtime.c: bring the runtime up once (settings, topology, pinning mode, counters) and down at exit. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_affinity.h"
#include "rt_counters.h"
#include "rt_hints.h"
#include "rt_log.h"
#include "rt_report.h"
#include "rt_runtime.h"

rt_state_t rt;

void rt_runtime_init(void)
{
    if (rt.initialized)
        return;
    rt.pid = getpid();
    rt_settings_load(&rt.settings);
    pl_model_default(&rt.model);
    if (rt_topo_load(NULL, &rt.topo, rt.topo_error, sizeof rt.topo_error) == 0) {
        rt.topo_ok = 1;
    } else {
        rt_warn("topology: %s; placement is off", rt.topo_error);
        rt.settings.enabled = 0;
    }
    if (rt.topo_ok) {
        pl_topo_t topo;
        rt_topo_as_pl(&rt.topo, &topo);
        rt.numa_factor = rt.settings.numa_factor > 0 ? rt.settings.numa_factor : pl_numa_factor(&topo);
    }
    rt_affinity_init();
    rt_counters_init();
    rt_hints_init();
    if (rt.settings.display_env)
        rt_settings_print(&rt.settings, stderr);
    if (rt.binding_note[0])
        rt_verbose(1, "%s", rt.binding_note);
    rt_verbose(1, "topology: %s, %d nodes, %d cpus, NUMA factor %.2f; pins %s", rt.topo.origin,
               rt.topo.nnodes, rt.topo.ncpus, rt.numa_factor, rt.pin_mode);
    rt.initialized = 1;
}

void rt_runtime_fini(void)
{
    if (!rt.initialized)
        return;
    /* A forked child that ends its OpenMP use must not overwrite its parent's report. */
    if (getpid() != rt.pid && rt.settings.report == RT_REPORT_FILE) {
        size_t n = strlen(rt.settings.report_path);
        snprintf(rt.settings.report_path + n, sizeof rt.settings.report_path - n, ".%d", (int)getpid());
    }
    rt_report_write();
}
