// maps-each-mapping.c: rt_pages_each_mapping reads /proc/self/maps without stdio: every line in order, with the fields sscanf finds (far more than its 8 KiB buffer, a path of 3 000 bytes), also from a copy in a regular file whose reads end inside lines, and it stops where the callback says.
// RUN: %clang-omp %s %rt-internals -o %t && %t %t.d | FileCheck %s
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rt_pages.h"

#define MAX_LINES 4096

typedef struct {
    uintptr_t lo, hi;
    char perms[5];
    unsigned long long offset;
    unsigned long inode;
    char path[4200];
} line_t;

static line_t want[MAX_LINES];
static int nwant, seen, wrong, stop_at = -1;

static int check(const rt_mapping_t *m, void *ctx)
{
    (void)ctx;
    const line_t *w = &want[seen];
    if (seen >= nwant || m->lo != w->lo || m->hi != w->hi || strcmp(m->perms, w->perms) || m->offset != w->offset ||
        m->inode != w->inode || strcmp(m->path, w->path)) {
        if (!wrong++)
            printf("line %d differs: %lx-%lx %s %s\n", seen, (unsigned long)m->lo, (unsigned long)m->hi, m->perms,
                   m->path);
    }
    return ++seen == stop_at;
}

int main(int argc, char **argv)
{
    /* Many mappings (alternate protections keep them apart), and a file
     * mapped under a 3 000-byte path. */
    long pg = sysconf(_SC_PAGESIZE);
    for (int i = 0; i < 300; i++)
        mmap(NULL, (size_t)pg * (size_t)(1 + i % 3), i % 2 ? PROT_READ : PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char path[3200];
    snprintf(path, sizeof path, "%s", argv[1]);
    mkdir(path, 0700);
    while (strlen(path) < 2900) {
        strcat(path, "/abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrst");
        mkdir(path, 0700);
    }
    strcat(path, "/mapped file");
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, pg) != 0 || mmap(NULL, (size_t)pg, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED) {
        perror(path);
        return 1;
    }
    /* The reference: stdio and sscanf, the same instant (nothing maps meanwhile). */
    FILE *f = fopen("/proc/self/maps", "r");
    static char text[8192];
    size_t bytes = 0;
    while (nwant < MAX_LINES && fgets(text, sizeof text, f)) {
        line_t *w = &want[nwant++];
        int at = 0;
        bytes += strlen(text);
        text[strcspn(text, "\n")] = '\0';
        sscanf(text, "%lx-%lx %4s %llx %*s %lu %n", &w->lo, &w->hi, w->perms, &w->offset, &w->inode, &at);
        snprintf(w->path, sizeof w->path, "%s", text + at);
    }
    fclose(f);
    /* The same text in a regular file, for reads that cut lines. */
    char copy[4096];
    snprintf(copy, sizeof copy, "%s/copy", argv[1]);
    int in = open("/proc/self/maps", O_RDONLY), out = open(copy, O_RDWR | O_CREAT | O_TRUNC, 0600);
    ssize_t got;
    while ((got = read(in, text, sizeof text)) > 0)
        if (write(out, text, (size_t)got) != got)
            return 1;
    close(in);
    int n = rt_pages_each_mapping(check, NULL), long_path = 0;
    for (int i = 0; i < nwant; i++)
        long_path |= strlen(want[i].path) > 2900 && strstr(want[i].path, "mapped file");
    printf("%s lines, more than 16 KiB: %d, the long path among them: %d\n", n == nwant && seen == nwant ? "same" : "other",
           bytes > 16384, long_path);
    // CHECK: same lines, more than 16 KiB: 1, the long path among them: 1
    printf("fields differ: %d\n", wrong);
    // CHECK: fields differ: 0
    seen = 0;
    lseek(out, 0, SEEK_SET);
    n = rt_pages_each_mapping_in(out, check, NULL);
    printf("from the copy: %s lines, fields differ: %d\n", n == nwant && seen == nwant ? "same" : "other", wrong);
    // CHECK: from the copy: same lines, fields differ: 0
    seen = 0;
    stop_at = 5;
    printf("stopped after %d\n", rt_pages_each_mapping(check, NULL));
    // CHECK: stopped after 5
    return 0;
}
