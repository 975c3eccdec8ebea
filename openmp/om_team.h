/* om_team.h: the record behind every parallel_data ompnuma hands on, and a chained tool's own word in it. */
#ifndef OMPNUMA_OM_TEAM_H
#define OMPNUMA_OM_TEAM_H

#include <omp-tools.h>
#include "rt_region.h"

/*
 * Every parallel_data that reaches a callback points to an rt_team_data_t
 * that ompnuma set: a team's (its encountering thread's record for that
 * level), a league's, the initial task's, or a deeper-than-measured team's.
 * So ompnuma never reads a word a tool wrote, and a chained tool gets its
 * own word (the record's `user`) in every event, ompnuma's or its own.
 */
static inline rt_team_data_t *om_team_of(const ompt_data_t *pd)
{
    rt_team_data_t *t = pd ? pd->ptr : NULL;
    return t && t->magic == RT_TEAM_MAGIC ? t : NULL;
}

static inline ompt_data_t *om_user_data(ompt_data_t *pd)
{
    rt_team_data_t *t = om_team_of(pd);
    return t ? (ompt_data_t *)&t->user : pd;
}

#endif
