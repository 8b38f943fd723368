# Cross build for x86-64 Windows with clang 14 targeting mingw-w64: the mingw-w64 headers and
# import libraries (mingw-w64-x86-64-dev) and the C++ library of mingw gcc 12 (posix threads,
# g++-mingw-w64-x86-64-posix), linked by the mingw gcc driver's linker (GNU ld). Tests run under Wine.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(ETWCTL_MINGW_TRIPLE x86_64-w64-mingw32)
if(NOT DEFINED ETWCTL_MINGW_GCC_VERSION)
    set(ETWCTL_MINGW_GCC_VERSION 12-posix)
endif()
set(_etwctl_gcc_dir "/usr/lib/gcc/${ETWCTL_MINGW_TRIPLE}/${ETWCTL_MINGW_GCC_VERSION}")

set(CMAKE_C_COMPILER clang-14)
set(CMAKE_CXX_COMPILER clang++-14)
set(CMAKE_C_COMPILER_TARGET ${ETWCTL_MINGW_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${ETWCTL_MINGW_TRIPLE})
set(CMAKE_RC_COMPILER ${ETWCTL_MINGW_TRIPLE}-windres)
set(CMAKE_AR /usr/bin/${ETWCTL_MINGW_TRIPLE}-ar CACHE FILEPATH "archiver")
set(CMAKE_RANLIB /usr/bin/${ETWCTL_MINGW_TRIPLE}-ranlib CACHE FILEPATH "ranlib")
set(CMAKE_OBJDUMP ${ETWCTL_MINGW_TRIPLE}-objdump CACHE FILEPATH "objdump for the target")

# clang does not know where Debian keeps mingw gcc's libstdc++ headers: name them (they come before
# the mingw-w64 C headers, as in the gcc driver's own search order).
set(CMAKE_CXX_FLAGS_INIT
    "-isystem ${_etwctl_gcc_dir}/include/c++ -isystem ${_etwctl_gcc_dir}/include/c++/${ETWCTL_MINGW_TRIPLE} -isystem ${_etwctl_gcc_dir}/include/c++/backward")
# Link with GNU ld from binutils-mingw-w64 against gcc 12-posix's libraries; winpthread whole so that
# the static libstdc++ (posix threads) finds every pthread symbol.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-fuse-ld=bfd -L${_etwctl_gcc_dir} -Wl,--whole-archive -lwinpthread -Wl,--no-whole-archive")

include("${CMAKE_CURRENT_LIST_DIR}/EtwctlCrossDeps.cmake")
