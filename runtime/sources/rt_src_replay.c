/* rt_src_replay.c: the replay counter source: TNTs read from a CSV file, per region or for all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_log.h"
#include "rt_settings.h"
#include "rt_sources.h"
#include "rt_symbol.h"
#include "rt_util.h"

static pl_csv_table_t *tables;
static uint64_t *cells;
static int ntables;

static int probe(char *why, size_t len)
{
    if (rt_conf->source != RT_SOURCE_REPLAY) {
        snprintf(why, len, "needs OMP_PLACEMENT source=replay:FILE");
        return -1;
    }
    return 0;
}

static void start(void)
{
    size_t len, ncells = 0;
    char err[256] = "";
    char *text = rt_read_file(rt_conf->replay_path, &len);
    if (!text) {
        rt_warn("OMP_PLACEMENT source=replay:%s: cannot read: %s; no references replayed",
                rt_conf->replay_path, strerror(errno));
        return;
    }
    int n = pl_csv_parse(text, len, NULL, 0, NULL, 0, &ncells, err, sizeof err);
    if (n > 0) {
        tables = calloc((size_t)n, sizeof *tables);
        cells = calloc(ncells ? ncells : 1, sizeof *cells);
        if (tables && cells)
            n = pl_csv_parse(text, len, tables, n, cells, ncells, &ncells, err, sizeof err);
        else
            n = -ENOMEM;
    }
    free(text);
    if (n < 0) {
        rt_warn("OMP_PLACEMENT source=replay:%s: %s; no references replayed", rt_conf->replay_path,
                err[0] ? err : strerror(-n));
        free(tables);
        free(cells);
        tables = NULL;
        cells = NULL;
        return;
    }
    ntables = n;
}

/* Whether a table's name is sym ("function+0xoff") or its function. */
static int names(const char *name, const char *sym)
{
    const char *plus = sym ? strrchr(sym, '+') : NULL; /* a C++ name may hold a '+' (operator+) */
    size_t fn = plus ? (size_t)(plus - sym) : 0;
    return sym && (!strcmp(name, sym) || (fn && strlen(name) == fn && !strncmp(name, sym, fn)));
}

/* The table named after this region (its symbol+offset, its address, or its
 * function's name; a C++ name demangled or as the object spells it), else the
 * unnamed table, else none. */
static const pl_csv_table_t *table_for(const rt_sample_t *r)
{
    char addr[32];
    char *sym = rt_symbol_name(r->codeptr, 1), *raw = rt_symbol_name(r->codeptr, 0);
    snprintf(addr, sizeof addr, "%p", r->codeptr);
    const pl_csv_table_t *found = NULL, *fallback = NULL;
    for (int i = 0; i < ntables && !found; i++) {
        const char *name = tables[i].name;
        if (!name[0]) {
            if (!fallback)
                fallback = &tables[i];
        } else if (!strcmp(name, addr) || names(name, sym) || names(name, raw)) {
            found = &tables[i];
        }
    }
    free(sym);
    free(raw);
    return found ? found : fallback;
}

static int region_end(const rt_sample_t *s, uint64_t *added)
{
    /* A table is replayed once per sampling; it says nothing about a move. */
    if (!s->record || !s->once || s->after)
        return 0;
    const pl_csv_table_t *t = table_for(s); /* dladdr: only while sampling */
    if (!t)
        return 0;
    if (t->nthreads != s->team_size || t->nnodes != s->nnodes) {
        /* The file is the user's input: its first misfit is said once, the
         * others in the verbose log. */
        static int said;
        if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
            rt_warn("OMP_PLACEMENT source=replay:%s: %s%s%s is %dx%d (threads x nodes), region %d needs %dx%d; "
                    "not replayed there (OMP_PLACEMENT_VERBOSE=1 lists every region it does not fit)",
                    rt_conf->replay_path, t->name[0] ? "table \"" : "its table", t->name,
                    t->name[0] ? "\"" : "", t->nthreads, t->nnodes, s->id, s->team_size, s->nnodes);
        else
            rt_verbose(1, "replay: region %d: table \"%s\" is %dx%d, the region needs %dx%d; skipped",
                       s->id, t->name, t->nthreads, t->nnodes, s->team_size, s->nnodes);
        return 0;
    }
    memcpy(s->tnt, t->refs, (size_t)s->team_size * (size_t)s->nnodes * sizeof *s->tnt);
    for (int i = 0; s->samples && i < s->team_size; i++)
        s->samples[i] = 1;
    *added = (uint64_t)s->team_size;
    return 0;
}

const rt_source_ops_t rt_source_replay = {
    .probe = probe,
    .start = start,
    .region_end = region_end,
    .intrusive = 0,
};
