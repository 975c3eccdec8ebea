/* cmd_run.c: `ompnuma run`: run a program on ompnuma's drop-in runtime, through LD_PRELOAD when DT_RPATH would bypass it. */
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "pl.h"
#include "rt_settings.h"

/*
 * Every setting `ompnuma run` can give the program, in one table: getopt's
 * options, the help text and the environment it writes all come from it.
 * An entry with a key sets that OMP_PLACEMENT item (key=value, or the bare
 * word for the policy and dry_run); an entry with a variable sets that
 * variable. values() writes the accepted values where they come from code
 * (policy names, sources, schedulers), so the help cannot fall behind.
 */
typedef struct run_option {
    const char *name;     /* --name */
    int         has_arg;  /* getopt's no_argument, required_argument, optional_argument */
    int         shortopt; /* 0: long only */
    const char *metavar;
    const char *key;      /* OMP_PLACEMENT item: "" = the policy word, "dry_run" a flag */
    const char *variable; /* or this environment variable */
    const char *implied;  /* the variable's value when an optional argument is omitted */
    void (*values)(char *buf, size_t len);
    const char *help;
} run_option_t;

static void policy_values(char *buf, size_t len)
{
    /* The runtime's policy words: off, the placement library's policies, bubble, imar2. */
    size_t n = (size_t)snprintf(buf, len, "off");
    for (int p = 0; p < PL_POLICY_COUNT && n < len; p++)
        n += (size_t)snprintf(buf + n, len - n, ", %s", pl_policy_name((pl_policy_t)p));
    if (n < len)
        snprintf(buf + n, len - n, ", bubble, imar2");
}

static void source_values(char *buf, size_t len)
{
    size_t n = 0;
    for (int s = RT_SOURCE_AUTO; s < RT_SOURCE_REPLAY && n < len; s++)
        n += (size_t)snprintf(buf + n, len - n, "%s, ", rt_source_name((rt_source_t)s));
    if (n < len)
        snprintf(buf + n, len - n, "%s:FILE", rt_source_name(RT_SOURCE_REPLAY));
}

static void scheduler_values(char *buf, size_t len)
{
    size_t n = 0;
    for (int s = 0; s < PL_BUBBLE_SCHED_COUNT && n < len; s++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", s ? ", " : "", pl_bubble_sched_name((pl_bubble_sched_t)s));
}

static const run_option_t run_options[] = {
    {"policy", required_argument, 'p', "P", "", NULL, NULL, policy_values,
     "placement policy (default critpath; off measures nothing unless a report is asked for)"},
    {"sample", required_argument, 0, "N", "sample", NULL, NULL, NULL,
     "executions sampled, then timed, before deciding: 1..1000 (default 4)"},
    {"numa-factor", required_argument, 0, "F", "numa_factor", NULL, NULL, NULL,
     "remote/local latency ratio: auto (from the distance matrix, default) or 1..100"},
    {"source", required_argument, 's', "S", "source", NULL, NULL, source_values,
     "what fills the thread-node table (default auto)"},
    {"verify", required_argument, 0, "on|off", "verify", NULL, NULL, NULL,
     "time the new mapping and roll back if slower (default on)"},
    {"dry-run", no_argument, 'd', NULL, "dry_run", NULL, NULL, NULL,
     "decide and report, but pin nothing"},
    {"loops", required_argument, 0, "on|off", "loops", NULL, NULL, NULL,
     "place a region that runs once by its repeating worksharing loops, inside its execution (default on)"},
    {"data", required_argument, 0, "on|off", "data", NULL, NULL, NULL,
     "move a region's data when moving its threads cannot bring them next to it (default on)"},
    {"track", required_argument, 0, "T", "track", NULL, NULL, NULL,
     "memory the pagefault source may protect: api, anon or all (default all)"},
    {"scheduler", required_argument, 0, "S", "scheduler", NULL, NULL, scheduler_values,
     "how the bubble policy places nested teams (default cache)"},
    {"cache", required_argument, 0, "FILE", "cache", NULL, NULL, NULL,
     "placement cache: mappings kept in this run are where the next run starts (default none)"},
    {"window", required_argument, 0, "MS", "window", NULL, NULL, NULL,
     "shortest sampling window of the numa_balancing source: 10..600000 ms (default 2000)"},
    {"perf-event", required_argument, 0, "E", "perf_event", NULL, NULL, NULL,
     "for testing: page-faults makes the perf source sample first touches without a PMU (default auto)"},
    {"migrate", required_argument, 0, "M", "migrate", NULL, NULL, NULL,
     "the IMAR2 migration monitor beside the policy: off (default) or imar2"},
    {"period", required_argument, 0, "MS", "period", NULL, NULL, NULL,
     "IMAR2's shortest period: 1..3600000 ms (default 1000)"},
    {"period-max", required_argument, 0, "MS", "period_max", NULL, NULL, NULL,
     "IMAR2's longest period, >= period (default 4 x period)"},
    {"ratio", required_argument, 0, "R", "ratio", NULL, NULL, NULL,
     "IMAR2 rolls back when total performance falls below ratio x the previous (default 0.97)"},
    {"seed", required_argument, 0, "N", "seed", NULL, NULL, NULL,
     "IMAR2's lottery seed (default 1)"},
    {"primary", required_argument, 0, "P", "primary", NULL, NULL, NULL,
     "where the primary goes when a region that moved it ends: auto (default: stays while the OpenMP binding is "
     "on), return or stay"},
    {"budget", required_argument, 0, "PCT", "budget", NULL, NULL, NULL,
     "what the pagefault source may spend, in % of the run so far: off or 0.01..100 (default 2)"},
    {"remote-min", required_argument, 0, "X", "remote_min", NULL, NULL, NULL,
     "IMAR2's locality gate: no trial while every thread's remote share is below X, 0..1 (default 0.1)"},
    {"emu-tag", required_argument, 0, "on|off", "emu_tag", NULL, NULL, NULL,
     "tag sampled executions for the emulated-NUMA plugin's ground truth (default off)"},
    {"report", required_argument, 'r', "F", NULL, "OMP_PLACEMENT_REPORT", NULL, NULL,
     "exit report: stderr (a table) or a JSON file path"},
    {"verbose", optional_argument, 'v', "N", NULL, "OMP_PLACEMENT_VERBOSE", "1", NULL,
     "log each decision (N = 1, the default) or every event of interest (N = 2)"},
    {"display-env", optional_argument, 0, "V", NULL, "OMP_PLACEMENT_DISPLAY_ENV", "true", NULL,
     "print the effective settings at start: true (default) or verbose"},
    {"mpi", required_argument, 0, "S", NULL, "OMP_PLACEMENT_MPI", NULL, NULL,
     "the MPI process mapper (ondeloc and its items), with libompnuma_mpi.so preloaded: mpirun ... ompnuma run "
     "--mpi ondeloc -- program"},
    {"explain", no_argument, 'e', NULL, NULL, NULL, NULL, NULL,
     "print how the program will be started, then start it"},
    {"help", no_argument, 'h', NULL, NULL, NULL, NULL, NULL, "this text"},
};
#define NRUN_OPTIONS ((int)(sizeof run_options / sizeof run_options[0]))

/* "  left  text", text wrapped at 79 columns under its first column. */
static void print_wrapped(FILE *out, const char *left, const char *text)
{
    enum { indent = 25, width = 79 };
    int col = fprintf(out, "  %-*s", indent - 3, left);
    if (col >= indent) {
        fprintf(out, "\n%*s", indent - 1, "");
    }
    col = indent - 1;
    const char *p = text;
    while (*p) {
        size_t w = strcspn(p, " ");
        if (col + 1 + (int)w > width && col > indent - 1) {
            fprintf(out, "\n%*s", indent - 1, "");
            col = indent - 1;
        }
        col += fprintf(out, " %.*s", (int)w, p);
        p += w;
        while (*p == ' ')
            p++;
    }
    fprintf(out, "\n");
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ompnuma run [options] [--] program [args]\n"
            "\n"
            "Runs program with ompnuma's libomp.so.5 / libgomp.so.1 first on LD_LIBRARY_PATH.\n"
            "Programs linked with DT_RPATH ignore LD_LIBRARY_PATH; for them the drop-in is\n"
            "loaded with LD_PRELOAD instead.\n"
            "\n"
            "Options naming an OMP_PLACEMENT item replace that item of OMP_PLACEMENT; its\n"
            "other items are kept. The runtime checks every value, as it does OMP_PLACEMENT's.\n"
            "\n");
    for (int i = 0; i < NRUN_OPTIONS; i++) {
        const run_option_t *o = &run_options[i];
        char left[64], text[512], values[256] = "";
        snprintf(left, sizeof left, "--%s%s%s%s", o->name,
                 o->has_arg == optional_argument ? "[=" : o->has_arg == required_argument ? " " : "",
                 o->metavar ? o->metavar : "", o->has_arg == optional_argument ? "]" : "");
        if (o->values)
            o->values(values, sizeof values);
        const char *target = o->key ? (*o->key ? o->key : "OMP_PLACEMENT policy") : o->variable;
        int is_item = o->key && *o->key && strcmp(o->key, "dry_run");
        snprintf(text, sizeof text, "%s%s%s%s%s%s%s", target ? target : "",
                 target && (is_item || o->variable) ? "=" : "",
                 target && (is_item || o->variable) ? o->metavar : "", target ? ": " : "", o->help,
                 o->values ? "; one of " : "", values);
        print_wrapped(out, left, text);
    }
    fprintf(out, "\nExit status: the program's; 2 bad usage, 126 or 127 when the program cannot run.\n");
}

/* The OpenMP runtimes a program asks for, and whether DT_RPATH hides LD_LIBRARY_PATH from it. */
struct elf_facts {
    int needs_libomp, needs_libgomp, needs_iomp;
    int has_rpath, has_runpath;
};

/* Read the dynamic section of a 64-bit ELF file. 0, or -1 when it is not one. */
static int read_elf(const char *path, struct elf_facts *facts)
{
    memset(facts, 0, sizeof *facts);
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    Elf64_Ehdr eh;
    Elf64_Phdr *ph = NULL;
    Elf64_Dyn *dyn = NULL;
    char *strtab = NULL;
    int rc = -1;
    if (fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0)
        goto out;
    ph = calloc(eh.e_phnum, sizeof *ph);
    if (!ph || fseek(f, (long)eh.e_phoff, SEEK_SET) != 0 || fread(ph, sizeof *ph, eh.e_phnum, f) != eh.e_phnum)
        goto out;
    const Elf64_Phdr *dynseg = NULL;
    for (int i = 0; i < eh.e_phnum; i++)
        if (ph[i].p_type == PT_DYNAMIC)
            dynseg = &ph[i];
    if (!dynseg) { /* static program: no runtime to replace */
        rc = 0;
        goto out;
    }
    size_t ndyn = dynseg->p_filesz / sizeof *dyn;
    dyn = calloc(ndyn ? ndyn : 1, sizeof *dyn);
    if (!dyn || fseek(f, (long)dynseg->p_offset, SEEK_SET) != 0 || fread(dyn, sizeof *dyn, ndyn, f) != ndyn)
        goto out;
    Elf64_Addr straddr = 0;
    Elf64_Xword strsz = 0;
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        if (dyn[i].d_tag == DT_STRTAB)
            straddr = dyn[i].d_un.d_ptr;
        else if (dyn[i].d_tag == DT_STRSZ)
            strsz = dyn[i].d_un.d_val;
    }
    /* DT_STRTAB is an address: find the file offset through the load segment holding it. */
    long stroff = -1;
    for (int i = 0; i < eh.e_phnum; i++)
        if (ph[i].p_type == PT_LOAD && straddr >= ph[i].p_vaddr && straddr < ph[i].p_vaddr + ph[i].p_filesz)
            stroff = (long)(ph[i].p_offset + (straddr - ph[i].p_vaddr));
    if (stroff < 0 || !strsz || !(strtab = malloc(strsz + 1)) || fseek(f, stroff, SEEK_SET) != 0 ||
        fread(strtab, 1, strsz, f) != strsz)
        goto out;
    strtab[strsz] = '\0';
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        if (dyn[i].d_un.d_val >= strsz)
            continue;
        const char *s = strtab + dyn[i].d_un.d_val;
        switch (dyn[i].d_tag) {
        case DT_NEEDED:
            facts->needs_libomp |= !strcmp(s, "libomp.so.5") || !strcmp(s, "libomp.so");
            facts->needs_libgomp |= !strcmp(s, "libgomp.so.1");
            facts->needs_iomp |= !strcmp(s, "libiomp5.so");
            break;
        case DT_RPATH:
            facts->has_rpath = 1;
            break;
        case DT_RUNPATH:
            facts->has_runpath = 1;
            break;
        }
    }
    rc = 0;
out:
    free(ph);
    free(dyn);
    free(strtab);
    fclose(f);
    return rc;
}

/* The program's file, searched on PATH as execvp would. */
static int find_program(const char *name, char *out, size_t len)
{
    if (strchr(name, '/')) {
        snprintf(out, len, "%s", name);
        return access(out, X_OK);
    }
    const char *path = getenv("PATH");
    char *copy = strdup(path ? path : "/usr/bin:/bin");
    int rc = -1;
    for (char *save, *dir = strtok_r(copy, ":", &save); dir && rc; dir = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", dir, name);
        rc = access(out, X_OK);
    }
    free(copy);
    return rc;
}

/* The PMPI layer: beside the drop-in in a build tree, in the directory above when installed
 * (lib/, where libompnuma.so is). 0, or -1 when MPI was not found at build time. */
static int mpi_layer(const char *dropin, char *out, size_t len)
{
    static const char *const candidates[] = {"%s/libompnuma_mpi.so", "%s/../libompnuma_mpi.so"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        snprintf(out, len, candidates[i], dropin);
        if (access(out, R_OK) == 0)
            return 0;
    }
    return -1;
}

/* Where the drop-in libraries are: lib/ beside bin/ in a build tree, lib/ompnuma when installed. */
static int dropin_dir(char *out, size_t len)
{
    char exe[PATH_MAX], probe[PATH_MAX + 32];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0)
        return -1;
    exe[n] = '\0';
    char *prefix = dirname(dirname(exe));
    static const char *const candidates[] = {"lib", "lib/ompnuma", OMPNUMA_INSTALL_LIBDIR "/ompnuma"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        snprintf(probe, sizeof probe, "%s/%s/libomp.so.5", prefix, candidates[i]);
        if (access(probe, R_OK) == 0) {
            snprintf(out, len, "%s/%s", prefix, candidates[i]);
            return 0;
        }
    }
    return -1;
}

static int prepend_env(const char *name, const char *value, char sep)
{
    const char *old = getenv(name);
    if (!old || !*old)
        return setenv(name, value, 1);
    size_t len = strlen(value) + strlen(old) + 2;
    char *both = malloc(len);
    if (!both)
        return -1;
    snprintf(both, len, "%s%c%s", value, sep, old);
    int rc = setenv(name, both, 1);
    free(both);
    return rc;
}

/* OMP_PLACEMENT with the command line's items replacing the same items of old:
 * the policy word, a key=value whose key was given, dry_run. */
static char *merge_placement(const char *old, const char *const *given)
{
    size_t len = (old ? strlen(old) : 0) + 2;
    for (int i = 0; i < NRUN_OPTIONS; i++)
        if (given[i])
            len += strlen(run_options[i].key) + strlen(given[i]) + 2;
    char *out = malloc(len), *copy = strdup(old ? old : "");
    if (!out || !copy) {
        free(out);
        free(copy);
        return NULL;
    }
    size_t n = 0;
    out[0] = '\0';
    for (char *save, *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        const char *w = item;
        while (*w == ' ' || *w == '\t')
            w++;
        const char *eq = strchr(w, '=');
        size_t klen = eq ? (size_t)(eq - w) : strlen(w);
        while (klen && (w[klen - 1] == ' ' || w[klen - 1] == '\t'))
            klen--;
        int replaced = 0;
        for (int i = 0; i < NRUN_OPTIONS && !replaced; i++) {
            const char *key = run_options[i].key;
            if (!given[i] || !key)
                continue;
            if (*key)  /* key=value or the dry_run flag, whichever way old wrote it */
                replaced = klen == strlen(key) && !strncmp(w, key, klen);
            else       /* a word that is not a key: old's policy */
                replaced = !eq && !(klen == 7 && !strncmp(w, "dry_run", 7));
        }
        if (!replaced)
            n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "," : "", item);
    }
    for (int i = 0; i < NRUN_OPTIONS; i++) {
        if (!given[i])
            continue;
        const char *key = run_options[i].key;
        if (!*key || !strcmp(key, "dry_run"))
            n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "," : "", *key ? key : given[i]);
        else
            n += (size_t)snprintf(out + n, len - n, "%s%s=%s", n ? "," : "", key, given[i]);
    }
    free(copy);
    return out;
}

/* Whether an option setting variable was given. */
static int given_variable(const char *const *given, const char *variable)
{
    for (int i = 0; i < NRUN_OPTIONS; i++)
        if (given[i] && run_options[i].variable && !strcmp(run_options[i].variable, variable))
            return 1;
    return 0;
}

int ompnuma_cmd_run(int argc, char **argv)
{
    struct option longopts[NRUN_OPTIONS + 1];
    char shortopts[3 * NRUN_OPTIONS + 2] = "+";
    for (int i = 0; i < NRUN_OPTIONS; i++) {
        const run_option_t *o = &run_options[i];
        longopts[i] = (struct option){o->name, o->has_arg, NULL, o->shortopt ? o->shortopt : 256 + i};
        if (o->shortopt) {
            size_t n = strlen(shortopts);
            shortopts[n++] = (char)o->shortopt;
            for (int k = 0; k < o->has_arg; k++)
                shortopts[n++] = ':';
            shortopts[n] = '\0';
        }
    }
    longopts[NRUN_OPTIONS] = (struct option){NULL, 0, NULL, 0};
    const char *given[NRUN_OPTIONS] = {NULL}; /* each option's value ("" for flags), NULL if absent */
    int explain = 0, c, placement_given = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        int i = c >= 256 ? c - 256 : -1;
        for (int k = 0; k < NRUN_OPTIONS && i < 0; k++)
            if (run_options[k].shortopt == c)
                i = k;
        if (i < 0) {
            fprintf(stderr, "ompnuma run: unknown option or missing value: %s\n", argv[optind - 1]);
            usage(stderr);
            return 2;
        }
        const run_option_t *o = &run_options[i];
        if (!strcmp(o->name, "help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(o->name, "explain")) {
            explain = 1;
            continue;
        }
        const char *v = o->has_arg == no_argument ? "" : optarg ? optarg : o->implied;
        /* A comma or newline would smuggle further items into OMP_PLACEMENT or split a warning. */
        if (o->key && strpbrk(v, ",\n")) {
            fprintf(stderr, "ompnuma run: --%s \"%s\": one value, without ',' or a newline\n", o->name, v);
            return 2;
        }
        given[i] = v;
        placement_given |= o->key != NULL;
    }
    if (optind >= argc) {
        fprintf(stderr, "ompnuma run: no program given\n");
        usage(stderr);
        return 2;
    }
    char **prog = argv + optind;

    char lib[PATH_MAX], path[PATH_MAX];
    if (dropin_dir(lib, sizeof lib) != 0) {
        fprintf(stderr, "ompnuma run: cannot find the drop-in libomp.so.5 beside this binary\n");
        return 1;
    }
    if (find_program(prog[0], path, sizeof path) != 0) {
        fprintf(stderr, "ompnuma run: %s: %s\n", prog[0], strerror(errno ? errno : ENOENT));
        return 127;
    }

    if (placement_given) {
        const char *placement_only[NRUN_OPTIONS];
        for (int i = 0; i < NRUN_OPTIONS; i++)
            placement_only[i] = run_options[i].key ? given[i] : NULL;
        char *placement = merge_placement(getenv("OMP_PLACEMENT"), placement_only);
        if (!placement) {
            fprintf(stderr, "ompnuma run: out of memory\n");
            return 1;
        }
        setenv("OMP_PLACEMENT", placement, 1);
        free(placement);
    }
    for (int i = 0; i < NRUN_OPTIONS; i++)
        if (given[i] && run_options[i].variable)
            setenv(run_options[i].variable, given[i], 1);

    struct elf_facts facts;
    int elf = read_elf(path, &facts) == 0;
    prepend_env("LD_LIBRARY_PATH", lib, ':');
    /* DT_RUNPATH, when present, makes the loader ignore DT_RPATH. */
    int preload_route = elf && facts.has_rpath && !facts.has_runpath && (facts.needs_libomp || facts.needs_libgomp);
    if (preload_route) {
        char preload[2 * PATH_MAX + 32] = "";
        if (facts.needs_libomp)
            snprintf(preload, sizeof preload, "%s/libomp.so.5", lib);
        if (facts.needs_libgomp) {
            size_t n = strlen(preload);
            snprintf(preload + n, sizeof preload - n, "%s%s/libgomp.so.1", n ? ":" : "", lib);
        }
        prepend_env("LD_PRELOAD", preload, ':');
    }
    char layer[PATH_MAX + 32] = "";
    if (given_variable(given, "OMP_PLACEMENT_MPI")) {
        if (mpi_layer(lib, layer, sizeof layer) != 0) {
            fprintf(stderr, "ompnuma run: --mpi: no libompnuma_mpi.so beside %s (built only where CMake finds MPI)\n",
                    lib);
            return 1;
        }
        prepend_env("LD_PRELOAD", layer, ':');
    }
    if (explain) {
        fprintf(stderr, "ompnuma run: %s: %s%s%s%s%s\n", path,
                !elf ? "not a 64-bit ELF program" :
                facts.needs_libomp ? "LLVM OpenMP (libomp.so.5)" :
                facts.needs_libgomp ? "GNU OpenMP (libgomp.so.1)" :
                facts.needs_iomp ? "Intel OpenMP (libiomp5.so, not replaced)" : "no OpenMP runtime in DT_NEEDED",
                preload_route ? ", DT_RPATH: LD_PRELOAD=" : ", LD_LIBRARY_PATH=",
                preload_route ? getenv("LD_PRELOAD") : lib, layer[0] ? "; the MPI layer: LD_PRELOAD=" : "",
                layer);
    }
    execv(path, prog);
    fprintf(stderr, "ompnuma run: cannot execute %s: %s\n", path, strerror(errno));
    return 126;
}
