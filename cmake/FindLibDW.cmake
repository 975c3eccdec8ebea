# FindLibDW: elfutils' libdw (libdwfl: ELF symbol tables and DWARF line tables of a running
# process). Sets the imported target LibDW::LibDW. pkg-config's libdw when present, else a search.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_LIBDW QUIET libdw)
endif()
find_path(LIBDW_INCLUDE_DIR elfutils/libdwfl.h HINTS ${PC_LIBDW_INCLUDE_DIRS})
find_library(LIBDW_LIBRARY dw HINTS ${PC_LIBDW_LIBRARY_DIRS})
find_library(LIBELF_LIBRARY elf HINTS ${PC_LIBDW_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibDW REQUIRED_VARS LIBDW_LIBRARY LIBELF_LIBRARY LIBDW_INCLUDE_DIR)
if(LibDW_FOUND AND NOT TARGET LibDW::LibDW)
  add_library(LibDW::LibDW UNKNOWN IMPORTED)
  set_target_properties(LibDW::LibDW PROPERTIES IMPORTED_LOCATION "${LIBDW_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${LIBDW_INCLUDE_DIR}"
                        INTERFACE_LINK_LIBRARIES "${LIBELF_LIBRARY}")
endif()
mark_as_advanced(LIBDW_INCLUDE_DIR LIBDW_LIBRARY LIBELF_LIBRARY)
