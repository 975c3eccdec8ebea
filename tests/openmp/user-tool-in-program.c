// A program with its own OMPT tool (ompt_start_tool defined in the program)
// gets it started on the drop-in as on stock: the runtime starts one tool,
// the program's. ompnuma is no OMPT tool on the drop-in (it takes regions
// at the ABI), so it still places and reports beside it: the tool prints
// what it prints on stock, and the report lists the region.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: %stock %t > %t.stock 2> %t.stock.err
// RUN: FileCheck %s --input-file %t.stock.err --check-prefix=TOOL
// RUN: %dropin %t > %t.dropin 2> %t.err
// RUN: diff %t.stock %t.dropin
// RUN: diff %t.stock.err %t.err
// RUN: rm -f %t.json
// RUN: env OMP_PLACEMENT_REPORT=%t.json %dropin %t > %t.dropin 2> %t.err
// RUN: diff %t.stock %t.dropin
// RUN: diff %t.stock.err %t.err
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('regions', [(r['team_size'], r['executions']) for r in d['regions']])" %t.json | FileCheck %s --check-prefix=REPORT
// TOOL: own-tool: start
// TOOL-NEXT: own-tool: initialize
// TOOL-NEXT: own-tool: finalize
// REPORT: regions [(2, 1)]
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *td)
{
    fprintf(stderr, "own-tool: initialize\n");
    return 1;
}

static void fini(ompt_data_t *td)
{
    fprintf(stderr, "own-tool: finalize\n");
}

ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
    static ompt_start_tool_result_t result = {init, fini, {0}};
    fprintf(stderr, "own-tool: start\n");
    return &result;
}

int main(void)
{
    int n = 0;
#pragma omp parallel
#pragma omp atomic
    n++;
    printf("n=%d control_tool=%d\n", n > 0, omp_control_tool(omp_control_tool_flush, 0, NULL));
    return 0;
}
