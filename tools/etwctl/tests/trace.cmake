# End-to-end tests of `etwctl trace dump|stats|stacks` on the real traces in tests/trace/data (PerfView's
# test inputs, with TraceEvent's decoding beside them): included by CMakeLists.txt with the other tool
# cases, so the cross builds run them under Wine too (absolute paths: Wine maps them to Z:\...).
# The values checked are TraceEvent's (the baselines, read here) or established apart from the tool (the
# lead's experiments on the same file with the library: tests/trace and issue 32's "Real data").
#
# etwctl_trace_test(<name> RC <code> ARGS <args>... [MODE lines|object|folded] [PREPARE <src>|<bytes>|<dest>]
#                   [STDOUT <s>...] [STDERR <s>...] [NOT_STDOUT <s>...] [FIELDS <path=value>...]
#                   [LINES <n>] [EACH <path[=value]>...] [AT <i:path=value>...] [SUMS <path=path>...]
#                   [BASELINE <file>] [KINDS <name=path>...] [RECONCILE] [COUNT_SUM <n>] [PREFIX <text>])
function(etwctl_trace_test name)
    cmake_parse_arguments(T "RECONCILE" "RC;MODE;LINES;BASELINE;COUNT_SUM;PREFIX"
                          "ARGS;STDOUT;STDERR;NOT_STDOUT;FIELDS;EACH;AT;SUMS;KINDS;PREPARE" ${ARGN})
    foreach(v ARGS STDOUT STDERR NOT_STDOUT FIELDS EACH AT SUMS KINDS PREPARE)
        string(REPLACE ";" "|" ${v} "${T_${v}}")
    endforeach()
    string(REPLACE ";" "|" emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
    add_test(NAME tool.trace_${name}
             COMMAND ${CMAKE_COMMAND} "-DTOOL=$<TARGET_FILE:etwctl_tool>" "-DEMULATOR=${emulator}" "-DARGS=--sim|${ARGS}"
                     "-DSIM=" "-DRC=${T_RC}" "-DSTDOUT=${STDOUT}" "-DSTDERR=${STDERR}" "-DNOT_STDOUT=${NOT_STDOUT}"
                     "-DFIELDS=${FIELDS}" "-DMODE=${T_MODE}" "-DLINES=${T_LINES}" "-DEACH=${EACH}" "-DAT=${AT}"
                     "-DSUMS=${SUMS}" "-DBASELINE=${T_BASELINE}" "-DKINDS=${KINDS}" "-DRECONCILE=${T_RECONCILE}"
                     "-DCOUNT_SUM=${T_COUNT_SUM}" "-DPREFIX=${T_PREFIX}" "-DPREPARE=${PREPARE}"
                     -P ${CMAKE_CURRENT_SOURCE_DIR}/trace_check.cmake)
endfunction()

set(trace_data ${PROJECT_SOURCE_DIR}/tests/trace/data)
set(net ${trace_data}/net.4.5.2.x86.etl)
set(net_baseline ${trace_data}/net.4.5.2.x86.baseline.txt)
set(tl ${trace_data}/primitive-types.etl)
set(trace_work ${CMAKE_CURRENT_BINARY_DIR}/trace_files)
file(MAKE_DIRECTORY ${trace_work})

# ---- stats: TraceEvent's count of every kernel kind the reader types, and the SampledProfile views ----
etwctl_trace_test(stats_json RC 0 MODE object ARGS --json trace stats ${net}
    FIELDS "by_key/0x0f2e=88809" "samples_by_process/0=82128" "samples_by_process/-1=4" "buffers=276"
           "pointer_size=8" "processors=8" "lost_events=0" "lost_buffers=0" "losses/faults=0"
           "by_name/SampledProfile=88809" "by_name/ProcessDCStart=35" "sampled_profile/idle_thread_dpc_isr=129"
    STDOUT "\"duration_ms\":13208.46" # the header to the last event (TraceEvent's last: 13,208.464)
    SUMS "samples_by_process=by_key/0x0f2e" RECONCILE
    BASELINE ${net_baseline}
    KINDS "Windows Kernel/EventTrace=by_key/0x0000" "Windows Kernel/EventTrace/Extension=by_key/0x0005"
          "Windows Kernel/EventTrace/EndExtension=by_key/0x0020" "Windows Kernel/EventTrace/RundownComplete=by_key/0x0008"
          "Windows Kernel/PerfInfo/CollectionStart=by_key/0x0f49" "Windows Kernel/PerfInfo/CollectionEnd=by_key/0x0f4a"
          "Windows Kernel/Process/Start=by_key/0x0301" "Windows Kernel/Process/Stop=by_key/0x0302"
          "Windows Kernel/Process/DCStart=by_key/0x0303" "Windows Kernel/Process/DCStop=by_key/0x0304"
          "Windows Kernel/Process/Defunct=by_key/0x0327" "Windows Kernel/Thread/Start=by_key/0x0501"
          "Windows Kernel/Thread/Stop=by_key/0x0502" "Windows Kernel/Image/Load=by_key/0x030a"
          "Windows Kernel/Image/Unload=by_key/0x1402" "Windows Kernel/Image/DCStart=by_key/0x1403"
          "Windows Kernel/Image/DCStop=by_key/0x1404" "Windows Kernel/Memory/HardFault=by_key/0x0220"
          "Windows Kernel/DiskIO/Read=by_key/0x010a" "Windows Kernel/DiskIO/ReadInit=by_key/0x010c"
          # TraceEvent leaves the idle thread's samples out, but keeps those in a DPC or an ISR
          "Windows Kernel/PerfInfo/Sample=sampled_profile/traceevent_samples")
etwctl_trace_test(stats_text RC 0 ARGS trace stats ${net}
    STDOUT "events: 168298" "SampledProfile: 88809 records, 82128 on the idle thread (ThreadId 0), 129 of them in a DPC or an ISR"
           "TraceEvent's Sample count: 6810" "4900 Test.x86.exe (3644)" "82128 Idle (0)" "0x1403 ImageDCStart")
etwctl_trace_test(stats_tracelogging RC 0 MODE object ARGS --json trace stats ${tl}
    FIELDS "events=7" "by_name/PrimitiveTypesTest=5" "buffers=2" "pointer_size=8" "processors=8"
    BASELINE ${trace_data}/primitive-types.baseline.txt KINDS "solar_system/PrimitiveTypesTest=by_name/PrimitiveTypesTest")

# ---- dump: the header event first, fields under the MOF names with TraceEvent's values ----
etwctl_trace_test(dump_header_first RC 0 MODE lines ARGS --json trace dump ${net} --limit 2 LINES 2
    EACH "time_ms" "cpu" "pid" "tid" "key" "provider" "kind=classic" "fields"
    AT "0:name=EventTraceHeader" "0:hook=0x0000" "0:key=0x0000" "0:time_ms~^0(\\.0+)?$" "0:pid=3988" "0:tid=2784"
       "0:provider=68fdd900-4a3e-11d1-84f4-0000f80464e3" "0:fields/BufferSize=65536" "0:fields/Version=131590"
       "0:fields/ProviderVersion=9200" "0:fields/NumberOfProcessors=8" "0:fields/PointerSize=8" "0:fields/CPUSpeed=3592"
       "0:fields/PerfFreq=10000000" "0:fields/LoggerName=Relogger" "0:fields/LogFileName=[multiple files]"
       "0:fields/LogFileMode=67174401" "0:fields/BuffersWritten=276" "1:name=EventTraceExtension" "1:fields/KernelEventVersion=42")
etwctl_trace_test(dump_process_fields RC 0 MODE lines ARGS --json trace dump ${net} --events ProcessDCStart,ProcessCreate --limit 3
    LINES 3 EACH "hook" "name" "fields/UniqueProcessKey" "fields/ImageFileName"
    AT "0:name=ProcessDCStart" "0:time_ms~^17\\.63" "0:pid=0" "0:fields/ProcessId=0" "0:fields/ImageFileName=Idle"
       "0:fields/UniqueProcessKey=0xfffff800217d9200" "0:fields/DirectoryTableBase=0x187000" "0:fields/ExitStatus=0"
       "1:fields/ImageFileName=System" "1:fields/ExitStatus=259" "1:fields/UniqueProcessKey=0xfffffa830007e4c0"
       "1:fields/UserSID=S-1-5-18")
etwctl_trace_test(dump_process_start RC 0 MODE lines ARGS --json trace dump ${net} --events processcreate LINES 1
    AT "0:name=ProcessCreate" "0:hook=0x0301" "0:time_ms~^2616\\.76" "0:pid=3644" "0:fields/ProcessId=3644"
       "0:fields/ParentId=3508" "0:fields/SessionId=1" "0:fields/ExitStatus=259" "0:fields/ImageFileName=Test.x86.exe"
       "0:fields/CommandLine=Test.x86.exe" "0:fields/UniqueProcessKey=0xfffffa8300c27080"
       "0:fields/UserSID=S-1-5-21-2935914779-1618742390-1451969622-1001")
etwctl_trace_test(dump_image_thread RC 0 MODE lines ARGS --json trace dump ${net} --events ImageDCStart,ThreadCreate --limit 4
    LINES 4
    AT "0:fields/ImageBase=0x77710000" "0:fields/ImageSize=1404928" "0:fields/ImageCheckSum=1450643" "0:pid=4"
       "2:fields/ImageBase=0xfffff80021489000" "2:fields/ImageSize=7634944" "2:fields/ImageCheckSum=6989512"
       "2:fields/TimeDateStamp=1343269963" "2:fields/FileName~ntoskrnl.exe$" "2:pid=0"
       "3:fields/ImageBase=0xfffff8002141d000")
etwctl_trace_test(dump_thread_start RC 0 MODE lines ARGS --json trace dump ${net} --events ThreadCreate --limit 1 LINES 1
    AT "0:time_ms~^97\\.32" "0:pid=4" "0:tid=184" "0:fields/TThreadId=184" "0:fields/Win32StartAddr=0xfffff8002185916c"
       "0:fields/StackBase=0xfffff88006daa000" "0:fields/BasePriority=8" "0:fields/PagePriority=5" "0:fields/IoPriority=2")
etwctl_trace_test(dump_extension_masks RC 0 MODE lines ARGS --json trace dump ${net} --events EventTraceExtension LINES 3
    AT "1:time_ms~^17\\.62" "1:fields/GroupMask1=75535" "1:fields/GroupMask2=2" "1:fields/KernelEventVersion=42")
# SampledProfile with their stacks (the process's samples: most of the idle thread's have none)
etwctl_trace_test(dump_samples_with_stack RC 0 MODE lines
    ARGS --json trace dump ${net} --events SampledProfile --pid 3644 --limit 3 LINES 3
    EACH "name=SampledProfile" "hook=0x0f2e" "pid=3644" "stack" "stack/0" "fields/InstructionPointer" "fields/ThreadId"
    AT "0:stack/0~^0x[0-9a-f]+$")
etwctl_trace_test(dump_samples RC 0 MODE lines ARGS --json trace dump ${net} --events sampledprofile --limit 3 LINES 3
    EACH "name=SampledProfile" "opcode=46" "provider=ce1dbfb4-137e-4da6-87b0-3f59aa102cbc"
    AT "0:stack/0~^0xfffff8" "0:pid=-1" "0:tid=2784" "1:pid=0" "1:tid=0") # the first sample precedes its thread's DCStart
etwctl_trace_test(dump_pid RC 0 MODE lines ARGS --json trace dump ${net} --pid 3644 --limit 40 LINES 40 EACH "pid=3644")
etwctl_trace_test(dump_text RC 0 ARGS trace dump ${net} --limit 20
    STDOUT "0.000000 cpu0 pid 3988 tid 2784 EventTraceHeader BufferSize=65536" "ProcessDCStart UniqueProcessKey=0xfffff800217d9200")
etwctl_trace_test(dump_misspelt_event RC 1 ARGS trace dump ${net} --events SampledProfle
    STDERR "unknown kernel event name 'SampledProfle' (did you mean SampledProfile?)")
etwctl_trace_test(dump_unknown_verb RC 1 ARGS trace dumb ${net} STDERR "unknown trace command 'dumb' (did you mean dump?)")
etwctl_trace_test(stacks_json_refused RC 1 ARGS --json trace stacks ${net} STDERR "--json does not apply to stacks")
etwctl_trace_test(limit_elsewhere RC 1 ARGS interval get --limit 3 STDERR "option --limit does not apply here")

# ---- TraceLogging: events named and decoded from their own metadata ----
etwctl_trace_test(dump_tracelogging RC 0 MODE lines ARGS --json trace dump ${tl} LINES 7
    AT "0:name=EventTraceHeader" "0:fields/BufferSize=8192" "0:fields/LoggerName=solar_system"
       "2:name=PrimitiveTypesTest" "2:kind=tracelogging" "2:provider_name=solar_system" "2:pid=33984" "2:tid=21768"
       "2:time_ms~^2942\\.30" "2:fields/string_type=Mercury" "2:fields/boolean_type=OFF" "2:fields/char_type=77"
       "2:fields/int16_type=-51" "2:fields/int32_type=-102" "2:fields/uint16_type=51" "2:fields/uint32_type=102"
       "2:fields/uint64_type=204" "2:fields/guid_type~^0ad614c4-0ef4-4225-8" "2:fields/file_time_type~^2021-09-09T14:59:35\\.79"
       "3:fields/string_type=Venus" "3:fields/boolean_type=ON" "4:fields/string_type=Earth" "5:fields/string_type=Mars"
       "6:fields/string_type=Jupiter" "6:fields/int32_type=-138")
etwctl_trace_test(dump_tracelogging_by_name RC 0 MODE lines ARGS --json trace dump ${tl} --events PrimitiveTypesTest LINES 5
    EACH "name=PrimitiveTypesTest" "fields/string_type")

# ---- stacks: folded, root first, frames named from the trace's own image events ----
# 6795 = the SampledProfile events with a stack (kernel walk or cached keys), counted with the library alone.
# 2880 distinct stacks: 2883 if the 35 late user parts were not joined to their kernel parts.
etwctl_trace_test(stacks RC 0 MODE folded ARGS trace stacks ${net} COUNT_SUM 6795 LINES 2880
    STDOUT "ntoskrnl.exe+0x" "Test.x86.exe (3644);ntdll.dll+0x" "Idle (0);"
    STDERR "6795 stacks (2880 distinct)" "35 completed by a user part logged later")
etwctl_trace_test(stacks_pid RC 0 MODE folded ARGS trace stacks ${net} --pid 3644 PREFIX "Test.x86.exe (3644);"
    STDOUT "clr.dll+0x")

# ---- hostile input: a cut file, a file too short to be a trace, none at all ----
etwctl_trace_test(truncated RC 4 MODE object ARGS --json trace stats ${trace_work}/cut.etl
    PREPARE ${net} 1000000 ${trace_work}/cut.etl
    FIELDS "losses/faults=1" "losses/buffers_unreadable=1"
    STDERR "cut.etl: a buffer's BufferSize" "[trace_buffer_size] at file offset 0xF4046" "read with 1 fault")
etwctl_trace_test(truncated_dump RC 4 ARGS trace dump ${trace_work}/cut_dump.etl --events EventTraceHeader
    PREPARE ${net} 1000000 ${trace_work}/cut_dump.etl
    STDOUT "EventTraceHeader" STDERR "[trace_buffer_size] at file offset 0xF4046")
etwctl_trace_test(not_a_trace RC 2 ARGS trace stats ${trace_work}/head.etl PREPARE ${net} 100 ${trace_work}/head.etl
    STDERR "is not a trace etwctl can read" "[trace_buffer_size] at file offset 0x0" "rule trace_buffer_size")
etwctl_trace_test(not_a_trace_json RC 2 ARGS --json trace dump ${trace_work}/head_json.etl
    PREPARE ${net} 100 ${trace_work}/head_json.etl
    STDOUT "\"ok\":false" "\"exit_code\":2" "\"rule\":\"trace_buffer_size\"" "\"file_offset\":0")
etwctl_trace_test(missing_file RC 3 ARGS trace stats ${trace_work}/no-such-file.etl
    STDERR "cannot read" "ERROR_FILE_NOT_FOUND (Win32 2)")
