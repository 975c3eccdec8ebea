/* rt_util.c: whole-file reads, output files opened without blocking, JSON string literals and whole-text integers for the settings, the cache, the report, replay and the command line. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_util.h"

void *rt_block_alloc(const rt_block_t *b, size_t align)
{
    size_t bytes = (b->size + align - 1) & ~(align - 1);
    void *p = NULL;
    if (posix_memalign(&p, align, bytes ? bytes : align) != 0)
        return NULL;
    memset(p, 0, bytes);
    return p;
}

/* Read fd to its end, at most RT_READ_FILE_MAX bytes: one byte more is EFBIG,
 * so /dev/zero behind standard input ends instead of filling memory. */
static char *read_fd(int fd, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return NULL;
    for (;;) {
        if (n == cap) {
            if (cap > RT_READ_FILE_MAX) {
                free(buf);
                errno = EFBIG;
                return NULL;
            }
            /* Never more than one byte beyond the limit: enough to see it is exceeded. */
            size_t next = 2 * cap > RT_READ_FILE_MAX ? (size_t)RT_READ_FILE_MAX + 1 : 2 * cap;
            char *bigger = realloc(buf, next + 1);
            if (!bigger) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = bigger;
            cap = next;
        }
        ssize_t k = read(fd, buf + n, cap - n);
        if (k == 0)
            break;
        if (k < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            errno = e;
            return NULL;
        }
        n += (size_t)k;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int rt_file_unfit(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return EISDIR;
    if (!S_ISREG(st->st_mode))
        return ENODEV; /* a device, FIFO or socket: it may never end */
    return st->st_size > RT_READ_FILE_MAX ? EFBIG : 0;
}

char *rt_read_file(const char *path, size_t *len)
{
    int use_stdin = !strcmp(path, "-");
    /* O_NONBLOCK: opening a FIFO without a writer must not wait for one; the
     * type check below refuses it before any read. */
    int fd = use_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return NULL;
    struct stat st;
    int err = 0;
    if (fstat(fd, &st) != 0)
        err = errno;
    else if (use_stdin && !S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
        err = 0; /* standard input may be a pipe: its size is bounded while it is read */
    else if ((err = rt_file_unfit(&st)) == 0 && !use_stdin &&
             fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
        err = errno;
    char *buf = NULL;
    if (!err && !(buf = read_fd(fd, len)))
        err = errno;
    if (!use_stdin)
        close(fd);
    errno = err;
    return buf;
}

int rt_open_output(const char *path, int append)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC | (append ? O_APPEND : 0), 0666);
}

FILE *rt_open_output_stream(const char *path)
{
    int fd = rt_open_output(path, 0);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f && fd >= 0) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

int rt_dir_writable(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    return access(dirname(dir), W_OK) == 0;
}

const char *rt_read_file_error(int err)
{
    switch (err) {
    case ENODEV: return "not a regular file (a device, FIFO or socket)";
    case EFBIG:  return "larger than " RT_READ_FILE_MAX_TEXT;
    default:     return strerror(err);
    }
}

void rt_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void rt_json_u64_array(FILE *f, const uint64_t *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
    fputc(']', f);
}

void rt_json_int_array(FILE *f, const int *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? "," : "", v[i]);
    fputc(']', f);
}

int rt_parse_int(const char *text, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

long rt_kernel_list(const char *s, int *out, long cap)
{
    long n = 0, last = -1;
    while (*s && *s != '\n') {
        char *e;
        errno = 0;
        long lo = strtol(s, &e, 10), hi = lo;
        if (e == s || *s == '-' || *s == '+' || errno)
            return -1;
        if (*e == '-') {
            s = e + 1;
            hi = strtol(s, &e, 10);
            if (e == s || *s == '-' || *s == '+' || errno)
                return -1;
        }
        if (lo <= last || hi < lo || hi > INT_MAX || (*e != ',' && *e != '\n' && *e))
            return -1;
        for (long v = lo; v <= hi && n + (v - lo) < cap; v++)
            out[n + (v - lo)] = (int)v;
        n += hi - lo + 1;
        last = hi;
        s = *e == ',' ? e + 1 : e;
    }
    return n;
}
