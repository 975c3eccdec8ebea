/* rt_mpi.h: the runtime's face for the PMPI layer (libompnuma_mpi.so): one table of entry points that libompnuma.so exports under its private version node. */
#ifndef OMPNUMA_RT_MPI_H
#define OMPNUMA_RT_MPI_H

#include <stddef.h>
#include <stdint.h>
#include "rt_mpishm.h"

/*
 * One runtime per process: libompnuma_mpi.so holds none of it. At MPI_Init,
 * when OMP_PLACEMENT_MPI is set, it loads RT_MPI_LIBRARY by name and asks it
 * for this table (dlvsym of RT_MPI_SYMBOL in RT_MPI_VERSION). By name, the
 * copy the process already holds (the OpenMP drop-in's, or one libomp loaded
 * from OMP_TOOL_LIBRARIES) is the one it gets, so one owner moves the
 * threads (rt_affinity) and the region loop decides inside the MPI
 * allotment. At run time rather than as a DT_NEEDED, and RTLD_LOCAL: a
 * dependency of a preloaded library lands in the global lookup scope after
 * libomp, where libomp's search for a tool (ompt_start_tool, RTLD_NEXT) finds
 * it, so a rank that asked for MPI mapping only would get ompnuma's OpenMP
 * placement too; and a program that never asks pays nothing.
 */
#define RT_MPI_LIBRARY "libompnuma.so"
#define RT_MPI_SYMBOL  "ompnuma_mpi_runtime"
#define RT_MPI_VERSION "OMPNUMA_PRIVATE"

/* This rank and its host, as the PMPI layer's set-up found them. */
typedef struct rt_mpi_rank {
    int         world_rank, world_size;
    int         local_rank, nlocal;  /* on this host */
    const int  *local_world;         /* [nlocal] the host's ranks' world ranks by local rank, NULL until known */
    int         nhosts;              /* hosts in the job */
    long        key;                 /* the host's key in the rows' names (its local rank 0's pid) */
    uint64_t    token;               /* this job on this host: rows of a killed run under a reused key differ */
    const char *host;
} rt_mpi_rank_t;

typedef struct rt_mpi_ops {
    size_t size; /* sizeof (rt_mpi_ops_t) where the table was built: a library of another build differs */
    /* Resolve the settings (once per process, OMP_PLACEMENT_DISPLAY_ENV
     * shown); world rank 0 says what is wrong with OMP_PLACEMENT_MPI, once
     * for the job. 1 when it asks for the mapper (ondeloc), 0 when off. */
    int (*begin)(int world_rank);
    /* This rank's row, mapped (local rank 0 first removes rows of killed
     * runs), or NULL with errno (rt_mpishm_create's). */
    rt_mpi_row_t *(*row_create)(const rt_mpi_rank_t *me);
    void (*row_unmap)(rt_mpi_row_t *row, int world_size);
    /* Remove the names of this rank's row and, once local_world is known,
     * of every row of its host (a rank that aborts takes the others' too). */
    void (*rows_unlink)(const rt_mpi_rank_t *me);
    /* Local rank 0: start the host's mapper over every local rank's row.
     * 0, or -1 when it cannot (it said why, in one warning line). */
    int (*mapper_start)(const rt_mpi_rank_t *me);
    /* Local rank 0: stop it, writing the files OMP_PLACEMENT_MPI asked for. */
    void (*mapper_stop)(void);
    /* At a rank's MPI call when its row's epoch changed: rt_mpimap_apply. */
    int (*apply)(rt_mpi_row_t *row);
    /* One warning line (rt_warn). */
    void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
} rt_mpi_ops_t;

#endif
