/* long-region.c: one long parallel region per (seconds, threads) pair on the command line, counting the runtime's monitor threads while the first runs. */
#include <dirent.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monotonic.h"

/* Threads of this process, and those whose name is the IMAR2 monitor's. */
static int monitor_threads(int *all)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        char path[300], comm[64] = "";
        if (e->d_name[0] == '.')
            continue;
        ++*all;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f && fgets(comm, sizeof comm, f) && !strncmp(comm, "ompnuma-imar2", 13))
            n++;
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return n;
}

#define N (1 << 15)
static double a[N];

int main(int argc, char **argv)
{
    int seen = -1, all = 0, after = 0;
    for (int arg = 1; arg + 1 < argc; arg += 2) {
        double secs = atof(argv[arg]), t0 = now();
        int threads = atoi(argv[arg + 1]), go = 1;
        long chunks = 0;
#pragma omp parallel num_threads(threads) reduction(+ : chunks)
        while (go) {
#pragma omp for schedule(dynamic, 256)
            for (int i = 0; i < N; i++)
                a[i] = a[i] * 0.5 + i;
            chunks++;
#pragma omp single
            {
                go = now() - t0 < secs;
                if (seen < 0 && now() - t0 > secs / 2)
                    seen = monitor_threads(&all);
            }
        }
        printf("region of %d threads: %s\n", threads, chunks > 0 ? "ran" : "did not run");
    }
    printf("monitor threads while the first region ran: %d of %d\n", seen, all);
    printf("monitor threads after: %d\n", monitor_threads(&after));
    return 0;
}
