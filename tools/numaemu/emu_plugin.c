/* emu_plugin.c: QEMU TCG plugin that gives the NUMA VM remote-memory latency, node bandwidth limits, paced time and ground-truth counts. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <qemu-plugin.h>

#include "emu_cache.h"
#include "emu_counts.h"
#include "emu_pace.h"
#include "rt_emu_mark.h"

/* Options (comma-separated key=value; lists use '/' and ':' because QEMU
 * splits the plugin's arguments at commas). tools/numavm/numavm_emu.py
 * builds them from `ompnuma vm`'s options:
 *   vcpu_node=N/N/...        the node of each vCPU, in vCPU order
 *   ram=NODE:START:LEN/...   ranges of the address qemu_plugin_hwaddr_phys_addr
 *                            reports for each node's RAM (QEMU 7.2 reports
 *                            RAMBlock offsets, not guest-physical addresses:
 *                            the harness computes them for the QEMU it runs)
 *   cost=NS:NS/NS:NS         extra nanoseconds per miss, row = the vCPU's node,
 *                            column = the memory's node (0 on the diagonal)
 *   pace_ps=P                paced time (below): picoseconds per instruction
 *   lat=NS:NS/NS:NS          paced: nanoseconds of model time per miss, the same
 *                            rows and columns, the diagonal included
 *   bw=MBS/MBS/...           each node's bandwidth in MB/s of missed lines (0 = unlimited)
 *   bw_window_us=U           burst a node serves without waiting (default 20)
 *   cache_kib=K, ways=W      the per-vCPU cache model (default 1024 KiB, 16 ways)
 *   line=B                   line size in bytes, a power of two (default 64)
 *   spin_us=U                charges are paid once a vCPU owes this much (default 20)
 *   ctl=PATH                 Unix socket for the host: "reset", "snapshot", "dump FILE"
 *   out=PATH                 write the counts there when QEMU exits
 *   kernel=0|1               also instrument the guest kernel (default 0)
 *
 * By default only user-mode code is instrumented (code and data below 2^47,
 * the user half on x86-64 Linux): the guest kernel neither counts nor pays,
 * and boot stays fast. With kernel=1 the kernel's accesses count and pay
 * like user ones, on the node of the physical page, as on a real machine:
 * copies the kernel makes for a process (process_vm_readv, which Open MPI's
 * shared-memory transport uses for large messages; pipes; page migration)
 * then cost what they cost in DRAM. Boot and system calls get slower.
 * With -accel tcg,thread=multi each vCPU's callbacks run on its own host
 * thread, so per-vCPU state needs no lock.
 *
 * Unpaced (no pace_ps), cost= charges are paid by busy-waiting on the host's
 * monotonic clock, which the guest's clock follows: a sleeping vCPU thread
 * would let the other vCPUs run on in the meantime and, on a loaded host, lose
 * nothing. The wait overshoots by a clock read; that overshoot is carried as
 * credit against later charges, so the average charge stays what was asked
 * (see CREDIT_CAP_NS). On top of the charges, emulation itself takes whatever
 * the host gives it.
 *
 * Paced (pace_ps=P), the guest's time is a model instead: each vCPU's clock
 * advances P per instruction (every translation block, kernel code included)
 * and lat= per miss of the cache model (plus its wait in its node's bandwidth
 * queue, kept in model time), and the vCPU waits for the host's clock to
 * reach its own (emu_pace.h). Cache hits cost nothing beyond their
 * instruction. Pacing runs only between the control requests "pace on" and
 * "pace off" (the host brackets each command with them), so boot and the
 * guest's plumbing run at full speed. */

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define USER_TOP (UINT64_C(1) << 47)
#define MAX_NODES 16
#define MAX_RANGES 64
/* Overshoot carried as credit: the clock polling's own (tens of ns). A host
 * preemption during a wait (ms on a loaded host) is not credited: the vCPU
 * would have lost that time as well had it been emulating local work, and
 * crediting it made remote misses nearly free on a loaded host (measured:
 * the demo's stock and ompnuma iterations equal at 600 ns). Bandwidth waits
 * need no credit: they are computed against the node's own timeline. */
#define CREDIT_CAP_NS 5000

struct range {
    uint64_t start, end;
    int node;
};

struct vcpu {
    struct emu_cache cache;
    int node;
    int64_t debt_ns; /* owed (> 0) or credit from overshoot (< 0) */
    uint32_t tag_pending;
    struct emu_pace_vcpu pace;
} __attribute__((aligned(64)));

static struct {
    int vcpus, nodes;
    struct vcpu *vcpu;
    struct range ranges[MAX_RANGES];
    int nranges;
    uint64_t cost_ns[MAX_NODES][MAX_NODES];
    uint64_t lat_ns[MAX_NODES][MAX_NODES]; /* paced: model time per miss */
    struct emu_pace pace;
    uint64_t bw_mbs[MAX_NODES];
    uint64_t service_ps[MAX_NODES]; /* time one line occupies a node's bandwidth */
    uint64_t next_free_ps[MAX_NODES] __attribute__((aligned(64)));
    uint64_t window_ps;
    uint64_t cache_bytes;
    uint32_t ways;
    unsigned line_shift;
    int64_t spin_ns;
    bool any_cost;
    bool kernel; /* instrument kernel code and kernel addresses too */
    const char *ctl, *out;
    char config[4096];
    struct emu_counts k;
} E;

static int node_of(uint64_t pa)
{
    for (int i = 0; i < E.nranges; i++)
        if (pa >= E.ranges[i].start && pa < E.ranges[i].end)
            return E.ranges[i].node;
    return -1;
}

static void pay(struct vcpu *v)
{
    uint64_t t0 = emu_now_ns(), target = t0 + (uint64_t)v->debt_ns, t;
    while ((t = emu_now_ns()) < target)
        __builtin_ia32_pause();
    int64_t over = (int64_t)(t - target);
    v->debt_ns = over > CREDIT_CAP_NS ? -CREDIT_CAP_NS : -over;
}

/* The wait of a line missed at time vnow (ns, the vCPU's own time) in its
 * node's bandwidth queue: the node serves one line per service time, and a
 * vCPU finding more than a window's worth queued before its line waits for
 * the excess (the window absorbs bursts, and in paced time the skew between
 * the vCPUs' clocks). */
static uint64_t queue_wait(int node, int64_t vnow)
{
    uint64_t now_ps = (uint64_t)(vnow > 0 ? vnow : 0) * 1000;
    uint64_t nx = __atomic_load_n(&E.next_free_ps[node], __ATOMIC_RELAXED), s;
    do {
        s = nx > now_ps ? nx : now_ps;
    } while (!__atomic_compare_exchange_n(&E.next_free_ps[node], &nx, s + E.service_ps[node], true,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    if (s <= now_ps + E.window_ps)
        return 0;
    uint64_t wait = (s - now_ps - E.window_ps) / 1000;
    emu_counts_add(&E.k.bw_stalls[node], 1);
    emu_counts_add(&E.k.bw_wait_ns[node], wait);
    return wait;
}

static void charge(unsigned idx, struct vcpu *v, int node)
{
    uint64_t ns = E.cost_ns[v->node][node];
    v->debt_ns += (int64_t)ns;
    if (E.service_ps[node]) {
        /* The vCPU's own time is now plus what it still owes (or minus its
         * credit): charges not yet paid must not be counted again as queueing. */
        uint64_t wait = queue_wait(node, (int64_t)emu_now_ns() + v->debt_ns);
        ns += wait;
        v->debt_ns += (int64_t)wait;
    }
    if (!ns)
        return;
    emu_counts_add(&E.k.delay_ns[idx], ns);
    if (v->debt_ns >= E.spin_ns)
        pay(v);
}

/* Paced: the miss's latency and queueing go on the vCPU's model clock, paid at its next check-in. */
static void charge_paced(unsigned idx, struct vcpu *v, int node)
{
    if (!__atomic_load_n(&E.pace.on, __ATOMIC_RELAXED))
        return;
    uint64_t ns = E.lat_ns[v->node][node];
    if (E.service_ps[node])
        ns += queue_wait(node, v->pace.model_ns + (int64_t)(v->pace.pend_ps / 1000));
    v->pace.pend_ps += ns * 1000;
    emu_counts_add(&E.k.delay_ns[idx], ns);
}

static void on_mem(unsigned int idx, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)ud;
    if ((vaddr >= USER_TOP && !E.kernel) || idx >= (unsigned)E.vcpus)
        return;
    struct qemu_plugin_hwaddr *h = qemu_plugin_get_hwaddr(info, vaddr);
    if (!h || qemu_plugin_hwaddr_is_io(h))
        return;
    uint64_t pa = qemu_plugin_hwaddr_phys_addr(h);
    struct vcpu *v = &E.vcpu[idx];
    emu_counts_access(&E.k, (int)idx);
    if (emu_cache_access(&v->cache, vaddr, pa))
        return;
    int node = node_of(pa);
    if (node < 0) {
        emu_counts_add(&E.k.unmapped[idx], 1);
        return;
    }
    emu_counts_miss(&E.k, (int)idx, node);
    if (node != v->node)
        emu_counts_remote_page(&E.k, (int)idx, vaddr, node);
    if (E.pace.insn_ps)
        charge_paced(idx, v, node);
    else if (E.any_cost)
        charge(idx, v, node);
}

/* ud: user code << 62 | the block's cost in instructions << 16 | its instructions (at most 512). */
#define TB_USER ((uintptr_t)1 << 62)

static void on_tb_exec(unsigned int idx, void *ud)
{
    uintptr_t u = (uintptr_t)ud;
    if (idx < (unsigned)E.vcpus)
        emu_pace_insns(&E.pace, &E.vcpu[idx].pace, (int)idx, u & 0xffff, (u & ~TB_USER) >> 16, (u & TB_USER) != 0);
}

static void on_halt(unsigned int idx, void *ud)
{
    (void)ud;
    if (idx < (unsigned)E.vcpus)
        emu_pace_halt(&E.pace, &E.vcpu[idx].pace, (int)idx);
}

static void on_resume(qemu_plugin_id_t id, unsigned int idx)
{
    (void)id;
    if (idx < (unsigned)E.vcpus)
        emu_pace_resume(&E.pace, &E.vcpu[idx].pace, (int)idx);
}

static void on_mark(unsigned int idx, void *ud)
{
    unsigned op = (unsigned)(uintptr_t)ud >> 12, arg = (unsigned)(uintptr_t)ud & 0xfff;
    if (idx >= (unsigned)E.vcpus)
        return;
    struct vcpu *v = &E.vcpu[idx];
    switch (op) {
    case RT_EMU_OP_RESET:
        emu_counts_reset(&E.k);
        break;
    case RT_EMU_OP_SNAPSHOT:
        emu_counts_snapshot(&E.k);
        break;
    case RT_EMU_OP_TAG_BEGIN:
        v->tag_pending = 0;
        break;
    case RT_EMU_OP_TAG_BIT:
        v->tag_pending |= 1u << arg;
        break;
    case RT_EMU_OP_TAG_SET:
        emu_counts_set_tag(&E.k, v->tag_pending);
        break;
    default:
        break; /* a newer guest header's operation: ignored */
    }
}

/* Paced, every block counts its instructions, each `pause` as PAUSE_INSNS of
 * them: QEMU leaves its execution loop at every pause (taking its lock on the
 * way back), which costs the host microseconds, and spin-waits (libomp's, the
 * kernel's locks) run little else; a server's pause takes ~40 ns (100 cycles
 * at 2.5 GHz, Skylake's 140, earlier cores' 10). The kernel's idle `hlt`
 * syncs first (the guest's idle loop halts with hlt: its CPUs advertise no
 * mwait preference). Memory is instrumented in user code (and kernel code
 * with kernel=1) only. */
#define PAUSE_INSNS 100

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    bool user = qemu_plugin_tb_vaddr(tb) < USER_TOP, mem = user || E.kernel;
    size_t n = qemu_plugin_tb_n_insns(tb);
    if (E.pace.insn_ps) {
        uintptr_t cost = n;
        for (size_t i = 0; i < n; i++) {
            struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
            const uint8_t *d = qemu_plugin_insn_data(insn);
            size_t size = qemu_plugin_insn_size(insn);
            if (size == 2 && d[0] == 0xf3 && d[1] == 0x90)
                cost += PAUSE_INSNS - 1;
            else if (size == 1 && d[0] == 0xf4)
                qemu_plugin_register_vcpu_insn_exec_cb(insn, on_halt, QEMU_PLUGIN_CB_NO_REGS, NULL);
        }
        qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS,
                                             (void *)((user ? TB_USER : 0) | cost << 16 | n));
    }
    if (!mem)
        return;
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        if (qemu_plugin_insn_size(insn) == 7) {
            const uint8_t *d = qemu_plugin_insn_data(insn);
            uint32_t disp;
            memcpy(&disp, d + 3, sizeof disp);
            if (d[0] == 0x0f && d[1] == 0x1f && d[2] == 0x80 && (disp & 0xffff0000u) == RT_EMU_MARK_MAGIC) {
                qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS,
                                                       (void *)(uintptr_t)(disp & 0xffffu));
                continue;
            }
        }
        qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
}

/* --- the host's control socket */

static void serve_one(int fd)
{
    FILE *in = fdopen(fd, "r+");
    if (!in) {
        close(fd);
        return;
    }
    char line[4200];
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = 0;
        const char *reply = "ok";
        char err[256];
        if (strcmp(line, "reset") == 0) {
            emu_counts_reset(&E.k);
        } else if (strcmp(line, "snapshot") == 0) {
            emu_counts_snapshot(&E.k);
        } else if (strcmp(line, "pace on") == 0 || strcmp(line, "pace off") == 0) {
            if (E.pace.insn_ps)
                emu_pace_set(&E.pace, line[6] == 'n');
            else
                reply = "error not paced (no pace_ps= option)";
        } else if (strncmp(line, "dump ", 5) == 0) {
            if (emu_counts_write_file(&E.k, E.config, line + 5) != 0) {
                snprintf(err, sizeof err, "error cannot write %.180s: %s", line + 5, strerror(errno));
                reply = err;
            }
        } else {
            reply = "error unknown request";
        }
        fprintf(in, "%s\n", reply);
        fflush(in);
    }
    fclose(in);
}

static void *ctl_thread(void *arg)
{
    int lfd = (int)(intptr_t)arg;
    for (;;) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return NULL;
        }
        serve_one(fd);
    }
}

static int start_ctl(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        fprintf(stderr, "numaemu: ctl=%s: socket path too long\n", path);
        return -1;
    }
    strcpy(sa.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    unlink(path);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 4) != 0) {
        fprintf(stderr, "numaemu: ctl=%s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, ctl_thread, (void *)(intptr_t)fd) != 0) {
        fprintf(stderr, "numaemu: cannot start the control thread\n");
        close(fd);
        return -1;
    }
    pthread_detach(t);
    return 0;
}

static void on_exit_cb(qemu_plugin_id_t id, void *ud)
{
    (void)id;
    (void)ud;
    if (E.out && emu_counts_write_file(&E.k, E.config, E.out) != 0)
        fprintf(stderr, "numaemu: cannot write %s: %s\n", E.out, strerror(errno));
}

/* --- options */

static int bad(const char *key, const char *val, const char *why)
{
    fprintf(stderr, "numaemu: option %s=%s: %s\n", key, val, why);
    return -1;
}

/* A number (decimal or 0x hex) ending at a separator in seps or the end; advances *p. */
static int number(const char **p, const char *seps, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(*p, &end, 0);
    if (end == *p || errno || (*end && !strchr(seps, *end)) || **p == '-')
        return -1;
    *out = v;
    *p = end;
    return 0;
}

/* '/'-separated unsigned numbers into out[max]; the count, or -1. */
static int number_list(const char *val, uint64_t *out, int max)
{
    int n = 0;
    const char *p = val;
    for (;;) {
        if (n == max || number(&p, "/", &out[n]) != 0)
            return -1;
        n++;
        if (!*p)
            return n;
        p++;
    }
}

/* A square matrix: values separated by ':', rows by '/'; its size in *n. 0, or -1 (reported). */
static int parse_matrix(const char *key, const char *val, uint64_t rows[MAX_NODES][MAX_NODES], int *n)
{
    const char *p = val;
    int row = 0;
    for (;;) {
        int col = 0;
        for (;;) {
            if (row == MAX_NODES || col == MAX_NODES || number(&p, ":/", &rows[row][col]))
                return bad(key, val, "expected rows of nanoseconds, values separated by ':', rows by '/'");
            col++;
            if (*p != ':')
                break;
            p++;
        }
        if (row > 0 && col != *n)
            return bad(key, val, "rows of different lengths");
        *n = col;
        row++;
        if (!*p)
            break;
        p++;
    }
    if (row != *n)
        return bad(key, val, "the matrix is not square");
    return 0;
}

/* Matrices given as options, checked against the machine's nodes once all options are read. */
struct matrices {
    uint64_t cost[MAX_NODES][MAX_NODES], lat[MAX_NODES][MAX_NODES];
    int cost_n, lat_n, bw_n;
};

static int parse_option(const char *opt, struct matrices *m)
{
    const char *eq = strchr(opt, '=');
    if (!eq)
        return bad(opt, "", "expected key=value");
    size_t kl = (size_t)(eq - opt);
    char key[32];
    if (kl >= sizeof key)
        return bad(opt, "", "unknown option");
    memcpy(key, opt, kl);
    key[kl] = 0;
    const char *val = eq + 1, *p = val;
    uint64_t v, list[MAX_NODES * 4];
    if (strcmp(key, "vcpu_node") == 0) {
        int n = number_list(val, list, MAX_NODES * 4);
        if (n <= 0)
            return bad(key, val, "expected node numbers separated by '/'");
        E.vcpus = n;
        E.vcpu = aligned_alloc(64, sizeof *E.vcpu * (size_t)n);
        if (!E.vcpu)
            return bad(key, val, "out of memory");
        memset(E.vcpu, 0, sizeof *E.vcpu * (size_t)n);
        for (int i = 0; i < n; i++) {
            if (list[i] >= MAX_NODES)
                return bad(key, val, "node number out of range");
            E.vcpu[i].node = (int)list[i];
        }
    } else if (strcmp(key, "ram") == 0) {
        for (;;) {
            uint64_t node, start, len;
            if (E.nranges == MAX_RANGES || number(&p, ":", &node) || *p++ != ':' || number(&p, ":", &start) ||
                *p++ != ':' || number(&p, "/", &len) || node >= MAX_NODES || len == 0)
                return bad(key, val, "expected NODE:START:LENGTH ranges separated by '/'");
            E.ranges[E.nranges++] = (struct range){start, start + len, (int)node};
            if (!*p)
                break;
            p++;
        }
    } else if (strcmp(key, "cost") == 0) {
        return parse_matrix(key, val, m->cost, &m->cost_n);
    } else if (strcmp(key, "lat") == 0) {
        return parse_matrix(key, val, m->lat, &m->lat_n);
    } else if (strcmp(key, "bw") == 0) {
        int n = number_list(val, list, MAX_NODES);
        if (n <= 0)
            return bad(key, val, "expected MB/s per node separated by '/'");
        for (int i = 0; i < n; i++)
            E.bw_mbs[i] = list[i];
        m->bw_n = n;
    } else if (strcmp(key, "bw_window_us") == 0 || strcmp(key, "cache_kib") == 0 || strcmp(key, "ways") == 0 ||
               strcmp(key, "line") == 0 || strcmp(key, "spin_us") == 0 || strcmp(key, "kernel") == 0 ||
               strcmp(key, "pace_ps") == 0) {
        if (number(&p, "", &v) != 0)
            return bad(key, val, "expected an unsigned integer");
        if (key[0] == 'b')
            E.window_ps = v * 1000000;
        else if (key[0] == 'c')
            E.cache_bytes = v * 1024;
        else if (key[0] == 'w')
            E.ways = (uint32_t)v;
        else if (key[0] == 's')
            E.spin_ns = (int64_t)v * 1000;
        else if (key[0] == 'p')
            E.pace.insn_ps = v;
        else if (key[0] == 'k') {
            if (v > 1)
                return bad(key, val, "expected 0 or 1");
            E.kernel = v == 1;
        } else {
            if (v < 8 || v > 4096 || (v & (v - 1)))
                return bad(key, val, "the line size must be a power of two, 8..4096");
            E.line_shift = (unsigned)__builtin_ctzll(v);
        }
    } else if (strcmp(key, "ctl") == 0) {
        E.ctl = val;
    } else if (strcmp(key, "out") == 0) {
        E.out = val;
    } else {
        return bad(key, val, "unknown option");
    }
    return 0;
}

/* The settings' part of the counts file, built once into E.config (cut short if it does not fit). */
struct text {
    char *s;
    size_t room;
};

static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s, t->room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= t->room) {
        t->room = 0;
        return;
    }
    t->s += n;
    t->room -= (size_t)n;
}

/* A nodes x nodes matrix as JSON rows. */
static void add_matrix(struct text *t, uint64_t m[MAX_NODES][MAX_NODES])
{
    add(t, "[");
    for (int i = 0; i < E.nodes; i++) {
        add(t, "%s[", i ? ", " : "");
        for (int j = 0; j < E.nodes; j++)
            add(t, "%s%" PRIu64, j ? ", " : "", m[i][j]);
        add(t, "]");
    }
    add(t, "]");
}

static void config_json(void)
{
    struct text t = {E.config, sizeof E.config};
    add(&t, "\"format\": \"ompnuma-emu-counts/1\", \"vcpus\": %d, \"nodes\": %d, \"vcpu_node\": [", E.vcpus, E.nodes);
    for (int i = 0; i < E.vcpus; i++)
        add(&t, "%s%d", i ? ", " : "", E.vcpu[i].node);
    add(&t, "], \"line_bytes\": %u, \"cache_bytes\": %" PRIu64 ", \"cache_ways\": %u, \"remote_ns\": ",
        1u << E.line_shift, E.cache_bytes, E.ways);
    add_matrix(&t, E.cost_ns);
    add(&t, ", \"bandwidth_mbs\": [");
    for (int i = 0; i < E.nodes; i++)
        add(&t, "%s%" PRIu64, i ? ", " : "", E.bw_mbs[i]);
    add(&t, "], \"bandwidth_window_ns\": %" PRIu64 ", \"spin_ns\": %" PRId64 ", \"kernel_counted\": %s",
        E.window_ps / 1000, E.spin_ns, E.kernel ? "true" : "false");
    if (E.pace.insn_ps) {
        add(&t, ", \"pace_ps_per_insn\": %" PRIu64 ", \"latency_ns\": ", E.pace.insn_ps);
        add_matrix(&t, E.lat_ns);
    }
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    if (!info->system_emulation) {
        fprintf(stderr, "numaemu: needs full-system emulation (qemu-system-*)\n");
        return -1;
    }
    E.cache_bytes = 1024 * 1024;
    E.ways = 16;
    E.line_shift = 6;
    E.spin_ns = 20000;
    E.window_ps = UINT64_C(20) * 1000000;
    static struct matrices m;
    for (int i = 0; i < argc; i++)
        if (parse_option(argv[i], &m) != 0)
            return -1;
    if (E.vcpus == 0 || E.nranges == 0) {
        fprintf(stderr, "numaemu: vcpu_node= and ram= are required\n");
        return -1;
    }
    if (E.vcpus != info->system.smp_vcpus) {
        fprintf(stderr, "numaemu: vcpu_node= names %d vCPUs, the machine has %d\n", E.vcpus,
                info->system.smp_vcpus);
        return -1;
    }
    for (int i = 0; i < E.vcpus; i++)
        if (E.vcpu[i].node + 1 > E.nodes)
            E.nodes = E.vcpu[i].node + 1;
    for (int i = 0; i < E.nranges; i++)
        if (E.ranges[i].node + 1 > E.nodes)
            E.nodes = E.ranges[i].node + 1;
    if (m.cost_n && m.cost_n != E.nodes) {
        fprintf(stderr, "numaemu: cost= is %dx%d, the machine has %d nodes\n", m.cost_n, m.cost_n, E.nodes);
        return -1;
    }
    if (m.lat_n && m.lat_n != E.nodes) {
        fprintf(stderr, "numaemu: lat= is %dx%d, the machine has %d nodes\n", m.lat_n, m.lat_n, E.nodes);
        return -1;
    }
    if (m.lat_n && !E.pace.insn_ps) {
        fprintf(stderr, "numaemu: lat= is paced time's: it needs pace_ps=\n");
        return -1;
    }
    if (m.bw_n && m.bw_n != E.nodes) {
        fprintf(stderr, "numaemu: bw= gives %d nodes, the machine has %d\n", m.bw_n, E.nodes);
        return -1;
    }
    for (int i = 0; i < m.cost_n; i++)
        for (int j = 0; j < m.cost_n; j++) {
            E.cost_ns[i][j] = i == j ? 0 : m.cost[i][j];
            E.any_cost |= E.cost_ns[i][j] != 0;
        }
    memcpy(E.lat_ns, m.lat, sizeof E.lat_ns);
    for (int i = 0; i < E.nodes; i++) {
        if (E.bw_mbs[i]) {
            /* bytes per line / (MB/s) = microseconds per line; kept in picoseconds. */
            E.service_ps[i] = ((uint64_t)1 << E.line_shift) * 1000000 / E.bw_mbs[i];
            if (!E.service_ps[i])
                E.service_ps[i] = 1;
            E.any_cost = true;
        }
    }
    for (int i = 0; i < E.vcpus; i++)
        if (emu_cache_init(&E.vcpu[i].cache, E.cache_bytes, E.ways, E.line_shift) != 0) {
            fprintf(stderr, "numaemu: a %" PRIu64 "-byte cache of %u ways of %u-byte lines is not possible\n",
                    E.cache_bytes, E.ways, 1u << E.line_shift);
            return -1;
        }
    if (emu_counts_init(&E.k, E.vcpus, E.nodes, E.pace.insn_ps != 0) != 0) {
        fprintf(stderr, "numaemu: out of memory\n");
        return -1;
    }
    if (emu_pace_init(&E.pace, E.pace.insn_ps, E.vcpus, &E.k) != 0) {
        fprintf(stderr, "numaemu: out of memory\n");
        return -1;
    }
    config_json();
    if (E.ctl && start_ctl(E.ctl) != 0)
        return -1;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    if (E.pace.insn_ps)
        qemu_plugin_register_vcpu_resume_cb(id, on_resume);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
