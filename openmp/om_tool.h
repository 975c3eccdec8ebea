/* om_tool.h: the start of ompnuma's OMPT tool, shared by libompnuma and the facades. */
#ifndef OMPNUMA_OM_TOOL_H
#define OMPNUMA_OM_TOOL_H

#include <omp-tools.h>

#include "om_chain.h"

/* What ompt_start_tool returns: ompnuma's tool, with the user tool stock
 * libomp would have started chained inside (next in the lookup scope, then
 * OMP_TOOL_LIBRARIES; only those after libompnuma when from_list), or that
 * user tool alone (or NULL) when placement is off and nothing is to be
 * reported; NULL when called again. */
ompt_start_tool_result_t *om_tool_start(unsigned int omp_version, const char *runtime_version, om_start_fn next,
                                        int from_list);

/* The facades' entry: next is the next ompt_start_tool after the facade in
 * the lookup scope (dlsym(RTLD_NEXT)), where stock's search would go on. */
ompt_start_tool_result_t *ompnuma_facade_start_tool(unsigned int omp_version, const char *runtime_version,
                                                    om_start_fn next);

/* Called by each facade when it is loaded, with the address of something
 * of its own: when another ompt_start_tool comes first in the lookup scope
 * (the program's own tool), the runtime starts that one and ompnuma cannot
 * run; say so once when a report or the verbose log was asked for. */
void ompnuma_facade_loaded(const void *facade_addr);

#endif
