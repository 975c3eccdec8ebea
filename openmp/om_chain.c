/* om_chain.c: chain a user OMPT tool (OMP_TOOL_LIBRARIES) behind ompnuma's, since only one tool starts. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "om_chain.h"
#include "rt_log.h"

ompt_callback_t om_chain_user[OM_CHAIN_EVENTS];

static unsigned char ours[OM_CHAIN_EVENTS];
static ompt_start_tool_result_t *user;
static ompt_function_lookup_t real_lookup;
static ompt_set_callback_t real_set;

typedef ompt_start_tool_result_t *(*start_fn)(unsigned int, const char *);

/* Whether path names the object this code is in. */
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

ompt_start_tool_result_t *om_chain_start(unsigned int omp_version, const char *runtime_version)
{
    const char *list = getenv("OMP_TOOL_LIBRARIES");
    if (!list || !*list)
        return NULL;
    char *copy = strdup(list);
    if (!copy)
        return NULL;
    /* Entries before ourselves were already tried by the runtime. */
    int self_seen = 0, self_listed = 0;
    for (char *save, *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
        void *h = dlopen(p, RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            self_listed |= is_self(h);
            dlclose(h);
        }
    }
    strcpy(copy, list);
    for (char *save, *p = strtok_r(copy, ":", &save); p && !user; p = strtok_r(NULL, ":", &save)) {
        void *h = dlopen(p, RTLD_LAZY | RTLD_LOCAL);
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
        start_fn start = (start_fn)dlsym(h, "ompt_start_tool");
        ompt_start_tool_result_t *r = start ? start(omp_version, runtime_version) : NULL;
        if (r) {
            user = r;
            rt_verbose(1, "OMP_TOOL_LIBRARIES: chained the tool in %s", p);
        } else {
            dlclose(h);
        }
    }
    free(copy);
    return user;
}

void om_chain_register(ompt_set_callback_t set, ompt_callbacks_t event, ompt_callback_t cb)
{
    if ((unsigned)event < OM_CHAIN_EVENTS)
        ours[event] = 1;
    set(event, cb);
}

/* The user tool's ompt_set_callback: events ompnuma owns are called from
 * ompnuma's own callbacks; all others go straight to the runtime. */
static ompt_set_result_t chain_set_callback(ompt_callbacks_t event, ompt_callback_t cb)
{
    if ((unsigned)event < OM_CHAIN_EVENTS && ours[event]) {
        om_chain_user[event] = cb;
        return ompt_set_always;
    }
    return real_set(event, cb);
}

static ompt_interface_fn_t chain_lookup(const char *name)
{
    if (!strcmp(name, "ompt_set_callback"))
        return (ompt_interface_fn_t)chain_set_callback;
    return real_lookup(name);
}

void om_chain_initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_set_callback_t set)
{
    if (!user)
        return;
    real_lookup = lookup;
    real_set = set;
    if (!user->initialize(chain_lookup, initial_device_num, &user->tool_data)) {
        memset(om_chain_user, 0, sizeof om_chain_user);
        user = NULL;
    }
}

void om_chain_finalize(void)
{
    if (user && user->finalize)
        user->finalize(&user->tool_data);
}
