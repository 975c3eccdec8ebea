/* rt_log.h: the runtime's only way to speak: one-line warnings and the verbose log, on stderr. */
#ifndef OMPNUMA_RT_LOG_H
#define OMPNUMA_RT_LOG_H

#include <stddef.h>

/* Every line starts with "ompnuma: " and is written with one write(2), so
 * lines from several threads never interleave. Not async-signal-safe (uses
 * vsnprintf); never call from a signal handler. */
void rt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Printed only when OMP_PLACEMENT_VERBOSE >= level. */
void rt_verbose(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* s as printable text in out (len bytes, NUL-terminated): control and
 * non-ASCII bytes as \n, \t or \xNN, a backslash as \x5c when backslash
 * is set, so that a value can neither split a line nor forge another. At
 * most max bytes of s, then "..." (also when out is full). Its length. Both
 * kinds of line escape their message's bytes this way (no backslash). */
size_t rt_escape(const char *s, size_t max, int backslash, char *out, size_t len);

/* The verbosity the settings chose (0 = quiet). */
extern int rt_log_verbosity;

#endif
