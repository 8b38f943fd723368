cmake_minimum_required(VERSION 3.21)
# cmake -DCXX=<compiler> -DFLAGS=<;-list> -DSOURCES=<;-list> [-DPRELUDE=<header>] -P check_compiles.cmake
# cmake ... -DMODE=tokens -DPRELUDE=<header> -DBASE=<header> -DWORK=<dir> -P check_compiles.cmake
# Default mode: compiles each source (-fsyntax-only) with FLAGS, optionally force-including PRELUDE first;
# fails, listing every diagnostic, if any source does not compile. Used by the strict-user and SDK-macro
# hygiene tests (tests/hygiene/CMakeLists.txt). The compiler is run directly, so tests can run in
# parallel without touching the build tool, and cross builds need no emulator.
# MODE tokens: preprocesses each source (-E -P) after BASE and after PRELUDE (BASE plus macros) and fails,
# showing the first lines that differ, unless both give the same tokens: no macro PRELUDE adds expands
# anywhere in the source or the headers it includes after BASE, nor changes which lines an #if keeps. The
# program the macros leave is then the one the build compiles without them, token for token.
set(ENV{LC_ALL} C)
set(prelude "")
if(PRELUDE)
    set(prelude -include "${PRELUDE}")
endif()
set(failed "")
if(MODE STREQUAL "tokens")
    if(NOT BASE OR NOT PRELUDE OR NOT WORK)
        message(FATAL_ERROR "MODE tokens needs BASE, PRELUDE and WORK")
    endif()
    file(MAKE_DIRECTORY "${WORK}")
    foreach(src IN LISTS SOURCES)
        get_filename_component(stem "${src}" NAME_WE)
        set(without "${WORK}/${stem}.without.ii")
        set(with "${WORK}/${stem}.with.ii")
        execute_process(COMMAND ${CXX} ${FLAGS} -include "${BASE}" -E -P "${src}" -o "${without}"
            RESULT_VARIABLE rc1 ERROR_VARIABLE err1)
        execute_process(COMMAND ${CXX} ${FLAGS} ${prelude} -E -P "${src}" -o "${with}"
            RESULT_VARIABLE rc2 ERROR_VARIABLE err2)
        if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
            string(APPEND failed "\n==== ${src}: does not preprocess\n${err1}${err2}")
            continue()
        endif()
        # -P leaves lines of white space where the macros' #defines were: diff -B -w (diffutils, in every Debian
        # system) ignores white space and blank lines, never a token.
        find_program(DIFF diff)
        if(NOT DIFF)
            message(FATAL_ERROR "MODE tokens needs diff (diffutils)")
        endif()
        execute_process(COMMAND ${DIFF} -B -w "${without}" "${with}" RESULT_VARIABLE same OUTPUT_VARIABLE shown)
        if(NOT same EQUAL 0)
            string(SUBSTRING "${shown}" 0 4000 shown)
            string(APPEND failed "\n==== ${src}: the SDK's macros change its tokens (< without them, > with them):\n${shown}")
            continue()
        endif()
        file(REMOVE "${without}" "${with}")
    endforeach()
    if(failed)
        message("${failed}") # as it is: FATAL_ERROR's text is re-wrapped
        message(FATAL_ERROR "the SDK's macros expand in the program (above)")
    endif()
    list(LENGTH SOURCES n)
    message(STATUS "${n} translation unit(s): the same tokens with and without the macros")
    return()
endif()
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
