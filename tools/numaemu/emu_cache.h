/* emu_cache.h: a per-vCPU set-associative, LRU cache model, virtually indexed and physically tagged: only its misses reach memory. */
#ifndef EMU_CACHE_H
#define EMU_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Each set keeps its lines most recently used first, so a hit on the line
 * just used (most accesses of a sweep) costs one comparison. Keys are the
 * physical line number + 1: 0 marks an empty way. Private to one vCPU: no
 * locks.
 *
 * The set comes from the virtual address. Indexed by the physical one, a
 * working set near the cache's size was a lottery of the frames the guest's
 * kernel handed out: which lines conflict changed from run to run (the same
 * sweep of 1 MiB missed 14 700 to 46 400 times on a 1 MiB cache), and a page
 * moved to another node changed which lines conflict with it. A virtual index
 * gives an array the same sets in every run and wherever its pages are; the
 * physical tag keeps other processes' lines and moved pages apart. (A line
 * that two mappings share may sit in two sets: counted as two lines.) */
struct emu_cache {
    uint64_t *keys; /* sets x ways */
    uint32_t sets, ways;
    unsigned line_shift;
};

/* 0, or -1 when the geometry is impossible (errno EINVAL) or memory is short. */
int emu_cache_init(struct emu_cache *c, uint64_t bytes, uint32_t ways, unsigned line_shift);
void emu_cache_free(struct emu_cache *c);

/* Look up the line of physical address pa, mapped at virtual address va, and
 * make it the most recent of its set; true on a hit. */
static inline bool emu_cache_access(struct emu_cache *c, uint64_t va, uint64_t pa)
{
    uint64_t key = (pa >> c->line_shift) + 1;
    uint64_t *w = c->keys + (size_t)((va >> c->line_shift) % c->sets) * c->ways;
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
