// csv-header-rule.c: a TNT header is a first row whose first field is a word (empty, or not starting with a digit, '+', '-', '.', and not nan/inf/infinity); a first row starting with +1, 1.5, 1e3, 0x10 or nan is an error naming the field, never a header, and a count is an unsigned decimal integer.
// RUN: %clang-omp -I%srcroot/placement -I%S/Inputs %s %builddir/lib/static/libompnuma_placement.a -lm -o %t && %t | FileCheck %s
#include <string.h>
#include "pl_test.h"

static void parse(const char *text)
{
    char err[200];
    size_t ncells = 0;
    int n = pl_csv_parse(text, strlen(text), NULL, 0, NULL, 0, &ncells, err, sizeof err);
    char shown[64];
    snprintf(shown, sizeof shown, "%s", text);
    for (char *c = shown; *c; c++)
        if (*c == '\n') *c = '|';
    if (n < 0) {
        printf("[%s] error %s: %s\n", shown, n == -EINVAL ? "EINVAL" : "other", err);
        return;
    }
    pl_csv_table_t tables[4];
    uint64_t cells[16];
    int m = pl_csv_parse(text, strlen(text), tables, 4, cells, 16, NULL, err, sizeof err);
    printf("[%s] %d tables, %dx%d\n", shown, m, tables[0].nthreads, tables[0].nnodes);
}

int main(void)
{
    parse("+1,2\n3,4\n");
    // CHECK: [+1,2|3,4|] error EINVAL: line 1: field 1: '+1' is not a count (an unsigned decimal integer)
    parse("1.5,2\n3,4\n");
    // CHECK: [1.5,2|3,4|] error EINVAL: line 1: field 1: '1.5' is not a count (an unsigned decimal integer)
    parse("1e3,2\n3,4\n");
    // CHECK: [1e3,2|3,4|] error EINVAL: line 1: field 1: '1e3' is not a count (an unsigned decimal integer)
    parse("0x10,2\n3,4\n");
    // CHECK: [0x10,2|3,4|] error EINVAL: line 1: field 1: '0x10' is not a count (an unsigned decimal integer)
    parse("nan,2\n3,4\n");
    // CHECK: [nan,2|3,4|] error EINVAL: line 1: field 1: 'nan' is not a count (an unsigned decimal integer)
    parse(" Infinity ,2\n3,4\n");
    // CHECK: [ Infinity ,2|3,4|] error EINVAL: line 1: field 1: 'Infinity' is not a count (an unsigned decimal integer)
    parse(".5,2\n3,4\n");
    // CHECK: [.5,2|3,4|] error EINVAL: line 1: field 1: '.5' is not a count (an unsigned decimal integer)
    parse("-inf,2\n3,4\n");
    // CHECK: [-inf,2|3,4|] error EINVAL: line 1: field 1: '-inf' is not a count (an unsigned decimal integer)
    parse("-3,2\n3,4\n");
    // CHECK: [-3,2|3,4|] error EINVAL: line 1: field 1: negative count '-3'
    parse("3,4\n1,+2\n");
    // CHECK: [3,4|1,+2|] error EINVAL: line 2: field 2: '+2' is not a count (an unsigned decimal integer)
    // Words are headers: the table keeps both rows.
    parse("thread,node0\n3,4\n5,6\n");
    // CHECK: [thread,node0|3,4|5,6|] 1 tables, 2x2
    parse(",n0,n1\n1,2,3\n");
    // CHECK: [,n0,n1|1,2,3|] 1 tables, 1x3
    parse("nano,x\n1,2\n");
    // CHECK: [nano,x|1,2|] 1 tables, 1x2
    parse("\"t\",\"n0\"\n1,2\n");
    // CHECK: ["t","n0"|1,2|] 1 tables, 1x2
    parse("007,08\n");
    // CHECK: [007,08|] 1 tables, 1x2
    return 0;
}
