/* id-tool.c: an OMPT tool that stores an integer id (not a pointer) in parallel_data, as LLVM's own test tool does. */
#include <omp-tools.h>
#include <stdint.h>
#include <stdio.h>

int omp_get_thread_num(void);
static ompt_get_unique_id_t unique_id;

static void implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task, unsigned n, unsigned index,
                          int flags)
{
    if (ep == ompt_scope_begin && (flags & ompt_task_initial) && pd)
        pd->value = unique_id();
}

static void parallel_begin(ompt_data_t *enc, const ompt_frame_t *frame, ompt_data_t *pd, unsigned requested,
                           int flags, const void *ra)
{
    pd->value = unique_id();
}

static uint64_t work_id;

static void work(ompt_work_t type, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task, uint64_t count,
                 const void *ra)
{
    if (ep == ompt_scope_begin && omp_get_thread_num() == 0)
        work_id = pd->value;
}

static void parallel_end(ompt_data_t *pd, ompt_data_t *enc, int flags, const void *ra)
{
    printf("id-tool: parallel_end sees %s id as the loop inside\n", pd->value == work_id ? "the same" : "another");
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td)
{
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
    set(ompt_callback_implicit_task, (ompt_callback_t)implicit_task);
    set(ompt_callback_parallel_begin, (ompt_callback_t)parallel_begin);
    set(ompt_callback_parallel_end, (ompt_callback_t)parallel_end);
    set(ompt_callback_work, (ompt_callback_t)work);
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
