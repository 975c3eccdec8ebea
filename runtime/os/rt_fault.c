/* rt_fault.c: the runtime's single SIGSEGV dispatcher (see rt_fault.h for the contract). */
#include "rt_fault.h"
#include "rt_task.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

enum { SLOT_FREE = 0, SLOT_FILLING, SLOT_ACTIVE, SLOT_RETIRING };

/* A claim slot. start/end/fn/ctx/seq are written only in SLOT_FILLING and
 * read by the handler only while it holds a `users` reference on a slot it
 * then saw SLOT_ACTIVE; rt_fault_release waits for users to drain. */
typedef struct claim {
    _Atomic int      state;
    _Atomic unsigned users;
    uintptr_t        start, end;
    rt_fault_fn      fn;
    void            *ctx;
    uint64_t         seq;
} claim_t;

static claim_t claims[RT_FAULT_MAX_CLAIMS];
static _Atomic int claims_hwm;            /* slots [0, hwm) may be in use */
static _Atomic uint64_t claim_seq;

/* Actions that were installed before ours, oldest first: [0] is the one we
 * replaced at first installation, later entries are handlers the program
 * installed over ours that we then re-installed on top of. */
#define MAX_CHAIN 8
static struct sigaction chain[MAX_CHAIN];
static _Atomic int nchain;
static int installed;
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;

static _Atomic uint64_t st_resolved, st_forwarded, st_reinstalled;

/* Chain depth of a delivery. A handler we forward to that chains back to us
 * passes the siginfo we gave it; we mark that siginfo with the depth in its
 * last 8 bytes, which the kernel zeroes on every delivery (they lie past the
 * fields any SIGSEGV uses). A fresh fault therefore always reads depth 0,
 * even when a handler left an earlier delivery with siglongjmp, which a
 * per-thread counter would not survive. */
#define TAG_MAGIC 0x6f6d706e756d6100ull
static uint64_t *tag_of(siginfo_t *si) { return (uint64_t *)((char *)si + sizeof *si) - 1; }
static int depth_of(siginfo_t *si)
{
    uint64_t t = *tag_of(si);
    return (t & ~0xffull) == TAG_MAGIC ? (int)(t & 0xff) : 0;
}

static void dispatch(int sig, siginfo_t *si, void *uc);

static int is_ours(const struct sigaction *sa)
{
    return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == dispatch;
}

/* The mask the kernel would have given the program's handler pa had it
 * been the installed action: the thread's mask at the fault (from the
 * signal frame), pa's sa_mask, and sig unless SA_NODEFER. Not the
 * dispatcher's own mask (every asynchronous signal and SIGSEGV): a handler
 * that leaves by longjmp keeps the mask it runs with, and with SIGSEGV
 * blocked the thread's next fault would kill the process. */
static void handler_mask(const struct sigaction *pa, int sig, const void *uc, sigset_t *mask)
{
    if (uc)
        *mask = ((const ucontext_t *)uc)->uc_sigmask;
    else
        pthread_sigmask(SIG_SETMASK, NULL, mask);
    sigorset(mask, mask, &pa->sa_mask);
    if (!(pa->sa_flags & SA_NODEFER))
        sigaddset(mask, sig);
}

/* A reference to claim c when it is active (1), which rt_fault_release
 * waits for: give it back with atomic_fetch_sub(&c->users, 1). */
static int claim_hold(claim_t *c)
{
    if (atomic_load_explicit(&c->state, memory_order_relaxed) != SLOT_ACTIVE)
        return 0;
    atomic_fetch_add(&c->users, 1);
    if (atomic_load(&c->state) == SLOT_ACTIVE)
        return 1;
    atomic_fetch_sub(&c->users, 1);
    return 0;
}

/* Every active claim asked to make its range accessible
 * (RT_FAULT_GIVE_BACK), before a program's handler runs with SIGSEGV
 * blocked. */
static void give_back_all(void)
{
    int hwm = atomic_load(&claims_hwm);
    for (int i = 0; i < hwm; i++) {
        claim_t *c = &claims[i];
        if (!claim_hold(c))
            continue;
        c->fn(NULL, RT_FAULT_GIVE_BACK, c->ctx);
        atomic_fetch_sub(&c->users, 1);
    }
}

/* Deliver to the previous action number k (or the default when k < 0). */
static void forward(int sig, siginfo_t *si, void *uc, int k, int depth)
{
    atomic_fetch_add(&st_forwarded, 1);
    struct sigaction *pa = k >= 0 ? &chain[k] : NULL;
    int kernel_fault = si->si_code > 0;
    int handled = pa && pa->sa_handler != SIG_DFL && pa->sa_handler != SIG_IGN;
    if (handled && !(pa->sa_flags & SA_NODEFER))
        give_back_all();

    if (pa && (pa->sa_flags & SA_SIGINFO) && pa->sa_sigaction != NULL) {
        void (*fn)(int, siginfo_t *, void *) = pa->sa_sigaction;
        sigset_t mask, old;
        handler_mask(pa, sig, uc, &mask);
        if (pa->sa_flags & SA_RESETHAND)
            pa->sa_handler = SIG_DFL, pa->sa_flags &= ~SA_SIGINFO;
        pthread_sigmask(SIG_SETMASK, &mask, &old);
        uint64_t saved = *tag_of(si);
        *tag_of(si) = TAG_MAGIC | (uint64_t)(depth + 1);
        fn(sig, si, uc);
        *tag_of(si) = saved;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return;
    }
    if (pa && pa->sa_handler != SIG_DFL && pa->sa_handler != SIG_IGN) {
        void (*fn)(int) = pa->sa_handler;
        sigset_t mask, old;
        handler_mask(pa, sig, uc, &mask);
        if (pa->sa_flags & SA_RESETHAND)
            pa->sa_handler = SIG_DFL;
        pthread_sigmask(SIG_SETMASK, &mask, &old);
        fn(sig);   /* a plain handler gets no siginfo, so it cannot chain back with it */
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return;
    }
    if (pa && pa->sa_handler == SIG_IGN && !kernel_fault)
        return;   /* a sent SIGSEGV the program ignores */
    /* SIG_DFL, or SIG_IGN for a real fault (which the kernel would have
     * turned into SIG_DFL): die of SIGSEGV as the program would have. A real
     * fault re-executes and faults again under SIG_DFL; a sent signal is
     * raised again and delivered when this handler returns. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGSEGV, &dfl, NULL);
    if (!kernel_fault)
        raise(SIGSEGV);
}

#define MAX_MATCH 32

static void dispatch(int sig, siginfo_t *si, void *uc)
{
    int saved_errno = errno;
    int depth = depth_of(si);

    /* Claims only concern faults the kernel raised, and only on the first
     * entry: when a handler we forwarded to chains back, the claims have
     * already declined. */
    if (depth == 0 && si->si_code > 0) {
        uintptr_t a = (uintptr_t)si->si_addr;
        int idx[MAX_MATCH];
        int n = 0;
        int hwm = atomic_load(&claims_hwm);
        for (int i = 0; i < hwm && n < MAX_MATCH; i++) {
            claim_t *c = &claims[i];
            if (!claim_hold(c))
                continue;
            if (a >= c->start && a < c->end) {
                /* keep the reference: insertion sort, newest claim first */
                int j = n++;
                while (j > 0 && claims[idx[j - 1]].seq < c->seq) {
                    idx[j] = idx[j - 1];
                    j--;
                }
                idx[j] = i;
            } else {
                atomic_fetch_sub(&c->users, 1);
            }
        }
        int resolved = 0;
        for (int m = 0; m < n; m++) {
            claim_t *c = &claims[idx[m]];
            if (!resolved && c->fn(si->si_addr, si->si_code, c->ctx) == RT_FAULT_RESOLVED)
                resolved = 1;
            atomic_fetch_sub(&c->users, 1);
        }
        if (resolved) {
            atomic_fetch_add(&st_resolved, 1);
            errno = saved_errno;
            return;
        }
    }
    int top = atomic_load(&nchain) - 1;
    forward(sig, si, uc, top - depth, depth);
    errno = saved_errno;
}

void rt_fault_async_signals(sigset_t *set)
{
    sigfillset(set);
    sigdelset(set, SIGSEGV);
    sigdelset(set, SIGBUS);
    sigdelset(set, SIGFPE);
    sigdelset(set, SIGILL);
    sigdelset(set, SIGTRAP);
}

int rt_fault_install(void)
{
    int rc = 0;
    pthread_mutex_lock(&install_lock);
    struct sigaction cur;
    if (sigaction(SIGSEGV, NULL, &cur) != 0) {
        rc = -1;
        goto out;
    }
    if (installed && is_ours(&cur))
        goto out;
    int n = atomic_load(&nchain);
    if (n == MAX_CHAIN) {
        /* The program keeps replacing us: keep the newest handlers. */
        memmove(&chain[1], &chain[2], sizeof chain[0] * (MAX_CHAIN - 2));
        n--;
    }
    chain[n] = cur;
    atomic_store(&nchain, n + 1);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = dispatch;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    /* Every asynchronous signal waits until the dispatcher returns: a
     * program's handler (a profiling timer, say) that touched a protected
     * page while SIGSEGV is blocked here would be killed by the kernel.
     * Synchronous faults stay deliverable: blocking them would kill too. */
    rt_fault_async_signals(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0) {
        atomic_store(&nchain, n);
        rc = -1;
        goto out;
    }
    if (installed)
        atomic_fetch_add(&st_reinstalled, 1);
    installed = 1;
out:
    pthread_mutex_unlock(&install_lock);
    return rc;
}

int rt_fault_claim(void *start, void *end, rt_fault_fn fn, void *ctx)
{
    if (!fn || (uintptr_t)start >= (uintptr_t)end) {
        errno = EINVAL;
        return -1;
    }
    if (rt_fault_install() != 0)
        return -1;
    for (int i = 0; i < RT_FAULT_MAX_CLAIMS; i++) {
        claim_t *c = &claims[i];
        int expect = SLOT_FREE;
        if (!atomic_compare_exchange_strong(&c->state, &expect, SLOT_FILLING))
            continue;
        c->start = (uintptr_t)start;
        c->end = (uintptr_t)end;
        c->fn = fn;
        c->ctx = ctx;
        c->seq = atomic_fetch_add(&claim_seq, 1);
        int hwm = atomic_load(&claims_hwm);
        while (hwm < i + 1 && !atomic_compare_exchange_weak(&claims_hwm, &hwm, i + 1))
            ;
        atomic_store(&c->state, SLOT_ACTIVE);
        return i;
    }
    errno = ENOMEM;
    return -1;
}

int rt_fault_release(int id)
{
    if (id < 0 || id >= RT_FAULT_MAX_CLAIMS) {
        errno = EINVAL;
        return -1;
    }
    claim_t *c = &claims[id];
    int expect = SLOT_ACTIVE;
    if (!atomic_compare_exchange_strong(&c->state, &expect, SLOT_RETIRING)) {
        errno = EINVAL;
        return -1;
    }
    /* A handler that took a reference before the state changed may still be
     * running fn; it never blocks for long (resolvers are short). */
    while (atomic_load(&c->users) != 0)
        sched_yield();
    atomic_store(&c->state, SLOT_FREE);
    return 0;
}

void rt_fault_get_stats(rt_fault_stats_t *out)
{
    out->resolved = atomic_load(&st_resolved);
    out->forwarded = atomic_load(&st_forwarded);
    out->reinstalled = atomic_load(&st_reinstalled);
}

/* ---- ranges never to protect ---- */

static struct { uintptr_t lo, hi; } excluded[RT_FAULT_MAX_EXCLUDED];
static _Atomic int nexcluded;
static pthread_mutex_t exclude_lock = PTHREAD_MUTEX_INITIALIZER;

int rt_fault_exclude(uintptr_t lo, uintptr_t hi)
{
    if (lo >= hi) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&exclude_lock);
    int n = atomic_load(&nexcluded), rc = 0;
    if (n == RT_FAULT_MAX_EXCLUDED) {
        errno = ENOMEM;
        rc = -1;
    } else {
        excluded[n].lo = lo;
        excluded[n].hi = hi;
        atomic_store(&nexcluded, n + 1);
    }
    pthread_mutex_unlock(&exclude_lock);
    return rc;
}

int rt_fault_exclude_thread(void)
{
    /* The thread control block (glibc's struct pthread, with the rseq area
     * the kernel writes) sits at the thread pointer, the static TLS below
     * it; a thread's stack is its own mapping, or the TCB's neighbour. */
    uintptr_t tp = (uintptr_t)__builtin_thread_pointer(), page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = tp > RT_FAULT_TLS_BELOW ? (tp - RT_FAULT_TLS_BELOW) & ~(page - 1) : 0;
    int rc = rt_fault_exclude(lo, (tp + RT_FAULT_TCB_ABOVE + page - 1) & ~(page - 1));
    /* The initial thread's stack is the [stack] mapping, which no source
     * tracks, and glibc finds its bounds by reading the whole of
     * /proc/self/maps through stdio: in the paced 2-node VM that read came
     * on top of the page sampler's own at OpenBLAS's first fork. */
    uintptr_t stack_lo, stack_hi;
    if (!rt_task_initial() && rt_task_own_stack(&stack_lo, &stack_hi) == 0 && stack_hi > stack_lo)
        rc |= rt_fault_exclude(stack_lo, stack_hi);
    return rc ? -1 : 0;
}

int rt_fault_excluded_from(uintptr_t lo, uintptr_t *next)
{
    int n = atomic_load(&nexcluded), hit = 0;
    for (int i = 0; i < n; i++)
        if (excluded[i].lo == lo && (!hit || excluded[i].hi > *next)) {
            *next = excluded[i].hi;
            hit = 1;
        }
    return hit;
}

int rt_fault_excluded(uintptr_t lo, uintptr_t hi, uintptr_t *next)
{
    int n = atomic_load(&nexcluded), hit = 0;
    for (int i = 0; i < n; i++)
        if (excluded[i].lo < hi && excluded[i].hi > lo) {
            if (!hit || excluded[i].hi > *next)
                *next = excluded[i].hi;
            hit = 1;
        }
    return hit;
}
