// A host teams construct (its league has no implicit-task end ompnuma could
// end a measurement at) leaves no page protected: reading into the array
// with read(2) afterwards succeeds on every page, as on stock.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: %stock %t | FileCheck %s
// RUN: env HWLOC_SYNTHETIC="pack:2 [numa] core:1 pu:1" OMP_PLACEMENT=critpath,track=anon,source=pagefault,budget=off %dropin %t | FileCheck %s
// CHECK: read() failed on 0 pages
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define N (8u << 20)

int main(void)
{
    double *a = mmap(NULL, N * sizeof(double), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
#pragma omp parallel for num_threads(2)
    for (size_t i = 0; i < N; i++)
        a[i] = (double)i;
#pragma omp teams num_teams(2)
    {
#pragma omp parallel num_threads(2)
        {
            volatile double x = a[omp_get_team_num() * 1000];
            (void)x;
        }
    }
    int fd = open("/dev/zero", O_RDONLY), bad = 0;
    for (size_t p = 0; p < N * sizeof(double); p += 4096)
        if (read(fd, (char *)a + p, 64) != 64)
            bad++;
    printf("read() failed on %d pages\n", bad);
    return 0;
}
