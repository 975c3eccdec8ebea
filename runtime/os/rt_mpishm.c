/* rt_mpishm.c: the per-rank POSIX shared-memory rows of the MPI mapper: create (replacing stale objects of killed runs), open, sweep. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_mpishm.h"

#define PREFIX "ompnuma-mpi."

size_t rt_mpishm_row_bytes(int world_size)
{
    return sizeof(rt_mpi_row_t) + sizeof(rt_mpi_cell_t) * (size_t)(world_size > 0 ? world_size : 0);
}

void rt_mpishm_name(char *buf, size_t len, long key, int world_rank)
{
    snprintf(buf, len, "/" PREFIX "%u.%ld.%d", (unsigned)getuid(), key, world_rank);
}

static int alive(int pid)
{
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* Map fd of size bytes read-write; NULL on failure with errno set. */
static void *map_fd(int fd, size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* 1 when the existing object is a live row of this job. */
static int live_row_of_job(int fd, size_t bytes, uint64_t token)
{
    struct stat st;
    if (fstat(fd, &st) || (size_t)st.st_size != bytes)
        return 0;
    rt_mpi_row_t *r = mmap(NULL, sizeof *r, PROT_READ, MAP_SHARED, fd, 0);
    if (r == MAP_FAILED)
        return 0;
    int live = r->magic == RT_MPISHM_MAGIC && r->token == token && alive(r->creator_pid);
    munmap(r, sizeof *r);
    return live;
}

int rt_mpishm_create(const char *name, int world_rank, int world_size, uint64_t token,
                     rt_mpi_row_t **row, int *replaced)
{
    if (!name || !row || world_size < 1 || world_rank < 0 || world_rank >= world_size) {
        errno = EINVAL;
        return -1;
    }
    size_t bytes = rt_mpishm_row_bytes(world_size);
    if (replaced)
        *replaced = 0;
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0 && errno == EEXIST) {
        int old = shm_open(name, O_RDONLY, 0);
        int live = old >= 0 && live_row_of_job(old, bytes, token);
        if (old >= 0)
            close(old);
        if (live) {
            errno = EEXIST;
            return -1;
        }
        /* A killed run's row (or some other file under our name): replace it.
         * Unlinking first means a process still mapping it keeps its copy. */
        shm_unlink(name);
        if (replaced)
            *replaced = 1;
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    }
    if (fd < 0)
        return -1;
    rt_mpi_row_t *r = ftruncate(fd, (off_t)bytes) == 0 ? map_fd(fd, bytes) : NULL;
    int e = errno;
    close(fd);
    if (!r) {
        shm_unlink(name);
        errno = e;
        return -1;
    }
    /* ftruncate zero-fills: every counter starts at 0, node at 0, epoch at 0. */
    r->token = token;
    r->creator_pid = (int32_t)getpid();
    r->world_rank = world_rank;
    r->world_size = world_size;
    atomic_store(&r->node, -1);
    atomic_store(&r->applied_node, -1);
    atomic_store(&r->os_node, -1);
    __atomic_store_n(&r->magic, RT_MPISHM_MAGIC, __ATOMIC_RELEASE);
    *row = r;
    return 0;
}

int rt_mpishm_open(const char *name, int world_size, uint64_t token, rt_mpi_row_t **row)
{
    if (!name || !row || world_size < 1) {
        errno = EINVAL;
        return -1;
    }
    size_t bytes = rt_mpishm_row_bytes(world_size);
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0)
        return -1;
    struct stat st;
    rt_mpi_row_t *r = NULL;
    if (fstat(fd, &st) || (size_t)st.st_size != bytes)
        errno = EPROTO;
    else
        r = map_fd(fd, bytes);
    int e = errno;
    close(fd);
    if (!r) {
        errno = e;
        return -1;
    }
    if (__atomic_load_n(&r->magic, __ATOMIC_ACQUIRE) != RT_MPISHM_MAGIC || r->token != token
        || r->world_size != world_size) {
        munmap(r, bytes);
        errno = EPROTO;
        return -1;
    }
    *row = r;
    return 0;
}

void rt_mpishm_unmap(rt_mpi_row_t *row, int world_size)
{
    if (row)
        munmap(row, rt_mpishm_row_bytes(world_size));
}

int rt_mpishm_unlink(long key, int world_rank)
{
    char name[128];
    rt_mpishm_name(name, sizeof name, key, world_rank);
    return shm_unlink(name);
}

int rt_mpishm_sweep(void)
{
    /* Linux keeps POSIX shared memory in /dev/shm, one file per object. */
    DIR *d = opendir("/dev/shm");
    if (!d)
        return 0;
    char mine[32];
    snprintf(mine, sizeof mine, PREFIX "%u.", (unsigned)getuid());
    size_t ml = strlen(mine);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, mine, ml))
            continue;
        char *end;
        long key = strtol(e->d_name + ml, &end, 10);
        if (end == e->d_name + ml || *end != '.' || key <= 0 || key > 0x7fffffffL || alive((int)key))
            continue;
        char name[300];
        snprintf(name, sizeof name, "/%s", e->d_name);
        if (shm_unlink(name) == 0)
            n++;
    }
    closedir(d);
    return n;
}
