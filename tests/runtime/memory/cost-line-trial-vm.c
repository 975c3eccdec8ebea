// rt_mem_cost_line, the migration price a running program's data moves and bubbles are weighed by: with no
// calibration cached, a 2-node guest prices a page by a trial of its own (16 pages moved between the two
// nodes), the call's cost in it (a = 0); a cached calibration wins over the trial; with one node (this host,
// CI) there is no price (-1: the caller keeps MaMI's line).
// REQUIRES: numa-vm
// ALLOW_RETRIES: 2
// RUN: %clang-omp %s %rt-internals -o %t
// RUN: %numa-vm-run(2x1) --file %t --env XDG_CACHE_HOME=/tmp/cost-line-trial -- %t | FileCheck %s
// RUN: rm -rf %t.cache && env XDG_CACHE_HOME=%t.cache %t host | FileCheck %s --check-prefix=HOST
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rt_mem.h"

int main(int argc, char **argv)
{
    double a = -1, b = -1;
    char source[160] = "", path[4096];
    if (rt_mem_cache_path(path, sizeof path) != 0)
        return 1;
    unlink(path); /* a retry in the same guest starts with no cache again */
    int rc = rt_mem_cost_line(&a, &b, source, sizeof source);
    if (argc > 1) { /* this host: a price only with a second node (CI has one: -1, MaMI's line) */
        printf("nodes %s, rc %d\n", rt_mem_num_nodes() > 1 ? "several" : "one", rc);
        // HOST: {{nodes one, rc -1|nodes several, rc 0}}
        return 0;
    }
    printf("no cache: rc %d, a %g, b > 0 %d, source %s\n", rc, a, b > 0, source);
    // CHECK: no cache: rc 0, a 0, b > 0 1, source a trial here: 16 pages moved from node {{[01]}} to {{[01]}} and back, {{[0-9.]+}} us a page
    if (rc != 0)
        return 0;
    rt_mem_model_t m;
    memset(&m, 0, sizeof m);
    m.a_us = 120, m.b_us = 11, m.read_mbs = m.write_mbs = m.memcpy_mbs = 1000, m.lat_ns = 90;
    if (rt_mem_cache_write(&m) != 0)
        return 1;
    rc = rt_mem_cost_line(&a, &b, source, sizeof source);
    printf("cached: rc %d, a %g, b %g, source %s\n", rc, a, b, source);
    // CHECK-NEXT: cached: rc 0, a 120, b 11, source calibrated: cache
    unlink(path);
    return 0;
}
