# cmake -DGENERATOR=<exe> [-DEMULATOR=<runner>] -DDOC=<committed md> -DOUT=<scratch md> -P check_reference.cmake
# Regenerates the reference from the tables and fails if the committed document differs.
execute_process(COMMAND ${EMULATOR} ${GENERATOR} ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generator failed (${rc})")
endif()
file(READ "${OUT}" generated)
file(READ "${DOC}" committed)
string(REPLACE "\r\n" "\n" committed "${committed}") # a checkout with CRLF line ends is still in sync
if(NOT generated STREQUAL committed)
    message(FATAL_ERROR "docs/reference.md is out of date with the tables; regenerate it with "
                        "`cmake --build <build dir> --target etwctl_update_reference` (fresh copy: ${OUT})")
endif()
message(STATUS "docs/reference.md matches the tables")
