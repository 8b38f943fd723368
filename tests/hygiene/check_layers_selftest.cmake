# cmake -DCHECK=<check_layers.cmake> -DFIXTURE=<layers_fixture> -DARCHITECTURE=<docs/architecture.md> -P check_layers_selftest.cmake
# The layering check can fail: on a fixture tree with a lower layer including a higher one, a face
# including another face and a folder no layer names, it must fail and name each offending pair.
cmake_minimum_required(VERSION 3.21)
execute_process(COMMAND ${CMAKE_COMMAND} "-DINCLUDE_DIR=${FIXTURE}" "-DARCHITECTURE=${ARCHITECTURE}" -P "${CHECK}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
    message(FATAL_ERROR "check_layers.cmake passed a tree that breaks the rule:\n${out}")
endif()
string(REGEX REPLACE "\n +" " " out "${out}") # CMake wraps long messages
foreach(expected
        "etwctl/names/bad.hpp (layer 'names', rank 5) includes etwctl/typed/set.hpp (layer 'typed face', rank 8)"
        "etwctl/typed/set.hpp (layer 'typed face', rank 8) includes etwctl/compat.hpp (layer 'drop-in face', rank 8)"
        "etwctl/unranked/x.hpp: no layer")
    string(FIND "${out}" "${expected}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "check_layers.cmake's failure does not say: ${expected}\n--- it said:\n${out}")
    endif()
endforeach()
foreach(allowed "etwctl/names/bad.hpp (layer 'names', rank 5) includes etwctl/config.hpp"
                "includes etwctl/typed/tags.hpp")
    string(FIND "${out}" "${allowed}" at)
    if(NOT at EQUAL -1)
        message(FATAL_ERROR "check_layers.cmake refused an allowed include (${allowed}):\n${out}")
    endif()
endforeach()
message(STATUS "check_layers.cmake refuses the fixture's three faults and names them")
