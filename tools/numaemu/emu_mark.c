/* emu_mark.c: `ompnuma-emu-mark tag N | reset | snapshot`: the guest-side markers for shell scripts (a no-op without the plugin). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_emu_mark.h"

/* Tags are global to the machine: a script tags what runs between two calls,
 * e.g. `ompnuma-emu-mark tag 1; ./prog; ompnuma-emu-mark tag 0`. */
int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "reset") == 0) {
        rt_emu_mark_reset();
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "snapshot") == 0) {
        rt_emu_mark_snapshot();
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "tag") == 0) {
        char *end;
        errno = 0;
        unsigned long tag = strtoul(argv[2], &end, 10);
        if (*argv[2] && !*end && !errno && tag <= RT_EMU_MARK_TAG_MAX) {
            rt_emu_mark_tag((uint32_t)tag);
            return 0;
        }
        fprintf(stderr, "ompnuma-emu-mark: tag %s: expected 0..%u\n", argv[2], RT_EMU_MARK_TAG_MAX);
        return 2;
    }
    fprintf(stderr, "usage: ompnuma-emu-mark tag N (0..%u, 0 ends tagging) | reset | snapshot\n",
            RT_EMU_MARK_TAG_MAX);
    return 2;
}
