/* rt_cache.c: the placement cache: load at start, start regions from their kept mapping, save at exit. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_cache.h"
#include "rt_log.h"
#include "rt_loop.h"
#include "rt_object.h"
#include "rt_settings.h"
#include "rt_topology.h"
#include "rt_util.h"

#define HEADER "ompnuma-cache/1"
#define KEY_LEN 160
#define MAX_TEAM (1 << 20)   /* as many threads as CPUs a key can name */
#define MAX_NS 1e18          /* a critical path's ns at most (31 years) */

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
static int nentries, capacity;
/* Whether the file is left as it is at exit: it was not read whole, so
 * rewriting it would lose what was not read (data is never lost). */
static enum {
    FILE_OURS,       /* read whole, or nothing there yet: rewritten at exit */
    FILE_UNREAD,     /* not a cache, or it could not be read: the start's warning said so */
    FILE_PARTIAL,    /* out of memory while loading: said at exit */
    FILE_READ_ONLY   /* its directory cannot be written (the file is replaced by a rename): used, not updated */
} file_state;

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

/* A new entry at the end (zeroed), or NULL when out of memory. */
static entry_t *append(void)
{
    if (nentries == capacity) {
        int n = capacity ? 2 * capacity : 64;
        entry_t *grown = realloc(entries, (size_t)n * sizeof *grown);
        if (!grown)
            return NULL;
        entries = grown;
        capacity = n;
    }
    entry_t *e = &entries[nentries++];
    memset(e, 0, sizeof *e);
    return e;
}

/* The next space-separated field of *p, in place (NULL when none). */
static char *field(char **p)
{
    char *f = *p + strspn(*p, " ");
    if (!*f)
        return NULL;
    char *end = f + strcspn(f, " ");
    *p = *end ? end + 1 : end;
    *end = '\0';
    return f;
}

/* One entry line (after "region ") of any length, or -1 when it is not one. */
static int parse_entry(char *line, entry_t *e)
{
    char *machine_f = field(&line), *code = field(&line), *parent = field(&line), *team = field(&line),
         *cpus = field(&line), *before = field(&line), *after = field(&line), *end;
    if (!after || field(&line) || strlen(machine_f) != 16 || strlen(code) >= KEY_LEN ||
        strlen(parent) >= KEY_LEN || rt_parse_int(team, 1, MAX_TEAM, &e->team) != 0)
        return -1;
    /* Critical paths in ns: a number the report can print, never NaN, an
     * infinity or a negative time (an edited file). */
    e->before = strtod(before, &end);
    if (*end || !(e->before >= 0 && e->before <= MAX_NS))
        return -1;
    e->after = strtod(after, &end);
    if (*end || !(e->after >= 0 && e->after <= MAX_NS))
        return -1;
    strcpy(e->machine, machine_f);
    strcpy(e->code, code);
    strcpy(e->parent, parent);
    e->cpus = malloc((size_t)e->team * sizeof *e->cpus);
    if (!e->cpus)
        return -1;
    char *p = cpus;
    for (int i = 0; i < e->team; i++) {
        char *comma = strchr(p, ',');
        if ((i < e->team - 1) != (comma != NULL))
            break;
        if (comma)
            *comma = '\0';
        if (rt_parse_int(p, -1, MAX_TEAM - 1, &e->cpus[i]) != 0)
            break;
        if (i == e->team - 1)
            return 0;
        p = comma + 1;
    }
    free(e->cpus);
    e->cpus = NULL;
    return -1;
}

void rt_cache_load(void)
{
    if (!rt_conf->cache_path[0] || !rt_mach->ok)
        return;
    machine_key();
    if (!rt_dir_writable(rt_conf->cache_path)) {
        file_state = FILE_READ_ONLY;
        rt_verbose(1, "cache %s: its directory cannot be written: used as it is, never updated",
                   rt_conf->cache_path);
    }
    size_t len;
    char *text = rt_read_file(rt_conf->cache_path, &len);
    if (!text) {
        if (errno != ENOENT) {
            file_state = FILE_UNREAD;
            rt_warn("OMP_PLACEMENT cache=%s: %s; starting without it, and it is left as it is",
                    rt_conf->cache_path, rt_read_file_error(errno));
        }
        return;
    }
    if (strncmp(text, HEADER "\n", sizeof HEADER) != 0) {
        free(text);
        file_state = FILE_UNREAD;
        rt_warn("OMP_PLACEMENT cache=%s: not a placement cache (header, line 1); starting without it, and it is "
                "left as it is", rt_conf->cache_path);
        return;
    }
    /* A line that is not an entry costs only itself: it is left out (and
     * out of the file at exit), every other entry is used and kept. Lines
     * are split by hand: strtok_r would skip empty ones and miscount. */
    int lineno = 1, first_bad = 0, nbad = 0;
    for (char *line = text + sizeof HEADER, *next, *end = text + len; line < end; line = next) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        next = nl ? nl + 1 : end;
        size_t line_len = (size_t)((nl ? nl : end) - line);
        line[line_len] = '\0'; /* the newline, or the terminator rt_read_file adds */
        lineno++;
        if (!line_len)
            continue;
        entry_t *e = append();
        if (!e) {
            file_state = FILE_PARTIAL;
            break;
        }
        if (strlen(line) != line_len || strncmp(line, "region ", 7) != 0 || parse_entry(line + 7, e) != 0) {
            nentries--;
            if (!nbad++)
                first_bad = lineno;
        }
    }
    free(text);
    if (nbad)
        rt_warn("OMP_PLACEMENT cache=%s: %d line%s that %s not an entry (line %d%s); left out, the other %d "
                "entries used and kept", rt_conf->cache_path, nbad, nbad > 1 ? "s" : "", nbad > 1 ? "are" : "is",
                first_bad, nbad > 1 ? " first" : "", nentries);
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
    if (file_state == FILE_PARTIAL)
        rt_warn("OMP_PLACEMENT cache=%s: not all of it could be read (out of memory); not updated",
                rt_conf->cache_path);
    if (file_state != FILE_OURS)
        return;
    /* This run's regions: a kept mapping is written (new or again), a rolled back one leaves. */
    for (int i = 0; i < rt_region_count(); i++) {
        const rt_region_t *r = rt_region_at(i);
        const rt_loop_region_t *l = rt_loop_of(r);
        char code[KEY_LEN], parent[KEY_LEN];
        int keep = r->outcome == RT_OUTCOME_KEPT || (l->cached && r->outcome == RT_OUTCOME_VERIFYING);
        if ((!keep && r->outcome != RT_OUTCOME_ROLLED_BACK) || region_keys(r, code, parent) != 0)
            continue;
        entry_t *e = find(code, parent, r->team_size);
        if (!e && keep && r->team_size <= MAX_TEAM && (e = append())) {
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
            if (!l->cached)
                e->before = l->cp_before_ns;
            e->after = l->cp_after_ns;
        }
    }
    /* Only a regular file, or a path where nothing is yet, is ever
     * replaced: never a symbolic link, a device, a FIFO (the settings
     * refused those at start; this is the path as it is now). */
    struct stat st;
    if (lstat(rt_conf->cache_path, &st) == 0 && !S_ISREG(st.st_mode)) {
        rt_warn("OMP_PLACEMENT cache=%s: no longer a regular file; cache not updated", rt_conf->cache_path);
        return;
    }
    char tmp[sizeof rt_conf->cache_path + 32];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", rt_conf->cache_path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        rt_warn("OMP_PLACEMENT cache=%s: cannot write %s: %s; cache not updated", rt_conf->cache_path, tmp,
                strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
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
