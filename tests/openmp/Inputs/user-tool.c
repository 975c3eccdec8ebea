/* user-tool.c: a user's OMPT tool for OMP_TOOL_LIBRARIES: one stable stderr line per event it registers. */
#include <omp-tools.h>
#include <stdio.h>

static const char *const thread_kinds[] = {"?", "initial", "worker", "other", "unknown"};

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    (void)thread_data;
    fprintf(stderr, "tool: thread_begin %s\n", (unsigned)type < 5 ? thread_kinds[type] : "?");
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *parallel,
                              unsigned int requested, int flags, const void *codeptr)
{
    (void)task; (void)frame; (void)parallel; (void)codeptr;
    fprintf(stderr, "tool: parallel_begin requested=%u %s\n", requested,
            (flags & ompt_parallel_team) ? "team" : "league");
}

static int tool_init(ompt_function_lookup_t lookup, int device, ompt_data_t *data)
{
    (void)device; (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    int a = set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
    int b = set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
    fprintf(stderr, "tool: initialize thread_begin=%s parallel_begin=%s\n",
            a == ompt_set_always ? "always" : "not always", b == ompt_set_always ? "always" : "not always");
    return 1;
}

static void tool_fini(ompt_data_t *data)
{
    (void)data;
    fprintf(stderr, "tool: finalize\n");
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    (void)omp_version; (void)runtime_version;
    static ompt_start_tool_result_t result = {tool_init, tool_fini, {.value = 0}};
    return &result;
}
