# FindNUMA: libnuma (numaif.h: move_pages, mbind; numa.h). Sets the imported target NUMA::numa.
find_path(NUMA_INCLUDE_DIR numaif.h)
find_library(NUMA_LIBRARY numa)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NUMA REQUIRED_VARS NUMA_LIBRARY NUMA_INCLUDE_DIR)
if(NUMA_FOUND AND NOT TARGET NUMA::numa)
  add_library(NUMA::numa UNKNOWN IMPORTED)
  set_target_properties(NUMA::numa PROPERTIES IMPORTED_LOCATION "${NUMA_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${NUMA_INCLUDE_DIR}")
endif()
mark_as_advanced(NUMA_INCLUDE_DIR NUMA_LIBRARY)
