/* cmd_input.c: the command line's bounded input: whole files and topology specs, each refused with one error line. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "rt_util.h"

void cmd_error(const char *cmd, const char *fmt, ...)
{
    char msg[1024], line[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* The message quotes paths, specs and fields from the input: a newline or
     * carriage return there would split or overwrite the line, so control
     * characters are written as escapes. */
    size_t n = (size_t)snprintf(line, sizeof line, "ompnuma %s: ", cmd);
    for (const unsigned char *p = (const unsigned char *)msg; *p && n + 5 < sizeof line; p++) {
        if (*p == '\n')
            n += (size_t)snprintf(line + n, sizeof line - n, "\\n");
        else if (*p == '\r')
            n += (size_t)snprintf(line + n, sizeof line - n, "\\r");
        else if (*p == '\t')
            n += (size_t)snprintf(line + n, sizeof line - n, "\\t");
        else if (*p < 0x20 || *p == 0x7f)
            n += (size_t)snprintf(line + n, sizeof line - n, "\\x%02x", *p);
        else
            line[n++] = (char)*p;
    }
    line[n++] = '\n';
    fflush(stderr);
    fwrite(line, 1, n, stderr);
}

char *cmd_read_input(const char *cmd, const char *path, size_t *len)
{
    char *text = rt_read_file(path, len);
    if (!text)
        cmd_error(cmd, "%s: %s", path, rt_read_file_error(errno));
    return text;
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
    cmd_error(cmd, "%s \"%s\": %s", what, path, why);
    return -1;
}

int cmd_load_topology(const char *cmd, const char *spec, rt_topo_t *topo)
{
    if (spec && *spec) {
        if (strncmp(spec, "nodes=", 6) && check_file(cmd, "topology", spec))
            return 2;
    } else {
        /* hwloc reads these for "this machine"; an XML file there is read like a spec. */
        const char *xml = getenv("HWLOC_XMLFILE"), *syn = getenv("HWLOC_SYNTHETIC");
        if (!(syn && *syn) && xml && *xml && check_file(cmd, "HWLOC_XMLFILE", xml))
            return 2;
    }
    /* hwloc writes its own reasons to stderr ("Topology does not contain any
     * NUMA node"): collected here, they join this command's one error line. */
    char err[512], said[512] = "";
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *capture = saved >= 0 ? tmpfile() : NULL;
    if (capture)
        dup2(fileno(capture), STDERR_FILENO);
    int rc = rt_topo_load(spec, topo, err, sizeof err);
    if (capture) {
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        rewind(capture);
        size_t n = fread(said, 1, sizeof said - 1, capture);
        said[n] = '\0';
        fclose(capture);
        while (n && (said[n - 1] == '\n' || said[n - 1] == ' '))
            said[--n] = '\0';
        if (rc == 0 && n)  /* a topology that loaded: hwloc's warnings are its own to give */
            fprintf(stderr, "%s\n", said);
    }
    if (saved >= 0)
        close(saved);
    if (rc != 0) {
        /* hwloc's failures often leave errno 0: its own words say more than "Success". */
        size_t len = strlen(err);
        if (said[0] && len > 9 && !strcmp(err + len - 9, ": Success"))
            err[len - 9] = '\0';
        const char *why = !strncmp(said, "hwloc: ", 7) ? said + 7 : said;
        cmd_error(cmd, "%s%s%s%s", err, said[0] ? " (" : "", why, said[0] ? ")" : "");
        return 2;
    }
    return 0;
}
