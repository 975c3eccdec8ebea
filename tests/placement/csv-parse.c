// csv-parse.c: pl_csv_parse reads TNT CSV text (header, comments, '# region NAME' tables) in two passes and names the line of every error.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <string.h>
#include "pl_test.h"

static void parse(const char *what, const char *text)
{
    char err[200];
    size_t ncells = 0;
    int n = pl_csv_parse(text, strlen(text), NULL, 0, NULL, 0, &ncells, err, sizeof err);
    printf("%s: ", what);
    if (n < 0) {
        printf("error %s: %s\n", n == -EINVAL ? "EINVAL" : "other", err);
        return;
    }
    pl_csv_table_t tables[8];
    uint64_t cells[64];
    int m = pl_csv_parse(text, strlen(text), tables, 8, cells, 64, NULL, err, sizeof err);
    printf("%d tables, %zu cells", m, ncells);
    for (int i = 0; i < m; i++) {
        printf(" | '%s' %dx%d", tables[i].name, tables[i].nthreads, tables[i].nnodes);
        for (int k = 0; k < tables[i].nthreads * tables[i].nnodes; k++)
            printf(" %llu", (unsigned long long)tables[i].refs[k]);
    }
    printf("\n");
}

int main(void)
{
    parse("plain", "1,2\n3,4\n");
    // CHECK: plain: 1 tables, 4 cells | '' 2x2 1 2 3 4
    parse("header and comments", "# a comment\nthread,node0,node1\n\n 5 , 6 \r\n# another\n7,8\n");
    // CHECK: header and comments: 1 tables, 4 cells | '' 2x2 5 6 7 8
    parse("regions", "1,1\n# region foo\nn0,n1,n2\n1,2,3\n# region 0x4005d0\n9\n8\n");
    // CHECK: regions: 3 tables, 7 cells | '' 1x2 1 1 | 'foo' 1x3 1 2 3 | '0x4005d0' 2x1 9 8
    parse("largest count", "18446744073709551615\n");
    // CHECK: largest count: 1 tables, 1 cells | '' 1x1 18446744073709551615
    parse("ragged", "1,2,3\n4,5\n");
    // CHECK: ragged: error EINVAL: line 2: ragged row: 2 fields, expected 3
    parse("negative", "1,2\n3,-4\n");
    // CHECK: negative: error EINVAL: line 2: field 2: negative count '-4'
    parse("non-numeric", "1,2\n3,x4\n");
    // CHECK: non-numeric: error EINVAL: line 2: field 2: 'x4' is not a count
    parse("fraction", "1,2.5\n");
    // CHECK: fraction: error EINVAL: line 1: field 2: '2.5' is not a count
    parse("two headers", "a,b\nc,d\n1,2\n");
    // CHECK: two headers: error EINVAL: line 2: field 1: 'c' is not a count
    parse("empty field", "1,,2\n");
    // CHECK: empty field: error EINVAL: line 1: field 2 is empty
    parse("overflow", "18446744073709551616\n");
    // CHECK: overflow: error EINVAL: line 1: field 1: count '18446744073709551616' does not fit in 64 bits
    parse("empty", "");
    // CHECK: empty: error EINVAL: empty: no rows of counts
    parse("only comments", "# nothing\n\nnode0,node1\n");
    // CHECK: only comments: error EINVAL: empty: no rows of counts
    parse("empty region", "1\n# region r\n# region s\n2\n");
    // CHECK: empty region: error EINVAL: line 2: region 'r' has no rows
    char err[100];
    pl_csv_table_t t[1];
    uint64_t c[1];
    printf("small buffers: %s\n", pl_csv_parse("1,2\n", 4, t, 1, c, 1, NULL, err, sizeof err) == -ENOBUFS ? "ENOBUFS" : "wrong");
    // CHECK: small buffers: ENOBUFS
    return 0;
}
