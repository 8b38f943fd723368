// etwctl/request/checks.hpp - the checks SECHOST / NTDLL make on a caller's buffer, one function per
// information class, in Windows' order. Each returns the broken etwctl::rule (rule::ok when none).
// The compat layer returns win32_error_of(rule); the typed layer returns the rule as an error_code and
// calls the same function for dynamic extents, so each rule has exactly one implementation.
//
// Beyond Windows: where SECHOST would dereference a NULL buffer with a non-zero length (and fault),
// etwctl returns rule::null_buffer_with_length (ERROR_INVALID_PARAMETER) instead. That check comes
// after Windows' own checks, so it never changes an error Windows would have returned.
#pragma once

#include <cstdint>

#include "etwctl/config.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace validate {

inline constexpr std::uint32_t classic_event_id_size = 24;

/// TraceStackTracingInfo (set): whole CLASSIC_EVENT_IDs, at most 256; empty only with NULL.
constexpr rule stack_tracing(void const* info, std::uint32_t length) noexcept {
    if (length % classic_event_id_size != 0 || length / classic_event_id_size > limits::max_stack_tracing_events)
        return rule::stack_tracing_size;
    if (length == 0 && info != nullptr) return rule::stack_tracing_empty_needs_null;
    if (length != 0 && info == nullptr) return rule::null_buffer_with_length;
    return rule::ok;
}

/// TraceSystemTraceEnableFlagsInfo (set): whole ULONGs, at most 8 (32 bytes).
constexpr rule enable_flags_set(void const* info, std::uint32_t length) noexcept {
    if (length % 4 != 0 || length > 4 * limits::max_group_masks) return rule::enable_flags_set_size;
    if (length != 0 && info == nullptr) return rule::null_buffer_with_length;
    return rule::ok;
}

/// TraceSystemTraceEnableFlagsInfo (query): room for the whole PERFINFO_GROUPMASK.
constexpr rule enable_flags_query(void const* info, std::uint32_t length) noexcept {
    if (length < 4 * limits::max_group_masks) return rule::enable_flags_query_length;
    if (info == nullptr) return rule::null_buffer_with_length;
    return rule::ok;
}

/// TraceSampledProfileIntervalInfo (set and query): session 0, exactly a TRACE_PROFILE_INTERVAL.
constexpr rule sampled_profile_interval_session(std::uint64_t session) noexcept {
    return session != 0 ? rule::interval_session_not_zero : rule::ok;
}
constexpr rule sampled_profile_interval_buffer(void const* info, std::uint32_t length) noexcept {
    if (length != sizeof(trace_profile_interval)) return rule::interval_length;
    if (info == nullptr) return rule::null_buffer_with_length;
    return rule::ok;
}

/// TraceProfileSourceConfigInfo (set): whole ULONGs, at most 4; at least one, non-NULL.
constexpr rule profile_source_config(void const* info, std::uint32_t length) noexcept {
    if (length % 4 != 0 || length / 4 > limits::max_profile_sources) return rule::profile_config_size;
    if (length == 0 || info == nullptr) return rule::profile_config_empty;
    return rule::ok;
}

/// TracePmcEventListInfo (set): whole CLASSIC_EVENT_IDs, at most 4; empty only with NULL.
constexpr rule pmc_event_list(void const* info, std::uint32_t length) noexcept {
    if (length % classic_event_id_size != 0 || length / classic_event_id_size > limits::max_pmc_events)
        return rule::pmc_events_size;
    if (length == 0 && info != nullptr) return rule::pmc_events_empty_needs_null;
    if (length != 0 && info == nullptr) return rule::null_buffer_with_length;
    return rule::ok;
}

/// TracePmcCounterListInfo (set): whole ULONGs, at most 4; at least one, non-NULL.
constexpr rule pmc_counter_list(void const* info, std::uint32_t length) noexcept {
    if (length % 4 != 0 || length / 4 > limits::max_pmc_counters) return rule::pmc_counters_size;
    if (length == 0 || info == nullptr) return rule::pmc_counters_empty;
    return rule::ok;
}

/// TraceSetDisallowList (set). SECHOST's checks are not published; etwctl's choice (docs/choices.md):
/// whole 16-byte GUIDs, at most limits::max_disallow_list, empty only with NULL.
constexpr rule disallow_list_set(void const* info, std::uint32_t length) noexcept {
    if (length % 16 != 0) return rule::disallow_list_size;
    if (length / 16 > limits::max_disallow_list) return rule::disallow_list_too_long;
    if (length == 0 && info != nullptr) return rule::disallow_list_empty_needs_null;
    if (length != 0 && info == nullptr) return rule::null_buffer_with_length;
    return rule::ok;
}

/// TraceDisallowListQuery: the buffer may be NULL only with length 0 (a size probe).
constexpr rule disallow_list_query(void const* info, std::uint32_t length) noexcept {
    return (length != 0 && info == nullptr) ? rule::null_buffer_with_length : rule::ok;
}

/// TraceProfileSourceListInfo (query): session 0.
constexpr rule profile_source_list_session(std::uint64_t session) noexcept {
    return session != 0 ? rule::source_list_session_not_zero : rule::ok;
}

/// TraceVersionInfo (query): session 0, exactly a TRACE_VERSION_INFO.
constexpr rule version_session(std::uint64_t session) noexcept {
    return session != 0 ? rule::version_session_not_zero : rule::ok;
}
constexpr rule version_buffer(void const* info, std::uint32_t length) noexcept {
    if (length != sizeof(trace_version_info)) return rule::version_length;
    if (info == nullptr) return rule::null_buffer_with_length;
    return rule::ok;
}

/// EventSetInformation's own checks (NTDLL), by class. The registration handle is checked by the
/// kernel layer (NTDLL's handle table), after these.
constexpr rule event_set_information(std::uint32_t information_class, void const* info, std::uint32_t length) noexcept {
    switch (information_class) {
    case 0: // EventProviderBinaryTrackInfo: no data
        return length != 0 ? rule::binary_tracking_length : rule::ok;
    case 2: // EventProviderSetTraits
        return (info == nullptr || length < 3 || length > 0xFFFF) ? rule::traits_length : rule::ok;
    case 3: // EventProviderUseDescriptorType: one BOOLEAN
        return (info == nullptr || length != 1) ? rule::descriptor_type_length : rule::ok;
    default:
        return rule::event_info_class_not_supported;
    }
}

/// EtwGetTraceEnableFlags: the handle must look like a TRACE_ENABLE_CONTEXT.
constexpr rule enable_context(std::uint64_t trace_handle) noexcept {
    if (trace_handle == 0) return rule::enable_context_zero_handle;
    auto const id = static_cast<std::uint16_t>(trace_handle & 0xFFFFU);
    if (id != limits::kernel_logger_id && id >= limits::max_loggers) return rule::enable_context_bad_logger_id;
    return rule::ok;
}

} // namespace validate
ETWCTL_END_NAMESPACE
