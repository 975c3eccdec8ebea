/* om_chain.h: the user OMPT tool stock libomp would have started (lookup scope, OMP_TOOL_LIBRARIES, libarcher), started and fed events inside ompnuma's tool. */
#ifndef OMPNUMA_OM_CHAIN_H
#define OMPNUMA_OM_CHAIN_H

#include <omp-tools.h>

/* Highest OMPT callback number plus one (omp-tools.h numbers them < 64). */
#define OM_CHAIN_EVENTS 64

/* The user tool's callback for each event ompnuma registers itself; NULL
 * when it registered none. Written before the first parallel region. */
extern ompt_callback_t om_chain_user[OM_CHAIN_EVENTS];

/* Call the user tool's callback for an event ompnuma also handles. */
#define OM_CHAIN(event, type, ...)                      \
    do {                                                \
        ompt_callback_t cb_ = om_chain_user[event];     \
        if (cb_)                                        \
            ((type)cb_)(__VA_ARGS__);                   \
    } while (0)

typedef ompt_start_tool_result_t *(*om_start_fn)(unsigned int, const char *);

#define OM_CHAIN_LIST 1       /* also OMP_TOOL_LIBRARIES, then libarcher.so */
#define OM_CHAIN_AFTER_SELF 2 /* reached from OMP_TOOL_LIBRARIES: only the entries after libompnuma */

/* Find the user tool the runtime would have started had ompnuma not been
 * where it was reached: next (the next ompt_start_tool in the lookup scope
 * after the caller, or NULL), then with OM_CHAIN_LIST the tool libraries.
 * Definitions of ompnuma and of the LLVM runtime are not user tools.
 * Returns the tool's start result, or NULL. */
ompt_start_tool_result_t *om_chain_start(unsigned int omp_version, const char *runtime_version, om_start_fn next,
                                         int flags);

/* Whether om_chain_start is calling into the lookup scope. */
int om_chain_searching(void);

/* During that search, a definition of ompnuma's passes the call on to next. */
ompt_start_tool_result_t *om_chain_pass_on(unsigned int omp_version, const char *runtime_version, om_start_fn next);

/* Register ompnuma's callback for event with the runtime. */
void om_chain_register(ompt_set_callback_t set, ompt_callbacks_t event, ompt_callback_t ours);

/* Initialise the user tool, if any, with a lookup whose ompt_set_callback
 * routes the events ompnuma owns into om_chain_user. */
void om_chain_initialize(ompt_function_lookup_t lookup, int initial_device_num, ompt_set_callback_t set);

void om_chain_finalize(void);

/* Whether a user tool is started and its initialize accepted: what the
 * runtime's "a tool is active" would be without ompnuma. */
int om_chain_active(void);

#endif
