/* perf-fds.c: after one parallel region, the number of perf events the process holds open. */
#include <dirent.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    int sum = 0;
#pragma omp parallel reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    char path[300], target[64];
    while (d && (e = readdir(d))) {
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(path, target, sizeof target - 1);
        if (len > 0) {
            target[len] = '\0';
            n += strstr(target, "perf_event") != NULL;
        }
    }
    if (d)
        closedir(d);
    printf("sum %d perf events %s\n", sum, n ? "open" : "none");
    return 0;
}
