# FindLLVMOpenMP: the real LLVM OpenMP runtime (libomp.so.5) that the drop-in facades forward to.
#
# Sets LLVMOpenMP_LIBRARY (absolute path of libomp.so.5, symlinks resolved),
# LLVMOpenMP_INCLUDE_DIR (omp.h, omp-tools.h) and the imported target LLVMOpenMP::omp.
# Override with -DLLVMOpenMP_ROOT=/usr/lib/llvm-19 or -DLLVMOpenMP_LIBRARY=/path/libomp.so.5.
set(_omp_hints ${LLVMOpenMP_ROOT} /usr/lib/llvm-19 /usr/lib/llvm-18 /usr/lib/llvm-17)
find_library(LLVMOpenMP_LIBRARY NAMES libomp.so.5 omp
             HINTS ${_omp_hints} PATH_SUFFIXES lib NO_CACHE_IF_FOUND)
find_path(LLVMOpenMP_INCLUDE_DIR NAMES omp-tools.h
          HINTS ${_omp_hints}
          PATH_SUFFIXES include lib/clang/19/include lib/clang/18/include lib/clang/17/include)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LLVMOpenMP REQUIRED_VARS LLVMOpenMP_LIBRARY LLVMOpenMP_INCLUDE_DIR)
if(LLVMOpenMP_FOUND)
  # The facades record this path as their dependency, so it must be the file, not libomp.so -> ...
  file(REAL_PATH "${LLVMOpenMP_LIBRARY}" LLVMOpenMP_REAL)
  get_filename_component(_dir "${LLVMOpenMP_REAL}" DIRECTORY)
  set(LLVMOpenMP_REAL "${_dir}/libomp.so.5")
  if(NOT EXISTS "${LLVMOpenMP_REAL}")
    file(REAL_PATH "${LLVMOpenMP_LIBRARY}" LLVMOpenMP_REAL)
  endif()
  if(NOT TARGET LLVMOpenMP::omp)
    add_library(LLVMOpenMP::omp SHARED IMPORTED)
    set_target_properties(LLVMOpenMP::omp PROPERTIES IMPORTED_LOCATION "${LLVMOpenMP_REAL}")
    # omp-tools.h lives in clang's resource directory, beside clang's own
    # stddef.h: any other compiler searches it last, after its own headers.
    if(CMAKE_C_COMPILER_ID MATCHES "Clang")
      set_target_properties(LLVMOpenMP::omp PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${LLVMOpenMP_INCLUDE_DIR}")
    else()
      set_target_properties(LLVMOpenMP::omp PROPERTIES
        INTERFACE_COMPILE_OPTIONS "SHELL:-idirafter ${LLVMOpenMP_INCLUDE_DIR}")
    endif()
  endif()
endif()
mark_as_advanced(LLVMOpenMP_LIBRARY LLVMOpenMP_INCLUDE_DIR)
