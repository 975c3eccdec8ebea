# FindPAPI: PAPI (optional; the papi counter source). Sets the imported target PAPI::papi.
find_path(PAPI_INCLUDE_DIR papi.h)
find_library(PAPI_LIBRARY papi)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PAPI REQUIRED_VARS PAPI_LIBRARY PAPI_INCLUDE_DIR)
if(PAPI_FOUND AND NOT TARGET PAPI::papi)
  add_library(PAPI::papi UNKNOWN IMPORTED)
  set_target_properties(PAPI::papi PROPERTIES IMPORTED_LOCATION "${PAPI_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${PAPI_INCLUDE_DIR}")
endif()
mark_as_advanced(PAPI_INCLUDE_DIR PAPI_LIBRARY)
