/* probe-tool.c: an OMPT tool that checks what the runtime hands it: its own thread_data, parallel_data in the inquiry functions, its own callbacks. */
#include <omp-tools.h>
#include <stdio.h>

static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_callback_t get_callback;
static int thread_data_clean, thread_data_dirty, parallel_info_own, parallel_info_other, task_info_own,
    task_info_other;

static void thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    if (thread_data->value == 0)
        __atomic_fetch_add(&thread_data_clean, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&thread_data_dirty, 1, __ATOMIC_RELAXED);
    thread_data->value = 42;
}

static void thread_begin(ompt_thread_t type, ompt_data_t *thread_data);
static void implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task, unsigned n, unsigned index,
                          int flags);
static void work(ompt_work_t type, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task, uint64_t count,
                 const void *ra);

/* ompt_get_callback answers once the tool is initialized: asked at the first region. */
static void parallel_begin(ompt_data_t *enc, const ompt_frame_t *frame, ompt_data_t *pd, unsigned requested,
                           int flags, const void *ra)
{
    static int asked;
    pd->value = 0x7001;
    if (asked++)
        return;
    ompt_callback_t cb;
    int g1 = get_callback(ompt_callback_thread_begin, &cb) && cb == (ompt_callback_t)thread_begin;
    int g2 = get_callback(ompt_callback_parallel_begin, &cb) && cb == (ompt_callback_t)parallel_begin;
    int g3 = get_callback(ompt_callback_implicit_task, &cb) && cb == (ompt_callback_t)implicit_task;
    int g4 = get_callback(ompt_callback_work, &cb) && cb == (ompt_callback_t)work;
    int g5 = get_callback(ompt_callback_sync_region, &cb);
    int g6 = get_callback(ompt_callback_parallel_end, &cb);
    printf("probe-tool: get_callback own %d %d %d %d, unregistered %d %d\n", g1, g2, g3, g4, g5, g6);
}

/* Inside each team member: the inquiry functions must return the same
 * ompt_data_t the events handed over, holding the tool's own value. */
static void implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task, unsigned n, unsigned index,
                          int flags)
{
    if (ep != ompt_scope_begin || (flags & ompt_task_initial))
        return;
    ompt_data_t *p = NULL, *tp = NULL;
    int size = 0;
    if (get_parallel_info(0, &p, &size) && p == pd && p->value == 0x7001)
        __atomic_fetch_add(&parallel_info_own, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&parallel_info_other, 1, __ATOMIC_RELAXED);
    if (get_task_info(0, NULL, NULL, NULL, &tp, NULL) && tp == pd && tp->value == 0x7001)
        __atomic_fetch_add(&task_info_own, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&task_info_other, 1, __ATOMIC_RELAXED);
}

static void work(ompt_work_t type, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task, uint64_t count,
                 const void *ra)
{
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td)
{
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    get_callback = (ompt_get_callback_t)lookup("ompt_get_callback");
    int s1 = set(ompt_callback_thread_begin, (ompt_callback_t)thread_begin);
    int s2 = set(ompt_callback_parallel_begin, (ompt_callback_t)parallel_begin);
    int s3 = set(ompt_callback_implicit_task, (ompt_callback_t)implicit_task);
    int s4 = set(ompt_callback_work, (ompt_callback_t)work);
    int s5 = set(ompt_callback_sync_region, NULL);
    printf("probe-tool: set results %d %d %d %d %d\n", s1, s2, s3, s4, s5);
    return 1;
}

static void fini(ompt_data_t *td)
{
    printf("probe-tool: thread_data clean %d dirty %d\n", thread_data_clean, thread_data_dirty);
    printf("probe-tool: parallel_info own %d other %d\n", parallel_info_own, parallel_info_other);
    printf("probe-tool: task_info own %d other %d\n", task_info_own, task_info_other);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
    static ompt_start_tool_result_t result = {init, fini, {0}};
    return &result;
}
