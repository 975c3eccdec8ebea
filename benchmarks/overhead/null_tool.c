/* null_tool.c: an OMPT tool that does nothing: libomp's own cost of having a tool attached (count.py's `null`), and of dispatching the callbacks ompnuma registers to empty ones (`dispatch`). */
#include <stdlib.h>

#include <omp-tools.h>

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    (void)type;
    (void)thread_data;
}

static void on_thread_end(ompt_data_t *thread_data)
{
    (void)thread_data;
}

static void on_parallel_begin(ompt_data_t *encountering_task_data, const ompt_frame_t *frame,
                              ompt_data_t *parallel_data, unsigned int requested, int flags, const void *codeptr_ra)
{
    (void)encountering_task_data;
    (void)frame;
    (void)parallel_data;
    (void)requested;
    (void)flags;
    (void)codeptr_ra;
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data, int flags,
                            const void *codeptr_ra)
{
    (void)parallel_data;
    (void)encountering_task_data;
    (void)flags;
    (void)codeptr_ra;
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data, ompt_data_t *task_data,
                             unsigned int actual_parallelism, unsigned int index, int flags)
{
    (void)endpoint;
    (void)parallel_data;
    (void)task_data;
    (void)actual_parallelism;
    (void)index;
    (void)flags;
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                           ompt_data_t *task_data, const void *codeptr_ra)
{
    (void)kind;
    (void)endpoint;
    (void)parallel_data;
    (void)task_data;
    (void)codeptr_ra;
}

/* Returning 1 keeps the tool: libomp then runs its OMPT paths (task and
 * frame records, return addresses, thread states) as it does for ompnuma.
 * With OVERHEAD_TOOL_DISPATCH set it also calls, at every event, the
 * callbacks ompnuma registers for a settled region by default (om_tool.c),
 * here empty; without it, none. Returning 0 would detach the tool and
 * measure stock. */
static int initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data)
{
    (void)initial_device_num;
    (void)tool_data;
    ompt_set_callback_t set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (getenv("OVERHEAD_TOOL_DISPATCH") && set_callback) {
        set_callback(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
        set_callback(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
        set_callback(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
        set_callback(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
        set_callback(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
        set_callback(ompt_callback_sync_region, (ompt_callback_t)on_sync_region);
    }
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
