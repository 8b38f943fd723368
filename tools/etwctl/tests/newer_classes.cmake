# End-to-end tests of the commands of the classes later Windows releases added and of custom counters
# (included by CMakeLists.txt).
# ---- limits, pmc owners (classes of later Windows releases) ----
etwctl_tool_test(limits RC 0 ARGS limits STDOUT "max loggers: 64" "max PMC counters: 4")
etwctl_tool_test(limits_session RC 0 ARGS limits kernel STDOUT "max loggers: 64" "streams of NT Kernel Logger (0xFFFF): 8")
etwctl_tool_test(limits_json RC 0 ARGS --json limits STDOUT "\"max_loggers\":64,\"max_pmc_counters\":4")
etwctl_tool_test(pmc_owners RC 0 ARGS pmc owners STDOUT "counter 0: free" "counter 3: free")
etwctl_tool_test(pmc_owners_json RC 0 ARGS --json pmc owners
                 STDOUT "\"owners\":[{\"counter\":0,\"owner\":\"free\",\"source\":0,\"tag\":0}")

# ---- issue 13: stackcache, lbr, pmc add / remove (each against the simulated kernel; requests byte for byte) ----
etwctl_tool_test(help_new_commands RC 0 ARGS --help
                 STDOUT "stackcache SESSION SIZE BUCKETS [--unified] [--clamp]" "lbr SESSION [--options F+...] EVENTS"
                        "pmc add NAME --intel|--amd|--arm SPEC" "pmc remove ID|NAME")
etwctl_tool_test(option_not_for_command RC 1 ARGS lbr kernel CSwitch --clamp STDERR "option --clamp does not apply here")
etwctl_tool_test(limits_older_windows RC 0 SIM older-windows ARGS limits
                 STDOUT "max loggers: not on this Windows (this Windows does not have TraceMaxLoggersQuery (the kernel answered NTSTATUS 0xC0000010 (STATUS_INVALID_DEVICE_REQUEST), Win32 ERROR_INVALID_FUNCTION 1); a later Windows release added it)")

# stackcache
etwctl_tool_test(stackcache_help RC 0 ARGS stackcache --help
                 STDOUT "usage: etwctl stackcache SESSION SIZE BUCKETS [--unified] [--clamp]" "cannot be switched off"
                        "KB / MB are refused as ambiguous")
etwctl_tool_test(stackcache RC 0 ARGS stackcache kernel 16MiB 1024
                 STDOUT "NT Kernel Logger (0xFFFF): stack caching on, cache 16 MiB (16777216 bytes), 1024 buckets")
etwctl_tool_test(stackcache_json RC 0 ARGS --json stackcache kernel 16MiB 1024
                 STDOUT "{\"ok\":true,\"command\":\"stackcache\",\"session\":65535,\"class\":\"TraceStackCachingInfo\",\"unified\":false,\"size\":16777216,\"buckets\":1024}")
etwctl_tool_test(stackcache_units RC 0 ARGS stackcache kernel 4096kib 256 STDOUT "cache 4 MiB (4194304 bytes), 256 buckets")
etwctl_tool_test(stackcache_bytes RC 0 ARGS stackcache kernel 0x300000 4096 STDOUT "cache 3 MiB (3145728 bytes), 4096 buckets")
etwctl_tool_test(stackcache_dry_run RC 0 ARGS --dry-run stackcache kernel 16MiB 1024
                 STDOUT "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x20 bytes) [not sent (dry run)]"
                        "0000 10 00 00 00 00 00 00 00 class 0x10 EventTraceStackCachingInformation, padding"
                        "0008 ff ff 00 00 00 00 00 00 TraceHandle 0x000000000000FFFF (logger 0xFFFF, NT Kernel Logger)"
                        "0010 01 00 00 00 Enabled 1, 3 bytes padding" "0014 00 00 00 01 CacheSize 16777216 (16 MiB)"
                        "0018 00 04 00 00 BucketCount 1024" "001C 00 00 00 00 reserved"
                 NOT_STDOUT "#2 ")
etwctl_tool_test(stackcache_unified_dry_run RC 0 SIM "logger=5:Perf" ARGS --dry-run stackcache Perf 12MiB 2048 --unified
                 STDOUT "stack caching (unified) on, cache 12 MiB"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x20 bytes) [not sent (dry run)]"
                        "0000 1a 00 00 00 00 00 00 00 class 0x1A EventTraceUnifiedStackCachingInformation, padding"
                        "0008 05 00 00 00 00 00 00 00 TraceHandle 0x0000000000000005 (logger 5)"
                        "0014 00 00 c0 00 CacheSize 12582912 (12 MiB)" "0018 00 08 00 00 BucketCount 2048")
etwctl_tool_test(stackcache_size_too_small RC 2 ARGS --trace stackcache kernel 1MiB 1024
                 STDERR "cache size 1048576 bytes (1 MiB) is outside the kernel's 3 MiB..50 MiB (3145728..52428800 bytes)"
                        "nothing was sent" "rule stack_cache_out_of_bounds: stack cache size or bucket count outside" "(Win32 87 ERROR_INVALID_PARAMETER)"
                        "hint: give SIZE within 3MiB..50MiB and BUCKETS within 256..4096, or add --clamp to use 3 MiB"
                        "kernel requests:\n(none)")
etwctl_tool_test(stackcache_buckets_too_many_json RC 2 ARGS --json stackcache kernel 16MiB 5000
                 STDOUT "\"ok\":false" "\"exit_code\":2" "\"kind\":\"refused\"" "bucket count 5000 is outside the kernel's 256..4096"
                        "\"buckets\":5000,\"buckets_min\":256,\"buckets_max\":4096")
etwctl_tool_test(stackcache_clamp RC 0 ARGS --dry-run stackcache kernel 64MiB 100 --clamp
                 STDERR "cache size 64 MiB is outside 3 MiB..50 MiB; using 50 MiB (52428800 bytes, --clamp)"
                        "bucket count 100 is outside 256..4096; using 256 (--clamp)"
                 STDOUT "0014 00 00 20 03 CacheSize 52428800 (50 MiB)" "0018 00 01 00 00 BucketCount 256")
etwctl_tool_test(stackcache_clamp_json RC 0 ARGS --json stackcache kernel 2MiB 1024 --clamp
                 STDOUT "\"size\":3145728,\"buckets\":1024,\"clamped\":true,\"requested_size\":2097152")
etwctl_tool_test(stackcache_ambiguous_unit RC 1 ARGS stackcache kernel 16MB 1024
                 STDERR "SIZE '16MB' is ambiguous (1000- or 1024-based?): write 16MiB for 16777216 bytes")
etwctl_tool_test(stackcache_bad_buckets RC 1 ARGS stackcache kernel 16MiB lots STDERR "bad BUCKETS 'lots'")
etwctl_tool_test(stackcache_off RC 2 ARGS stackcache kernel off
                 STDERR "stack caching cannot be switched off: the kernel refuses Enabled = 0")
etwctl_tool_test(stackcache_second_enable RC 3 SIM stack-cache=0xFFFF ARGS stackcache kernel 16MiB 1024
                 STDERR "stack caching is already enabled for NT Kernel Logger (0xFFFF)" "STATUS_WMI_ALREADY_ENABLED"
                        "hint: a session has one stack cache, classic or unified: it can be enabled once per session")
# one stack cache per session (EtwpEnableStackCaching): classic then unified is a second enable
etwctl_tool_test(stackcache_one_cache_per_session RC 3 SIM stack-cache=0xFFFF ARGS stackcache kernel 16MiB 1024 --unified
                 STDERR "stack caching (unified) is already enabled for NT Kernel Logger (0xFFFF)" "STATUS_WMI_ALREADY_ENABLED"
                        "hint: a session has one stack cache, classic or unified")
etwctl_tool_test(stackcache_user_session RC 0 SIM user-logger=3 ARGS stackcache 3 16MiB 1024
                 STDOUT "stack caching on, cache 16 MiB")
etwctl_tool_test(stackcache_older_windows RC 3 SIM older-windows ARGS stackcache kernel 16MiB 1024
                 STDERR "TraceStackCachingInfo is not on this Windows" "(Win32 1 ERROR_INVALID_FUNCTION)")
etwctl_tool_test(stackcache_unified_older_windows_json RC 3 SIM older-windows ARGS --json stackcache kernel 16MiB 1024 --unified
                 STDOUT "\"exit_code\":3" "\"category\":\"etwctl\"" "\"rule\":\"class_not_on_this_windows\""
                        "TraceUnifiedStackCachingInfo is not on this Windows")
etwctl_tool_test(stackcache_no_session RC 3 ARGS stackcache 7 16MiB 1024 STDERR "STATUS_WMI_INSTANCE_NOT_FOUND")

# lbr
etwctl_tool_test(lbr RC 0 ARGS lbr kernel CSwitch+Profile
                 STDOUT "NT Kernel Logger (0xFFFF): last-branch recording on CSwitch+Profile (2 events), options none (0x00000000)")
etwctl_tool_test(lbr_json RC 0 ARGS --json lbr kernel --options exclude-kernel+callstack CSwitch
                 STDOUT "\"session\":65535,\"options\":\"0x00000201\",\"option_names\":\"exclude-kernel+callstack\",\"events\":[{\"hook\":\"0x0524\",\"name\":\"CSwitch\"}]")
etwctl_tool_test(lbr_dry_run RC 0 ARGS --dry-run lbr kernel --options Exclude-User+exclude-far-branch CSwitch+ReadyThread
                 STDOUT "#1 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x18 bytes) [not sent (dry run)]"
                        "0000 13 00 00 00 00 00 00 00 class 0x13 EventTraceLastBranchConfigurationInformation, padding"
                        "0010 02 01 00 00 Options 0x00000102 exclude-user+exclude-far-branch"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x18 bytes) [not sent (dry run)]"
                        "0000 14 00 00 00 00 00 00 00 class 0x14 EventTraceLastBranchEventListInformation, padding"
                        "0010 24 05 00 00 HookId[0] 0x0524 CSwitch" "0014 32 05 00 00 HookId[1] 0x0532 ReadyThread"
                 NOT_STDOUT "#3 ")
etwctl_tool_test(lbr_hex_options RC 0 ARGS --json lbr kernel --options 0x600 CSwitch STDOUT "\"option_names\":\"callstack+sampled\"")
etwctl_tool_test(lbr_too_many_events RC 2 ARGS --trace lbr kernel CSwitch+ReadyThread+Profile+ThreadDelete+PagefaultHard
                 STDERR "5 LBR events given; at most 4 (TRACE_LBR_MAXIMUM_EVENTS)" "rule lbr_events_too_many" "(none)")
etwctl_tool_test(lbr_kernel_and_user RC 2 ARGS --trace lbr kernel --options exclude-kernel+exclude-user CSwitch
                 STDERR "--options exclude-kernel+exclude-user excludes both kernel and user branches"
                        "hint: keep at most one of exclude-kernel and exclude-user" "(none)")
etwctl_tool_test(lbr_kernel_and_user_hex RC 2 ARGS --json lbr kernel --options 3 CSwitch
                 STDOUT "\"exit_code\":2" "\"win32\":87" "\"options\":\"0x00000003\"")
etwctl_tool_test(lbr_unknown_option RC 1 ARGS lbr kernel --options exclude-kernal CSwitch
                 STDERR "unknown LBR option 'exclude-kernal' (did you mean exclude-kernel?)")
etwctl_tool_test(lbr_unknown_bits RC 1 ARGS lbr kernel --options 0x800 CSwitch
                 STDERR "bits 0x00000800 are not TRACE_LBR_CONFIGURATION options")
etwctl_tool_test(lbr_unknown_event RC 1 ARGS lbr kernel CSwtch STDERR "unknown name 'CSwtch' at offset 0 (did you mean CSwitch?)")
etwctl_tool_test(lbr_no_events RC 1 ARGS lbr kernel STDERR "expected SESSION and EVENTS")
etwctl_tool_test(lbr_older_windows RC 3 SIM older-windows ARGS lbr kernel CSwitch
                 STDERR "TraceLbrConfigurationInfo is not on this Windows" "nothing was changed")
etwctl_tool_test(lbr_partial RC 4 SIM no-class=0x14 ARGS --json lbr kernel CSwitch
                 STDOUT "\"exit_code\":4" "\"kind\":\"partial\"" "\"options_applied\":true"
                 STDERR "TraceLbrEventListInfo is not on this Windows: the LBR options were set")

# pmc add / remove (custom hardware counters)
etwctl_tool_test(pmc_add RC 0 ARGS pmc add L2Miss --intel 24:3F
                 STDOUT "added profile source 37 'L2Miss': Intel EventSelect 0x24 UMask 0x3F, interval 65536"
                        "listed: 37 L2Miss, interval 65536, bounds [4096, 2147483647]")
etwctl_tool_test(pmc_add_json RC 0 ARGS --json pmc add L2Miss --intel 0x24:3f,cmask=1,inv,edge --interval 10000
                 STDOUT "\"action\":\"add\",\"name\":\"L2Miss\",\"vendor\":\"intel\",\"version\":2"
                        "\"counter_bytes\":\"243f010100010000\"" "\"id\":37"
                        "\"listed\":{\"id\":37,\"name\":\"L2Miss\",\"min\":4096,\"max\":2147483647,\"interval\":10000}")
etwctl_tool_test(pmc_add_dry_run RC 0 ARGS --dry-run pmc add L2Miss --intel 24:3F --interval 10000
                 STDOUT "would add profile source 'L2Miss': Intel EventSelect 0x24 UMask 0x3F, interval 10000 (dry run: not added"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x120 bytes) [not sent (dry run)]"
                        "0000 15 00 00 00 class 0x15 EventTraceProfileSourceAddInformation"
                        "0004 02 00 00 00 Version 2, 3 bytes padding" "0008 24 3f 00 00 00 00 00 00 counter fields"
                        "0010 ff ff ff ff ff ff ff ff ff ff ff ff CpuInfoHierarchy 0xFFFFFFFF 0xFFFFFFFF 0xFFFFFFFF (every processor)"
                        "001C 10 27 00 00 InitialInterval 10000" "0020 01 00 Persist 1"
                        "0022 4c 00 32 00 4d 00 69 00 ProfileSourceDescription \"L2Miss\"" "002A 73 00 73 00 00 00"
                        "... 240 bytes of zero fill")
etwctl_tool_test(pmc_add_amd_v3 RC 0 ARGS --trace pmc add Retired --amd 1C0:01,edge
                 STDOUT "added profile source 37 'Retired': AMD EventSelect 0x1C0 UnitMask 0x01 Edge"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x120 bytes) [sent: STATUS_SUCCESS]"
                        "0004 03 00 00 00 Version 3" "0008 c0 01 01 00 00 01 00 00 counter fields")
etwctl_tool_test(pmc_add_arm_no_persist RC 0 ARGS --json --dry-run pmc add Cycles --arm 11,halt --no-persist
                 STDOUT "\"vendor\":\"arm\"" "\"counter_bytes\":\"1100000001000000\"" "\"persist\":false" "\"id\":null"
                        "\"note\":\"Persist 0, 1 byte padding\"")
etwctl_tool_test(pmc_add_description_option RC 0 ARGS pmc add --description L2 --intel 24:3f STDOUT "added profile source 37 'L2'")
etwctl_tool_test(pmc_add_two_names RC 1 ARGS pmc add A --description B --intel 24:3f STDERR "NAME 'A' and --description 'B' differ")
etwctl_tool_test(pmc_add_custom_listed RC 0 SIM custom-pmc=MyL2 ARGS profile-sources STDOUT "37 MyL2 65536 4096 2147483647")
etwctl_tool_test(pmc_add_custom_used RC 0 SIM custom-pmc=MyL2 ARGS pmc kernel --counters MyL2 --events CSwitch
                 STDOUT "PMC counters MyL2 (37) on CSwitch")
etwctl_tool_test(pmc_add_name_taken RC 2 ARGS pmc add TotalCycles --intel 3C:00
                 STDERR "the profile-source list already has a source named 'TotalCycles'" "rule custom_counter_description_taken")
string(REPEAT "x" 127 long_name)
etwctl_tool_test(pmc_add_bad_name RC 2 ARGS pmc add ${long_name} --intel 24:3F
                 STDERR "the name must be 1..126 ASCII characters" "rule custom_counter_description")
# the kernel checks the caller's group (Administrators or Performance Log Users), not the privilege
etwctl_tool_test(pmc_add_not_log_user RC 3 SIM not-log-user ARGS pmc add L2Miss --intel 24:3F
                 STDERR "STATUS_ACCESS_DENIED" "hint: access denied: run elevated, or as a member of Performance Log Users")
etwctl_tool_test(pmc_add_no_privilege RC 0 SIM no-privilege ARGS pmc add L2Miss --intel 24:3F
                 STDOUT "added profile source 37 'L2Miss'")
etwctl_tool_test(pmc_add_older_windows RC 3 SIM older-windows ARGS pmc add L2Miss --intel 24:3F
                 STDERR "custom profile sources are not on this Windows" "STATUS_NOT_IMPLEMENTED" "Windows 10 1803 or later")
etwctl_tool_test(pmc_add_unknown_field RC 1 ARGS pmc add L2 --intel 24:3F,cmsk=2 STDERR "unknown field 'cmsk' (did you mean cmask?)")
etwctl_tool_test(pmc_add_bad_spec RC 1 ARGS pmc add L2 --intel 24 STDERR "give EVENT_SELECT:UNIT_MASK in hex (24:3F)")
etwctl_tool_test(pmc_add_event_select_range RC 1 ARGS pmc add L2 --intel 124:3F STDERR "EVENT_SELECT '124' is not a hex number of 8 bits")
etwctl_tool_test(pmc_add_amd_range RC 2 ARGS pmc add L2 --amd 1000:3F STDERR "rule custom_counter_field_range")
etwctl_tool_test(pmc_add_no_vendor RC 1 ARGS pmc add L2 STDERR "exactly one of --intel, --amd, --arm")
etwctl_tool_test(pmc_remove_by_name RC 0 SIM custom-pmc=MyL2 ARGS --trace pmc remove MyL2
                 STDOUT "removed profile source 37 'MyL2'"
                        "#2 NtSetSystemInformation(SystemPerformanceTraceInformation, 0x14 bytes) [sent: STATUS_SUCCESS]"
                        "0000 16 00 00 00 class 0x16 EventTraceProfileSourceRemoveInformation" "0004 25 00 00 00 ProfileSource 37 MyL2"
                        "0008 ff ff ff ff ff ff ff ff ff ff ff ff CpuInfoHierarchy")
etwctl_tool_test(pmc_remove_by_id_json RC 0 SIM custom-pmc=MyL2 ARGS --json pmc remove 37
                 STDOUT "{\"ok\":true,\"command\":\"pmc\",\"action\":\"remove\",\"id\":37,\"name\":\"MyL2\"}")
etwctl_tool_test(pmc_remove_dry_run RC 0 SIM custom-pmc=MyL2 ARGS --dry-run pmc remove MyL2
                 STDOUT "would remove profile source 37 'MyL2'" "[not sent (dry run)]")
etwctl_tool_test(pmc_remove_builtin RC 3 ARGS pmc remove TotalCycles
                 STDERR "cannot remove the profile source 19 'TotalCycles'" "STATUS_ACCESS_DENIED" "only custom counters")
etwctl_tool_test(pmc_remove_absent RC 2 ARGS pmc remove TotalCycle
                 STDERR "'TotalCycle' is not in this machine's list (did you mean TotalCycles?)" "rule profile_source_absent")
etwctl_tool_test(pmc_remove_older_windows RC 3 SIM older-windows ARGS pmc remove 19 STDERR "custom profile sources are not on this Windows")
etwctl_tool_test(newer_option_elsewhere RC 1 ARGS interval set 10 --clamp STDERR "option --clamp does not apply here")

# the tool enables SeSystemProfilePrivilege through the library (issue 21 item 19): held but disabled works
etwctl_tool_test(privilege_enabled_by_the_tool RC 0 SIM privilege-disabled ARGS interval set 8kHz
                 STDOUT "Timer (0): 10000 -> 1250 (125.0 us, 8000.0 Hz)")
etwctl_tool_test(privilege_not_held RC 3 SIM no-privilege ARGS interval set 8kHz
                 STDERR "STATUS_PRIVILEGE_NOT_HELD" "hint: needs SeSystemProfilePrivilege")

# ---- issue 21 items 9 and 16: long lists, names in any case, nothing sent before a refusal ----
# filler-sources=12: twelve custom sources with 126-character names push the list past 4 KiB.
etwctl_tool_test(sources_past_4k RC 0 SIM filler-sources=12,custom-pmc=MyL2 ARGS profile-sources STDOUT "49 MyL2")
etwctl_tool_test(pmc_remove_past_4k RC 0 SIM filler-sources=12,custom-pmc=MyL2 ARGS pmc remove MyL2
                 STDOUT "removed profile source 49 'MyL2'")
etwctl_tool_test(pmc_add_past_4k RC 0 SIM filler-sources=12 ARGS pmc add Big --intel 24:3F
                 STDOUT "added profile source 49 'Big'" "listed: 49 Big")
etwctl_tool_test(pmc_counters_past_4k RC 0 SIM filler-sources=12,custom-pmc=MyL2 ARGS pmc kernel --counters MyL2 --events CSwitch
                 STDOUT "PMC counters MyL2 (49) on CSwitch")
etwctl_tool_test(pmc_owners_many RC 0 SIM max-pmc=20 ARGS pmc owners STDOUT "counter 16: free" "counter 19: free")
# a name the list has in another case is taken: every lookup ignores case
etwctl_tool_test(pmc_add_other_case RC 2 ARGS pmc add totalcycles --intel 3C:00
                 STDERR "the profile-source list already has a source named 'totalcycles'" "rule custom_counter_description_taken")
# every counter is checked before --flags is sent
etwctl_tool_test(pmc_flags_bad_counter RC 2 ARGS --trace pmc kernel --flags DISPATCHER --counters BAD --events CSwitch
                 STDERR "counter 'BAD' is not in this machine's profile-source list" "nothing was sent" "rule profile_source_absent"
                 NOT_STDOUT "NtSetSystemInformation")
# with a group among the names, the flags still obey the duplicate and count rules
etwctl_tool_test(group_flag_twice RC 1 ARGS -on Base+PROC_THREAD+PROC_THREAD STDERR "name given twice 'PROC_THREAD'")
string(REPEAT "+LOADER" 1100 many_flags)
etwctl_tool_test(group_too_many_names RC 1 ARGS -on Base${many_flags} STDERR "1101 names" "at most 1024 names")
# the flag summary of --trace / --dry-run is the whole mask (723 characters here; it was cut at 511)
etwctl_tool_test(flags_summary_long RC 0 ARGS --dry-run flags kernel set
                 0x1FFFFFFF+0x3FFFFFFF+0x5FFFFFFF+0x7FFFFFFF+0x9FFFFFFF+0xBFFFFFFF+0xDFFFFFFF+0xFFFFFFFF
                 STDOUT "+0xBFFFFFFE+0xDFFFFFFF+0xFFFFFFFF\n")
# --json: argument bytes that are not UTF-8 are escaped; UTF-8 passes as it is (a Windows build's
# arguments arrive in the ANSI code page: host builds only)
if(NOT CMAKE_CROSSCOMPILING)
    string(ASCII 233 latin1_e_acute)
    string(ASCII 195 169 utf8_e_acute)
    etwctl_tool_test(json_not_utf8 RC 2 ARGS --json pmc remove caf${latin1_e_acute} STDOUT "\"source\":\"caf\\u00e9\"")
    etwctl_tool_test(json_utf8 RC 2 ARGS --json pmc remove caf${utf8_e_acute} STDOUT "\"source\":\"caf${utf8_e_acute}\"")
endif()
