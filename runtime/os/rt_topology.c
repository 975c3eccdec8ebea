/* rt_topology.c: sysfs (this machine), hwloc (this machine, XML or synthetic) or a nodes=N,cores=C spec -> rt_topo_t. */
#include <errno.h>
#include <hwloc.h>
#include <limits.h>
#include <mntent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rt_procfs.h"
#include "rt_topology.h"
#include "rt_util.h"

/* Remote distance assumed when nothing reports one: the common 2-socket SLIT value. */
#define DEFAULT_REMOTE_FACTOR 2.0

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int alloc_nodes(rt_topo_t *t, int nnodes)
{
    t->nnodes = nnodes;
    t->capacity = calloc((size_t)nnodes, sizeof *t->capacity);
    t->os_index = calloc((size_t)nnodes, sizeof *t->os_index);
    t->cpus = calloc((size_t)nnodes, sizeof *t->cpus);
    t->memory = calloc((size_t)nnodes, sizeof *t->memory);
    t->distance = calloc((size_t)nnodes * (size_t)nnodes, sizeof *t->distance);
    return (t->capacity && t->os_index && t->cpus && t->memory && t->distance) ? 0 : -1;
}

/* The per-node arrays alloc_nodes makes, but not the CPU lists cpus[] points to. */
static void free_node_arrays(rt_topo_t *t)
{
    free(t->capacity);
    free(t->os_index);
    free(t->cpus);
    free(t->memory);
    free(t->distance);
}

static void uniform_distances(rt_topo_t *t, double factor)
{
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++)
            t->distance[i * t->nnodes + j] = i == j ? 10.0 : 10.0 * factor;
}

static void derive_factor(rt_topo_t *t)
{
    double local = 0, remote = 0;
    int nl = 0, nr = 0;
    for (int i = 0; i < t->nnodes; i++)
        for (int j = 0; j < t->nnodes; j++) {
            double d = t->distance[i * t->nnodes + j];
            if (i == j) { local += d; nl++; }
            else { remote += d; nr++; }
        }
    t->numa_factor = (nr && local > 0) ? (remote / nr) / (local / nl) : 1.0;
}

/* "nodes=N,cores=C[,factor=F]": identical nodes, CPUs numbered node by node. */
static int load_simple(const char *spec, rt_topo_t *t, char *err, size_t errlen)
{
    long nodes = 0, cores = 0;
    double factor = DEFAULT_REMOTE_FACTOR;
    char buf[256];
    if (strlen(spec) >= sizeof buf)
        return fail(err, errlen, "topology \"%.40s...\": too long", spec);
    strcpy(buf, spec);
    for (char *save, *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *end;
        long *count = !strncmp(item, "nodes=", 6) ? &nodes : !strncmp(item, "cores=", 6) ? &cores : NULL;
        errno = 0;
        if (count) {
            *count = strtol(item + 6, &end, 10);
            if (errno == ERANGE)
                *count = -1; /* beyond a long: out of range like any count too large */
        } else if (!strncmp(item, "factor=", 7)) {
            factor = strtod(item + 7, &end);
        } else {
            return fail(err, errlen, "topology \"%s\": unknown item \"%s\" "
                        "(expected nodes=N,cores=C[,factor=F])", spec, item);
        }
        if (*end)
            return fail(err, errlen, "topology \"%s\": \"%s\" is not a number", spec, item);
    }
    /* Checked as longs, before any narrowing: 2^32 + 2 is not 2. */
    if (nodes < 1 || nodes > RT_TOPO_MAX_NODES || cores < 1 || cores > RT_TOPO_MAX_CORES || !(factor >= 1.0 && factor <= 100.0))
        return fail(err, errlen, "topology \"%s\": needs nodes in 1..%d, cores in 1..%d "
                    "and factor in 1..100", spec, RT_TOPO_MAX_NODES, RT_TOPO_MAX_CORES);
    if (alloc_nodes(t, (int)nodes) != 0)
        return fail(err, errlen, "topology: out of memory");
    for (int n = 0; n < nodes; n++) {
        t->capacity[n] = cores;
        t->os_index[n] = n;
        t->cpus[n] = malloc((size_t)cores * sizeof(int));
        if (!t->cpus[n])
            return fail(err, errlen, "topology: out of memory");
        for (int c = 0; c < cores; c++)
            t->cpus[n][c] = n * cores + c;
    }
    t->ncpus = (int)(nodes * cores);
    uniform_distances(t, factor);
    t->distances_known = 1;
    t->numa_factor = nodes > 1 ? factor : 1.0;
    t->this_system = 0;
    snprintf(t->origin, sizeof t->origin, "%s", spec);
    return 0;
}

/* t->distance as read (SLIT units, or latencies in ns) scaled so that the
 * mean local distance is 10, as the SLIT's is: latencies become ratios. */
static void local_is_10(rt_topo_t *t)
{
    int n = t->nnodes;
    double local = 0;
    for (int i = 0; i < n; i++)
        local += t->distance[i * n + i];
    local /= n;
    for (int i = 0; local > 0 && i < n * n; i++)
        t->distance[i] = 10.0 * t->distance[i] / local;
}

static void hwloc_distances(hwloc_topology_t topo, rt_topo_t *t)
{
    struct hwloc_distances_s *dist = NULL;
    unsigned nr = 1;
    int found = hwloc_distances_get_by_type(topo, HWLOC_OBJ_NUMANODE, &nr, &dist,
                                            HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) == 0 && nr >= 1;
    if (found && dist->nbobjs == (unsigned)t->nnodes) {
        /* hwloc orders objects by its own index; map them to ours by logical index. */
        for (unsigned i = 0; i < dist->nbobjs; i++)
            for (unsigned j = 0; j < dist->nbobjs; j++) {
                int a = (int)dist->objs[i]->logical_index, b = (int)dist->objs[j]->logical_index;
                t->distance[a * t->nnodes + b] = (double)dist->values[i * dist->nbobjs + j];
            }
        local_is_10(t);
        t->distances_known = 1;
    } else {
        uniform_distances(t, DEFAULT_REMOTE_FACTOR);
        t->distances_known = t->nnodes == 1;
    }
    if (found)
        hwloc_distances_release(topo, dist);
}

static int topology_init(hwloc_topology_t *topo);

/*
 * hwloc trusts its XML input: a malformed file can crash it inside
 * hwloc_topology_load (a version-2 file whose objects have no NUMA node
 * dies of SIGSEGV in hwloc 2.9), and that would kill a program that runs on
 * the stock runtime, which never reads the file. So an XML file is first
 * loaded by a child process; this process loads it only when the child did
 * not crash. The child comes from _Fork, which runs no atfork
 * handler (libomp's waits for the lock its own start-up holds while this
 * runs: fork() never returned); its core dump is off. It is waited for by
 * its pid, at most CHILD_WAIT_MS: a child stuck on a lock another thread held
 * at the fork is killed. Returns why the file is unfit, or NULL (also when
 * the check cannot tell: the load then goes ahead as without it).
 */
#define CHILD_WAIT_MS 10000
#define REFUSED 3  /* the child's exit status when hwloc refused the file without crashing */

static const char *xml_crashes(const char *path)
{
    static char why[96];
    pid_t pid = _Fork();
    if (pid == 0) {
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        hwloc_topology_t topo;
        int ok = topology_init(&topo) == 0 && hwloc_topology_set_xml(topo, path) == 0 &&
                 hwloc_topology_load(topo) == 0;
        _exit(ok ? 0 : REFUSED);
    }
    int status = 0;
    pid_t done = 0;
    for (int ms = 0; pid > 0 && done == 0 && ms <= CHILD_WAIT_MS; ms++) {
        done = waitpid(pid, &status, WNOHANG);
        if (done < 0 && errno == EINTR)
            done = 0;
        if (done == 0)
            nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    if (pid > 0 && done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return NULL;
    }
    if (done <= 0 || (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == REFUSED)))
        return NULL;
    /* Died of a signal, or exited otherwise (a sanitizer's report of the crash exits 1). */
    if (WIFSIGNALED(status))
        snprintf(why, sizeof why, "hwloc crashed reading it (signal %d, in a child process)", WTERMSIG(status));
    else
        snprintf(why, sizeof why, "hwloc crashed reading it (exit status %d, in a child process)", WEXITSTATUS(status));
    return why;
}

/* An XML file hwloc will read must be a regular file of bounded size: hwloc
 * reads a device or FIFO (/dev/zero) forever. It must not crash hwloc either
 * (xml_crashes). NULL when it is fit. */
static const char *xml_unfit(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return NULL; /* hwloc says what is wrong with a missing file */
    int err = rt_file_unfit(&st);
    return err == EISDIR ? "a directory, not an hwloc XML file" : err ? rt_read_file_error(err) : xml_crashes(path);
}

/*
 * hwloc_topology_init loads every installed hwloc plugin (PCI, OpenCL,
 * OpenGL, libxml2 on Debian): about 8 million instructions of dynamic
 * loading and relocation, the largest part of a program's start-up cost
 * under ompnuma. None of them changes what is read here: hwloc's default
 * filters drop the I/O objects they add, and hwloc parses XML without
 * libxml2. hwloc reads HWLOC_PLUGINS_PATH once, in hwloc_topology_init
 * (when no other topology is alive); an empty path loads no plugin. It is
 * set for that call only, unless the user set one (libomp too sets and
 * removes a variable of its own while it starts).
 *
 * The topology never moves the calling thread. hwloc's x86 backend binds it
 * to every CPU in turn to read each one's cpuid (CPU models and caches,
 * nothing read here), and this runs on the program's primary thread at its
 * first OpenMP construct: whatever it first-touched meanwhile (its deeper
 * stack pages, heap that malloc hands the program later) landed on
 * whichever node it ran on. In the paced 4-node VM, NPB MG's primary then
 * read three pages of its own stack on node 3 for the rest of the run: 23
 * remote misses in its timed phase, where `off` had none.
 */
static int topology_init(hwloc_topology_t *topo)
{
    static const char var[] = "HWLOC_PLUGINS_PATH";
    int set = !getenv(var) && setenv(var, "", 0) == 0;
    int rc = hwloc_topology_init(topo), e = errno;
    if (set)
        unsetenv(var);
    if (rc == 0 && hwloc_topology_set_flags(*topo, HWLOC_TOPOLOGY_FLAG_DONT_CHANGE_BINDING) != 0) {
        e = errno;
        hwloc_topology_destroy(*topo);
        rc = -1;
    }
    errno = e;
    return rc;
}

/*
 * hwloc builds a synthetic topology in a time that grows much faster than
 * its size (hwloc-info on this project's machine: 1 024 NUMA nodes 0.14 s,
 * 2 000 0.7 s, 4 096 5 s; 4 096 CPUs 0.1-0.2 s, 16 384 CPUs 3-13 s), for a
 * variable the stock runtime never reads. So a description's size is
 * counted before hwloc builds it, and one beyond these bounds is refused.
 */
#define SYNTHETIC_MAX_NODES 1024
#define SYNTHETIC_MAX_CPUS 8192

/*
 * The NUMA nodes and CPUs a synthetic description makes: its levels are
 * "type:count" (attributes in parentheses after it), a memory child
 * "[numa...]" comes under each object of the level before it; the CPUs are
 * the product of the counts, the nodes that product down to a numa level,
 * or one per object under a memory child (at least one). Whatever this
 * misreads, hwloc refuses or builds as it would have. NULL when it fits,
 * else why not (in why).
 */
static const char *synthetic_too_large(const char *s, char *why, size_t len)
{
    double objs = 1, nodes = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        const char *tok = s, *colon = NULL;
        int depth = 0;
        for (; *s && (depth || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
            if (*s == '(')
                depth++;
            else if (*s == ')' && depth)
                depth--;
            else if (*s == ':' && !depth && !colon)
                colon = s;
        }
        if (s == tok)
            break;
        int memory = *tok == '[';
        const char *name = tok + memory;
        int numa = !strncasecmp(name, "numa", 4) || !strncasecmp(name, "node", 4);
        double count = colon ? strtod(colon + 1, NULL) : 1;
        if (!(count >= 1))
            count = 1;
        if (memory) {
            nodes += numa ? objs * count : 0;
            continue;
        }
        objs *= count;
        if (numa)
            nodes = objs;
    }
    if (nodes > SYNTHETIC_MAX_NODES)
        snprintf(why, len, "%.0f NUMA nodes, more than %d", nodes, SYNTHETIC_MAX_NODES);
    else if (objs > SYNTHETIC_MAX_CPUS)
        snprintf(why, len, "%.0f CPUs, more than %d", objs, SYNTHETIC_MAX_CPUS);
    else
        return NULL;
    return why;
}

/*
 * This machine, read from sysfs where hwloc's Linux discovery reads it, but
 * only what rt_topo_t holds: the online nodes the process's cpuset allows,
 * each one's CPUs (those the cpuset allows), memory and distances. hwloc
 * also reads every CPU's topology, caches and frequencies, the memory
 * attributes and DMI: in the paced 2-node VM its load took 520-780 ms of
 * model time (2-3 M guest instructions, most of them the guest kernel's) at the
 * program's first region, which the drop-in with OMP_PLACEMENT=off never
 * pays (IQ-TREE 16 x 200: 1.021 of off, benchmarks/README.md). The cpuset
 * is found as hwloc finds it: the first mount in /proc/mounts that holds
 * cpusets (a cgroup v1 hierarchy with the cpuset controller, the legacy
 * cpuset file system, or a v2 hierarchy whose root lists the controller);
 * the process's cpuset in /proc/self/cpuset (v2: the nearest cgroup with
 * the controller), else /proc/self/cgroup; then its cpus and mems files
 * (v2: cpuset.cpus.effective and cpuset.mems.effective), a file that is not
 * there restricting nothing. Anything else (no node directory, a file that
 * cannot be read or parsed, a node without memory, a CPU in two nodes, an
 * HWLOC_ variable that steers hwloc, NVIDIA's GPU memory nodes): 1, and
 * hwloc reads the machine.
 */
#define SYSFS_NODE "/sys/devices/system/node"
#define SYSFS_BUF (64 << 10)

typedef struct sysfs_read {
    char *buf;       /* SYSFS_BUF bytes */
    int  *list;      /* a parsed list, up to cap members */
    long  cap;
} sysfs_read_t;

/* The members of the list in path, or -1 (unreadable, malformed, longer than cap). */
static long read_list(sysfs_read_t *r, const char *path)
{
    if (rt_procfs_read(path, r->buf, SYSFS_BUF) < 0)
        return -1;
    long n = rt_kernel_list(r->buf, r->list, r->cap);
    return n <= r->cap ? n : -1;
}

/* Whether an HWLOC_ variable (but the plugins' path) asks hwloc for something. */
static int hwloc_steered(void)
{
    extern char **environ;
    for (char **e = environ; e && *e; e++)
        if (!strncmp(*e, "HWLOC_", 6) && strncmp(*e, "HWLOC_PLUGINS_PATH=", 19))
            return 1;
    return 0;
}

/* How a cpuset's files are named under its mount (as hwloc names them):
 * cgroup v2 "cpuset.cpus.effective" (the ancestors' masks applied), v1
 * "cpuset.cpus", the legacy cpuset file system and a v1 mount with the
 * noprefix option "cpus". */
enum { CPUSET_NONE = -1, CPUSET_CANNOT_TELL = -2, CPUSET_V2 = 0, CPUSET_V1, CPUSET_LEGACY };

/* Whether a mount's options (or a v2 mount's controllers) name `word`, in
 * the list `s` of words separated by any of `seps`. */
static int names(const char *s, const char *seps, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = s; *p; p += strcspn(p, seps), p += *p != 0)
        if (!strncmp(p, word, n) && (!p[n] || strchr(seps, p[n])))
            return 1;
    return 0;
}

/* The first mount in /proc/mounts that holds cpusets (a v2 hierarchy only
 * when its root lists the cpuset controller), its directory into dir (the
 * escapes of /proc/mounts decoded); its kind, CPUSET_NONE, or
 * CPUSET_CANNOT_TELL. */
static int cpuset_mount(sysfs_read_t *r, char *dir, size_t len)
{
    FILE *f = setmntent("/proc/mounts", "re");
    if (!f)
        return CPUSET_CANNOT_TELL;
    struct mntent m;
    int kind = CPUSET_NONE;
    while (kind == CPUSET_NONE && getmntent_r(f, &m, r->buf, SYSFS_BUF)) {
        if (!strcmp(m.mnt_type, "cgroup2")) {
            char path[PATH_MAX + 32];
            snprintf(path, sizeof path, "%s/cgroup.controllers", m.mnt_dir);
            char ctl[1024];
            if (rt_procfs_read(path, ctl, sizeof ctl) > 0 && names(ctl, " \n", "cpuset"))
                kind = CPUSET_V2;
        } else if (!strcmp(m.mnt_type, "cpuset")) {
            kind = CPUSET_LEGACY;
        } else if (!strcmp(m.mnt_type, "cgroup") && names(m.mnt_opts, ",", "cpuset")) {
            kind = names(m.mnt_opts, ",", "noprefix") ? CPUSET_LEGACY : CPUSET_V1;
        }
        if (kind != CPUSET_NONE && (size_t)snprintf(dir, len, "%s", m.mnt_dir) >= len)
            kind = CPUSET_CANNOT_TELL;
    }
    endmntent(f);
    return kind;
}

/* The directory of the process's cpuset into dir: the mount's directory and
 * the path /proc/self/cpuset names (cgroup v2: the nearest cgroup with the
 * cpuset controller), else the first line of /proc/self/cgroup for a v1
 * cpuset hierarchy or the v2 one. Its kind (cpuset_mount), CPUSET_NONE when
 * nothing restricts the process. */
static int cpuset_dir(sysfs_read_t *r, char *dir, size_t len)
{
    char mnt[PATH_MAX];
    int kind = cpuset_mount(r, mnt, sizeof mnt);
    if (kind < 0)
        return kind;
    const char *path = NULL;
    if (rt_procfs_read("/proc/self/cpuset", r->buf, SYSFS_BUF) > 0 && r->buf[0] == '/') {
        path = r->buf;
    } else if (rt_procfs_read("/proc/self/cgroup", r->buf, SYSFS_BUF) >= 0) {
        /* Lines "ID:CONTROLLERS:PATH": a v1 hierarchy with cpuset among its controllers, or v2's "0::PATH". */
        for (char *save, *line = strtok_r(r->buf, "\n", &save); line && !path;
             line = strtok_r(NULL, "\n", &save)) {
            char *colon = strchr(line, ':');
            if (colon && !strncmp(colon, ":cpuset:", 8))
                path = colon + 8;
            else if (colon && !strncmp(colon, "::", 2))
                path = colon + 2;
        }
    } else {
        return CPUSET_CANNOT_TELL;
    }
    if (!path)
        return CPUSET_NONE;
    size_t n = strcspn(path, "\n");
    int w = snprintf(dir, len, "%s%.*s", mnt, (int)n, path);
    return w > 0 && (size_t)w < len ? kind : CPUSET_CANNOT_TELL;
}

/* The map over 0..n-1 in allowed (1: allowed) narrowed to the cpuset's
 * CPUs or nodes (what: "cpus", "mems"), left as it is when the cpuset has
 * no such file; 0, or -1 when the file says what cannot be read. */
static int cpuset_allows(sysfs_read_t *r, const char *dir, int kind, const char *what, unsigned char *allowed,
                         int n)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s%s%s", dir, kind == CPUSET_LEGACY ? "" : "cpuset.", what,
             kind == CPUSET_V2 ? ".effective" : "");
    if (access(path, F_OK) != 0)
        return 0;
    long k = read_list(r, path);
    if (k < 0)
        return -1;
    for (long i = 0; i < k; i++) /* allowed and listed: marked, then kept */
        if (r->list[i] < n && allowed[r->list[i]])
            allowed[r->list[i]] = 2;
    for (int i = 0; i < n; i++)
        allowed[i] = allowed[i] == 2;
    return 0;
}

/* A node's distances to every online node (its distance file), in the
 * order of online[]; 0 or -1. */
static int node_distances(sysfs_read_t *r, int os, double *row, long nonline)
{
    char path[96];
    snprintf(path, sizeof path, SYSFS_NODE "/node%d/distance", os);
    if (rt_procfs_read(path, r->buf, SYSFS_BUF) < 0)
        return -1;
    char *s = r->buf, *e;
    for (long j = 0; j < nonline; j++, s = e) {
        long d = strtol(s, &e, 10);
        if (e == s || d <= 0)
            return -1;
        row[j] = (double)d;
    }
    return 0;
}

/* Node numbers beyond this are not read from sysfs (the kernel's own limit
 * is 1024): hwloc reads such a machine. */
#define SYSFS_MAX_NODE_ID 65535

static int load_sysfs(rt_topo_t *t)
{
    /* NVIDIA's driver lists the nodes of GPU memory (Grace Hopper), which
     * hwloc leaves out, or keeps on HWLOC_KEEP_NVIDIA_GPU_NUMA_NODES with
     * the GPU's CPUs: hwloc reads such a machine. */
    if (hwloc_steered() || access("/proc/driver/nvidia/gpus", F_OK) == 0)
        return 1;
    long conf = sysconf(_SC_NPROCESSORS_CONF);
    sysfs_read_t r = {malloc(SYSFS_BUF), NULL, (conf > 8192 ? conf : 8192) + 1};
    r.list = malloc((size_t)r.cap * sizeof *r.list);
    int *online = NULL, *keep = NULL, rc = 1;
    unsigned char *cpu_ok = NULL, *node_ok = NULL;
    double *dist = NULL;
    long nonline, ncpu = 0;
    /* The online CPUs (a node's cpulist may still name one going offline),
     * and the bound of CPU numbers. */
    long k = r.buf && r.list ? read_list(&r, "/sys/devices/system/cpu/online") : -1;
    for (long i = 0; i < k; i++)
        ncpu = r.list[i] + 1 > ncpu ? r.list[i] + 1 : ncpu;
    if (k < 1 || !(cpu_ok = calloc((size_t)ncpu, 1)))
        goto out;
    for (long i = 0; i < k; i++)
        cpu_ok[r.list[i]] = 1;
    if ((nonline = read_list(&r, SYSFS_NODE "/online")) < 1 || nonline > RT_TOPO_MAX_NODES ||
        r.list[nonline - 1] > SYSFS_MAX_NODE_ID)
        goto out;
    online = malloc((size_t)nonline * sizeof *online);
    keep = malloc((size_t)nonline * sizeof *keep);
    dist = malloc((size_t)nonline * (size_t)nonline * sizeof *dist);
    int maxnode = r.list[nonline - 1];
    node_ok = malloc((size_t)maxnode + 1);
    if (!online || !keep || !dist || !node_ok)
        goto out;
    memcpy(online, r.list, (size_t)nonline * sizeof *online);
    memset(node_ok, 1, (size_t)maxnode + 1);
    char dir[PATH_MAX];
    int kind = cpuset_dir(&r, dir, sizeof dir);
    if (kind == CPUSET_CANNOT_TELL ||
        (kind >= 0 && (cpuset_allows(&r, dir, kind, "cpus", cpu_ok, (int)ncpu) != 0 ||
                       cpuset_allows(&r, dir, kind, "mems", node_ok, maxnode + 1) != 0)))
        goto out;
    int nnodes = 0;
    for (long i = 0; i < nonline; i++)
        if (node_ok[online[i]])
            keep[nnodes++] = (int)i;
    if (nnodes < 1 || alloc_nodes(t, nnodes) != 0)
        goto out;
    for (int n = 0; n < nnodes; n++) {
        int os = online[keep[n]];
        char path[96];
        snprintf(path, sizeof path, SYSFS_NODE "/node%d/meminfo", os);
        unsigned long long kib = 0;
        const char *total;
        if (rt_procfs_read(path, r.buf, SYSFS_BUF) < 0 || !(total = strstr(r.buf, "MemTotal:")) ||
            sscanf(total, "MemTotal: %llu kB", &kib) != 1 || kib == 0)
            goto out;
        t->os_index[n] = os;
        t->memory[n] = (uint64_t)kib << 10;
        snprintf(path, sizeof path, SYSFS_NODE "/node%d/cpulist", os);
        long nc = read_list(&r, path);
        if (nc < 0 || node_distances(&r, os, dist + keep[n] * nonline, nonline) != 0)
            goto out;
        t->cpus[n] = malloc((size_t)(nc ? nc : 1) * sizeof(int));
        if (!t->cpus[n])
            goto out;
        for (long i = 0; i < nc; i++) {
            if (r.list[i] >= ncpu || !cpu_ok[r.list[i]])
                continue;
            if (cpu_ok[r.list[i]] == 2) /* in two nodes' lists: not Linux as hwloc knows it */
                goto out;
            cpu_ok[r.list[i]] = 2;
            t->cpus[n][t->capacity[n]++] = r.list[i];
        }
        t->ncpus += t->capacity[n];
    }
    for (int i = 0; i < nnodes; i++)
        for (int j = 0; j < nnodes; j++)
            t->distance[i * nnodes + j] = dist[keep[i] * nonline + keep[j]];
    local_is_10(t);
    t->distances_known = 1;
    t->this_system = 1;
    snprintf(t->origin, sizeof t->origin, "this system");
    derive_factor(t);
    rc = 0;
out:
    if (rc != 0)
        rt_topo_free(t);
    free(r.buf);
    free(r.list);
    free(online);
    free(keep);
    free(dist);
    free(cpu_ok);
    free(node_ok);
    return rc;
}

static int load_hwloc(const char *spec, rt_topo_t *t, char *err, size_t errlen)
{
    hwloc_topology_t topo;
    struct stat st;
    const char *xml = getenv("HWLOC_XMLFILE"), *syn = getenv("HWLOC_SYNTHETIC"), *why;
    /* A spec naming a file is XML, anything else a synthetic description. */
    int spec_file = spec && *spec && stat(spec, &st) == 0;
    if (spec_file && (why = xml_unfit(spec)))
        return fail(err, errlen, "topology \"%s\": %s", spec, why);
    if (!(spec && *spec) && !(syn && *syn) && xml && *xml && (why = xml_unfit(xml)))
        return fail(err, errlen, "HWLOC_XMLFILE \"%s\": %s", xml, why);
    char size[96];
    if (spec && *spec && !spec_file && (why = synthetic_too_large(spec, size, sizeof size)))
        return fail(err, errlen, "topology \"%s\": %s", spec, why);
    if (!(spec && *spec) && syn && *syn && (why = synthetic_too_large(syn, size, sizeof size)))
        return fail(err, errlen, "HWLOC_SYNTHETIC \"%s\": %s", syn, why);
    if (topology_init(&topo) != 0)
        return fail(err, errlen, "hwloc: cannot initialise: %s", strerror(errno));
    int rc = 0;
    if (spec && *spec) {
        if (spec_file) {
            rc = hwloc_topology_set_xml(topo, spec);
            snprintf(t->origin, sizeof t->origin, "xml: %s", spec);
        } else {
            rc = hwloc_topology_set_synthetic(topo, spec);
            snprintf(t->origin, sizeof t->origin, "synthetic: %s", spec);
        }
        if (rc != 0) {
            hwloc_topology_destroy(topo);
            return fail(err, errlen, "topology \"%s\": neither a readable hwloc XML file nor a "
                        "valid hwloc synthetic description (%s)", spec, strerror(errno));
        }
    } else {
        if (syn && *syn)
            snprintf(t->origin, sizeof t->origin, "synthetic: %s", syn);
        else if (xml && *xml)
            snprintf(t->origin, sizeof t->origin, "xml: %s", xml);
        else
            snprintf(t->origin, sizeof t->origin, "this system");
    }
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        /* Named as the input was: a file given, the environment's, or this machine. */
        if (spec && *spec)
            return fail(err, errlen, "topology \"%s\": hwloc cannot load it: %s", spec, strerror(errno));
        if ((syn && *syn) || (xml && *xml))
            return fail(err, errlen, "%s \"%s\": hwloc cannot load it: %s", syn && *syn ? "HWLOC_SYNTHETIC" :
                        "HWLOC_XMLFILE", syn && *syn ? syn : xml, strerror(errno));
        return fail(err, errlen, "hwloc cannot load this machine's topology: %s", strerror(errno));
    }
    t->this_system = hwloc_topology_is_thissystem(topo);

    int nnodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    if (nnodes < 1) {
        hwloc_topology_destroy(topo);
        return fail(err, errlen, "hwloc: the topology has no NUMA node");
    }
    if (alloc_nodes(t, nnodes) != 0) {
        hwloc_topology_destroy(topo);
        return fail(err, errlen, "topology: out of memory");
    }
    for (int n = 0; n < nnodes; n++) {
        hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)n);
        t->os_index[n] = (int)node->os_index;
        t->memory[n] = node->attr ? node->attr->numanode.local_memory : 0;
        int count = node->cpuset ? hwloc_bitmap_weight(node->cpuset) : 0;
        if (count < 0)
            count = 0;
        t->capacity[n] = count;
        t->cpus[n] = malloc((size_t)(count ? count : 1) * sizeof(int));
        if (!t->cpus[n]) {
            hwloc_topology_destroy(topo);
            return fail(err, errlen, "topology: out of memory");
        }
        int k = 0;
        unsigned cpu;
        hwloc_bitmap_foreach_begin(cpu, node->cpuset) {
            t->cpus[n][k++] = (int)cpu;
        } hwloc_bitmap_foreach_end();
        t->ncpus += count;
    }
    hwloc_distances(topo, t);
    derive_factor(t);
    hwloc_topology_destroy(topo);
    return 0;
}

/* Node i's place in the canonical order (canonical_nodes): its first CPU,
 * the memory-only ones after every CPU by kernel number. */
static long node_rank(const rt_topo_t *t, int i)
{
    return t->capacity[i] ? t->cpus[i][0] : (long)INT_MAX + 1 + t->os_index[i];
}

/*
 * One order of nodes and one owner per CPU, whichever reader gave them:
 * hwloc gives a memory-only node (CXL, PMEM, HBM) the CPUs of its HMAT
 * initiator or of its nearest node, and lists it right after that node,
 * where sysfs lists no CPU for it and numbers nodes as the kernel does.
 * A CPU belongs to the first node that lists it (hwloc lists the nodes
 * with CPUs of their own first in a shared locality), a node without CPUs
 * of its own holds memory only (capacity 0: no thread is placed on it,
 * its memory is remote to every CPU); nodes are ordered by their first CPU,
 * then the memory-only ones by kernel number. -1 when out of memory.
 */
static int canonical_nodes(rt_topo_t *t)
{
    int n = t->nnodes, maxcpu = -1;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < t->capacity[i]; c++)
            maxcpu = t->cpus[i][c] > maxcpu ? t->cpus[i][c] : maxcpu;
    rt_topo_t o = *t; /* the nodes in order; the rest as it is */
    int alloc = alloc_nodes(&o, n); /* new arrays, the CPU lists moved over below */
    unsigned char *owned = calloc((size_t)maxcpu + 2, 1);
    int *order = malloc((size_t)n * sizeof *order);
    if (alloc != 0 || !owned || !order) {
        free_node_arrays(&o);
        free(owned);
        free(order);
        return -1;
    }
    o.ncpus = 0;
    for (int i = 0; i < n; i++) {
        int k = 0;
        for (int c = 0; c < t->capacity[i]; c++)
            if (!owned[t->cpus[i][c]]) {
                owned[t->cpus[i][c]] = 1;
                t->cpus[i][k++] = t->cpus[i][c];
            }
        t->capacity[i] = k;
        o.ncpus += k;
    }
    for (int i = 0; i < n; i++) { /* insertion sort by node_rank */
        int j = i;
        for (; j > 0 && node_rank(t, order[j - 1]) > node_rank(t, i); j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    for (int i = 0; i < n; i++) {
        int from = order[i];
        o.capacity[i] = t->capacity[from];
        o.os_index[i] = t->os_index[from];
        o.cpus[i] = t->cpus[from];
        o.memory[i] = t->memory[from];
        for (int j = 0; j < n; j++)
            o.distance[i * n + j] = t->distance[from * n + order[j]];
    }
    free_node_arrays(t);
    *t = o;
    free(owned);
    free(order);
    return 0;
}

int rt_topo_load(const char *spec, rt_topo_t *topo, char *err, size_t errlen)
{
    memset(topo, 0, sizeof *topo);
    int rc = (spec && !strncmp(spec, "nodes=", 6)) ? load_simple(spec, topo, err, errlen)
             : (spec && *spec) || load_sysfs(topo) != 0 ? load_hwloc(spec, topo, err, errlen)
                                                          : 0;
    if (rc == 0 && canonical_nodes(topo) != 0)
        rc = fail(err, errlen, "topology: out of memory");
    if (rc != 0)
        rt_topo_free(topo);
    return rc;
}

void rt_topo_free(rt_topo_t *t)
{
    if (t->cpus)
        for (int n = 0; n < t->nnodes; n++)
            free(t->cpus[n]);
    free_node_arrays(t);
    memset(t, 0, sizeof *t);
}

void rt_topo_as_pl(const rt_topo_t *t, pl_topo_t *out)
{
    out->nnodes = t->nnodes;
    out->capacity = t->capacity;
    out->distance = t->distance;
    out->numa_factor = t->numa_factor;
}

int rt_topo_node_of_os(const rt_topo_t *t, int os_node)
{
    for (int n = 0; n < t->nnodes; n++)
        if (t->os_index[n] == os_node)
            return n;
    return -1;
}

int rt_topo_node_of_cpu(const rt_topo_t *t, int cpu)
{
    for (int n = 0; n < t->nnodes; n++)
        for (int c = 0; c < t->capacity[n]; c++)
            if (t->cpus[n][c] == cpu)
                return n;
    return -1;
}

static rt_machine_t machine;
const rt_machine_t *const rt_mach = &machine;

int rt_machine_init(const char *spec, double numa_factor)
{
    if (machine.ok)
        return 0;
    rt_topo_t topo;
    if (rt_topo_load(spec, &topo, machine.error, sizeof machine.error) != 0) {
        errno = ENOENT;
        return -1;
    }
    rt_machine_adopt(&topo, numa_factor);
    return 0;
}

void rt_machine_adopt(rt_topo_t *topo, double numa_factor)
{
    machine.topo = *topo;
    rt_topo_as_pl(&machine.topo, &machine.pl);
    machine.pl.numa_factor = numa_factor > 0 ? numa_factor : pl_numa_factor(&machine.pl);
    machine.ok = 1;
}
