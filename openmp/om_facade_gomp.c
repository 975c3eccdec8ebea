/* om_facade_gomp.c: the libgomp.so.1 drop-in: gcc/gfortran programs run on the real LLVM runtime, their region entry points taken at the ABI. */
#include <dlfcn.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "om_abi.h"
#include "rt_core.h"

/* As in om_facade_omp.c, for gcc's region, loop and barrier entry points
 * (om_abi.h's OM_ABI_GOMP list, each in its node in libgomp.map). */
__attribute__((visibility("hidden"), aligned(64))) void *om_facade_slots[OM_ABI_GOMP_N];

/* As in om_facade_omp.c. */
OMPNUMA_EXPORT struct ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                                                const char *runtime_version)
{
    return ompnuma_facade_start_tool(omp_version, runtime_version,
                                     (struct ompt_start_tool_result_t * (*)(unsigned int, const char *))
                                         dlsym(RTLD_NEXT, "ompt_start_tool"));
}

/*
 * libomp implements the GOMP ABI, and every GOMP_x / OMP_x entry point it has
 * under the node gcc records binds to it directly (libgomp.map defines the
 * nodes). What is left are the entry points gcc records under a newer node
 * than libomp exports them in (they exist only as name@VERSION there): they
 * are forwarded here, resolved once with dlvsym. All their arguments are
 * integers or pointers (handles are uintptr_t-sized enums in both runtimes).
 */
typedef uintptr_t handle_t;

static void *real_symbol(const char *name)
{
    static void *lib;
    if (!lib)
        lib = dlopen(OMPNUMA_REAL_LIBOMP, RTLD_LAZY | RTLD_NOLOAD);
    void *sym = lib ? dlvsym(lib, name, "VERSION") : NULL;
    if (!sym) {
        /* Not recoverable: the program called an entry point the runtime lacks. */
        static const char msg[] = "ompnuma: libgomp.so.1 drop-in: the LLVM runtime lacks an entry point\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        abort();
    }
    return sym;
}

#define REAL(type, name) ((type)real_symbol(name))

#define FORWARD(ret, name, params, args)                                        \
    OMPNUMA_EXPORT ret name params                                                      \
    {                                                                           \
        static ret(*real) params;                                               \
        if (!real)                                                              \
            real = (ret(*) params)real_symbol(#name);                           \
        return real args;                                                       \
    }

/* Whether libgomp, loaded with this environment, binds the initial thread as
 * it loads: OMP_PROC_BIND other than false, else OMP_PLACES or
 * GOMP_CPU_AFFINITY. */
static int libgomp_binds_at_load(void)
{
    const char *bind = getenv("OMP_PROC_BIND");
    if (bind && *bind) {
        bind += strspn(bind, " \t");
        return strncasecmp(bind, "false", 5) != 0;
    }
    const char *places = getenv("OMP_PLACES"), *cpus = getenv("GOMP_CPU_AFFINITY");
    return (places && *places) || (cpus && *cpus);
}

/*
 * libgomp reads its settings when it is loaded and, where they ask for a
 * binding, binds the initial thread to the first place there and then: a gcc
 * program's serial code before its first construct runs, and first-touches
 * its data, on that place. libomp binds its primary only at its first
 * construct (or omp_ call), and until then the program ran wherever the
 * kernel put it, its sched_getaffinity saying so. So where libgomp would bind
 * at load, the drop-in has libomp initialize at load too, which binds the
 * primary the same way (tests/openmp/dropin-gomp-binds-at-load.c).
 */
__attribute__((constructor)) static void facade_loaded(void)
{
    ompnuma_facade_register(OM_FACADE_GOMP, om_facade_slots, dlopen(OMPNUMA_REAL_LIBOMP, RTLD_LAZY | RTLD_NOLOAD));
    if (libgomp_binds_at_load())
        REAL(int (*)(void), "omp_get_max_threads")();
}

/*
 * Without libmemkind the LLVM runtime serves every predefined allocator but
 * omp_default_mem_alloc from the default one, printing "OMP: Warning #190:
 * Allocator ... is not available, will use default allocator." at each
 * allocation; libgomp serves them from malloc, silently. The allocation
 * entry points gcc programs call ask for the default allocator directly
 * then: the same memory, without the line libgomp never printed.
 */
#define OMP_NULL_ALLOCATOR 0
#define OMP_DEFAULT_MEM_ALLOC 1
#define OMP_LAST_PREDEFINED_ALLOC 8 /* omp_thread_mem_alloc */

static int predefined_served_by_default(void)
{
    static int answer = -1;
    if (answer < 0) {
        /* The runtime looks for libmemkind when it initializes, and keeps it loaded when it uses it. */
        REAL(int (*)(void), "omp_get_max_threads")();
        void *memkind = dlopen("libmemkind.so", RTLD_LAZY | RTLD_NOLOAD);
        if (memkind)
            dlclose(memkind);
        answer = !memkind;
    }
    return answer;
}

static handle_t quiet(handle_t a)
{
    if (a == OMP_NULL_ALLOCATOR)
        a = REAL(handle_t(*)(void), "omp_get_default_allocator")(); /* what the runtime would use */
    return a > OMP_DEFAULT_MEM_ALLOC && a <= OMP_LAST_PREDEFINED_ALLOC && predefined_served_by_default()
               ? OMP_DEFAULT_MEM_ALLOC
               : a;
}

/* Freeing names the allocator the memory came from (null: the runtime reads it from the block). */
static handle_t quiet_free(handle_t a)
{
    return a == OMP_NULL_ALLOCATOR ? a : quiet(a);
}

/* OMP_5.0.1 */
FORWARD(void *, omp_alloc, (size_t size, handle_t a), (size, quiet(a)))
FORWARD(void, omp_free, (void *p, handle_t a), (p, quiet_free(a)))
FORWARD(handle_t, omp_init_allocator, (handle_t m, int n, const void *traits), (m, n, traits))
FORWARD(void, omp_destroy_allocator, (handle_t a), (a))
FORWARD(void, omp_set_default_allocator, (handle_t a), (a))
FORWARD(handle_t, omp_get_default_allocator, (void), ())
FORWARD(handle_t, omp_get_default_allocator_, (void), ())
FORWARD(int, omp_get_supported_active_levels, (void), ())
FORWARD(int, omp_get_supported_active_levels_, (void), ())
/* OMP_5.0.2 */
FORWARD(void *, omp_aligned_alloc, (size_t al, size_t size, handle_t a), (al, size, quiet(a)))
FORWARD(void *, omp_aligned_calloc, (size_t al, size_t n, size_t size, handle_t a), (al, n, size, quiet(a)))
FORWARD(void *, omp_calloc, (size_t n, size_t size, handle_t a), (n, size, quiet(a)))
FORWARD(void *, omp_realloc, (void *p, size_t size, handle_t a, handle_t f), (p, size, quiet(a), quiet_free(f)))
FORWARD(int, omp_get_device_num, (void), ())
FORWARD(int, omp_get_device_num_, (void), ())
/* OMP_5.1 */
FORWARD(void, omp_display_env, (int verbose), (verbose))
FORWARD(void, omp_set_num_teams, (int n), (n))
FORWARD(void, omp_set_num_teams_, (int *n), (n))
FORWARD(int, omp_get_max_teams, (void), ())
FORWARD(int, omp_get_max_teams_, (void), ())
FORWARD(void, omp_set_teams_thread_limit, (int n), (n))
FORWARD(void, omp_set_teams_thread_limit_, (int *n), (n))
FORWARD(int, omp_get_teams_thread_limit, (void), ())
FORWARD(int, omp_get_teams_thread_limit_, (void), ())

/*
 * `task detach(event)` (gcc 11 on): gcc passes GOMP_task the flag
 * GOMP_TASK_FLAG_DETACH and the address of the event variable, and expects
 * the runtime to store the task's event handle there and in the first word
 * of the task's data block (the body's firstprivate copy) before the block
 * is copied. LLVM's GOMP_task ignores both (its own test suite marks
 * gcc's detach tests as failing): the handle stayed uninitialised and
 * omp_fulfill_event crashed inside libomp. Bridged here with the runtime's
 * own detach support: a deferred task is created through its task entry
 * points (__kmpc_omp_task_alloc with the detachable flag, its completion
 * event) and finishes when its body has run and its event is fulfilled; an
 * undeferred one (if(0), a final task's child) is LLVM's GOMP_task's, and
 * its encountering thread then waits for the event, as libgomp's does.
 * Every other task is LLVM's GOMP_task's, unchanged.
 */
#define GOMP_TASK_FLAG_UNTIED (1u << 0)
#define GOMP_TASK_FLAG_FINAL (1u << 1)
#define GOMP_TASK_FLAG_DEPEND (1u << 3)
#define GOMP_TASK_FLAG_PRIORITY (1u << 4)
#define GOMP_TASK_FLAG_DETACH (1u << 13)

/* The LLVM runtime's task ABI (kmp.h, as clang's code calls it). */
typedef struct kmp_ident {
    int32_t reserved_1, flags, reserved_2, reserved_3;
    const char *psource;
} kmp_ident_t;
typedef int32_t (*kmp_routine_t)(int32_t gtid, void *task);
typedef struct kmp_task {
    void *shareds;
    kmp_routine_t routine;
    int32_t part_id;
    union { int32_t priority; kmp_routine_t destructors; } data1, data2;
} kmp_task_t;
typedef struct kmp_depend_info {
    intptr_t base_addr;
    size_t len;
    uint8_t flags; /* in 1, out 2 (inout 3), mutexinoutset 4, inoutset 8 */
} kmp_depend_info_t;
enum { KMP_TASK_TIED = 0x1, KMP_TASK_FINAL = 0x2, KMP_TASK_PRIORITY = 0x20, KMP_TASK_DETACHABLE = 0x40 };
static kmp_ident_t task_loc = {0, 0x2 /* KMP_IDENT_KMPC */, 0, 0, ";unknown;unknown;0;0;;"};

/* A deferred detached task: the body and its data block follow the task. */
typedef struct detached {
    kmp_task_t task;
    void (*fn)(void *);
    void *data;
} detached_t;

static int32_t run_detached(int32_t gtid, void *task)
{
    detached_t *d = task;
    d->fn(d->data);
    return 0;
}

/* gcc's depend array (libgomp's GOMP_task documents it): depend[0] != 0:
 * depend[0] addresses from depend[2], the first depend[1] of them out or
 * inout, the rest in; depend[0] == 0: depend[1] in all, depend[2] out or
 * inout, depend[3] mutexinoutset, depend[4] in, their addresses from
 * depend[5] in that order, then omp_depend_t objects ({address, kind}). The
 * count, and the entries into deps (NULL: the count only). */
static size_t gomp_depends(void **depend, kmp_depend_info_t *deps)
{
    size_t n, nout, nmutex = 0, nin, first = 2;
    if ((uintptr_t)depend[0]) {
        n = (uintptr_t)depend[0];
        nout = (uintptr_t)depend[1];
        nin = n - nout;
    } else {
        n = (uintptr_t)depend[1];
        nout = (uintptr_t)depend[2];
        nmutex = (uintptr_t)depend[3];
        nin = (uintptr_t)depend[4];
        first = 5;
    }
    for (size_t i = 0; deps && i < n; i++) {
        deps[i].len = 0;
        if (i < nout + nmutex + nin) {
            deps[i].base_addr = (intptr_t)depend[first + i];
            deps[i].flags = i < nout ? 0x3 : i < nout + nmutex ? 0x4 : 0x1;
        } else { /* an omp_depend_t: gcc's kinds in 1, out 2, inout 3, mutexinoutset 4, inoutset 5 */
            void **obj = depend[first + i];
            uintptr_t kind = (uintptr_t)obj[1];
            deps[i].base_addr = (intptr_t)obj[0];
            deps[i].flags = kind == 1 ? 0x1 : kind == 4 ? 0x4 : kind == 5 ? 0x8 : 0x3;
        }
    }
    return n;
}

static void gomp_task_deferred_detach(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                                      long arg_align, unsigned flags, void **depend, int priority, void *detach)
{
    int32_t gtid = REAL(int32_t(*)(kmp_ident_t *), "__kmpc_global_thread_num")(&task_loc);
    int32_t kflags = KMP_TASK_DETACHABLE | (flags & GOMP_TASK_FLAG_UNTIED ? 0 : KMP_TASK_TIED) |
                     (flags & GOMP_TASK_FLAG_FINAL ? KMP_TASK_FINAL : 0) |
                     (flags & GOMP_TASK_FLAG_PRIORITY ? KMP_TASK_PRIORITY : 0);
    size_t align = arg_align > 0 ? (size_t)arg_align : 1;
    kmp_task_t *task = REAL(kmp_task_t * (*)(kmp_ident_t *, int32_t, int32_t, size_t, size_t, kmp_routine_t),
                            "__kmpc_omp_task_alloc")(&task_loc, gtid, kflags, sizeof(detached_t),
                                                     (size_t)arg_size + align - 1, run_detached);
    detached_t *d = (detached_t *)task;
    void *event = REAL(void *(*)(kmp_ident_t *, int32_t, kmp_task_t *), "__kmpc_task_allow_completion_event")(
        &task_loc, gtid, task);
    *(void **)detach = event;
    if (data)
        *(void **)data = event;
    d->fn = fn;
    d->data = (void *)(((uintptr_t)task->shareds + align - 1) & ~(uintptr_t)(align - 1));
    if (cpyfn)
        cpyfn(d->data, data);
    else if (arg_size > 0)
        memcpy(d->data, data, (size_t)arg_size);
    if (flags & GOMP_TASK_FLAG_PRIORITY)
        task->data2.priority = priority;
    size_t ndeps = flags & GOMP_TASK_FLAG_DEPEND ? gomp_depends(depend, NULL) : 0;
    kmp_depend_info_t *deps = ndeps ? malloc(ndeps * sizeof *deps) : NULL;
    if (deps) {
        gomp_depends(depend, deps);
        REAL(int32_t(*)(kmp_ident_t *, int32_t, kmp_task_t *, int32_t, kmp_depend_info_t *, int32_t,
                        kmp_depend_info_t *),
             "__kmpc_omp_task_with_deps")(&task_loc, gtid, task, (int32_t)ndeps, deps, 0, NULL);
        free(deps); /* the runtime copies what it keeps */
    } else {
        REAL(int32_t(*)(kmp_ident_t *, int32_t, kmp_task_t *), "__kmpc_omp_task")(&task_loc, gtid, task);
    }
}

/* An undeferred detached task's event: posted by omp_fulfill_event, waited
 * for by the encountering thread once the body has run. Told apart from
 * the runtime's events by its first word (theirs starts with a small
 * event type). */
#define UNDEFERRED_EVENT 0x6f6d706e756d6164ull
typedef struct undeferred_event {
    uint64_t magic;
    int fulfilled;
} undeferred_event_t;

static void fulfill(handle_t e)
{
    undeferred_event_t *u = (undeferred_event_t *)e;
    if (u && u->magic == UNDEFERRED_EVENT)
        __atomic_store_n(&u->fulfilled, 1, __ATOMIC_RELEASE);
    else
        REAL(void (*)(handle_t), "omp_fulfill_event")(e);
}

OMPNUMA_EXPORT void omp_fulfill_event(handle_t e)
{
    fulfill(e);
}

/* VALUE in gfortran's omp_lib: the handle itself. */
OMPNUMA_EXPORT void omp_fulfill_event_(handle_t e)
{
    fulfill(e);
}

typedef void (*gomp_task_fn)(void (*)(void *), void *, void (*)(void *, void *), long, long, bool, unsigned,
                             void **, int, void *);

OMPNUMA_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                              long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                              void *detach)
{
    static gomp_task_fn real;
    if (!real)
        real = REAL(gomp_task_fn, "GOMP_task");
    if (!(flags & GOMP_TASK_FLAG_DETACH) || !detach) {
        real(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority, detach);
    } else if (if_clause) {
        gomp_task_deferred_detach(fn, data, cpyfn, arg_size, arg_align, flags, depend, priority, detach);
    } else {
        undeferred_event_t event = {.magic = UNDEFERRED_EVENT};
        *(void **)detach = &event;
        if (data)
            *(void **)data = &event;
        real(fn, data, cpyfn, arg_size, arg_align, false, flags & ~GOMP_TASK_FLAG_DETACH, depend, priority, NULL);
        while (!__atomic_load_n(&event.fulfilled, __ATOMIC_ACQUIRE))
            sched_yield();
    }
}

/*
 * gfortran's Fortran entry points (name_) take every argument by reference
 * (libgomp's fortran.c dereferences them), except omp_fulfill_event's, which
 * omp_lib declares VALUE. LLVM's Fortran forms take some by value instead
 * (its omp_lib declares them bind(c), value): those are the ones below, in
 * the node gcc records, so a gfortran program binds to them rather than to
 * libomp's. Each dereferences and calls the C entry point.
 */
OMPNUMA_EXPORT handle_t omp_init_allocator_(const handle_t *m, const int32_t *n, const void *traits)
{
    return REAL(handle_t(*)(handle_t, int, const void *), "omp_init_allocator")(*m, *n, traits);
}

OMPNUMA_EXPORT void omp_destroy_allocator_(const handle_t *a)
{
    REAL(void (*)(handle_t), "omp_destroy_allocator")(*a);
}

OMPNUMA_EXPORT void omp_set_default_allocator_(const handle_t *a)
{
    REAL(void (*)(handle_t), "omp_set_default_allocator")(*a);
}


/* LOGICAL(4): nonzero is true. */
OMPNUMA_EXPORT void omp_display_env_(const int32_t *verbose)
{
    REAL(void (*)(int), "omp_display_env")(*verbose != 0);
}

OMPNUMA_EXPORT void omp_display_env_8_(const int64_t *verbose)
{
    REAL(void (*)(int), "omp_display_env")(*verbose != 0);
}

OMPNUMA_EXPORT int32_t omp_get_place_num_procs_(const int32_t *place)
{
    return REAL(int (*)(int), "omp_get_place_num_procs")(*place);
}

OMPNUMA_EXPORT int32_t omp_get_place_num_procs_8_(const int64_t *place)
{
    return REAL(int (*)(int), "omp_get_place_num_procs")((int)*place);
}

OMPNUMA_EXPORT void omp_get_place_proc_ids_(const int32_t *place, int32_t *ids)
{
    REAL(void (*)(int, int *), "omp_get_place_proc_ids")(*place, ids);
}

OMPNUMA_EXPORT int32_t omp_pause_resource_(const int32_t *kind, const int32_t *device)
{
    return REAL(int (*)(int, int), "omp_pause_resource")(*kind, *device);
}

OMPNUMA_EXPORT int32_t omp_pause_resource_all_(const int32_t *kind)
{
    return REAL(int (*)(int), "omp_pause_resource_all")(*kind);
}

/*
 * omp_set_nested / omp_get_nested: LLVM's print "OMP: Info #276 ...
 * deprecated" at every call, which libgomp never does; these keep
 * libgomp's meaning on the LLVM runtime's max-active-levels-var, silently:
 * true allows the supported levels, false one; nested is "more than one
 * level allowed, and more than are active".
 */
static void set_nested(int on)
{
    int max = REAL(int (*)(void), "omp_get_max_active_levels")();
    if (on)
        REAL(void (*)(int), "omp_set_max_active_levels")(REAL(int (*)(void), "omp_get_supported_active_levels")());
    else if (max > 1)
        REAL(void (*)(int), "omp_set_max_active_levels")(1);
}

static int get_nested(void)
{
    int max = REAL(int (*)(void), "omp_get_max_active_levels")();
    return max > 1 && max > REAL(int (*)(void), "omp_get_active_level")();
}

OMPNUMA_EXPORT void omp_set_nested(int on)
{
    set_nested(on);
}

OMPNUMA_EXPORT void omp_set_nested_(const int32_t *on)
{
    set_nested(*on != 0);
}

OMPNUMA_EXPORT void omp_set_nested_8_(const int64_t *on)
{
    set_nested(*on != 0);
}

OMPNUMA_EXPORT int omp_get_nested(void)
{
    return get_nested();
}

OMPNUMA_EXPORT int32_t omp_get_nested_(void)
{
    return get_nested();
}

/*
 * gfortran's -fdefault-integer-8 entry points (name_8_): the same calls with
 * 64-bit integers. libomp has no such forms; they narrow to the 32-bit
 * Fortran forms it has, which is what libgomp does too.
 */
#define NARROW_SET(name)                                                        \
    OMPNUMA_EXPORT void name##_8_(const int64_t *v)                                     \
    {                                                                           \
        static void (*f)(const int *);                                          \
        if (!f)                                                                 \
            f = REAL(void (*)(const int *), #name "_");                         \
        int n = (int)*v;                                                        \
        f(&n);                                                                  \
    }
NARROW_SET(omp_set_num_threads)
NARROW_SET(omp_set_dynamic)
NARROW_SET(omp_set_max_active_levels)
NARROW_SET(omp_set_default_device)
NARROW_SET(omp_set_num_teams)
NARROW_SET(omp_set_teams_thread_limit)

#define NARROW_GET(name)                                                        \
    OMPNUMA_EXPORT int64_t name##_8_(const int64_t *v)                                  \
    {                                                                           \
        static int (*f)(const int *);                                           \
        if (!f)                                                                 \
            f = REAL(int (*)(const int *), #name "_");                          \
        int n = (int)*v;                                                        \
        return f(&n);                                                           \
    }
NARROW_GET(omp_get_ancestor_thread_num)
NARROW_GET(omp_get_team_size)

/* The runtime fills n 32-bit integers into tmp; the caller wants 64-bit ones. */
static void widen(int64_t *out, const int *tmp, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = tmp[i];
}

OMPNUMA_EXPORT void omp_get_place_proc_ids_8_(const int64_t *p, int64_t *ids)
{
    int place = (int)*p, n = REAL(int (*)(int), "omp_get_place_num_procs")(place);
    int *tmp = n > 0 ? malloc((size_t)n * sizeof *tmp) : NULL;
    if (!tmp)
        return;
    REAL(void (*)(int, int *), "omp_get_place_proc_ids")(place, tmp);
    widen(ids, tmp, n);
    free(tmp);
}

OMPNUMA_EXPORT void omp_get_partition_place_nums_8_(int64_t *nums)
{
    int n = REAL(int (*)(void), "omp_get_partition_num_places")();
    int *tmp = n > 0 ? malloc((size_t)n * sizeof *tmp) : NULL;
    if (!tmp)
        return;
    REAL(void (*)(int *), "omp_get_partition_place_nums")(tmp);
    widen(nums, tmp, n);
    free(tmp);
}

OMPNUMA_EXPORT void omp_set_schedule_8_(const int32_t *kind, const int64_t *chunk)
{
    int c = (int)*chunk;
    REAL(void (*)(const int32_t *, const int *), "omp_set_schedule_")(kind, &c);
}

OMPNUMA_EXPORT void omp_get_schedule_8_(int32_t *kind, int64_t *chunk)
{
    int c;
    REAL(void (*)(int32_t *, int *), "omp_get_schedule_")(kind, &c);
    *chunk = c;
}

OMPNUMA_EXPORT handle_t omp_init_allocator_8_(const handle_t *m, const int64_t *n, const void *traits)
{
    int32_t k = (int32_t)*n;
    return omp_init_allocator_(m, &k, traits);
}

/*
 * OpenMP 5.1 `error` directive (GOMP_5.1), absent from libomp: print as the
 * specification asks; severity fatal ends the program.
 */
static void report(const char *kind, const char *msg, size_t len)
{
    if (!msg)
        fprintf(stderr, "libgomp: %s directive encountered\n", kind);
    else if (len == (size_t)-1)
        fprintf(stderr, "libgomp: %s directive encountered: %s\n", kind, msg);
    else
        fprintf(stderr, "libgomp: %s directive encountered: %.*s\n", kind, (int)len, msg);
}

OMPNUMA_EXPORT void GOMP_warning(const char *msg, size_t len)
{
    report("warning", msg, len);
}

OMPNUMA_EXPORT void GOMP_error(const char *msg, size_t len)
{
    report("error", msg, len);
    exit(EXIT_FAILURE);
}

/*
 * Target constructs: the LLVM runtime offers no device to gcc programs, so
 * every target region runs on the host, as libgomp does without an offload
 * plugin: the host function gets the host addresses, data clauses are no-ops.
 */
OMPNUMA_EXPORT void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs, size_t *sizes,
                            unsigned short *kinds, unsigned int flags, void **depend, void **args)
{
    if (depend) /* host fallback: complete what the dependences wait for */
        REAL(void (*)(void), "GOMP_taskwait")();
    fn(hostaddrs);
}

OMPNUMA_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                 unsigned short *kinds)
{
}

OMPNUMA_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                   unsigned short *kinds, unsigned int flags, void **depend)
{
}

OMPNUMA_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                        unsigned short *kinds, unsigned int flags, void **depend)
{
}

/* Offload images register with the runtime at start-up; with no device, they are not needed. */
OMPNUMA_EXPORT void GOMP_offload_register_ver(unsigned version, const void *host_table, int target_type,
                                      const void *target_data)
{
}

OMPNUMA_EXPORT void GOMP_offload_unregister_ver(unsigned version, const void *host_table, int target_type,
                                        const void *target_data)
{
}

OMPNUMA_EXPORT void GOMP_offload_register(const void *host_table, int target_type, const void *target_data)
{
}

OMPNUMA_EXPORT void GOMP_offload_unregister(const void *host_table, int target_type, const void *target_data)
{
}
