// csv-sum-overflow.c: a TNT whose counts add up beyond 2^64-1 is refused by pl_csv_parse with the line where the sum overflows, in any table; 2^64-1 exactly is accepted; pl_locality answers -EOVERFLOW instead of wrapping.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
// RUN: printf '18446744073709551615,1\n1,18446744073709551615\n' > %t.csv
// RUN: sh -c '%ompnuma place --topology nodes=2,cores=2 --tnt %t.csv 2>&1; echo "exit $?"' | FileCheck %s --check-prefix=CLI
// CLI: {{^}}ompnuma place: {{.*}}.csv: line 1: the counts of the table add up to more than 2^64-1; their totals would wrap{{$}}
// CLI-NEXT: {{^}}exit 2{{$}}
#include <string.h>
#include "pl_test.h"

static void parse(const char *what, const char *text)
{
    char err[200];
    size_t ncells = 0;
    int n = pl_csv_parse(text, strlen(text), NULL, 0, NULL, 0, &ncells, err, sizeof err);
    if (n < 0)
        printf("%s: error %s: %s\n", what, n == -EINVAL ? "EINVAL" : "other", err);
    else
        printf("%s: %d tables, %zu cells\n", what, n, ncells);
}

int main(void)
{
    parse("one row", "18446744073709551615,1\n");
    // CHECK: one row: error EINVAL: line 1: the counts of the table add up to more than 2^64-1; their totals would wrap
    parse("two rows", "9223372036854775808,0\n0,9223372036854775808\n");
    // CHECK: two rows: error EINVAL: line 2: the counts of the table add up to more than 2^64-1; their totals would wrap
    parse("exactly the largest", "9223372036854775808,0\n0,9223372036854775807\n");
    // CHECK: exactly the largest: 1 tables, 4 cells
    parse("region", "1,2\n# region hot\n18446744073709551615,0\n0,1\n");
    // CHECK: region: error EINVAL: line 4: the counts of region 'hot' add up to more than 2^64-1; their totals would wrap
    // Each table has its own total: two tables at the limit are fine.
    parse("per table", "18446744073709551615\n# region a\n18446744073709551615\n");
    // CHECK: per table: 2 tables, 2 cells

    // A TNT built in memory (not through the parser): the totals overflow.
    uint64_t refs[4] = {UINT64_MAX, 1, 1, UINT64_MAX};
    pl_tnt_t tnt = {2, 2, refs};
    int node[2] = {0, 1}, core[2] = {0, 0};
    pl_mapping_t map = {2, node, core};
    uint64_t loc = 0, rem = 0;
    int rc = pl_locality(&tnt, &map, &loc, &rem);
    printf("pl_locality: %s\n", rc == -EOVERFLOW ? "EOVERFLOW" : "wrapped");
    // CHECK: pl_locality: EOVERFLOW
    refs[3] = UINT64_MAX - 1;
    refs[0] = 0;
    rc = pl_locality(&tnt, &map, &loc, &rem);
    printf("pl_locality: rc %d local %llu remote %llu\n", rc, (unsigned long long)loc, (unsigned long long)rem);
    // CHECK: pl_locality: rc 0 local 18446744073709551614 remote 2
    // The cost model sums in double: no wrap, the prediction grows with the counts.
    int cap[2] = {2, 2};
    pl_topo_t topo = {2, cap, NULL, 2.0};
    pl_model_t model;
    pl_model_default(&model);
    uint64_t big[4] = {UINT64_MAX, 0, 0, UINT64_MAX};
    pl_tnt_t tb = {2, 2, big};
    double per[2], crit = 0;
    rc = pl_predict(&topo, &tb, &model, &map, per, &crit);
    printf("pl_predict: rc %d critical above 2^64: %s\n", rc, crit > 1.8e19 ? "yes" : "no");
    // CHECK: pl_predict: rc 0 critical above 2^64: yes
    return 0;
}
