/* mpi_init.c: MPI_Init*, MPI_Finalize and MPI_Abort hooks: local ranks, shared-memory rows, the host's mapper thread. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "mpi_state.h"
#include "rt_log.h"
#include "rt_settings.h"

mpi_state_t mpi_g = { .local = MPI_COMM_NULL, .comm_keyval = MPI_KEYVAL_INVALID };
__thread int mpi_depth;

/* ------------------------------------------------ communicator rank tables */

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct comm_table {
    int size;
    int world[];
} comm_table_t;

static int drop_table(MPI_Comm comm, int keyval, void *value, void *extra)
{
    free(value);
    return MPI_SUCCESS;
}

const int *mpi_comm_world_ranks(MPI_Comm comm, int *size)
{
    *size = -1;
    if (comm == MPI_COMM_NULL || mpi_g.comm_keyval == MPI_KEYVAL_INVALID)
        return NULL;
    comm_table_t *t = NULL;
    int found = 0;
    if (PMPI_Comm_get_attr(comm, mpi_g.comm_keyval, &t, &found) == MPI_SUCCESS && found) {
        *size = t->size;
        return t->world;
    }
    /* First use of this communicator: build its table once. */
    pthread_mutex_lock(&table_lock);
    if (PMPI_Comm_get_attr(comm, mpi_g.comm_keyval, &t, &found) != MPI_SUCCESS || !found) {
        t = NULL;
        int inter = 0;
        MPI_Group g = MPI_GROUP_NULL, wg = MPI_GROUP_NULL;
        PMPI_Comm_test_inter(comm, &inter);
        int ok = (inter ? PMPI_Comm_remote_group(comm, &g) : PMPI_Comm_group(comm, &g)) == MPI_SUCCESS
                 && PMPI_Comm_group(MPI_COMM_WORLD, &wg) == MPI_SUCCESS;
        int n = 0;
        if (ok && PMPI_Group_size(g, &n) == MPI_SUCCESS && n > 0) {
            t = malloc(sizeof *t + sizeof(int) * 2 * (size_t)n);
            if (t) {
                int *in = t->world + n;
                for (int i = 0; i < n; i++)
                    in[i] = i;
                t->size = n;
                if (PMPI_Group_translate_ranks(g, n, in, wg, t->world) != MPI_SUCCESS)
                    for (int i = 0; i < n; i++)
                        t->world[i] = -1;
                for (int i = 0; i < n; i++)
                    if (t->world[i] == MPI_UNDEFINED)
                        t->world[i] = -1;
                if (PMPI_Comm_set_attr(comm, mpi_g.comm_keyval, t) != MPI_SUCCESS) {
                    free(t);
                    t = NULL;
                }
            }
        }
        if (g != MPI_GROUP_NULL)
            PMPI_Group_free(&g);
        if (wg != MPI_GROUP_NULL)
            PMPI_Group_free(&wg);
    }
    pthread_mutex_unlock(&table_lock);
    if (!t)
        return NULL;
    *size = t->size;
    return t->world;
}

/* ------------------------------------------------- who moves the threads */

rt_affinity_allot_fn *mpi_allot_owner(void)
{
    /* Looked up at each remap (rare): the tool may be loaded after
     * MPI_Init (OMP_TOOL_LIBRARIES is read at the first OpenMP construct).
     * The drop-in facades load libompnuma.so globally; libomp loads a tool
     * named in OMP_TOOL_LIBRARIES locally, found by its name. */
    void *f = dlsym(RTLD_DEFAULT, RT_AFFINITY_ALLOT_SYMBOL);
    if (!f) {
        void *h = dlopen("libompnuma.so", RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            f = dlsym(h, RT_AFFINITY_ALLOT_SYMBOL);
            dlclose(h);
        }
    }
    return (rt_affinity_allot_fn *)f;
}

/* ------------------------------------------------------------------ set-up */

static uint64_t job_token(void)
{
    uint64_t t = 0;
    if (getrandom(&t, sizeof t, GRND_NONBLOCK) != sizeof t) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        t = ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 16);
    }
    return t | 1;
}

void mpi_unlink_rows(void)
{
    if (mpi_g.row && mpi_g.name[0])
        shm_unlink(mpi_g.name);
    /* Every rank knows its host's ranks: the one that aborts removes them all
     * (the others are about to be killed and would leave theirs behind). */
    if (mpi_g.local_world)
        for (int i = 0; i < mpi_g.local_size; i++) {
            char name[128];
            rt_mpishm_name(name, sizeof name, mpi_g.key, mpi_g.local_world[i]);
            shm_unlink(name);
        }
}

static void at_exit(void)
{
    /* A program that returns without MPI_Finalize leaves no object behind. */
    if (mpi_on() && !mpi_g.finalized)
        mpi_unlink_rows();
}

/* Our own collectives, counted as ompnuma's traffic: what they send per peer. */
static void own(int peers, uint64_t bytes)
{
    for (int i = 0; i < peers; i++)
        mpi_add(MPI_KIND_OWN, -1, bytes);
}

static void release_host(void)
{
    if (mpi_g.rows) {
        for (int i = 0; i < mpi_g.local_size; i++)
            if (mpi_g.rows[i] && mpi_g.rows[i] != mpi_g.row)
                rt_mpishm_unmap(mpi_g.rows[i], mpi_g.world_size);
    }
    free(mpi_g.rows);
    free(mpi_g.names);
    free(mpi_g.local_world);
    mpi_g.rows = NULL;
    mpi_g.names = NULL;
    mpi_g.local_world = NULL;
    if (mpi_g.topo_loaded)
        rt_topo_free(&mpi_g.topo);
    mpi_g.topo_loaded = 0;
}

void mpi_setup(void)
{
    int wr = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &wr);
    /* Every rank reads the variable; rank 0 alone speaks, so a job prints
     * its warning once. */
    rt_settings_init();
    if (wr == 0 && rt_conf->mpi.warning[0])
        rt_warn("%s", rt_conf->mpi.warning);
    if (!rt_conf->mpi.enabled)
        return;
    mpi_g.world_rank = wr;
    PMPI_Comm_size(MPI_COMM_WORLD, &mpi_g.world_size);
    if (gethostname(mpi_g.host, sizeof mpi_g.host - 1))
        snprintf(mpi_g.host, sizeof mpi_g.host, "localhost");

    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &mpi_g.local)
        != MPI_SUCCESS) {
        if (wr == 0)
            rt_warn("OMP_PLACEMENT_MPI: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed; using off");
        return;
    }
    PMPI_Comm_rank(mpi_g.local, &mpi_g.local_rank);
    PMPI_Comm_size(mpi_g.local, &mpi_g.local_size);
    int ls = mpi_g.local_size, lr = mpi_g.local_rank;
    int is0 = lr == 0;
    PMPI_Allreduce(&is0, &mpi_g.nhosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    /* The host's key (local rank 0's pid) names the rows; the token tells
     * this job's rows from a killed run's under a reused pid. */
    struct { long key; uint64_t token; } id = { (long)getpid(), job_token() };
    PMPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, mpi_g.local);
    if (lr == 0)
        rt_mpishm_sweep();
    mpi_g.key = id.key;
    rt_mpishm_name(mpi_g.name, sizeof mpi_g.name, id.key, wr);
    int replaced = 0;
    int rc = rt_mpishm_create(mpi_g.name, wr, mpi_g.world_size, id.token, &mpi_g.row, &replaced);
    int create_errno = errno;
    if (rc)
        mpi_g.row = NULL;
    else if (replaced && rt_conf->mpi.verbose)
        rt_verbose(0, "mpi: replaced the stale shared-memory object %s of a killed run", mpi_g.name);

    int ok = rc == 0, all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, mpi_g.local);
    mpi_g.local_world = calloc((size_t)ls, sizeof(int));
    int lw_ok = mpi_g.local_world != NULL, lw_all = 0;
    PMPI_Allreduce(&lw_ok, &lw_all, 1, MPI_INT, MPI_MIN, mpi_g.local);
    if (!all || !lw_all) {
        if (lr == 0)
            rt_warn("OMP_PLACEMENT_MPI: cannot create the shared-memory rows on %s (%s); using off",
                    mpi_g.host, ok ? "another rank failed" : strerror(create_errno));
        goto fail;
    }
    PMPI_Allgather(&wr, 1, MPI_INT, mpi_g.local_world, 1, MPI_INT, mpi_g.local);
    if (mpi_g.comm_keyval == MPI_KEYVAL_INVALID)
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, drop_table, &mpi_g.comm_keyval, NULL);

    int started = 1;
    if (lr == 0) {
        started = 0;
        char err[256] = "";
        mpi_g.rows = calloc((size_t)ls, sizeof *mpi_g.rows);
        mpi_g.names = calloc((size_t)ls, sizeof *mpi_g.names);
        if (!mpi_g.rows || !mpi_g.names)
            snprintf(err, sizeof err, "out of memory");
        else if (rt_topo_load(rt_conf->mpi.topology[0] ? rt_conf->mpi.topology : NULL,
                              &mpi_g.topo, err, sizeof err) == 0)
            mpi_g.topo_loaded = 1;
        if (mpi_g.topo_loaded) {
            started = 1;
            for (int i = 0; i < ls; i++) {
                rt_mpishm_name(mpi_g.names[i], sizeof mpi_g.names[i], id.key, mpi_g.local_world[i]);
                if (i == 0) {
                    mpi_g.rows[i] = mpi_g.row;
                    continue;
                }
                if (rt_mpishm_open(mpi_g.names[i], mpi_g.world_size, id.token, &mpi_g.rows[i])) {
                    snprintf(err, sizeof err, "rank %d's row: %s", mpi_g.local_world[i], strerror(errno));
                    started = 0;
                    break;
                }
            }
        }
        if (started) {
            rt_mpimap_config_t cfg = { &mpi_g.topo, mpi_g.world_size, ls,
                                       mpi_g.local_world, mpi_g.rows, mpi_g.host, mpi_g.nhosts };
            if (rt_mpimap_start(&mpi_g.mapper, &cfg)) {
                snprintf(err, sizeof err, "mapper thread: %s", strerror(errno));
                started = 0;
            }
        }
        if (!started)
            rt_warn("OMP_PLACEMENT_MPI: no mapper on %s (%s); using off", mpi_g.host, err);
        else if (wr == 0 && rt_conf->mpi.verbose) {
            char set[4 * PATH_MAX + 256]; /* the four paths and the numbers */
            rt_settings_format_mpi(rt_conf, set, sizeof set);
            rt_verbose(0, "mpi: %s on %d host(s), %d rank(s); topology %s (%d nodes)%s", set,
                       mpi_g.nhosts, mpi_g.world_size, mpi_g.topo.origin, mpi_g.topo.nnodes,
                       rt_conf->mpi.dry_run || !mpi_g.topo.this_system ? ", dry run" : "");
        }
    }
    int all_started = 0;
    PMPI_Allreduce(&started, &all_started, 1, MPI_INT, MPI_MIN, mpi_g.local);
    /* The set-up's collectives under the same model as the application's
     * (mpi_coll.c): split_type as an allgather of (colour, key) over the
     * world, one allreduce over the world, one bcast, three allreduces and
     * one allgather of an int over the host. */
    own(mpi_g.world_size - 1, 2 * sizeof(int));
    own(mpi_g.world_size - 1, sizeof(int));
    own(lr == 0 ? ls - 1 : 0, sizeof id);
    own(4 * (ls - 1), sizeof(int));
    if (!all_started) {
        if (lr == 0 && mpi_g.mapper) {
            rt_mpimap_stop(mpi_g.mapper);
            mpi_g.mapper = NULL;
        }
        goto fail;
    }
    static int registered;
    if (!registered++)
        atexit(at_exit);
    atomic_store(&mpi_g.active, 1);
    return;

fail:
    if (mpi_g.row) {
        rt_mpishm_unmap(mpi_g.row, mpi_g.world_size);
        shm_unlink(mpi_g.name);
        mpi_g.row = NULL;
    }
    release_host();
    if (mpi_g.local != MPI_COMM_NULL)
        PMPI_Comm_free(&mpi_g.local);
}

void mpi_teardown(void)
{
    if (!mpi_on())
        return;
    /* Every rank's counts are final once all of this host's ranks are here. */
    PMPI_Barrier(mpi_g.local);
    own(mpi_g.local_size - 1, 0);
    if (mpi_g.local_rank == 0) {
        rt_mpimap_stop(mpi_g.mapper); /* last reading, files */
        mpi_g.mapper = NULL;
    }
    atomic_store(&mpi_g.active, 0);
    mpi_g.finalized = 1;
    mpi_unlink_rows();
    rt_mpi_row_t *row = mpi_g.row;
    release_host();
    mpi_g.row = NULL;
    rt_mpishm_unmap(row, mpi_g.world_size);
    PMPI_Comm_free(&mpi_g.local);
}

/* ------------------------------------------------------------------- hooks */

OMPNUMA_EXPORT int MPI_Init(int *argc, char ***argv)
{
    /* A second call is the program's error: MPI reports it, we stay out. */
    if (atomic_exchange(&mpi_g.init_called, 1))
        return PMPI_Init(argc, argv);
    mpi_depth++;
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        mpi_setup();
    mpi_depth--;
    return rc;
}

OMPNUMA_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    if (atomic_exchange(&mpi_g.init_called, 1))
        return PMPI_Init_thread(argc, argv, required, provided);
    mpi_depth++;
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        mpi_setup();
    mpi_depth--;
    return rc;
}

OMPNUMA_EXPORT int MPI_Finalize(void)
{
    mpi_depth++;
    mpi_teardown();
    int rc = PMPI_Finalize();
    mpi_depth--;
    return rc;
}

OMPNUMA_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    /* The job ends here: leave no shared memory behind (a SIGKILL still
     * can; the next run's local rank 0 sweeps those). */
    if (mpi_on())
        mpi_unlink_rows();
    return PMPI_Abort(comm, errorcode);
}
