# SPDX-License-Identifier: MIT
# Including the umbrella must never make g++ consider a constrained constructor of std::span or of
# std::string_view. Checking one the first time makes g++ 12 normalize the ranges concepts
# (contiguous_iterator, contiguous_range, ...), about 100M compiler instructions in every translation unit
# (docs/performance.md, "Include weight"), and any one place in any header is enough. The places are easy
# to write: a span copied from a non-const lvalue or moved, a span member of a class that is moved, a
# std::string_view built from a (pointer, int).
#
# The check builds a copy of libstdc++'s <span> and <string_view> whose constrained constructors carry one
# more constraint, checked first, that fails to compile; a one-line TU that includes the umbrella is then
# compiled against that copy, and every "required from here" it prints is a place to mend.
#   cmake -DCXX=g++ -DINCLUDE_DIR=... -DWORK_DIR=... [-DEXTRA_LINE=...] -P check_ranges_constraints.cmake
# EXTRA_LINE (the self-test) is appended to the TU: a span copied from a non-const lvalue must be caught.
# A libstdc++ whose headers do not hold the declarations this check edits is reported as skipped.
file(MAKE_DIRECTORY "${WORK_DIR}/std")
set(probe "${WORK_DIR}/probe.cpp")
file(WRITE "${probe}" "#include <span>\n#include <string_view>\n")
execute_process(COMMAND "${CXX}" -std=c++20 -M "${probe}" RESULT_VARIABLE rc OUTPUT_VARIABLE deps ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "listing the standard headers failed:\n${err}")
endif()
string(REGEX REPLACE "[ \\\\\n]+" ";" deps "${deps}")

set(poison [=[
#ifndef ETWCTL_RANGES_POISON
#define ETWCTL_RANGES_POISON
  template<typename _Tp> struct __etwctl_considered
  { static_assert(sizeof(_Tp) == 0, "ETWCTL-POISON: a constrained constructor of std::span or std::string_view is considered"); static constexpr bool value = true; };
  template<typename _Tp> concept __etwctl_contiguous_iterator = __etwctl_considered<_Tp>::value && contiguous_iterator<_Tp>;
#endif
]=])
foreach(name span string_view)
    set(path "")
    foreach(d IN LISTS deps)
        if(d MATCHES "/${name}$")
            set(path "${d}")
        endif()
    endforeach()
    if(NOT path)
        message(STATUS "ETWCTL-SKIP: no <${name}> among the headers ${CXX} reads")
        return()
    endif()
    file(READ "${path}" text)
    string(FIND "${text}" "template<contiguous_iterator _It" at)
    string(FIND "${text}" "namespace std _GLIBCXX_VISIBILITY(default)\n{" ns)
    if(at EQUAL -1 OR ns EQUAL -1)
        message(STATUS "ETWCTL-SKIP: ${path} is not a libstdc++ header this check knows")
        return()
    endif()
    string(REPLACE "namespace std _GLIBCXX_VISIBILITY(default)\n{" "namespace std _GLIBCXX_VISIBILITY(default)\n{\n${poison}" text "${text}")
    string(REPLACE "template<contiguous_iterator _It" "template<__etwctl_contiguous_iterator _It" text "${text}")
    if(name STREQUAL "span")
        set(range_ctor "requires (!__detail::__is_span<remove_cvref_t<_Range>>)")
        string(FIND "${text}" "${range_ctor}" at)
        if(at EQUAL -1)
            message(STATUS "ETWCTL-SKIP: ${path}: no range constructor this check knows")
            return()
        endif()
        string(REPLACE "${range_ctor}" "requires __etwctl_considered<_Range>::value && (!__detail::__is_span<remove_cvref_t<_Range>>)"
               text "${text}")
    endif()
    file(WRITE "${WORK_DIR}/std/${name}" "${text}")
endforeach()

# The copies must be effective: a TU that does consider the constructor fails against them.
file(WRITE "${WORK_DIR}/witness.cpp" "#include <span>\nint a[2];\nstd::span<int> s(a, 2);\n")
execute_process(COMMAND "${CXX}" -std=c++20 "-I${WORK_DIR}/std" -fsyntax-only "${WORK_DIR}/witness.cpp"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "ETWCTL-POISON")
    message(FATAL_ERROR "the edited <span> does not refuse std::span(pointer, count): the check would prove nothing\n${err}")
endif()

set(tu "${WORK_DIR}/umbrella_only.cpp")
file(WRITE "${tu}" "#include \"etwctl/etwctl.hpp\"\n${EXTRA_LINE}\n")
execute_process(COMMAND "${CXX}" -std=c++20 -O2 "-I${WORK_DIR}/std" "-I${INCLUDE_DIR}" -fsyntax-only "${tu}"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0)
    message(STATUS "etwctl/etwctl.hpp alone: no constrained constructor of std::span or std::string_view considered")
    return()
endif()
if(NOT err MATCHES "ETWCTL-POISON")
    message(FATAL_ERROR "compiling the one-line TU failed:\n${err}")
endif()
string(REGEX MATCHALL "[^\n]*(etwctl/[^\n: ]+|umbrella_only\\.cpp):[0-9]+:[0-9]+: +required from here" places "${err}")
set(found "")
foreach(p IN LISTS places)
    string(REGEX REPLACE ".*((etwctl/[^: ]+|umbrella_only\\.cpp):[0-9]+:[0-9]+):.*" "\\1" where "${p}")
    list(APPEND found "${where}")
endforeach()
list(REMOVE_DUPLICATES found)
list(JOIN found "\n  " text)
message(FATAL_ERROR "including etwctl/etwctl.hpp makes g++ consider a constrained constructor of std::span or "
                    "std::string_view (copy spans from const lvalues only, give a class with a span member copy "
                    "members, build views with detail::view_of):\n  ${text}")
