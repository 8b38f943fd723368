# End-to-end tests of the session verbs and of reading the whole xperf line before anything is sent
# (included by CMakeLists.txt: etwctl_tool_test).

# ---- the line is read whole first: a mistake anywhere sends nothing ----
# A bad stack-walk name after -on: before, the group mask was sent and the exit code was 1.
etwctl_tool_test(xperf_bad_name_after_on RC 1 ARGS --trace -on PROC_THREAD -stackwalk ProfileFoo
                 STDERR "bad event list 'ProfileFoo': unknown name 'ProfileFoo'" "(did you mean Profile?)" "kernel requests:" "(none)"
                 NOT_STDOUT "NtSetSystemInformation")
etwctl_tool_test(xperf_bad_name_after_on_json RC 1 ARGS --dry-run --json -on PROC_THREAD -stackwalk ProfileFoo
                 STDOUT "{\"ok\":false,\"exit_code\":1,\"error\":{\"kind\":\"usage\"" "\"requests\":[]}")
# A failure after a call took effect: exit 4, the calls named (stderr and --json "applied").
etwctl_tool_test(xperf_partial_json RC 4 ARGS --json --trace -session kernel -on PROC_THREAD -pmc TotalCycles CSwitch
                 STDOUT "{\"ok\":false,\"exit_code\":4," "\"rule\":\"pmc_event_group_not_enabled\""
                        "\"applied\":[\"#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes): class 0x01 EventTraceGroupMaskInformation\"]"
                        "\"requests\":[{\"call\":\"NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes)\"")
# Repeated options: refused (they used to keep the last value silently); -stackwalk may repeat, as in xperf.
etwctl_tool_test(xperf_on_twice RC 1 ARGS --trace -on PROC_THREAD -on LOADER STDERR "-on given twice" "(none)")
etwctl_tool_test(xperf_setprofint_twice RC 1 ARGS -setprofint 1221 -setprofint 2000 STDERR "-setprofint given twice")
etwctl_tool_test(xperf_pmc_twice RC 1 ARGS -on CSWITCH -pmc TotalCycles CSwitch -pmc InstructionRetired CSwitch STDERR "-pmc given twice")
etwctl_tool_test(xperf_session_twice RC 1 SIM "logger=5:A,logger=6:B" ARGS -session A -session B -on Latency STDERR "-session given twice")
etwctl_tool_test(xperf_bufsize_twice RC 1 ARGS -start S -on *Foo -f s.etl -BufferSize 64 -buffersize 128 STDERR "-BufferSize given twice")
etwctl_tool_test(xperf_same_session_twice RC 1 ARGS -start S -on *Foo -f a.etl -start s -on *Bar -f b.etl
                 STDERR "'s' is given two groups on one line (-start and -start)")
etwctl_tool_test(xperf_kernel_logger_twice RC 1 ARGS -on PROC_THREAD -f k.etl -start "NT Kernel Logger" -on LOADER -f l.etl
                 STDERR "NT Kernel Logger is given two groups on one line")
# -d merges files: not a session verb.
etwctl_tool_test(xperf_merge_refused RC 1 ARGS -stop -stop SamplySession -d merged.etl
                 STDERR "-d (merge the stopped sessions' files into one) is not a session verb")
# Options a group does not take, named.
etwctl_tool_test(xperf_stop_takes_names RC 1 ARGS -stop S -on PROC_THREAD STDERR "-on does not apply to -stop (it takes session names only)")
etwctl_tool_test(xperf_update_cannot RC 1 ARGS -update S -BufferSize 64 STDERR "-BufferSize cannot be changed on a running session")
etwctl_tool_test(xperf_flush_takes_file RC 1 ARGS -flush S -BufferSize 64 STDERR "-BufferSize does not apply to -flush (it takes -f FILE only)")
etwctl_tool_test(xperf_filemode_word RC 1 ARGS -start S -on *Foo -f s.etl -FileMode Circulr STDERR "bad -FileMode 'Circulr'" "(did you mean Circular?)")
etwctl_tool_test(xperf_clocktype_word RC 1 ARGS -start S -on *Foo -f s.etl -ClockType Cycles STDERR "bad -ClockType 'Cycles'" "(did you mean Cycle?)")
etwctl_tool_test(xperf_number RC 1 ARGS -start S -on *Foo -f s.etl -BufferSize 1MB STDERR "bad -BufferSize '1MB'")
etwctl_tool_test(xperf_mixed_on RC 1 ARGS -start S -on PROC_THREAD+*Foo -f s.etl
                 STDERR "mixes kernel flags (PROC_THREAD) and user providers (*Foo)")
etwctl_tool_test(xperf_stack_on_user RC 1 ARGS -start S -on *Foo -stackwalk CSwitch -f s.etl
                 STDERR "-stackwalk names kernel events" "Provider:Keywords:Level:'stack'")
etwctl_tool_test(xperf_provider_level RC 1 ARGS -start S -on *Foo:0x10:300 -f s.etl STDERR "bad level '300' in '*Foo:0x10:300'")
etwctl_tool_test(xperf_provider_property RC 1 ARGS -start S -on "*Foo:0x10:5:'stack,pid'" -f s.etl
                 STDERR "bad enable property 'pid'")
etwctl_tool_test(xperf_provider_twice RC 1 ARGS -start S -on *Foo+*foo -f s.etl STDERR "provider '*foo' given twice")
etwctl_tool_test(xperf_session_with_file RC 1 SIM "logger=5:A" ARGS -session A -on Latency -f a.etl
                 STDERR "-session names a running session, and -f starts one")
etwctl_tool_test(xperf_unknown_option RC 1 ARGS -start S -on *Foo -filemod Circular STDERR "unknown xperf option '-filemod' (did you mean -FileMode?)")

# ---- etwctl session: the same plan ----
etwctl_tool_test(session_verb_unknown RC 1 ARGS session begin S STDERR "expected start, stop, list, query, flush or update")
etwctl_tool_test(session_start_needs_name RC 1 ARGS session start -on *Foo STDERR "start needs a session NAME")
etwctl_tool_test(session_one_session RC 1 ARGS session start A -on *Foo -f a.etl -start B STDERR "'-start' is not an option of 'session start'")

# ---- the session verbs on the simulated kernel: the calls sent ----
# etwctl_tool_requests_test(<name> RC <code> [SIM <ETWCTL_SIM>] ARGS <args>... CALLS <fn>... [FILES <file>...]
#                           [STDOUT <s>...]): runs with --sim --json and reads the "requests" array
# (run_tool.cmake, then check_requests.cmake): the calls in order, each properties block Wnode.BufferSize long with its names at
# LoggerNameOffset / LogFileNameOffset.
function(etwctl_tool_requests_test name)
    cmake_parse_arguments(T "" "RC;SIM" "ARGS;CALLS;FILES;STDOUT" ${ARGN})
    foreach(v ARGS CALLS FILES STDOUT)
        string(REPLACE ";" "|" ${v} "${T_${v}}")
    endforeach()
    string(REPLACE ";" "|" emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
    add_test(NAME tool.${name}
             COMMAND ${CMAKE_COMMAND} "-DTOOL=$<TARGET_FILE:etwctl_tool>" "-DEMULATOR=${emulator}" "-DARGS=--sim|--json|${ARGS}"
                     "-DSIM=${T_SIM}" "-DRC=${T_RC}" "-DPTR=${CMAKE_SIZEOF_VOID_P}" "-DCALLS=${CALLS}" "-DFILES=${FILES}"
                     "-DSTDOUT=${STDOUT}" -P ${CMAKE_CURRENT_SOURCE_DIR}/run_tool.cmake)
endfunction()

# UIforETW's start line (UIforETWDlg.cpp): the NT Kernel Logger and a user session on one line. Its user
# providers are manifest names (Microsoft-Windows-Win32k, ...), which only Windows resolves: here a *Name
# and a GUID take their place.
set(uiforetw_start -start "NT Kernel Logger" -on Latency+POWER+DISPATCHER+DISK_IO_INIT+FILE_IO+FILE_IO_INIT+VIRT_ALLOC+MEMINFO
    -stackwalk Profile+CSwitch+ReadyThread -buffersize 1024 -minbuffers 600 -maxbuffers 600 -f kernel.etl
    -start UIforETWSession -on *UIforETW.Example:0xFFFF:5+e13c0d23-ccbc-4e12-931b-d9cc2eee27e4:0x1CCBD:0x5
    -buffersize 1024 -minbuffers 100 -maxbuffers 100 -f user.etl)
etwctl_tool_requests_test(session_uiforetw_start RC 0 SIM no-kernel-logger ARGS --trace ${uiforetw_start}
                          CALLS StartTraceW NtSetSystemInformation NtSetSystemInformation StartTraceW EnableTraceEx2 EnableTraceEx2
                          FILES kernel.etl user.etl
                          STDOUT "\"session\":\"NT Kernel Logger\",\"handle\":\"0x000000000000FFFF\""
                                 "\"session\":\"UIforETWSession\",\"handle\":\"0x0000000000000001\""
                                 "\"session\":\"UIforETWSession\",\"handle\":\"0x0000000000000001\",\"control_code\":1,\"provider\":\"e13c0d23-ccbc-4e12-931b-d9cc2eee27e4\",\"provider_name\":\"e13c0d23-ccbc-4e12-931b-d9cc2eee27e4\",\"level\":5,\"match_any\":\"0x000000000001CCBD\",\"match_all\":\"0x0000000000000000\",\"enable_property\":0")
etwctl_tool_test(session_uiforetw_start_text RC 0 SIM no-kernel-logger ARGS --trace ${uiforetw_start}
                 STDOUT "started NT Kernel Logger (0xFFFF), file kernel.etl"
                        "NT Kernel Logger (0xFFFF): stack walk CSwitch+ReadyThread+Profile (3 events)"
                        "started 'UIforETWSession' (logger 1): user session, file user.etl"
                        "#1 StartTraceW(SessionName=\"NT Kernel Logger\", Properties: 4248 bytes) [sent: ERROR_SUCCESS]"
                        "0018 ad 4a 81 9e 04 32 d2 11 9a 82 00 60 08 a8 69 39 Wnode.Guid {9e814aad-3204-11d2-9a82-006008a86939} SystemTraceControlGuid"
                        "0030 00 04 00 00 BufferSize 1024 KB" "0034 58 02 00 00 MinimumBuffers 600" "0038 58 02 00 00 MaximumBuffers 600"
                        "0040 01 00 00 00 LogFileMode 0x00000001 EVENT_TRACE_FILE_MODE_SEQUENTIAL"
                        "0090 4e 00 54 00 20 00 4b 00 LoggerName \"NT Kernel Logger\" (UTF-16, 16 characters and the NUL)"
                        "LogFileName \"kernel.etl\" (UTF-16, 10 characters and the NUL)"
                        "-> TraceHandle 0x000000000000FFFF (logger 0xFFFF, NT Kernel Logger)"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "#5 EnableTraceEx2(TraceHandle=0x0000000000000001 (logger 1), ProviderId={5e5723fa-7a60-52f5-064d-429f41924480} *UIforETW.Example, EVENT_CONTROL_CODE_ENABLE_PROVIDER, Level=5, MatchAnyKeyword=0xFFFF, MatchAllKeyword=0x0, Timeout=0) [sent: ERROR_SUCCESS]")
# samply's start line (samply/src/windows/xperf.rs): -SetProfInt, the kernel group without -start (the NT Kernel
# Logger, started because of -f), then -start SamplySession.
set(samply_start -SetProfInt 1221 -on PROC_THREAD+LOADER+PROFILE+CSWITCH -stackwalk PROFILE+CSWITCH -f kernel.etl -BufferSize 1024
    -start SamplySession -on *Samply.Example -f user.etl)
etwctl_tool_requests_test(session_samply_start RC 0 SIM no-kernel-logger ARGS --trace ${samply_start}
                          CALLS NtQuerySystemInformation NtQuerySystemInformation NtSetSystemInformation NtQuerySystemInformation
                                StartTraceW NtSetSystemInformation NtSetSystemInformation StartTraceW EnableTraceEx2
                          FILES kernel.etl user.etl)
# A dry run sends no change and is not refused because the machine already runs the session (the
# simulated machine runs the NT Kernel Logger): StartTraceW answers a placeholder handle, which the
# EnableTraceEx2 of that session carries.
etwctl_tool_requests_test(session_samply_dry_run RC 0 ARGS --dry-run ${samply_start}
                          CALLS NtQuerySystemInformation NtQuerySystemInformation NtSetSystemInformation
                                StartTraceW NtSetSystemInformation NtSetSystemInformation StartTraceW EnableTraceEx2
                          FILES kernel.etl user.etl
                          STDOUT "\"call\":\"StartTraceW(SessionName=\\\"SamplySession\\\", Properties: 4248 bytes)\",\"sent\":false"
                                 "\"session\":\"NT Kernel Logger\",\"handle\":\"0x000000000000FFFF\""
                                 "\"bytes\":\"0100000000000000ffff000000000000" "\"bytes\":\"0600000000000000ffff000000000000"
                                 "\"session\":\"SamplySession\",\"handle\":\"0x0000000200000000\",\"control_code\":1")
etwctl_tool_test(session_dry_run_existing RC 0 SIM "logger=5:My Session" ARGS --dry-run -start "My Session" -on *Foo -f s.etl
                 STDOUT "started 'My Session' (dry run: not started): user session, file s.etl"
                        "#1 StartTraceW(SessionName=\"My Session\", Properties: 4248 bytes) [not sent (dry run)]"
                        "EnableTraceEx2(TraceHandle=0x0000000100000000 (dry run: the handle StartTraceW would return)")
# samply's stop line without its -d: the NT Kernel Logger and SamplySession, by name.
etwctl_tool_requests_test(session_samply_stop RC 0 SIM "user-logger=3:SamplySession" ARGS --trace -stop -stop SamplySession
                          CALLS ControlTraceW ControlTraceW
                          STDOUT "\"session\":\"NT Kernel Logger\",\"handle\":\"0x0000000000000000\",\"control_code\":1"
                                 "\"session\":\"SamplySession\",\"handle\":\"0x0000000000000000\",\"control_code\":1"
                                 "{\"command\":\"stop\",\"session\":\"SamplySession\",\"stopped\":true,\"statistics\":{\"events_lost\":0")
# A named session with kernel flags is a system logger; its flags and stacks carry its own logger id.
etwctl_tool_test(session_system_logger RC 0 ARGS --trace -start MyKernel -on PROC_THREAD+CSWITCH -stackwalk CSwitch -f k.etl
                 STDOUT "started 'MyKernel' (logger 1): system logger, file k.etl"
                        "0040 01 00 00 02 LogFileMode 0x02000001 EVENT_TRACE_FILE_MODE_SEQUENTIAL|EVENT_TRACE_SYSTEM_LOGGER_MODE"
                        "0048 03 00 00 00 EnableFlags 0x00000003"
                        "0008 01 00 00 00 00 00 00 00 TraceHandle 0x0000000000000001 (logger 1)"
                        "#3 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x14 bytes) [sent: STATUS_SUCCESS]"
                 NOT_STDOUT "TraceHandle 0x000000000000FFFF")
# -stop of a named session and of the NT Kernel Logger; a name that does not run: the others are still
# stopped, and the exit code says the line was partly applied.
etwctl_tool_test(session_stop RC 0 SIM "logger=5:My Session" ARGS --trace -stop "My Session" -stop
                 STDOUT "stopped 'My Session': 0 buffers written, 0 events lost" "stopped 'NT Kernel Logger'"
                        "#1 ControlTraceW(TraceHandle=0x0, InstanceName=\"My Session\", Properties: 4248 bytes, EVENT_TRACE_CONTROL_STOP) [sent: ERROR_SUCCESS]"
                        "#2 ControlTraceW(TraceHandle=0x0, InstanceName=\"NT Kernel Logger\", Properties: 4248 bytes, EVENT_TRACE_CONTROL_STOP) [sent: ERROR_SUCCESS]")
etwctl_tool_test(session_stop_absent RC 3 ARGS --trace -stop Nope
                 STDERR "cannot stop 'Nope'" "Windows: ERROR_WMI_INSTANCE_NOT_FOUND (Win32 4201)" "hint: no such session"
                        "[sent: ERROR_WMI_INSTANCE_NOT_FOUND]")
etwctl_tool_test(session_stop_partly RC 4 SIM "logger=5:UIforETWSession" ARGS -stop Nope -stop UIforETWSession -stop "NT Kernel Logger"
                 STDOUT "stopped 'UIforETWSession'" "stopped 'NT Kernel Logger'"
                 STDERR "cannot stop 'Nope'" "partly applied: these calls took effect and stay in effect"
                        "#2 ControlTraceW(TraceHandle=0x0, InstanceName=\"UIforETWSession\", Properties: 4248 bytes, EVENT_TRACE_CONTROL_STOP)")
# -flush: FLUSH (after a QUERY by handle that checks the session is still the one named: issue 34.1); with
# -f (UIforETW's save of in-memory sessions) UPDATE with the log file.
etwctl_tool_test(session_flush RC 0 SIM "logger=5:My Session" ARGS --trace -flush "My Session"
                 STDOUT "flushed 'My Session' (logger 5)"
                        "#1 ControlTraceW(TraceHandle=0x0, InstanceName=\"My Session\", Properties: 4248 bytes, EVENT_TRACE_CONTROL_QUERY)"
                        "#2 ControlTraceW(TraceHandle=0x5, InstanceName=NULL, Properties: 4248 bytes, EVENT_TRACE_CONTROL_QUERY) [sent: ERROR_SUCCESS]"
                        "#3 ControlTraceW(TraceHandle=0x5, InstanceName=NULL, Properties: 4248 bytes, EVENT_TRACE_CONTROL_FLUSH) [sent: ERROR_SUCCESS]")
etwctl_tool_requests_test(session_uiforetw_flush RC 0 SIM "logger=5:UIforETWSession" ARGS --trace
                          -flush "NT Kernel Logger" -f kernel.etl -flush UIforETWSession -f user.etl
                          CALLS ControlTraceW ControlTraceW ControlTraceW ControlTraceW ControlTraceW ControlTraceW
                          FILES kernel.etl user.etl
                          STDOUT "\"session\":\"UIforETWSession\",\"handle\":\"0x0000000000000005\",\"control_code\":2")
# -update: only what ControlTrace UPDATE changes, then the flags on the session's own logger id.
etwctl_tool_test(session_update RC 0 SIM "logger=5:My Session" ARGS --trace -update "My Session" -FlushTimer 5 -on Latency
                 STDOUT "updated 'My Session' (logger 5)" "'My Session' (logger 5): flags set to"
                        "#3 ControlTraceW(TraceHandle=0x5, InstanceName=NULL, Properties: 4248 bytes, EVENT_TRACE_CONTROL_UPDATE) [sent: ERROR_SUCCESS]"
                        "0044 05 00 00 00 FlushTimer 5 s" "0008 05 00 00 00 00 00 00 00 TraceHandle 0x0000000000000005 (logger 5)")
# -loggers: QueryAllTracesW; the simulated machine allows 64 sessions (the NT Kernel Logger and 63 more).
etwctl_tool_test(session_loggers_64 RC 0 SIM sessions=63 ARGS --trace -loggers
                 STDOUT "65535 NT Kernel Logger 0x00000100 -" "63 sim logger 63 0x00000100 -" "64 sessions"
                        "#2 QueryAllTracesW(PropertyArrayCount=64) [sent: ERROR_SUCCESS]" "-> SessionCount 64")
etwctl_tool_test(session_loggers_json RC 0 SIM "user-logger=7:My Session" ARGS --json -loggers
                 STDOUT "{\"command\":\"list\",\"count\":2,\"sessions\":" "{\"name\":\"NT Kernel Logger\",\"logger\":65535"
                        "{\"name\":\"My Session\",\"logger\":7,\"handle\":\"0x0000000000000007\",\"log_file_mode\":\"0x00000100\"")
etwctl_tool_test(session_loggers_name RC 0 SIM "logger=5:My Session" ARGS -loggers "My Session"
                 STDOUT "My Session (logger 5)" "LogFileMode 0x02000100 EVENT_TRACE_REAL_TIME_MODE|EVENT_TRACE_SYSTEM_LOGGER_MODE")
# Windows' rules for the configuration, checked before anything is sent.
etwctl_tool_test(session_circular_needs_max RC 2 ARGS --trace -start S -on *Foo -f s.etl -FileMode Circular
                 STDERR "rule session_mode_needs_maximum_file_size" "EVENT_TRACE_FILE_MODE_CIRCULAR needs a maximum file size" "nothing was sent"
                        "kernel requests:" "(none)")
etwctl_tool_test(session_circular_json RC 2 ARGS --dry-run --json -start S -on *Foo -f s.etl -FileMode Circular
                 STDOUT "{\"ok\":false,\"exit_code\":2" "\"rule\":\"session_mode_needs_maximum_file_size\"" "\"requests\":[]}")
etwctl_tool_test(session_circular_ok RC 0 ARGS --dry-run -start S -on *Foo -f s.etl -FileMode Circular -MaxFile 100
                 STDOUT "003C 64 00 00 00 MaximumFileSize 100 MB" "0040 02 00 00 00 LogFileMode 0x00000002 EVENT_TRACE_FILE_MODE_CIRCULAR")
etwctl_tool_test(session_newfile_percent_d RC 2 ARGS -start S -on *Foo -f s.etl -FileMode NewFile -MaxFile 10
                 STDERR "rule session_newfile_needs_percent_d")
etwctl_tool_test(session_buffering_file RC 2 ARGS -start S -on *Foo -f s.etl -Buffering STDERR "rule session_log_file_mode_conflict" "EVENT_TRACE_BUFFERING_MODE")
# No -f: a user session logs to xperf's default \User.etl (issue 35 item 3); a system logger has no
# documented default file, so it alone is refused.
etwctl_tool_test(session_no_destination RC 2 ARGS -start S -on PROC_THREAD STDERR "rule session_no_destination" "no source states")
etwctl_tool_test(session_user_default_file RC 0 ARGS session start S -on *Foo
                 STDOUT "started 'S'" "user session, file \\User.etl (xperf's default: no -f)")
etwctl_tool_test(session_not_elevated RC 3 SIM not-elevated ARGS -start S -on *Foo -f s.etl
                 STDERR "Windows: ERROR_ACCESS_DENIED (Win32 5)" "hint: run elevated")
etwctl_tool_test(session_already_runs RC 3 SIM "user-logger=5:S" ARGS -start S -on *Foo -f s.etl
                 STDERR "cannot start 'S'" "ERROR_ALREADY_EXISTS" "hint: a session of that name runs")
# A later -start fails: the sessions the line started are stopped again (as xperf does); nothing stays,
# so the exit code is the failure's. With -setprofint the interval stays: partly applied, and named.
etwctl_tool_test(session_rollback RC 3 SIM "user-logger=5:Busy" ARGS --trace -start A -on *Foo -f a.etl -start Busy -on *Bar -f b.etl
                 STDERR "stopped 'A' again: a later step failed"
                        "#4 ControlTraceW(TraceHandle=0x1, InstanceName=NULL, Properties: 4248 bytes, EVENT_TRACE_CONTROL_STOP) [sent: ERROR_SUCCESS]")
etwctl_tool_test(session_rollback_partly RC 4 SIM "user-logger=5:Busy" ARGS -setprofint 1221 -start A -on *Foo -f a.etl -start Busy -on *Bar -f b.etl
                 STDERR "stopped 'A' again" "partly applied"
                        "#3 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x08 bytes): class 0x03 EventTraceTimeProfileInformation")
# User providers: keywords, level, enable properties; *Name is the EventSource name hash.
etwctl_tool_requests_test(session_provider_options RC 0 ARGS --trace -start S -on "*MyCompany.MyComponent:0x10:4:'stack,sid'" -RealTime
                          CALLS StartTraceW EnableTraceEx2
                          STDOUT "\"provider\":\"ce5fa4ea-ab00-5402-8b76-9f76ac858fb5\",\"provider_name\":\"*MyCompany.MyComponent\",\"level\":4,\"match_any\":\"0x0000000000000010\",\"match_all\":\"0x0000000000000000\",\"enable_property\":5")
etwctl_tool_test(session_provider_text RC 0 ARGS --trace -start S -on "{E13C0D23-CCBC-4E12-931B-D9CC2EEE27E4}:0x1CCBD:5:'tsid'" -RealTime
                 STDOUT "ProviderId={e13c0d23-ccbc-4e12-931b-d9cc2eee27e4} {E13C0D23-CCBC-4E12-931B-D9CC2EEE27E4}, EVENT_CONTROL_CODE_ENABLE_PROVIDER, Level=5, MatchAnyKeyword=0x1CCBD"
                        "0004 02 00 00 00 EnableProperty 0x00000002 TS_ID" "0000 02 00 00 00 Version 2")
etwctl_tool_test(session_manifest_name RC 1 ARGS --trace -start S -on Microsoft-Windows-DxgKrnl:0xFFFF:5 -f s.etl
                 STDERR "the manifest provider name 'Microsoft-Windows-DxgKrnl' cannot be resolved on the simulated machine" "(none)")

# ---- etwctl session: one session a command ----
etwctl_tool_test(session_cmd_start RC 0 ARGS --trace session start S -on *Foo -RealTime -BufferSize 256
                 STDOUT "started 'S' (logger 1): user session, real time" "0030 00 01 00 00 BufferSize 256 KB"
                        "0040 00 01 00 00 LogFileMode 0x00000100 EVENT_TRACE_REAL_TIME_MODE")
etwctl_tool_test(session_cmd_stop RC 0 SIM "user-logger=4:S" ARGS session stop S STDOUT "stopped 'S'")
etwctl_tool_test(session_cmd_query RC 0 SIM "user-logger=4:S" ARGS session query S STDOUT "S (logger 4)" "LogFileMode 0x00000100")
etwctl_tool_test(session_cmd_flush RC 0 SIM "user-logger=4:S" ARGS session flush S STDOUT "flushed 'S' (logger 4)")
etwctl_tool_test(session_cmd_update RC 0 SIM "user-logger=4:S" ARGS session update S -MaxBuffers 32 STDOUT "updated 'S' (logger 4)")
etwctl_tool_test(session_cmd_list RC 0 ARGS session list STDOUT "NT Kernel Logger" "1 session")
etwctl_tool_test(session_update_nothing RC 1 ARGS -update S STDERR "-update S changes nothing")
# A dry run of -stop / -flush: the query that finds the session is a read and is sent; the change is not.
etwctl_tool_test(session_stop_dry_run RC 0 SIM "logger=5:My Session" ARGS --dry-run -stop "My Session"
                 STDOUT "would stop 'My Session' (dry run: not sent)"
                        "ControlTraceW(TraceHandle=0x0, InstanceName=\"My Session\", Properties: 4248 bytes, EVENT_TRACE_CONTROL_STOP) [not sent (dry run)]")
etwctl_tool_test(session_flush_dry_run_absent RC 3 ARGS --dry-run -flush Nope
                 STDERR "cannot find 'Nope'" "EVENT_TRACE_CONTROL_QUERY) [sent: ERROR_WMI_INSTANCE_NOT_FOUND]")

# ---- issue 34.5: an UPDATE keeps a system logger's kernel flags ----
# The simulated NT Kernel Logger runs PROC_THREAD+LOADER+PROFILE+CSWITCH (EnableFlags 0x01000017). UPDATE
# replaces EnableFlags (ControlTraceW: 0 disables all kernel providers), so the queried flags are sent back.
etwctl_tool_test(session_update_keeps_kernel_flags RC 0 ARGS --trace -update "NT Kernel Logger" -FlushTimer 5
                 STDOUT "EVENT_TRACE_CONTROL_UPDATE) [sent: ERROR_SUCCESS]" "0044 05 00 00 00 FlushTimer 5 s"
                        "0048 17 00 00 01 EnableFlags 0x01000017")
# UIforETW's save of the kernel session: -flush "NT Kernel Logger" -f FILE is an UPDATE with the file.
etwctl_tool_test(session_flush_file_keeps_kernel_flags RC 0 ARGS --trace -flush "NT Kernel Logger" -f kernel.etl
                 STDOUT "EVENT_TRACE_CONTROL_UPDATE) [sent: ERROR_SUCCESS]" "0048 17 00 00 01 EnableFlags 0x01000017")

# ---- issue 34.6: a file size past the limit is refused naming it, never sent saturated ----
etwctl_tool_test(session_max_file_out_of_range RC 2 ARGS --dry-run -start S -on *Foo -f s.etl -MaxFile 5000000
                 STDERR "MaximumFileSize 5000000 MB is out of range: at most 4194303 MB"
                 NOT_STDOUT "4294967295")
etwctl_tool_test(session_max_file_at_limit RC 0 ARGS --dry-run -start S -on *Foo -f s.etl -MaxFile 4194303
                 STDOUT "MaximumFileSize 4194303 MB")
# WPR's MaximumFileSize takes the same path (the profile's lowering to a session configuration).
if(TARGET etwctl::wpr) # the wpr command reads .wprp files with pugixml (not in the cross builds)
    etwctl_tool_test(session_wpr_max_file_out_of_range RC 2
                     ARGS --dry-run wpr -start "${CMAKE_CURRENT_SOURCE_DIR}/data/file_size_too_large.wprp!Tool" -filemode
                     STDERR "MaximumFileSize 5000000 MB is out of range: at most 4194303 MB")
endif()
