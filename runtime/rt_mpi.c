/* rt_mpi.c: the runtime's face for the PMPI layer: its settings, the ranks' rows, the host's mapper and a rank's remap, as the one table libompnuma.so exports under OMPNUMA_PRIVATE. */
#include "rt_core.h"
#include "rt_log.h"
#include "rt_mpi.h"
#include "rt_mpimap.h"
#include "rt_mpishm.h"
#include "rt_runtime.h"
#include "rt_settings.h"

static rt_mpimap_t *mapper; /* the host's, in its local rank 0, from mapper_start to mapper_stop */

static int begin(int world_rank)
{
    rt_settings_init();
    rt_runtime_display();
    /* Every rank read the same value; rank 0 alone says what is wrong with it. */
    if (world_rank == 0 && rt_conf->mpi.warning[0])
        rt_warn("%s", rt_conf->mpi.warning);
    return rt_conf->mpi.enabled;
}

static rt_mpi_row_t *row_create(const rt_mpi_rank_t *me)
{
    /* Rows a killed run left on this host go first (their key is a dead pid). */
    if (me->local_rank == 0)
        rt_mpishm_sweep();
    char name[128];
    rt_mpishm_name(name, sizeof name, me->key, me->world_rank);
    rt_mpi_row_t *row = NULL;
    int replaced = 0;
    if (rt_mpishm_create(name, me->world_rank, me->world_size, me->token, &row, &replaced) != 0)
        return NULL;
    if (replaced && rt_conf->mpi.verbose)
        rt_verbose(0, "mpi: replaced the stale shared-memory object %s of a killed run", name);
    return row;
}

static void rows_unlink(const rt_mpi_rank_t *me)
{
    rt_mpishm_unlink(me->key, me->world_rank);
    for (int i = 0; me->local_world && i < me->nlocal; i++)
        rt_mpishm_unlink(me->key, me->local_world[i]);
}

static int mapper_start(const rt_mpi_rank_t *me)
{
    rt_mpimap_config_t cfg = {me->world_rank, me->world_size, me->nlocal, me->local_world,
                              me->key,        me->token,      me->host,   me->nhosts};
    char why[256];
    if (rt_mpimap_start(&mapper, &cfg, why, sizeof why) == 0)
        return 0;
    rt_warn("OMP_PLACEMENT_MPI: no mapper on %s (%s); using off", me->host, why);
    return -1;
}

static void mapper_stop(void)
{
    rt_mpimap_stop(mapper);
    mapper = NULL;
}

static const rt_mpi_ops_t ops = {
    sizeof ops, begin, row_create, rt_mpishm_unmap, rows_unlink, mapper_start, mapper_stop, rt_mpimap_apply, rt_warn,
};

OMPNUMA_EXPORT const rt_mpi_ops_t *ompnuma_mpi_runtime(void);
const rt_mpi_ops_t *ompnuma_mpi_runtime(void)
{
    return &ops;
}
