/* pagefault-dlopen.c: the program dlopen()s a plugin (this file built with -DPLUGIN) after its first
 * parallel region; inside later regions the plugin read(2)s 64 KiB from a pipe into its own 2 MiB .bss, and
 * the program checks what it read. usage: pagefault-dlopen PLUGIN.so */
#include <unistd.h>
#ifdef PLUGIN
static char buf[2u << 20];
long plugin_read(int fd, long n)
{
    long got = read(fd, buf, n);
    return got <= 0 ? -1 : (long)(unsigned char)buf[got - 1] + 1000 * got;
}
#else
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1u << 20)

int main(int argc, char **argv)
{
    double *a = calloc(N, sizeof *a), sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (unsigned i = 0; i < N; i++)
        sum += a[i];
    void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
    long (*plugin_read)(int, long) = h ? (long (*)(int, long))dlsym(h, "plugin_read") : NULL;
    if (!plugin_read) {
        fprintf(stderr, "pagefault-dlopen: %s\n", dlerror());
        return 2;
    }
    static char data[65536];
    memset(data, 7, sizeof data);
    int bad = 0;
    for (int it = 0; it < 12; it++) {
        int p[2];
        if (pipe(p) != 0 || write(p[1], data, sizeof data) != sizeof data)
            return 3;
#pragma omp parallel reduction(+ : sum)
        {
#pragma omp single
            {
                long r = plugin_read(p[0], sizeof data);
                if (r != 65536L * 1000 + 7) {
                    bad++;
                    printf("execution %d: the plugin's read returned %ld\n", it, r);
                }
            }
#pragma omp for
            for (unsigned i = 0; i < N; i++) {
                a[i] += i;
                sum += a[i];
            }
        }
        close(p[0]);
        close(p[1]);
    }
    printf("sum %g, %d bad reads\n", sum, bad);
    return bad != 0;
}
#endif
