/* rt_object.h: which loaded object a code address belongs to, by build id and offset: a name that survives address randomisation and relinking elsewhere. */
#ifndef OMPNUMA_RT_OBJECT_H
#define OMPNUMA_RT_OBJECT_H

#include <stddef.h>
#include <stdint.h>

/*
 * "BUILDID+0xOFFSET" for a code address: the GNU build id (hex) of the
 * object (executable or shared library) whose loaded segment holds it, and
 * its offset from the object's load bias. Equal for the same code in every
 * run of the same build, whatever the addresses. Takes the loader's lock
 * (dl_iterate_phdr): never in a hot hook. Returns 0, or -1 with errno ENOENT
 * (not in a loaded object, or the object has no build id: nothing stable to
 * name it by) or EINVAL (len too small).
 */
int rt_code_key(const void *codeptr, char *key, size_t len);

/* The main program's build id (hex). 0, or -1 with errno ENOENT. */
int rt_program_build_id(char *id, size_t len);

/* The writable segments (data and .bss) of every shared object loaded now,
 * not the main program's: up to max ranges [lo[i], hi[i]), hi rounded up to
 * a page. Takes the loader's lock: never in a hot hook nor a signal
 * handler. Returns how many. */
int rt_library_data(uintptr_t *lo, uintptr_t *hi, int max);

#endif
