# CTest script: no program may import TraceQueryInformation or NtQueryIntervalProfile statically
# (Wine has neither as a working export; a static import aborts or never loads). native_kernel
# resolves them with GetProcAddress instead.
#   cmake -DOBJDUMP=<x86_64-w64-mingw32-objdump> -DFILES=<a.exe|b.exe> [-DEXPECT_FORBIDDEN=ON] -P check_imports.cmake
# EXPECT_FORBIDDEN=ON inverts the verdict (negative control: the checker must see a bad import).
set(forbidden TraceQueryInformation NtQueryIntervalProfile)
if(NOT OBJDUMP OR NOT FILES)
    message(FATAL_ERROR "check_imports.cmake: OBJDUMP and FILES must be set")
endif()

string(REPLACE "|" ";" FILES "${FILES}")
set(bad "")
foreach(file IN LISTS FILES)
    execute_process(COMMAND ${OBJDUMP} -p ${file} RESULT_VARIABLE rc OUTPUT_VARIABLE dump ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${OBJDUMP} -p ${file} failed: ${err}")
    endif()
    # Sanity: the import table was read (every program imports from KERNEL32).
    string(TOLOWER "${dump}" lower)
    if(NOT lower MATCHES "dll name: kernel32\\.dll")
        message(FATAL_ERROR "${file}: no KERNEL32.dll import found in objdump output; cannot judge imports")
    endif()
    # Import entries are lines "<hint> <name>" after a "DLL Name:" line.
    string(REGEX MATCH "The Import Tables.*" imports "${dump}")
    foreach(name IN LISTS forbidden)
        if(imports MATCHES "[ \t]${name}[\r\n]")
            list(APPEND bad "${file}: imports ${name}")
        endif()
    endforeach()
endforeach()

list(LENGTH FILES n)
if(EXPECT_FORBIDDEN)
    if(NOT bad)
        message(FATAL_ERROR "negative control: the static imports in ${FILES} were not detected")
    endif()
    message(STATUS "negative control detected: ${bad}")
elseif(bad)
    string(REPLACE ";" "\n  " bad "${bad}")
    message(FATAL_ERROR "forbidden static imports:\n  ${bad}")
else()
    message(STATUS "${n} programs checked: no static import of ${forbidden}")
endif()
