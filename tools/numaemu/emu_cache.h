/* emu_cache.h: a per-vCPU set-associative, LRU, physically indexed cache model: only its misses reach memory. */
#ifndef EMU_CACHE_H
#define EMU_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Each set keeps its lines most recently used first, so a hit on the line
 * just used (most accesses of a sweep) costs one comparison. Keys are the
 * line number + 1: 0 marks an empty way. Private to one vCPU: no locks. */
struct emu_cache {
    uint64_t *keys; /* sets x ways */
    uint32_t sets, ways;
    unsigned line_shift;
};

/* 0, or -1 when the geometry is impossible (errno EINVAL) or memory is short. */
int emu_cache_init(struct emu_cache *c, uint64_t bytes, uint32_t ways, unsigned line_shift);
void emu_cache_free(struct emu_cache *c);

/* Look addr's line up and make it the most recent of its set; true on a hit. */
static inline bool emu_cache_access(struct emu_cache *c, uint64_t addr)
{
    uint64_t line = addr >> c->line_shift, key = line + 1;
    uint64_t *w = c->keys + (size_t)(line % c->sets) * c->ways;
    if (w[0] == key)
        return true;
    uint32_t i;
    for (i = 1; i < c->ways; i++)
        if (w[i] == key)
            break;
    bool hit = i < c->ways;
    if (!hit)
        i = c->ways - 1; /* the least recently used way is replaced */
    memmove(w + 1, w, (size_t)i * sizeof *w);
    w[0] = key;
    return hit;
}

#endif
