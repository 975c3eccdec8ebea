/* ompnuma.c: the command line tool's entry point: dispatch to a subcommand. */
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv); /* NULL: a Python script in share/ompnuma */
    const char *script;
    const char *summary;
};

static const struct subcommand subcommands[] = {
    {"run", ompnuma_cmd_run, NULL, "run a program with ompnuma's runtime (handles DT_RPATH binaries)"},
    {"topo", ompnuma_cmd_topo, NULL, "show the NUMA topology model and the counter sources"},
    {"report", NULL, "report.py", "render (and validate) a JSON exit report as readable tables"},
    {"place", ompnuma_cmd_place, NULL, "decide a mapping for a thread-node table (TNT)"},
    {"calibrate", ompnuma_cmd_calibrate, NULL, "measure and cache this machine's migration costs"},
    {"vm", NULL, "numavm.py", "run a command in a multi-node Linux virtual machine"},
    {"bench", NULL, "bench.py", "run benchmarks side by side under several runtimes"},
};
#define NSUB (sizeof subcommands / sizeof subcommands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: ompnuma <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < NSUB; i++)
        fprintf(out, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n'ompnuma <command> --help' describes each command.\n");
}

/* share/ompnuma of this installation: <dir of the binary>/../share/ompnuma. */
static int share_path(const char *file, char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0)
        return -1;
    exe[n] = '\0';
    char *bindir = dirname(exe);
    int w = snprintf(out, len, "%s/../share/ompnuma/%s", bindir, file);
    return (w < 0 || (size_t)w >= len) ? -1 : 0;
}

static int run_script(const struct subcommand *sc, int argc, char **argv)
{
    char path[PATH_MAX];
    if (share_path(sc->script, path, sizeof path) != 0 || access(path, R_OK) != 0) {
        fprintf(stderr, "ompnuma %s: %s is not installed beside this binary\n", sc->name, sc->script);
        return 1;
    }
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args)
        return 1;
    args[0] = "python3";
    args[1] = path;
    for (int i = 1; i < argc; i++)
        args[i + 1] = argv[i];
    execvp("python3", args);
    fprintf(stderr, "ompnuma %s: cannot run python3: %s\n", sc->name, strerror(errno));
    free(args);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ompnuma %s\n", OMPNUMA_VERSION);
        return 0;
    }
    for (size_t i = 0; i < NSUB; i++) {
        const struct subcommand *sc = &subcommands[i];
        if (strcmp(argv[1], sc->name) != 0)
            continue;
        return sc->run ? sc->run(argc - 1, argv + 1) : run_script(sc, argc - 1, argv + 1);
    }
    fprintf(stderr, "ompnuma: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
