cmake_minimum_required(VERSION 3.21)
# cmake -DCXX=<compiler> -DFLAGS=<;-list> -DSOURCES=<;-list> [-DPRELUDE=<header>] -P check_compiles.cmake
# Compiles each source (-fsyntax-only) with FLAGS, optionally force-including PRELUDE first; fails,
# listing every diagnostic, if any source does not compile. Used by the strict-user and SDK-macro
# hygiene tests (tests/hygiene/CMakeLists.txt). The compiler is run directly, so tests can run in
# parallel without touching the build tool, and cross builds need no emulator.
set(ENV{LC_ALL} C)
set(prelude "")
if(PRELUDE)
    set(prelude -include "${PRELUDE}")
endif()
set(failed "")
foreach(src IN LISTS SOURCES)
    execute_process(COMMAND ${CXX} ${FLAGS} ${prelude} -fsyntax-only "${src}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        string(APPEND failed "\n==== ${src}\n${out}")
    endif()
endforeach()
if(failed)
    message(FATAL_ERROR "did not compile:${failed}")
endif()
list(LENGTH SOURCES n)
message(STATUS "${n} translation unit(s) compiled")
