/* om_facade_omp.c: the libomp.so.5 drop-in: the real LLVM runtime (by absolute path), its region entry points taken at the ABI. */
#include <dlfcn.h>

#include "om_abi.h"
#include "rt_core.h"

/* Everything a program calls binds to the real runtime, which this library
 * depends on, except the entry points of om_abi.h's OM_ABI_OMP list: they
 * are this library's stubs (om_facade_stubs.S), each jumping through its
 * slot here, in node VERSION (libomp.map) where clang programs bind them.
 * libompnuma fills the slots. ompnuma is no OMPT tool here: the runtime
 * starts the one it would start on stock, or none. */
__attribute__((visibility("hidden"), aligned(64))) void *om_facade_slots[OM_ABI_OMP_N];

/* Before any library that calls OpenMP is initialized: those depend on this
 * one (their libomp.so.5). */
/* The runtime asks for a tool as it initializes: ompnuma starts then, and
 * the call goes on as stock's own definition passes it on (the next one in
 * the lookup scope). In node VERSION, where the runtime's call binds. */
OMPNUMA_EXPORT struct ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                                const char *runtime_version)
{
    return ompnuma_facade_start_tool(omp_version, runtime_version,
                                     (struct ompt_start_tool_result_t * (*)(unsigned int, const char *))
                                         dlsym(RTLD_NEXT, "ompt_start_tool"));
}

__attribute__((constructor)) static void facade_loaded(void)
{
    ompnuma_facade_register(OM_FACADE_OMP, om_facade_slots, dlopen(OMPNUMA_REAL_LIBOMP, RTLD_LAZY | RTLD_NOLOAD));
}
