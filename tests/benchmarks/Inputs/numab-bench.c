/* numab-bench.c: a stand-in benchmark that prints whether the kernel it runs on has automatic NUMA balancing on. */
#include <stdio.h>

int main(void)
{
    FILE *f = fopen("/proc/sys/kernel/numa_balancing", "r");
    int on = -1;
    if (!f || fscanf(f, "%d", &on) != 1)
        on = -1;
    if (f)
        fclose(f);
    printf(" numa_balancing=%d\n Verification = SUCCESSFUL\n Time in seconds = 1.0\n", on);
    return 0;
}
