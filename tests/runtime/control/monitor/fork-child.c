// The monitor never runs in a forked child: a child forked once the runtime
// is up but before the first parallel region, and children forked while the monitor steps every
// millisecond (the fork waits for a step in progress, so the child inherits
// no lock held; the locality gate off, remote_min=0, so that it steps without a TNT), run OpenMP regions with no monitor thread and end; the
// parent's monitor goes on and stops at exit. The child's report says it did
// not run; the parent's has the steps. (A child forked before its parent
// used OpenMP at all starts the runtime afresh, like any program.)
// REQUIRES: clang
// RUN: rm -f %t.json %t.json.*
// RUN: %clang-omp %s -o %t
// RUN: %dropin env OMP_PLACEMENT=imar2,period=1,remote_min=0 OMP_PLACEMENT_REPORT=%t.json %t | FileCheck %s
// RUN: %python -c "import glob,json; p=json.load(open('%t.json'))['monitor']; c=[json.load(open(f))['monitor'] for f in glob.glob('%t.json.*')]; print('parent', p['state'], p['steps'] > 0); print('children', len(c), sorted(set((m['state'], m['steps']) for m in c)))" | FileCheck %s --check-prefix=REPORT
// CHECK: early child: monitor threads 0
// CHECK-NEXT: late children: 20 ended, monitor threads in them 0
// CHECK-NEXT: parent: monitor threads 1
// REPORT: parent stopped True
// REPORT-NEXT: children 21 [('not run (forked child)', 0)]
#include <dirent.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int monitor_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d))) {
        char path[300], comm[64] = "";
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = e->d_name[0] != '.' ? fopen(path, "r") : NULL;
        if (f && fgets(comm, sizeof comm, f) && !strncmp(comm, "ompnuma-imar2", 13))
            n++;
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return n;
}

/* A region long enough for a monitor period or two; the primary counts. */
static int team(void)
{
    int seen = 0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma omp parallel num_threads(2)
    {
        do
            clock_gettime(CLOCK_MONOTONIC, &t);
        while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 20000000L);
#pragma omp master
        seen = monitor_threads();
    }
    return seen;
}

int main(void)
{
    /* Brings the OpenMP runtime, and ompnuma with it, up: no region yet. */
    if (omp_get_max_threads() < 1)
        return 1;
    fflush(stdout);
    pid_t early = fork();
    if (early == 0) {
        printf("early child: monitor threads %d\n", team());
        return 0;
    }
    int status, ended = 0, seen = 0;
    waitpid(early, &status, 0);
    team();
    for (int i = 0; i < 20; i++) {
        fflush(stdout);
        pid_t c = fork();
        if (c == 0)
            return team() ? 1 : 0;
        if (waitpid(c, &status, 0) == c && WIFEXITED(status)) {
            ended++;
            seen += WEXITSTATUS(status);
        }
    }
    printf("late children: %d ended, monitor threads in them %d\n", ended, seen);
    printf("parent: monitor threads %d\n", team());
    return 0;
}
