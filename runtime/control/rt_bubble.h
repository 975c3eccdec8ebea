/* rt_bubble.h: the bubble policy (OMP_PLACEMENT=bubble,scheduler=cache|memory): nested teams as bubbles. */
#ifndef OMPNUMA_RT_BUBBLE_H
#define OMPNUMA_RT_BUBBLE_H

#include <stdio.h>
#include "rt_region.h"

/* The CPU thread `index` of region r takes, given the slot its team's master
 * holds in the enclosing team's tree (-1 for an outermost team); *slot
 * receives this thread's own slot (-1 outside the tree). -1: no placement. */
int rt_bubble_place(rt_region_t *r, int index, int master_slot, int *slot);

/* The position among its team's CPUs thread `index` of r takes: its own,
 * unless critpath reordered the team from its TNT (rt_loop.c). */
int rt_bubble_position(const rt_region_t *r, int index);
/* The loop's decision inside r's bubble: thread i takes position perm[i]
 * from its next begin; the order before is kept for rt_bubble_restore
 * (a move not measured faster). 0, or -1 when out of memory (nothing
 * changed). Allocates at a team's first reordering. */
int  rt_bubble_reorder(rt_region_t *r, const int *perm);
void rt_bubble_restore(rt_region_t *r);

/* The node of each position of region r's team in its tree (the first
 * team of r when several masters create one). 0, or -1 when r has no tree. */
int rt_bubble_team_nodes(const rt_region_t *r, int *node);

/* Rebuild the trees when regions appeared (the encountering thread, before
 * the team forks; allocates, and may take a hints snapshot and move data). */
void rt_bubble_refresh(void);

/* The trees, their CPUs and the threads-or-data choices, as a JSON array. */
void rt_bubble_report_json(FILE *f);

#endif
