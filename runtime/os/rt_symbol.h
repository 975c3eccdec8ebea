/* rt_symbol.h: names for code addresses (dladdr), for the report, the verbose log and replay tables. */
#ifndef OMPNUMA_RT_SYMBOL_H
#define OMPNUMA_RT_SYMBOL_H

#include <stddef.h>

/* "symbol+0xoff" (or "object+0xoff", or "0xaddr") for a code address. */
void rt_symbolize(const void *codeptr, char *buf, size_t len);

#endif
