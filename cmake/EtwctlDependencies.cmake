# Finds etwctl's dependencies.
# Native builds use the installed CMake packages (Debian: libmsgsl-dev, doctest-dev).
# Cross builds for Windows (mingw) cannot use the Linux package configs and must not search the
# Linux include directory (glibc headers would win), so the toolchain file points
# ETWCTL_CROSS_INCLUDE_DIR at a build-tree directory holding only links to the gsl and doctest
# header folders; imported targets with the same names are made from it.
include(GNUInstallDirs)
if(DEFINED ETWCTL_CROSS_INCLUDE_DIR)
    if(NOT TARGET Microsoft.GSL::GSL)
        add_library(Microsoft.GSL::GSL INTERFACE IMPORTED)
        set_target_properties(Microsoft.GSL::GSL PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${ETWCTL_CROSS_INCLUDE_DIR}")
    endif()
    if(NOT TARGET doctest::doctest)
        add_library(doctest::doctest INTERFACE IMPORTED)
        set_target_properties(doctest::doctest PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${ETWCTL_CROSS_INCLUDE_DIR}")
    endif()
else()
    find_package(Microsoft.GSL CONFIG REQUIRED)
endif()
