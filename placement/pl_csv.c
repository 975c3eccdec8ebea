/* pl_csv.c: parser of thread-node table (TNT) CSV text, with '# region NAME' sections, without allocation. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "pl.h"

/*
 * Grammar (one line at a time; fields are separated by ',' and may be
 * surrounded by blanks; "\r\n" line ends are accepted):
 *
 *   file    ::= { line }
 *   line    ::= blank | comment | region | header | row
 *   comment ::= '#' any              (not a region line)
 *   region  ::= '#' blanks 'region' blanks NAME      (NAME: rest of line, trimmed, < 128 chars)
 *   header  ::= word { ',' any }     (only as the first line of a table)
 *   word    ::= a field that does not look numeric: empty, or not starting with a
 *               digit, '+', '-' or '.', and not nan, inf or infinity (any case)
 *   row     ::= count { ',' count }  (same number of fields as the table's first row)
 *   count   ::= digit { digit }      (an unsigned decimal integer below 2^64)
 *
 * So "+1", "1.5", "1e3", "0x10" and "nan" are never a header: they are
 * numbers that are not counts, and an error. The counts of one table must
 * add up to at most 2^64 - 1, so no row, column or mapping total of the table
 * can wrap in 64 bits.
 */

typedef struct parser {
    pl_csv_table_t *tables;
    int max_tables, ntables;
    uint64_t *cells;
    size_t max_cells, ncells;
    char *err;
    size_t errlen;
    int fill;          /* second pass: buffers are large enough */
    int open;          /* a table is open (has a name, maybe no rows yet) */
    int open_line;     /* line of the region header of the open table */
    char name[128];
    int rows, cols;
    size_t first_cell;
    uint64_t total;    /* sum of the open table's counts so far */
} parser_t;

static int fail(parser_t *p, int line, const char *fmt, ...)
{
    if (p->err && p->errlen) {
        int k = line > 0 ? snprintf(p->err, p->errlen, "line %d: ", line) : 0;
        if (k < 0) k = 0;
        if ((size_t)k < p->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(p->err + k, p->errlen - k, fmt, ap);
            va_end(ap);
        }
    }
    return -EINVAL;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Close the open table: a region with no rows is an error, the default table
 * with no rows simply does not exist. */
static int close_table(parser_t *p)
{
    if (!p->open)
        return 0;
    p->open = 0;
    if (p->rows == 0) {
        if (p->name[0])
            return fail(p, p->open_line, "region '%s' has no rows", p->name);
        return 0;
    }
    if (p->fill) {
        pl_csv_table_t *t = &p->tables[p->ntables];
        memcpy(t->name, p->name, sizeof t->name);
        t->nthreads = p->rows;
        t->nnodes = p->cols;
        t->refs = p->cells + p->first_cell;
    }
    p->ntables++;
    return 0;
}

static void open_table(parser_t *p, const char *name, size_t len, int line)
{
    memcpy(p->name, name, len);
    p->name[len] = 0;
    p->open = 1;
    p->open_line = line;
    p->rows = p->cols = 0;
    p->first_cell = p->ncells;
    p->total = 0;
}

/* Whether a field reads as a number of some kind (the header rule above). */
static int looks_numeric(const char *s, const char *e)
{
    if ((*s >= '0' && *s <= '9') || *s == '+' || *s == '-' || *s == '.')
        return 1;
    static const char *const words[] = {"nan", "inf", "infinity"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if ((size_t)(e - s) == strlen(words[i]) && strncasecmp(s, words[i], (size_t)(e - s)) == 0)
            return 1;
    return 0;
}

/* Parse one field [s, e) as a count. 0, or 1 if it is a word (header
 * candidate), or a negative errno with the message written. */
static int parse_count(parser_t *p, int line, int col, const char *s, const char *e, uint64_t *out)
{
    while (s < e && is_blank(*s)) s++;
    while (e > s && is_blank(e[-1])) e--;
    if (s == e)
        return p->rows == 0 && col == 0 ? 1 : fail(p, line, "field %d is empty", col + 1);
    uint64_t v = 0;
    const char *q = s;
    for (; q < e && *q >= '0' && *q <= '9'; q++) {
        unsigned dgt = (unsigned)(*q - '0');
        if (v > (UINT64_MAX - dgt) / 10)
            return fail(p, line, "field %d: count '%.*s' does not fit in 64 bits", col + 1,
                        (int)(e - s), s);
        v = v * 10 + dgt;
    }
    if (q == e) {
        *out = v;
        return 0;
    }
    if (!looks_numeric(s, e))
        return 1;
    if (*s == '-' && e > s + 1 && ((s[1] >= '0' && s[1] <= '9') || s[1] == '.'))
        return fail(p, line, "field %d: negative count '%.*s'", col + 1, (int)(e - s), s);
    return fail(p, line, "field %d: '%.*s' is not a count (an unsigned decimal integer)", col + 1,
                (int)(e - s), s);
}

static int parse_row(parser_t *p, int line, const char *s, const char *e)
{
    int col = 0;
    const char *f = s;
    size_t start = p->ncells;
    for (;;) {
        const char *c = f;
        while (c < e && *c != ',') c++;
        uint64_t v = 0;
        int rc = parse_count(p, line, col, f, c, &v);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            /* Not a number: a header only as the first line of a table. */
            if (p->rows == 0 && col == 0 && !(p->open && p->cols < 0))
                goto header;
            const char *a = f, *b = c;
            while (a < b && is_blank(*a)) a++;
            while (b > a && is_blank(b[-1])) b--;
            return fail(p, line, "field %d: '%.*s' is not a count (an unsigned decimal integer)",
                        col + 1, (int)(b - a), a);
        }
        if (v > UINT64_MAX - p->total) {
            p->ncells = start;
            if (p->name[0])
                return fail(p, line, "the counts of region '%s' add up to more than 2^64-1; "
                            "their totals would wrap", p->name);
            return fail(p, line, "the counts of the table add up to more than 2^64-1; "
                        "their totals would wrap");
        }
        p->total += v;
        if (p->fill)
            p->cells[p->ncells] = v;
        p->ncells++;
        col++;
        if (c == e)
            break;
        f = c + 1;
    }
    if (p->rows == 0)
        p->cols = col;
    else if (col != p->cols) {
        p->ncells = start;
        return fail(p, line, "ragged row: %d fields, expected %d", col, p->cols);
    }
    p->rows++;
    return 0;
header:
    p->ncells = start;
    /* A second non-numeric line before any row is an error, not a header:
     * cols = -1 marks "header seen". */
    p->cols = -1;
    return 0;
}

static int run(parser_t *p, const char *text, size_t len)
{
    const char *end = text + len;
    int line = 0;
    p->open = 1; /* the default table, named "" */
    p->name[0] = 0;
    p->rows = p->cols = 0;
    p->first_cell = 0;
    p->open_line = 0;
    p->total = 0;
    for (const char *s = text; s < end;) {
        const char *e = memchr(s, '\n', (size_t)(end - s));
        if (!e) e = end;
        line++;
        const char *a = s, *b = e;
        s = e < end ? e + 1 : end;
        while (a < b && is_blank(*a)) a++;
        while (b > a && is_blank(b[-1])) b--;
        if (a == b)
            continue;
        if (memchr(a, 0, (size_t)(b - a)))
            return fail(p, line, "NUL byte in text");
        if (*a == '#') {
            const char *q = a + 1;
            while (q < b && is_blank(*q)) q++;
            if (b - q > 6 && strncmp(q, "region", 6) == 0 && is_blank(q[6])) {
                q += 6;
                while (q < b && is_blank(*q)) q++;
                size_t nlen = (size_t)(b - q);
                if (nlen >= sizeof p->name)
                    return fail(p, line, "region name longer than %zu characters",
                                sizeof p->name - 1);
                int rc = close_table(p);
                if (rc)
                    return rc;
                open_table(p, q, nlen, line);
            }
            continue;
        }
        int rc = parse_row(p, line, a, b);
        if (rc)
            return rc;
    }
    int rc = close_table(p);
    if (rc)
        return rc;
    if (p->ntables == 0)
        return fail(p, 0, "empty: no rows of counts");
    return p->ntables;
}

int pl_csv_parse(const char *text, size_t len,
                 pl_csv_table_t *tables, int max_tables,
                 uint64_t *cells, size_t max_cells, size_t *ncells,
                 char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (!text && len)
        return -EINVAL;
    parser_t p = { .err = err, .errlen = errlen };
    int n = run(&p, text ? text : "", len);
    if (n < 0)
        return n;
    if (ncells)
        *ncells = p.ncells;
    if (!tables)
        return n;
    if (max_tables < n || max_cells < p.ncells || !cells) {
        if (err && errlen)
            snprintf(err, errlen, "buffers too small: %d tables and %zu cells needed", n, p.ncells);
        return -ENOBUFS;
    }
    parser_t q = { .tables = tables, .max_tables = max_tables, .cells = cells,
                   .max_cells = max_cells, .err = err, .errlen = errlen, .fill = 1 };
    return run(&q, text, len);
}
