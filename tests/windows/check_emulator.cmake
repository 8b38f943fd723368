# CTest script: the Wine wrapper (CMAKE_CROSSCOMPILING_EMULATOR) must pass exit codes through, make
# a crash fail, and strip the CR of Windows line ends.
#   cmake -DEMULATOR=<wrapper> -DPROBE=<emulator_probe.exe> -P check_emulator.cmake
foreach(var EMULATOR PROBE)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_emulator.cmake: ${var} not set")
    endif()
endforeach()

execute_process(COMMAND ${EMULATOR} ${PROBE} print RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "probe print: exit code '${rc}' (expected 0); stderr: ${err}")
endif()
if(NOT out STREQUAL "alpha\nbeta\n")
    string(HEX "${out}" hex)
    message(FATAL_ERROR "probe print: output is not 'alpha\\nbeta\\n' (CR not stripped?): hex ${hex}")
endif()

execute_process(COMMAND ${EMULATOR} ${PROBE} exit 3 RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 3)
    message(FATAL_ERROR "probe exit 3: exit code '${rc}' (expected 3)")
endif()

execute_process(COMMAND ${EMULATOR} ${PROBE} crash RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT rc MATCHES "^[0-9]+$")
    message(FATAL_ERROR "probe crash: exit code '${rc}': a crash must fail the test (winedbg disabled?)")
endif()
message(STATUS "emulator ok: exit codes pass through, crash -> ${rc}, CR stripped")
