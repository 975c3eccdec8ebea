/* om_tool.h: the start of ompnuma's OMPT tool, shared by libompnuma and the facades. */
#ifndef OMPNUMA_OM_TOOL_H
#define OMPNUMA_OM_TOOL_H

#include <omp-tools.h>

/* What ompt_start_tool returns: ompnuma's tool (with a user tool from
 * OMP_TOOL_LIBRARIES chained inside), the user tool alone when placement is
 * off and nothing is to be reported, or NULL. */
ompt_start_tool_result_t *om_tool_start(unsigned int omp_version, const char *runtime_version);

#endif
