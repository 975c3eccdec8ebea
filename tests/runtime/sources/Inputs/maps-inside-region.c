/* One long parallel region whose threads each map the block they sweep
 * inside it (no memory of the program's is tracked when the region starts):
 * thread t maps MiB/n MiB of its own, first-touches it, sweeps it ITERS
 * times and unmaps it before the region ends. Prints "ok" when every
 * element went through the recurrence. Usage: maps-inside-region MiB ITERS */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 16;
    int iters = argc > 2 ? atoi(argv[2]) : 40;
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        size_t n = mib * 1024 * 1024 / sizeof(double) / (size_t)omp_get_num_threads();
        double *a = mmap(NULL, n * sizeof *a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (a == MAP_FAILED) {
            bad++;
        } else {
            for (size_t i = 0; i < n; i++)
                a[i] = (double)(i % 1000);
            for (int it = 0; it < iters; it++)
                for (size_t i = 0; i < n; i++)
                    a[i] = a[i] * 0.5 + 1.0;
            double v = 999.0;
            for (int it = 0; it < iters; it++)
                v = v * 0.5 + 1.0;
            bad += a[999] != v;
            munmap(a, n * sizeof *a);
        }
    }
    puts(bad ? "wrong" : "ok");
    return bad != 0;
}
