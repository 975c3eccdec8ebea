/* om_facade_stubs.S: a drop-in's exported entry points (om_abi.h): each one jump through its slot of
 * the facade's table, which libompnuma fills. Built once per facade with OM_FACADE_ENTRIES naming its
 * list; a jump leaves the caller's return address and arguments as they were. */
#include "om_abi.h"

        .text
#define OM_STUB(i, name, shape)                 \
        .globl  name;                           \
        .type   name, @function;                \
        .p2align 4;                             \
name:   .cfi_startproc;                         \
        jmp     *om_facade_slots + 8 * (i)(%rip); \
        .cfi_endproc;                           \
        .size   name, . - name;

        .hidden om_facade_slots
OM_FACADE_ENTRIES(OM_STUB)

        .section .note.GNU-stack,"",@progbits
