# Cross build for x86-64 Windows with mingw-w64 gcc (posix threads), Debian packages
# g++-mingw-w64-x86-64-posix and mingw-w64-x86-64-dev. Every test and example is a static .exe that
# CTest runs under Wine (cmake/wine-run.sh).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(ETWCTL_MINGW_TRIPLE x86_64-w64-mingw32)

set(CMAKE_C_COMPILER ${ETWCTL_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${ETWCTL_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${ETWCTL_MINGW_TRIPLE}-windres)
set(CMAKE_OBJDUMP ${ETWCTL_MINGW_TRIPLE}-objdump CACHE FILEPATH "objdump for the target")

include("${CMAKE_CURRENT_LIST_DIR}/EtwctlCrossDeps.cmake")
