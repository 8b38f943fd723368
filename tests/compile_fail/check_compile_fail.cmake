cmake_minimum_required(VERSION 3.21) # list() keeps empty elements (CMP0007)
# cmake -DCXX=<compiler> -DFAMILY=gcc|clang -DFLAGS=<;-list> -DSOURCE=<x.fail.cpp> -DTWIN=<x.pass.cpp>
#       -P check_compile_fail.cmake
# Passes only if the twin compiles and SOURCE fails with the expected message(s) and one error.
set(ENV{LC_ALL} C) # plain quotes in gcc's messages

execute_process(COMMAND ${CXX} ${FLAGS} -fsyntax-only ${TWIN}
    RESULT_VARIABLE twin_rc OUTPUT_VARIABLE twin_out ERROR_VARIABLE twin_out)
if(NOT twin_rc EQUAL 0)
    message(FATAL_ERROR "the well-formed twin ${TWIN} does not compile:\n${twin_out}")
endif()

file(STRINGS ${SOURCE} header LIMIT_COUNT 8)
list(GET header 0 first)
if(NOT first MATCHES "^// expect: (.+)$")
    message(FATAL_ERROR "${SOURCE}: the first line must be '// expect: <regex>'")
endif()
set(patterns "${CMAKE_MATCH_1}")
set(max_errors 1)
foreach(line IN LISTS header)
    if(line MATCHES "^// expect-(any|${FAMILY}): (.+)$")
        list(APPEND patterns "${CMAKE_MATCH_2}")
    elseif(line MATCHES "^// max-errors: ([0-9]+)$")
        set(max_errors ${CMAKE_MATCH_1})
    endif()
endforeach()

execute_process(COMMAND ${CXX} ${FLAGS} -fsyntax-only ${SOURCE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} compiled, but the misuse must not")
endif()
# The expectations name etwctl's entities without the inline ABI namespace (etwctl::v1::x is etwctl::x).
string(REGEX REPLACE "etwctl::v1[a-z0-9_]*::" "etwctl::" out "${out}")
foreach(p IN LISTS patterns)
    string(REGEX MATCH "${p}" found "${out}")
    if(NOT found)
        message(FATAL_ERROR "${SOURCE} failed, but without the expected text\n  ${p}\ncompiler output:\n${out}")
    endif()
endforeach()
string(REGEX MATCHALL "(^|\n)[^\n]*error: " errors "${out}")
list(LENGTH errors n)
if(n GREATER max_errors)
    message(FATAL_ERROR "${SOURCE}: ${n} errors for one mistake (at most ${max_errors}):\n${out}")
endif()
message(STATUS "${SOURCE}: fails as expected (${n} error)")
