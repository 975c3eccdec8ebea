/* rt_src_papi.c: the papi counter source: probes PAPI for per-node DRAM events. */
#include <stdio.h>
#include <string.h>

#include "rt_sources.h"

#ifdef OMPNUMA_HAVE_PAPI
#include <papi.h>

static int probe(char *why, size_t len)
{
    int v = PAPI_library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT) {
        snprintf(why, len, "PAPI_library_init failed: %s", v < 0 ? PAPI_strerror(v) : "version mismatch");
        return -1;
    }
    int counters = PAPI_num_cmp_hwctrs(0);
    if (counters <= 0) {
        const PAPI_component_info_t *c = PAPI_get_component_info(0);
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
