/* cmd.h: the subcommands of the ompnuma command line tool, one file each. */
#ifndef OMPNUMA_CMD_H
#define OMPNUMA_CMD_H

/* Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit status: 0 success, 1 the
 * operation failed, 2 bad usage or bad input. */
int ompnuma_cmd_run(int argc, char **argv);
int ompnuma_cmd_topo(int argc, char **argv);
int ompnuma_cmd_place(int argc, char **argv);
int ompnuma_cmd_calibrate(int argc, char **argv);

/* Subcommands written in Python live in share/ompnuma/ beside the binary's
 * bin/ directory; the dispatcher execs them with the remaining arguments. */
#endif
