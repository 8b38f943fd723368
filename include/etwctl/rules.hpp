// SPDX-License-Identifier: MIT
// etwctl/rules.hpp - every rule the library checks, in one table.
//
// A rule is one check on a caller's input (or on a kernel reply). Each has the exact Win32 error
// Windows returns when it breaks (the compat layer returns that number) and a sentence naming it
// (the typed layer returns it as a std::error_code in etwctl::rule_category(), whose message is that
// sentence and which compares equal to the Win32 error condition). One enumerator per rule; the
// checks in request/checks.hpp return these, so compat and typed share one implementation of each rule.
// docs/errors.md lists the same table and a test keeps the two in step.
#pragma once

#include <cstdint>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/status_codes.hpp"

ETWCTL_BEGIN_NAMESPACE

enum class rule : std::uint16_t {
    ok = 0,
    // TraceSetInformation / TraceQueryInformation (SECHOST of Windows 10; sources in docs/choices.md)
    set_class_not_supported,
    query_class_not_supported,
    stack_tracing_size,
    stack_tracing_empty_needs_null,
    enable_flags_set_size,
    enable_flags_query_length,
    interval_session_not_zero,
    interval_length,
    profile_config_size,
    profile_config_empty,
    pmc_events_size,
    pmc_events_empty_needs_null,
    pmc_counters_size,
    pmc_counters_empty,
    disallow_list_size,
    disallow_list_too_long,
    disallow_list_empty_needs_null,
    source_list_session_not_zero,
    source_list_buffer_too_small,
    version_session_not_zero,
    version_length,
    null_buffer_with_length,
    kernel_reply_malformed,
    // EventSetInformation / TraceLoggingSetInformation (SDK traceloggingprovider.h and evntprov.h EVENT_INFO_CLASS,
    // https://learn.microsoft.com/en-us/windows/win32/api/evntprov/nf-evntprov-eventsetinformation)
    event_info_class_not_supported,
    binary_tracking_length,
    traits_length,
    traits_malformed,
    descriptor_type_length,
    descriptor_type_value,
    event_set_information_unavailable,
    // EtwGetTraceEnableFlags (Geoff Chappell's gettraceenableflags.htm; docs/choices.md)
    enable_context_zero_handle,
    enable_context_bad_logger_id,
    // limits the typed layer checks before the call (PROFILE_SOURCE_INFO MinInterval/MaxInterval of
    // TraceProfileSourceListInfo, SDK evntrace.h)
    interval_out_of_bounds,
    profile_source_absent,
    pmc_counter_not_pmc,
    pmc_event_group_not_enabled,
    stack_walk_overflow,
    parse_unknown_name,
    parse_duplicate_name,
    parse_empty_name,
    parse_too_many_names,
    parse_input_too_long,
    parse_name_without_value,
    // custom hardware counters (profiler/custom_counters.hpp; phnt ntexapi.h EVENT_TRACE_PROFILE_ADD_INFORMATION)
    custom_counter_field_range,
    custom_counter_description,
    custom_counter_description_taken,
    custom_counter_not_listed,
    // the classes of later Windows releases (typed/set.hpp, typed/query.hpp, compat_current.hpp; SDK evntrace.h limits)
    lbr_events_too_many,
    context_register_too_many,
    periodic_capture_too_many,
    current_class_length,
    current_class_array_size,
    current_class_session_not_zero,
    stack_cache_out_of_bounds,
    class_not_on_this_windows,
    // ETW sessions: StartTrace / ControlTrace / QueryAllTraces / EnableTraceEx2 (session/checks.hpp)
    session_argument_null,
    session_properties_too_small,
    session_v2_too_small,
    session_name_invalid,
    session_name_offset,
    session_name_no_room,
    session_kernel_logger_guid,
    session_v2_filters_mismatch,
    session_enable_flags_extension,
    session_log_file_mode_conflict,
    session_mode_not_allowed,
    session_mode_needs_private,
    session_mode_needs_maximum_file_size,
    session_mode_needs_log_file,
    session_mode_excludes_log_file,
    session_mode_system_logger,
    session_mode_needs_buffering,
    session_newfile_needs_percent_d,
    session_no_destination,
    session_wnode_flags,
    session_no_target,
    session_query_all_count,
    session_handle_zero,
    session_update_append_file,
    session_enable_code,
    session_enable_parameters,
    session_enable_filter,
    // the typed session API (session/*.hpp): etwctl's own checks above Windows' (docs/choices.md)
    provider_name_not_hashable,
    session_text_not_utf8,
    session_log_file_name_too_long,
    session_buffer_size_out_of_range,
    session_enable_flags_need_system_logger,
    session_orphan_prefix_invalid,
    // issue 21 (rows added at the end)
    periodic_capture_frequency,
    event_guid_not_kernel_group,
    stack_walk_group_not_enabled,
    count_ // keep last
};

struct rule_info {
    rule id;
    std::uint32_t win32_error;
    detail::table_text name; ///< a std::string_view (detail::table_text: its length is the literal's)
    detail::table_text text;
};

/// The table. Order equals the enumerators' order (checked by a static_assert below).
inline constexpr rule_info rule_table[] = {
    {rule::ok, win32::success, "ok", "success"},
    {rule::set_class_not_supported, win32::not_supported, "set_class_not_supported",
     "TraceSetInformation: information class not supported (only 3, 4, 5, 6, 8, 9 and 0xA are)"},
    {rule::query_class_not_supported, win32::not_supported, "query_class_not_supported",
     "TraceQueryInformation: information class not supported (only 4, 5, 7, 0xB and 0xE are)"},
    {rule::stack_tracing_size, win32::incorrect_size, "stack_tracing_size",
     "TraceStackTracingInfo: length is not a whole number of 24-byte CLASSIC_EVENT_IDs or holds more than 256"},
    {rule::stack_tracing_empty_needs_null, win32::invalid_parameter, "stack_tracing_empty_needs_null",
     "TraceStackTracingInfo: an empty list must be passed with a NULL address"},
    {rule::enable_flags_set_size, win32::invalid_parameter, "enable_flags_set_size",
     "TraceSystemTraceEnableFlagsInfo (set): length is not a whole number of 32-bit masks or exceeds 8 masks (32 bytes)"},
    {rule::enable_flags_query_length, win32::bad_length, "enable_flags_query_length",
     "TraceSystemTraceEnableFlagsInfo (query): buffer is smaller than PERFINFO_GROUPMASK (32 bytes)"},
    {rule::interval_session_not_zero, win32::invalid_parameter, "interval_session_not_zero",
     "TraceSampledProfileIntervalInfo: the interval is machine-global; the session handle must be 0"},
    {rule::interval_length, win32::bad_length, "interval_length",
     "TraceSampledProfileIntervalInfo: length must be exactly sizeof(TRACE_PROFILE_INTERVAL) (8)"},
    {rule::profile_config_size, win32::incorrect_size, "profile_config_size",
     "TraceProfileSourceConfigInfo: length is not a whole number of 32-bit sources or holds more than 4"},
    {rule::profile_config_empty, win32::invalid_parameter, "profile_config_empty",
     "TraceProfileSourceConfigInfo: at least one profile source is required (non-NULL, non-empty)"},
    {rule::pmc_events_size, win32::incorrect_size, "pmc_events_size",
     "TracePmcEventListInfo: length is not a whole number of 24-byte CLASSIC_EVENT_IDs or holds more than 4"},
    {rule::pmc_events_empty_needs_null, win32::invalid_parameter, "pmc_events_empty_needs_null",
     "TracePmcEventListInfo: an empty list must be passed with a NULL address"},
    {rule::pmc_counters_size, win32::incorrect_size, "pmc_counters_size",
     "TracePmcCounterListInfo: length is not a whole number of 32-bit sources or holds more than 4"},
    {rule::pmc_counters_empty, win32::invalid_parameter, "pmc_counters_empty",
     "TracePmcCounterListInfo: at least one counter is required (non-NULL, non-empty)"},
    {rule::disallow_list_size, win32::incorrect_size, "disallow_list_size",
     "TraceSetDisallowList: length is not a whole number of 16-byte GUIDs"},
    {rule::disallow_list_too_long, win32::incorrect_size, "disallow_list_too_long",
     "TraceSetDisallowList: more than 256 GUIDs (etwctl builds the kernel request without heap)"},
    {rule::disallow_list_empty_needs_null, win32::invalid_parameter, "disallow_list_empty_needs_null",
     "TraceSetDisallowList: an empty list must be passed with a NULL address"},
    {rule::source_list_session_not_zero, win32::invalid_parameter, "source_list_session_not_zero",
     "TraceProfileSourceListInfo: the list is machine-global; the session handle must be 0"},
    {rule::source_list_buffer_too_small, win32::bad_length, "source_list_buffer_too_small",
     "TraceProfileSourceListInfo: buffer too small (or NULL); ReturnLength tells the size that suffices"},
    {rule::version_session_not_zero, win32::invalid_parameter, "version_session_not_zero",
     "TraceVersionInfo: the version is machine-global; the session handle must be 0"},
    {rule::version_length, win32::bad_length, "version_length",
     "TraceVersionInfo: length must be exactly sizeof(TRACE_VERSION_INFO) (8)"},
    {rule::null_buffer_with_length, win32::invalid_parameter, "null_buffer_with_length",
     "NULL buffer with a non-zero length"},
    {rule::kernel_reply_malformed, win32::invalid_data, "kernel_reply_malformed",
     "the kernel's reply is malformed (length or record chain out of bounds); nothing was copied past the buffer"},
    {rule::event_info_class_not_supported, win32::not_supported, "event_info_class_not_supported",
     "EventSetInformation: information class not supported (only 0, 2 and 3 are)"},
    {rule::binary_tracking_length, win32::invalid_parameter, "binary_tracking_length",
     "EventProviderBinaryTrackInfo: length must be 0"},
    {rule::traits_length, win32::invalid_parameter, "traits_length",
     "EventProviderSetTraits: the traits blob must be non-NULL and 3..65535 bytes long"},
    {rule::traits_malformed, win32::file_corrupt, "traits_malformed",
     "EventProviderSetTraits: malformed traits (size field != length, provider name without NUL, or trait sizes that do not add up)"},
    {rule::descriptor_type_length, win32::invalid_parameter, "descriptor_type_length",
     "EventProviderUseDescriptorType: the value must be one non-NULL BOOLEAN byte"},
    {rule::descriptor_type_value, win32::invalid_parameter, "descriptor_type_value",
     "EventProviderUseDescriptorType: the BOOLEAN must be 0 or 1"},
    {rule::event_set_information_unavailable, win32::not_supported, "event_set_information_unavailable",
     "TraceLoggingSetInformation: EventSetInformation is unavailable (policy 'disabled', or not found at run time)"},
    {rule::enable_context_zero_handle, win32::invalid_handle, "enable_context_zero_handle",
     "EtwGetTraceEnableFlags: a TRACEHANDLE of 0 is not an enable context"},
    {rule::enable_context_bad_logger_id, win32::invalid_handle, "enable_context_bad_logger_id",
     "EtwGetTraceEnableFlags: logger id must be < 64 (MAXLOGGERS) or 0xFFFF (NT Kernel Logger)"},
    {rule::interval_out_of_bounds, win32::invalid_parameter, "interval_out_of_bounds",
     "profile interval outside the source's [MinInterval, MaxInterval] from the profile-source list"},
    {rule::profile_source_absent, win32::not_supported, "profile_source_absent",
     "profile source not in this machine's profile-source list"},
    {rule::pmc_counter_not_pmc, win32::invalid_parameter, "pmc_counter_not_pmc",
     "the timer (ProfileTime) is not a hardware counter; PMC counters must be other profile sources"},
    {rule::pmc_event_group_not_enabled, win32::invalid_parameter, "pmc_event_group_not_enabled",
     "a PMC event's kernel group is not enabled in the session's group mask, so it would never carry counters"},
    {rule::stack_walk_overflow, win32::incorrect_size, "stack_walk_overflow",
     "stack_walk_set is full: the events do not fit its capacity (at most 256, the kernel's limit)"},
    {rule::parse_unknown_name, win32::invalid_parameter, "parse_unknown_name", "unknown name"},
    {rule::parse_duplicate_name, win32::invalid_parameter, "parse_duplicate_name", "name given twice"},
    {rule::parse_empty_name, win32::invalid_parameter, "parse_empty_name", "empty name (stray '+')"},
    {rule::parse_too_many_names, win32::incorrect_size, "parse_too_many_names", "more names than the list can hold"},
    {rule::parse_input_too_long, win32::incorrect_size, "parse_input_too_long",
     "name list longer than the 64 KiB etwctl parses (limits::max_parse_length)"},
    {rule::parse_name_without_value, win32::invalid_parameter, "parse_name_without_value",
     "a known name (xperf or WPR publishes it) whose value no public source gives; etwctl does not guess it"},
    {rule::custom_counter_field_range, win32::invalid_parameter, "custom_counter_field_range",
     "custom hardware counter: a field is wider than the hardware's (AMD EventSelect is 12 bits, HostGuest 2 bits)"},
    {rule::custom_counter_description, win32::invalid_parameter, "custom_counter_description",
     "custom hardware counter: the description must be 1..126 ASCII characters (it names the new profile source)"},
    {rule::custom_counter_description_taken, win32::already_exists, "custom_counter_description_taken",
     "custom hardware counter: the profile-source list already has a source with this description (its id would be ambiguous)"},
    {rule::custom_counter_not_listed, win32::invalid_data, "custom_counter_not_listed",
     "custom hardware counter: the kernel accepted the source but the profile-source list does not show its description"},
    {rule::lbr_events_too_many, win32::implementation_limit, "lbr_events_too_many",
     "TraceLbrEventListInfo: more than 4 events (TRACE_LBR_MAXIMUM_EVENTS)"},
    {rule::context_register_too_many, win32::incorrect_size, "context_register_too_many",
     "TraceContextRegisterInfo: more than 8 events (ETW_MAX_CONTEXT_REGISTER_EVENTS)"},
    {rule::periodic_capture_too_many, win32::incorrect_size, "periodic_capture_too_many",
     "TracePeriodicCaptureStateListInfo: more than 16 providers"},
    {rule::current_class_length, win32::bad_length, "current_class_length",
     "classes 16-28 (compat::current, etwctl's inferred SECHOST check): length is not the class's structure size"},
    {rule::current_class_array_size, win32::incorrect_size, "current_class_array_size",
     "classes 16-28 (compat::current, inferred): length is not the head plus whole elements"},
    {rule::current_class_session_not_zero, win32::invalid_parameter, "current_class_session_not_zero",
     "TracePmcCounterOwners / TracePmcSessionInformation (compat::current): machine-global; the session handle must be 0"},
    {rule::stack_cache_out_of_bounds, win32::invalid_parameter, "stack_cache_out_of_bounds",
     "stack cache size or bucket count outside the kernel's clamps (3 to 50 MiB, 256 to 4096 buckets)"},
    {rule::class_not_on_this_windows, win32::invalid_function, "class_not_on_this_windows",
     "this Windows does not have the information class: the kernel lacks its request (STATUS_NOT_IMPLEMENTED or "
     "STATUS_INVALID_DEVICE_REQUEST); a later Windows release added it"},
    {rule::session_argument_null, win32::invalid_parameter, "session_argument_null",
     "StartTrace / ControlTrace / QueryAllTraces / EnableTraceEx2: a required pointer is NULL (Properties, SessionHandle, PropertyArray or one of its entries, SessionCount, ProviderId)"},
    {rule::session_properties_too_small, win32::bad_length, "session_properties_too_small",
     "EVENT_TRACE_PROPERTIES: Wnode.BufferSize is smaller than the structure (0x78 bytes)"},
    {rule::session_v2_too_small, win32::bad_length, "session_v2_too_small",
     "EVENT_TRACE_PROPERTIES_V2: WNODE_FLAG_VERSIONED_PROPERTIES is set but Wnode.BufferSize is smaller than the V2 structure"},
    {rule::session_name_invalid, win32::invalid_name, "session_name_invalid",
     "StartTrace: the session name is NULL, empty or longer than 1024 characters"},
    {rule::session_name_offset, win32::invalid_parameter, "session_name_offset",
     "EVENT_TRACE_PROPERTIES: LoggerNameOffset or LogFileNameOffset is neither 0 nor inside [0x78, Wnode.BufferSize)"},
    {rule::session_name_no_room, win32::bad_length, "session_name_no_room",
     "EVENT_TRACE_PROPERTIES: no room in Wnode.BufferSize for the session name at LoggerNameOffset, or the log-file name has no NUL inside the block, or the two overlap"},
    {rule::session_kernel_logger_guid, win32::invalid_parameter, "session_kernel_logger_guid",
     "Wnode.Guid is SystemTraceControlGuid but the session name is not \"NT Kernel Logger\""},
    {rule::session_v2_filters_mismatch, win32::invalid_parameter, "session_v2_filters_mismatch",
     "EVENT_TRACE_PROPERTIES_V2: FilterDescCount and FilterDesc must both be zero or both be set"},
    {rule::session_enable_flags_extension, win32::invalid_parameter, "session_enable_flags_extension",
     "EnableFlags has EVENT_TRACE_FLAG_EXTENSION but the extension (offset, length) does not lie inside the block after the structure"},
    {rule::session_log_file_mode_conflict, win32::invalid_parameter, "session_log_file_mode_conflict",
     "LogFileMode combines two modes that exclude each other (e.g. SEQUENTIAL with CIRCULAR, APPEND with REAL_TIME)"},
    {rule::session_mode_not_allowed, win32::invalid_parameter, "session_mode_not_allowed",
     "LogFileMode: EVENT_TRACE_NONSTOPPABLE_MODE is for AutoLoggers; StartTrace refuses it"},
    {rule::session_mode_needs_private, win32::invalid_parameter, "session_mode_needs_private",
     "LogFileMode: EVENT_TRACE_RELOG_MODE and EVENT_TRACE_PRIVATE_IN_PROC need EVENT_TRACE_PRIVATE_LOGGER_MODE"},
    {rule::session_mode_needs_maximum_file_size, win32::invalid_parameter, "session_mode_needs_maximum_file_size",
     "LogFileMode: CIRCULAR, NEWFILE, PREALLOCATE and USE_KBYTES_FOR_SIZE need a MaximumFileSize"},
    {rule::session_mode_needs_log_file, win32::invalid_parameter, "session_mode_needs_log_file",
     "LogFileMode: NEWFILE, PREALLOCATE and USE_KBYTES_FOR_SIZE need a log-file name"},
    {rule::session_mode_excludes_log_file, win32::invalid_parameter, "session_mode_excludes_log_file",
     "LogFileMode: EVENT_TRACE_BUFFERING_MODE keeps events in memory and takes no log-file name"},
    {rule::session_mode_system_logger, win32::invalid_parameter, "session_mode_system_logger",
     "LogFileMode: a system logger (SYSTEM_LOGGER_MODE, the NT Kernel Logger, the CKCL) takes neither NEWFILE nor USE_PAGED_MEMORY"},
    {rule::session_mode_needs_buffering, win32::invalid_parameter, "session_mode_needs_buffering",
     "LogFileMode: EVENT_TRACE_COMPRESSED_MODE needs EVENT_TRACE_BUFFERING_MODE"},
    {rule::session_newfile_needs_percent_d, win32::invalid_name, "session_newfile_needs_percent_d",
     "LogFileMode NEWFILE: the log-file name must contain exactly one '%' followed by 'd'"},
    {rule::session_no_destination, win32::bad_pathname, "session_no_destination",
     "StartTrace: no destination: neither REAL_TIME nor BUFFERING mode and no log-file name"},
    {rule::session_wnode_flags, win32::invalid_parameter, "session_wnode_flags",
     "StartTrace: Wnode.Flags must contain WNODE_FLAG_TRACED_GUID"},
    {rule::session_no_target, win32::invalid_parameter, "session_no_target",
     "ControlTrace: neither a session name nor a session handle"},
    {rule::session_query_all_count, win32::invalid_parameter, "session_query_all_count",
     "QueryAllTraces: PropertyArrayCount is 0 or above 256 (the most sessions any Windows allows)"},
    {rule::session_handle_zero, win32::invalid_parameter, "session_handle_zero",
     "EnableTraceEx2: the session handle is 0"},
    {rule::session_update_append_file, win32::invalid_parameter, "session_update_append_file",
     "ControlTrace UPDATE: a session in APPEND mode cannot switch to a new log file"},
    {rule::session_enable_code, win32::invalid_parameter, "session_enable_code",
     "EnableTraceEx2: ControlCode must be 0 (disable), 1 (enable) or 2 (capture state)"},
    {rule::session_enable_parameters, win32::invalid_parameter, "session_enable_parameters",
     "EnableTraceEx2: ENABLE_TRACE_PARAMETERS Version is not 1 or 2, FilterDescCount without EnableFilterDesc, more than 13 filters, or a filter type twice"},
    {rule::session_enable_filter, win32::invalid_parameter, "session_enable_filter",
     "EnableTraceEx2: a filter has no data or exceeds its documented limit (8 PIDs, 64 event ids, 1024 or 4096 bytes)"},
    {rule::provider_name_not_hashable, win32::invalid_parameter, "provider_name_not_hashable",
     "provider name hash: the name must be 1 or more ASCII characters without NUL (etwctl upper-cases ASCII only)"},
    {rule::session_text_not_utf8, win32::invalid_parameter, "session_text_not_utf8",
     "session name or path given as char text is not valid UTF-8 (etwctl sends names as UTF-16)"},
    {rule::session_log_file_name_too_long, win32::invalid_parameter, "session_log_file_name_too_long",
     "EVENT_TRACE_PROPERTIES: the log-file name is longer than 1024 characters"},
    {rule::session_buffer_size_out_of_range, win32::invalid_parameter, "session_buffer_size_out_of_range",
     "EVENT_TRACE_PROPERTIES.BufferSize outside the documented 4 to 16384 KB (etwctl refuses what Windows would change)"},
    {rule::session_enable_flags_need_system_logger, win32::invalid_parameter, "session_enable_flags_need_system_logger",
     "EnableFlags on a session that is not a system logger, where Windows ignores them"},
    {rule::session_orphan_prefix_invalid, win32::invalid_parameter, "session_orphan_prefix_invalid",
     "etwctl's session names: the prefix must be 1 to 64 ASCII letters, digits, '_' or '.'"},
    {rule::periodic_capture_frequency, win32::invalid_parameter, "periodic_capture_frequency",
     "TracePeriodicCaptureStateListInfo: providers need a capture frequency of at least 5 s (the kernel refuses 1-4 s, "
     "providers without a frequency and a frequency without providers)"},
    {rule::event_guid_not_kernel_group, win32::invalid_parameter, "event_guid_not_kernel_group",
     "a CLASSIC_EVENT_ID's EventGuid is not a kernel group's: SECHOST would drop the event silently (a list of only "
     "such events would be sent empty, switching the list off); the typed API refuses it"},
    {rule::stack_walk_group_not_enabled, win32::invalid_parameter, "stack_walk_group_not_enabled",
     "a stack-walk event's group is not enabled in the session's group mask, so the event (and its stack) is never "
     "recorded"},
};

static_assert(sizeof(rule_table) / sizeof(rule_table[0]) == static_cast<std::size_t>(rule::count_),
              "etwctl: rule_table must have one row per rule");

template <class = void> // a template: clang would otherwise evaluate the whole check in every TU (its test of a parameterless constexpr function)
constexpr bool rule_table_in_order() noexcept {
    for (std::size_t i = 0; i < sizeof(rule_table) / sizeof(rule_table[0]); ++i)
        if (static_cast<std::size_t>(rule_table[i].id) != i) return false;
    return true;
}
static_assert(rule_table_in_order(), "etwctl: rule_table rows must follow the enumerators' order");

/// The row of a value that names no rule (an error_code of rule_category() built from an arbitrary int):
/// Win32 ERROR_MR_MID_NOT_FOUND, as to_win32 answers for a code of an unknown category.
inline constexpr rule_info unknown_rule_info{rule::count_, win32::mr_mid_not_found, "unknown_rule",
                                             "not an etwctl rule (the error code's value is outside the rule table)"};

/// The rule's row; a value outside the table (a rule_category() code made from any int) gets
/// unknown_rule_info instead of a read past the table.
constexpr rule_info const& info(rule r) noexcept {
    auto const i = static_cast<std::size_t>(r);
    return i < sizeof(rule_table) / sizeof(rule_table[0]) ? rule_table[i] : unknown_rule_info;
}
constexpr std::uint32_t win32_error_of(rule r) noexcept { return info(r).win32_error; }

ETWCTL_END_NAMESPACE
