/* om_facade_omp.c: the libomp.so.5 drop-in: the real LLVM runtime (by absolute path) with ompnuma's tool. */
#include <dlfcn.h>

#include <omp-tools.h>

#include "om_tool.h"
#include "rt_core.h"

/* Everything a program calls (__kmpc_*, omp_*) binds to the real runtime,
 * which this library depends on; only the tool's start is ours. It lives in
 * node VERSION (libomp.map): the real runtime's own call asks for
 * ompt_start_tool@VERSION and skips a definition in any other node. */
OMPNUMA_EXPORT ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    /* Stock libomp's own definition passes the call on to the next one in
     * the lookup scope; ompnuma goes on from the same place. */
    return ompnuma_facade_start_tool(omp_version, runtime_version,
                                     (om_start_fn)dlsym(RTLD_NEXT, "ompt_start_tool"));
}

/* A program's own tool comes before the facade and wins: say so if asked. */
__attribute__((constructor)) static void facade_loaded(void)
{
    ompnuma_facade_loaded((const void *)facade_loaded);
}
