# FindLibDW: elfutils' libdw (libdwfl: ELF symbol tables and DWARF line tables of a running
# process). Sets the imported target LibDW::Headers: its headers alone, since runtime/os/rt_symbol.c
# loads the library itself (dlopen) when a name is first asked for; the library must be installed
# all the same. pkg-config's libdw when present, else a search.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_LIBDW QUIET libdw)
endif()
find_path(LIBDW_INCLUDE_DIR elfutils/libdwfl.h HINTS ${PC_LIBDW_INCLUDE_DIRS})
find_library(LIBDW_LIBRARY dw HINTS ${PC_LIBDW_LIBRARY_DIRS})
find_library(LIBELF_LIBRARY elf HINTS ${PC_LIBDW_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibDW REQUIRED_VARS LIBDW_LIBRARY LIBELF_LIBRARY LIBDW_INCLUDE_DIR)
if(LibDW_FOUND AND NOT TARGET LibDW::Headers)
  add_library(LibDW::Headers INTERFACE IMPORTED)
  set_target_properties(LibDW::Headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${LIBDW_INCLUDE_DIR}")
endif()
mark_as_advanced(LIBDW_INCLUDE_DIR LIBDW_LIBRARY LIBELF_LIBRARY)
