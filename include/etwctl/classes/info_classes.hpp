// etwctl/classes/info_classes.hpp - THE information-class table.
//
// TRACE_INFO_CLASS (TraceSetInformation / TraceQueryInformation) and EVENT_INFO_CLASS
// (EventSetInformation) values, and for each class what etwctl does with it: direction, whether the
// session handle must be 0, the payload, element size and count limit, and the kernel request it
// becomes. The compat layer's "supported?" decisions, the typed layer's tags and docs/ all read this
// table; nothing else spells these numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/kernel/concept.hpp"
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
    forwarded,  ///< passed to the kernel as the TraceHandle
    must_be_zero, ///< the class is machine-global: non-zero -> ERROR_INVALID_PARAMETER
    ignored,    ///< not used (version class)
};

/// The kernel path a class takes.
enum class kernel_path : std::uint8_t {
    none,                  ///< answered without the kernel
    system_information,    ///< Nt{Set,Query}SystemInformation(SystemPerformanceTraceInformation)
    interval_profile,      ///< EVENT_TRACE_TIME_PROFILE_INFORMATION for the timer, else Nt{Set,Query}IntervalProfile
    trace_control,         ///< NtTraceControl
};

struct trace_info_class_traits {
    trace_info_class id;
    std::string_view sdk_name;
    bool set;   ///< TraceSetInformation accepts it (SECHOST, Windows 10)
    bool query; ///< TraceQueryInformation accepts it
    session_rule session;
    kernel_path path;
    std::uint32_t set_kernel_code;   ///< EVENT_TRACE_INFORMATION_CLASS or NtTraceControl code (set)
    std::uint32_t query_kernel_code; ///< same for query
    std::size_t element_size;        ///< payload element size in bytes (0: fixed struct)
    std::size_t max_elements;        ///< SECHOST's count limit (0: none / fixed)
    std::string_view payload;
};

inline constexpr std::uint32_t no_kernel_code = 0xFFFFFFFFU;

// clang-format off
inline constexpr trace_info_class_traits trace_info_class_table[] = {
    {trace_info_class::guid_query_list, "TraceGuidQueryList", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "EnumerateTraceGuidsEx only"},
    {trace_info_class::guid_query_info, "TraceGuidQueryInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "EnumerateTraceGuidsEx only"},
    {trace_info_class::guid_query_process, "TraceGuidQueryProcess", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "EnumerateTraceGuidsEx only"},
    {trace_info_class::stack_tracing, "TraceStackTracingInfo", true, false, session_rule::forwarded, kernel_path::system_information,
     static_cast<std::uint32_t>(event_trace_information_class::stack_tracing), no_kernel_code, 24, limits::max_stack_tracing_events, "CLASSIC_EVENT_ID[0..256]"},
    {trace_info_class::system_trace_enable_flags, "TraceSystemTraceEnableFlagsInfo", true, true, session_rule::forwarded, kernel_path::system_information,
     static_cast<std::uint32_t>(event_trace_information_class::group_mask), static_cast<std::uint32_t>(event_trace_information_class::group_mask), 4, limits::max_group_masks, "ULONG[0..8] (PERFINFO_GROUPMASK)"},
    {trace_info_class::sampled_profile_interval, "TraceSampledProfileIntervalInfo", true, true, session_rule::must_be_zero, kernel_path::interval_profile,
     static_cast<std::uint32_t>(event_trace_information_class::time_profile), static_cast<std::uint32_t>(event_trace_information_class::time_profile), 0, 0, "TRACE_PROFILE_INTERVAL"},
    {trace_info_class::profile_source_config, "TraceProfileSourceConfigInfo", true, false, session_rule::forwarded, kernel_path::system_information,
     static_cast<std::uint32_t>(event_trace_information_class::profile_config), no_kernel_code, 4, limits::max_profile_sources, "ULONG[1..4] (KPROFILE_SOURCE)"},
    {trace_info_class::profile_source_list, "TraceProfileSourceListInfo", false, true, session_rule::must_be_zero, kernel_path::system_information,
     no_kernel_code, static_cast<std::uint32_t>(event_trace_information_class::profile_source_list), 0, 0, "PROFILE_SOURCE_INFO chain (out)"},
    {trace_info_class::pmc_event_list, "TracePmcEventListInfo", true, false, session_rule::forwarded, kernel_path::system_information,
     static_cast<std::uint32_t>(event_trace_information_class::profile_event_list), no_kernel_code, 24, limits::max_pmc_events, "CLASSIC_EVENT_ID[0..4]"},
    {trace_info_class::pmc_counter_list, "TracePmcCounterListInfo", true, false, session_rule::forwarded, kernel_path::system_information,
     static_cast<std::uint32_t>(event_trace_information_class::profile_counter_list), no_kernel_code, 4, limits::max_pmc_counters, "ULONG[1..4] (KPROFILE_SOURCE)"},
    {trace_info_class::set_disallow_list, "TraceSetDisallowList", true, false, session_rule::forwarded, kernel_path::trace_control,
     trace_control::update_disallow_list, no_kernel_code, 16, limits::max_disallow_list, "GUID[0..256]"},
    {trace_info_class::version, "TraceVersionInfo", false, true, session_rule::must_be_zero, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "TRACE_VERSION_INFO (out)"},
    {trace_info_class::group_query_list, "TraceGroupQueryList", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "EnumerateTraceGuidsEx only"},
    {trace_info_class::group_query_info, "TraceGroupQueryInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "EnumerateTraceGuidsEx only"},
    {trace_info_class::disallow_list_query, "TraceDisallowListQuery", false, true, session_rule::forwarded, kernel_path::trace_control,
     no_kernel_code, trace_control::get_disallow_list, 16, 0, "GUID[] (out)"},
    {trace_info_class::reserved15, "TraceInfoReserved15", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "reserved"},
    {trace_info_class::periodic_capture_state_list, "TracePeriodicCaptureStateListInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::periodic_capture_state, "TracePeriodicCaptureStateInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::provider_binary_tracking, "TraceProviderBinaryTracking", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::max_loggers_query, "TraceMaxLoggersQuery", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::lbr_configuration, "TraceLbrConfigurationInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::lbr_event_list, "TraceLbrEventListInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::max_pmc_counter_query, "TraceMaxPmcCounterQuery", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::stream_count, "TraceStreamCount", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::stack_caching, "TraceStackCachingInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::pmc_counter_owners, "TracePmcCounterOwners", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::unified_stack_caching, "TraceUnifiedStackCachingInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::pmc_session_information, "TracePmcSessionInformation", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
    {trace_info_class::context_register, "TraceContextRegisterInfo", false, false, session_rule::forwarded, kernel_path::none, no_kernel_code, no_kernel_code, 0, 0, "not in SECHOST's Windows 10 RTM list"},
};
// clang-format on

inline constexpr std::size_t trace_info_class_count = sizeof(trace_info_class_table) / sizeof(trace_info_class_table[0]);

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
constexpr bool set_supported(std::uint32_t c) noexcept { auto const* t = find_traits(c); return t && t->set; }
constexpr bool query_supported(std::uint32_t c) noexcept { auto const* t = find_traits(c); return t && t->query; }

// ---------------------------------------------------------------------------------------------
// Tags for the typed API: etwctl::set<stack_tracing>(...), etwctl::query<version>(...).
// Each names its class; the signatures live in set.hpp / query.hpp.

#define ETWCTL_DETAIL_TRACE_TAG(tag, cls, can_set, can_query)                                     \
    struct tag {                                                                                \
        static constexpr trace_info_class info_class = trace_info_class::cls;                   \
        static constexpr std::string_view name = #tag;                                          \
        static constexpr bool settable = can_set;                                               \
        static constexpr bool queryable = can_query;                                            \
    };                                                                                          \
    static_assert(traits_of(trace_info_class::cls).set == (can_set) &&                          \
                  traits_of(trace_info_class::cls).query == (can_query));

ETWCTL_DETAIL_TRACE_TAG(stack_tracing, stack_tracing, true, false)
ETWCTL_DETAIL_TRACE_TAG(system_trace_enable_flags, system_trace_enable_flags, true, true)
ETWCTL_DETAIL_TRACE_TAG(sampled_profile_interval, sampled_profile_interval, true, true)
ETWCTL_DETAIL_TRACE_TAG(profile_source_config, profile_source_config, true, false)
ETWCTL_DETAIL_TRACE_TAG(profile_source_list, profile_source_list, false, true)
ETWCTL_DETAIL_TRACE_TAG(pmc_event_list, pmc_event_list, true, false)
ETWCTL_DETAIL_TRACE_TAG(pmc_counter_list, pmc_counter_list, true, false)
ETWCTL_DETAIL_TRACE_TAG(disallow_list, set_disallow_list, true, false)
ETWCTL_DETAIL_TRACE_TAG(disallow_list_query, disallow_list_query, false, true)
ETWCTL_DETAIL_TRACE_TAG(version, version, false, true)
#undef ETWCTL_DETAIL_TRACE_TAG

#define ETWCTL_DETAIL_EVENT_TAG(tag, cls)                                                       \
    struct tag {                                                                                \
        static constexpr event_info_class info_class = event_info_class::cls;                   \
        static constexpr std::string_view name = #tag;                                          \
        static constexpr bool settable = true;                                                  \
        static constexpr bool queryable = false;                                                \
    };
ETWCTL_DETAIL_EVENT_TAG(provider_binary_tracking, provider_binary_track_info)
ETWCTL_DETAIL_EVENT_TAG(provider_traits, provider_set_traits)
ETWCTL_DETAIL_EVENT_TAG(use_descriptor_type, provider_use_descriptor_type)
#undef ETWCTL_DETAIL_EVENT_TAG

template <class C>
concept trace_info_tag = requires {
    { C::info_class } -> std::convertible_to<trace_info_class>;
};
template <class C>
concept event_info_tag = requires {
    { C::info_class } -> std::convertible_to<event_info_class>;
};
template <class C>
concept info_tag = trace_info_tag<C> || event_info_tag<C>;

ETWCTL_END_NAMESPACE
