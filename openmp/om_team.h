/* om_team.h: the OMPT records ompnuma keeps: the one behind every parallel_data it hands on, and each thread's. */
#ifndef OMPNUMA_OM_TEAM_H
#define OMPNUMA_OM_TEAM_H

#include <stdint.h>
#include <omp-tools.h>

#include "rt_events.h"

/*
 * What ompnuma hangs on a team's parallel_data: its word for the team
 * members, and the data word of a chained user tool, which must not share
 * ompnuma's. One per nesting level in the encountering thread's record: a
 * thread encounters one team at a time per level. The record's address is
 * the team handle the runtime receives (rt_events.h).
 *
 * Every parallel_data that reaches a callback points to one of these,
 * set by ompnuma: a team's, a league's, the initial task's, or a
 * deeper-than-measured team's. So ompnuma never reads a word a tool wrote,
 * and a chained tool gets its own word (`user`) in every event.
 */
typedef struct om_team_data {
    uint64_t magic;               /* OM_TEAM_MAGIC: tells it from a tool's own pointer */
    uint64_t word;                /* region record and bubble slot (om_tool.c) */
    uint64_t user;                /* a chained tool's ompt_data_t for this team */
} om_team_data_t;
#define OM_TEAM_MAGIC 0x6f6d706e756d6174ull /* "ompnumat" */

/* Per OpenMP thread: the runtime's record and the OMPT bookkeeping. */
typedef struct om_thread {
    rt_thread_t    rt;                    /* first: rt_thread_current() is this record */
    om_team_data_t team[RT_MAX_DEPTH];    /* teams this thread encountered, by level */
    om_team_data_t initial;               /* the initial task's implicit parallel region */
    om_team_data_t league;                /* a teams construct's league */
    om_team_data_t deep;                  /* teams nested deeper than RT_MAX_DEPTH */
    rt_region_t   *ended;                 /* region whose primary implicit task just ended */
} om_thread_t;

static inline om_team_data_t *om_team_of(const ompt_data_t *pd)
{
    om_team_data_t *t = pd ? pd->ptr : NULL;
    return t && t->magic == OM_TEAM_MAGIC ? t : NULL;
}

static inline ompt_data_t *om_user_data(ompt_data_t *pd)
{
    om_team_data_t *t = om_team_of(pd);
    return t ? (ompt_data_t *)&t->user : pd;
}

#endif
