/* control-tool.c: an OMPT tool that answers omp_control_tool() with command + 100 and prints the modifier. */
#include <omp-tools.h>
#include <stdio.h>

static int control(uint64_t command, uint64_t modifier, void *arg, const void *ra)
{
    printf("control-tool: command %d modifier %d\n", (int)command, (int)modifier);
    return (int)command + 100;
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td)
{
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    set(ompt_callback_control_tool, (ompt_callback_t)control);
    return 1;
}

static void fini(ompt_data_t *td)
{
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
    static ompt_start_tool_result_t result = {init, fini, {0}};
    return &result;
}
