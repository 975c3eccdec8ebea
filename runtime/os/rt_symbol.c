/* rt_symbol.c: code address -> "symbol+0xoffset" for the report and for replay's region names. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rt_symbol.h"

void rt_symbolize(const void *codeptr, char *buf, size_t len)
{
    Dl_info info;
    if (codeptr && dladdr(codeptr, &info)) {
        if (info.dli_sname && info.dli_saddr) {
            snprintf(buf, len, "%s+0x%zx", info.dli_sname,
                     (size_t)((uintptr_t)codeptr - (uintptr_t)info.dli_saddr));
            return;
        }
        if (info.dli_fname && info.dli_fbase) {
            const char *base = strrchr(info.dli_fname, '/');
            snprintf(buf, len, "%s+0x%zx", base ? base + 1 : info.dli_fname,
                     (size_t)((uintptr_t)codeptr - (uintptr_t)info.dli_fbase));
            return;
        }
    }
    snprintf(buf, len, "%p", codeptr);
}
