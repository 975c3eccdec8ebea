/* rt_symbol.c: code address -> "symbol+0xoffset" (C++ names demangled) and "file:line" (elfutils' libdwfl), for the report, the verbose log and replay's region names. */
#include <dlfcn.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_symbol.h"

/*
 * dladdr sees only the dynamic symbol table, which holds neither static
 * functions, nor main or Fortran's MAIN__ in an executable, nor gcc's
 * outlined *._omp_fn.N: libdwfl reads each object's full ELF symbol table
 * (and separate debug files) and its DWARF line table. One session for the
 * process, built at the first name asked for (never in an event hook: the
 * report, the verbose log and replay ask) and re-read when an address lies
 * in an object loaded since. libdwfl is not thread-safe: one lock.
 *
 * libdw is loaded then too (dlopen), not with the drop-in: with libelf and
 * the compression libraries they need it took 0.3 to 0.6 ms of every
 * process's start, for names most runs never ask for. Where it cannot be
 * loaded, names come from the dynamic symbol table (dladdr) and there is
 * no file:line.
 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Dwfl *session;
static char *debuginfo_path; /* NULL: the default places (/usr/lib/debug) */

#define LIBDW "libdw.so.1"
#define DW_FUNCTIONS(X)                                                                                    \
    X(dwfl_linux_proc_find_elf) X(dwfl_build_id_find_debuginfo) X(dwfl_begin) X(dwfl_addrmodule)            \
    X(dwfl_report_begin) X(dwfl_linux_proc_report) X(dwfl_report_end) X(dwfl_module_addrinfo)              \
    X(dwfl_module_getsrc) X(dwfl_lineinfo) X(dwfl_module_nextcu) X(dwarf_getsrc_die) X(dwarf_linesrc)      \
    X(dwarf_lineno)
static struct {
#define DW_POINTER(f) __typeof__(&f) f;
    DW_FUNCTIONS(DW_POINTER)
#undef DW_POINTER
} dw;
/* A separate debug file is looked for on this machine only, by build id
 * (/usr/lib/debug/.build-id, where Debian's -dbgsym packages put it):
 * dwfl_standard_find_debuginfo also asks the debuginfod servers of
 * DEBUGINFOD_URLS, so a program writing its report at exit would download
 * debug information, or wait on servers that do not answer. */
static Dwfl_Callbacks callbacks = {.debuginfo_path = &debuginfo_path};

/* libdw's entry points, loaded at the first name asked for: 1, or 0 when
 * it is missing (then for good). Lock held. */
static int dw_loaded(void)
{
    static int state; /* 0 not tried, 1 loaded, -1 missing */
    if (!state) {
        void *lib = dlopen(LIBDW, RTLD_LAZY | RTLD_LOCAL);
        state = lib ? 1 : -1;
#define DW_RESOLVE(f)                                                                                      \
    if (state > 0 && !(dw.f = (__typeof__(dw.f))dlsym(lib, #f)))                                           \
        state = -1;
        DW_FUNCTIONS(DW_RESOLVE)
#undef DW_RESOLVE
        callbacks.find_elf = dw.dwfl_linux_proc_find_elf;
        callbacks.find_debuginfo = dw.dwfl_build_id_find_debuginfo;
    }
    return state > 0;
}

/* The module holding address a, (re)reading /proc/self/maps when needed. Lock held. */
static Dwfl_Module *module_of(Dwarf_Addr a)
{
    if (!dw_loaded())
        return NULL;
    Dwfl_Module *m = session ? dw.dwfl_addrmodule(session, a) : NULL;
    if (m)
        return m;
    if (!session && !(session = dw.dwfl_begin(&callbacks)))
        return NULL;
    dw.dwfl_report_begin(session); /* objects reported again keep what was read of them */
    int rc = dw.dwfl_linux_proc_report(session, getpid());
    if (dw.dwfl_report_end(session, NULL, NULL) != 0 || rc != 0)
        return NULL;
    return dw.dwfl_addrmodule(session, a);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/*
 * C++ names are shown demangled, as perf and gdb show them
 * ("CalcCourantConstraintForElems(Domain&, int, ...)", "f() [clone
 * ._omp_fn.0]"), by the C++ runtime's own demangler, __cxa_demangle: a C++
 * program has it loaded already (libstdc++, or libc++abi); a C program with
 * a name that looks mangled loads libstdc++ for it at that moment (the
 * libraries never depend on it). Lock held.
 */
typedef char *(*demangler_t)(const char *mangled, char *buf, size_t *len, int *status);

static demangler_t demangler(void)
{
    static demangler_t fn;
    static int looked;
    if (!looked) {
        looked = 1;
        fn = (demangler_t)dlsym(RTLD_DEFAULT, "__cxa_demangle");
        void *cxx = fn ? NULL : dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (cxx)
            fn = (demangler_t)dlsym(cxx, "__cxa_demangle");
    }
    return fn;
}

/* "name+0xoff" in a malloc'd string, name demangled when mangled. Lock held. */
static char *name_plus(const char *name, unsigned long long off, int demangle)
{
    demangler_t d = demangle && !strncmp(name, "_Z", 2) ? demangler() : NULL;
    int status = -1;
    char *plain = d ? d(name, NULL, NULL, &status) : NULL;
    char *out = NULL;
    if (asprintf(&out, "%s+0x%llx", plain && status == 0 ? plain : name, off) < 0)
        out = NULL;
    free(plain);
    return out;
}

char *rt_symbol_name(const void *codeptr, int demangle)
{
    Dwarf_Addr a = (Dwarf_Addr)(uintptr_t)codeptr;
    char *out = NULL;
    if (codeptr) {
        pthread_mutex_lock(&lock);
        Dwfl_Module *m = module_of(a);
        GElf_Off off = 0;
        GElf_Sym sym;
        const char *name = m ? dw.dwfl_module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL) : NULL;
        if (name && name[0])
            out = name_plus(name, (unsigned long long)off, demangle);
        pthread_mutex_unlock(&lock);
        if (out)
            return out;
    }
    Dl_info info;
    if (codeptr && dladdr(codeptr, &info)) {
        if (info.dli_sname && info.dli_saddr) {
            pthread_mutex_lock(&lock);
            out = name_plus(info.dli_sname, (unsigned long long)((uintptr_t)codeptr - (uintptr_t)info.dli_saddr),
                            demangle);
            pthread_mutex_unlock(&lock);
        } else if (info.dli_fname && info.dli_fbase &&
                   asprintf(&out, "%s+0x%zx", base_name(info.dli_fname),
                            (size_t)((uintptr_t)codeptr - (uintptr_t)info.dli_fbase)) < 0) {
            out = NULL;
        }
        if (out)
            return out;
    }
    if (asprintf(&out, "%p", codeptr) < 0)
        out = NULL;
    return out;
}

void rt_symbolize(const void *codeptr, char *buf, size_t len)
{
    char *name = rt_symbol_name(codeptr, 1);
    snprintf(buf, len, "%s", name ? name : "?");
    free(name);
}

int rt_symbol_data(const void *addr, char *name, size_t len, uintptr_t *start, size_t *size)
{
    Dwarf_Addr a = (Dwarf_Addr)(uintptr_t)addr;
    int found = 0;
    pthread_mutex_lock(&lock);
    Dwfl_Module *m = addr ? module_of(a) : NULL;
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *s = m ? dw.dwfl_module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL) : NULL;
    if (s && s[0] && GELF_ST_TYPE(sym.st_info) == STT_OBJECT && off < sym.st_size) {
        snprintf(name, len, "%s", s);
        *start = (uintptr_t)(a - off);
        *size = (size_t)sym.st_size;
        found = 1;
    }
    pthread_mutex_unlock(&lock);
    return found ? 0 : -1;
}

int rt_symbol_source(const void *codeptr, char *buf, size_t len)
{
    if (!codeptr || !len)
        return -1;
    buf[0] = '\0';
    /* codeptr is a return address: the call (the construct) is the byte before. */
    Dwarf_Addr a = (Dwarf_Addr)(uintptr_t)codeptr - 1;
    int found = 0;
    pthread_mutex_lock(&lock);
    Dwfl_Module *m = module_of(a);
    Dwfl_Line *line = m ? dw.dwfl_module_getsrc(m, a) : NULL;
    int lineno = 0;
    const char *file = line ? dw.dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
    if (!file && m) {
        /* Without .debug_aranges (clang emits none) libdwfl cannot tell
         * which unit holds the address: ask each unit's line table. */
        Dwarf_Addr bias;
        for (Dwarf_Die *cu = NULL; !file && (cu = dw.dwfl_module_nextcu(m, cu, &bias));) {
            Dwarf_Line *l = dw.dwarf_getsrc_die(cu, a - bias);
            if (l && (file = dw.dwarf_linesrc(l, NULL, NULL)) && dw.dwarf_lineno(l, &lineno) != 0)
                file = NULL;
        }
    }
    if (file && lineno > 0) {
        snprintf(buf, len, "%s:%d", file, lineno);
        found = 1;
    }
    pthread_mutex_unlock(&lock);
    return found ? 0 : -1;
}

const char *rt_symbol_sanitizer(void)
{
    static const struct {
        const char *init, *name;
    } runtimes[] = {
        {"__asan_init", "AddressSanitizer"}, {"__hwasan_init", "HWAddressSanitizer"},
        {"__tsan_init", "ThreadSanitizer"},  {"__msan_init", "MemorySanitizer"},
        {"__lsan_init", "LeakSanitizer"},
    };
    for (size_t i = 0; i < sizeof runtimes / sizeof *runtimes; i++)
        if (dlsym(RTLD_DEFAULT, runtimes[i].init))
            return runtimes[i].name;
    return NULL;
}
