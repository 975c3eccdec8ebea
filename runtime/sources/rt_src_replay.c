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

/* The table named after this region (its symbol+offset, its address, or its
 * function's name), else the unnamed table, else none. */
static const pl_csv_table_t *table_for(const rt_sample_t *r)
{
    char sym[160], addr[32];
    rt_symbolize(r->codeptr, sym, sizeof sym);
    snprintf(addr, sizeof addr, "%p", r->codeptr);
    size_t fn = strcspn(sym, "+");
    const pl_csv_table_t *fallback = NULL;
    for (int i = 0; i < ntables; i++) {
        const char *name = tables[i].name;
        if (!name[0]) {
            if (!fallback)
                fallback = &tables[i];
        } else if (!strcmp(name, sym) || !strcmp(name, addr) ||
                   (strlen(name) == fn && !strncmp(name, sym, fn))) {
            return &tables[i];
        }
    }
    return fallback;
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
