/* rt_src_papi.c: the papi counter source: probes PAPI for per-node DRAM events. */
#include <stdio.h>
#include <string.h>

#include "rt_sources.h"

#ifdef OMPNUMA_HAVE_PAPI
#include <dlfcn.h>
#include <papi.h>

/* PAPI is loaded here, when the source is probed (named in OMP_PLACEMENT,
 * or its reason asked for), and stays loaded: linked, it made every program
 * start load PAPI and libpfm for a source auto never picks. */
static int probe(char *why, size_t len)
{
    void *lib = dlopen(OMPNUMA_PAPI_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, len, "cannot load PAPI: %s", dlerror());
        return -1;
    }
    int (*library_init)(int) = (int (*)(int))dlsym(lib, "PAPI_library_init");
    char *(*strerror_)(int) = (char *(*)(int))dlsym(lib, "PAPI_strerror");
    int (*num_cmp_hwctrs)(int) = (int (*)(int))dlsym(lib, "PAPI_num_cmp_hwctrs");
    const PAPI_component_info_t *(*component_info)(int) =
        (const PAPI_component_info_t *(*)(int))dlsym(lib, "PAPI_get_component_info");
    if (!library_init || !strerror_ || !num_cmp_hwctrs || !component_info) {
        snprintf(why, len, "%s lacks PAPI's functions", OMPNUMA_PAPI_LIBRARY);
        return -1;
    }
    int v = library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT) {
        snprintf(why, len, "PAPI_library_init failed: %s", v < 0 ? strerror_(v) : "version mismatch");
        return -1;
    }
    int counters = num_cmp_hwctrs(0);
    if (counters <= 0) {
        const PAPI_component_info_t *c = component_info(0);
        snprintf(why, len, "PAPI reports %d hardware counters%s%s%s", counters < 0 ? 0 : counters,
                 c && c->disabled ? " (component " : "", c && c->disabled ? c->name : "",
                 c && c->disabled ? " disabled)" : "");
        if (c && c->disabled && c->disabled_reason[0]) {
            size_t n = strlen(why);
            snprintf(why + n, len - n, ": %s", c->disabled_reason);
        }
        return -1;
    }
    snprintf(why, len, "PAPI has %d hardware counters, but no per-node DRAM event is known to this "
             "build for this CPU", counters);
    return -1;
}
#else
static int probe(char *why, size_t len)
{
    snprintf(why, len, "built without PAPI (libpapi-dev was not found at configure time)");
    return -1;
}
#endif

const rt_source_ops_t rt_source_papi = {
    .probe = probe,
    .intrusive = 0,
};
