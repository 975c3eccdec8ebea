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

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ompnuma run [--policy P] [--report F] [--source S] [--dry-run] [--verbose] -- program [args]\n"
            "\n"
            "Runs program with ompnuma's libomp.so.5 / libgomp.so.1 first on LD_LIBRARY_PATH.\n"
            "Programs linked with DT_RPATH ignore LD_LIBRARY_PATH; for them the drop-in is\n"
            "loaded with LD_PRELOAD instead.\n"
            "\n"
            "  --policy P   OMP_PLACEMENT policy (off, critpath, critpath+refine, maxlocal, exhaustive)\n"
            "  --report F   OMP_PLACEMENT_REPORT: stderr, or a JSON file path\n"
            "  --source S   counter source (auto, perf, numa_balancing, papi, pagefault, hints, replay:FILE)\n"
            "  --dry-run    decide and report, but pin nothing\n"
            "  --verbose    OMP_PLACEMENT_VERBOSE=1: log each decision\n"
            "  --explain    print how the program will be started, then start it\n");
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

int ompnuma_cmd_run(int argc, char **argv)
{
    static const struct option options[] = {
        {"policy", required_argument, NULL, 'p'}, {"report", required_argument, NULL, 'r'},
        {"source", required_argument, NULL, 's'}, {"dry-run", no_argument, NULL, 'd'},
        {"verbose", no_argument, NULL, 'v'},      {"explain", no_argument, NULL, 'e'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    const char *policy = NULL, *report = NULL, *source = NULL;
    int dry_run = 0, verbose = 0, explain = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+p:r:s:dveh", options, NULL)) != -1) {
        switch (c) {
        case 'p': policy = optarg; break;
        case 'r': report = optarg; break;
        case 's': source = optarg; break;
        case 'd': dry_run = 1; break;
        case 'v': verbose = 1; break;
        case 'e': explain = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
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

    /* Settings: the command line's options replace OMP_PLACEMENT's when given. */
    if (policy || source || dry_run) {
        char placement[PATH_MAX + 128];
        const char *old = getenv("OMP_PLACEMENT");
        snprintf(placement, sizeof placement, "%s%s%s%s", policy ? policy : (old && *old ? old : "critpath"),
                 source ? ",source=" : "", source ? source : "", dry_run ? ",dry_run" : "");
        setenv("OMP_PLACEMENT", placement, 1);
    }
    if (report)
        setenv("OMP_PLACEMENT_REPORT", report, 1);
    if (verbose)
        setenv("OMP_PLACEMENT_VERBOSE", "1", 1);

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
    if (explain) {
        fprintf(stderr, "ompnuma run: %s: %s%s%s\n", path,
                !elf ? "not a 64-bit ELF program" :
                facts.needs_libomp ? "LLVM OpenMP (libomp.so.5)" :
                facts.needs_libgomp ? "GNU OpenMP (libgomp.so.1)" :
                facts.needs_iomp ? "Intel OpenMP (libiomp5.so, not replaced)" : "no OpenMP runtime in DT_NEEDED",
                preload_route ? ", DT_RPATH: LD_PRELOAD=" : ", LD_LIBRARY_PATH=",
                preload_route ? getenv("LD_PRELOAD") : lib);
    }
    execv(path, prog);
    fprintf(stderr, "ompnuma run: cannot execute %s: %s\n", path, strerror(errno));
    return 126;
}
