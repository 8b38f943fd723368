# SPDX-License-Identifier: MIT
# A translation unit that includes the umbrella and calls nothing must instantiate no error category, no
# std::optional and no reader of the name tables: those are built where a call that needs them is compiled
# (error.hpp's categories, result<T>, names/'s lookups, the name tables kernel_event_table<>,
# perf_flag_table<>, ..., the GUID hash's slots, and their readers; docs/performance.md, "Include weight"). Reads clang's
# -ftime-trace of a one-line TU and fails on any InstantiateClass / InstantiateFunction event that names one.
#   cmake -DCXX=clang++ -DINCLUDE_DIR=... -DWORK_DIR=... [-DEXTRA_LINE=...] -P check_lazy_instantiation.cmake
# EXTRA_LINE (the self-test) is appended to the TU: a use that does instantiate a category must be caught.
file(MAKE_DIRECTORY "${WORK_DIR}")
set(tu "${WORK_DIR}/umbrella_only.cpp")
file(WRITE "${tu}" "#include \"etwctl/etwctl.hpp\"\n${EXTRA_LINE}\n")
execute_process(COMMAND "${CXX}" -std=c++20 -O2 "-I${INCLUDE_DIR}" -c "${tu}" -o "${WORK_DIR}/umbrella_only.o"
                        -ftime-trace -ftime-trace-granularity=0
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "compiling the one-line TU failed:\n${err}")
endif()
file(READ "${WORK_DIR}/umbrella_only.json" trace)
string(REGEX MATCHALL "\"name\":\"Instantiate(Class|Function)\",\"args\":{\"detail\":\"[^\"]*\"" events "${trace}")
list(LENGTH events count)
if(count LESS 100)
    message(FATAL_ERROR "the trace holds ${count} instantiation events: not clang's -ftime-trace format this check reads")
endif()
set(found "")
foreach(e IN LISTS events)
    if(e MATCHES "category_impl|etwctl::no_error|etwctl::make_error_code|_error_code<|std::optional<|kernel_event_row<|kernel_event_name<|find_kernel_event<|parse_stack_walk<|format_stack_walk<"
       OR e MATCHES "perf_flag_row<|perf_flag_name<|find_xperf_kernel_(flag|group)<|resolve_flag<|(parse|format)_kernel_flags<"
       OR e MATCHES "make_hook_slots<|hook_slot_of<|group_or_empty<")
        string(REGEX REPLACE ".*\"detail\":\"([^\"]*)\"" "\\1" what "${e}")
        list(APPEND found "${what}")
    endif()
endforeach()
if(found)
    list(REMOVE_DUPLICATES found)
    list(JOIN found "\n  " text)
    message(FATAL_ERROR "including etwctl/etwctl.hpp instantiated (a non-template use that should name a template parameter):\n  ${text}")
endif()
message(STATUS "etwctl/etwctl.hpp alone: ${count} instantiations, no error category, no std::optional, no reader of the name tables")
