/* om_abi_x86_64.S: the two pieces of the ABI route C cannot write: taking __kmpc_fork_call's variable
 * arguments as they lie, and calling an outlined function with any number of them (x86-64 System V). */

        .text

#include "om_abi.h"

/* A frame on rbp, with the unwind information a debugger or profiler reads. */
        .macro FRAME_ENTER
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        .endm

        .macro FRAME_LEAVE
        leave
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .endm

/*
 * w___kmpc_fork_call(ident_t *loc, int32 argc, microtask, a0, a1, a2, [a3 ...]): the slot of the
 * drop-in's __kmpc_fork_call jumps here (om_abi.h). The shared arguments stay where the caller put
 * them: a0..a2 in rcx, r8, r9 (kept in this frame), the rest on the caller's stack above the return
 * address. The team record lives in this frame until the region is over:
 *     (mode, leave) = om_abi_fork_begin(t, site)
 * then the real __kmpc_fork_call: with the program's own outlined function and arguments as they
 * came (OM_FORK_PROGRAM); or with one argument, t, and the trampoline, om_abi_microtask
 * (OM_FORK_TRAMPOLINE), or om_abi_microtask_alone (OM_FORK_ALONE), t getting the outlined function
 * and argc, regs = {a0, a1, a2} and stack = &a3 first. After it, --*leave, or with the trampoline
 * (leave NULL) om_abi_fork_end(t). The frame, below rbp: the six argument registers (-48), the team
 * record (rsp, OM_ABI_TEAM_FRAME bytes), leave above it (-64), 16-byte aligned at the calls.
 */
        .globl  w___kmpc_fork_call
        .hidden w___kmpc_fork_call
        .type   w___kmpc_fork_call, @function
        .p2align 4
w___kmpc_fork_call:
        FRAME_ENTER
        pushq   %rdi                    /* -8: loc */
        pushq   %rsi                    /* -16: argc */
        pushq   %rdx                    /* -24: microtask */
        pushq   %r9                     /* -32: regs[2] */
        pushq   %r8                     /* -40: regs[1] */
        pushq   %rcx                    /* -48: regs[0] */
        subq    $OM_ABI_TEAM_FRAME+16, %rsp /* the team record, then leave and 8 bytes of padding */
        movq    %rsp, %rdi              /* t */
        movq    8(%rbp), %rsi           /* site: where the program called __kmpc_fork_call */
        call    om_abi_fork_begin
        movq    %rdx, -64(%rbp)         /* leave */
        cmpl    $OM_FORK_PROGRAM, %eax
        je      1f
        movq    -24(%rbp), %rdx         /* t's outlined function and its arguments */
        movq    %rdx, OM_ABI_TEAM_FN(%rsp)
        movl    -16(%rbp), %edx
        movl    %edx, OM_ABI_TEAM_ARGC(%rsp)
        leaq    -48(%rbp), %rdx
        movq    %rdx, OM_ABI_TEAM_REGS(%rsp)
        leaq    16(%rbp), %rdx
        movq    %rdx, OM_ABI_TEAM_STACK(%rsp)
        leaq    om_abi_microtask(%rip), %rdx
        leaq    om_abi_microtask_alone(%rip), %rcx
        cmpl    $OM_FORK_ALONE, %eax
        cmove   %rcx, %rdx
        movq    -8(%rbp), %rdi          /* real(loc, 1, microtask, t) */
        movl    $1, %esi
        movq    %rsp, %rcx
        xorl    %eax, %eax
        call    *om_abi_hot+OM_ABI_HOT_REAL_FORK(%rip)
        movq    -64(%rbp), %rax
        testq   %rax, %rax
        jnz     5f
        movq    %rsp, %rdi              /* om_abi_fork_end(t) */
        call    om_abi_fork_end
        jmp     6f
1:      movslq  -16(%rbp), %rax         /* real(loc, argc, microtask, a0, ...) as it came */
        subq    $3, %rax                /* arguments on the stack */
        jle     2f
        testq   $1, %rax
        jz      4f
        subq    $8, %rsp
4:      pushq   8(%rbp,%rax,8)          /* a(2 + rax) = stack[rax - 1], down to stack[0] */
        decq    %rax
        jnz     4b
2:      movq    -8(%rbp), %rdi
        movl    -16(%rbp), %esi
        movq    -24(%rbp), %rdx
        movq    -48(%rbp), %rcx
        movq    -40(%rbp), %r8
        movq    -32(%rbp), %r9
        xorl    %eax, %eax
        call    *om_abi_hot+OM_ABI_HOT_REAL_FORK(%rip)
        movq    -64(%rbp), %rax
        testq   %rax, %rax
        jz      6f
5:      decl    (%rax)
6:      FRAME_LEAVE
        .size   w___kmpc_fork_call, . - w___kmpc_fork_call

/*
 * om_abi_invoke(fn, int32 *gtid, int32 *btid, int argc, void *const regs[3], void *const *stack):
 * fn(gtid, btid, a0, ..., a(argc-1)) with a0..a2 = regs[0..2] and a3... = stack[0...]. The first
 * four shared arguments go in rdx, rcx, r8, r9, the others on the stack in order. fn is called from
 * the one instruction below, whichever trampoline asks (om_abi_microtask, om_abi_microtask_alone):
 * a nested fork that fn makes as its last call, a tail call, has that call's return address for its
 * call site, the nested region's key.
 */
        .globl  om_abi_invoke
        .hidden om_abi_invoke
        .type   om_abi_invoke, @function
        .p2align 4
om_abi_invoke:
        FRAME_ENTER
        movq    %rdi, %r11              /* fn */
        movq    %rsi, %rdi              /* gtid */
        movq    %rdx, %rsi              /* btid */
        movslq  %ecx, %rax              /* argc */
        cmpq    $4, %rax
        jle     2f
        leaq    -4(%rax), %r10          /* arguments on the stack: a4 ... = stack[1 ...] */
        testq   $1, %r10
        jz      1f
        subq    $8, %rsp                /* an odd count: keep the call 16-byte aligned */
1:      pushq   (%r9,%r10,8)            /* stack[r10], down to stack[1] */
        decq    %r10
        jnz     1b
2:      cmpq    $3, %rax
        jle     3f
        movq    (%r9), %r9              /* a3 */
3:      movq    (%r8), %rdx             /* a0 (regs[] has three entries: unused ones are not read by fn) */
        movq    8(%r8), %rcx            /* a1 */
        movq    16(%r8), %r8            /* a2 */
        xorl    %eax, %eax
        call    *%r11
        FRAME_LEAVE
        .size   om_abi_invoke, . - om_abi_invoke

        .section .note.GNU-stack,"",@progbits
