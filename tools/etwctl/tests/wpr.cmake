# End-to-end tests of `etwctl wpr` (WPR profiles) on the simulated kernel (included by CMakeLists.txt:
# etwctl_tool_test, etwctl_tool_requests_test). The profiles are in data/ (sample.wprp and one broken
# copy per fault) and tests/wpr/data/. Builds without pugixml (the mingw cross builds) have no wpr
# command: there it must say so.
if(NOT TARGET etwctl::wpr)
    etwctl_tool_test(wpr_not_in_build RC 1 ARGS wpr -profiles x.wprp STDERR "the wpr command is not in this build")
    return()
endif()

set(wpr_data ${CMAKE_CURRENT_SOURCE_DIR}/data)
set(wpr_lib_data ${CMAKE_CURRENT_SOURCE_DIR}/../../../tests/wpr/data)
set(wpr_system "WPR_initiated_WprApp_WPR System Collector")
set(wpr_events "WPR_initiated_WprApp_Tool Events")
set(wpr_running "logger=5:${wpr_system},user-logger=6:${wpr_events}")

# etwctl_tool_json_test(<name> RC <code> [SIM <ETWCTL_SIM>] ARGS <args>... FIELDS <path=value>... [STDERR <s>...]):
# runs with --sim --json and checks members of the JSON object (check_json.cmake).
function(etwctl_tool_json_test name)
    cmake_parse_arguments(T "" "RC;SIM" "ARGS;FIELDS;STDERR" ${ARGN})
    foreach(v ARGS FIELDS STDERR)
        string(REPLACE ";" "|" ${v} "${T_${v}}")
    endforeach()
    string(REPLACE ";" "|" emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
    add_test(NAME tool.${name}
             COMMAND ${CMAKE_COMMAND} "-DTOOL=$<TARGET_FILE:etwctl_tool>" "-DEMULATOR=${emulator}" "-DARGS=--sim|--json|${ARGS}"
                     "-DSIM=${T_SIM}" "-DRC=${T_RC}" "-DFIELDS=${FIELDS}" "-DSTDERR=${STDERR}"
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/run_tool.cmake)
endfunction()

# ---- -start: the calls, field by field ----
etwctl_tool_json_test(wpr_start_dry_run_json RC 0 ARGS --dry-run wpr -start "${wpr_data}/sample.wprp!Tool" -filemode
    FIELDS "ok=ON" "profile=Tool.Verbose.File" "warnings#=0" "sessions#=2"
           "sessions/0/name=${wpr_system}" "sessions/0/log_file=${wpr_system}.etl" "sessions/1/log_file=${wpr_events}.etl"
           "requests#=6"
           # StartTrace of the system logger: its properties from SysColl (256 KB x 32), a sequential file, system logger mode
           "requests/0/session=${wpr_system}" "requests/0/sent=OFF"
           "requests/0/fields/5/note=BufferSize 256 KB" "requests/0/fields/6/note=MinimumBuffers 32" "requests/0/fields/7/note=MaximumBuffers 32"
           "requests/0/fields/9/hex=01 00 00 02" # LogFileMode SEQUENTIAL | SYSTEM_LOGGER_MODE
           # the group mask: class 1, the dry run's handle, Masks[0] 0x17 (ProcessThread 0x3, Loader 0x4, CSwitch 0x10)
           "requests/1/bytes=010000000000000000000000010000001700000000000000000000000000000000000000000000000000000000000000"
           # the stack list: class 6, hook ids 0x0524 (CSwitch) and 0x030A (ImageLoad)
           "requests/2/bytes=06000000000000000000000001000000240500000a030000"
           "requests/3/session=${wpr_events}" "requests/3/fields/5/note=BufferSize 64 KB"
           "requests/3/fields/9/note=LogFileMode 0x00000001 EVENT_TRACE_FILE_MODE_SEQUENTIAL"
           # EnableTraceEx2: the provider by GUID (Level 4, Keywords 0x10 | 0x2000), then *Contoso-Tool-Markers hashed
           "requests/4/provider=3f1c9a2e-5b7d-4c11-9e0a-2d4b6f8a1c35" "requests/4/provider_name=3f1c9a2e-5b7d-4c11-9e0a-2d4b6f8a1c35"
           "requests/4/level=4" "requests/4/match_any=0x0000000000002010" "requests/4/match_all=0x0000000000000000"
           "requests/4/handle=0x0000000200000000"
           "requests/5/provider=fd9ee5f1-9aa0-5308-3fe4-8d955b0c4791" "requests/5/provider_name=*Contoso-Tool-Markers"
           "requests/5/level=5" "requests/5/match_any=0x0000000000000000")
# The same start sent: each properties block whole, with the session's name and its log file.
etwctl_tool_requests_test(wpr_start_requests RC 0 ARGS --trace wpr -start "${wpr_data}/sample.wprp!Tool" -filemode
    CALLS StartTraceW NtSetSystemInformation NtSetSystemInformation StartTraceW EnableTraceEx2 EnableTraceEx2
    FILES "${wpr_system}.etl" "${wpr_events}.etl")
etwctl_tool_test(wpr_start_text RC 0 ARGS wpr -start "${wpr_data}/sample.wprp!Tool"
    STDOUT "started '${wpr_system}' (logger 1): in memory" "started '${wpr_events}' (logger 2): in memory" "Tool.Verbose.Memory: 2 sessions running")
# Warnings: in "warnings" and on stderr.
etwctl_tool_json_test(wpr_start_warnings RC 0 ARGS --dry-run wpr -start "${wpr_lib_data}/office_cpu.wprp!Lean.Light"
    FIELDS "warnings#=4" "warnings/0/check=doc_rule" "warnings/0/line=10" "warnings/3/check=reading" "warnings/3/element=StackCaching"
    STDERR "warning: <Profiles>: 5 profiles" "warning: <StackCaching>: StackCaching CacheSize=3072")
# A provider named by a manifest name: only Windows' registry knows it; refused before any call.
etwctl_tool_test(wpr_start_manifest_name RC 1 ARGS --trace wpr -start "${wpr_lib_data}/office_cpu.wprp!Sampling"
    STDERR "check of provider 'Contoso.App.Markers'" "cannot be resolved on the simulated machine" "nothing was sent" "(none)")
# A failure midway: the second StartTrace finds no slot; the system logger is stopped again and the step named.
etwctl_tool_test(wpr_start_rolled_back RC 3 SIM max-loggers=2 ARGS wpr -start "${wpr_data}/sample.wprp!Tool"
    STDERR "stopped '${wpr_system}' again: a later step failed"
           "cannot start Tool.Verbose.Memory: StartTrace of '${wpr_events}': StartTrace: no session slot" "ERROR_NO_SYSTEM_RESOURCES")

# Issue 34 item 4: a collector Name that is a path (its file three directories up) is refused before any
# call, naming it; -stop skips a running session with such a name and saves the others.
etwctl_tool_json_test(wpr_start_name_path RC 2 ARGS --dry-run wpr -start "${wpr_data}/name_path.wprp!Tool" -filemode
    FIELDS "ok=OFF" "exit_code=2" "requests#=0" "error/rule=session_name_invalid" "details/step=check"
    STDERR "holds a path separator '\\' at offset 22" "rename the collector (Name=)" "nothing was sent")
etwctl_tool_test(wpr_stop_skips_path_name RC 4
    SIM "logger=5:${wpr_system},user-logger=6:WPR_initiated_WprApp_x/../evil" ARGS wpr -stop out/merged.etl
    STDOUT "stopped '${wpr_system}': events in out/${wpr_system}.etl"
    STDERR "skipped: 'WPR_initiated_WprApp_x/../evil' holds a path separator '/' at offset 22" "left running"
           "the events are in the 1 files named above")
etwctl_tool_json_test(wpr_stop_skips_path_name_json RC 4
    SIM "logger=5:${wpr_system},user-logger=6:WPR_initiated_WprApp_x/../evil" ARGS wpr -stop out/merged.etl
    FIELDS "details/sessions#=2" "details/sessions/0/stopped=ON" "details/sessions/1/stopped=OFF" "details/sessions/1/log_file="
           "details/files#=1")
# Issue 35 item 4: a stack cache below the kernel's minimum (CacheSize="1024", as Microsoft's MSO-Scripts
# FileDiskIO profile writes) is applied clamped to 3 MiB, as the kernel would clamp it, with a warning that
# names both values: the stack-caching request carries CacheSize 0x00300000.
etwctl_tool_json_test(wpr_start_stack_cache_clamped RC 0 ARGS --dry-run wpr -start "${wpr_data}/stack_cache_too_small.wprp!Tool"
    FIELDS "ok=ON" "requests#=6" "clamped#=1" "clamped/0/setting=StackCaching CacheSize" "clamped/0/written=1048576"
           "clamped/0/applied=3145728" "warnings#=2" "warnings/1/check=clamped" "warnings/1/line=11"
           # class 0x10, the handle, Enabled 1, CacheSize 3145728 (0x300000), BucketCount 256
           "requests/3/bytes=1000000000000000000000000100000001000000000030000001000000000000"
    STDERR "warning: <StackCaching>: StackCaching CacheSize=1024 (KB) is below the kernel's minimum of 3072 KB (3 MiB): the kernel clamps it; applied as 3072 KB (3145728 bytes) [clamped]")
etwctl_tool_test(wpr_start_stack_cache_clamped_text RC 0 ARGS wpr -start "${wpr_data}/stack_cache_too_small.wprp!Tool"
    STDOUT "started '${wpr_system}' (logger 1): in memory" "Tool.Verbose.Memory: 2 sessions running; 2 warnings on stderr"
    STDERR "CacheSize=1024 (KB) is below the kernel's minimum of 3072 KB (3 MiB)")
etwctl_tool_test(wpr_check_stack_cache_clamped RC 0 ARGS wpr -check "${wpr_data}/stack_cache_too_small.wprp!Tool"
    STDOUT "stack caching 1024 KB, 256 buckets" "the profile can be applied (2 warnings)"
    STDERR "applied as 3072 KB (3145728 bytes) [clamped]")
# A rule's refusal after calls were sent (a counter that is not a PMC, refused by setup_pmc) rolls back
# and exits 4, the calls sent listed in `applied` and `details/sent`.
etwctl_tool_json_test(wpr_start_rule_after_sent RC 4 ARGS wpr -start "${wpr_data}/counter_not_pmc.wprp!Tool"
    FIELDS "ok=OFF" "exit_code=4" "error/kind=partial" "error/rule=pmc_counter_not_pmc" "details/step=setup_pmc"
           "details/sent#=4" "details/rolled_back#=1" "details/rolled_back/0=${wpr_system}" "applied#=4")
etwctl_tool_test(wpr_start_rule_after_sent_text RC 4 ARGS wpr -start "${wpr_data}/counter_not_pmc.wprp!Tool"
    STDERR "stopped '${wpr_system}' again: a later step failed" "4 calls were sent (the stops included)"
           "sessions started were stopped again" "#1 StartTraceW" "EVENT_TRACE_CONTROL_STOP")

# ---- broken profiles: refused, the fault named, nothing sent ----
function(wpr_broken name line column check element text)
    etwctl_tool_json_test(wpr_broken_${name} RC 2 ARGS --dry-run wpr -start "${wpr_data}/broken_${name}.wprp!Tool"
        FIELDS "ok=OFF" "exit_code=2" "requests#=0" "details/findings#=1" "details/findings/0/line=${line}"
               "details/findings/0/column=${column}" "details/findings/0/check=${check}" "details/findings/0/element=${element}"
        STDERR "${text}" "the profile cannot be applied: 1 error in" "nothing was sent")
endfunction()
wpr_broken(keyword 18 18 value Keyword "error: <Keyword>: Value: 'CSwich' is not a SystemProvider keyword of WPR's schema; did you mean 'CSwitch'?")
wpr_broken(stack 22 16 value Stack "error: <Stack>: Value: 'ImageLoadd' is not a Stack name of WPR's schema; did you mean 'ImageLoad'?")
wpr_broken(unclosed 13 7 xml "" "error: not well-formed XML: Start-end tags mismatch")
wpr_broken(base 10 52 base_unknown EventCollector "Base 'EvColl_Shared' names no <EventCollector> in the files given")
wpr_broken(number 12 16 value Buffers "error: <Buffers>: Value: '1x6' is not a decimal number")

# ---- -status, -stop, -cancel on sessions named as WPR names them ----
etwctl_tool_test(wpr_status RC 0 SIM "${wpr_running}" ARGS wpr -status
    STDOUT "${wpr_system} (logger 5): EVENT_TRACE_REAL_TIME_MODE|EVENT_TRACE_SYSTEM_LOGGER_MODE, 64 KB x 16..16" "${wpr_events} (logger 6)" "2 WPR sessions")
etwctl_tool_json_test(wpr_status_profile RC 0 SIM "${wpr_running}" ARGS wpr -status "${wpr_data}/sample.wprp!Tool"
    FIELDS "matches=OFF" "sessions#=2" "differences/0/kind=differs" "differences/0/what=buffer_size_kb"
           "differences/0/expected=256" "differences/0/actual=64"
           "differences/6/kind=cannot be read back" "differences/6/what=stack list (2 events)"
           "differences/8/kind=cannot be read back" "differences/8/what=providers (2)")
etwctl_tool_test(wpr_status_profile_text RC 0 SIM "${wpr_running}" ARGS wpr -status "${wpr_data}/sample.wprp!Tool"
    STDOUT "${wpr_system}: stack list (2 events) cannot be read back (TraceQueryInformation has no query for TraceStackTracingInfo"
           "Tool.Verbose.Memory: the running sessions differ from the profile")
etwctl_tool_test(wpr_stop RC 4 SIM "${wpr_running}" ARGS wpr -stop out/merged.etl
    STDOUT "stopped '${wpr_system}': events in out/${wpr_system}.etl" "stopped '${wpr_events}': events in out/${wpr_events}.etl"
    STDERR "out/merged.etl was not written: WPR merges its sessions' files into one with a KernelTraceControl merge that is not public")
etwctl_tool_json_test(wpr_stop_json RC 4 SIM "${wpr_running}" ARGS wpr -stop merged.etl
    FIELDS "ok=OFF" "exit_code=4" "details/merged=OFF" "details/files#=2" "details/files/0=${wpr_system}.etl"
           "details/sessions#=2" "details/sessions/1/name=${wpr_events}" "details/sessions/1/stopped=ON")
etwctl_tool_test(wpr_cancel RC 0 SIM "${wpr_running}" ARGS --trace wpr -cancel
    STDOUT "stopped '${wpr_system}': its events were not saved" "stopped '${wpr_events}': its events were not saved" "ControlTraceW")
etwctl_tool_test(wpr_cancel_none RC 3 ARGS wpr -cancel STDERR "no WPR session runs (none is named WPR_initiated_WprApp_...)")

# ---- -profiles, -check, --base ----
etwctl_tool_test(wpr_profiles RC 0 ARGS wpr -profiles "${wpr_data}/sample.wprp"
    STDOUT "Tool.Verbose (File mode) Id Tool.Verbose.File" "Tool.Verbose (Memory mode) Id Tool.Verbose.Memory, Base Tool.Verbose.File" "2 profiles")
etwctl_tool_test(wpr_check RC 0 ARGS wpr -check "${wpr_data}/sample.wprp!Tool" -filemode
    STDOUT "session '${wpr_system}' (system logger): EVENT_TRACE_FILE_MODE_SEQUENTIAL|EVENT_TRACE_SYSTEM_LOGGER_MODE, 256 KB x 32 buffers"
           "stacks CSwitch+ImageLoad" "EnableTraceEx2 *Contoso-Tool-Markers: level 5" "the profile can be applied (0 warnings)")
etwctl_tool_test(wpr_check_builtin_base RC 0 ARGS wpr -check "${wpr_lib_data}/console_perf.wprp!ConsoleTest" -filemode
    STDERR "[base_builtin]")
etwctl_tool_json_test(wpr_check_base_file RC 0 ARGS wpr -check "${wpr_lib_data}/console_perf.wprp!ConsoleTest" -filemode
    --base "${wpr_lib_data}/general_export.wprp"
    FIELDS "ok=ON" "plan/profile=ConsoleTest.Verbose.File")
etwctl_tool_test(wpr_check_broken RC 2 ARGS wpr -check "${wpr_data}/broken_keyword.wprp!Tool" STDERR "'CSwich'")

# Issue 35 item 5: -check FILE (no !Profile) checks every profile of the file, each with its plan and its
# warnings; exit 0 when every one can be applied, else 2 naming the ones that cannot.
etwctl_tool_test(wpr_check_file_all_ok RC 0 ARGS wpr -check "${wpr_data}/sample.wprp"
    STDOUT "sample.wprp!Tool.Verbose (File mode, Id Tool.Verbose.File)" "Tool.Verbose.File: can be applied (0 warnings)"
           "sample.wprp!Tool.Verbose (Memory mode, Id Tool.Verbose.Memory)" "Tool.Verbose.Memory: can be applied (0 warnings)"
           "sample.wprp: every one of its 2 profiles can be applied")
etwctl_tool_json_test(wpr_check_file_all_ok_json RC 0 ARGS wpr -check "${wpr_data}/sample.wprp"
    FIELDS "ok=ON" "profiles#=2" "profiles/0/id=Tool.Verbose.File" "profiles/0/ok=ON" "profiles/0/plan/profile=Tool.Verbose.File"
           "profiles/0/plan/system/session/log_file_mode=0x02000001" "profiles/1/id=Tool.Verbose.Memory" "profiles/1/logging_mode=Memory"
           "profiles/1/plan/system/session/log_file_mode=0x02000400" "profiles/1/errors#=0" "warnings#=0")
etwctl_tool_test(wpr_check_file_some_fail RC 2 ARGS wpr -check "${wpr_data}/multi_profile.wprp"
    STDOUT "CPU.Light.Memory: can be applied (0 warnings)"
           "stack caching 2048 KB, 256 buckets"
           "warning: <StackCaching>: StackCaching CacheSize=2048 (KB) is below the kernel's minimum of 3072 KB (3 MiB)"
           "CPU.Verbose.Memory: can be applied (2 warnings)"
           "error: <EventProviderId>: 'Prov_Missing' names no <EventProvider>" "IO.Verbose.Memory: cannot be applied (1 error)"
    STDERR "warning: <Profiles>: several profile Names (CPU, IO)"
           "1 of the 3 profiles in ${wpr_data}/multi_profile.wprp cannot be applied: IO.Verbose.Memory")
etwctl_tool_json_test(wpr_check_file_some_fail_json RC 2 ARGS wpr -check "${wpr_data}/multi_profile.wprp"
    FIELDS "ok=OFF" "exit_code=2" "error/kind=refused" "details/failing#=1" "details/failing/0=IO.Verbose.Memory"
           "details/profiles#=3" "details/profiles/0/ok=ON" "details/profiles/0/detail_level=Light"
           "details/profiles/1/ok=ON" "details/profiles/1/warnings#=2" "details/profiles/1/warnings/1/check=clamped"
           "details/profiles/1/plan/profile=CPU.Verbose.Memory"
           "details/profiles/2/ok=OFF" "details/profiles/2/errors#=1" "details/profiles/2/errors/0/check=reference_unknown"
           "details/warnings#=1" "details/warnings/0/check=doc_rule")
# A file whose own checks fail: no profile is checked, the error named.
etwctl_tool_test(wpr_check_file_broken RC 2 ARGS wpr -check "${wpr_data}/broken_keyword.wprp"
    STDERR "'CSwich'" "the file cannot be applied: 1 error in")
# FILE!Profile still checks one profile; -filemode chooses one profile's version, so it needs !Profile.
etwctl_tool_json_test(wpr_check_one_of_many RC 0 ARGS wpr -check "${wpr_data}/multi_profile.wprp!CPU.Light"
    FIELDS "ok=ON" "plan/profile=CPU.Light.Memory")
etwctl_tool_test(wpr_check_file_filemode RC 1 ARGS wpr -check "${wpr_data}/sample.wprp" -filemode
    STDERR "-filemode chooses the File version of one profile (FILE!Profile)")

# ---- usage ----
etwctl_tool_test(wpr_no_verb RC 1 ARGS wpr "${wpr_data}/sample.wprp" STDERR "expected -start, -stop, -cancel, -status, -profiles or -check")
etwctl_tool_test(wpr_start_no_file RC 1 ARGS wpr -start STDERR "-start needs FILE!Profile")
etwctl_tool_test(wpr_check_no_file RC 1 ARGS wpr -check STDERR "-check needs FILE[!Profile]")
etwctl_tool_test(wpr_cancel_base RC 1 ARGS wpr -cancel --base x.wprp STDERR "--base applies to -start, -check and -status only")
etwctl_tool_test(wpr_missing_file RC 1 ARGS wpr -start nowhere.wprp!Tool STDERR "cannot read the profile file 'nowhere.wprp'")
etwctl_tool_test(wpr_missing_base_file RC 1 ARGS wpr -check "${wpr_data}/sample.wprp!Tool" --base nowhere.wprp
    STDERR "cannot read the base file (--base) 'nowhere.wprp'")
