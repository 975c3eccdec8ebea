/* om_facade_omp.c: the libomp.so.5 drop-in: the real LLVM runtime (by absolute path) with ompnuma's tool. */
#include <omp-tools.h>

#include "rt_core.h"

ompt_start_tool_result_t *ompnuma_facade_start_tool(unsigned int omp_version, const char *runtime_version);

/* Everything a program calls (__kmpc_*, omp_*) binds to the real runtime,
 * which this library depends on; only the tool's start is ours. It lives in
 * node VERSION (libomp.map): the real runtime's own call asks for
 * ompt_start_tool@VERSION and skips a definition in any other node. */
OMPNUMA_EXPORT ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    return ompnuma_facade_start_tool(omp_version, runtime_version);
}
