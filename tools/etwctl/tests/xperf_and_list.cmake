# End-to-end tests of the xperf-style forms and the name lists (included by CMakeLists.txt).
# ---- the xperf table of docs/tool.md: each command against the simulated kernel, exact requests ----
# -session kernel: the running NT Kernel Logger's flags, stacks and counters (a lone -on STARTS it, as
# xperf's does: the tests of issue 35 item 3 below).
etwctl_tool_test(xperf_on_group RC 0 ARGS --trace -session kernel -on Latency
                 STDOUT "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "0000 01 00 00 00 00 00 00 00 class 0x01 EventTraceGroupMaskInformation, padding"
                        "0008 ff ff 00 00 00 00 00 00 TraceHandle 0x000000000000FFFF (logger 0xFFFF, NT Kernel Logger)"
                        "0010 07 23 00 00 Masks[0] 0x00002307" "0014 86 40 00 00 Masks[1] 0x00004086"
                        "0018 00 00 00 00 Masks[2] 0x00000000" "002C 00 00 00 00 Masks[7] 0x00000000"
                 NOT_STDOUT "#2 ")
etwctl_tool_test(xperf_on_base RC 0 ARGS --trace -session kernel -on Base
                 STDOUT "0010 07 23 00 00 Masks[0] 0x00002307" "0014 02 00 88 00 Masks[1] 0x00880002" NOT_STDOUT "#2 ")
etwctl_tool_test(xperf_on_stackwalk RC 0 ARGS --trace -session kernel -on PROC_THREAD+LOADER+DISPATCHER -stackwalk CSwitch+ReadyThread
                 STDOUT "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "0010 07 00 00 00 Masks[0] 0x00000007" "0014 00 02 00 00 Masks[1] 0x00000200"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x18 bytes) [sent: STATUS_SUCCESS]"
                        "0000 06 00 00 00 00 00 00 00 class 0x06 EventTraceStackTracingInformation, padding"
                        "0010 24 05 00 00 HookId[0] 0x0524 CSwitch" "0014 32 05 00 00 HookId[1] 0x0532 ReadyThread"
                 NOT_STDOUT "#3 ") # the stack-walk group check uses the flags this line set: no query
etwctl_tool_test(xperf_stackwalk RC 0 ARGS --trace -session kernel -stackwalk PagefaultHard -stackwalk ThreadDelete
                 STDOUT "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x18 bytes) [sent: STATUS_SUCCESS]"
                        "0010 0e 02 00 00 HookId[0] 0x020E PagefaultHard" "0014 02 05 00 00 HookId[1] 0x0502 ThreadDelete"
                        "#2 NtQuerySystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                 NOT_STDOUT "#3 ")
etwctl_tool_test(xperf_setprofint RC 0 ARGS --trace -setprofint 1221
                 STDOUT "Timer (0): 10000 -> 1221"
                        "#2 NtQuerySystemInformation(SystemPerformanceTraceInformation, 0x08 bytes) [sent: STATUS_SUCCESS]"
                        "#3 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x08 bytes) [sent: STATUS_SUCCESS]"
                        "0000 03 00 00 00 class 0x03 EventTraceTimeProfileInformation"
                        "0004 c5 04 00 00 ProfileInterval 1221 (122.1 us, 8190.0 Hz)")
etwctl_tool_test(xperf_setprofint_source RC 0 ARGS --trace -setprofint 8192 TotalCycles
                 STDOUT "TotalCycles (19): 65536 -> 8192 events"
                        "#3 NtSetIntervalProfile(Interval=8192, Source=19 TotalCycles) [sent: STATUS_SUCCESS]")
etwctl_tool_test(xperf_setprofint_source_first RC 0 ARGS --trace -SetProfInt TotalCycles 8192
                 STDOUT "#3 NtSetIntervalProfile(Interval=8192, Source=19 TotalCycles) [sent: STATUS_SUCCESS]")
etwctl_tool_test(xperf_setprofint_cached RC 1 ARGS -setprofint 1221 cached STDERR "cached is not supported")
etwctl_tool_test(xperf_pmcsources RC 0 ARGS --trace -pmcsources
                 STDOUT "26 InstructionRetired 65536 4096 2147483647"
                        "#1 NtQuerySystemInformation(SystemPerformanceTraceInformation, 0x1000 bytes) [sent: STATUS_SUCCESS]"
                        "0000 0d 00 00 00 class 0x0D EventTraceProfileSourceListInformation"
                        "NtQueryIntervalProfile(Source=19 TotalCycles) [sent: STATUS_SUCCESS]")
etwctl_tool_test(xperf_pmc RC 0 ARGS --trace -session kernel -on PROC_THREAD+LOADER+CSWITCH -pmc TotalCycles,InstructionRetired CSwitch
                 STDOUT "PMC counters TotalCycles (19), InstructionRetired (26) on CSwitch"
                        "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "#3 NtQuerySystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "#4 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x18 bytes) [sent: STATUS_SUCCESS]"
                        "0000 0f 00 00 00 00 00 00 00 class 0x0F EventTraceProfileCounterListInformation, padding"
                        "0010 13 00 00 00 ProfileSource[0] 19 TotalCycles" "0014 1a 00 00 00 ProfileSource[1] 26 InstructionRetired"
                        "#5 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x14 bytes) [sent: STATUS_SUCCESS]"
                        "0000 0e 00 00 00 00 00 00 00 class 0x0E EventTraceProfileEventListInformation, padding"
                        "0010 24 05 00 00 HookId[0] 0x0524 CSwitch"
                 NOT_STDOUT "#6 ")
etwctl_tool_test(xperf_session_name RC 0 SIM "logger=5:My Session" ARGS --trace -session "My Session" -on Latency -stackwalk CSwitch
                 STDOUT "logger 5: stack walk CSwitch (1 event)"
                        "#1 NtTraceControl(0x03 EtwQueryLoggerCode, 176 bytes in, 176 bytes out) [sent: STATUS_SUCCESS]"
                        "0000 b0 00 00 00 Wnode.BufferSize 176" "002C 00 00 02 00 Wnode.Flags 0x00020000 (WNODE_FLAG_TRACED_GUID)"
                        "0090 14 00 16 00 LoggerName \"My Session\""
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "0008 05 00 00 00 00 00 00 00 TraceHandle 0x0000000000000005 (logger 5)"
                        "#3 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x14 bytes) [sent: STATUS_SUCCESS]"
                 NOT_STDOUT "#4 ") # -on Latency was set by this line: the stack-walk group check needs no query
etwctl_tool_test(xperf_session_id RC 0 SIM "logger=5" ARGS --trace -session 5 -stackwalk CSwitch
                 STDOUT "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x14 bytes) [sent: STATUS_SUCCESS]"
                        "0008 05 00 00 00 00 00 00 00 TraceHandle 0x0000000000000005 (logger 5)" NOT_STDOUT "NtTraceControl")
etwctl_tool_test(session_name_command RC 0 SIM "logger=7:Perf Run" ARGS flags "perf run" get STDOUT "'perf run' (logger 7): (none)")
etwctl_tool_test(session_name_kernel_logger RC 0 ARGS --trace -session "NT Kernel Logger" -stackwalk CSwitch
                 STDOUT "TraceHandle 0x000000000000FFFF" NOT_STDOUT "NtTraceControl")
etwctl_tool_test(session_name_absent RC 3 SIM "logger=5:My Session" ARGS --trace -session Other -on Latency
                 STDERR "cannot find the session 'Other'" "STATUS_WMI_INSTANCE_NOT_FOUND" "hint: no such session"
                        "[sent: STATUS_WMI_INSTANCE_NOT_FOUND]"
                 NOT_STDOUT "NtSetSystemInformation")
etwctl_tool_test(session_name_dry_run RC 0 SIM "logger=5:My Session" ARGS --dry-run -session "My Session" -on SysProf
                 STDOUT "#1 NtTraceControl(0x03 EtwQueryLoggerCode, 176 bytes in, 176 bytes out) [sent: STATUS_SUCCESS]"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [not sent (dry run)]")
etwctl_tool_test(xperf_partial RC 4 ARGS -session kernel -on PROC_THREAD -pmc TotalCycles CSwitch
                 STDERR "failed at check_event_groups" "partly applied: these calls took effect and stay in effect"
                        "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes): class 0x01 EventTraceGroupMaskInformation")

# ---- list: printed from the tables ----
etwctl_tool_test(list_events RC 0 ARGS list events
                 STDOUT "PagefaultHard 0x020E MEMORY ALL_FAULTS PagefaultHard"
                        "HardPageFault 0x020E MEMORY ALL_FAULTS - alias of PagefaultHard"
                        "DiskFlush 0x010E IO DISK_IO -")
etwctl_tool_test(list_flags_json RC 0 ARGS --json list flags
                 STDOUT "{\"name\":\"SYNCOBJECTS\",\"value\":\"0x20020000\",\"xperf_name\":\"SYNCOBJECTS\",\"inferred\":true}"
                        "{\"name\":\"HAL_CLOCK\",\"value\":null" "{\"name\":\"PERF_PROFILE\",\"value\":\"0x20000002\",\"xperf_name\":null}")
etwctl_tool_test(list_groups RC 0 ARGS list groups
                 STDOUT "DiagEasy 0x0000230F+0x20004084 confirmed PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+DPC+INTERRUPT+CSWITCH+PERF_COUNTER")
etwctl_tool_test(list_sources RC 0 ARGS list sources STDOUT "19 TotalCycles ProfileTotalCycles")
etwctl_tool_test(list_classes RC 0 ARGS --json list classes STDOUT "{\"id\":3,\"name\":\"TraceStackTracingInfo\",\"set\":true,\"query\":false")


# issue 21 item 22: stack-walk events whose group the session does not enable are never recorded: warned
# (stderr and --json "warnings"), not refused; the mask is read back after the set (shown by --trace)
etwctl_tool_test(xperf_stackwalk_group_off RC 0 ARGS -session kernel -on PROC_THREAD+LOADER+PROFILE -stackwalk Profile+CSwitch
                 STDOUT "stack walk CSwitch+Profile (2 events)"
                 STDERR "warning: CSwitch (0x0524) is never recorded: NT Kernel Logger (0xFFFF) does not enable CSWITCH"
                        "xperf -on ...+CSWITCH")
etwctl_tool_test(xperf_stackwalk_group_off_json RC 0 ARGS --json -session kernel -on PROC_THREAD+LOADER+PROFILE -stackwalk Profile+CSwitch
                 STDOUT "\"warnings\":[{\"warning\":\"event_group_not_enabled\",\"hook\":\"0x0524\",\"name\":\"CSwitch\",\"needs\":\"CSWITCH\"}]")
etwctl_tool_test(xperf_stackwalk_group_on RC 0 ARGS --json -session kernel -on PROC_THREAD+LOADER+PROFILE+CSWITCH -stackwalk Profile+CSwitch
                 STDOUT "stack" NOT_STDOUT "warnings")
etwctl_tool_test(xperf_stackwalk_group_off_dry_run RC 0 ARGS --dry-run -session kernel -on PROC_THREAD+LOADER -stackwalk CSwitch
                 STDERR "warning: CSwitch (0x0524) is never recorded")

# ---- issue 35 item 3: xperf's defaults. The options before any -start START the NT Kernel Logger (xperf's
# -start help: "If LoggerName, or -start LoggerName, is omitted, the kernel logger is implied"), and a
# session started without -f logs to xperf's default file (WPT's xperf -f: "\Kernel.etl for kernel traces
# and \User.etl for user traces"). Real lines; on a machine whose NT Kernel Logger is not running.
# samply's documentation: xperf -on PROC_THREAD+LOADER+PROFILE -stackwalk Profile
etwctl_tool_test(xperf_lone_on_starts_samply RC 0 SIM no-kernel-logger ARGS --trace -on PROC_THREAD+LOADER+PROFILE -stackwalk Profile
                 STDOUT "started NT Kernel Logger (0xFFFF), file \\Kernel.etl (xperf's default: no -f)"
                        "#1 StartTraceW(SessionName=\"NT Kernel Logger\""
                        "0040 01 00 00 00 LogFileMode 0x00000001 EVENT_TRACE_FILE_MODE_SEQUENTIAL"
                        "0048 07 00 00 00 EnableFlags 0x00000007"
                        "LogFileName \"\\Kernel.etl\" (UTF-16, 11 characters and the NUL)"
                        "HookId[0] 0x0F2E Profile")
# Microsoft's xperf stackwalk page: xperf -on base -stackwalk ThreadCreate+ProcessCreate
etwctl_tool_test(xperf_lone_on_starts_learn RC 0 SIM no-kernel-logger ARGS --json -on base -stackwalk ThreadCreate+ProcessCreate
                 STDOUT "{\"command\":\"start\",\"session\":\"NT Kernel Logger\",\"kind\":\"NT Kernel Logger\""
                        "\"log_file\":\"\\\\Kernel.etl\",\"log_file_default\":true"
                        "\"flags\":\"PROC_THREAD+LOADER+PROFILE+DISK_IO+HARD_FAULTS+MEMINFO+MEMINFO_WS\"")
# debug-recipes (xperf.exe.md): xperf -on DiagEasy; PC-tuning scripts: xperf -on base+interrupt+dpc
etwctl_tool_test(xperf_lone_on_starts_recipes RC 0 SIM no-kernel-logger ARGS -on DiagEasy
                 STDOUT "started NT Kernel Logger (0xFFFF), file \\Kernel.etl (xperf's default: no -f)")
etwctl_tool_test(xperf_lone_on_starts_tuning RC 0 SIM no-kernel-logger ARGS --trace -on base+interrupt+dpc
                 STDOUT "started NT Kernel Logger (0xFFFF), file \\Kernel.etl" "#1 StartTraceW(SessionName=\"NT Kernel Logger\""
                        "flags set to PROC_THREAD+LOADER+PROFILE+DPC+INTERRUPT+DISK_IO+HARD_FAULTS+MEMINFO+MEMINFO_WS")
# Microsoft's heap-tracing steps: xperf -on Base -BufferSize 1024 -MinBuffers 10 -MaxBuffers 16 (no -f:
# refused with "no destination" before)
etwctl_tool_test(xperf_default_file_with_buffers RC 0 SIM no-kernel-logger ARGS --trace -on Base -BufferSize 1024 -MinBuffers 10 -MaxBuffers 16
                 STDOUT "started NT Kernel Logger (0xFFFF), file \\Kernel.etl (xperf's default: no -f)"
                        "0030 00 04 00 00 BufferSize 1024 KB" "LogFileName \"\\Kernel.etl\"")
# -f given: that file, not the default.
etwctl_tool_test(xperf_lone_on_with_file RC 0 SIM no-kernel-logger ARGS -on Latency -f k.etl
                 STDOUT "started NT Kernel Logger (0xFFFF), file k.etl" NOT_STDOUT "xperf's default")
# A user session without -f: \User.etl (samply's two-session line, without its -f).
etwctl_tool_test(xperf_default_user_file RC 0 SIM no-kernel-logger ARGS --trace -on PROC_THREAD+LOADER+PROFILE+CSWITCH -stackwalk PROFILE+CSWITCH -BufferSize 1024 -start SamplySession -on *MyProvider
                 STDOUT "started NT Kernel Logger (0xFFFF), file \\Kernel.etl (xperf's default: no -f)"
                        "started 'SamplySession' (logger 1): user session, file \\User.etl (xperf's default: no -f)"
                        "LogFileName \"\\User.etl\" (UTF-16, 9 characters and the NUL)")
# -RealTime / -Buffering: no file, as before.
etwctl_tool_test(xperf_lone_on_real_time RC 0 SIM no-kernel-logger ARGS -on Base -RealTime
                 STDOUT "started NT Kernel Logger (0xFFFF), real time" NOT_STDOUT "Kernel.etl")
# The NT Kernel Logger runs (the simulated machine's default): StartTrace answers ERROR_ALREADY_EXISTS, as
# xperf reports it (microsoft/WSL#538: this very line, "NT Kernel Logger: Cannot create a file when that file
# already exists. (0xb7)"); nothing else is sent.
etwctl_tool_test(xperf_lone_on_kernel_logger_runs RC 3 ARGS --trace -on PROC_THREAD+LOADER+INTERRUPT+DPC+PROFILE -stackwalk profile -minbuffers 16 -maxbuffers 1024 -flushtimer 0 -f tmp.etl
                 STDERR "cannot start NT Kernel Logger" "Windows: ERROR_ALREADY_EXISTS (Win32 183)"
                        "hint: the NT Kernel Logger runs already" "etwctl -session kernel -on FLAGS"
                        "#1 StartTraceW(SessionName=\"NT Kernel Logger\"" "[sent: ERROR_ALREADY_EXISTS]"
                 NOT_STDOUT "NtSetSystemInformation")
etwctl_tool_test(xperf_lone_on_base_kernel_logger_runs RC 3 ARGS -on Base STDERR "ERROR_ALREADY_EXISTS" "hint: the NT Kernel Logger runs already")
# A system logger (a named session with kernel flags) without -f: no source states xperf's file: refused.
etwctl_tool_test(xperf_system_logger_no_default RC 2 ARGS --trace -start MyKernel -on PROC_THREAD+CSWITCH
                 STDERR "cannot start 'MyKernel': a system logger (kernel work on a named session) without -f, -RealTime or -Buffering"
                        "no source states the file xperf writes for one" "rule session_no_destination" "hint: add -f FILE" "(none)")
