// The JSON exit report validates against tools/report/report_schema.json
// (JSON Schema draft 2020-12) in every shape it takes: default settings on
// this machine, nested regions, a replayed decision applied on a synthetic
// 2-node topology, a dry run, and OMP_PLACEMENT=off. A report with a field
// removed or mistyped does not validate (the check can fail).
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: echo "0,1000" > %t.csv
// RUN: echo "1000,0" >> %t.csv
// RUN: rm -f %t.*.json
// RUN: %dropin env OMP_PLACEMENT_REPORT=%t.default.json %t
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" HWLOC_THISSYSTEM=1 OMP_PROC_BIND=close OMP_PLACES=cores OMP_PLACEMENT=critpath,sample=1,source=replay:%t.csv OMP_PLACEMENT_REPORT=%t.replay.json %t
// RUN: %dropin env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" OMP_PLACEMENT=maxlocal,sample=1,source=replay:%t.csv OMP_PLACEMENT_REPORT=%t.dryrun.json %t
// RUN: %dropin env OMP_PLACEMENT=off OMP_PLACEMENT_REPORT=%t.off.json %t
// RUN: %python -c "import json,sys,jsonschema; s=json.load(open(sys.argv[1])); jsonschema.Draft202012Validator.check_schema(s); v=jsonschema.Draft202012Validator(s); [print(f.split('.')[-2], 'valid' if v.is_valid(json.load(open(f))) else sorted(e.message for e in v.iter_errors(json.load(open(f))))) for f in sys.argv[2:]]" %srcroot/tools/report/report_schema.json %t.default.json %t.replay.json %t.dryrun.json %t.off.json | FileCheck %s
// RUN: %python -c "import json,sys,jsonschema; s=json.load(open(sys.argv[1])); v=jsonschema.Draft202012Validator(s); d=json.load(open(sys.argv[2])); del d['regions']; print('no regions', v.is_valid(d)); d=json.load(open(sys.argv[2])); d['regions'][0]['team_size']='2'; print('string team_size', v.is_valid(d)); d=json.load(open(sys.argv[2])); d['policy']='fastest'; print('unknown policy', v.is_valid(d))" %srcroot/tools/report/report_schema.json %t.replay.json | FileCheck %s --check-prefix=BROKEN
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('decision', d['regions'][0]['decision']['policy'], [r['level'] for r in d['regions']])" %t.replay.json | FileCheck %s --check-prefix=SHAPE
//
// CHECK: default valid
// CHECK-NEXT: replay valid
// CHECK-NEXT: dryrun valid
// CHECK-NEXT: off valid
// BROKEN: no regions False
// BROKEN-NEXT: string team_size False
// BROKEN-NEXT: unknown policy False
// SHAPE: decision critpath [1, 2, 2]
#include <omp.h>

int main(void)
{
    omp_set_max_active_levels(2);
    for (int e = 0; e < 6; e++) {
#pragma omp parallel num_threads(2)
        {
#pragma omp parallel num_threads(2)
            {
            }
        }
    }
    return 0;
}
