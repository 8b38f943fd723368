# Shared by the mingw toolchain files: the include directory for GSL and doctest in a cross build.
#
# The mingw compiler must not search the Linux include directory (glibc headers would win), and the
# Linux CMake package configs of GSL and doctest cannot be used for a Windows target. So a directory
# in the build tree holds only links to the two header folders; EtwctlDependencies.cmake turns
# ETWCTL_CROSS_INCLUDE_DIR into the imported targets Microsoft.GSL::GSL and doctest::doctest.
# ETWCTL_HOST_INCLUDE_DIR (default /usr/include) is where the Debian packages put the headers.
# pugixml (the opt-in WPR profile reader, etwctl/wpr/) is a compiled library with no Debian package for
# mingw-w64, so cross builds have no etwctl::wpr target: the WPR part is built and tested natively only.

# Search the mingw-w64 sysroot for libraries, headers and packages; run host programs.
set(CMAKE_FIND_ROOT_PATH /usr/${ETWCTL_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

if(NOT DEFINED ETWCTL_HOST_INCLUDE_DIR)
    set(ETWCTL_HOST_INCLUDE_DIR "/usr/include")
endif()

# A toolchain file is read for every try_compile project too; only the main configure makes links.
get_property(_etwctl_in_try_compile GLOBAL PROPERTY IN_TRY_COMPILE)
if(NOT _etwctl_in_try_compile AND CMAKE_BINARY_DIR)
    set(_etwctl_cross_dir "${CMAKE_BINARY_DIR}/_cross_include")
    file(MAKE_DIRECTORY "${_etwctl_cross_dir}")
    foreach(_etwctl_dep IN ITEMS gsl doctest)
        if(NOT EXISTS "${ETWCTL_HOST_INCLUDE_DIR}/${_etwctl_dep}")
            message(FATAL_ERROR "etwctl cross build: ${ETWCTL_HOST_INCLUDE_DIR}/${_etwctl_dep} not found "
                                "(install libmsgsl-dev and doctest-dev)")
        endif()
        file(CREATE_LINK "${ETWCTL_HOST_INCLUDE_DIR}/${_etwctl_dep}" "${_etwctl_cross_dir}/${_etwctl_dep}" SYMBOLIC)
    endforeach()
    set(ETWCTL_CROSS_INCLUDE_DIR "${_etwctl_cross_dir}" CACHE PATH "Directory with links to the gsl and doctest headers (cross build)")
endif()

# Tests run under Wine (cmake/wine-run.sh finds the 64-bit loader and makes a private prefix).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
    get_filename_component(_etwctl_cmake_dir "${CMAKE_CURRENT_LIST_DIR}" DIRECTORY)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${_etwctl_cmake_dir}/wine-run.sh" CACHE FILEPATH "Runs Windows test binaries under Wine")
endif()

# Self-contained executables: no libstdc++/libgcc/winpthread DLLs to find under Wine.
if(NOT CMAKE_EXE_LINKER_FLAGS_INIT MATCHES "(^| )-static( |$)")
    string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " -static")
endif()
