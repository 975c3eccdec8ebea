// The drop-in calls each outlined function with the shared arguments the
// program passed (om_abi_x86_64.S): past the sixth integer argument they
// are on the stack, in odd and even counts. Regions with 0 to 11 shared
// variables compute the same on stock and on the drop-in: through the
// trampoline (every execution sampled), and as settled regions met again,
// whose members run the program's own function with the arguments handed
// on as they came. The report counts every execution of each region.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: %stock %t > %t.stock
// RUN: %dropin env OMP_PLACEMENT=critpath,sample=1000 OMP_PLACEMENT_REPORT=%t.sampled.json %t > %t.sampled
// RUN: %dropin env OMP_PLACEMENT=critpath OMP_PLACEMENT_REPORT=%t.settled.json %t > %t.settled
// RUN: diff %t.stock %t.sampled
// RUN: diff %t.stock %t.settled
// RUN: FileCheck %s < %t.settled
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('regions', len(d['regions']), 'executions', sorted(set(r['executions'] for r in d['regions'])))" %t.sampled.json | FileCheck %s --check-prefix=REPORT
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); print('regions', len(d['regions']), 'executions', sorted(set(r['executions'] for r in d['regions'])))" %t.settled.json | FileCheck %s --check-prefix=REPORT
// CHECK: sums 0 2 10 17 28 42 60 82 108 138 172 210
// REPORT: regions 12 executions [40]
#include <omp.h>
#include <stdio.h>

#define REPS 40

int main(void)
{
    long s[12] = {0};
    for (int k = 0; k < REPS; k++) {
        long a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, l = 11;
        long r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0, r8 = 0, r9 = 0, r10 = 0;
#pragma omp parallel num_threads(2)
        __asm__ volatile("" ::: "memory");
#pragma omp parallel num_threads(2)
#pragma omp master
        r0 = 2;
#pragma omp parallel num_threads(2)
#pragma omp master
        r1 = a + 9;
#pragma omp parallel num_threads(2)
#pragma omp master
        r2 = a + b + 14;
#pragma omp parallel num_threads(2)
#pragma omp master
        r3 = a + b + c + 22;
#pragma omp parallel num_threads(2)
#pragma omp master
        r4 = a + b + c + d + 32;
#pragma omp parallel num_threads(2)
#pragma omp master
        r5 = a + b + c + d + e + 45;
#pragma omp parallel num_threads(2)
#pragma omp master
        r6 = a + b + c + d + e + f + 61;
#pragma omp parallel num_threads(2)
#pragma omp master
        r7 = a + b + c + d + e + f + g + 80;
#pragma omp parallel num_threads(2)
#pragma omp master
        r8 = a + b + c + d + e + f + g + h + 102;
#pragma omp parallel num_threads(2)
#pragma omp master
        r9 = a + b + c + d + e + f + g + h + i + 127;
#pragma omp parallel num_threads(2)
#pragma omp master
        r10 = a + b + c + d + e + f + g + h + i + j + l + 144;
        long r[12] = {0, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10};
        for (int m = 0; m < 12; m++)
            s[m] = r[m];
    }
    printf("sums");
    for (int m = 0; m < 12; m++)
        printf(" %ld", s[m]);
    printf("\n");
    return 0;
}
