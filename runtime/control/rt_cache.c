/* rt_cache.c: the placement cache: load at start, start regions from their kept mapping, save at exit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_cache.h"
#include "rt_log.h"
#include "rt_loop.h"
#include "rt_object.h"
#include "rt_settings.h"
#include "rt_topology.h"
#include "rt_util.h"

#define HEADER "ompnuma-cache/1"
#define MAX_ENTRIES 4096
#define KEY_LEN 160

typedef struct entry {
    char   machine[17];
    char   code[KEY_LEN];
    char   parent[KEY_LEN];
    int    team;
    int   *cpus;          /* [team] */
    double before, after;
    int    seen;          /* a region of this run matched it (save rewrites or drops it) */
} entry_t;

static entry_t *entries;
static int nentries;
static char machine[17];  /* this machine's key */

/* FNV-1a over the topology the decisions were made on: nodes, their CPUs,
 * distances and where the topology came from. */
static void machine_key(void)
{
    const rt_topo_t *t = &rt_mach->topo;
    uint64_t h = 0xcbf29ce484222325ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 0x100000001b3ull)
    MIX(t->nnodes);
    for (int n = 0; n < t->nnodes; n++) {
        MIX(t->capacity[n]);
        for (int c = 0; c < t->capacity[n]; c++)
            MIX(t->cpus[n][c]);
        for (int m = 0; m < t->nnodes; m++)
            MIX((int64_t)(t->distance[n * t->nnodes + m] * 16));
    }
    for (const char *p = t->origin; *p; p++)
        MIX((unsigned char)*p);
#undef MIX
    snprintf(machine, sizeof machine, "%016llx", (unsigned long long)h);
}

static void clear(void)
{
    for (int i = 0; i < nentries; i++)
        free(entries[i].cpus);
    free(entries);
    entries = NULL;
    nentries = 0;
}

/* One entry line (after "region "), or -1 when it is not one. */
static int parse_entry(char *line, entry_t *e)
{
    char cpus[8192];
    memset(e, 0, sizeof *e);
    if (sscanf(line, "%16s %159s %159s %d %8191s %lf %lf", e->machine, e->code, e->parent, &e->team, cpus,
               &e->before, &e->after) != 7 || e->team < 1 || e->team > 4096 || strlen(e->machine) != 16)
        return -1;
    e->cpus = malloc((size_t)e->team * sizeof *e->cpus);
    if (!e->cpus)
        return -1;
    char *p = cpus;
    for (int i = 0; i < e->team; i++) {
        char *end;
        errno = 0;
        long c = strtol(p, &end, 10);
        if (errno || end == p || c < -1 || c >= 1 << 20 || (*end != ',' && *end != '\0') ||
            (i < e->team - 1) != (*end == ',')) {
            free(e->cpus);
            return -1;
        }
        e->cpus[i] = (int)c;
        p = end + 1;
    }
    return 0;
}

void rt_cache_load(void)
{
    if (!rt_conf->cache_path[0] || !rt_mach->ok)
        return;
    machine_key();
    size_t len;
    char *text = rt_read_file(rt_conf->cache_path, &len);
    if (!text) {
        if (errno != ENOENT)
            rt_warn("OMP_PLACEMENT cache=%s: %s; starting without it", rt_conf->cache_path,
                    rt_read_file_error(errno));
        return;
    }
    entries = calloc(MAX_ENTRIES, sizeof *entries);
    int bad = !entries || strncmp(text, HEADER "\n", sizeof HEADER) != 0;
    char *save = NULL;
    int lineno = 1;
    for (char *line = bad ? NULL : strtok_r(text + sizeof HEADER, "\n", &save); line && !bad;
         line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (strncmp(line, "region ", 7) != 0 || nentries == MAX_ENTRIES || parse_entry(line + 7, &entries[nentries]))
            bad = lineno;
        else
            nentries++;
    }
    free(text);
    if (bad) {
        rt_warn("OMP_PLACEMENT cache=%s: not a placement cache (%s%d); starting without it, and it is "
                "replaced at exit", rt_conf->cache_path, bad > 1 ? "line " : "header, line ", bad > 1 ? bad : 1);
        clear();
        return;
    }
    int here = 0, ours = 0;
    char prog[160];
    const char *id = rt_program_build_id(prog, sizeof prog) == 0 ? prog : NULL;
    for (int i = 0; i < nentries; i++) {
        here += !strcmp(entries[i].machine, machine);
        ours += id && !strncmp(entries[i].code, id, strlen(id)) && entries[i].code[strlen(id)] == '+';
    }
    if (nentries && !here)
        rt_warn("OMP_PLACEMENT cache=%s: made on another machine (topology %s is not in it); not used",
                rt_conf->cache_path, machine);
    else if (nentries && !ours)
        rt_warn("OMP_PLACEMENT cache=%s: made for other builds (none for build id %s); not used",
                rt_conf->cache_path, id ? id : "?");
    rt_verbose(1, "cache %s: %d entries, %d for this machine", rt_conf->cache_path, nentries, here);
}

/* Code key of r and of its parent ("-" for an outermost region; a nested
 * team's ends in "#N", N the parent's thread that forks it: each inner team
 * has its own mapping). 0 or -1. */
static int region_keys(const rt_region_t *r, char *code, char *parent)
{
    if (rt_code_key(r->codeptr, code, KEY_LEN) != 0)
        return -1;
    const rt_region_t *p = r->parent_id >= 0 ? rt_region_at(r->parent_id) : NULL;
    if (!p)
        strcpy(parent, "-");
    else if (rt_code_key(p->codeptr, parent, KEY_LEN - 12) != 0)
        return -1;
    else if (r->parent_index >= 0)
        snprintf(parent + strlen(parent), 12, "#%d", r->parent_index);
    return 0;
}

static entry_t *find(const char *code, const char *parent, int team)
{
    for (int i = 0; i < nentries; i++)
        if (entries[i].team == team && !strcmp(entries[i].machine, machine) && !strcmp(entries[i].code, code) &&
            !strcmp(entries[i].parent, parent))
            return &entries[i];
    return NULL;
}

int rt_cache_start(rt_region_t *r)
{
    char code[KEY_LEN], parent[KEY_LEN];
    if (!nentries || r->outcome != RT_OUTCOME_SAMPLING || region_keys(r, code, parent) != 0)
        return 0;
    entry_t *e = find(code, parent, r->team_size);
    if (!e)
        return 0;
    for (int i = 0; i < e->team; i++)
        if (rt_topo_node_of_cpu(&rt_mach->topo, e->cpus[i]) < 0)
            return 0; /* not a CPU of this topology: the hash collided or the file was edited */
    rt_verbose(1, "region %d: starts from the mapping cached in %s", r->id, rt_conf->cache_path);
    return rt_loop_adopt(r, e->cpus, e->before) == 0;
}

void rt_cache_save(void)
{
    if (!rt_conf->cache_path[0] || !rt_mach->ok)
        return;
    if (!entries && !(entries = calloc(MAX_ENTRIES, sizeof *entries)))
        return;
    /* This run's regions: a kept mapping is written (new or again), a rolled back one leaves. */
    for (int i = 0; i < rt_region_count(); i++) {
        rt_region_t *r = rt_region_at(i);
        char code[KEY_LEN], parent[KEY_LEN];
        int keep = r->outcome == RT_OUTCOME_KEPT || (r->cached && r->outcome == RT_OUTCOME_VERIFYING);
        if ((!keep && r->outcome != RT_OUTCOME_ROLLED_BACK) || region_keys(r, code, parent) != 0)
            continue;
        entry_t *e = find(code, parent, r->team_size);
        if (!e && keep && nentries < MAX_ENTRIES) {
            e = &entries[nentries++];
            memset(e, 0, sizeof *e);
            snprintf(e->machine, sizeof e->machine, "%s", machine);
            snprintf(e->code, sizeof e->code, "%s", code);
            snprintf(e->parent, sizeof e->parent, "%s", parent);
            e->team = r->team_size;
            e->cpus = malloc((size_t)r->team_size * sizeof *e->cpus);
            if (!e->cpus) {
                nentries--;
                continue;
            }
        }
        if (!e)
            continue;
        e->seen = keep ? 1 : -1;
        if (keep) {
            for (int t = 0; t < r->team_size; t++)
                e->cpus[t] = r->pin_cpu[t];
            /* The baseline stays the one measured before the first move. */
            if (!r->cached)
                e->before = r->cp_before_ns;
            e->after = r->cp_after_ns;
        }
    }
    char tmp[sizeof rt_conf->cache_path + 32];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", rt_conf->cache_path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        rt_warn("OMP_PLACEMENT cache=%s: cannot write %s: %s; cache not updated", rt_conf->cache_path, tmp,
                strerror(errno));
        return;
    }
    fprintf(f, "%s\n", HEADER);
    for (int i = 0; i < nentries; i++) {
        const entry_t *e = &entries[i];
        if (e->seen < 0)
            continue;
        fprintf(f, "region %s %s %s %d ", e->machine, e->code, e->parent, e->team);
        for (int t = 0; t < e->team; t++)
            fprintf(f, "%s%d", t ? "," : "", e->cpus[t]);
        fprintf(f, " %.0f %.0f\n", e->before, e->after);
    }
    if (fclose(f) != 0 || rename(tmp, rt_conf->cache_path) != 0) {
        rt_warn("OMP_PLACEMENT cache=%s: cannot write: %s; cache not updated", rt_conf->cache_path, strerror(errno));
        unlink(tmp);
    }
}
