# End-to-end tests of the Windows 10 commands (included by CMakeLists.txt: etwctl_tool_test).
# ---- command line and help ----
etwctl_tool_test(help RC 0 ARGS --help STDOUT "usage: etwctl" "exit codes: 0 ok, 1 usage, 2 refused by a rule")
etwctl_tool_test(no_command RC 1 ARGS STDERR "usage: etwctl")
etwctl_tool_test(unknown_command RC 1 ARGS frobnicate STDERR "unknown command 'frobnicate'")
etwctl_tool_test(unknown_option RC 1 ARGS interval get --frequency 3 STDERR "unknown option --frequency")
etwctl_tool_test(command_help RC 0 ARGS pmc --help STDOUT "usage: etwctl pmc SESSION --counters")
etwctl_tool_test(help_command RC 0 ARGS help stackwalk STDOUT "usage: etwctl stackwalk SESSION NAMES")
etwctl_tool_test(says_simulated RC 0 ARGS version STDOUT "etwctl ${PROJECT_VERSION}" "kernel: simulated"
                 "EtwTraceProcessingVersion 1" STDERR "using the simulated kernel")
etwctl_tool_test(bad_sim_env RC 1 SIM "bogus" ARGS version STDERR "ETWCTL_SIM: unknown item 'bogus'")

# ---- profile-sources ----
etwctl_tool_test(profile_sources RC 0 ARGS profile-sources
                 STDOUT "Id  Name" "   0  Timer                                10000        1221     1000000"
                        "  26  InstructionRetired                   65536        4096  2147483647")
etwctl_tool_test(profile_sources_json RC 0 ARGS --json profile-sources
                 STDOUT "{\"ok\":true,\"command\":\"profile-sources\",\"sources\":[{\"id\":0,\"name\":\"Timer\",\"interval\":10000,\"min\":1221,\"max\":1000000}")

# ---- interval ----
etwctl_tool_test(interval_get RC 0 ARGS interval get STDOUT "Timer (0): 10000 (1.0000 ms, 1000.0 Hz)")
etwctl_tool_test(interval_get_source RC 0 ARGS interval get --source InstructionRetired STDOUT "InstructionRetired (26): 65536 events")
etwctl_tool_test(interval_set_us RC 0 ARGS interval set 122.1us STDOUT "Timer (0): 10000 -> 1221 (122.1 us, 8190.0 Hz)")
etwctl_tool_test(interval_set_khz RC 0 ARGS interval set 8kHz STDOUT "-> 1250 (125.0 us, 8000.0 Hz)")
etwctl_tool_test(interval_set_units RC 0 ARGS --json interval set 2ms
                 STDOUT "\"source\":0" "\"before\":10000" "\"requested\":20000" "\"after\":20000")
etwctl_tool_test(interval_set_counter RC 0 ARGS interval set --source 19 100000 STDOUT "TotalCycles (19): 65536 -> 100000 events")
etwctl_tool_test(interval_out_of_bounds RC 2 ARGS interval set 10
                 STDERR "outside Timer (0)'s [1221, 1000000]" "rule interval_out_of_bounds")
etwctl_tool_test(interval_out_of_bounds_json RC 2 ARGS --json interval set 10
                 STDOUT "\"ok\":false" "\"exit_code\":2" "\"rule\":\"interval_out_of_bounds\"" "\"min\":1221")
etwctl_tool_test(interval_unit_on_counter RC 1 ARGS interval set --source TotalCycles 1ms STDERR "counts events")
etwctl_tool_test(interval_bad_value RC 1 ARGS interval set 12parsecs STDERR "bad interval '12parsecs'")
etwctl_tool_test(interval_source_absent RC 2 ARGS interval get --source PipelineDry STDERR "rule profile_source_absent")
etwctl_tool_test(interval_no_privilege RC 3 SIM no-privilege ARGS interval set 1ms
                 STDERR "STATUS_PRIVILEGE_NOT_HELD" "hint: needs SeSystemProfilePrivilege")
etwctl_tool_test(interval_no_query_export RC 3 SIM no-query-interval ARGS interval get --source TotalCycles
                 STDERR "STATUS_ENTRYPOINT_NOT_FOUND")
etwctl_tool_test(interval_dry_run RC 0 ARGS --dry-run interval set 1ms
                 STDOUT "NtSetSystemInformation(SystemPerformanceTraceInformation, 0x08 bytes)  [not sent (dry run)]"
                        "0000  03 00 00 00                class 0x03 EventTraceTimeProfileInformation"
                        "0004  10 27 00 00                ProfileInterval 10000 (1.0000 ms, 1000.0 Hz)")
etwctl_tool_test(interval_dry_run_counter RC 0 ARGS --dry-run interval set --source TotalCycles 8192
                 STDOUT "NtSetIntervalProfile(Interval=8192, Source=19 TotalCycles)  [not sent (dry run)]"
                        "NtQueryIntervalProfile(Source=19 TotalCycles)  [sent: STATUS_SUCCESS]")

# ---- stackwalk ----
etwctl_tool_test(stackwalk RC 0 ARGS stackwalk kernel CSwitch+ReadyThread
                 STDOUT "NT Kernel Logger (0xFFFF): stack walk CSwitch+ReadyThread (2 events)")
etwctl_tool_test(stackwalk_session_name RC 0 ARGS stackwalk "NT Kernel Logger" ReadyThread+CSwitch
                 STDOUT "stack walk CSwitch+ReadyThread (2 events)")
etwctl_tool_test(stackwalk_duplicate RC 1 ARGS stackwalk kernel CSwitch+0x0524 STDERR "name given twice '0x0524'")
etwctl_tool_test(stackwalk_dry_run RC 0 ARGS --dry-run stackwalk 0xFFFF CSwitch+ReadyThread
                 STDOUT "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x18 bytes)  [not sent (dry run)]"
                        "0000  06 00 00 00 00 00 00 00    class 0x06 EventTraceStackTracingInformation, padding"
                        "0008  ff ff 00 00 00 00 00 00    TraceHandle 0x000000000000FFFF (logger 0xFFFF, NT Kernel Logger)"
                        "0010  24 05 00 00                HookId[0] 0x0524 CSwitch"
                        "0014  32 05 00 00                HookId[1] 0x0532 ReadyThread")
etwctl_tool_test(stackwalk_json RC 0 ARGS --json stackwalk kernel CSwitch
                 STDOUT "\"events\":[{\"hook\":\"0x0524\",\"name\":\"CSwitch\"}]")
etwctl_tool_test(stackwalk_off RC 0 ARGS stackwalk kernel none STDOUT "stack walk off (0 events)")
etwctl_tool_test(stackwalk_unknown_name RC 1 ARGS stackwalk kernel CSwtch+ReadyThread
                 STDERR "unknown name 'CSwtch' at offset 0 (did you mean CSwitch?)")
etwctl_tool_test(stackwalk_bad_session RC 1 ARGS stackwalk 99 CSwitch STDERR "bad session '99'")
etwctl_tool_test(stackwalk_no_session RC 3 ARGS stackwalk 7 CSwitch
                 STDERR "STATUS_WMI_INSTANCE_NOT_FOUND" "hint: no such session")
etwctl_tool_test(stackwalk_not_system_logger RC 3 SIM user-logger=3 ARGS stackwalk 3 CSwitch STDERR "STATUS_INVALID_PARAMETER")

# ---- flags ----
etwctl_tool_test(flags_get RC 0 ARGS flags kernel get
                 STDOUT "NT Kernel Logger (0xFFFF): PROC_THREAD+LOADER+PROFILE+CSWITCH" "masks: 01000017 00000006")
etwctl_tool_test(flags_set RC 0 ARGS --json flags kernel set PROC_THREAD+LOADER
                 STDOUT "\"flags\":\"PROC_THREAD+LOADER\"" "\"masks\":[\"0x00000007\"")
etwctl_tool_test(flags_set_dry_run RC 0 ARGS --dry-run flags kernel set PROC_THREAD+LOADER+PROFILE
                 STDOUT "0014  02 00 00 00                Masks[1] 0x00000002" "= PROC_THREAD+LOADER+PROFILE")
etwctl_tool_test(flags_unknown_name RC 1 ARGS flags kernel set PROC_THREAD+LAODER STDERR "unknown name 'LAODER'")
etwctl_tool_test(flags_sim_env RC 0 SIM "flags=PROC_THREAD+DISPATCHER" ARGS flags kernel get STDOUT "PROC_THREAD+DISPATCHER")
etwctl_tool_test(flags_profile_no_privilege RC 3 SIM "flags=PROC_THREAD,no-privilege" ARGS flags kernel set PROFILE
                 STDERR "STATUS_PRIVILEGE_NOT_HELD")
etwctl_tool_test(flags_not_system_logger RC 3 SIM user-logger=3 ARGS --json flags 3 get
                 STDOUT "\"exit_code\":3" "\"ntstatus\":\"0xC000000D\"")

# ---- pmc ----
etwctl_tool_test(pmc RC 0 ARGS pmc kernel --counters TotalCycles,InstructionRetired --events CSwitch
                 STDOUT "NT Kernel Logger (0xFFFF): PMC counters TotalCycles (19), InstructionRetired (26) on CSwitch")
etwctl_tool_test(pmc_ids_interval RC 0 ARGS --json pmc kernel --counters 19 --events CSwitch --interval 100000
                 STDOUT "\"counters\":[{\"name\":\"TotalCycles\",\"id\":19}]" "\"interval\":100000")
etwctl_tool_test(pmc_group_not_enabled RC 2 ARGS pmc kernel --counters TotalCycles --events ReadyThread
                 STDERR "failed at check_event_groups" "event ReadyThread needs DISPATCHER; add --flags DISPATCHER"
                        "rule pmc_event_group_not_enabled")
etwctl_tool_test(pmc_with_flags RC 0 ARGS pmc kernel --counters TotalCycles --events CSwitch,ReadyThread --flags DISPATCHER
                 STDOUT "on CSwitch+ReadyThread")
etwctl_tool_test(pmc_flags_dry_run RC 0 ARGS --dry-run pmc kernel --counters TotalCycles --events ReadyThread --flags DISPATCHER
                 STDOUT "= PROC_THREAD+LOADER+PROFILE+CSWITCH+DISPATCHER"
                        "0010  13 00 00 00                ProfileSource[0] 19 TotalCycles"
                        "0010  32 05 00 00                HookId[0] 0x0532 ReadyThread")
etwctl_tool_test(pmc_dry_run_json RC 0 ARGS --json --dry-run pmc kernel --counters TotalCycles --events CSwitch
                 STDOUT "\"requests\":" "\"sent\":false" "EventTraceProfileCounterListInformation")
etwctl_tool_test(pmc_timer RC 2 ARGS pmc kernel --counters Timer --events CSwitch
                 STDERR "the timer is not a hardware counter (counter 'Timer')" "rule pmc_counter_not_pmc")
etwctl_tool_test(pmc_absent RC 2 ARGS pmc kernel --counters TotalCycles,FluxCapacitance --events CSwitch
                 STDERR "counter 'FluxCapacitance'" "rule profile_source_absent")
etwctl_tool_test(pmc_too_many RC 2 ARGS pmc kernel --counters 2,6,10,11,19 --events CSwitch STDERR "rule pmc_counters_size")
etwctl_tool_test(pmc_interval_bounds RC 2 ARGS pmc kernel --counters TotalCycles --events CSwitch --interval 10
                 STDERR "bounds [4096, 2147483647]" "rule interval_out_of_bounds")
etwctl_tool_test(pmc_no_privilege RC 3 SIM no-privilege ARGS pmc kernel --counters TotalCycles --events CSwitch
                 STDERR "failed at set_counter_list: SeSystemProfilePrivilege not held" "STATUS_PRIVILEGE_NOT_HELD")
etwctl_tool_test(pmc_not_system_logger RC 3 SIM user-logger=3 ARGS --json pmc 3 --counters TotalCycles --events CSwitch
                 STDOUT "\"step\":\"query_group_mask\"" "\"condition\":\"not_system_logger\"")
etwctl_tool_test(pmc_kernel_counter_limit RC 3 SIM max-pmc=1 ARGS pmc kernel --counters TotalCycles,InstructionRetired --events CSwitch
                 STDERR "failed at set_counter_list: too many counters")
etwctl_tool_test(pmc_paged_session RC 3 SIM "paged-logger=5" ARGS --json pmc 5 --counters TotalCycles
                 STDOUT "\"condition\":\"session_refused\"")
etwctl_tool_test(pmc_partial RC 4 SIM pmc-events=CSwitch ARGS --json pmc kernel --counters TotalCycles --events CSwitch
                 STDOUT "\"exit_code\":4" "\"kind\":\"partial\"" "\"condition\":\"already_configured\"" "\"counters_applied\":true")
etwctl_tool_test(pmc_no_counters RC 1 ARGS pmc kernel --events CSwitch STDERR "--counters is required")
etwctl_tool_test(pmc_bad_event RC 1 ARGS pmc kernel --counters TotalCycles --events CSwitch+Bogus STDERR "unknown name 'Bogus'")

# ---- decode-handle ----
etwctl_tool_test(decode_handle RC 0 ARGS decode-handle 0x0000001000FF0005
                 STDOUT "logger id     5" "level         255" "enable flags  0x00000010")
etwctl_tool_test(decode_handle_kernel RC 0 ARGS --json decode-handle 0x000000010004FFFF
                 STDOUT "\"logger_id\":65535" "\"level\":4" "\"enable_flags\":\"0x00000001\"")
etwctl_tool_test(decode_handle_invalid RC 2 ARGS decode-handle 0x50 STDERR "rule enable_context_bad_logger_id")
etwctl_tool_test(decode_handle_zero RC 2 ARGS decode-handle 0 STDERR "rule enable_context_zero_handle")
etwctl_tool_test(decode_handle_bad RC 1 ARGS decode-handle zz STDERR "bad handle 'zz'")

# ---- destructive empty forms: refused (exit 2), nothing sent (--trace lists the requests) ----
etwctl_tool_test(flags_set_blank RC 2 ARGS flags kernel set " " --trace
                 STDERR "an empty flag list would turn every kernel flag off; nothing was sent"
                        "hint: use 'etwctl flags SESSION clear'" "kernel requests:" "(none)")
etwctl_tool_test(stackwalk_blank RC 2 ARGS stackwalk kernel " " --trace
                 STDERR "an empty stack-walk list would turn stack walking off; nothing was sent"
                        "hint: use 'etwctl stackwalk SESSION clear'" "(none)")
etwctl_tool_test(stackwalk_set_blank RC 2 ARGS stackwalk kernel set " \t" --trace STDERR "nothing was sent" "(none)")
etwctl_tool_test(xperf_on_blank RC 2 ARGS -on " " --trace STDERR "nothing was sent" "(none)")
etwctl_tool_test(xperf_stackwalk_blank RC 2 ARGS -stackwalk " " --trace STDERR "nothing was sent" "(none)")
etwctl_tool_test(flags_clear RC 0 ARGS --trace flags kernel clear
                 STDOUT "flags set to (none)" "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "0010 00 00 00 00 Masks[0] 0x00000000" "0014 00 00 00 00 Masks[1] 0x00000000")
etwctl_tool_test(stackwalk_clear RC 0 ARGS --trace stackwalk kernel clear
                 STDOUT "stack walk off (0 events)" "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x10 bytes)"
                        "(empty list)")
etwctl_tool_test(stackwalk_add_refused RC 2 ARGS --trace stackwalk kernel add CSwitch
                 STDERR "the kernel does not report it" "(none)")

# ---- flags add / remove (relative to the flags the kernel reports) ----
etwctl_tool_test(flags_add RC 0 ARGS --trace flags kernel add DISPATCHER
                 STDOUT "flags set to PROC_THREAD+LOADER+PROFILE+CSWITCH+DISPATCHER"
                        "#1 NtQuerySystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x30 bytes) [sent: STATUS_SUCCESS]"
                        "0014 06 02 00 00 Masks[1] 0x00000206")
etwctl_tool_test(flags_remove RC 0 ARGS --trace flags kernel remove PROFILE+CSWITCH
                 STDOUT "flags set to PROC_THREAD+LOADER" "0010 07 00 00 00 Masks[0] 0x00000007" "0014 00 00 00 00 Masks[1] 0x00000000")
etwctl_tool_test(flags_add_group RC 0 ARGS --json flags kernel add SysProf+DPC STDOUT "\"flags\":\"PROC_THREAD+LOADER+PROFILE+CSWITCH+DPC\"")

# ---- separators, case, did-you-mean ----
etwctl_tool_test(flags_comma RC 1 ARGS flags kernel set PROC_THREAD,LOADER
                 STDERR "kernel flags and groups are joined with '+' (as in xperf), not ','")
etwctl_tool_test(xperf_stackwalk_comma RC 1 ARGS -stackwalk CSwitch,ReadyThread STDERR "event names are joined with '+' (as in xperf), not ','")
etwctl_tool_test(pmc_counters_plus RC 1 ARGS pmc kernel --counters TotalCycles+InstructionRetired --events CSwitch
                 STDERR "counters are joined with ',' (as in xperf), not '+'")
etwctl_tool_test(pmc_counter_suggestion RC 2 ARGS pmc kernel --counters TotalCycle --events CSwitch
                 STDERR "counter 'TotalCycle' is not in this machine's profile-source list (did you mean TotalCycles?)" "rule profile_source_absent")
etwctl_tool_test(interval_source_suggestion RC 2 ARGS interval get --source InstructionsRetired
                 STDERR "did you mean InstructionRetired?")
etwctl_tool_test(group_suggestion RC 1 ARGS -on Latncy STDERR "unknown name 'Latncy' at offset 0 (did you mean Latency?)")
etwctl_tool_test(flag_suggestion RC 1 ARGS flags kernel set PROC_THREAD+LOADR STDERR "(did you mean LOADER?)")
etwctl_tool_test(event_suggestion RC 1 ARGS -stackwalk PagefaultHrd STDERR "(did you mean PagefaultHard?)")
etwctl_tool_test(xperf_option_suggestion RC 1 ARGS -stackwalc CSwitch STDERR "unknown xperf option '-stackwalc' (did you mean -stackwalk?)")
etwctl_tool_test(command_suggestion RC 1 ARGS stackwlk kernel CSwitch STDERR "unknown command 'stackwlk' (did you mean stackwalk?)")
etwctl_tool_test(list_suggestion RC 1 ARGS list event STDERR "unknown list 'event' (did you mean events?)")
etwctl_tool_test(xperf_case RC 0 ARGS --json -SESSION Kernel -ON latency+Proc_Thread -STACKWALK cswitch+PAGEFAULTHARD
                 STDOUT "\"flags\":\"PROC_THREAD+LOADER+PROFILE+CSWITCH+DPC+INTERRUPT+DISK_IO+HARD_FAULTS\""
                        "{\"hook\":\"0x020E\",\"name\":\"PagefaultHard\"}")
etwctl_tool_test(flag_without_value RC 1 ARGS -on HAL_CLOCK STDERR "'HAL_CLOCK' is an xperf kernel flag whose value no public source gives")
etwctl_tool_test(group_twice RC 1 ARGS -on Base+base STDERR "name given twice 'base'")
etwctl_tool_test(pagefault_alias RC 0 ARGS --dry-run stackwalk kernel HardPageFault+TransitionFault
                 STDOUT "HookId[0] 0x020A PagefaultTransition" "HookId[1] 0x020E PagefaultHard")


# ---- issue 35 item 7: a single-valued option given twice is refused, naming the option and both values
# (one mechanism with the xperf forms' -f / -BufferSize / -session ...: cli.hpp option_given_twice) ----
etwctl_tool_test(interval_source_twice RC 1 ARGS --trace interval set 5000 --source TotalIssues --source Timer
                 STDERR "etwctl: interval: --source given twice ('TotalIssues' and 'Timer'): give it once"
                 NOT_STDOUT "->") # nothing set: neither source's interval
etwctl_tool_test(interval_source_twice_inline RC 1 ARGS interval get --source=TotalIssues --source Timer
                 STDERR "--source given twice ('TotalIssues' and 'Timer')")
etwctl_tool_test(pmc_counters_twice RC 1 ARGS pmc kernel --counters TotalCycles --events CSwitch --counters InstructionRetired
                 STDERR "etwctl: pmc: --counters given twice ('TotalCycles' and 'InstructionRetired')")
etwctl_tool_test(pmc_events_twice RC 1 ARGS pmc kernel --counters TotalCycles --events CSwitch --events ReadyThread
                 STDERR "--events given twice ('CSwitch' and 'ReadyThread')")
etwctl_tool_test(pmc_interval_twice RC 1 ARGS pmc kernel --counters TotalCycles --interval 4096 --interval=8192 --events CSwitch
                 STDERR "--interval given twice ('4096' and '8192')")
etwctl_tool_test(pmc_flags_twice RC 1 ARGS pmc kernel --counters TotalCycles --events CSwitch --flags CSWITCH --flags DPC
                 STDERR "--flags given twice ('CSWITCH' and 'DPC')")
etwctl_tool_test(lbr_options_twice RC 1 ARGS lbr kernel --options exclude-kernel --options exclude-user CSwitch
                 STDERR "etwctl: lbr: --options given twice ('exclude-kernel' and 'exclude-user')")
etwctl_tool_test(pmc_add_intel_twice RC 1 ARGS pmc add MyCounter --intel 24:3F --intel 25:01
                 STDERR "--intel given twice ('24:3F' and '25:01')")
etwctl_tool_test(pmc_add_description_twice RC 1 ARGS pmc add --description A --description B --intel 24:3F
                 STDERR "--description given twice ('A' and 'B')")
etwctl_tool_test(trace_pid_twice RC 1 ARGS trace dump any.etl --pid 1 --pid 2 STDERR "etwctl: trace: --pid given twice ('1' and '2')")
etwctl_tool_test(trace_limit_twice RC 1 ARGS trace dump any.etl --limit 1 --limit 2 STDERR "--limit given twice ('1' and '2')")
etwctl_tool_test(trace_events_twice RC 1 ARGS trace stacks any.etl --events Profile --events CSwitch
                 STDERR "--events given twice ('Profile' and 'CSwitch')")
etwctl_tool_test(option_twice_json RC 1 ARGS --json interval get --source TotalIssues --source Timer
                 STDOUT "\"ok\":false" "\"kind\":\"usage\"" "--source given twice ('TotalIssues' and 'Timer')")
# The xperf forms say the same, with the group: -f, a group option.
etwctl_tool_test(xperf_file_twice RC 1 ARGS -start S -on *Foo -f a.etl -f b.etl
                 STDERR "-f given twice for -start S ('a.etl' and 'b.etl'): give it once")
etwctl_tool_test(xperf_setprofint_twice_values RC 1 ARGS -setprofint 1221 -setprofint 2000
                 STDERR "-setprofint given twice ('1221' and '2000')")
# wpr's --base is the one option that adds a value each time: two are read (and then judged by the verb).
# Only where the wpr command exists (pugixml: not the cross builds).
if(TARGET etwctl::wpr)
    etwctl_tool_test(wpr_base_repeatable RC 1 ARGS wpr -profiles x.wprp --base a.wprp --base b.wprp
                     STDERR "--base applies to -start, -check and -status only")
endif()

# ---- issue 35 item 12: --help lists every command of the tool's tables (help_check.cmake) ----
string(REPLACE ";" "|" etwctl_help_emulator "${CMAKE_CROSSCOMPILING_EMULATOR}")
add_test(NAME tool.help_lists_every_command
         COMMAND ${CMAKE_COMMAND} "-DTOOL=$<TARGET_FILE:etwctl_tool>" "-DEMULATOR=${etwctl_help_emulator}"
                 "-DTABLES=${CMAKE_CURRENT_SOURCE_DIR}/../cli.hpp|${CMAKE_CURRENT_SOURCE_DIR}/../main.cpp"
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/help_check.cmake)
etwctl_tool_test(help_lists_wpr RC 0 ARGS --help
                 STDOUT "  wpr -start|-check|-status FILE!Profile" "  wpr -stop|-cancel|-profiles" "  trace dump|stats|stacks FILE"
                        "  session start|stop|flush|update|query|list" "  help [COMMAND]")
