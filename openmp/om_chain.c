/* om_chain.c: chain the user OMPT tool stock libomp would start (lookup scope, OMP_TOOL_LIBRARIES) behind ompnuma's, since only one tool starts. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "om_chain.h"
#include "om_team.h"
#include "rt_log.h"

ompt_callback_t om_chain_user[OM_CHAIN_EVENTS];

static unsigned char ours[OM_CHAIN_EVENTS];
static int ours_status[OM_CHAIN_EVENTS]; /* what the runtime answered when ompnuma registered */
static ompt_start_tool_result_t *user;
static int user_active; /* the user tool's initialize accepted */
static ompt_function_lookup_t real_lookup;
static ompt_set_callback_t real_set;

/*
 * Which tool a program gets is decided by the runtime alone: the first
 * definition of ompt_start_tool in the lookup scope (stock libomp's own is
 * weak and passes the call on to the next definition after it, RTLD_NEXT),
 * then each library of OMP_TOOL_LIBRARIES, then libarcher.so. ompnuma is
 * reached somewhere in that order and continues it from there, so the user
 * tool it chains is the one stock libomp would have started.
 */

/* Set while the lookup scope is searched: libompnuma's own ompt_start_tool
 * then passes the call on, as the runtime's weak definition does. */
static int searching;

int om_chain_searching(void)
{
    return searching;
}

ompt_start_tool_result_t *om_chain_pass_on(unsigned int omp_version, const char *runtime_version, om_start_fn next)
{
    /* RTLD_NEXT only moves forward in one scope; the bound guards against
     * scopes of libraries loaded with RTLD_LOCAL, which may differ. */
    if (!next || searching > 16)
        return NULL;
    searching++;
    ompt_start_tool_result_t *r = next(omp_version, runtime_version);
    searching--;
    return r;
}

/* Whether a start function belongs to ompnuma or to the LLVM runtime: such a
 * definition is not a user tool (the runtime's passes the call on to the
 * scope search, which was already made). */
static int is_ours(void *fn)
{
    Dl_info f, me, rt;
    if (!dladdr(fn, &f))
        return 0;
    if (dladdr((void *)om_chain_start, &me) && f.dli_fbase == me.dli_fbase)
        return 1;
    void *runtime_fn = dlsym(RTLD_DEFAULT, "__kmpc_fork_call");
    return runtime_fn && dladdr(runtime_fn, &rt) && f.dli_fbase == rt.dli_fbase;
}

/* Whether handle names the object this code is in. */
static int is_self(void *handle)
{
    Dl_info info;
    if (!dladdr((void *)om_chain_start, &info) || !info.dli_fname)
        return 0;
    void *me = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (me)
        dlclose(me);
    return me == handle;
}

/* Start the tool in one library, as the runtime does for OMP_TOOL_LIBRARIES
 * (the handle stays open when the tool starts). */
static ompt_start_tool_result_t *from_library(const char *path, void *h, unsigned int v, const char *rv)
{
    om_start_fn start = (om_start_fn)dlsym(h, "ompt_start_tool");
    if (!start || is_ours((void *)start)) {
        dlclose(h);
        return NULL;
    }
    ompt_start_tool_result_t *r = start(v, rv);
    if (r)
        rt_verbose(1, "chained the OMPT tool in %s", path);
    else
        dlclose(h);
    return r;
}

static ompt_start_tool_result_t *from_list(unsigned int v, const char *rv, int after_self)
{
    const char *list = getenv("OMP_TOOL_LIBRARIES");
    if (!list || !*list)
        return NULL;
    char *copy = strdup(list);
    if (!copy)
        return NULL;
    /* Reached from the list, entries before ourselves were already tried by the runtime. */
    int self_seen = 0, self_listed = 0;
    if (after_self) {
        for (char *save, *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
            void *h = dlopen(p, RTLD_LAZY | RTLD_NOLOAD);
            if (h) {
                self_listed |= is_self(h);
                dlclose(h);
            }
        }
        strcpy(copy, list);
    }
    ompt_start_tool_result_t *r = NULL;
    for (char *save, *p = strtok_r(copy, ":", &save); p && !r; p = strtok_r(NULL, ":", &save)) {
        void *h = dlopen(p, RTLD_LAZY);
        if (!h) {
            rt_verbose(1, "OMP_TOOL_LIBRARIES: cannot load %s: %s", p, dlerror());
            continue;
        }
        if (is_self(h)) {
            self_seen = 1;
            dlclose(h);
            continue;
        }
        if (self_listed && !self_seen) {
            dlclose(h);
            continue;
        }
        r = from_library(p, h, v, rv);
    }
    free(copy);
    return r;
}

ompt_start_tool_result_t *om_chain_start(unsigned int omp_version, const char *runtime_version, om_start_fn next,
                                         int flags)
{
    ompt_start_tool_result_t *r = NULL;
    if (next) {
        searching++;
        r = next(omp_version, runtime_version);
        searching--;
        if (r)
            rt_verbose(1, "chained the OMPT tool found next in the lookup scope");
    }
    if (!r && (flags & OM_CHAIN_LIST))
        r = from_list(omp_version, runtime_version, flags & OM_CHAIN_AFTER_SELF);
    if (!r && (flags & OM_CHAIN_LIST)) {
        /* The runtime's last resort: ThreadSanitizer's OMPT tool, when installed. */
        void *h = dlopen("libarcher.so", RTLD_LAZY);
        if (h)
            r = from_library("libarcher.so", h, omp_version, runtime_version);
    }
    user = r;
    return r;
}

void om_chain_register(ompt_set_callback_t set, ompt_callbacks_t event, ompt_callback_t cb)
{
    int status = set(event, cb);
    if ((unsigned)event < OM_CHAIN_EVENTS) {
        ours[event] = 1;
        ours_status[event] = status;
    }
}

/* Events ompnuma does not use but whose arguments include a parallel_data:
 * the tool gets its own word in place of ompnuma's record. */
static void work_cb(ompt_work_t wstype, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task,
                    uint64_t count, const void *ra)
{
    OM_CHAIN(ompt_callback_work, ompt_callback_work_t, wstype, ep, om_user_data(pd), task, count, ra);
}

static void dispatch_cb(ompt_data_t *pd, ompt_data_t *task, ompt_dispatch_t kind, ompt_data_t instance)
{
    OM_CHAIN(ompt_callback_dispatch, ompt_callback_dispatch_t, om_user_data(pd), task, kind, instance);
}

static void masked_cb(ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task, const void *ra)
{
    OM_CHAIN(ompt_callback_masked, ompt_callback_masked_t, ep, om_user_data(pd), task, ra);
}

static void reduction_cb(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task,
                         const void *ra)
{
    OM_CHAIN(ompt_callback_reduction, ompt_callback_sync_region_t, kind, ep, om_user_data(pd), task, ra);
}

/* sync_region, when ompnuma does not register its own (om_tool.c). */
static void sync_cb(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task,
                    const void *ra)
{
    OM_CHAIN(ompt_callback_sync_region, ompt_callback_sync_region_t, kind, ep, om_user_data(pd), task, ra);
}

static void sync_wait_cb(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task,
                         const void *ra)
{
    OM_CHAIN(ompt_callback_sync_region_wait, ompt_callback_sync_region_t, kind, ep, om_user_data(pd), task, ra);
}

static ompt_callback_t wrapper_for(ompt_callbacks_t event)
{
    switch (event) {
    case ompt_callback_work: return (ompt_callback_t)work_cb;
    case ompt_callback_dispatch: return (ompt_callback_t)dispatch_cb;
    case ompt_callback_masked: return (ompt_callback_t)masked_cb;
    case ompt_callback_reduction: return (ompt_callback_t)reduction_cb;
    case ompt_callback_sync_region: return (ompt_callback_t)sync_cb;
    case ompt_callback_sync_region_wait: return (ompt_callback_t)sync_wait_cb;
    default: return NULL;
    }
}

/* Once the user tool's initialize declined, stock libomp turns its OMPT off
 * and the inquiry functions the tool looked up answer as for no tool (no
 * thread data, no processor or place, no parallel or task information, no
 * callback). Under ompnuma the runtime's OMPT stays on for ompnuma's own
 * tool, so the functions handed to the user tool answer that here. */
static int declined;
/* Events the user tool registered with the runtime itself (neither ompnuma's
 * nor wrapped): taken back from the runtime when it declines. */
static unsigned char direct[OM_CHAIN_EVENTS];

/* The user tool's ompt_set_callback: events ompnuma owns are called from
 * ompnuma's own callbacks; events carrying a parallel_data go through a
 * wrapper; all others go straight to the runtime. A declined tool's
 * callbacks are never called: it gets the runtime's answer, and nothing is
 * registered. */
static void ignore_event(void)
{
}

static ompt_set_result_t chain_set_callback(ompt_callbacks_t event, ompt_callback_t cb)
{
    if ((unsigned)event < OM_CHAIN_EVENTS && ours[event]) {
        /* The runtime's answer for this event, as it gave it to ompnuma
         * (clearing a callback is always accepted). */
        if (!declined)
            om_chain_user[event] = cb;
        return cb ? (ompt_set_result_t)ours_status[event] : ompt_set_always;
    }
    if (declined) {
        if (!cb)
            return ompt_set_always;
        ompt_set_result_t status = real_set(event, (ompt_callback_t)ignore_event);
        real_set(event, NULL);
        return status;
    }
    ompt_callback_t wrapper = (unsigned)event < OM_CHAIN_EVENTS ? wrapper_for(event) : NULL;
    if (wrapper) {
        om_chain_user[event] = cb;
        return real_set(event, cb ? wrapper : NULL);
    }
    if ((unsigned)event < OM_CHAIN_EVENTS)
        direct[event] = cb != NULL;
    return real_set(event, cb);
}

/* The runtime's inquiry functions the chain answers in front of (looked up
 * when the user tool asks for them). */
enum { Q_GET_CALLBACK, Q_PARALLEL_INFO, Q_TASK_INFO, Q_THREAD_DATA, Q_PROC_ID, Q_PLACE_NUM, Q_PARTITION_PLACES,
       Q_STATE, Q_COUNT };
static ompt_interface_fn_t real_fn[Q_COUNT];
#define REAL_FN(q, type) ((type)real_fn[q])

/* The user tool's ompt_get_callback: for the events ompnuma owns or wraps,
 * the tool's own function (never ompnuma's), as the runtime would answer. */
static int chain_get_callback(ompt_callbacks_t event, ompt_callback_t *cb)
{
    if (declined)
        return 0;
    if ((unsigned)event < OM_CHAIN_EVENTS && (ours[event] || wrapper_for(event))) {
        if (!om_chain_user[event])
            return 0;
        *cb = om_chain_user[event];
        return 1;
    }
    return REAL_FN(Q_GET_CALLBACK, ompt_get_callback_t)(event, cb);
}

static int chain_parallel_info(int ancestor_level, ompt_data_t **parallel_data, int *team_size)
{
    if (declined)
        return 0;
    int rc = REAL_FN(Q_PARALLEL_INFO, ompt_get_parallel_info_t)(ancestor_level, parallel_data, team_size);
    if (rc && parallel_data && *parallel_data)
        *parallel_data = om_user_data(*parallel_data);
    return rc;
}

static int chain_task_info(int ancestor_level, int *type, ompt_data_t **task_data, ompt_frame_t **task_frame,
                           ompt_data_t **parallel_data, int *thread_num)
{
    if (declined)
        return 0;
    int rc = REAL_FN(Q_TASK_INFO, ompt_get_task_info_t)(ancestor_level, type, task_data, task_frame, parallel_data,
                                                        thread_num);
    if (rc && parallel_data && *parallel_data)
        *parallel_data = om_user_data(*parallel_data);
    return rc;
}

static ompt_data_t *chain_thread_data(void)
{
    return declined ? NULL : REAL_FN(Q_THREAD_DATA, ompt_get_thread_data_t)();
}

static int chain_proc_id(void)
{
    return declined ? -1 : REAL_FN(Q_PROC_ID, ompt_get_proc_id_t)();
}

static int chain_place_num(void)
{
    return declined ? -1 : REAL_FN(Q_PLACE_NUM, ompt_get_place_num_t)();
}

static int chain_partition_places(int n, int *nums)
{
    return declined ? 0 : REAL_FN(Q_PARTITION_PLACES, ompt_get_partition_place_nums_t)(n, nums);
}

static int chain_state(ompt_wait_id_t *wait_id)
{
    return declined ? ompt_state_work_serial : REAL_FN(Q_STATE, ompt_get_state_t)(wait_id);
}

static const struct {
    const char *name;
    ompt_interface_fn_t chain;
} answered[Q_COUNT] = {
    [Q_GET_CALLBACK] = {"ompt_get_callback", (ompt_interface_fn_t)chain_get_callback},
    [Q_PARALLEL_INFO] = {"ompt_get_parallel_info", (ompt_interface_fn_t)chain_parallel_info},
    [Q_TASK_INFO] = {"ompt_get_task_info", (ompt_interface_fn_t)chain_task_info},
    [Q_THREAD_DATA] = {"ompt_get_thread_data", (ompt_interface_fn_t)chain_thread_data},
    [Q_PROC_ID] = {"ompt_get_proc_id", (ompt_interface_fn_t)chain_proc_id},
    [Q_PLACE_NUM] = {"ompt_get_place_num", (ompt_interface_fn_t)chain_place_num},
    [Q_PARTITION_PLACES] = {"ompt_get_partition_place_nums", (ompt_interface_fn_t)chain_partition_places},
    [Q_STATE] = {"ompt_get_state", (ompt_interface_fn_t)chain_state},
};

/* The runtime's lookup, with the inquiry functions that hand out callbacks
 * or parallel_data answered from the tool's side of ompnuma's records, and
 * those a declined tool must see answer as for no tool. */
static ompt_interface_fn_t chain_lookup(const char *name)
{
    if (!strcmp(name, "ompt_set_callback"))
        return (ompt_interface_fn_t)chain_set_callback;
    for (int q = 0; q < Q_COUNT; q++)
        if (!strcmp(name, answered[q].name)) {
            real_fn[q] = real_lookup(name);
            return real_fn[q] ? answered[q].chain : NULL;
        }
    return real_lookup(name);
}

void om_chain_initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_set_callback_t set)
{
    if (!user)
        return;
    real_lookup = lookup;
    real_set = set;
    if (!user->initialize(chain_lookup, initial_device_num, &user->tool_data)) {
        declined = 1;
        memset(om_chain_user, 0, sizeof om_chain_user);
        for (int e = 0; e < OM_CHAIN_EVENTS; e++)
            if (direct[e])
                set((ompt_callbacks_t)e, NULL);
        user = NULL;
        return;
    }
    user_active = 1;
}

int om_chain_active(void)
{
    return user_active;
}

void om_chain_finalize(void)
{
    if (user && user->finalize)
        user->finalize(&user->tool_data);
}
