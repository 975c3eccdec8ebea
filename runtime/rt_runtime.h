/* rt_runtime.h: the runtime's process-wide state: settings, topology, pinning mode, counter source. */
#ifndef OMPNUMA_RT_RUNTIME_H
#define OMPNUMA_RT_RUNTIME_H

#include "pl.h"
#include "rt_settings.h"
#include "rt_topology.h"

typedef struct rt_state {
    rt_settings_t settings;
    rt_topo_t     topo;
    int           topo_ok;
    char          topo_error[256];
    pl_model_t    model;
    double        numa_factor;           /* the one the policies use */

    int           pins_apply;            /* 0: dry run, intended CPUs only recorded */
    char          pin_mode[160];         /* why, for the report */
    char          binding_note[256];     /* OMP_PROC_BIND / OMP_PLACES vs ompnuma */

    rt_source_t   source_used;           /* RT_SOURCE_AUTO when none works */
    char          source_reason[RT_SOURCE_COUNT][160]; /* "" = available */

    uint64_t      repin_ns;              /* time spent in re-pinning system calls */
    uint64_t      repin_count;

    int           pid;                   /* the process the runtime started in */
    int           initialized;
} rt_state_t;

extern rt_state_t rt;

/* Once, from the tool's initializer: settings, topology, sources. Never
 * fails the program: what does not work is switched off with a reason. */
void rt_runtime_init(void);

/* Once, at the tool's finalizer: write the report if one was asked for. */
void rt_runtime_fini(void);

#endif
