/* rt_mem_cost.c: the memory cost model: migration a + b*pages and access costs, calibrated on this machine and cached per machine. */
#include "rt_mem.h"
#include "rt_mem_int.h"
#include "rt_migrate.h"
#include "rt_util.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Buffers for bandwidth: large enough to leave the caches of these machines
 * (a few MiB of LLC), small enough to keep calibration near 0.1 s. */
#define BW_BYTES (32u << 20)
#define REPS 3

static double measure_memcpy(char *src, char *dst)
{
    double best = 1e30;
    for (int r = 0; r < REPS; r++) {
        double t = now_us();
        memcpy(dst, src, BW_BYTES);
        __asm__ volatile("" ::"r"(dst) : "memory");
        t = now_us() - t;
        if (t < best)
            best = t;
    }
    return BW_BYTES / best;   /* bytes per µs = MB/s */
}

static double measure_read(const char *src)
{
    double best = 1e30;
    const uint64_t *w = (const uint64_t *)src;
    for (int r = 0; r < REPS; r++) {
        uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        double t = now_us();
        for (size_t i = 0; i < BW_BYTES / 8; i += 4)
            s0 += w[i], s1 += w[i + 1], s2 += w[i + 2], s3 += w[i + 3];
        uint64_t s = s0 + s1 + s2 + s3;
        __asm__ volatile("" ::"r"(s));
        t = now_us() - t;
        if (t < best)
            best = t;
    }
    return BW_BYTES / best;
}

static double measure_write(char *dst)
{
    double best = 1e30;
    for (int r = 0; r < REPS; r++) {
        double t = now_us();
        memset(dst, r + 1, BW_BYTES);
        __asm__ volatile("" ::"r"(dst) : "memory");
        t = now_us() - t;
        if (t < best)
            best = t;
    }
    return BW_BYTES / best;
}

/* Dependent loads over a random cycle of cache lines: load-to-use latency. */
static double measure_latency(char *buf)
{
    const size_t line = 64, n = BW_BYTES / line, steps = 100000;
    size_t *order = malloc(sizeof *order * n);
    if (!order)
        return 0;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    uint64_t x = 88172645463325252ull;
    for (size_t i = n - 1; i > 0; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t j = x % (i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        *(void **)(buf + order[i] * line) = buf + order[(i + 1) % n] * line;
    free(order);
    void *p = buf;
    double t = now_us();
    for (size_t i = 0; i < steps; i++)
        p = *(void **)p;
    t = now_us() - t;
    __asm__ volatile("" ::"r"(p));
    return t * 1000.0 / steps;
}

/* Least squares of t = a + b*k. */
static void fit(const double *k, const double *t, int n, double *a, double *b)
{
    double sk = 0, st = 0, skk = 0, skt = 0;
    for (int i = 0; i < n; i++)
        sk += k[i], st += t[i], skk += k[i] * k[i], skt += k[i] * t[i];
    double den = n * skk - sk * sk;
    *b = den != 0 ? (n * skt - sk * st) / den : 0;
    *a = (st - *b * sk) / n;
    if (*a < 0)
        *a = 0;
    if (*b < 0)
        *b = 0;
}

/* us to move the first k pages of buf to node `to` (rt_migrate_timed_ns), -1 when the call failed. */
static double time_move(char *buf, size_t k, int to)
{
    void **pages = malloc(sizeof *pages * k);
    int *status = malloc(sizeof *status * k);
    double t = -1;
    if (pages && status) {
        for (size_t i = 0; i < k; i++)
            pages[i] = buf + i * rt_mem_pagesz;
        t = rt_migrate_timed_ns(pages, (int)k, to, status);
        t = t < 0 ? -1 : t / 1e3;
    }
    free(pages);
    free(status);
    return t;
}

#define CAL_PAGES 512

static void calibrate_migration(rt_mem_model_t *m)
{
    static const size_t ks[] = { 1, 16, 128, CAL_PAGES };
    const int nk = sizeof ks / sizeof ks[0];
    size_t len = CAL_PAGES * rt_mem_pagesz;
    char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED)
        return;
    madvise(buf, len, MADV_NOHUGEPAGE);
    memset(buf, 1, len);
    int here = rt_mem_thread_node(), other = -1;
    for (int n = 0; n < rt_mem_nnodes && other < 0; n++)
        if (n != here && rt_mem_node_valid(n))
            other = n;
    double k[2 * 8], t[2 * 8];
    int np = 0;
    for (int i = 0; i < nk; i++) {
        double best = 1e30;
        /* The minimum of several: move_pages drains the per-CPU LRU lists of
         * every CPU first, which takes milliseconds when another CPU is busy. */
        for (int r = 0; r < 5; r++) {
            /* Two nodes: a real round trip, each leg timed. One node: a move
             * to the pages' own node walks and checks them but copies nothing. */
            double t1 = time_move(buf, ks[i], other >= 0 ? other : here);
            double t2 = other >= 0 ? time_move(buf, ks[i], here) : t1;
            double tt = t1 < t2 ? t1 : t2;
            if (tt >= 0 && tt < best)
                best = tt;
        }
        k[np] = (double)ks[i];
        t[np++] = best;
    }
    munmap(buf, len);
    fit(k, t, np, &m->a_us, &m->b_us);
    m->moved = other >= 0;
    if (!m->moved && m->memcpy_mbs > 0)
        /* No second node to copy to: a migration copies each page once more
         * than the walk measured, at memcpy speed at best. */
        m->b_us += rt_mem_pagesz / m->memcpy_mbs;
}

int rt_mem_calibrate(rt_mem_model_t *m)
{
    rt_mem_init_once();
    memset(m, 0, sizeof *m);
    char *src = mmap(NULL, 2 * (size_t)BW_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (src == MAP_FAILED) {
        errno = ENOMEM;
        return -1;
    }
    char *dst = src + BW_BYTES;
    memset(src, 7, 2 * (size_t)BW_BYTES);
    m->memcpy_mbs = measure_memcpy(src, dst);
    m->read_mbs = measure_read(src);
    m->write_mbs = measure_write(dst);
    m->lat_ns = measure_latency(src);
    munmap(src, 2 * (size_t)BW_BYTES);
    if (rt_mem_numa_ok)
        calibrate_migration(m);
    snprintf(m->source, sizeof m->source, "measured");
    return 0;
}

/* ---------------- cache ---------------- */

/* Identifies the machine the numbers belong to. */
static void machine_key(char *buf, size_t len)
{
    struct utsname u;
    if (uname(&u) != 0)
        memset(&u, 0, sizeof u);
    snprintf(buf, len, "%s %s nodes=%d cpus=%ld page=%zu", u.nodename, u.release,
             rt_mem_nnodes, sysconf(_SC_NPROCESSORS_CONF), rt_mem_pagesz);
}

int rt_mem_cache_path(char *buf, size_t len)
{
    rt_mem_init_once();
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    struct utsname u;
    if (uname(&u) != 0)
        snprintf(u.nodename, sizeof u.nodename, "unknown");
    int n;
    if (xdg && *xdg)
        n = snprintf(buf, len, "%s/ompnuma/memory-model-%s", xdg, u.nodename);
    else if (home && *home)
        n = snprintf(buf, len, "%s/.cache/ompnuma/memory-model-%s", home, u.nodename);
    else {
        errno = ENOENT;
        return -1;
    }
    if (n < 0 || (size_t)n >= len) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/* mkdir -p of the file's directory. */
static void make_parent(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        mkdir(dir, 0755);
        *s = '/';
    }
}

int rt_mem_cache_write(const rt_mem_model_t *m)
{
    char path[4096], key[512], tmp[4200];
    if (rt_mem_cache_path(path, sizeof path) != 0)
        return -1;
    machine_key(key, sizeof key);
    make_parent(path);
    snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "we");
    if (!f)
        return -1;
    fprintf(f, "# ompnuma memory cost model (ompnuma calibrate)\nmachine %s\n", key);
    fprintf(f, "a_us %.6g\nb_us %.6g\nlat_ns %.6g\nread_mbs %.6g\nwrite_mbs %.6g\nmemcpy_mbs %.6g\nmoved %d\n",
            m->a_us, m->b_us, m->lat_ns, m->read_mbs, m->write_mbs, m->memcpy_mbs, m->moved);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

int rt_mem_cache_read(rt_mem_model_t *m)
{
    char path[4096], key[512];
    if (rt_mem_cache_path(path, sizeof path) != 0)
        return -1;
    machine_key(key, sizeof key);
    /* rt_read_file: a regular file of bounded size, never a FIFO to wait on. */
    size_t len;
    char *text = rt_read_file(path, &len);
    if (!text)
        return -1;
    memset(m, 0, sizeof *m);
    int keyok = 0, fields = 0;
    for (char *line = text, *next; *line; line = next) {
        size_t n = strcspn(line, "\n");
        next = line[n] ? line + n + 1 : line + n;
        line[n] = '\0';
        if (!strncmp(line, "machine ", 8))
            keyok = strcmp(line + 8, key) == 0;
        fields += sscanf(line, "a_us %lf", &m->a_us) == 1;
        fields += sscanf(line, "b_us %lf", &m->b_us) == 1;
        fields += sscanf(line, "lat_ns %lf", &m->lat_ns) == 1;
        fields += sscanf(line, "read_mbs %lf", &m->read_mbs) == 1;
        fields += sscanf(line, "write_mbs %lf", &m->write_mbs) == 1;
        fields += sscanf(line, "memcpy_mbs %lf", &m->memcpy_mbs) == 1;
        fields += sscanf(line, "moved %d", &m->moved) == 1;
    }
    free(text);
    /* An edited file's NaN or infinity would come back from the cost queries. */
    if (!keyok || fields != 7 || !isfinite(m->a_us) || !isfinite(m->b_us) || !(m->lat_ns >= 0) ||
        !isfinite(m->lat_ns) || !(m->read_mbs > 0) || !isfinite(m->read_mbs) || !(m->write_mbs > 0) ||
        !isfinite(m->write_mbs) || !(m->memcpy_mbs >= 0) || !isfinite(m->memcpy_mbs) || m->moved < 0) {
        errno = EINVAL;
        return -1;
    }
    snprintf(m->source, sizeof m->source, "cache");
    return 0;
}

static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_mem_model_t model;
static int have_model;

int rt_mem_model(rt_mem_model_t *out)
{
    int rc = 0;
    pthread_mutex_lock(&model_lock);
    if (!have_model) {
        if (rt_mem_cache_read(&model) == 0 || rt_mem_calibrate(&model) == 0)
            have_model = 1;
        else
            rc = -1;
    }
    if (have_model)
        *out = model;
    pthread_mutex_unlock(&model_lock);
    return rc;
}

/* ---------------- costs ---------------- */

static int *dist;   /* [nnodes * nnodes] from sysfs; 10 local, 20 remote when unknown */
static pthread_once_t dist_once = PTHREAD_ONCE_INIT;

static void load_distances(void)
{
    int n = rt_mem_nnodes;
    dist = malloc(sizeof *dist * (size_t)n * (size_t)n);
    if (!dist)
        return;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            dist[i * n + j] = i == j ? 10 : 20;
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d/distance", i);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        for (int j = 0, v; j < n && fscanf(f, "%d", &v) == 1; j++)
            dist[i * n + j] = v;
        fclose(f);
    }
}

static int distance(int from, int to)
{
    pthread_once(&dist_once, load_distances);
    return dist ? dist[from * rt_mem_nnodes + to] : (from == to ? 10 : 20);
}

double rt_mem_cost_migrate(size_t size, int from, int to)
{
    rt_mem_init_once();
    if (size == 0 || !rt_mem_node_valid(from) || !rt_mem_node_valid(to)) {
        errno = EINVAL;
        return -1;
    }
    if (from == to)
        return 0;
    rt_mem_model_t m;
    if (rt_mem_model(&m) != 0)
        return -1;
    double pages = (double)(size / rt_mem_pagesz + (size % rt_mem_pagesz != 0)); /* no wrap near SIZE_MAX */
    return m.a_us + m.b_us * pages;
}

static pthread_once_t trial_once = PTHREAD_ONCE_INIT;
static double trial_page_us = -1; /* the trial's price a page, -1 none */
static int trial_from = -1, trial_to = -1;

static void run_trial(void)
{
    int here = rt_mem_thread_node();
    for (int n = 0; n < rt_mem_nnodes && here >= 0; n++) {
        if (n == here || !rt_mem_node_valid(n))
            continue;
        double ns = rt_migrate_page_ns(here, n);
        if (ns > 0) {
            trial_page_us = ns / 1e3;
            trial_from = here;
            trial_to = n;
        }
        break;
    }
}

int rt_mem_cost_line(double *a_us, double *b_us, char *source, size_t len)
{
    rt_mem_model_t m;
    if (rt_mem_cache_read(&m) == 0) {
        *a_us = m.a_us;
        *b_us = m.b_us;
        snprintf(source, len, "calibrated: %s", m.source);
        return 0;
    }
    rt_mem_init_once();
    if (!rt_mem_numa_ok)
        return -1;
    pthread_once(&trial_once, run_trial);
    if (trial_page_us <= 0)
        return -1;
    *a_us = 0;
    *b_us = trial_page_us;
    snprintf(source, len, "a trial here: %d pages moved from node %d to %d and back, %.1f us a page",
             RT_MIGRATE_TRIAL_PAGES, trial_from, trial_to, trial_page_us);
    return 0;
}

double rt_mem_cost_access(size_t size, int from, int to, int is_write)
{
    rt_mem_init_once();
    if (size == 0 || from < 0 || from >= rt_mem_nnodes || !rt_mem_node_valid(to)) {
        errno = EINVAL;
        return -1;
    }
    rt_mem_model_t m;
    if (rt_mem_model(&m) != 0)
        return -1;
    double local = distance(from, from), ratio = local > 0 ? distance(from, to) / local : 1;
    double bw = is_write ? m.write_mbs : m.read_mbs;   /* bytes per µs */
    return ratio * (m.lat_ns / 1000.0 + (double)size / bw);
}
