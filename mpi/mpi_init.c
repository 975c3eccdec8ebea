/* mpi_init.c: MPI_Init*, MPI_Finalize and MPI_Abort hooks: the runtime loaded, the local ranks found, each rank's row and the host's mapper set up through it. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "mpi_state.h"

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

/* ------------------------------------------------------------- the runtime */

/* The one line this layer says itself: when there is no runtime to say it
 * (rt_log.h's form: one write, "ompnuma: warning: ", a newline). */
static void warn_unloaded(const char *why)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "ompnuma: warning: OMP_PLACEMENT_MPI: cannot load %s (%s); using off\n",
                     RT_MPI_LIBRARY, why);
    if (n <= 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    line[len - 1] = '\n';
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w;
}

/* Whether a value the runtime could not read asks for off (one of its items
 * is "off"): then a rank that cannot load the runtime is off quietly. */
static int asks_off(const char *value)
{
    for (const char *p = value; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 3 && !strncmp(p, "off", 3))
            return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

/* libompnuma.so's table (rt_mpi.h says why by name, at run time and
 * RTLD_LOCAL); the library stays loaded as long as the process. NULL and
 * why when it cannot be loaded or is not of this build. */
static const rt_mpi_ops_t *load_runtime(char *why, size_t len)
{
    void *h = dlopen(RT_MPI_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, len, "%s", dlerror());
        return NULL;
    }
    const rt_mpi_ops_t *(*entry)(void) = (const rt_mpi_ops_t *(*)(void))dlvsym(h, RT_MPI_SYMBOL, RT_MPI_VERSION);
    const rt_mpi_ops_t *ops = entry ? entry() : NULL;
    if (ops && ops->size == sizeof *ops)
        return ops;
    snprintf(why, len, "it has no %s@%s of this build", RT_MPI_SYMBOL, RT_MPI_VERSION);
    dlclose(h);
    return NULL;
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
    /* Every rank knows its host's ranks: the one that aborts removes them all
     * (the others are about to be killed and would leave theirs behind). */
    if (mpi_g.row)
        mpi_g.rt->rows_unlink(&mpi_g.me);
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
    free(mpi_g.local_world);
    mpi_g.local_world = NULL;
    mpi_g.me.local_world = NULL;
}

void mpi_setup(void)
{
    /* Unset or empty is off: the runtime is not even loaded. */
    const char *asked = getenv("OMP_PLACEMENT_MPI");
    if (!asked || !*asked)
        return;
    rt_mpi_rank_t *me = &mpi_g.me;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me->world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &me->world_size);
    int wr = me->world_rank, ws = me->world_size;
    char why[512];
    const rt_mpi_ops_t *rt = load_runtime(why, sizeof why);
    /* A rank whose value leaves the layer off (off, or a bad value: rank 0
     * says so) stops here, with no collective: ranks of one job that read
     * different values must not desynchronise the program's own (a
     * collective only some ranks make matches the program's next one). */
    int loaded = rt != NULL, all_loaded = 0;
    if (!(loaded ? rt->begin(wr) : !asks_off(asked)))
        return;
    /* The set-up is collective: every rank goes on, or none does; the job's
     * rank 0 alone says why not. */
    PMPI_Allreduce(&loaded, &all_loaded, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_loaded) {
        if (wr == 0 && loaded)
            rt->warn("OMP_PLACEMENT_MPI: another rank cannot load %s; using off", RT_MPI_LIBRARY);
        else if (wr == 0)
            warn_unloaded(why);
        return;
    }
    mpi_g.rt = rt;
    if (gethostname(mpi_g.host, sizeof mpi_g.host - 1))
        snprintf(mpi_g.host, sizeof mpi_g.host, "localhost");
    me->host = mpi_g.host;

    if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &mpi_g.local)
        != MPI_SUCCESS) {
        if (wr == 0)
            rt->warn("OMP_PLACEMENT_MPI: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) failed; using off");
        return;
    }
    PMPI_Comm_rank(mpi_g.local, &me->local_rank);
    PMPI_Comm_size(mpi_g.local, &me->nlocal);
    int ls = me->nlocal, lr = me->local_rank;
    int is0 = lr == 0;
    PMPI_Allreduce(&is0, &me->nhosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    /* The host's key (local rank 0's pid) names the rows; the token tells
     * this job's rows from a killed run's under a reused pid. */
    struct { long key; uint64_t token; } id = { (long)getpid(), job_token() };
    PMPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, mpi_g.local);
    me->key = id.key;
    me->token = id.token;
    mpi_g.row = rt->row_create(me);
    int create_errno = errno;

    int ok = mpi_g.row != NULL, all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, mpi_g.local);
    mpi_g.local_world = calloc((size_t)ls, sizeof(int));
    int lw_ok = mpi_g.local_world != NULL, lw_all = 0;
    PMPI_Allreduce(&lw_ok, &lw_all, 1, MPI_INT, MPI_MIN, mpi_g.local);
    if (!all || !lw_all) {
        if (lr == 0)
            rt->warn("OMP_PLACEMENT_MPI: cannot create the shared-memory rows on %s (%s); using off",
                     mpi_g.host, ok ? "another rank failed" : strerror(create_errno));
        goto fail;
    }
    PMPI_Allgather(&wr, 1, MPI_INT, mpi_g.local_world, 1, MPI_INT, mpi_g.local);
    me->local_world = mpi_g.local_world;
    if (mpi_g.comm_keyval == MPI_KEYVAL_INVALID)
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, drop_table, &mpi_g.comm_keyval, NULL);

    int started = lr != 0 || rt->mapper_start(me) == 0, all_started = 0;
    PMPI_Allreduce(&started, &all_started, 1, MPI_INT, MPI_MIN, mpi_g.local);
    /* The set-up's collectives under the same model as the application's
     * (mpi_coll.c): split_type as an allgather of (colour, key) over the
     * world, two allreduces over the world, one bcast, three allreduces
     * and one allgather of an int over the host. */
    own(ws - 1, 2 * sizeof(int));
    own(2 * (ws - 1), sizeof(int));
    own(lr == 0 ? ls - 1 : 0, sizeof id);
    own(4 * (ls - 1), sizeof(int));
    if (!all_started) {
        if (lr == 0 && started)
            rt->mapper_stop();
        goto fail;
    }
    static int registered;
    if (!registered++)
        atexit(at_exit);
    atomic_store(&mpi_g.active, 1);
    return;

fail:
    if (mpi_g.row) {
        rt->rows_unlink(me);
        rt->row_unmap(mpi_g.row, ws);
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
    own(mpi_g.me.nlocal - 1, 0);
    if (mpi_g.me.local_rank == 0)
        mpi_g.rt->mapper_stop(); /* last reading, files */
    atomic_store(&mpi_g.active, 0);
    mpi_g.finalized = 1;
    mpi_unlink_rows();
    rt_mpi_row_t *row = mpi_g.row;
    release_host();
    mpi_g.row = NULL;
    mpi_g.rt->row_unmap(row, mpi_g.me.world_size);
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
