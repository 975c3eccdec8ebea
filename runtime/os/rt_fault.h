/* rt_fault.h: the runtime's single SIGSEGV dispatcher: claimed address ranges, each with a resolver; other faults go to the previous handler. */
#ifndef OMPNUMA_RT_FAULT_H
#define OMPNUMA_RT_FAULT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Users: the next-touch pager (rt_mem_pager.c) and the `pagefault` counter
 * source. Both protect pages they own and resolve the faults on them; any
 * fault they do not resolve belongs to the program.
 *
 * How a SIGSEGV is dispatched:
 *   1. Every active claim whose [start, end) contains si_addr is offered the
 *      fault, newest claim first. The first resolver that returns
 *      RT_FAULT_RESOLVED ends the dispatch and the faulting instruction is
 *      re-executed.
 *   2. Otherwise the fault goes to the action that was installed before
 *      ours: its sa_sigaction or sa_handler is called with the signal mask
 *      the kernel would have given it (the thread's mask at the fault, its
 *      sa_mask, SIGSEGV unless SA_NODEFER; SA_RESETHAND honoured), so a
 *      handler that leaves by longjmp leaves the mask it would leave without
 *      ompnuma, not the dispatcher's; SIG_IGN or SIG_DFL for a fault the
 *      kernel raised restores SIG_DFL and returns, so the instruction faults
 *      again and the program dies of SIGSEGV (with its core dump) exactly as
 *      it would have without ompnuma. A SIGSEGV sent with kill() or raise()
 *      is ignored under SIG_IGN and re-raised under SIG_DFL.
 *
 * The handler is installed with SA_SIGINFO | SA_ONSTACK | SA_RESTART: faults
 * from a stack overflow reach the program's handler on its alternate stack
 * when it has one. SA_NODEFER is not set: a fault inside a resolver kills the
 * process instead of recursing.
 *
 * A program that installs its own SIGSEGV handler after ours: from then on
 * its handler runs first. If it chains to the action it replaced (as careful
 * libraries do), ours still sees every fault. If it does not, our protected
 * pages would fault forever inside its handler, so rt_fault_claim() checks
 * the installed action each time a range is claimed and, when ours is no
 * longer there, installs ours again with the program's handler as the new
 * "previous" action: the program still receives all of its own faults. A
 * handler that chains back to us while we forward to it is recognised by the
 * siginfo it passes back (precondition: it passes the siginfo it received,
 * not a copy) and the fault goes one level further down the chain, so the
 * two never loop. Leaving a handler with siglongjmp is fine. Handlers
 * installed between two claims are not seen until the next claim.
 */

/* A resolver's verdict. */
enum {
    RT_FAULT_NOT_MINE = 0,   /* not this claim's fault: offer it elsewhere */
    RT_FAULT_RESOLVED = 1    /* access repaired: re-execute the instruction */
};

/*
 * A resolver runs inside the SIGSEGV handler of the faulting thread.
 * Precondition: it is async-signal-safe (system calls, atomics, no locks
 * that a normal thread may hold, no malloc, no stdio) and it does not fault.
 *   addr  the faulting address (si_addr)
 *   code  si_code (SEGV_ACCERR for a protection fault, SEGV_MAPERR, ...),
 *         or RT_FAULT_GIVE_BACK (addr NULL): a fault that no claim resolved
 *         goes to the program's own handler, which runs with SIGSEGV
 *         blocked as the kernel would run it, so that a page it touches
 *         that is still protected would kill the process; a claim that can
 *         make its range accessible at once (the page sampler) does so and
 *         says RT_FAULT_RESOLVED, the others RT_FAULT_NOT_MINE.
 *   ctx   the pointer given to rt_fault_claim
 */
#define RT_FAULT_GIVE_BACK (-1)
typedef int (*rt_fault_fn)(void *addr, int code, void *ctx);

/* Most claims active at once. */
#define RT_FAULT_MAX_CLAIMS 256

/*
 * Install the dispatcher if it is not installed (once per process; later
 * calls only re-check that it is still the installed action, see above).
 * Not async-signal-safe. Returns 0, or -1 with errno from sigaction.
 */
int rt_fault_install(void);

/*
 * Claim [start, end) for fn. Ranges may overlap other claims (newest is
 * offered first). Installs or re-installs the dispatcher as described above.
 * Returns a claim id >= 0, or -1 with errno EINVAL (empty range, NULL fn),
 * ENOMEM (all RT_FAULT_MAX_CLAIMS slots in use), or sigaction's errno.
 * Thread-safe; not async-signal-safe.
 */
int rt_fault_claim(void *start, void *end, rt_fault_fn fn, void *ctx);

/*
 * Release a claim. When it returns, no thread is running fn for this claim
 * and none will, so ctx may be freed. Faults arriving afterwards in the range
 * go to the other claims or to the previous handler: release a range only
 * once its pages are accessible again (or when the memory is gone).
 * Returns 0, or -1 with EINVAL for an id that is not an active claim.
 * Thread-safe; not async-signal-safe; must not be called from fn.
 */
int rt_fault_release(int id);

/* Every asynchronous signal: all but the synchronous fault signals
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP), which a thread that blocks
 * them cannot take (the kernel kills the process instead). The mask of the
 * dispatcher while it runs, and of the runtime's helper threads (the
 * migration monitor, the MPI mapper), which take no signal meant for the
 * program, yet never block a fault the page sampler counts on. */
void rt_fault_async_signals(sigset_t *set);

/* Counters for reports and tests: faults resolved by a claim, faults passed
 * to the previous handler, re-installations after a program replaced us. */
typedef struct rt_fault_stats {
    uint64_t resolved;
    uint64_t forwarded;
    uint64_t reinstalled;
} rt_fault_stats_t;
void rt_fault_get_stats(rt_fault_stats_t *out);

/*
 * Memory no claim may protect, whatever mapping it shares: thread control
 * blocks, static TLS and stacks (the kernel itself writes a thread's rseq
 * area: a protected TCB kills the process), registered by each thread the
 * runtime knows. Ranges only grow; a stale one (a thread gone) costs a few
 * pages of sampling. All thread-safe; rt_fault_excluded is lock-free.
 */
#define RT_FAULT_MAX_EXCLUDED 4096
#define RT_FAULT_TLS_BELOW (256u * 1024u)   /* static TLS below the thread pointer */
#define RT_FAULT_TCB_ABOVE (16u * 1024u)    /* struct pthread above it */
/* [lo, hi) never protected. 0, or -1 with errno EINVAL / ENOMEM (table full). */
int rt_fault_exclude(uintptr_t lo, uintptr_t hi);
/* The calling thread's TCB, static TLS and stack (not the initial thread's stack: the [stack]
 * mapping, which no source tracks). 0 or -1 with errno. */
int rt_fault_exclude_thread(void);
/* Whether [lo, hi) overlaps an excluded range; if so *next is the end of
 * the furthest overlapping one (where protection may resume). */
int rt_fault_excluded(uintptr_t lo, uintptr_t hi, uintptr_t *next);
/* Whether an excluded range begins exactly at lo (a known thread's stack
 * begins at its guard page's end); if so *next is the end of the furthest
 * one that does. A range that only reaches past lo (a neighbour's TCB
 * margin) does not count. */
int rt_fault_excluded_from(uintptr_t lo, uintptr_t *next);

#endif
