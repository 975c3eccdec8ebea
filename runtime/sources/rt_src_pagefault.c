/* rt_src_pagefault.c: the pagefault counter source: protect a sample of pages, record who faults on which node. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pl.h"
#include "rt_core.h"
#include "rt_fault.h"
#include "rt_sys.h"
#include "rt_log.h"
#include "rt_mem.h"
#include "rt_object.h"
#include "rt_pages.h"
#include "rt_procfs.h"
#include "rt_settings.h"
#include "rt_task.h"
#include "rt_topology.h"
#include "rt_sources.h"
#include "rt_symbol.h"

/*
 * How it works. Before a sampled execution of a region starts (the
 * encountering thread, before the team forks) a spread-out sample of the
 * tracked pages that are resident (of all of them when none is) is made
 * PROT_NONE. A thread touching one faults; the
 * resolver restores access, asks the kernel which node holds the page and
 * counts one reference of that thread to that node. After the execution
 * every page still protected is restored. The offset of the sample rotates
 * so successive executions look at different pages.
 *
 * Tracked memory (OMP_PLACEMENT track=): anonymous private writable
 * mappings of at least 1 MiB and at most the machine's memory (anon: a
 * larger one is a reservation, mostly never touched), plus the program's
 * data/bss segment (all: its static arrays). Never the [heap], where libc
 * keeps its metadata and libomp its affinity masks. With track=api (the
 * default) nothing of the program is protected and this source yields no
 * references.
 *
 * A mapping unmapped while some of its pages are protected (within one
 * sampled execution) and replaced at the same address before the execution
 * ends would get those pages made read-write by region_end.
 *
 * Never protected: thread stacks (a fault there could not even be
 * delivered), recognised as a writable mapping right above a PROT_NONE
 * guard page or as [stack]; the TCB, static TLS and stack of every thread
 * the runtime knows (rt_fault_exclude_thread: the kernel writes a thread's
 * rseq area, and a big allocation's mapping may have merged with them);
 * this source's own tables, which the resolver writes (mmap'd and excluded
 * by address). A mapping above a guard page that begins with the stack of
 * a thread the runtime knows is tracked past that stack (past_known_stack):
 * the kernel merges a thread's stack block with the anonymous mapping right
 * above it, which is where an array malloc'd before the first parallel
 * region lies.
 *
 * Never armed: while some thread of the process blocks SIGSEGV (a fault
 * it took on a sampled page would kill it), and the dispatcher is checked
 * to be the installed SIGSEGV action at every arming (a handler the
 * program installed since is chained, not bypassed). Every asynchronous
 * signal waits while the dispatcher runs (rt_fault.c). A thread that faults
 * again on a page this source already gave back is taking the program's own
 * fault (it protected the page itself): it goes to the program's handler
 * after one retry (claim).
 *
 * What can still go wrong (documented in the README; why source=auto never
 * takes this source): a system call that reads or writes a protected page
 * fails with EFAULT or comes back short (read(2) into a buffer); a thread
 * that blocks SIGSEGV after the arming (one created inside the execution
 * with every signal blocked) is killed by its fault; mremap(2) of a tracked
 * mapping fails with EFAULT (its protected pages split it); a page the
 * program protects itself over one this source protects is made read-write
 * at the fault or the disarm. A program that maps its own PROT_NONE pages
 * inside a tracked mapping keeps receiving its faults, since only pages
 * this source protected are resolved.
 *
 * A loop placed inside one long execution (rt_events.c) is sampled through
 * a team that is already running, and one of its executions may sweep a
 * small part of the memory (a 256th of each thread's block in the patterns'
 * long modes): armed and disarmed per execution, its sample cost an arming
 * (a maps scan, a stat read per thread, mincore, one mprotect per run of
 * pages) and a disarm (one mprotect per untouched page) for a reference in
 * four executions, and the long region ran 1.59x `off` in the paced 2-node
 * VM (7.6x on 4 nodes). So its sample is held between its executions: the
 * pages stay protected, each execution's end takes the references its
 * threads made since the last one, and the sample is given back when the
 * loop stops sampling, when the long execution around it ends, or when the
 * same thread arms anything else. A held sample that gave no reference for
 * STALE_AFTER executions of its loop (16; 64 for one armed for the loop: a
 * sweep meets its spans of 4 pages a quarter as often as it would meet as
 * many single pages, while the long region's sample, passed on, may be
 * spent by its first touches) is replaced by a fresh one (rotated), when
 * the budget allows.
 *
 * The budget (OMP_PLACEMENT budget=, 2 % by default, off: none): what the
 * sampler spends (its armings and disarms, timed, and what each fault
 * costs, the resolver's time and the round trip beyond it, shared by the
 * armed team's threads, which fault side by side) stays within that share
 * of the program's run so far (since this source started, at the
 * runtime's start): a fresh arming is made only when what was spent and
 * what the latest arming cost (its estimate) fit. The first arming has
 * none. It is guessed from the threads' stat files, which every arming
 * reads first (a thread that blocks SIGSEGV forbids it): a maps read costs
 * about MAPS_READS such reads. Refused on the guess, the first try reads
 * nothing more, and the guess stands for the latest arming. Let through,
 * the budget is asked again once the maps are read, with what is left to
 * pay: every tracked page's residency read (what grows with the program's
 * memory); what was paid so far counts once, as spent. Refused then,
 * nothing is protected, and the whole arming is the estimate. A region or loop whose sample shows a thread with most of
 * its references remote (rt_sample_t.promising) has evidence that a move
 * may gain, and may spend PL_PROMISE_FACTOR times as much (pl_promising,
 * pl_budget_fits). An arming that took no fault is barren: each barren
 * one in a row doubles the price the next is asked (next_price), so that a
 * program whose regions never touch the tracked memory pays for fewer and
 * fewer of them. Refused, the execution runs unsampled and
 * region_end says so (RT_SOURCE_DECLINED | RT_SOURCE_WAITS): the region or
 * loop rests, its executions run as settled untimed ones, until `due` says
 * a fresh arming fits; its `why` says what it waits for. The
 * budget's reason: a program with nothing to gain must run as on stock, and
 * each arming reads /proc/self/maps and every thread's stat (50 and 18 ms
 * of paced time in the 2-node VM, more than a probe's faults): NPB MG class
 * S, whose many regions and loops each took an arming, ran 1.43x `off`.
 *
 * When the long region's own execution was armed (its fork), its sample
 * passes to its first loop that samples, as it is: same team, same memory.
 *
 * Topologies that are not this machine's (synthetic, XML): the kernel's node
 * numbers mean nothing there, so first touch is emulated: a page first
 * touched while sampled belongs to the node of the CPU that touched it.
 */

#define MAX_AREAS 64
#define MIN_AREA_BYTES (1u << 20)
/* Pages protected per sampled execution: PAGES_PER_THREAD for each team
 * thread, BUDGET_PAGES at most. Every page a thread touches costs it a fault
 * (a signal, an mprotect that shoots down the TLB of every CPU running the
 * process, a move_pages). What the decision needs is each thread's share of
 * references per node: 32 samples per thread and execution give 128 per row
 * at the default sample=4 (a share's standard error at most 4.5 points). So
 * the sample grows with the team, not with the memory, and a thread's fault
 * cost is bounded (a team of 2 sweeping 16 MiB: 63 faults per sampled
 * execution instead of 504, the TNT still within 0.4 points of the
 * emulator's ground truth). */
#define PAGES_PER_THREAD 32
/* A probe (rt_sample_t.probe: a region's first sampled execution, which
 * stops its sampling when every thread is at home) takes 12: pl_home needs
 * 7 to 11 references of a thread (none or one remote), and a thread that
 * touches only part of the resident memory gets fewer than its share. Most
 * regions with nothing to gain then cost 24 faults on two threads, not 64
 * (patterns local, paced 2-node VM: one arming with its faults 0.4 s of a
 * 0.9 s execution). */
#define PROBE_PAGES_PER_THREAD 12
/* The pages of a sample are taken in spans of SPAN_PAGES adjacent ones
 * (aligned in their mapping), one span in so many pages: an mprotect costs
 * about the same for 4 pages as for one (the mapping's split and the TLB
 * shoot-down: 2.2 ms of paced time in the 2-node VM for one page, 10 ms
 * for 512), so an arming and a disarm make a quarter of the calls for as
 * many pages. Each page still counts when touched (its own fault). Spread
 * one by one, the 64 pages of the patterns' local-long cost 154 ms to
 * protect and 78 ms to give back untouched, for 4 references, and FFTW's
 * armings 165 ms of their 300. The pages of a span are almost always one
 * thread's on one node, as the pages one stride apart that a sweep met
 * one after the other were: where memory is divided in blocks, a row of
 * 32 pages is 8 places, and its shares' error that of 8 samples, not 32
 * (pages interleaved one by one still differ within a span). */
#define SPAN_PAGES 4
#define BUDGET_PAGES 512
#define MAX_TEAM 1024
#define MAX_NODES 64

#define PAGE_PROTECTED 0x80       /* protected by this source right now */
#define PAGE_RESTORING 0x40       /* a thread is giving it back (between its state and its mprotect) */
#define PAGE_NODE_MASK 0x3f       /* emulated node + 1, 0 = not touched while sampled */
/* A fault on a page being given back is retried until the thread giving it
 * back is done (microseconds); after a few retries the faulting thread
 * yields, and after MAX_RETRIES the fault is the program's. */
#define MAX_RETRIES 10000
#define YIELD_AFTER 8

typedef struct area {
    uintptr_t start, end;
    size_t    npages;
    uint8_t  *page;               /* [npages] state bytes, mmap'd */
    int       claim;
    int       live;               /* still present in the last /proc/self/maps scan */
    int       fresh;              /* found by a scan inside an execution, not sampled yet */
    size_t    resident;           /* its resident pages at the last arming (resident_pages) */
    size_t    resid_at;           /* ... whose mincore bytes start here in resid */
} area_t;

/* Sampled addresses the resolver logs per execution (rt_sample_t.addrs):
 * each protected page faults once per execution, so the budget bounds them,
 * but an emulated first touch protects every page of unknown node. */
#define LOG_MAX 4096

/* Everything the resolver writes lives in one mmap'd block. */
typedef struct tables {
    uint64_t counts[MAX_TEAM * MAX_NODES];
    pl_data_sample_t log[LOG_MAX];    /* addr written last (release): 0 = not yet written */
    uint32_t nlog;                    /* entries taken (may exceed LOG_MAX: those are lost) */
    uint64_t spacing;                 /* bytes between two pages protected in this execution */
    pid_t    tid[MAX_TEAM];
    int      team_size;
    int      node_of_kernel[MAX_NODES]; /* kernel node -> topology node, -1 */
    int      node_of_cpu[4096];         /* cpu -> topology node, -1 */
    uint64_t fault_ns;                /* the resolver's time since it was last charged */
    uint64_t uncharged;               /* ... and the faults it resolved since */
} tables_t;

static area_t areas[MAX_AREAS];
static int nareas;
static uintptr_t max_area_bytes;   /* the machine's memory: a larger mapping is a reservation */
static tables_t *tab;
static size_t pagesz;
static int emulate;
#define MAX_LIBRARY_DATA 512
static uintptr_t lib_lo[MAX_LIBRARY_DATA], lib_hi[MAX_LIBRARY_DATA]; /* the shared objects' data segments */
static int nlib;                  /* ... at the latest maps scan (past_library_data) */
static char exe[4096];            /* the program's path, as the maps name its data segment (track=all) */

/* Which pages of the live areas are resident (mincore): a sample among
 * them lands on memory the program uses. A program may reserve far more
 * than it touches (OpenBLAS's 384 MiB buffer of which dgemm touches a few
 * MiB): a sample spread over the reservation took no fault at all in 4
 * sampled executions. One vector, the areas' bytes one after the other,
 * read once per arming; as long as the most the live areas held at once
 * (mmap'd, and never tracked). lock held. */
static uint8_t *resid;
static size_t resid_len;
#define RESIDENT_BITS 0x0101010101010101ull /* mincore's resident bit, in each byte of 8 */
static uint64_t rotation;
/* One sampled execution at a time, owned by the thread that armed it (the
 * team's encountering thread, which also ends the construct). lock orders
 * arming, the maps scan and every protect/unprotect pass. */
static int armed;                 /* an execution is being sampled, of the region ... */
static const void *armed_code;    /* ... at this code address (NULL for the runtime's own teams) */
static int armed_parent;          /* ... in this enclosing region */
static pid_t armed_by;            /* the thread that armed it */
static const void *armed_team;    /* the team instance being sampled */
static int nested_declined;       /* nested teams the arming thread started inside it, not armed */
static size_t armed_stride;       /* one span (SPAN_PAGES) in this many tracked pages is protected (0: none) */
static int armed_resident;        /* ... of the resident ones (resident_pages), else of all */
static size_t armed_pages;        /* pages protected in this execution, of at most budget */
static size_t armed_budget;
#define HANDOVER_AFTER 2          /* then the next one takes the sampler over */
static int armed_id;              /* ... numbered so (rt_sample_t.id) */
static int armed_running;         /* armed for a team already running (a loop inside one long execution) */
static int held;                  /* ... whose execution ended: its sample is kept for its next one */
static int stale;                 /* executions in a row whose held sample gave no reference */
#define STALE_AFTER 16
static int passed;                /* the held sample is the long region's, passed on as it was */
/* The sampler's own time (the budget): all it spent, since start_ns, and
 * what its latest arming cost (so far, when one is under way). */
static uint64_t spent_ns, start_ns, arming_ns;
static int estimated; /* an arming got as far as its maps read: arming_ns is an estimate */
static int guessed;   /* ... or a first try read the threads' stat files: arming_ns is a guess */
/* Armings in a row that took no fault (their samples saw nothing of the
 * tracked memory), and the faults of the one under way: each barren arming
 * doubles the price the next one is asked (next_price). IQ-TREE in the paced
 * 2-node VM: its data lives in the heap, which is never tracked; 4 armings
 * of its 17 tracked pages, 90 to 180 ms each, took no fault, and the run
 * took 1.035 to 1.07 of `off` with nothing to gain. */
static int barren;
static uint64_t arming_faults;
#define BARREN_MAX 16
/* What a maps read costs in stat-file reads (one thread's): 6 to 18 in the
 * paced 2-node VM (42 to 57 ms against 2.9 to 8 ms), the first try's
 * guess (region_begin). */
#define MAPS_READS 12
static int trialled;  /* a page of the source's own was sampled (time_a_page) */
/* The region whose execution the calling thread's latest region_begin did
 * not arm, -1 none, and what its region_end says of it: declined for the
 * budget (RT_SOURCE_DECLINED | RT_SOURCE_WAITS), or another execution held
 * the sampler (RT_SOURCE_BUSY). */
static __thread __attribute__((tls_model("initial-exec"))) int unarmed_id = -1;
static __thread __attribute__((tls_model("initial-exec"))) int unarmed_bits;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* The latest execution declined for the budget while it runs (decline),
 * which the migration monitor's peek may arm once the budget allows: a
 * region that runs once, declined at its begin (2 % of a run just started),
 * had no other chance, and IMAR2 alone never had a table in the paced VM. */
static struct {
    const void *code;
    const void *team;
    int         parent, id, team_size;
    pid_t       by;               /* the thread that began it, whose region_end takes it back */
} later;
static int later_on;              /* later names a running execution (atomic reads outside lock) */
static int armed_late;            /* the armed execution is later's, armed by peek */

/* Memory for this source's own state. MADV_DONTDUMP gives the mapping a
 * flag no program mapping has, so the kernel never merges it into a
 * neighbouring tracked mapping (which would then protect what the resolver
 * writes); it also keeps these tables out of core dumps. */
static void *own_map(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (madvise(p, bytes, MADV_DONTDUMP) != 0) {
        munmap(p, bytes);
        return NULL;
    }
    return p;
}

/* Software only: works anywhere the kernel has mprotect, except beside a
 * sanitizer, whose shadow and heap are anonymous mappings like the
 * program's and are read by instrumented code everywhere, in this source's
 * own resolver too. */
static int probe(char *why, size_t len)
{
    const char *sanitizer = rt_symbol_sanitizer();
    if (sanitizer) {
        snprintf(why, len, "%s is loaded: its shadow and heap are anonymous mappings that cannot be told apart "
                 "from the program's", sanitizer);
        return -1;
    }
    return 0;
}

/* Page states from protected to restoring: a thread that faults on such a
 * page meanwhile sees it restoring and retries; one that finds neither bit
 * retries once (the page may have been given back between its fault and
 * its look) and is otherwise taking the program's own fault. The state
 * before, or -1 when the page was not protected by this source.
 * Async-signal-safe. */
static int claim(uint8_t *state)
{
    uint8_t old = __atomic_load_n(state, __ATOMIC_ACQUIRE);
    do {
        if (!(old & PAGE_PROTECTED))
            return -1;
    } while (!__atomic_compare_exchange_n(state, &old, (uint8_t)((old & ~PAGE_PROTECTED) | PAGE_RESTORING), 0,
                                          __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    return old;
}

/* Pages [pg, pg + n) of a, claimed by the caller, made accessible with one
 * mprotect, then no longer restoring. Async-signal-safe. */
static void restore_run(area_t *a, size_t pg, size_t n)
{
    mprotect((void *)(a->start + pg * pagesz), n * pagesz, PROT_READ | PROT_WRITE);
    for (size_t q = pg; q < pg + n; q++)
        __atomic_fetch_and(&a->page[q], (uint8_t)~PAGE_RESTORING, __ATOMIC_RELEASE);
}

/* Every page of [pg, pg + n) of a this source protects, given back: one
 * mprotect per run of adjacent ones. Pages given back. lock held, or from
 * the resolver (RT_FAULT_GIVE_BACK): async-signal-safe. */
static size_t give_back_pages(area_t *a, size_t pg, size_t n)
{
    size_t got = 0, run = pg, len = 0;
    for (size_t q = pg; q <= pg + n; q++) {
        if (q < pg + n && claim(&a->page[q]) >= 0) {
            if (!len)
                run = q;
            len++;
            continue;
        }
        if (len)
            restore_run(a, run, len);
        got += len;
        len = 0;
    }
    return got;
}

/* The memory API's hold (rt_mem_set_sampler): pages in [lo, hi) given
 * back, and lock kept until done() so that no arming starts while the
 * caller queries or moves them. Those pages drop out of this execution's
 * sample: a query is not a reference. */
static void hold(uintptr_t lo, uintptr_t hi)
{
    pthread_mutex_lock(&lock);
    if (!armed)
        return;
    for (int i = 0; i < nareas; i++) {
        area_t *a = &areas[i];
        if (!a->page || a->end <= lo || a->start >= hi)
            continue;
        size_t first = lo > a->start ? (lo - a->start) / pagesz : 0;
        size_t last = hi < a->end ? (hi - a->start + pagesz - 1) / pagesz : a->npages;
        give_back_pages(a, first, last - first);
    }
}

static void hold_done(void)
{
    pthread_mutex_unlock(&lock);
}

static const rt_mem_sampler_t sampler = {.hold = hold, .done = hold_done};

/* A fork while another thread holds lock (arming, disarming) would leave
 * the child's copy held for good: the child's first region waited on it
 * forever. The child keeps what was armed (its faults are resolved as the
 * parent's are) and arms nothing itself: armed_by is a thread of the
 * parent's. */
static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_parent(void) { pthread_mutex_unlock(&lock); }

static void start(void)
{
    start_ns = rt_now_ns();
    pagesz = (size_t)sysconf(_SC_PAGESIZE);
    pthread_atfork(fork_prepare, fork_parent, fork_parent);
    tab = own_map(sizeof *tab);
    if (!tab) {
        rt_warn("pagefault source: cannot map its tables: %s; no references sampled", strerror(errno));
        return;
    }
    emulate = !rt_topo_is_kernels(&rt_mach->topo);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    max_area_bytes = (uintptr_t)sysconf(_SC_PHYS_PAGES) * pagesz;
    for (int k = 0; k < MAX_NODES; k++)
        tab->node_of_kernel[k] = -1;
    for (int c = 0; c < 4096; c++)
        tab->node_of_cpu[c] = -1;
    for (int n = 0; n < rt_mach->topo.nnodes; n++) {
        if (rt_mach->topo.os_index[n] >= 0 && rt_mach->topo.os_index[n] < MAX_NODES)
            tab->node_of_kernel[rt_mach->topo.os_index[n]] = n;
        for (int c = 0; c < rt_mach->topo.capacity[n]; c++)
            if (rt_mach->topo.cpus[n][c] < 4096)
                tab->node_of_cpu[rt_mach->topo.cpus[n][c]] = n;
    }
    if (rt_conf->track == RT_TRACK_API) {
        rt_verbose(1, "pagefault source: track=api protects no program memory; use track=anon or all");
        return;
    }
    rt_mem_set_sampler(&sampler);
}

/* ---- what a sampled page costs ---- */

/* The resolver times itself, but a fault costs its thread more: the trap,
 * the kernel's signal delivery, the dispatcher, sigreturn. So the first
 * arming that goes ahead samples a page of the source's own, as it would
 * one of the program's (the middle page of three: its protection splits
 * the mapping and its fault merges it again; a resolver that does the real
 * one's work),
 * and every fault is charged the round trip beyond the resolver
 * (fault_trip_ns, written before any page of the program is protected; the
 * resolver counts its faults, charge_faults prices them). In the paced
 * 2-node VM a sampled page cost 1.7 to 2.4 ms of model time to protect and
 * 1.7 ms to fault, 0.2 to 1.8 ms of it beyond the resolver (verbose 2 logs
 * the trial). */
static uint64_t fault_trip_ns;

typedef struct trial {
    char *page;
    uint64_t body_ns;             /* the trial resolver's own part */
} trial_t;

static int trial_resolve(void *addr, int code, void *ctx)
{
    (void)code;
    uint64_t t0 = rt_now_ns();
    trial_t *tr = ctx;
    if ((char *)addr < tr->page || (char *)addr >= tr->page + pagesz)
        return RT_FAULT_NOT_MINE;
    mprotect(tr->page, pagesz, PROT_READ | PROT_WRITE);
    void *pages[1] = {tr->page};
    int status[1] = {-1};
    unsigned cpu = 0;
    rt_move_pages(1UL, pages, NULL, status, 0);
    rt_getcpu(&cpu, NULL);
    tr->body_ns = rt_now_ns() - t0;
    return RT_FAULT_RESOLVED;
}

typedef struct page_cost {
    uint64_t protect_ns;          /* an mprotect that takes one page out of its mapping */
    uint64_t fault_ns;            /* a fault on it, resolved, round trip */
} page_cost_t;

/* What sampling one page costs (the faster of two trials; zeros when it
 * cannot be timed), fault_trip_ns set. lock held, the dispatcher installed. */
static page_cost_t time_a_page(void)
{
    page_cost_t best = {0, 0};
    char *map = own_map(3 * pagesz);
    if (!map)
        return best;
    memset(map, 0, 3 * pagesz); /* resident: the trial's fault is a protection fault, no page allocated */
    trial_t tr = {.page = map + pagesz, .body_ns = 0};
    int claim = rt_fault_claim(tr.page, tr.page + pagesz, trial_resolve, &tr);
    for (int k = 0; claim >= 0 && k < 2; k++) {
        uint64_t t0 = rt_now_ns();
        if (mprotect(tr.page, pagesz, PROT_NONE) != 0)
            break;
        uint64_t t1 = rt_now_ns();
        *(volatile char *)tr.page = 1;
        uint64_t t2 = rt_now_ns();
        if (!best.fault_ns || t2 - t0 < best.protect_ns + best.fault_ns) {
            best = (page_cost_t){.protect_ns = t1 - t0, .fault_ns = t2 - t1};
            fault_trip_ns = t2 - t1 > tr.body_ns ? t2 - t1 - tr.body_ns : 0;
        }
    }
    if (claim >= 0)
        rt_fault_release(claim);
    munmap(map, 3 * pagesz);
    return best;
}

/* What reading residency (resident_pages) costs a tracked page, in ps (a
 * page costs less than a ns on hardware: 0.75 ns on a desktop CPU, whose
 * whole ns would price every page at 0): mincore timed on up to 4096
 * pages of the largest live area, into a vector already resident (its
 * first fault is not the reading's). 0 when there is none. lock held. */
static uint64_t time_residency(void)
{
    static uint8_t vec[4096];
    const area_t *big = NULL;
    for (int i = 0; i < nareas; i++)
        if (areas[i].live && (!big || areas[i].npages > big->npages))
            big = &areas[i];
    if (!big)
        return 0;
    size_t n = big->npages < sizeof vec ? big->npages : sizeof vec;
    memset(vec, 0, sizeof vec);
    uint64_t t0 = rt_now_ns();
    if (mincore((void *)big->start, n * pagesz, vec) != 0)
        return 0;
    return (rt_now_ns() - t0) * 1000 / n;
}

/* ---- the resolver: async-signal-safe, writes only into tab and area state bytes ---- */

static int thread_index(void)
{
    pid_t me = rt_gettid();
    int n = __atomic_load_n(&tab->team_size, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (__atomic_load_n(&tab->tid[i], __ATOMIC_RELAXED) == me)
            return i;
    return -1;
}

/* The page the calling thread last retried (resolver state, signal-safe
 * TLS): how many of its faults met the page being given back by another
 * thread (waits), and how many since met its state clear. */
static __thread __attribute__((tls_model("initial-exec"))) uintptr_t retry_page;
static __thread __attribute__((tls_model("initial-exec"))) unsigned retry_epoch;
static __thread __attribute__((tls_model("initial-exec"))) int waits;
static __thread __attribute__((tls_model("initial-exec"))) int clears;
/* Bumped at every arming and disarming: faults on one page across them are
 * new races with the sampler (a thread outside the team that reads the
 * memory over and over can meet a disarm on one page twice, executions
 * apart), not the program's own protection. */
static unsigned epoch;

static int resolve(void *addr, int code, void *ctx)
{
    area_t *a = ctx;
    if (code == RT_FAULT_GIVE_BACK) {
        /* The program's own SIGSEGV handler is about to run with SIGSEGV
         * blocked: a sampled page it touched would kill the process (a
         * handler counting its faults in a static variable was). */
        give_back_pages(a, 0, a->npages);
        return RT_FAULT_RESOLVED;
    }
    uintptr_t p = (uintptr_t)addr & ~(uintptr_t)(pagesz - 1);
    if (p < a->start || p >= a->end)
        return RT_FAULT_NOT_MINE;
    uint64_t t0 = rt_now_ns();
    size_t pg = (p - a->start) / pagesz;
    uint8_t *state = &a->page[pg];
    int given = claim(state);
    if (given < 0) {
        /* Another thread is giving it back (retried until it is done), or
         * gave it back a moment ago, or the execution was disarmed between
         * the fault and this look at its state (a thread outside the team
         * can fault on a page that region_end makes accessible and forgets
         * a moment later): retry the access once. A page that faults again
         * is the program's own (it protected the page itself). */
        int restoring = __atomic_load_n(state, __ATOMIC_ACQUIRE) & PAGE_RESTORING;
        unsigned now = __atomic_load_n(&epoch, __ATOMIC_ACQUIRE);
        if (retry_page != p || retry_epoch != now)
            waits = clears = 0;
        retry_page = p;
        retry_epoch = now;
        if (restoring) {
            /* The faults met while it was restoring do not count against
             * the one retry a clear state gets: the access that faulted
             * last may have raced the restorer's mprotect (a thread that
             * waited 7 times was once declined at its 8th fault, the
             * state cleared between that fault and its look). */
            clears = 0;
            if (++waits > MAX_RETRIES)
                return RT_FAULT_NOT_MINE;
            if (waits > YIELD_AFTER)
                sched_yield();
            return RT_FAULT_RESOLVED;
        }
        return ++clears > 1 ? RT_FAULT_NOT_MINE : RT_FAULT_RESOLVED;
    }
    uint8_t old = (uint8_t)given;
    retry_page = 0;
    restore_run(a, pg, 1);
    unsigned cpu = 0;
    rt_getcpu(&cpu, NULL);
    int here = cpu < 4096 ? tab->node_of_cpu[cpu] : -1;
    int node = -1;
    if (emulate) {
        int known = old & PAGE_NODE_MASK;
        if (known) {
            node = known - 1;
        } else if (here >= 0) {  /* first touch while sampled: it is placed where it is touched */
            node = here;
            __atomic_fetch_or(state, (uint8_t)(node + 1), __ATOMIC_RELAXED);
        }
    } else {
        void *pages[1] = {(void *)p};
        int status[1] = {-1};
        if (rt_move_pages(1UL, pages, NULL, status, 0) == 0 && status[0] >= 0 &&
            status[0] < MAX_NODES)
            node = tab->node_of_kernel[status[0]];
        else if (status[0] == -ENOENT || status[0] == -EFAULT)
            node = here; /* not present yet (or the zero page): the access about to happen places it here */
    }
    int t = thread_index();
    if (t >= 0 && node >= 0 && node < rt_mach->topo.nnodes) {
        __atomic_fetch_add(&tab->counts[t * MAX_NODES + node], 1, __ATOMIC_RELAXED);
        uint32_t k = __atomic_fetch_add(&tab->nlog, 1, __ATOMIC_RELAXED);
        if (k < LOG_MAX) {
            tab->log[k].thread = t;
            tab->log[k].node = node;
            __atomic_store_n(&tab->log[k].addr, (uint64_t)(uintptr_t)addr, __ATOMIC_RELEASE);
        }
    }
    __atomic_fetch_add(&tab->fault_ns, rt_now_ns() - t0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&tab->uncharged, 1, __ATOMIC_RELAXED);
    return RT_FAULT_RESOLVED;
}

/* ---- tracked areas from /proc/self/maps ---- */

/* The shared objects' static data (lib_lo, lib_hi: data and .bss segments,
 * as loaded at the latest maps scan) is touched by the object's own code
 * (libc's, the OpenMP runtime's, ompnuma's: its handler's and its arming's)
 * at any moment, from any thread: never tracked. Found with the OpenBLAS
 * caller: with a 256 KiB floor the sampler protected its own .bss
 * (libompnuma's, 400 KiB, an anonymous mapping) and faulted in its own
 * arming and handler. The kernel merges an anonymous mapping the program
 * makes right after a .bss into it: only the part past the segment is the
 * program's. The program's own .bss (its static arrays) stays.
 *
 * Where the program's part of anonymous mapping [lo, hi) begins: past any
 * shared object's segment at its start; hi when a segment lies further in. */
static uintptr_t past_library_data(uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < nlib; i++)
        if (lib_lo[i] < hi && lib_hi[i] > lo) {
            if (lib_lo[i] > lo)
                return hi;
            lo = lib_hi[i] < hi ? lib_hi[i] : hi;
            i = -1; /* a segment may follow another */
        }
    return lo;
}

/*
 * Where the program's part of anonymous mapping [lo, hi), right above a
 * guard page, begins: past the stack block of a thread the runtime knows
 * (rt_fault_exclude_thread: its stack from the guard's end up, its TLS and
 * TCB at the top), when one starts at lo; hi otherwise (a thread of the
 * program's own, whose stack is not known: nothing of the mapping is
 * tracked). glibc maps a thread's stack block below the mappings made
 * before it, and the kernel merges the block with the anonymous mapping
 * right above it: in the 2-node VM a 32 MiB array malloc'd before the
 * first parallel region became one mapping with the worker's 8 MiB stack,
 * and the sampler, which took all of it for a stack, never saw the array.
 */
static uintptr_t past_known_stack(uintptr_t lo, uintptr_t hi)
{
    uintptr_t next = lo;
    /* The known stack begins at the guard's end. A range that merely reaches
     * past it is the TCB margin of the thread whose block lies below
     * (RT_FAULT_TCB_ABOVE spills over its guard): taken for a stack, it let
     * the rest of an unknown thread's stack be protected, and GROMACS's
     * OpenBLAS thread died of a signal frame the kernel could not write
     * (SIGSEGV, SI_KERNEL) in 1 run of 3. */
    if (!rt_fault_excluded_from(lo, &next))
        return hi;
    while (next < hi && rt_fault_excluded(next, next + pagesz, &next))
        ; /* the stack, then the TLS and TCB above it: each range ends past the one before */
    next = (next + pagesz - 1) & ~(uintptr_t)(pagesz - 1);
    return next < hi ? next : hi;
}

static int wanted(uintptr_t lo, uintptr_t hi, const char *perms, const char *path, uintptr_t prev_hi,
                  int prev_guard)
{
    if (strncmp(perms, "rw-p", 4) != 0 || hi - lo < pagesz)
        return 0;
    if ((uintptr_t)tab < hi && (uintptr_t)tab + sizeof *tab > lo)
        return 0;
    for (int i = 0; i < nareas; i++)
        if ((uintptr_t)areas[i].page < hi && (uintptr_t)areas[i].page + areas[i].npages > lo)
            return 0;
    if ((uintptr_t)resid < hi && (uintptr_t)resid + resid_len > lo)
        return 0;
    if (!strcmp(path, "[stack]") || (prev_guard && prev_hi == lo))
        return 0;
    if (!path[0])
        return hi - lo >= MIN_AREA_BYTES && hi - lo <= max_area_bytes;
    if (rt_conf->track == RT_TRACK_ALL)
        return exe[0] && !strcmp(path, exe);
    return 0;
}

static area_t *area_for(uintptr_t lo, uintptr_t hi)
{
    int free_slot = -1;
    for (int i = 0; i < nareas; i++) {
        if (areas[i].page && areas[i].start == lo && areas[i].end == hi)
            return &areas[i];
        if (!areas[i].page && free_slot < 0)
            free_slot = i;
    }
    /* A mapping that changed size or is new: a fresh area (the old one's
     * claim stays until it is found gone). */
    if (free_slot < 0 && nareas == MAX_AREAS)
        return NULL;
    area_t *a = &areas[free_slot >= 0 ? free_slot : nareas];
    size_t npages = (hi - lo) / pagesz;
    void *state = own_map(npages);
    if (!state)
        return NULL;
    a->start = lo;
    a->end = hi;
    a->npages = npages;
    a->page = state;
    a->claim = rt_fault_claim((void *)lo, (void *)hi, resolve, a);
    if (a->claim < 0) {
        rt_verbose(1, "pagefault: cannot claim %#lx-%#lx: %s", (unsigned long)lo, (unsigned long)hi,
                   strerror(errno));
        munmap(state, npages);
        memset(a, 0, sizeof *a);
        return NULL;
    }
    if (a == &areas[nareas])
        nareas++;
    return a;
}

/* Whether [lo, hi) overlaps an area this source tracks. */
static int tracked(uintptr_t lo, uintptr_t hi)
{
    for (int i = 0; i < nareas; i++)
        if (areas[i].page && areas[i].start < hi && areas[i].end > lo)
            return 1;
    return 0;
}

/* What scan_maps carries from one mapping to the next. */
typedef struct scan {
    int       inside;
    uintptr_t prev_hi;    /* the mapping before: its end ... */
    int       prev_guard; /* ... and whether it is a guard page (PROT_NONE, anonymous) */
} scan_t;

static int scan_one(const rt_mapping_t *m, void *ctx)
{
    scan_t *sc = ctx;
    uintptr_t lo = m->path[0] ? m->lo : past_library_data(m->lo, m->hi);
    if (!m->path[0] && lo == m->lo && sc->prev_guard && sc->prev_hi == lo)
        lo = past_known_stack(lo, m->hi);
    if (lo < m->hi && (!sc->inside || !tracked(lo, m->hi)) &&
        wanted(lo, m->hi, m->perms, m->path, lo == m->lo ? sc->prev_hi : 0, sc->prev_guard)) {
        area_t *a = area_for(lo, m->hi);
        if (a) {
            a->live = 1;
            a->fresh = sc->inside;
        }
    }
    sc->prev_guard = !strcmp(m->perms, "---p") && !m->path[0];
    sc->prev_hi = m->hi;
    return 0;
}

/* The tracked areas from /proc/self/maps. Between executions (inside = 0)
 * the scan is the truth: areas gone or resized give their claim and state
 * back. Inside an execution (inside = 1) only mappings that overlap no
 * tracked area are taken, as fresh areas: the pages protected meanwhile
 * split tracked mappings into pieces that are no new memory, and an area
 * that still has protected pages is never dropped. lock held. */
static void scan_maps(int inside)
{
    /* The shared objects as loaded now: one dlopen'ed since the last look
     * (a plugin reading into its own .bss) is not the program's. */
    nlib = rt_library_data(lib_lo, lib_hi, MAX_LIBRARY_DATA);
    if (!inside)
        for (int i = 0; i < nareas; i++)
            areas[i].live = 0;
    scan_t sc = {.inside = inside};
    rt_pages_each_mapping(scan_one, &sc); /* when it cannot be read, areas are given back: none is sampled */
    if (inside)
        return;
    /* Mappings that are gone (or changed size) give their claim and state
     * back: region_end left none of their pages protected. Slots are not
     * moved: each claim's context points at its slot. */
    for (int i = 0; i < nareas; i++)
        if (!areas[i].live && areas[i].page) {
            rt_fault_release(areas[i].claim);
            munmap(areas[i].page, areas[i].npages);
            memset(&areas[i], 0, sizeof areas[i]);
        }
}

/* The pages protected in this execution, by address, for the disarm: a
 * sample is at most the budget, so giving it back need not visit every
 * tracked page (a 384 MiB reservation, OpenBLAS's buffer, is 98 304 of
 * them: two passes over its states cost more than the execution's faults).
 * Overflowed when first touch is emulated (every page of unknown node is
 * protected): the disarm then visits every page. lock held. */
static uintptr_t prot_page[BUDGET_PAGES];
static size_t nprot;
static int prot_overflow;
static size_t visited; /* page states the arming, the disarm and the mappings met since looked at (verbose) */

static void protected_add(uintptr_t at)
{
    if (nprot < BUDGET_PAGES)
        prot_page[nprot++] = at;
    else
        prot_overflow = 1;
}

/* pages [run, run + len) of a, marked protected: one mprotect, unmarked when
 * it fails. Pages protected. */
static size_t protect_run(area_t *a, size_t run, size_t len)
{
    if (!len)
        return 0;
    if (mprotect((void *)(a->start + run * pagesz), len * pagesz, PROT_NONE) != 0) {
        for (size_t q = run; q < run + len; q++)
            __atomic_fetch_and(&a->page[q], (uint8_t)~PAGE_PROTECTED, __ATOMIC_RELEASE);
        return 0;
    }
    for (size_t q = run; q < run + len; q++) {
        /* Given back meanwhile, before the program's own SIGSEGV handler
         * ran (resolve, RT_FAULT_GIVE_BACK): accessible again. */
        if (!(__atomic_load_n(&a->page[q], __ATOMIC_ACQUIRE) & PAGE_PROTECTED))
            mprotect((void *)(a->start + q * pagesz), pagesz, PROT_READ | PROT_WRITE);
        protected_add(a->start + q * pagesz);
    }
    return len;
}

/* The pages an arming takes in one area, in increasing order, gathered in
 * runs of adjacent pages: one mprotect a run (run_end at the area's end). */
typedef struct {
    size_t first, len;
} run_t;

/* Takes page pg of a (marked protected now, its run protected once it
 * ends). Pages protected by the run it ended. */
static size_t run_take(area_t *a, run_t *r, size_t pg)
{
    size_t got = 0;
    if (r->len && pg == r->first + r->len) {
        r->len++;
    } else {
        got = protect_run(a, r->first, r->len);
        r->first = pg;
        r->len = 1;
    }
    __atomic_fetch_or(&a->page[pg], PAGE_PROTECTED, __ATOMIC_RELEASE);
    return got;
}

static size_t run_end(area_t *a, run_t *r)
{
    size_t got = protect_run(a, r->first, r->len);
    r->len = 0;
    return got;
}

/* Resident pages of the live areas, and of each area (a->resident, its
 * bytes in resid from a->resid_at); 0 when none is or residency cannot be
 * told (then the sample spreads over every tracked page). lock held. */
static size_t resident_pages(void)
{
    size_t need = 0;
    for (int i = 0; i < nareas; i++)
        need += areas[i].live ? areas[i].npages : 0;
    if (need > resid_len) {
        uint8_t *v = own_map(need);
        if (!v)
            return 0;
        if (resid)
            munmap(resid, resid_len);
        resid = v;
        resid_len = need;
    }
    size_t total = 0, at = 0;
    for (int i = 0; i < nareas; i++) {
        area_t *a = &areas[i];
        a->resident = 0;
        if (!a->live)
            continue;
        a->resid_at = at;
        uint8_t *v = resid + at;
        at += a->npages;
        if (mincore((void *)a->start, a->npages * pagesz, v) != 0)
            return 0;
        size_t pg = 0;
        for (; pg + 8 <= a->npages; pg += 8) {
            uint64_t w;
            memcpy(&w, v + pg, sizeof w);
            a->resident += (size_t)__builtin_popcountll(w & RESIDENT_BITS);
        }
        for (; pg < a->npages; pg++)
            a->resident += v[pg] & 1;
        total += a->resident;
    }
    return total;
}

/* The span of page pg of a (span pages, aligned in the area), from
 * page *next on, taken into run (a thread's TCB, TLS or stack inside a
 * merged mapping left out: *resume is the end of the excluded range the
 * scan is in); *next goes past it. Pages protected by the runs it ended. */
static size_t span_take(area_t *a, run_t *run, size_t pg, size_t span, size_t *next, uintptr_t *resume)
{
    size_t first = pg - pg % span, end = first + span < a->npages ? first + span : a->npages;
    size_t got = 0;
    for (size_t q = first > *next ? first : *next; q < end; q++) {
        uintptr_t at = a->start + q * pagesz;
        visited++;
        if (at < *resume || rt_fault_excluded(at, at + pagesz, resume))
            continue;
        got += run_take(a, run, q);
    }
    if (end > *next)
        *next = end;
    return got;
}

/* The span of one resident page in armed_stride of a (numbered over the
 * resident pages of every area, *k so far), from offset on, as
 * resident_pages found them at this arming. Pages protected. lock held. */
static size_t protect_resident(area_t *a, size_t *k, size_t offset)
{
    const uint8_t *v = a->resident ? resid + a->resid_at : NULL;
    size_t got = 0, next = 0;
    run_t run = {0, 0};
    uintptr_t resume = 0;
    for (size_t pg = 0; v && pg < a->npages; pg++) {
        if (!(pg & 7) && pg + 8 <= a->npages) { /* eight pages none of which is resident */
            uint64_t w;
            memcpy(&w, v + pg, sizeof w);
            if (!(w & RESIDENT_BITS)) {
                pg += 7;
                continue;
            }
        }
        if ((v[pg] & 1) && (*k)++ % armed_stride == offset)
            got += span_take(a, &run, pg, SPAN_PAGES, &next, &resume);
    }
    return got + run_end(a, &run);
}

/* Protects the span of one page in armed_stride of the live areas (only
 * the fresh ones when fresh), from page offset of the first on, and when
 * first touch is emulated every page whose node is still unknown; one
 * mprotect per run of pages. Visits only the pages it takes, unless first
 * touch is emulated. Pages protected. lock held. */
static size_t protect_sample(int fresh, size_t offset)
{
    size_t k = 0, protected_pages = 0, stride = armed_stride;
    for (int i = 0; i < nareas; i++) {
        area_t *a = &areas[i];
        if (!a->live || (fresh && !a->fresh))
            continue;
        a->fresh = 0;
        if (armed_resident && !fresh) {
            protected_pages += protect_resident(a, &k, offset);
            continue;
        }
        run_t run = {0, 0};
        uintptr_t resume = 0;
        size_t next = 0;
        /* The first page whose number over all areas is offset modulo the
         * stride, then every stride-th (every page when first touch is
         * emulated: those of unknown node are taken too). */
        size_t step = emulate ? 1 : stride;
        size_t pg = emulate ? 0 : (offset + stride - k % stride) % stride;
        for (; pg < a->npages; pg += step) {
            if ((k + pg) % stride == offset)
                protected_pages += span_take(a, &run, pg, SPAN_PAGES, &next, &resume);
            else if (emulate && !(a->page[pg] & PAGE_NODE_MASK))
                protected_pages += span_take(a, &run, pg, 1, &next, &resume);
            else
                visited++;
        }
        protected_pages += run_end(a, &run);
        k += a->npages;
    }
    return protected_pages;
}

/* Pages of the live areas (only the fresh ones when fresh). */
static size_t tracked_pages(int fresh)
{
    size_t total = 0;
    for (int i = 0; i < nareas; i++)
        total += areas[i].live && (!fresh || areas[i].fresh) ? areas[i].npages : 0;
    return total;
}

/* Pages an arming of r's team protects at most. */
static size_t sample_pages(const rt_sample_t *r)
{
    size_t pages = (size_t)r->team_size * (r->probe ? PROBE_PAGES_PER_THREAD : PAGES_PER_THREAD);
    return pages < BUDGET_PAGES ? pages : BUDGET_PAGES;
}

/* Memory the program mapped while the execution runs (a long region whose
 * threads map the blocks they sweep): it joins the sample, at the density
 * the arming chose (at its own when the arming found nothing tracked), with
 * what is left of the budget. lock held, armed. */
static void sample_new_mappings(void)
{
    scan_maps(1);
    size_t fresh = tracked_pages(1);
    if (!fresh)
        return;
    size_t left = armed_budget > armed_pages ? armed_budget - armed_pages : 0;
    if (!left) { /* the budget is spent: these areas are tracked from the next execution on */
        for (int i = 0; i < nareas; i++)
            areas[i].fresh = 0;
        return;
    }
    size_t stride = armed_stride ? armed_stride : 1;
    if (fresh * SPAN_PAGES / stride > left)
        stride = fresh * SPAN_PAGES / left;
    armed_stride = stride;
    if ((uint64_t)stride * pagesz > tab->spacing)
        tab->spacing = (uint64_t)stride * pagesz;
    size_t got = protect_sample(1, 0);
    armed_pages += got;
    rt_verbose(2, "pagefault: %zu pages mapped inside the execution, %zu of them protected", fresh, got);
}

/* ---- arm and disarm around a sampled execution ---- */

/* Whether some thread of the process blocks SIGSEGV: a fault on a sampled
 * page would kill it, so nothing is armed meanwhile. One small read per
 * thread, per sampled execution: its stat's "blocked" field (the 32nd, the
 * first word of the thread's mask in decimal: signals 1 to 64), which costs
 * the kernel 40 % less than its status file's SigBlk line (31 k against
 * 53 k guest instructions in the paced VM). */
static int blocks_segv(pid_t tid, void *ctx)
{
    uint64_t blocked;
    int *blocks = ctx;
    *blocks = rt_task_stat_field(tid, 32, &blocked) == 0 && ((blocked >> (SIGSEGV - 1)) & 1);
    return *blocks;
}

/* Whether some thread blocks SIGSEGV; *threads: the threads read. */
static int someone_blocks_segv(int *threads)
{
    int blocks = 0;
    *threads = rt_procfs_each_task(blocks_segv, &blocks);
    return blocks;
}

/* Every page this source protected made accessible again, and forgotten.
 * lock held. */
static void disarm_locked(void)
{
    armed = 0;
    __atomic_store_n(&armed_late, 0, __ATOMIC_RELEASE);
    __atomic_fetch_add(&epoch, 1, __ATOMIC_RELEASE);
    /* A thread outside the team that touches a page meanwhile finds it
     * restoring and retries, or given back and retries once: its fault is
     * resolved, never declined. */
    for (int i = 0; i < nareas; i++) {
        area_t *a = &areas[i];
        if (!a->page)
            continue;
        if (prot_overflow) {
            give_back_pages(a, 0, a->npages);
            visited += a->npages;
            continue;
        }
        /* Adjacent pages (a span, or a dense sample) in one mprotect. */
        for (size_t j = 0; j < nprot;) {
            if (prot_page[j] < a->start || prot_page[j] >= a->end) {
                j++;
                continue;
            }
            size_t n = 1;
            while (j + n < nprot && prot_page[j + n] == prot_page[j] + n * pagesz && prot_page[j + n] < a->end)
                n++;
            give_back_pages(a, (prot_page[j] - a->start) / pagesz, n);
            visited += n;
            j += n;
        }
    }
    nprot = 0;
    prot_overflow = 0;
    __atomic_store_n(&tab->team_size, 0, __ATOMIC_RELEASE);
}

/* The addresses the resolver logged since the last call, into log (NULL:
 * forgotten). Entries a resolver is still writing (a thread outside the
 * team, or one of a loop without a barrier) are skipped. */
static void take_log(rt_addr_log_t *log)
{
    uint32_t n = __atomic_exchange_n(&tab->nlog, 0, __ATOMIC_ACQ_REL);
    for (uint32_t k = 0; k < n && k < LOG_MAX; k++) {
        uint64_t addr = __atomic_exchange_n(&tab->log[k].addr, 0, __ATOMIC_ACQUIRE);
        if (addr && log)
            rt_addr_log_add(log, addr, tab->log[k].thread, tab->log[k].node);
    }
    if (log) {
        log->dropped += n > LOG_MAX ? n - LOG_MAX : 0;
        log->spacing = tab->spacing > log->spacing ? tab->spacing : log->spacing;
    }
}

/* ns spent by the sampler, charged to the budget and to the arming under
 * way. lock held. */
static void charge(uint64_t ns)
{
    __atomic_store_n(&spent_ns, spent_ns + ns, __ATOMIC_RELAXED);
    __atomic_store_n(&arming_ns, arming_ns + ns, __ATOMIC_RELAXED);
}

/* What faults cost their threads: the resolver's time and, for each, the
 * round trip beyond it. */
static uint64_t faults_cost(uint64_t resolver_ns, uint64_t faults)
{
    return resolver_ns + faults * fault_trip_ns;
}

/* The faults' cost since it was last charged, shared by the armed team's
 * threads (they fault side by side). lock held. */
static void charge_faults(void)
{
    uint64_t faults = __atomic_exchange_n(&tab->uncharged, 0, __ATOMIC_RELAXED);
    uint64_t ns = faults_cost(__atomic_exchange_n(&tab->fault_ns, 0, __ATOMIC_RELAXED), faults);
    arming_faults += faults;
    int n = __atomic_load_n(&tab->team_size, __ATOMIC_RELAXED);
    charge(ns / (uint64_t)(n > 0 ? n : 1));
}

/* What the next arming is asked of the budget: the latest one's cost,
 * doubled for each barren arming before it. */
static uint64_t next_price(void)
{
    int b = __atomic_load_n(&barren, __ATOMIC_RELAXED);
    return __atomic_load_n(&arming_ns, __ATOMIC_RELAXED) << (b < BARREN_MAX ? b : BARREN_MAX);
}

/* Whether a fresh arming fits the sampler's budget. With the lock held, or
 * without it (due): the figures as they are. */
static int budget_allows(uint64_t now, int promising)
{
    return pl_budget_fits(__atomic_load_n(&spent_ns, __ATOMIC_RELAXED), next_price(),
                          now > start_ns ? now - start_ns : 0, rt_conf->budget, promising);
}

/* Whether the arming under way, whose cost so far is spent, fits the
 * budget with `rest` ns more to pay. lock held. */
static int rest_fits(uint64_t now, uint64_t rest, int promising)
{
    return pl_budget_fits(spent_ns, rest, now > start_ns ? now - start_ns : 0, rt_conf->budget, promising);
}

/* A region or loop the budget declined rests (RT_SOURCE_WAITS) until a
 * fresh arming fits, and a loop that repeats gets its record only then:
 * asked before each of its executions, by one thread, no lock. */
static int due(const rt_sample_t *s)
{
    /* A loop of the execution this thread armed takes its sample as it is
     * (region_begin): nothing more to pay. The fields are this thread's own
     * writes when it armed. */
    if (__atomic_load_n(&armed, __ATOMIC_ACQUIRE) && !__atomic_load_n(&armed_running, __ATOMIC_RELAXED) &&
        s->parent_id == __atomic_load_n(&armed_id, __ATOMIC_RELAXED) &&
        __atomic_load_n(&armed_by, __ATOMIC_RELAXED) == rt_gettid())
        return 1;
    return budget_allows(rt_now_ns(), s->promising);
}

/* disarm_locked, timed against the budget, the arming counted barren or
 * not. lock held. */
static void disarm_timed(void)
{
    uint64_t t0 = rt_now_ns();
    charge_faults();
    __atomic_store_n(&barren, arming_faults ? 0 : barren + 1, __ATOMIC_RELAXED);
    disarm_locked();
    charge(rt_now_ns() - t0);
}

/* Rows of tab->counts the resolver may have written since they were last
 * cleared: the teams armed since. Only those are cleared: the whole table
 * is 512 KiB, and clearing it at every loop's arming cost NPB FT class S
 * 20 % of its time in the paced 2-node VM (85 000 cache misses on the
 * primary). lock held. */
static int dirty_rows;

/* The references and addresses the resolver gathered since they were last
 * taken, forgotten: they belong to no execution that records them. lock
 * held. */
static void drop_counts(void)
{
    memset(tab->counts, 0, (size_t)dirty_rows * MAX_NODES * sizeof *tab->counts);
    dirty_rows = __atomic_load_n(&tab->team_size, __ATOMIC_RELAXED);
    take_log(NULL);
}

/* A held sample given back: what its threads touched since its loop's last
 * execution ended is nobody's. lock held. */
static void release_held(void)
{
    disarm_timed();
    held = 0;
    drop_counts();
}

/* An arming refused for the budget: region_end says so. lock held, and
 * released. */
static void decline(const rt_sample_t *r, const void *team, uint64_t now)
{
    unarmed_id = r->id;
    unarmed_bits = RT_SOURCE_DECLINED | RT_SOURCE_WAITS;
    later.code = r->codeptr;
    later.team = team;
    later.parent = r->parent_id;
    later.id = r->id;
    later.team_size = r->team_size;
    later.by = rt_gettid();
    __atomic_store_n(&later_on, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
    if (rt_log_verbosity < 2)
        return;
    char doubled[80] = "";
    int b = __atomic_load_n(&barren, __ATOMIC_RELAXED);
    if (b)
        snprintf(doubled, sizeof doubled, " (asked x2 for each of the %d armings before that took no fault)", b);
    rt_verbose(2, "pagefault: region %d: not armed: the sampler spent %.1f ms and its latest arming %.1f ms%s, "
               "of %.1f ms run (budget: %g %%%s)", r->id, 1e-6 * (double)__atomic_load_n(&spent_ns, __ATOMIC_RELAXED),
               1e-6 * (double)__atomic_load_n(&arming_ns, __ATOMIC_RELAXED), doubled, 1e-6 * (double)(now - start_ns),
               rt_conf->budget * (r->promising ? PL_PROMISE_FACTOR : 1),
               r->promising ? ", a thread's references mostly remote" : "");
}

enum { ARMED, ARM_DECLINED, ARM_REFUSED };

/* What an arming did, for the log (arm_said, after the lock). */
typedef struct arm_log {
    size_t   total, protected_pages, resident;
    uint64_t resid_ns;
} arm_log_t;

static void arm_said(int id, const arm_log_t *log)
{
    rt_verbose(2, "pagefault: region %d: %zu of %zu tracked pages protected (%zu resident); the arming %.1f ms, "
               "%.1f ms of it reading residency", id, log->protected_pages, log->total, log->resident,
               1e-6 * (double)__atomic_load_n(&arming_ns, __ATOMIC_RELAXED), 1e-6 * (double)log->resid_ns);
}

/* An execution of r (team instance team, begun by thread by) armed when
 * the budget allows it: ARMED, ARM_DECLINED (the budget; arming_ns is what
 * the next try is asked), or ARM_REFUSED (a thread blocks SIGSEGV, or the
 * dispatcher cannot be installed). lock held, nothing armed; kept. */
static int arm(const rt_sample_t *r, const void *team, pid_t by, uint64_t now, arm_log_t *log)
{
    if (!budget_allows(now, r->promising))
        return ARM_DECLINED;
    /* Our handler must be the one the kernel calls (a program's handler
     * installed since is chained behind it), and no thread may block it. */
    int threads = 0;
    if (rt_fault_install() != 0 || someone_blocks_segv(&threads))
        return ARM_REFUSED;
    __atomic_store_n(&arming_ns, 0, __ATOMIC_RELAXED);
    if (!estimated && !guessed) {
        /* The first try is mostly its maps read, whose cost is known only
         * once paid (50 to 100 ms of paced time in the 2-node VM): made at
         * a program's first region and refused, it was paid for nothing
         * (the patterns' local-long: 67 ms of 17 s; OpenBLAS's caller: 98
         * ms of 7.7 s). The stat files just read price a procfs read, and
         * the maps read is guessed at MAPS_READS of them. Refused, the
         * guess stands for the latest arming: the next tries wait for free
         * until the run can pay it. */
        guessed = 1;
        uint64_t t = rt_now_ns(), reads = t - now;
        uint64_t maps = reads / (uint64_t)(threads > 0 ? threads : 1) * MAPS_READS;
        charge(reads);
        now = t;
        rt_verbose(2, "pagefault: the stat files of %d threads read in %.3f ms: the first arming guessed at %.1f ms",
                   threads, 1e-6 * (double)reads, 1e-6 * (double)(reads + maps));
        if (!rest_fits(now, maps, r->promising)) {
            __atomic_store_n(&arming_ns, reads + maps, __ATOMIC_RELAXED);
            return ARM_DECLINED;
        }
    }
    scan_maps(0);
    if (!estimated) {
        /* The first arming has no estimate of its own: what it cost so far
         * (the threads' signal masks, the maps read), paid, and what is
         * left to do are asked of the budget. Refused, the whole arming is
         * the estimate the next try is asked with. */
        estimated = 1;
        uint64_t resid_ps = emulate ? 0 : time_residency();
        uint64_t t = rt_now_ns();
        charge(t - now);
        now = t;
        /* What grows with the program's memory is priced before it is
         * paid: reading every tracked page's residency (a 384 MiB
         * reservation, OpenBLAS's buffer: 136 ms of model time in the paced
         * 2-node VM, for an arming that then took no fault). The sample's
         * own pages are bounded (sample_pages): their protection and faults
         * are charged as they happen, within the budget's overshoot of one
         * arming. Priced too, they delayed the first arming of the
         * patterns' swapped 4 12 past its run (1.013 x `off`, 0.90 before)
         * to save 60 ms. */
        size_t total = tracked_pages(0);
        uint64_t rest = (uint64_t)total * resid_ps / 1000;
        rt_verbose(2, "pagefault: residency %.6f us a tracked page: the first arming's %zu tracked pages estimated "
                   "at %.3f ms more", 1e-6 * (double)resid_ps, total, 1e-6 * (double)rest);
        if (!rest_fits(now, rest, r->promising)) {
            __atomic_store_n(&arming_ns, arming_ns + rest, __ATOMIC_RELAXED);
            return ARM_DECLINED;
        }
    }
    if (!trialled) {
        /* A page of the source's own sampled once, before the first of the
         * program's is protected (fault_trip_ns), and only by an arming that
         * goes ahead: a declined first try (OpenBLAS's) would pay it for
         * nothing (20 ms of its 100 in the paced 2-node VM). */
        trialled = 1;
        page_cost_t page = time_a_page();
        uint64_t t = rt_now_ns();
        charge(t - now);
        now = t;
        rt_verbose(2, "pagefault: a sampled page costs %.3f us to protect and %.3f us to fault, %.3f us of it "
                   "beyond its resolver", 1e-3 * (double)page.protect_ns, 1e-3 * (double)page.fault_ns,
                   1e-3 * (double)fault_trip_ns);
    }
    armed = 1;
    arming_faults = 0;
    __atomic_fetch_add(&epoch, 1, __ATOMIC_RELEASE);
    nested_declined = 0;
    armed_code = r->codeptr;
    armed_parent = r->parent_id;
    armed_team = team;
    armed_by = by;
    armed_id = r->id;
    armed_running = r->tids != NULL;
    held = 0;
    stale = 0;
    passed = 0;
    size_t total = tracked_pages(0);
    size_t budget = sample_pages(r);
    armed_budget = budget;
    /* Among the resident pages, where there are some (emulated first touch
     * protects every page of unknown node instead). */
    uint64_t t_resid = rt_now_ns();
    size_t resident = emulate || !total ? 0 : resident_pages();
    t_resid = rt_now_ns() - t_resid;
    armed_resident = resident > 0;
    size_t pool = armed_resident ? resident : total;
    armed_stride = pool * SPAN_PAGES > budget ? pool * SPAN_PAGES / budget : 1;
    armed_pages = 0;
    tab->spacing = (uint64_t)armed_stride * pagesz;
    /* thread_index looks at the first team_size entries only. */
    for (int i = 0; i < r->team_size; i++) /* a running team's threads will not come to thread_begin */
        tab->tid[i] = r->tids ? r->tids[i] : 0;
    if (r->team_size > dirty_rows)
        dirty_rows = r->team_size;
    __atomic_store_n(&tab->team_size, r->team_size, __ATOMIC_RELEASE);
    *log = (arm_log_t){.total = total};
    if (!total) { /* nothing tracked yet: memory the team maps can still be sampled (peek) */
        armed_stride = 0;
        charge(rt_now_ns() - now);
        return ARMED;
    }
    size_t offset = (size_t)(rotation++ * 7919u) % armed_stride; /* a prime step visits every residue */
    size_t protected_pages = protect_sample(0, offset);
    armed_pages = protected_pages;
    charge(rt_now_ns() - now);
    *log = (arm_log_t){.total = total, .protected_pages = protected_pages, .resident = resident, .resid_ns = t_resid};
    return ARMED;
}

static void region_begin(const rt_sample_t *r, const void *team)
{
    /* Emulated nodes are stored in 6 bits (node + 1 <= PAGE_NODE_MASK). */
    if (!tab || rt_conf->track == RT_TRACK_API || r->team_size > MAX_TEAM || rt_mach->topo.nnodes >= PAGE_NODE_MASK)
        return;
    /* An execution whose sample nobody records (a position of its region's
     * cycle already sampled) is not armed: its arming would be paid for
     * nothing. */
    if (!r->record)
        return;
    pthread_mutex_lock(&lock);
    pid_t me = rt_gettid();
    uint64_t now = rt_now_ns();
    if (armed && held && armed_by == me) {
        /* The held sample's loop again: it goes on, unless it went stale and
         * a fresh one fits the budget. Anything else the same thread arms
         * takes the sampler back. */
        if (armed_code == r->codeptr && armed_parent == r->parent_id && armed_team == team &&
            (stale < (passed ? STALE_AFTER : SPAN_PAGES * STALE_AFTER) || !budget_allows(now, r->promising))) {
            held = 0;
            pthread_mutex_unlock(&lock);
            return;
        }
        release_held();
    }
    /* A loop of the execution this thread armed (a region that runs once
     * around loops that repeat): the same team on the same memory, so the
     * region's sample passes to the loop as it is, not given back and
     * protected again (an arming and a disarm, a quarter of what the
     * sampler cost the patterns' local-long in the paced VM). */
    if (armed && !armed_running && armed_by == me && r->tids && r->parent_id == armed_id &&
        r->team_size == __atomic_load_n(&tab->team_size, __ATOMIC_RELAXED)) {
        for (int i = 0; i < r->team_size; i++)
            __atomic_store_n(&tab->tid[i], r->tids[i], __ATOMIC_RELEASE);
        drop_counts();
        armed_code = r->codeptr;
        armed_parent = r->parent_id;
        armed_id = r->id;
        armed_team = team;
        armed_running = 1;
        nested_declined = 0;
        stale = 0;
        passed = 1;
        pthread_mutex_unlock(&lock);
        rt_verbose(2, "pagefault: region %d: the sample of its enclosing execution passes to it", r->id);
        return;
    }
    /* A nested team, or another root thread's team, inside a sampled
     * execution is not armed: one execution at a time. Except when the
     * thread that armed an execution keeps starting nested teams inside it
     * (BT-MZ's shape: an outer region that runs once around an inner one
     * that runs hundreds of times): the outer execution would hold the
     * sampler for good, and the inner regions, where the work is, would
     * never be sampled. Then the outer execution gives the sampler up (it
     * counts as not armed) and the nested region takes it. */
    if (armed) {
        if (armed_by != me || ++nested_declined <= HANDOVER_AFTER) {
            pthread_mutex_unlock(&lock);
            unarmed_id = r->id;
            unarmed_bits = RT_SOURCE_BUSY;
            return;
        }
        disarm_timed();
        drop_counts();
        rt_verbose(2, "pagefault: region %d: the enclosing execution hands the sampler over", r->id);
    }
    arm_log_t log;
    int rc = arm(r, team, me, now, &log);
    if (rc == ARM_DECLINED) {
        decline(r, team, now);
        return;
    }
    pthread_mutex_unlock(&lock);
    if (rc == ARM_REFUSED)
        rt_verbose(2, "pagefault: region %d: not armed (a thread blocks SIGSEGV, or the handler is gone)", r->id);
    else if (log.total)
        arm_said(r->id, &log);
}

/* Only the armed team's threads are attributed (a nested team's thread 0
 * must not take over its outer index). */
static void thread_begin(const rt_sample_t *r, int index, const void *team)
{
    if (tab && __atomic_load_n(&armed, __ATOMIC_ACQUIRE) && index < MAX_TEAM && team == armed_team &&
        r->codeptr == armed_code && r->parent_id == armed_parent)
        __atomic_store_n(&tab->tid[index], rt_gettid(), __ATOMIC_RELEASE);
}

/* Every protection goes before the construct's end: the thread that armed
 * it ends it, with the record of the team that really ran (smaller than
 * requested, it is another record: same construct, same parent). */
static int region_end(const rt_sample_t *r, uint64_t *added)
{
    if (unarmed_id == r->id) {
        unarmed_id = -1;
        if (!__atomic_load_n(&later_on, __ATOMIC_ACQUIRE) && !__atomic_load_n(&armed_late, __ATOMIC_ACQUIRE))
            return unarmed_bits;
        /* Declined at its begin: no longer one peek may arm, and taken back
         * like any armed execution when peek did arm it. */
        pid_t me = rt_gettid();
        pthread_mutex_lock(&lock);
        if (later_on && later.id == r->id && later.by == me)
            __atomic_store_n(&later_on, 0, __ATOMIC_RELEASE);
        int late = armed && armed_late && armed_id == r->id && armed_by == me;
        pthread_mutex_unlock(&lock);
        if (!late)
            return unarmed_bits;
    }
    if (!tab || !__atomic_load_n(&armed, __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&lock);
    if (armed && held && armed_by == rt_gettid() && r->id == armed_parent) {
        release_held(); /* the long execution around the held loop ends */
        pthread_mutex_unlock(&lock);
        return 0;
    }
    if (!armed || armed_by != rt_gettid() || armed_code != r->codeptr ||
        armed_parent != r->parent_id) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    /* For the log: the faults since they were last charged, before this charges them. */
    uint64_t resolver_ns = __atomic_load_n(&tab->fault_ns, __ATOMIC_RELAXED);
    uint64_t faults = __atomic_load_n(&tab->uncharged, __ATOMIC_RELAXED);
    /* A loop that samples on keeps its sample for its next execution. */
    held = armed_running && r->record;
    if (!held)
        disarm_timed();
    else
        charge_faults();
    size_t seen = visited;
    visited = 0;
    if (!r->record)
        drop_counts();
    pthread_mutex_unlock(&lock);
    /* Shared by the team's threads, which fault side by side (charge_faults). */
    if (r->slowed_ns)
        *r->slowed_ns = faults_cost(resolver_ns, faults) / (uint64_t)(r->team_size > 0 ? r->team_size : 1);
    rt_verbose(2, "pagefault: region %d: %llu faults, %zu page states visited, %.3f ms on the faulting threads, "
               "%.3f ms of it in the resolver", r->id,
               (unsigned long long)faults, seen, 1e-6 * (double)faults_cost(resolver_ns, faults),
               1e-6 * (double)resolver_ns);
    int nd = r->nnodes;
    if (!r->record)
        return 1;
    take_log(r->addrs);
    for (int t = 0; t < r->team_size && t < MAX_TEAM; t++)
        for (int n = 0; n < nd; n++) {
            uint64_t c = __atomic_exchange_n(&tab->counts[t * MAX_NODES + n], 0, __ATOMIC_RELAXED);
            r->tnt[(size_t)t * (size_t)nd + (size_t)n] += c;
            if (r->samples)
                r->samples[t] += c;
            *added += c;
        }
    if (held)
        stale = *added ? 0 : stale + 1;
    return 1;
}

/* The counts of the armed execution so far: the resolver adds to them
 * while the team runs, region_end moves them out under the lock. A long
 * execution is read more than once (the migration monitor reads it every
 * period): memory mapped since the last look joins the sample first. */
static int peek(const rt_sample_t *r, uint64_t *tnt)
{
    if (!tab || (!__atomic_load_n(&armed, __ATOMIC_ACQUIRE) && !__atomic_load_n(&later_on, __ATOMIC_ACQUIRE)))
        return 0;
    int got = 0, late = 0;
    arm_log_t log;
    pthread_mutex_lock(&lock);
    if (!armed && later_on && r->tids && later.code == r->codeptr && later.parent == r->parent_id &&
        later.team_size == r->team_size && r->team_size <= MAX_TEAM) {
        /* The execution runs on, declined at its begin: armed now if the
         * budget allows, for the thread that began it (its region_end takes
         * it back), on the running team's threads. */
        rt_sample_t s = *r;
        s.id = later.id;
        if (arm(&s, later.team, later.by, rt_now_ns(), &log) == ARMED) {
            armed_running = 0; /* the whole execution's, given back at its end */
            __atomic_store_n(&armed_late, 1, __ATOMIC_RELEASE);
            __atomic_store_n(&later_on, 0, __ATOMIC_RELEASE);
            late = 1;
        }
    }
    if (armed && armed_code == r->codeptr && armed_parent == r->parent_id &&
        __atomic_load_n(&tab->team_size, __ATOMIC_ACQUIRE) == r->team_size && r->team_size <= MAX_TEAM &&
        r->nnodes <= MAX_NODES) {
        if (!late) /* an arming just read the maps */
            sample_new_mappings();
        for (int t = 0; t < r->team_size; t++)
            for (int n = 0; n < r->nnodes; n++)
                tnt[(size_t)t * (size_t)r->nnodes + (size_t)n] =
                    __atomic_load_n(&tab->counts[t * MAX_NODES + n], __ATOMIC_RELAXED);
        got = 1;
    }
    pthread_mutex_unlock(&lock);
    if (late)
        rt_verbose(2, "pagefault: region %d: armed while it runs, for the migration monitor", r->id);
    if (late && log.total)
        arm_said(r->id, &log);
    return got;
}

const rt_source_ops_t rt_source_pagefault = {
    .probe = probe,
    .start = start,
    .region_begin = region_begin,
    .thread_begin = thread_begin,
    .region_end = region_end,
    .due = due,
    .peek = peek,
    .intrusive = 1,
    .running_team = 1,
    .addresses = 1,
};
