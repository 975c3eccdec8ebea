// one-runtime-per-rank.c: a rank holds one copy of the runtime, libompnuma.so, whoever loaded it (the OpenMP drop-in, or the MPI layer alone), and one owner of its threads' moves serves both: the allotment the MPI mapper applied is the one the OpenMP side's report shows (its changes are the remaps the rank applied, its moves the threads the rank moved). A rank on the stock OpenMP runtime keeps it: the MPI layer loads libompnuma.so without ompnuma's OpenMP tool starting (no OpenMP report is written although one is asked for).
// The program lists the objects it maps that contain the runtime (the line that opens its settings dump, given as argv[1]).
// REQUIRES: mpi
// RUN: %mpicc -fopenmp %s -o %t
// RUN: rm -f %t.map.json %t.omp.*.json %t.stock.*.json
// Hybrid, with the drop-in: one runtime, one owner.
// RUN: %mpirun -np 2 --bind-to none -x LD_LIBRARY_PATH=%libdir -x OMP_NUM_THREADS=2 -x OMP_PLACEMENT=critpath,dry_run -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI=ondeloc,interval=50,report=%t.map.json sh -c 'OMP_PLACEMENT_REPORT=%t.omp.$OMPI_COMM_WORLD_RANK.json exec %t "OMPNUMA DISPLAY ENVIRONMENT BEGIN"' | sort | FileCheck %s --check-prefix=HYBRID
// RUN: %python -c "import json,sys; m=json.load(open(sys.argv[1]))['mpi']; [print('rank', r['rank'], 'applied', r['applied'], 'allotment changes', json.load(open(sys.argv[2] % r['rank']))['pinning']['allotment']['changes'], 'threads moved', r['threads'] > 0 and json.load(open(sys.argv[2] % r['rank']))['pinning']['moves']['mpi']['count'] >= r['threads']) for r in m['ranks']]" %t.map.json %t.omp.%%d.json | FileCheck %s --check-prefix=OWNER
// Pure MPI: the MPI layer loads the runtime itself.
// RUN: %mpicc %s -o %t.mpi
// RUN: %mpirun -np 2 --bind-to none -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI=ondeloc,interval=50 %t.mpi "OMPNUMA DISPLAY ENVIRONMENT BEGIN" | sort | FileCheck %s --check-prefix=PURE
// Hybrid on stock libomp (clang), MPI mapping only: ompnuma's OpenMP tool does not start.
// RUN: env OMPI_CC=clang-19 %mpicc -fopenmp %s -o %t.clang
// RUN: %mpirun -np 2 --bind-to none -x OMP_NUM_THREADS=2 -x LD_PRELOAD=%libompnuma_mpi -x OMP_PLACEMENT_MPI=ondeloc,interval=50 sh -c 'OMP_PLACEMENT_REPORT=%t.stock.$OMPI_COMM_WORLD_RANK.json exec %t.clang "OMPNUMA DISPLAY ENVIRONMENT BEGIN"' | sort | FileCheck %s --check-prefix=STOCK
// RUN: sh -c '! ls %t.stock.*.json 2>/dev/null'
// HYBRID: rank 0 runtime in: libompnuma.so{{$}}
// HYBRID: rank 1 runtime in: libompnuma.so{{$}}
// OWNER: rank 0 applied [[A0:[1-9][0-9]*]] allotment changes [[A0]] threads moved True
// OWNER: rank 1 applied [[A1:[1-9][0-9]*]] allotment changes [[A1]] threads moved True
// PURE: rank 0 runtime in: libompnuma.so{{$}}
// PURE: rank 1 runtime in: libompnuma.so{{$}}
// STOCK: rank 0 runtime in: libompnuma.so{{$}}
// STOCK: rank 1 runtime in: libompnuma.so{{$}}
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "Inputs/exchange.h"

/* Whether the file at path contains needle. */
static int contains(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = strlen(needle), cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    int found = 0;
    for (size_t got; buf && !found && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        found = memmem(buf, len, needle, n) != NULL;
        /* Keep the last n - 1 bytes: the needle may straddle two reads. */
        if (len >= n) {
            memmove(buf, buf + len - (n - 1), n - 1);
            len = n - 1;
        }
    }
    free(buf);
    fclose(f);
    return found;
}

static double sink;

static void region(void)
{
#pragma omp parallel
    {
#pragma omp atomic
        sink += 1;
    }
}

int main(int argc, char **argv)
{
    int provided, r;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    /* Long enough for the mapper's first remap (50 ms) and the rank's next MPI call on a loaded machine. */
    exchange_for(600, region);
    /* Every object this process maps, once each: which contain the runtime. */
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096], **seen = NULL;
    int nseen = 0;
    printf("rank %d runtime in:", r);
    while (maps && fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/');
        if (!path)
            continue;
        path[strcspn(path, "\n")] = 0;
        int dup = 0;
        for (int i = 0; i < nseen && !dup; i++)
            dup = !strcmp(seen[i], path);
        char **more = dup ? NULL : realloc(seen, sizeof *seen * (size_t)(nseen + 1));
        if (!more)
            continue;
        seen = more;
        seen[nseen++] = strdup(path);
        if (contains(path, argv[1]))
            printf(" %s", strrchr(path, '/') + 1);
    }
    printf("\n");
    for (int i = 0; i < nseen; i++)
        free(seen[i]);
    free(seen);
    if (maps)
        fclose(maps);
    MPI_Finalize();
    return sink < 0;
}
