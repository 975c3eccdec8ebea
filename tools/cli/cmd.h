/* cmd.h: the subcommands of the ompnuma command line tool, one file each, and their shared input helpers. */
#ifndef OMPNUMA_CMD_H
#define OMPNUMA_CMD_H

#include <stddef.h>

#include "rt_topology.h"

/* Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit status: 0 success, 1 the
 * operation failed, 2 bad usage or bad input. */
int ompnuma_cmd_run(int argc, char **argv);
int ompnuma_cmd_topo(int argc, char **argv);
int ompnuma_cmd_place(int argc, char **argv);
int ompnuma_cmd_calibrate(int argc, char **argv);

/* Subcommands written in Python live in share/ompnuma/ beside the binary's
 * bin/ directory; the dispatcher execs them with the remaining arguments. */

/* One error line "ompnuma CMD: message" on stderr, control characters of
 * the message (quoted input) escaped so it stays one line. */
void cmd_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A whole input file, bounded (rt_read_file); NULL after one line on stderr
 * "ompnuma CMD: PATH: why". */
char *cmd_read_input(const char *cmd, const char *path, size_t *len);

/* rt_topo_load, refusing first what it would misread or wait on: counts
 * beyond their range, topology files that are not regular or too large
 * (spec, or HWLOC_XMLFILE for this machine). 0, or 2 after one line on
 * stderr "ompnuma CMD: ...". */
int cmd_load_topology(const char *cmd, const char *spec, rt_topo_t *topo);

#endif
