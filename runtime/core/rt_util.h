/* rt_util.h: small helpers shared by the runtime and the command line: whole files, JSON strings, one block for a record and its arrays. */
#ifndef OMPNUMA_RT_UTIL_H
#define OMPNUMA_RT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A record and its arrays in one allocation (a region's first sight makes
 * one call to the allocator, not one per array): rt_block_add gives each
 * array's offset, aligned to `align` (a power of two), in turn after the
 * record; b->size is then the block's size. */
typedef struct rt_block {
    size_t size;
} rt_block_t;

static inline size_t rt_block_add(rt_block_t *b, size_t count, size_t size, size_t align)
{
    size_t off = (b->size + align - 1) & ~(align - 1);
    b->size = off + count * size;
    return off;
}

/* The block of b->size bytes (rounded up to `align`, a power of two and a
 * multiple of sizeof(void *)), zeroed; NULL when memory is short. */
void *rt_block_alloc(const rt_block_t *b, size_t align);

/* Largest file rt_read_file reads: far above any TNT, report or topology
 * (a 4096-thread, 1024-node TNT of 20-digit counts is 80 MiB). */
#define RT_READ_FILE_MAX (128L << 20)
#define RT_READ_FILE_MAX_TEXT "128 MiB"

/* A whole file ("-" is standard input) in a NUL-terminated malloc'd
 * buffer, its length in *len; NULL with errno set. Every read ends: a named
 * file must be a regular file (ENODEV for a device, FIFO or socket, which is
 * never opened for long enough to block), EISDIR for a directory; more than
 * RT_READ_FILE_MAX bytes (standard input included) is EFBIG. */
char *rt_read_file(const char *path, size_t *len);

struct stat;
/* Whether a file of this kind and size may be read whole: 0, or the errno
 * rt_read_file gives it (EISDIR, ENODEV for a device, FIFO or socket, EFBIG
 * beyond RT_READ_FILE_MAX). The one rule for every file the runtime and the
 * command line read (TNTs, reports, topology XML). */
int rt_file_unfit(const struct stat *st);

/* One phrase for an errno rt_read_file set ("not a regular file ...",
 * "larger than 128 MiB", else strerror). */
const char *rt_read_file_error(int err);

/* An output file the user named (a report, a matrix, a log), truncated or
 * created, opened so that it never blocks: a FIFO nobody reads fails with
 * ENXIO instead of holding the program. The descriptor, or -1 with errno. */
int rt_open_output(const char *path, int append);
/* The same, as a stream to write ("w"), or NULL with errno. */
FILE *rt_open_output_stream(const char *path);

/* The members of a list as the kernel writes one ("0-3,8,10-11\n": a node's
 * cpulist, the online nodes, a cpuset's CPUs), ascending, the first cap of
 * them into out. How many the list has, or -1 when the text is not such a
 * list (an empty list has none). */
long rt_kernel_list(const char *s, int *out, long cap);

/* Whether the directory holding path (which need not exist) can be written. */
int rt_dir_writable(const char *path);

/* s as a JSON string literal, quotes included. */
void rt_json_string(FILE *f, const char *s);
/* v[0..n-1] as a JSON array of numbers. */
void rt_json_u64_array(FILE *f, const uint64_t *v, int n);
void rt_json_int_array(FILE *f, const int *v, int n);

/* text, all of it, as a decimal integer in [lo, hi] into *out: 0, or -1
 * (no number, something after it, out of range). */
int rt_parse_int(const char *text, int lo, int hi, int *out);

#endif
