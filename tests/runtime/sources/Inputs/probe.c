/* probe.c: programs that the page sampler must not break, one per mode (argv[1]).
 *   outsider  a plain pthread reads the array while the regions run
 *   blocker   a pthread that blocks every signal reads the array meanwhile
 *   timer     a 5 kHz profiling-timer handler reads the array
 *   mprotect  the program write-protects a page of the array itself inside a
 *             region and repairs it in its own SIGSEGV handler
 *   reporter  a crash reporter (SIGSEGV handler that exits 99, no chaining)
 *             installed after the first region
 *   reserve   a 1 TiB MAP_NORESERVE reservation beside the array
 *   reads     each thread pread(2)s 4 MiB of a file into its half of the
 *             array in every region, and checks length and bytes
 *   longjmp   a SIGSEGV handler installed with SA_NODEFER that leaves by
 *             longjmp (no signal mask saved) catches 200 faults of its own
 *   blockmid  inside a region, thread 0 creates a thread that blocks every
 *             signal and reads the whole array
 *   mremap    inside a region, thread 0 touches a second 8 MiB mapping and
 *             grows it with mremap(MREMAP_MAYMOVE)
 *   ownprot   inside a region, thread 0 write-protects the array and writes
 *             one byte in each of its pages, each repaired by its handler
 * Each prints the same lines as on the stock runtime and exits 0. */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#define N (4u << 20) /* 32 MiB of doubles: tracked by track=anon */

static double *a;
static volatile int stop;
static volatile double sink;

static void *reader(void *arg)
{
    if (arg) {
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, NULL);
    }
    while (!stop)
        for (size_t i = 0; i < N && !stop; i += 512)
            sink += a[i];
    return NULL;
}

static void on_timer(int sig)
{
    static size_t i;
    sink += a[(i += 4096) % N];
}

static char *own_page;
static void on_own_fault(int sig, siginfo_t *si, void *uc)
{
    char *p = si->si_addr;
    if (p >= own_page && p < own_page + 4096) {
        mprotect(own_page, 4096, PROT_READ | PROT_WRITE);
        return;
    }
    _exit(98);
}

static void on_crash(int sig)
{
    _exit(99);
}

static jmp_buf jump;
static void on_fault_jump(int sig)
{
    longjmp(jump, 1);
}

/* ownprot: the pages the program made read-only itself; its handler makes
 * the faulting one writable again and counts it. */
static volatile int own_repairs;
static void on_own_write(int sig, siginfo_t *si, void *uc)
{
    char *p = si->si_addr;
    if (p >= (char *)a && p < (char *)(a + N)) {
        mprotect((void *)((uintptr_t)p & ~(uintptr_t)4095), 4096, PROT_READ | PROT_WRITE);
        own_repairs++;
        return;
    }
    _exit(98);
}

#define READ_BYTES (4u << 20)
static int read_fd = -1;
static volatile int bad_reads;

/* reads: thread t reads the file into a's half t; a short read or a wrong
 * byte is counted. The file holds t's pattern at offset 0 for both. */
static void read_half(int t)
{
    unsigned char *dst = (unsigned char *)a + (size_t)t * (N * sizeof *a / 2);
    ssize_t got = pread(read_fd, dst, READ_BYTES, 0);
    if (got != (ssize_t)READ_BYTES) {
        __atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
        return;
    }
    for (size_t i = 0; i < READ_BYTES; i += 4096)
        if (dst[i] != (unsigned char)(i / 4096 % 64)) {
            __atomic_fetch_add(&bad_reads, 1, __ATOMIC_RELAXED);
            return;
        }
}

static void *blocked_reader(void *arg)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    double s = 0;
    for (size_t i = 0; i < N; i += 512)
        s += a[i];
    sink = s;
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    a = mmap(NULL, N * sizeof *a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!strcmp(mode, "reserve"))
        mmap(NULL, 1ull << 40, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    pthread_t th;
    int thread = !strcmp(mode, "outsider") || !strcmp(mode, "blocker");
    double sum = 0;
#pragma omp parallel for num_threads(2)
    for (size_t i = 0; i < N; i++)
        a[i] = (double)(i % 1000);
    if (thread)
        pthread_create(&th, NULL, reader, !strcmp(mode, "blocker") ? (void *)1 : NULL);
    if (!strcmp(mode, "timer")) {
        signal(SIGPROF, on_timer);
        struct itimerval it = {{0, 200}, {0, 200}};
        setitimer(ITIMER_PROF, &it, NULL);
    }
    if (!strcmp(mode, "reporter"))
        signal(SIGSEGV, on_crash);
    if (!strcmp(mode, "mprotect")) {
        struct sigaction sa = {.sa_sigaction = on_own_fault, .sa_flags = SA_SIGINFO};
        sigaction(SIGSEGV, &sa, NULL);
    }
    if (!strcmp(mode, "ownprot")) {
        struct sigaction sa = {.sa_sigaction = on_own_write, .sa_flags = SA_SIGINFO};
        sigaction(SIGSEGV, &sa, NULL);
    }
    if (!strcmp(mode, "reads")) {
        FILE *f = tmpfile();
        for (size_t i = 0; f && i < READ_BYTES; i += 4096) {
            unsigned char page[4096];
            memset(page, (unsigned char)(i / 4096 % 64), sizeof page); /* finite doubles */
            fwrite(page, 1, sizeof page, f);
        }
        if (!f || fflush(f) != 0)
            return 2;
        read_fd = fileno(f);
    }
    char *b = NULL;
    size_t b_bytes = 8u << 20;
    if (!strcmp(mode, "mremap")) {
        b = mmap(NULL, b_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        memset(b, 1, b_bytes);
    }
    int remapped = 0;
    for (int e = 0; e < 12; e++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        {
            int t = omp_get_thread_num();
            if (t == 0 && e == 5 && !strcmp(mode, "mprotect")) {
                own_page = (char *)a + (16u << 20);
                mprotect(own_page, 4096, PROT_READ);
                /* Faults; the program's handler repairs. The same value: the sum stays the stock one. */
                *(volatile double *)own_page = *(volatile double *)own_page;
            }
            if (t == 0 && e == 1 && !strcmp(mode, "blockmid")) {
                pthread_t blk;
                if (pthread_create(&blk, NULL, blocked_reader, NULL) == 0)
                    pthread_join(blk, NULL);
            }
            if (t == 0 && e == 1 && b) {
                for (size_t i = 0; i < b_bytes; i += 64 * 4096)
                    b[i]++;
                void *grown = mremap(b, b_bytes, 2 * b_bytes, MREMAP_MAYMOVE);
                if (grown != MAP_FAILED) {
                    b = grown;
                    b_bytes *= 2;
                    remapped = 1;
                } else {
                    perror("mremap");
                }
            }
            if (!strcmp(mode, "reads"))
                read_half(t);
#pragma omp for
            for (size_t i = 0; i < N; i++)
                sum += a[i];
            if (t == 0 && e == 1 && !strcmp(mode, "ownprot")) {
                /* After the sweep: pages sampled in this execution were given back. */
                mprotect(a, N * sizeof *a, PROT_READ);
                for (size_t k = 0; k < N * sizeof *a; k += 4096)
                    ((volatile char *)a)[k] = 0;
                mprotect(a, N * sizeof *a, PROT_READ | PROT_WRITE);
            }
        }
    }
    if (!strcmp(mode, "longjmp")) {
        struct sigaction sa = {.sa_handler = on_fault_jump, .sa_flags = SA_NODEFER};
        sigaction(SIGSEGV, &sa, NULL);
        /* A region after it: the sampler installs its dispatcher in front again. */
#pragma omp parallel num_threads(2) reduction(+ : sum)
        sum += a[omp_get_thread_num()];
        volatile int caught = 0;
        for (int k = 0; k < 200; k++)
            if (setjmp(jump) == 0)
                *(volatile int *)(uintptr_t)k = k;
            else
                caught++;
        printf("caught %d\n", caught);
    }
    if (!strcmp(mode, "reads"))
        printf("bad reads %d\n", bad_reads);
    if (!strcmp(mode, "mremap"))
        printf("remapped %d\n", remapped);
    if (!strcmp(mode, "ownprot"))
        printf("repairs %d\n", own_repairs);
    if (!strcmp(mode, "timer")) {
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_PROF, &off, NULL);
    }
    stop = 1;
    if (thread)
        pthread_join(th, NULL);
    printf("sum %.0f\n", sum);
    return 0;
}
