// SPDX-License-Identifier: MIT
// etwctl/request/checks.hpp - the checks SECHOST / NTDLL make on a caller's buffer, driven by the
// information-class table (classes/info_classes.hpp): one generic check per buffer shape, in Windows'
// order, returning the broken etwctl::rule (rule::ok when none). The compat layer returns
// win32_error_of(rule) for raw buffers (check_buffer); the typed layer checks element counts against
// the same row (check_count), so each rule has one implementation and one home.
//
// Beyond Windows: where SECHOST would dereference a NULL buffer with a non-zero length (and fault),
// etwctl returns rule::null_buffer_with_length (ERROR_INVALID_PARAMETER) instead. That check comes
// after Windows' own checks, so it never changes an error Windows would have returned.
#pragma once

#include <cstddef>
#include <cstdint>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace validate {

inline constexpr std::uint32_t classic_event_id_size = detail::classic_event_id_bytes;

/// The session rule of a class (before any buffer check, as SECHOST orders them).
ETWCTL_INLINE_ALWAYS constexpr rule check_session(trace_info_class_traits const& row, std::uint64_t session) noexcept {
    return row.session == session_rule::must_be_zero && session != 0 ? row.session_not_zero : rule::ok;
}

/// A head, then whole elements: the length, the head's count (read only from a real buffer) and the limit.
ETWCTL_INLINE_ALWAYS constexpr rule check_headed(direction_rules const& d, void const* info, std::uint32_t length) noexcept {
    if (length == 0 && info == nullptr && d.empty == empty_policy::needs_null) return rule::ok; // NULL clears
    if (length < d.header_size) return d.size_rule;
    if (info == nullptr) return rule::null_buffer_with_length;
    if (d.count_at >= 0) {
        auto const* head = static_cast<unsigned char const*>(info) + d.count_at;
        std::uint32_t const count = head[0] | static_cast<std::uint32_t>(head[1]) << 8; // USHORT, little-endian
        if (count > d.max_count) return d.too_many_rule;
        return length == d.header_size + d.element_size * count ? rule::ok : d.size_rule;
    }
    if ((length - d.header_size) % d.element_size != 0) return d.size_rule;
    return (length - d.header_size) / d.element_size > d.max_count ? d.too_many_rule : rule::ok;
}

/// SECHOST's checks of a raw (address, length) buffer for one direction of a class.
ETWCTL_INLINE_ALWAYS constexpr rule check_buffer(direction_rules const& d, void const* info, std::uint32_t length) noexcept {
    switch (d.shape) {
    case buffer_shape::array:
        if (length % d.element_size != 0) return d.size_rule;
        if (length / d.element_size > d.max_count) return d.too_many_rule;
        if (d.empty == empty_policy::needs_null && length == 0 && info != nullptr) return d.empty_rule;
        if (d.empty == empty_policy::forbidden && (length == 0 || info == nullptr)) return d.empty_rule;
        break;
    case buffer_shape::exact:
        if (length != d.element_size) return d.size_rule;
        break;
    case buffer_shape::at_least:
        if (length < d.element_size) return d.size_rule;
        break;
    case buffer_shape::probe:
    case buffer_shape::none:
        return rule::ok;
    case buffer_shape::any:
        break;
    case buffer_shape::headed:
        return check_headed(d, info, length);
    }
    return length != 0 && info == nullptr ? rule::null_buffer_with_length : rule::ok;
}

/// The same rules for a typed list of `count` elements (an empty typed list is a NULL address).
constexpr rule check_count(direction_rules const& d, std::size_t count) noexcept {
    if (count > d.max_count) return d.too_many_rule;
    if (count == 0 && d.empty == empty_policy::forbidden) return d.empty_rule;
    return rule::ok;
}

// The checks of each Windows 10 class by name (the table's rows; kept for callers and tests).
constexpr rule stack_tracing(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::stack_tracing).set, info, length);
}
constexpr rule enable_flags_set(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::system_trace_enable_flags).set, info, length);
}
constexpr rule enable_flags_query(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::system_trace_enable_flags).query, info, length);
}
constexpr rule sampled_profile_interval_session(std::uint64_t session) noexcept {
    return check_session(traits_of(trace_info_class::sampled_profile_interval), session);
}
constexpr rule sampled_profile_interval_buffer(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::sampled_profile_interval).set, info, length);
}
constexpr rule profile_source_config(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::profile_source_config).set, info, length);
}
constexpr rule pmc_event_list(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::pmc_event_list).set, info, length);
}
constexpr rule pmc_counter_list(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::pmc_counter_list).set, info, length);
}
/// TraceSetDisallowList: SECHOST's checks are not published; etwctl's choice (docs/choices.md).
constexpr rule disallow_list_set(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::set_disallow_list).set, info, length);
}
constexpr rule disallow_list_query(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::disallow_list_query).query, info, length);
}
constexpr rule profile_source_list_session(std::uint64_t session) noexcept {
    return check_session(traits_of(trace_info_class::profile_source_list), session);
}
constexpr rule version_session(std::uint64_t session) noexcept {
    return check_session(traits_of(trace_info_class::version), session);
}
constexpr rule version_buffer(void const* info, std::uint32_t length) noexcept {
    return check_buffer(traits_of(trace_info_class::version).query, info, length);
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

// EtwGetTraceEnableFlags' check (validate::enable_context) is with the type it checks (enable_context.hpp).

} // namespace validate
ETWCTL_END_NAMESPACE
