// The cost model is read from the per-machine cache when its key matches this machine, and re-measured when the cache describes another machine or is malformed:
// a number that is not one (NaN, an infinity: an edited file) would come back from every cost query; a FIFO there
// (no writer) is refused at once, where reading it used to wait forever (the program, `ompnuma calibrate --show`).
// RUN: %clang-omp %s -I%S/Inputs %rt-internals -o %t && rm -rf %t.cache && env XDG_CACHE_HOME=%t.cache %t | FileCheck %s
#include <sys/stat.h>
#include <unistd.h>

#include "memtest.h"
#include "rt_mem.h"

int main(void)
{
    rt_mem_model_t m, r;
    char path[4096];
    EXPECT_OK("path", rt_mem_cache_path(path, sizeof path));
    printf("under XDG_CACHE_HOME: %d\n", strstr(path, ".cache/ompnuma/memory-model-") != NULL);
    EXPECT_ERR("read absent", rt_mem_cache_read(&r), -1, ENOENT);
    EXPECT_OK("calibrate", rt_mem_calibrate(&m));
    printf("measured: lat>0 %d read>0 %d write>0 %d memcpy>0 %d b>0 %d\n", m.lat_ns > 0, m.read_mbs > 0,
           m.write_mbs > 0, m.memcpy_mbs > 0, m.b_us > 0);
    m.a_us = 120, m.b_us = 11;   /* MaMI's line, to recognise it coming back */
    EXPECT_OK("write", rt_mem_cache_write(&m));
    EXPECT_OK("read", rt_mem_cache_read(&r));
    printf("round trip: a=%g b=%g source=%s\n", r.a_us, r.b_us, r.source);
    EXPECT_OK("model", rt_mem_model(&r));
    printf("model uses the cache: a=%g b=%g\n", r.a_us, r.b_us);
    printf("cost of 100 pages: %g\n", rt_mem_num_nodes() > 1 ? rt_mem_cost_migrate(100 * rt_mem_page_size(), 0, 1) : 1220.0);

    /* Another machine's cache is refused. */
    FILE *f = fopen(path, "r");
    char buf[4096];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = 0;
    char *key = strstr(buf, "machine ");
    key[8] = key[8] == 'x' ? 'y' : 'x';
    f = fopen(path, "w");
    fputs(buf, f);
    fclose(f);
    EXPECT_ERR("other machine", rt_mem_cache_read(&r), -1, EINVAL);
    f = fopen(path, "w");
    fputs("garbage\n", f);
    fclose(f);
    EXPECT_ERR("malformed", rt_mem_cache_read(&r), -1, EINVAL);
    const char *bad[] = {"lat_ns nan", "a_us inf", "read_mbs -5"};
    for (int i = 0; i < 3; i++) {
        m.lat_ns = 90, m.a_us = 120, m.read_mbs = 1000;
        EXPECT_OK("write", rt_mem_cache_write(&m));
        f = fopen(path, "r");
        len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = 0;
        char field[16], *at;
        snprintf(field, sizeof field, "%.*s ", (int)strcspn(bad[i], " "), bad[i]);
        at = strstr(buf, field);
        f = fopen(path, "w");
        fprintf(f, "%.*s%s%s", (int)(at - buf), buf, bad[i], at + strcspn(at, "\n"));
        fclose(f);
        printf("%s: ", bad[i]);
        EXPECT_ERR("refused", rt_mem_cache_read(&r), -1, EINVAL);
    }
    unlink(path);
    mkfifo(path, 0600);
    EXPECT_ERR("fifo", rt_mem_cache_read(&r), -1, ENODEV);
    unlink(path);
    return 0;
}
// CHECK: path: ok
// CHECK-NEXT: under XDG_CACHE_HOME: 1
// CHECK-NEXT: read absent: ok
// CHECK-NEXT: calibrate: ok
// CHECK-NEXT: measured: lat>0 1 read>0 1 write>0 1 memcpy>0 1 b>0 1
// CHECK-NEXT: write: ok
// CHECK-NEXT: read: ok
// CHECK-NEXT: round trip: a=120 b=11 source=cache
// CHECK-NEXT: model: ok
// CHECK-NEXT: model uses the cache: a=120 b=11
// CHECK-NEXT: cost of 100 pages: 1220
// CHECK-NEXT: other machine: ok
// CHECK-NEXT: malformed: ok
// CHECK-NEXT: write: ok
// CHECK-NEXT: lat_ns nan: refused: ok
// CHECK-NEXT: write: ok
// CHECK-NEXT: a_us inf: refused: ok
// CHECK-NEXT: write: ok
// CHECK-NEXT: read_mbs -5: refused: ok
// CHECK-NEXT: fifo: ok
