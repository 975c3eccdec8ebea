/* null_tool.c: an OMPT tool that registers no callback: libomp's own cost of having any tool attached (count.py's `null`). */
#include <stddef.h>

#include <omp-tools.h>

/* Returning 1 keeps the tool: libomp then runs its OMPT paths (task and
 * frame records, return addresses, thread states) as it does for ompnuma,
 * but dispatches nothing. Returning 0 would detach it and measure stock. */
static int initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
    (void)lookup;
    (void)initial_device_num;
    (void)tool_data;
    return 1;
}

static void finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version;
    (void)runtime_version;
    static ompt_start_tool_result_t result = {initialize, finalize, {.value = 0}};
    return &result;
}
