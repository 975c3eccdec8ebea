/* rt_log.c: one-line warnings and verbose messages on stderr, one write(2) each. */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "rt_log.h"

int rt_log_verbosity;

static void emit(const char *kind, const char *fmt, va_list ap)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "ompnuma: %s", kind);
    if (n < 0)
        return;
    int m = vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    if (m < 0)
        return;
    size_t len = (size_t)n + (size_t)m;
    if (len > sizeof line - 2)
        len = sizeof line - 2;  /* truncated: keep the newline */
    line[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, len);
    (void)w; /* nothing sensible to do if stderr is gone */
}

void rt_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit("warning: ", fmt, ap);
    va_end(ap);
}

void rt_verbose(int level, const char *fmt, ...)
{
    if (rt_log_verbosity < level)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit("", fmt, ap);
    va_end(ap);
}
