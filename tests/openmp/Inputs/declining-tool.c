/* declining-tool.c: an OMPT tool whose start succeeds but whose initialize declines (returns 0). */
#include <omp-tools.h>
#include <stdio.h>

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td)
{
    printf("declining-tool: initialize declines\n");
    return 0;
}

static void fini(ompt_data_t *td)
{
    printf("declining-tool: finalize (never on stock)\n");
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
    static ompt_start_tool_result_t result = {init, fini, {0}};
    return &result;
}
