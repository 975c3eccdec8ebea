/* rt_topology.h: the machine's NUMA topology (sysfs, or hwloc), as the plain model placement/ uses. */
#ifndef OMPNUMA_RT_TOPOLOGY_H
#define OMPNUMA_RT_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "pl.h"

/* Largest nodes=N,cores=C spec accepted. */
#define RT_TOPO_MAX_NODES 4096
#define RT_TOPO_MAX_CORES 65536

typedef struct rt_topo {
    int       nnodes;
    int       ncpus;          /* PUs in all nodes */
    int      *capacity;       /* [nnodes] PUs per node (0: memory-only node) */
    int      *os_index;       /* [nnodes] the kernel's node number */
    int     **cpus;           /* [nnodes][capacity[n]] OS CPU numbers of each node */
    uint64_t *memory;         /* [nnodes] bytes of local memory (0 when unknown) */
    double   *distance;       /* [nnodes * nnodes] SLIT units, local = 10 */
    double    numa_factor;    /* mean remote / mean local distance, 1 for one node */
    int       distances_known;/* 0 when the matrix was derived, not reported */
    int       this_system;    /* 1 when CPU numbers are this machine's (pins apply) */
    char      origin[256];    /* "this system", "synthetic: ...", "xml: ...", "nodes=..." */
} rt_topo_t;

/*
 * Load a topology.
 *   spec NULL or ""            this machine: its NUMA nodes from sysfs, or
 *                              through hwloc (which honours HWLOC_XMLFILE,
 *                              HWLOC_SYNTHETIC and HWLOC_THISSYSTEM) when an
 *                              HWLOC_ variable is set or sysfs does not read
 *                              as expected
 *   "nodes=N,cores=C[,factor=F]"  N identical nodes of C cores, remote
 *                              distance 10*F (default F = 2.0)
 *   a readable file            an hwloc XML export
 *   anything else              an hwloc synthetic description
 * Returns 0, or -1 with a one-line reason in err.
 */
int  rt_topo_load(const char *spec, rt_topo_t *topo, char *err, size_t errlen);
void rt_topo_free(rt_topo_t *topo);

/* View as placement's model; the arrays stay owned by topo. */
void rt_topo_as_pl(const rt_topo_t *topo, pl_topo_t *out);

/* Whether topo is the machine the process runs on, as the kernel numbers
 * it (not a synthetic or XML one, even under HWLOC_THISSYSTEM=1): the
 * kernel's nodes, pages and statistics mean something only there. */
static inline int rt_topo_is_kernels(const rt_topo_t *topo)
{
    return topo->this_system && strcmp(topo->origin, "this system") == 0;
}

/* Node of an OS CPU number, or -1. */
int  rt_topo_node_of_cpu(const rt_topo_t *topo, int cpu);

/* Node whose kernel number is os_node, or -1 (a synthetic topology's nodes
 * need not be the kernel's). */
int  rt_topo_node_of_os(const rt_topo_t *topo, int os_node);

/*
 * The machine the process runs on, loaded once at start-up by
 * rt_machine_init and read-only afterwards: its topology, and the
 * placement model of it that every policy call uses (built once, with the
 * NUMA factor the settings chose: numa_factor > 0, or else the distance
 * matrix's).
 */
typedef struct rt_machine {
    int       ok;             /* 0: no usable topology (error says why); placement is off */
    char      error[256];
    rt_topo_t topo;
    pl_topo_t pl;             /* view of topo, numa_factor applied */
} rt_machine_t;

extern const rt_machine_t *const rt_mach;

/* Once, at start-up: spec as rt_topo_load's (NULL: this machine, the
 * runtime's case; `ompnuma topo --topology` passes its own). 0, or -1 with
 * errno and rt_mach->error filled. */
int rt_machine_init(const char *spec, double numa_factor);

/* The same with a topology already loaded (the CLI's, checked its own way):
 * the machine takes it over. Once, at start-up. */
void rt_machine_adopt(rt_topo_t *topo, double numa_factor);

#endif
