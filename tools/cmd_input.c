/* cmd_input.c: the command line's bounded input: whole files and topology specs, each refused with one error line. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "rt_util.h"

char *cmd_read_input(const char *cmd, const char *path, size_t *len)
{
    char *text = rt_read_file(path, len);
    if (!text)
        fprintf(stderr, "ompnuma %s: %s: %s\n", cmd, path, rt_read_file_error(errno));
    return text;
}

/* The counts of "nodes=N,cores=C": a value that does not fit an int would be
 * truncated by the loader (4294967298 nodes read as 2), so any count beyond
 * its range is refused here with the loader's own range message. Everything
 * else (unknown items, non-numbers, factor) is the loader's to judge. */
static int check_counts(const char *cmd, const char *spec)
{
    const char *p = spec;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        long limit = !strncmp(p, "nodes=", 6) ? RT_TOPO_MAX_NODES : !strncmp(p, "cores=", 6) ? RT_TOPO_MAX_CORES : 0;
        if (limit) {
            /* The loader's own reading of the value, before its cast to int. */
            char *end;
            errno = 0;
            long v = strtol(p + 6, &end, 10);
            if (end == p + n && end != p + 6 && (errno == ERANGE || v < 1 || v > limit)) {
                fprintf(stderr, "ompnuma %s: topology \"%s\": needs nodes in 1..%d, cores in 1..%d "
                        "and factor in 1..100\n", cmd, spec, RT_TOPO_MAX_NODES, RT_TOPO_MAX_CORES);
                return -1;
            }
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* A topology file hwloc will read must be a regular file of bounded size: a
 * FIFO would block its open and a device would never end. */
static int check_file(const char *cmd, const char *what, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0; /* not a file: a synthetic description, which hwloc judges */
    const char *why = NULL;
    if (S_ISDIR(st.st_mode))
        why = "a directory, not an hwloc XML file";
    else if (!S_ISREG(st.st_mode))
        why = rt_read_file_error(ENODEV);
    else if (st.st_size > RT_READ_FILE_MAX)
        why = rt_read_file_error(EFBIG);
    if (!why)
        return 0;
    fprintf(stderr, "ompnuma %s: %s \"%s\": %s\n", cmd, what, path, why);
    return -1;
}

int cmd_load_topology(const char *cmd, const char *spec, rt_topo_t *topo)
{
    if (spec && *spec) {
        if (!strncmp(spec, "nodes=", 6) ? check_counts(cmd, spec) : check_file(cmd, "topology", spec))
            return 2;
    } else {
        /* hwloc reads these for "this machine"; an XML file there is read like a spec. */
        const char *xml = getenv("HWLOC_XMLFILE"), *syn = getenv("HWLOC_SYNTHETIC");
        if (!(syn && *syn) && xml && *xml && check_file(cmd, "HWLOC_XMLFILE", xml))
            return 2;
    }
    char err[512];
    if (rt_topo_load(spec, topo, err, sizeof err) != 0) {
        fprintf(stderr, "ompnuma %s: %s\n", cmd, err);
        return 2;
    }
    return 0;
}
