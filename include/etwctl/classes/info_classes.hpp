// SPDX-License-Identifier: MIT
// etwctl/classes/info_classes.hpp - THE information-class table.
//
// One row per TRACE_INFO_CLASS value says everything etwctl does with the class, and the code reads it:
//   - which Windows release's SECHOST accepts it (the drop-in compat:: functions follow Windows 10 RTM),
//   - the session rule (forwarded to the kernel, or must be 0 for machine-global classes),
//   - for each direction (set, query): the buffer's shape (an array of N-byte elements with a count
//     limit and an empty-list policy, an exact struct, at least a struct, or the kernel's protocol),
//     the rule (and so the Win32 error) each size check breaks, and the kernel request it becomes
//     (request kind + EVENT_TRACE_INFORMATION_CLASS or NtTraceControl code).
// request/checks.hpp turns a row into SECHOST's buffer checks (compat) and count checks (typed);
// request/encode.hpp has one encoder per request kind; compat.hpp, typed/set.hpp and typed/query.hpp dispatch on
// the row; docs/reference.md and the tool's `list classes` print it. Adding a class: one row here, its
// tag (typed/tags.hpp), its encoder if the request kind is new, its tests (docs/architecture.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// TRACE_INFO_CLASS (= TRACE_QUERY_INFO_CLASS) values as in the current SDK.
enum class trace_info_class : std::uint32_t {
    guid_query_list = 0,
    guid_query_info = 1,
    guid_query_process = 2,
    stack_tracing = 3,
    system_trace_enable_flags = 4,
    sampled_profile_interval = 5,
    profile_source_config = 6,
    profile_source_list = 7,
    pmc_event_list = 8,
    pmc_counter_list = 9,
    set_disallow_list = 10,
    version = 11,
    group_query_list = 12,
    group_query_info = 13,
    disallow_list_query = 14,
    reserved15 = 15, ///< TraceInfoReserved15 (mingw: TraceCompressionInfo)
    periodic_capture_state_list = 16,
    periodic_capture_state = 17,
    provider_binary_tracking = 18,
    max_loggers_query = 19,
    lbr_configuration = 20,
    lbr_event_list = 21,
    max_pmc_counter_query = 22,
    stream_count = 23,
    stack_caching = 24,
    pmc_counter_owners = 25,
    unified_stack_caching = 26,
    pmc_session_information = 27,
    context_register = 28,
};

/// EVENT_INFO_CLASS values (SDK evntprov.h).
enum class event_info_class : std::uint32_t {
    provider_binary_track_info = 0,
    provider_set_reserved1 = 1,
    provider_set_traits = 2,
    provider_use_descriptor_type = 3,
};

/// What the session-handle argument must be for a class.
enum class session_rule : std::uint8_t {
    forwarded,    ///< passed to the kernel as the TraceHandle
    must_be_zero, ///< the class is machine-global: non-zero -> the row's session rule
    ignored,      ///< not used
};

/// The Windows release whose SECHOST first accepts a class. The drop-in functions accept exactly the
/// classes of `windows_10_rtm` (the documented behaviour; sources in docs/choices.md); later classes need the opt-in.
enum class windows_release : std::uint8_t {
    windows_10_rtm,   ///< Windows 10 RTM (10240)
    windows_10_later, ///< a later Windows 10 / 11 release (classes 16-28)
    never,            ///< not a TraceSetInformation / TraceQueryInformation class at all
};

/// The kernel request one direction of a class becomes. request/encode.hpp has one encoder per kind.
enum class request_kind : std::uint8_t {
    none,                ///< the direction does not exist: ERROR_NOT_SUPPORTED
    user_mode,           ///< answered without the kernel (TraceVersionInfo)
    hook_list,           ///< SystemPerformanceTraceInformation {class, pad, TraceHandle, ULONG HookId[n]}
    ulong_list,          ///< SystemPerformanceTraceInformation {class, pad, TraceHandle, ULONG Source[n]}
    group_mask,          ///< SystemPerformanceTraceInformation EVENT_TRACE_GROUPMASK_INFORMATION
    interval,            ///< EVENT_TRACE_TIME_PROFILE_INFORMATION (timer) or Nt{Set,Query}IntervalProfile
    profile_source_list, ///< SystemPerformanceTraceInformation class 0x0D into the caller's buffer
    disallow_list,       ///< NtTraceControl 0x1C (set: {logger id, count, GUIDs}) / 0x22 (query)
    // The classes later releases added (request/layouts.hpp has their layouts, request/encode.hpp their encoders).
    periodic_capture,  ///< NtTraceControl 0x25 {LoggerId; Frequency; USHORT Count; 0; GUID[n]}
    binary_tracking,   ///< NtTraceControl 0x29 {LoggerId; UCHAR Enable; 0}
    control_ulong,     ///< NtTraceControl with no input, a ULONG out
    stream_count,      ///< NtTraceControl 0x2C {USHORT LoggerId; 0}, a ULONG out
    lbr_configuration, ///< SystemPerformanceTraceInformation 0x13 {head; ULONG Options; 0}
    stack_caching,     ///< SystemPerformanceTraceInformation 0x10 / 0x1A {head; BOOLEAN; CacheSize; BucketCount}
    context_register,  ///< SystemPerformanceTraceInformation 0x1B {head; RegisterTypes; ULONG HookId[n]}
    pmc_owners,        ///< NtTraceControl 0x2D, the caller's ETW_PMC_COUNTER_OWNERSHIP_STATUS in and out
    pmc_sessions,      ///< NtTraceControl 0x2E with no input, a chain of ETW_PMC_SESSION_INFO out
    capture_limits,    ///< answered without the kernel: the kernel's periodic-capture limits (class 17)
};

/// Whether a request kind sends a kernel request (user_mode and capture_limits are answered in user mode).
constexpr bool sends_kernel_request(request_kind k) noexcept {
    return k != request_kind::none && k != request_kind::user_mode && k != request_kind::capture_limits;
}

/// How SECHOST checks the caller's buffer for one direction.
enum class buffer_shape : std::uint8_t {
    none,     ///< no buffer rules (direction absent)
    array,    ///< whole elements of element_size bytes, at most max_count (see empty_policy)
    exact,    ///< exactly element_size bytes
    at_least, ///< at least element_size bytes
    probe,    ///< any buffer, NULL included: the request's own protocol sizes it (a size probe)
    any,      ///< any buffer; NULL only with length 0
    headed,   ///< a header_size-byte head, then whole elements (at most max_count); the head's USHORT at
              ///< count_at (if any) must give their number; needs_null: NULL with length 0 is accepted
};

/// What an array direction says about an empty list.
enum class empty_policy : std::uint8_t {
    allowed,    ///< length 0 is fine, with any address
    needs_null, ///< length 0 only with a NULL address (else empty_rule)
    forbidden,  ///< at least one element and a non-NULL address (else empty_rule)
};

/// One direction (set or query) of a class: its buffer rules and its kernel request.
struct direction_rules {
    request_kind request = request_kind::none;
    std::uint32_t kernel_code = 0; ///< EVENT_TRACE_INFORMATION_CLASS, or the NtTraceControl code
    buffer_shape shape = buffer_shape::none;
    std::uint32_t element_size = 0; ///< array: one element; exact / at_least: the struct
    std::uint32_t max_count = 0;    ///< array: SECHOST's count limit
    rule size_rule = rule::ok;      ///< broken by a length that is not whole elements (or not the struct)
    rule too_many_rule = rule::ok;  ///< broken by more than max_count elements
    empty_policy empty = empty_policy::allowed;
    rule empty_rule = rule::ok;
    std::uint32_t header_size = 0; ///< headed: the bytes before the elements
    std::int32_t count_at = -1;    ///< headed: offset of the head's USHORT element count, or -1

    /// Whether the direction exists (a kernel request, or an answer in user mode).
    constexpr explicit operator bool() const noexcept { return request != request_kind::none; }
};

/// One row of the table.
struct trace_info_class_traits {
    trace_info_class id;
    detail::table_text sdk_name; ///< a std::string_view
    windows_release release;
    session_rule session;
    rule session_not_zero; ///< broken by a non-zero session for a must_be_zero class
    direction_rules set;   ///< TraceSetInformation
    direction_rules query; ///< TraceQueryInformation
    detail::table_text payload;
};

inline constexpr std::uint32_t no_kernel_code = 0xFFFFFFFFU;

/// The EtwTraceProcessingVersion SECHOST reports for TraceVersionInfo (Windows 10: 1), without the kernel.
inline constexpr std::uint32_t etw_trace_processing_version = 1;

namespace detail {
constexpr std::uint32_t etic(event_trace_information_class c) noexcept { return static_cast<std::uint32_t>(c); }
constexpr std::uint32_t u32(std::size_t v) noexcept { return static_cast<std::uint32_t>(v); }
inline constexpr std::uint32_t classic_event_id_bytes = 24; ///< sizeof(CLASSIC_EVENT_ID)

constexpr direction_rules none() noexcept { return {}; }
/// An array direction: whole `element`-byte elements, at most `max`.
constexpr direction_rules array(request_kind k, std::uint32_t code, std::uint32_t element, std::size_t max, rule size,
                                rule too_many, empty_policy empty, rule empty_rule) noexcept {
    return {k, code, buffer_shape::array, element, u32(max), size, too_many, empty, empty_rule};
}
constexpr direction_rules fixed(request_kind k, std::uint32_t code, buffer_shape shape, std::size_t size, rule broken) noexcept {
    return {k, code, shape, u32(size), 0, broken, broken, empty_policy::allowed, rule::ok};
}
constexpr direction_rules protocol(request_kind k, std::uint32_t code, buffer_shape shape) noexcept {
    return {k, code, shape, 0, 0, rule::ok, rule::ok, empty_policy::allowed, rule::ok};
}
/// A head of `header` bytes, then whole `element`-byte elements (classes 16 and 28).
constexpr direction_rules headed(request_kind k, std::uint32_t code, std::uint32_t header, std::int32_t count_at,
                                 std::uint32_t element, std::size_t max, rule size, rule too_many,
                                 empty_policy empty) noexcept {
    return {k, code, buffer_shape::headed, element, u32(max), size, too_many, empty, size, header, count_at};
}
/// A class no TraceSetInformation / TraceQueryInformation of the release accepts.
constexpr trace_info_class_traits absent(trace_info_class id, table_text name, windows_release release,
                                         table_text why) noexcept {
    return {id, name, release, session_rule::forwarded, rule::ok, none(), none(), why};
}
} // namespace detail

// clang-format off
inline constexpr trace_info_class_traits trace_info_class_table[] = {
    detail::absent(trace_info_class::guid_query_list, "TraceGuidQueryList", windows_release::never, "EnumerateTraceGuidsEx only"),
    detail::absent(trace_info_class::guid_query_info, "TraceGuidQueryInfo", windows_release::never, "EnumerateTraceGuidsEx only"),
    detail::absent(trace_info_class::guid_query_process, "TraceGuidQueryProcess", windows_release::never, "EnumerateTraceGuidsEx only"),
    {trace_info_class::stack_tracing, "TraceStackTracingInfo", windows_release::windows_10_rtm, session_rule::forwarded, rule::ok,
     detail::array(request_kind::hook_list, detail::etic(event_trace_information_class::stack_tracing), detail::classic_event_id_bytes,
                   limits::max_stack_tracing_events, rule::stack_tracing_size, rule::stack_tracing_size,
                   empty_policy::needs_null, rule::stack_tracing_empty_needs_null),
     detail::none(), "CLASSIC_EVENT_ID[0..256]"},
    {trace_info_class::system_trace_enable_flags, "TraceSystemTraceEnableFlagsInfo", windows_release::windows_10_rtm, session_rule::forwarded, rule::ok,
     detail::array(request_kind::group_mask, detail::etic(event_trace_information_class::group_mask), 4, limits::max_group_masks,
                   rule::enable_flags_set_size, rule::enable_flags_set_size, empty_policy::allowed, rule::ok),
     detail::fixed(request_kind::group_mask, detail::etic(event_trace_information_class::group_mask), buffer_shape::at_least,
                   4 * limits::max_group_masks, rule::enable_flags_query_length),
     "ULONG[0..8] (PERFINFO_GROUPMASK)"},
    {trace_info_class::sampled_profile_interval, "TraceSampledProfileIntervalInfo", windows_release::windows_10_rtm, session_rule::must_be_zero, rule::interval_session_not_zero,
     detail::fixed(request_kind::interval, detail::etic(event_trace_information_class::time_profile), buffer_shape::exact,
                   sizeof(trace_profile_interval), rule::interval_length),
     detail::fixed(request_kind::interval, detail::etic(event_trace_information_class::time_profile), buffer_shape::exact,
                   sizeof(trace_profile_interval), rule::interval_length),
     "TRACE_PROFILE_INTERVAL"},
    {trace_info_class::profile_source_config, "TraceProfileSourceConfigInfo", windows_release::windows_10_rtm, session_rule::forwarded, rule::ok,
     detail::array(request_kind::ulong_list, detail::etic(event_trace_information_class::profile_config), 4, limits::max_profile_sources,
                   rule::profile_config_size, rule::profile_config_size, empty_policy::forbidden, rule::profile_config_empty),
     detail::none(), "ULONG[1..4] (KPROFILE_SOURCE)"},
    {trace_info_class::profile_source_list, "TraceProfileSourceListInfo", windows_release::windows_10_rtm, session_rule::must_be_zero, rule::source_list_session_not_zero,
     detail::none(),
     detail::protocol(request_kind::profile_source_list, detail::etic(event_trace_information_class::profile_source_list), buffer_shape::probe),
     "PROFILE_SOURCE_INFO chain (out)"},
    {trace_info_class::pmc_event_list, "TracePmcEventListInfo", windows_release::windows_10_rtm, session_rule::forwarded, rule::ok,
     detail::array(request_kind::hook_list, detail::etic(event_trace_information_class::profile_event_list), detail::classic_event_id_bytes,
                   limits::max_pmc_events, rule::pmc_events_size, rule::pmc_events_size,
                   empty_policy::needs_null, rule::pmc_events_empty_needs_null),
     detail::none(), "CLASSIC_EVENT_ID[0..4]"},
    {trace_info_class::pmc_counter_list, "TracePmcCounterListInfo", windows_release::windows_10_rtm, session_rule::forwarded, rule::ok,
     detail::array(request_kind::ulong_list, detail::etic(event_trace_information_class::profile_counter_list), 4, limits::max_pmc_counters,
                   rule::pmc_counters_size, rule::pmc_counters_size, empty_policy::forbidden, rule::pmc_counters_empty),
     detail::none(), "ULONG[1..4] (KPROFILE_SOURCE)"},
    {trace_info_class::set_disallow_list, "TraceSetDisallowList", windows_release::windows_10_rtm, session_rule::forwarded, rule::ok,
     detail::array(request_kind::disallow_list, trace_control::update_disallow_list, 16, limits::max_disallow_list,
                   rule::disallow_list_size, rule::disallow_list_too_long, empty_policy::needs_null, rule::disallow_list_empty_needs_null),
     detail::none(), "GUID[0..256]"},
    {trace_info_class::version, "TraceVersionInfo", windows_release::windows_10_rtm, session_rule::must_be_zero, rule::version_session_not_zero,
     detail::none(),
     detail::fixed(request_kind::user_mode, no_kernel_code, buffer_shape::exact, sizeof(trace_version_info), rule::version_length),
     "TRACE_VERSION_INFO (out)"},
    detail::absent(trace_info_class::group_query_list, "TraceGroupQueryList", windows_release::never, "EnumerateTraceGuidsEx only"),
    detail::absent(trace_info_class::group_query_info, "TraceGroupQueryInfo", windows_release::never, "EnumerateTraceGuidsEx only"),
    {trace_info_class::disallow_list_query, "TraceDisallowListQuery", windows_release::windows_10_rtm, session_rule::forwarded, rule::ok,
     detail::none(),
     detail::protocol(request_kind::disallow_list, trace_control::get_disallow_list, buffer_shape::any),
     "GUID[] (out)"},
    detail::absent(trace_info_class::reserved15, "TraceInfoReserved15", windows_release::never, "reserved (mingw: TraceCompressionInfo)"),
    // Classes 16-28: later releases. SECHOST's own checks for them are not documented: the buffer rules
    // below are etwctl's inference (the documented classes' pattern: exact structs -> ERROR_BAD_LENGTH,
    // lists -> whole elements and a count limit, machine-global -> session 0; docs/choices.md). Only
    // compat::current and the typed API use these rows; compat:: (Windows 10 RTM) refuses them.
    {trace_info_class::periodic_capture_state_list, "TracePeriodicCaptureStateListInfo", windows_release::windows_10_later, session_rule::forwarded, rule::ok,
     detail::headed(request_kind::periodic_capture, trace_control::periodic_capture_state, 8, 4, 16,
                    limits::max_periodic_capture_providers, rule::current_class_array_size, rule::periodic_capture_too_many,
                    empty_policy::needs_null),
     detail::none(), "TRACE_PERIODIC_CAPTURE_STATE_INFO + GUID[0..16]; NULL clears"},
    // 17: no NtTraceControl code or kernel class queries periodic capture state (phnt's ETWTRACECONTROLCODE,
    // the kernel's NtTraceControl listings): answered in user mode with the limits the kernel's handler
    // enforces (docs/choices.md: the values are K, that SECHOST answers them so is I).
    {trace_info_class::periodic_capture_state, "TracePeriodicCaptureStateInfo", windows_release::windows_10_later, session_rule::ignored, rule::ok,
     detail::none(),
     detail::fixed(request_kind::capture_limits, no_kernel_code, buffer_shape::at_least, 8, rule::current_class_length),
     "TRACE_PERIODIC_CAPTURE_STATE_INFO (out): minimum frequency 5 s, at most 16 providers"},
    {trace_info_class::provider_binary_tracking, "TraceProviderBinaryTracking", windows_release::windows_10_later, session_rule::forwarded, rule::ok,
     detail::fixed(request_kind::binary_tracking, trace_control::provider_binary_tracking, buffer_shape::exact, 1, rule::current_class_length),
     detail::none(), "BOOLEAN"},
    {trace_info_class::max_loggers_query, "TraceMaxLoggersQuery", windows_release::windows_10_later, session_rule::ignored, rule::ok,
     detail::none(),
     detail::fixed(request_kind::control_ulong, trace_control::max_loggers, buffer_shape::at_least, 4, rule::current_class_length),
     "ULONG (out)"},
    {trace_info_class::lbr_configuration, "TraceLbrConfigurationInfo", windows_release::windows_10_later, session_rule::forwarded, rule::ok,
     detail::fixed(request_kind::lbr_configuration, detail::etic(event_trace_information_class::last_branch_configuration),
                   buffer_shape::exact, 4, rule::current_class_length),
     detail::none(), "ULONG (TRACE_LBR_CONFIGURATION)"},
    {trace_info_class::lbr_event_list, "TraceLbrEventListInfo", windows_release::windows_10_later, session_rule::forwarded, rule::ok,
     detail::array(request_kind::ulong_list, detail::etic(event_trace_information_class::last_branch_event_list), 4,
                   limits::max_lbr_events, rule::current_class_array_size, rule::lbr_events_too_many,
                   empty_policy::allowed, rule::ok),
     detail::none(), "ULONG hook id[0..4]"},
    {trace_info_class::max_pmc_counter_query, "TraceMaxPmcCounterQuery", windows_release::windows_10_later, session_rule::ignored, rule::ok,
     detail::none(),
     detail::fixed(request_kind::control_ulong, trace_control::max_pmc_counters, buffer_shape::at_least, 4, rule::current_class_length),
     "ULONG (out)"},
    {trace_info_class::stream_count, "TraceStreamCount", windows_release::windows_10_later, session_rule::forwarded, rule::ok,
     detail::none(),
     detail::fixed(request_kind::stream_count, trace_control::stream_count, buffer_shape::at_least, 4, rule::current_class_length),
     "ULONG (out)"},
    {trace_info_class::stack_caching, "TraceStackCachingInfo", windows_release::windows_10_later, session_rule::forwarded, rule::ok,
     detail::fixed(request_kind::stack_caching, detail::etic(event_trace_information_class::stack_caching), buffer_shape::exact,
                   12, rule::current_class_length),
     detail::none(), "TRACE_STACK_CACHING_INFO"},
    {trace_info_class::pmc_counter_owners, "TracePmcCounterOwners", windows_release::windows_10_later, session_rule::must_be_zero, rule::current_class_session_not_zero,
     detail::none(),
     detail::fixed(request_kind::pmc_owners, trace_control::pmc_counter_owners, buffer_shape::at_least, 8, rule::current_class_length),
     "ETW_PMC_COUNTER_OWNERSHIP_STATUS (in, out)"},
    {trace_info_class::unified_stack_caching, "TraceUnifiedStackCachingInfo", windows_release::windows_10_later, session_rule::forwarded, rule::ok,
     detail::fixed(request_kind::stack_caching, detail::etic(event_trace_information_class::unified_stack_caching),
                   buffer_shape::exact, 12, rule::current_class_length),
     detail::none(), "TRACE_STACK_CACHING_INFO"},
    {trace_info_class::pmc_session_information, "TracePmcSessionInformation", windows_release::windows_10_later, session_rule::must_be_zero, rule::current_class_session_not_zero,
     detail::none(),
     detail::protocol(request_kind::pmc_sessions, trace_control::pmc_session_information, buffer_shape::any),
     "ETW_PMC_SESSION_INFO chain (out)"},
    {trace_info_class::context_register, "TraceContextRegisterInfo", windows_release::windows_10_later, session_rule::forwarded, rule::ok,
     detail::headed(request_kind::context_register, detail::etic(event_trace_information_class::context_register), 8, -1,
                    detail::classic_event_id_bytes, limits::max_context_register_events, rule::current_class_array_size,
                    rule::context_register_too_many, empty_policy::allowed),
     detail::none(), "TRACE_CONTEXT_REGISTER_INFO + CLASSIC_EVENT_ID[0..8]"},
};
// clang-format on

inline constexpr std::size_t trace_info_class_count = sizeof(trace_info_class_table) / sizeof(trace_info_class_table[0]);

template <class = void> // a template: clang would otherwise evaluate the whole check in every TU (its test of a parameterless constexpr function)
constexpr bool trace_info_class_table_in_order() noexcept {
    for (std::size_t i = 0; i < trace_info_class_count; ++i)
        if (static_cast<std::size_t>(trace_info_class_table[i].id) != i) return false;
    return true;
}
static_assert(trace_info_class_table_in_order(), "etwctl: trace_info_class_table rows must be in value order");

/// The row for a class value, or nullptr for values past the table.
constexpr trace_info_class_traits const* find_traits(std::uint32_t information_class) noexcept {
    return information_class < trace_info_class_count ? &trace_info_class_table[information_class] : nullptr;
}
constexpr trace_info_class_traits const& traits_of(trace_info_class c) noexcept {
    return trace_info_class_table[static_cast<std::size_t>(c)];
}
/// The most elements any class's set direction sends with a request kind: the stack buffer the drop-in
/// functions build that request in.
constexpr std::size_t max_set_elements(request_kind k) noexcept {
    std::size_t n = 1;
    for (auto const& t : trace_info_class_table)
        if (t.set.request == k && t.set.max_count > n) n = t.set.max_count;
    return n;
}

/// Whether a release's TraceSetInformation / TraceQueryInformation accepts the class (default: the
/// Windows 10 RTM SECHOST the drop-in functions follow).
constexpr bool accepted_by(trace_info_class_traits const& t, windows_release release) noexcept {
    return t.release != windows_release::never && t.release <= release;
}
constexpr bool set_supported(std::uint32_t c, windows_release release = windows_release::windows_10_rtm) noexcept {
    auto const* t = find_traits(c);
    return t && accepted_by(*t, release) && static_cast<bool>(t->set);
}
constexpr bool query_supported(std::uint32_t c, windows_release release = windows_release::windows_10_rtm) noexcept {
    auto const* t = find_traits(c);
    return t && accepted_by(*t, release) && static_cast<bool>(t->query);
}

ETWCTL_END_NAMESPACE
