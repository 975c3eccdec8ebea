// The drop-in's start-up loads nothing it does not use (issue 17): no hwloc
// plugin (PCI, OpenCL, OpenGL, libxml2: hwloc reads the NUMA nodes without
// them), no libarcher.so that stock libomp would not find either, no Fortran
// runtime (libgfortran brings libquadmath, whose printf handlers send every
// printf of the program through glibc's slow positional path), and no PAPI
// unless its source is asked for; the variable that
// keeps hwloc's plugins out is gone again. The default
// topology is this machine's, so the runtime discovers it through hwloc.
// REQUIRES: clang
// RUN: %clang-omp %s -o %t
// RUN: %dropin env -u HWLOC_PLUGINS_PATH -u HWLOC_XMLFILE -u HWLOC_SYNTHETIC OMP_PLACEMENT=critpath %t | FileCheck %s
// hwloc unloads its plugins with the last topology: the loader's log tells
// whether they were loaded at all.
// RUN: %dropin env -u HWLOC_PLUGINS_PATH -u HWLOC_XMLFILE -u HWLOC_SYNTHETIC LD_DEBUG=files OMP_PLACEMENT=critpath %t 2> %t.ld > /dev/null
// RUN: grep -q "libompnuma.so" %t.ld
// RUN: not grep -E "file=[^ ]*(hwloc/hwloc_|libarcher|libgfortran|libquadmath|libpapi)[^ ]* .*generating link map" %t.ld
// RUN: %stock env -u HWLOC_PLUGINS_PATH -u HWLOC_XMLFILE -u HWLOC_SYNTHETIC %t | FileCheck %s --check-prefix=STOCK
// The papi source, asked for, is still probed (and says why it cannot work
// here: no per-node event, or PAPI is not installed).
// RUN: %dropin env OMP_PLACEMENT=critpath,source=papi %t 2>&1 | FileCheck %s --check-prefix=PAPI
// CHECK: ompnuma=1 hwloc-plugins=0 archer=0 gfortran=0 quadmath=0 papi=0 HWLOC_PLUGINS_PATH=unset
// STOCK: ompnuma=0 hwloc-plugins=0 archer=0 gfortran=0 quadmath=0 papi=0 HWLOC_PLUGINS_PATH=unset
// PAPI: OMP_PLACEMENT source=papi is unavailable ({{.+}}); using source=auto
// PAPI: ompnuma=1 {{.*}} papi=1
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ompnuma, plugins, archer, gfortran, quadmath, papi;

static int object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *name = info->dlpi_name;
    ompnuma += strstr(name, "/libompnuma.so") != NULL;
    plugins += strstr(name, "/hwloc/hwloc_") != NULL;
    archer += strstr(name, "libarcher") != NULL;
    gfortran += strstr(name, "libgfortran") != NULL;
    quadmath += strstr(name, "libquadmath") != NULL;
    papi += strstr(name, "libpapi") != NULL;
    return 0;
}

int main(void)
{
    int n = 0;
#pragma omp parallel
#pragma omp atomic
    n++;
    dl_iterate_phdr(object, NULL);
    printf("ompnuma=%d hwloc-plugins=%d archer=%d gfortran=%d quadmath=%d papi=%d HWLOC_PLUGINS_PATH=%s\n",
           ompnuma, plugins, archer, gfortran, quadmath, papi, getenv("HWLOC_PLUGINS_PATH") ? "set" : "unset");
    return n > 0 ? 0 : 1;
}
