# Install rules, component "library": the headers, a header-only, architecture-independent CMake
# package, a pkg-config file beside it (share/pkgconfig/etwctl.pc) and the documents
# (share/doc/etwctl: README.md, LICENSE, CHANGELOG.md, docs/*.md). Nothing here needs a build:
# `cmake -S . -B b && cmake --install b --prefix p` works. The etwctl tool is component "tool",
# installed only once built (tools/etwctl/CMakeLists.txt); asked for without it, the install says so.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
install(DIRECTORY include/etwctl DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT library
    FILES_MATCHING PATTERN "*.hpp")
install(TARGETS etwctl EXPORT etwctlTargets COMPONENT library)
install(EXPORT etwctlTargets NAMESPACE etwctl:: DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/etwctl COMPONENT library)
configure_package_config_file(cmake/etwctlConfig.cmake.in "${CMAKE_CURRENT_BINARY_DIR}/etwctlConfig.cmake"
    INSTALL_DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/etwctl)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/etwctlConfigVersion.cmake"
    COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/etwctlConfig.cmake" "${CMAKE_CURRENT_BINARY_DIR}/etwctlConfigVersion.cmake"
    DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/etwctl COMPONENT library)

# pkg-config. Microsoft GSL ships no .pc (the "gsl" module is the GNU Scientific Library, a different
# library), so unless this machine's pkg-config knows a Microsoft.GSL module, etwctl.pc carries GSL's
# include directory itself - none when the compiler searches it anyway (/usr/include on Debian). Cross
# builds leave it out: their GSL directory is a build-tree link (cmake/toolchains/).
set(ETWCTL_PC_REQUIRES "")
set(ETWCTL_PC_GSL_CFLAGS "")
if(NOT CMAKE_CROSSCOMPILING)
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
        pkg_check_modules(ETWCTL_PC_GSL QUIET Microsoft.GSL)
    endif()
    if(ETWCTL_PC_GSL_FOUND)
        set(ETWCTL_PC_REQUIRES "Requires: Microsoft.GSL\n")
    else()
        get_target_property(etwctl_gsl_dirs Microsoft.GSL::GSL INTERFACE_INCLUDE_DIRECTORIES)
        foreach(dir IN LISTS etwctl_gsl_dirs)
            if(dir AND NOT dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES AND NOT dir STREQUAL "/usr/include")
                string(APPEND ETWCTL_PC_GSL_CFLAGS " -I${dir}")
            endif()
        endforeach()
    endif()
endif()
# share/pkgconfig -> the prefix, as a relative path, so the file works wherever the tree is installed.
set(ETWCTL_PC_TO_PREFIX "..")
string(REGEX MATCHALL "[^/]+" etwctl_datadir_parts "${CMAKE_INSTALL_DATADIR}")
foreach(part IN LISTS etwctl_datadir_parts)
    string(APPEND ETWCTL_PC_TO_PREFIX "/..")
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_DATADIR}")
    set(ETWCTL_PC_TO_PREFIX "")
    file(RELATIVE_PATH ETWCTL_PC_TO_PREFIX "${CMAKE_INSTALL_DATADIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
endif()
configure_file(cmake/etwctl.pc.in "${CMAKE_CURRENT_BINARY_DIR}/etwctl.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/etwctl.pc" DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig COMPONENT library)

# The documents, as a packager ships them: README's links to docs/*.md keep working in share/doc/etwctl.
install(FILES README.md LICENSE CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT library)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT library FILES_MATCHING PATTERN "*.md")

# The tool component when this tree cannot build the tool (ETWCTL_BUILD_TOOL=OFF): asked for by name,
# the install fails and says how to get it instead of installing nothing.
if(NOT TARGET etwctl_tool)
    install(CODE "if(CMAKE_INSTALL_COMPONENT STREQUAL \"tool\")
    message(FATAL_ERROR \"etwctl: this build tree has no etwctl tool (ETWCTL_BUILD_TOOL is OFF): configure with -DETWCTL_BUILD_TOOL=ON, then cmake --build ${CMAKE_BINARY_DIR} --target etwctl_tool and cmake --install ${CMAKE_BINARY_DIR} --component tool\")
endif()" COMPONENT tool)
endif()
