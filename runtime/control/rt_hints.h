/* rt_hints.h: the re-placement omp_numa_update_hints asks for, installed into the memory manager. */
#ifndef OMPNUMA_RT_HINTS_H
#define OMPNUMA_RT_HINTS_H

#include <stdio.h>
#include "rt_region.h"

/* Install the hook (rt_mem_set_replace_hook) once the runtime is up. */
void rt_hints_init(void);

/* r's part of its report object: the threads update_hints moved. */
void rt_hints_report_json(FILE *f, const rt_region_t *r);

#endif
