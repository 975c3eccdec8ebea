// A forked child that runs OpenMP writes its report beside its parent's
// (<file>.<pid>) instead of overwriting it.
// REQUIRES: clang
// RUN: rm -f %t.json %t.json.*
// RUN: %clang-omp %s -o %t
// RUN: env OMP_PLACEMENT_REPORT=%t.json %dropin %t | FileCheck %s --check-prefix=OUT
// RUN: %python -c "import glob, json; p=json.load(open('%t.json')); c=[json.load(open(f)) for f in glob.glob('%t.json.*')]; print('children', len(c)); print('parent is parent', p['pid'] != c[0]['pid'])" | FileCheck %s
// OUT: parent 4
// CHECK: children 1
// CHECK: parent is parent True
#include <omp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int team(void)
{
    int n = 0;
#pragma omp parallel num_threads(2) reduction(+ : n)
    n += 1;
    return n;
}

int main(void)
{
    int n = team();
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        team();
        return 0;
    }
    waitpid(child, NULL, 0);
    printf("parent %d\n", n + team());
    return 0;
}
