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
etwctl_tool_test(xperf_partial_json RC 4 ARGS --json --trace -on PROC_THREAD -pmc TotalCycles CSwitch
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
