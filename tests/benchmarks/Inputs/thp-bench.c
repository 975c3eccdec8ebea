/* thp-bench.c: a stand-in benchmark that prints the transparent huge pages mode of the kernel it runs on. */
#include <stdio.h>

int main(void)
{
    char mode[128] = "unknown";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f || !fgets(mode, sizeof mode, f))
        snprintf(mode, sizeof mode, "unknown\n");
    if (f)
        fclose(f);
    printf(" thp=%s Verification = SUCCESSFUL\n Time in seconds = 1.0\n", mode);
    return 0;
}
