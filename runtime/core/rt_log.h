/* rt_log.h: the runtime's only way to speak: one-line warnings and the verbose log, on stderr. */
#ifndef OMPNUMA_RT_LOG_H
#define OMPNUMA_RT_LOG_H

/* Every line starts with "ompnuma: " and is written with one write(2), so
 * lines from several threads never interleave. Not async-signal-safe (uses
 * vsnprintf); never call from a signal handler. */
void rt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Printed only when OMP_PLACEMENT_VERBOSE >= level. */
void rt_verbose(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The verbosity the settings chose (0 = quiet). */
extern int rt_log_verbosity;

#endif
