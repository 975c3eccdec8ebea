/* declining-inquiry-tool.c: an OMPT tool that looks up the inquiry functions in its initialize, then declines
 * (returns 0); the program calls declined_tool_probe(), which prints what each of them answers afterwards. */
#include <omp-tools.h>
#include <stdio.h>

static ompt_get_thread_data_t get_thread_data;
static ompt_get_proc_id_t get_proc_id;
static ompt_get_place_num_t get_place_num;
static ompt_get_partition_place_nums_t get_partition_place_nums;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_task_info_t get_task_info;
static ompt_get_state_t get_state;
static ompt_get_num_procs_t get_num_procs;
static ompt_get_num_places_t get_num_places;
static ompt_get_callback_t get_callback;
static ompt_set_callback_t set_callback;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *data)
{
}

/* Registered before declining: never called afterwards. */
static void on_task_create(ompt_data_t *parent, const ompt_frame_t *frame, ompt_data_t *task, int flags,
                           int has_dependences, const void *ra)
{
    if (flags & ompt_task_explicit)
        printf("declining-inquiry-tool: task_create called\n");
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td)
{
    get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
    get_proc_id = (ompt_get_proc_id_t)lookup("ompt_get_proc_id");
    get_place_num = (ompt_get_place_num_t)lookup("ompt_get_place_num");
    get_partition_place_nums = (ompt_get_partition_place_nums_t)lookup("ompt_get_partition_place_nums");
    get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    get_state = (ompt_get_state_t)lookup("ompt_get_state");
    get_num_procs = (ompt_get_num_procs_t)lookup("ompt_get_num_procs");
    get_num_places = (ompt_get_num_places_t)lookup("ompt_get_num_places");
    get_callback = (ompt_get_callback_t)lookup("ompt_get_callback");
    set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    set_callback(ompt_callback_task_create, (ompt_callback_t)on_task_create);
    printf("declining-inquiry-tool: initialize declines\n");
    return 0;
}

void declined_tool_probe(void)
{
    ompt_data_t *pd = NULL, *td = NULL;
    int size = -7, type = -7, num = -7, places[4];
    ompt_wait_id_t wait = 0;
    ompt_callback_t cb = NULL;
    printf("thread_data %s\n", get_thread_data() ? "non-null" : "null");
    printf("proc_id %d\n", get_proc_id());
    printf("place_num %d\n", get_place_num());
    printf("partition_place_nums %d\n", get_partition_place_nums(4, places));
    printf("parallel_info %d\n", get_parallel_info(0, &pd, &size));
    printf("task_info %d\n", get_task_info(0, &type, &td, NULL, &pd, &num));
    printf("state %#x\n", (unsigned)get_state(&wait));
    printf("num_procs %s\n", get_num_procs() > 0 ? "positive" : "not positive");
    printf("num_places %d\n", get_num_places());
    printf("set_callback %d\n", (int)set_callback(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin));
    printf("get_callback %d\n", get_callback(ompt_callback_thread_begin, &cb));
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
    static ompt_start_tool_result_t result = {init, NULL, {0}};
    return &result;
}
