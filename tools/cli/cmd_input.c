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

int cmd_load_topology(const char *cmd, const char *spec, rt_topo_t *topo)
{
    /* rt_topo_load refuses XML "files" that are devices, FIFOs, directories
     * or too large (the spec's, or HWLOC_XMLFILE's) before hwloc reads them.
     * hwloc writes its own reasons to stderr ("Topology does not contain any
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
