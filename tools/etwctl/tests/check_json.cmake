# Included by run_tool.cmake when FIELDS is given: checks members of the one JSON object the tool printed
# (`out`), field by field, and adds what is wrong to `failed`.
#   -DFIELDS=<path=value|path=value>: a path is member names and array indexes joined with '/'
#   ("requests/4/provider"); the member's value (a string without its quotes, a number, true/false) must
#   equal `value`. "path#=N": the array at path has N elements.
string(STRIP "${out}" json)
string(REPLACE "|" ";" fields "${FIELDS}")
foreach(field IN LISTS fields)
    if(field MATCHES "^([^=#]+)#=(.*)$")
        set(path "${CMAKE_MATCH_1}")
        set(want "${CMAKE_MATCH_2}")
        set(mode LENGTH)
    elseif(field MATCHES "^([^=]+)=(.*)$")
        set(path "${CMAKE_MATCH_1}")
        set(want "${CMAKE_MATCH_2}")
        set(mode GET)
    else()
        string(APPEND failed "bad FIELDS item '${field}'\n")
        continue()
    endif()
    string(REPLACE "/" ";" keys "${path}")
    string(JSON got ERROR_VARIABLE json_error ${mode} "${json}" ${keys})
    if(json_error)
        string(APPEND failed "JSON ${path}: ${json_error}\n")
    elseif(NOT "${got}" STREQUAL "${want}")
        string(APPEND failed "JSON ${path} is '${got}', expected '${want}'\n")
    endif()
endforeach()
