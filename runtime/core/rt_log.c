/* rt_log.c: one-line warnings and verbose messages on stderr, one write(2) each. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "rt_log.h"

int rt_log_verbosity;

size_t rt_escape(const char *s, size_t max, int backslash, char *out, size_t len)
{
    size_t o = 0;
    if (!len)
        return 0;
    for (size_t i = 0;; i++) {
        if (i == max || (s[i] && o + 8 >= len)) { /* room for "\xNN", "..." and the NUL */
            int k = snprintf(out + o, len - o, "...");
            o += k > 0 && (size_t)k < len - o ? (size_t)k : 0;
            break;
        }
        unsigned char c = (unsigned char)s[i];
        if (!c)
            break;
        if (c == '\n')
            o += (size_t)snprintf(out + o, len - o, "\\n");
        else if (c == '\t')
            o += (size_t)snprintf(out + o, len - o, "\\t");
        else if (c < 0x20 || c >= 0x7f || (backslash && c == '\\'))
            o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
        else
            out[o++] = (char)c;
    }
    out[o] = '\0';
    return o;
}

static void emit(const char *kind, const char *fmt, va_list ap)
{
    char msg[1024], line[2048];
    int m = vsnprintf(msg, sizeof msg, fmt, ap);
    if (m < 0)
        return;
    int n = snprintf(line, sizeof line, "ompnuma: %s", kind);
    if (n < 0)
        return;
    /* A message cut short ends in "..."; a path or a program's name in it
     * cannot break the line. */
    size_t shown = (size_t)m < sizeof msg ? SIZE_MAX : sizeof msg - 1;
    size_t len = (size_t)n + rt_escape(msg, shown, 0, line + n, sizeof line - (size_t)n - 1);
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
