/* rt_object.c: code address -> build id + offset, from the loaded objects' program headers and GNU notes. */
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rt_object.h"

struct lookup {
    uintptr_t addr;
    int       found;     /* the address is in this object's segments */
    uintptr_t offset;
    char      id[2 * 64 + 1];
};

/* The NT_GNU_BUILD_ID note among [p, end), as hex into out. */
static void build_id(const char *p, const char *end, char *out, size_t outlen)
{
    while (p + sizeof(ElfW(Nhdr)) <= end) {
        const ElfW(Nhdr) *n = (const void *)p;
        const char *name = p + sizeof *n, *desc = name + ((n->n_namesz + 3) & ~3u);
        const char *next = desc + ((n->n_descsz + 3) & ~3u);
        if (next > end || next <= p)
            return;
        if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4) && n->n_descsz &&
            2 * (size_t)n->n_descsz < outlen) {
            for (unsigned i = 0; i < n->n_descsz; i++)
                snprintf(out + 2 * i, 3, "%02x", (unsigned char)desc[i]);
            return;
        }
        p = next;
    }
}

/* The object's build id from its PT_NOTE segments, into l->id. */
static void object_build_id(const struct dl_phdr_info *info, struct lookup *l)
{
    for (int i = 0; i < info->dlpi_phnum && !l->id[0]; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE) {
            const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
            build_id(p, p + ph->p_memsz, l->id, sizeof l->id);
        }
    }
}

static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
    struct lookup *l = data;
    int inside = 0;
    for (int i = 0; i < info->dlpi_phnum && !inside; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        inside = ph->p_type == PT_LOAD && l->addr >= lo && l->addr < lo + ph->p_memsz;
    }
    if (!inside)
        return 0;
    l->found = 1;
    l->offset = l->addr - info->dlpi_addr;
    object_build_id(info, l);
    return 1;
}

int rt_code_key(const void *codeptr, char *key, size_t len)
{
    struct lookup l = {.addr = (uintptr_t)codeptr};
    dl_iterate_phdr(visit, &l);
    if (!l.found || !l.id[0]) {
        errno = ENOENT;
        return -1;
    }
    if ((size_t)snprintf(key, len, "%s+0x%zx", l.id, (size_t)l.offset) >= len) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

/* The first object dl_iterate_phdr visits is the main program. */
static int visit_first(struct dl_phdr_info *info, size_t size, void *data)
{
    struct lookup *l = data;
    l->found = 1;
    object_build_id(info, l);
    return 1;
}

struct segments {
    uintptr_t *lo, *hi, page;
    int        max, n, seen;
};

static int visit_data(struct dl_phdr_info *info, size_t size, void *data)
{
    struct segments *s = data;
    if (!s->seen++) /* the main program */
        return 0;
    uintptr_t page = s->page;
    for (int i = 0; i < info->dlpi_phnum && s->n < s->max; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || !ph->p_memsz)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        s->lo[s->n] = lo & ~(page - 1);
        s->hi[s->n] = (lo + ph->p_memsz + page - 1) & ~(page - 1);
        s->n++;
    }
    return 0;
}

int rt_library_data(uintptr_t *lo, uintptr_t *hi, int max)
{
    struct segments s = {.lo = lo, .hi = hi, .page = (uintptr_t)sysconf(_SC_PAGESIZE), .max = max};
    dl_iterate_phdr(visit_data, &s);
    return s.n;
}

int rt_program_build_id(char *id, size_t len)
{
    struct lookup l = {0};
    dl_iterate_phdr(visit_first, &l);
    if (!l.id[0] || strlen(l.id) >= len) {
        errno = ENOENT;
        return -1;
    }
    strcpy(id, l.id);
    return 0;
}
