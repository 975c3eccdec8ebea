/* rt_symbol.h: names for code addresses (ELF symbol tables and DWARF through libdwfl, else dladdr), for the report, the verbose log and replay tables. */
#ifndef OMPNUMA_RT_SYMBOL_H
#define OMPNUMA_RT_SYMBOL_H

#include <stddef.h>
#include <stdint.h>

/* "symbol+0xoff" (static functions, main, MAIN__ and outlined functions
 * included; C++ names demangled when demangle is set, as perf and gdb show
 * them), else "object+0xoff", else "0xaddr", for a code address, whole, in
 * a malloc'd string (NULL when out of memory). Reads the process's objects
 * at the first call: never from an event hook. */
char *rt_symbol_name(const void *codeptr, int demangle);

/* rt_symbol_name's demangled name, cut to fit buf (for log lines). */
void rt_symbolize(const void *codeptr, char *buf, size_t len);

/* The static object holding data address addr (a sized data symbol of an
 * ELF symbol table: a global or static array of the program or a library):
 * 0 with its name, first byte and size, or -1 when no such symbol covers
 * addr. Reads the process's objects at the first call: never from an event
 * hook. */
int rt_symbol_data(const void *addr, char *name, size_t len, uintptr_t *start, size_t *size);

/* "file:line" of the call whose return address is codeptr (a parallel
 * construct's line), from the object's debug information: 0, or -1 with
 * buf empty when there is none. */
int rt_symbol_source(const void *codeptr, char *buf, size_t len);

/* The name of a sanitizer runtime loaded in the process that owns memory
 * behind the program's back (shadow mappings, its own heap): "AddressSanitizer",
 * ...; NULL when there is none. */
const char *rt_symbol_sanitizer(void);

#endif
