# Runs the etwctl tool once and checks its exit code and output.
#   -DTOOL=<path> -DEMULATOR=<a|b> -DARGS=<a|b|c> -DSIM=<ETWCTL_SIM value> -DRC=<exit code>
#   -DSTDOUT=<s1|s2> -DSTDERR=<s1|s2> -DNOT_STDOUT=<s1|s2>: substrings that must (not) appear.
# Lists use '|' so arguments may hold spaces and CMake's ';' never has to be escaped.
cmake_minimum_required(VERSION 3.21) # policies of this era (quoted if() arguments are strings)
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" emulator "${EMULATOR}")
set(ENV{ETWCTL_SIM} "${SIM}")
# Under Wine, a server that drops its client ("wine client error:...: recvmsg: Connection reset by
# peer", seen once in 302 runs) or that the loader cannot reach ("wine: a wine server seems to be
# running, but I cannot connect to it", seen once, in a test program) means the tool never ran: that run
# says nothing about the tool, so it is run again, at most twice more. So does a run that failed with
# nothing at all on stdout and stderr (seen once in CI, exit code 1 after 0.03 s): every failure of the
# tool prints its reason, so silence is the loader failing before the tool ran. Any other outcome is
# judged as it is; a failure that repeats is judged on its third run. (These are what a program meets
# while its server goes down; cmake/wine-run.sh keeps one server up for the whole run.)
foreach(attempt RANGE 1 3)
    execute_process(COMMAND ${emulator} "${TOOL}" ${args}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(emulator AND attempt LESS 3 AND "${out}" STREQUAL "" AND NOT "${rc}" STREQUAL "${RC}")
        if("${err}" MATCHES "wine client error|a wine server seems to be running, but I cannot connect")
            message(STATUS "attempt ${attempt}: Wine lost its server before the tool ran; running it again")
            continue()
        elseif("${err}" MATCHES "^[ \t\r\n]*$")
            message(STATUS "attempt ${attempt}: exit code ${rc} with no output at all (the tool always says why it fails); running it again")
            continue()
        endif()
    endif()
    break()
endforeach()
set(failed "")
if(NOT "${rc}" STREQUAL "${RC}")
    string(APPEND failed "exit code ${rc}, expected ${RC}\n")
endif()
foreach(stream STDOUT STDERR)
    if(stream STREQUAL "STDOUT")
        set(text "${out}")
    else()
        set(text "${err}")
    endif()
    string(REPLACE "\r\n" "\n" text "${text}") # Wine/Windows line ends
    string(REGEX REPLACE "  +" " " text "${text}") # column padding is not part of the contract
    if(NOT "${${stream}}" STREQUAL "")
        string(REPLACE "|" ";" wanted "${${stream}}")
        foreach(w IN LISTS wanted)
            string(REGEX REPLACE "  +" " " w "${w}")
            string(FIND "${text}" "${w}" at)
            if(at EQUAL -1)
                string(APPEND failed "${stream} lacks: ${w}\n")
            endif()
        endforeach()
    endif()
endforeach()
if(NOT "${NOT_STDOUT}" STREQUAL "")
    string(REPLACE "|" ";" unwanted "${NOT_STDOUT}")
    foreach(w IN LISTS unwanted)
        string(FIND "${out}" "${w}" at)
        if(NOT at EQUAL -1)
            string(APPEND failed "STDOUT has: ${w}\n")
        endif()
    endforeach()
endif()
if(DEFINED CALLS) # etwctl_tool_requests_test (session_verbs.cmake): --json's "requests" too
    include(${CMAKE_CURRENT_LIST_DIR}/check_requests.cmake)
endif()
if(DEFINED FIELDS AND NOT "${FIELDS}" STREQUAL "") # etwctl_tool_json_test (wpr.cmake): members of --json's object
    include(${CMAKE_CURRENT_LIST_DIR}/check_json.cmake)
endif()
if(failed)
    message(FATAL_ERROR "etwctl ${ARGS}\n${failed}--- stdout:\n${out}--- stderr:\n${err}")
endif()
