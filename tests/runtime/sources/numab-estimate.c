// The numa_balancing source's arithmetic on /proc text: the sched file parsed (recorded on this host, 1 node, and in
// the 2-node VM before and after a thread swept the other node's memory with balancing on), and the estimate of
// faults per node between two readings: decay by scan passes, a lagging thread's fold, migrated pages given back
// to where they were (all to the other node with 2 nodes; in proportion, or evenly, with 4), and the caps.
// RUN: %clang-omp %s %rt-internals -o %t && %t %S/Inputs | FileCheck %s
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_procfs.h"
#include "rt_src_numab.h"

static const char *dir;
static char text[16384];

static rt_numa_faults_t load(const char *name)
{
    char path[1024];
    rt_numa_faults_t f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (rt_procfs_read(path, text, sizeof text) < 0 || rt_numa_faults_parse(text, &f) != 0)
        printf("%s: cannot parse: %s\n", name, strerror(errno));
    return f;
}

static void show(const char *what, const rt_numa_faults_t *f)
{
    printf("%s: nodes %d current %d migrated %llu seq %llu total %llu faults", what, f->nodes, f->current_node,
           (unsigned long long)f->pages_migrated, (unsigned long long)f->scan_seq, (unsigned long long)f->total);
    for (int n = 0; n < f->nodes; n++)
        printf(" %llu", (unsigned long long)f->faults[n]);
    printf("\n");
}

static void estimate(const char *what, const rt_numa_faults_t *a, const rt_numa_faults_t *b, int nodes)
{
    uint64_t est[RT_NUMA_FAULTS_NODES];
    uint64_t total = rt_numab_estimate(a, b, est);
    printf("%s: total %llu per node", what, (unsigned long long)total);
    for (int n = 0; n < nodes; n++)
        printf(" %llu", (unsigned long long)est[n]);
    printf("\n");
}

/* A state in the kernel's format: faults per node (task_private; task_shared 0). */
static rt_numa_faults_t state(int seq, int migrated, int current, int nodes, const unsigned *faults)
{
    size_t n = (size_t)snprintf(text, sizeof text, "x (1, #threads: 2)\nmm->numa_scan_seq : %d\n"
                                "numa_pages_migrated : %d\ntotal_numa_faults : 0\ncurrent_node=%d, numa_group_id=0\n",
                                seq, migrated, current);
    for (int k = 0; k < nodes; k++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              "numa_faults node=%d task_private=%u task_shared=0 group_private=0 group_shared=0\n", k,
                              faults[k]);
    rt_numa_faults_t f;
    rt_numa_faults_parse(text, &f);
    return f;
}

int main(int argc, char **argv)
{
    dir = argc > 1 ? argv[1] : ".";
    rt_numa_faults_t host = load("sched-host-1node.txt");
    show("host", &host);
    // CHECK: host: nodes 1 current 0 migrated 0 seq 0 total 0 faults 0
    rt_numa_faults_t b0 = load("sched-vm-before-thread0.txt"), a0 = load("sched-vm-after-thread0.txt");
    rt_numa_faults_t b1 = load("sched-vm-before-thread1.txt"), a1 = load("sched-vm-after-thread1.txt");
    show("vm thread 0 after", &a0);
    show("vm thread 1 after", &a1);
    // CHECK-NEXT: vm thread 0 after: nodes 2 current 0 migrated 8211 seq 2 total 3322 faults 3322 0
    // CHECK-NEXT: vm thread 1 after: nodes 2 current 1 migrated 8197 seq 2 total 3396 faults 0 3396
    /* The kernel counted every fault on the thread's own node, after migrating the page there: they were remote. */
    estimate("vm thread 0", &b0, &a0, 2);
    estimate("vm thread 1", &b1, &a1, 2);
    // CHECK-NEXT: vm thread 0: total 3322 per node 0 3322
    // CHECK-NEXT: vm thread 1: total 3396 per node 3396 0

    unsigned f1000[] = {1000, 0}, f1500[] = {1500, 0}, f900[] = {900, 0}, f0[] = {0, 0, 0, 0};
    rt_numa_faults_t s5 = state(5, 0, 1, 2, f1000);
    rt_numa_faults_t s6 = state(6, 0, 1, 2, f1500), s7 = state(7, 0, 1, 2, f1500), s8 = state(8, 0, 1, 2, f900);
    rt_numa_faults_t idle = state(8, 300, 1, 2, f1000);
    estimate("one pass", &s5, &s6, 2);       /* 1000 halved, 1000 new */
    estimate("two passes", &s5, &s7, 2);     /* 1000 quartered */
    estimate("three passes", &s5, &s8, 2);   /* 1000 -> 125, 775 new: a lower count is not mistaken for nothing */
    estimate("nothing", &s5, &s5, 2);
    estimate("no fold", &s5, &idle, 2);      /* passes and migrations, counts unchanged: nothing folded yet */
    rt_numa_faults_t lag = state(5, 0, 1, 2, f1500);
    estimate("lagging fold", &s5, &lag, 2);  /* same sequence, values changed: one fold */
    // CHECK-NEXT: one pass: total 1000 per node 1000 0
    // CHECK-NEXT: two passes: total 1250 per node 1250 0
    // CHECK-NEXT: three passes: total 775 per node 775 0
    // CHECK-NEXT: nothing: total 0 per node 0 0
    // CHECK-NEXT: no fold: total 0 per node 0 0
    // CHECK-NEXT: lagging fold: total 1000 per node 1000 0

    /* 4 nodes, thread on node 0: 400 migrated of its 800 local-looking faults go to the other nodes in proportion to
     * their faults (100 : 300), none to node 3 which had none. */
    unsigned four[] = {800, 100, 300, 0};
    rt_numa_faults_t z = state(3, 0, 0, 4, f0), m = state(4, 400, 0, 4, four);
    estimate("4 nodes proportional", &z, &m, 4);
    // CHECK-NEXT: 4 nodes proportional: total 1200 per node 400 200 600 0
    /* Nothing remote seen: evenly over the other three. */
    unsigned only[] = {900, 0, 0, 0};
    rt_numa_faults_t e = state(4, 900, 0, 4, only);
    estimate("4 nodes evenly", &z, &e, 4);
    // CHECK-NEXT: 4 nodes evenly: total 900 per node 0 300 300 300
    /* More migrations than faults (the kernel counts migrations at once, faults at the next pass): capped. */
    rt_numa_faults_t c = state(4, 5000, 0, 4, only);
    estimate("capped", &z, &c, 4);
    // CHECK-NEXT: capped: total 900 per node 0 300 300 300
    /* Two passes: the migrations weigh as much as the faults did on average (3/4). */
    rt_numa_faults_t w = state(5, 400, 0, 4, only);
    estimate("two passes migrated", &z, &w, 4);
    // CHECK-NEXT: two passes migrated: total 900 per node 600 100 100 100

    rt_numa_faults_t none;
    int rc = rt_numa_faults_parse("se.exec_start : 1.0\npolicy : 0\n", &none);
    printf("no numa_faults: rc %d %s\n", rc, errno == EINVAL ? "EINVAL" : "?");
    // CHECK-NEXT: no numa_faults: rc -1 EINVAL
    return 0;
}
