// A C program on the drop-in maps no Fortran runtime: libgfortran brings
// libquadmath, whose constructor registers printf handlers, and glibc then
// formats every printf of the program through its slow positional path
// (EPCC's `for` test counted 1.64x stock's instructions, 1.10x without).
// libompnuma.so carries the omp_numa Fortran module's object, which calls
// nothing of gfortran's; the same program on stock maps neither library.
// RUN: %clang-omp %s -o %t
// RUN: %t | FileCheck %s
// RUN: %dropin env OMP_PLACEMENT=critpath %t | FileCheck %s
// CHECK: team 2: libgfortran mapped 0, libquadmath mapped 0
#include <omp.h>
#include <stdio.h>
#include <string.h>

static int mapped(const char *name)
{
    char line[4096];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    while (f && fgets(line, sizeof line, f))
        found |= strstr(line, name) != NULL;
    if (f)
        fclose(f);
    return found;
}

int main(void)
{
    int team = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    team = omp_get_num_threads();
    printf("team %d: libgfortran mapped %d, libquadmath mapped %d\n", team, mapped("libgfortran"),
           mapped("libquadmath"));
    return 0;
}
