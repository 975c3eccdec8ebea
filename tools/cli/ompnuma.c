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
    int (*run)(int argc, char **argv); /* NULL: a module of the Python package in share/ompnuma/python */
    const char *module;
    const char *summary;
};

static const struct subcommand subcommands[] = {
    {"run", ompnuma_cmd_run, NULL, "run a program with ompnuma's runtime (handles DT_RPATH binaries)"},
    {"topo", ompnuma_cmd_topo, NULL, "show the NUMA topology model and the counter sources"},
    {"report", NULL, "ompnuma.report.report", "render (and validate) a JSON exit report as readable tables"},
    {"place", ompnuma_cmd_place, NULL, "decide a mapping for a thread-node table (TNT)"},
    {"calibrate", ompnuma_cmd_calibrate, NULL, "measure and cache this machine's migration costs"},
    {"vm", NULL, "ompnuma.numavm.numavm", "run a command in a multi-node Linux virtual machine"},
    {"bench", NULL, "ompnuma.harness.bench", "run benchmarks side by side under several runtimes"},
};
#define NSUB (sizeof subcommands / sizeof subcommands[0])

static void usage(FILE *out)
{
    fprintf(out, "usage: ompnuma <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < NSUB; i++)
        fprintf(out, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n'ompnuma <command> --help' describes each command.\n");
}

/* The Python package's directory of this installation: <dir of the binary>/../share/ompnuma/python. */
static int python_dir(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0)
        return -1;
    exe[n] = '\0';
    char *bindir = dirname(exe);
    int w = snprintf(out, len, "%s/../share/ompnuma/python", bindir);
    return (w < 0 || (size_t)w >= len) ? -1 : 0;
}

/* python3 -m MODULE ARGS with this installation's package first on PYTHONPATH: the subcommand runs the
 * Python of its own build, whatever else the interpreter has installed. */
static int run_module(const struct subcommand *sc, int argc, char **argv)
{
    char dir[PATH_MAX], file[PATH_MAX];
    int ok = python_dir(dir, sizeof dir) == 0 &&
             snprintf(file, sizeof file, "%s/%s.py", dir, sc->module) < (int)sizeof file;
    if (ok) /* ompnuma.report.report -> ompnuma/report/report.py */
        for (char *p = file + strlen(dir) + 1, *end = file + strlen(file) - 3; p < end; p++)
            if (*p == '.')
                *p = '/';
    if (!ok || access(file, R_OK) != 0) {
        fprintf(stderr, "ompnuma %s: the Python module %s is not installed beside this binary\n", sc->name,
                sc->module);
        return 1;
    }
    const char *old = getenv("PYTHONPATH");
    size_t n = strlen(dir) + (old ? strlen(old) : 0) + 2;
    char *path = malloc(n);
    char **args = calloc((size_t)argc + 3, sizeof *args);
    if (!path || !args) {
        free(path);
        free(args);
        return 1;
    }
    if (old && *old)
        snprintf(path, n, "%s:%s", dir, old);
    else
        snprintf(path, n, "%s", dir);
    int set = setenv("PYTHONPATH", path, 1);
    free(path);
    if (set != 0) {
        fprintf(stderr, "ompnuma %s: cannot set PYTHONPATH: %s\n", sc->name, strerror(errno));
        free(args);
        return 1;
    }
    args[0] = "python3";
    args[1] = "-m";
    args[2] = (char *)sc->module;
    for (int i = 1; i < argc; i++)
        args[i + 2] = argv[i];
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
        return sc->run ? sc->run(argc - 1, argv + 1) : run_module(sc, argc - 1, argv + 1);
    }
    fprintf(stderr, "ompnuma: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
