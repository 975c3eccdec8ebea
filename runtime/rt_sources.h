/* rt_sources.h: the interface each counter source (rt_src_*.c) implements. */
#ifndef OMPNUMA_RT_SOURCES_H
#define OMPNUMA_RT_SOURCES_H

#include <stddef.h>
#include <stdint.h>
#include "rt_region.h"

typedef struct rt_source_ops {
    /* 0 when the source can work here; otherwise -1 with the reason in why. */
    int      (*probe)(char *why, size_t len);
    /* Once, when chosen. May be NULL. */
    void     (*start)(void);
    /* The encountering thread, before a sampled execution's team forks; team
     * identifies this team instance (inner teams of several outer threads
     * share one record). May be NULL. */
    void     (*region_begin)(rt_region_t *r, const void *team);
    /* Called by thread `index` of team instance `team` as it starts its part of a sampled execution. May be NULL. */
    void     (*thread_begin)(rt_region_t *r, int index, const void *team);
    /* The primary after a sampled execution: add to r->tnt, return samples added. */
    uint64_t (*region_end)(rt_region_t *r);
    int        intrusive;  /* sampling slows the sampled execution */
} rt_source_ops_t;

extern const rt_source_ops_t rt_source_perf;
extern const rt_source_ops_t rt_source_papi;
extern const rt_source_ops_t rt_source_pagefault;
extern const rt_source_ops_t rt_source_hints;
extern const rt_source_ops_t rt_source_replay;

/* "symbol+0xoff" (or "object+0xoff", or "0xaddr") for a code address. */
void rt_symbolize(const void *codeptr, char *buf, size_t len);

#endif
