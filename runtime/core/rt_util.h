/* rt_util.h: small helpers shared by the runtime and the command line: whole files and JSON strings. */
#ifndef OMPNUMA_RT_UTIL_H
#define OMPNUMA_RT_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* A whole file ("-" is standard input) in a NUL-terminated malloc'd
 * buffer, its length in *len; NULL with errno set. */
char *rt_read_file(const char *path, size_t *len);

/* s as a JSON string literal, quotes included. */
void rt_json_string(FILE *f, const char *s);

#endif
