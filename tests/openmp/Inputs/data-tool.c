/* data-tool.c: an OMPT tool that keeps its own record in each team's parallel_data and checks it at the end.
   Inner teams end on several threads at once, so every count is atomic. */
#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    unsigned magic;
    int      tasks;
} team_t;

static int kept, clobbered, tasks_seen, barriers_seen;

static void parallel_begin(ompt_data_t *enc, const ompt_frame_t *frame, ompt_data_t *pd, unsigned requested,
                           int flags, const void *ra)
{
    team_t *t = calloc(1, sizeof *t);
    t->magic = 0xC0FFEE;
    pd->ptr = t;
}

static void implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task, unsigned n, unsigned index,
                          int flags)
{
    team_t *t = pd ? pd->ptr : NULL;
    if (ep == ompt_scope_begin && !(flags & ompt_task_initial) && t && t->magic == 0xC0FFEE)
        __atomic_fetch_add(&tasks_seen, 1, __ATOMIC_RELAXED);
}

static void sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pd, ompt_data_t *task,
                        const void *ra)
{
    team_t *t = pd ? pd->ptr : NULL;
    if (ep == ompt_scope_begin && t && t->magic == 0xC0FFEE)
        __atomic_fetch_add(&barriers_seen, 1, __ATOMIC_RELAXED);
}

static void parallel_end(ompt_data_t *pd, ompt_data_t *enc, int flags, const void *ra)
{
    team_t *t = pd->ptr;
    if (t && t->magic == 0xC0FFEE) {
        __atomic_fetch_add(&kept, 1, __ATOMIC_RELAXED);
        free(t);
    } else {
        __atomic_fetch_add(&clobbered, 1, __ATOMIC_RELAXED);
    }
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td)
{
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    set(ompt_callback_parallel_begin, (ompt_callback_t)parallel_begin);
    set(ompt_callback_implicit_task, (ompt_callback_t)implicit_task);
    set(ompt_callback_parallel_end, (ompt_callback_t)parallel_end);
    set(ompt_callback_sync_region, (ompt_callback_t)sync_region);
    return 1;
}

static void fini(ompt_data_t *td)
{
    fprintf(stderr, "data-tool: parallel_data kept %d, clobbered %d, member tasks saw it %d, barriers %d\n", kept,
            clobbered, tasks_seen, barriers_seen);
}

static ompt_start_tool_result_t result = {init, fini, {0}};

ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
    return &result;
}
