# Install rules: headers plus a header-only, architecture-independent CMake package, component
# "library". Nothing here needs a build: `cmake -S . -B b && cmake --install b --prefix p` works.
# The etwctl tool is component "tool", installed only once built (tools/etwctl/CMakeLists.txt).
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
