/* emu_cache.c: set-up of the per-vCPU cache model (emu_cache.h holds the lookup, which runs on every access). */
#include "emu_cache.h"

#include <errno.h>
#include <stdlib.h>

int emu_cache_init(struct emu_cache *c, uint64_t bytes, uint32_t ways, unsigned line_shift)
{
    memset(c, 0, sizeof *c);
    uint64_t lines = bytes >> line_shift;
    if (ways == 0 || ways > 64 || lines < ways || lines % ways != 0) {
        errno = EINVAL;
        return -1;
    }
    c->sets = (uint32_t)(lines / ways);
    c->ways = ways;
    c->line_shift = line_shift;
    c->keys = calloc(lines, sizeof *c->keys);
    return c->keys ? 0 : -1;
}

void emu_cache_free(struct emu_cache *c)
{
    free(c->keys);
    c->keys = NULL;
}
