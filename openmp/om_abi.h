/* om_abi.h: the entry points the drop-ins take at the ABI: one list for the facades' exported stubs and for what libompnuma does in each. */
#ifndef OMPNUMA_OM_ABI_H
#define OMPNUMA_OM_ABI_H

/*
 * Each drop-in (libomp.so.5, libgomp.so.1) exports these entry points; each
 * export is a stub that jumps through a slot of the facade's own table
 * (om_facade_stubs.S), and libompnuma fills the table (om_abi.c): a slot
 * holds libompnuma's part for that entry point, or the real runtime's entry
 * itself when ompnuma has nothing to do there (one indirect jump). Every
 * other entry point of the program binds to the real runtime directly.
 *
 * X(index, name, shape): the index is the slot (written out: the stubs are
 * assembly), the shape says which of om_abi.c's forms takes the call. The
 * first OM_ABI_*_REGIONS entries start and end parallel regions and are
 * always taken while ompnuma runs; the others (worksharing loops, barriers)
 * only while something reads them (om_abi.c, "watched"). A table is
 * aligned to a cache line; in libomp's, what a clang program calls most (a
 * region, a static loop) is in the first eight slots, one line (gcc's own
 * GOMP_parallel is slot 0; its static loops make no call).
 */
#define OM_ABI_OMP(X)                                   \
    X(0, __kmpc_fork_call, FORK)                        \
    X(1, __kmpc_fork_call_if, FORK_IF)                  \
    X(2, __kmpc_serialized_parallel, SERIALIZED)        \
    X(3, __kmpc_end_serialized_parallel, END_SERIALIZED)\
    X(4, __kmpc_push_num_threads, PUSH)                 \
    X(5, __kmpc_for_static_init_4, STATIC_INIT_4)       \
    X(6, __kmpc_for_static_init_8, STATIC_INIT_8)       \
    X(7, __kmpc_for_static_fini, STATIC_FINI)           \
    X(8, __kmpc_for_static_init_4u, STATIC_INIT_4U)     \
    X(9, __kmpc_for_static_init_8u, STATIC_INIT_8U)     \
    X(10, __kmpc_dispatch_init_4, DISPATCH_INIT_4)      \
    X(11, __kmpc_dispatch_init_4u, DISPATCH_INIT_4U)    \
    X(12, __kmpc_dispatch_init_8, DISPATCH_INIT_8)      \
    X(13, __kmpc_dispatch_init_8u, DISPATCH_INIT_8U)    \
    X(14, __kmpc_dispatch_next_4, DISPATCH_NEXT_4)      \
    X(15, __kmpc_dispatch_next_4u, DISPATCH_NEXT_4U)    \
    X(16, __kmpc_dispatch_next_8, DISPATCH_NEXT_8)      \
    X(17, __kmpc_dispatch_next_8u, DISPATCH_NEXT_8U)    \
    X(18, __kmpc_barrier, BARRIER)                      \
    X(19, __kmpc_cancel_barrier, CANCEL_BARRIER)        \
    X(20, __kmpc_reduce, REDUCE)                        \
    X(21, __kmpc_end_reduce, END_REDUCE)
#define OM_ABI_OMP_N 22
#define OM_ABI_OMP_REGIONS 5

#define OM_ABI_GOMP(X)                                                          \
    X(0, GOMP_parallel, PARALLEL)                                               \
    X(1, GOMP_parallel_start, PARALLEL_START)                                   \
    X(2, GOMP_parallel_end, PARALLEL_END)                                       \
    X(3, GOMP_parallel_loop_static, PARALLEL_LOOP)                              \
    X(4, GOMP_parallel_loop_dynamic, PARALLEL_LOOP)                             \
    X(5, GOMP_parallel_loop_guided, PARALLEL_LOOP)                              \
    X(6, GOMP_parallel_loop_nonmonotonic_dynamic, PARALLEL_LOOP)                \
    X(7, GOMP_parallel_loop_nonmonotonic_guided, PARALLEL_LOOP)                 \
    X(8, GOMP_parallel_loop_runtime, PARALLEL_LOOP_RUNTIME)                     \
    X(9, GOMP_parallel_loop_nonmonotonic_runtime, PARALLEL_LOOP_RUNTIME)        \
    X(10, GOMP_parallel_loop_maybe_nonmonotonic_runtime, PARALLEL_LOOP_RUNTIME) \
    X(11, GOMP_parallel_loop_static_start, PARALLEL_LOOP_START)                 \
    X(12, GOMP_parallel_loop_dynamic_start, PARALLEL_LOOP_START)                \
    X(13, GOMP_parallel_loop_guided_start, PARALLEL_LOOP_START)                 \
    X(14, GOMP_parallel_loop_runtime_start, PARALLEL_LOOP_RUNTIME_START)        \
    X(15, GOMP_parallel_sections, PARALLEL_SECTIONS)                            \
    X(16, GOMP_parallel_sections_start, PARALLEL_SECTIONS_START)                \
    X(17, GOMP_parallel_reductions, PARALLEL_REDUCTIONS)                        \
    X(18, GOMP_loop_static_start, LOOP_START)                                   \
    X(19, GOMP_loop_dynamic_start, LOOP_START)                                  \
    X(20, GOMP_loop_guided_start, LOOP_START)                                   \
    X(21, GOMP_loop_nonmonotonic_dynamic_start, LOOP_START)                     \
    X(22, GOMP_loop_nonmonotonic_guided_start, LOOP_START)                      \
    X(23, GOMP_loop_ordered_static_start, LOOP_START)                           \
    X(24, GOMP_loop_ordered_dynamic_start, LOOP_START)                          \
    X(25, GOMP_loop_ordered_guided_start, LOOP_START)                           \
    X(26, GOMP_loop_runtime_start, LOOP_START_RUNTIME)                          \
    X(27, GOMP_loop_nonmonotonic_runtime_start, LOOP_START_RUNTIME)             \
    X(28, GOMP_loop_maybe_nonmonotonic_runtime_start, LOOP_START_RUNTIME)       \
    X(29, GOMP_loop_ordered_runtime_start, LOOP_START_RUNTIME)                  \
    X(30, GOMP_loop_start, LOOP_START_GENERIC)                                  \
    X(31, GOMP_loop_ordered_start, LOOP_START_GENERIC)                          \
    X(32, GOMP_loop_static_next, LOOP_NEXT)                                     \
    X(33, GOMP_loop_dynamic_next, LOOP_NEXT)                                    \
    X(34, GOMP_loop_guided_next, LOOP_NEXT)                                     \
    X(35, GOMP_loop_runtime_next, LOOP_NEXT)                                    \
    X(36, GOMP_loop_nonmonotonic_dynamic_next, LOOP_NEXT)                       \
    X(37, GOMP_loop_nonmonotonic_guided_next, LOOP_NEXT)                        \
    X(38, GOMP_loop_nonmonotonic_runtime_next, LOOP_NEXT)                       \
    X(39, GOMP_loop_maybe_nonmonotonic_runtime_next, LOOP_NEXT)                 \
    X(40, GOMP_loop_ordered_static_next, LOOP_NEXT)                             \
    X(41, GOMP_loop_ordered_dynamic_next, LOOP_NEXT)                            \
    X(42, GOMP_loop_ordered_guided_next, LOOP_NEXT)                             \
    X(43, GOMP_loop_ordered_runtime_next, LOOP_NEXT)                            \
    X(44, GOMP_loop_ull_static_start, ULL_START)                                \
    X(45, GOMP_loop_ull_dynamic_start, ULL_START)                               \
    X(46, GOMP_loop_ull_guided_start, ULL_START)                                \
    X(47, GOMP_loop_ull_nonmonotonic_dynamic_start, ULL_START)                  \
    X(48, GOMP_loop_ull_nonmonotonic_guided_start, ULL_START)                   \
    X(49, GOMP_loop_ull_ordered_static_start, ULL_START)                        \
    X(50, GOMP_loop_ull_ordered_dynamic_start, ULL_START)                       \
    X(51, GOMP_loop_ull_ordered_guided_start, ULL_START)                        \
    X(52, GOMP_loop_ull_runtime_start, ULL_START_RUNTIME)                       \
    X(53, GOMP_loop_ull_nonmonotonic_runtime_start, ULL_START_RUNTIME)          \
    X(54, GOMP_loop_ull_maybe_nonmonotonic_runtime_start, ULL_START_RUNTIME)    \
    X(55, GOMP_loop_ull_ordered_runtime_start, ULL_START_RUNTIME)               \
    X(56, GOMP_loop_ull_start, ULL_START_GENERIC)                               \
    X(57, GOMP_loop_ull_ordered_start, ULL_START_GENERIC)                       \
    X(58, GOMP_loop_ull_static_next, ULL_NEXT)                                  \
    X(59, GOMP_loop_ull_dynamic_next, ULL_NEXT)                                 \
    X(60, GOMP_loop_ull_guided_next, ULL_NEXT)                                  \
    X(61, GOMP_loop_ull_runtime_next, ULL_NEXT)                                 \
    X(62, GOMP_loop_ull_nonmonotonic_dynamic_next, ULL_NEXT)                    \
    X(63, GOMP_loop_ull_nonmonotonic_guided_next, ULL_NEXT)                     \
    X(64, GOMP_loop_ull_nonmonotonic_runtime_next, ULL_NEXT)                    \
    X(65, GOMP_loop_ull_maybe_nonmonotonic_runtime_next, ULL_NEXT)              \
    X(66, GOMP_loop_ull_ordered_static_next, ULL_NEXT)                          \
    X(67, GOMP_loop_ull_ordered_dynamic_next, ULL_NEXT)                         \
    X(68, GOMP_loop_ull_ordered_guided_next, ULL_NEXT)                          \
    X(69, GOMP_loop_ull_ordered_runtime_next, ULL_NEXT)                         \
    X(70, GOMP_loop_end, LOOP_END)                                              \
    X(71, GOMP_loop_end_nowait, LOOP_END_NOWAIT)                                \
    X(72, GOMP_loop_end_cancel, LOOP_END_CANCEL)                                \
    X(73, GOMP_barrier, GOMP_BARRIER)                                           \
    X(74, GOMP_barrier_cancel, GOMP_BARRIER_CANCEL)
#define OM_ABI_GOMP_N 75
#define OM_ABI_GOMP_REGIONS 18

/* __kmpc_fork_call (om_abi_x86_64.S): the team record's room in its frame,
 * and how the real runtime is called after om_abi_fork_begin: with the
 * trampoline (then the region's end), with the program's own outlined
 * function and arguments, or with om_abi_microtask_alone and the team
 * record (then, for both, one counter of the primary's decremented, or
 * nothing when ompnuma does not run). */
#define OM_ABI_TEAM_FRAME 128
/* What the frame writes into it for the trampoline (om_abi_team_t's
 * argc, fn, regs and stack; om_abi.c checks the offsets). */
#define OM_ABI_TEAM_ARGC 36
#define OM_ABI_TEAM_FN 40
#define OM_ABI_TEAM_REGS 56
#define OM_ABI_TEAM_STACK 64
/* Where om_abi_hot (om_abi.c) keeps the real __kmpc_fork_call. */
#define OM_ABI_HOT_REAL_FORK 24
#define OM_FORK_TRAMPOLINE 0
#define OM_FORK_PROGRAM 1
#define OM_FORK_ALONE 2

#ifndef __ASSEMBLER__
/* The facades. */
enum { OM_FACADE_OMP, OM_FACADE_GOMP, OM_FACADE_COUNT };

/* Each facade, from its constructor: its slot table and a handle of the
 * real runtime; libompnuma resolves the real entry points and fills the
 * slots (OMPNUMA_PRIVATE in libompnuma.map). */
void ompnuma_facade_register(int facade, void **slots, void *real_runtime);

/* Each facade's ompt_start_tool: ompnuma starts; the call goes on to next,
 * the next definition in the lookup scope (dlsym(RTLD_NEXT)). */
struct ompt_start_tool_result_t;
struct ompt_start_tool_result_t *ompnuma_facade_start_tool(unsigned int omp_version, const char *runtime_version,
                                                           struct ompt_start_tool_result_t *(*next)(unsigned int,
                                                                                                    const char *));

/* Whether a facade registered: regions are taken at the ABI, and ompnuma's
 * OMPT tool declines to start. */
int om_abi_route(void);
#endif

#endif
