// etwctl/compat_current.hpp - the drop-in TraceSetInformation / TraceQueryInformation of a current Windows
// release, as an explicit opt-in:
//
//   etwctl::compat::current::trace_set_information(k, session, TraceStackCachingInfo, &info, sizeof info);
//
// etwctl::compat:: answers as the documented Windows 10 RTM SECHOST does: every class >= 16 is
// ERROR_NOT_SUPPORTED, unchanged. compat::current:: answers classes 0-15 exactly as compat:: does and
// also accepts the classes later releases added (16, 18-28; 17 stays ERROR_NOT_SUPPORTED: no public
// source gives its kernel request). SECHOST's own buffer checks for those classes are not documented
// anywhere: the checks below are etwctl's inference, chosen as the neighbouring documented classes do
// (exact structs -> ERROR_BAD_LENGTH, arrays -> whole elements and a count limit -> ERROR_INCORRECT_SIZE,
// machine-global classes -> session 0), all in current_buffer_checks() and listed in docs/choices.md.
// The kernel's own refusals (clamps, second enable, privilege, a Windows without the class ->
// ERROR_INVALID_FUNCTION) arrive through RtlNtStatusToDosError as usual.
//
// Caller's buffers (SDK evntrace.h):
//   16 set   TRACE_PERIODIC_CAPTURE_STATE_INFO {ULONG Frequency; USHORT ProviderCount; USHORT Reserved} +
//            ProviderCount GUIDs (<= 16); NULL with length 0 clears
//   18 set   one BOOLEAN byte
//   19 query ULONG (>= 4 bytes; the session is not used)
//   20 set   one ULONG of TRACE_LBR_CONFIGURATION
//   21 set   ULONG hook ids (<= 4; more -> ERROR_IMPLEMENTATION_LIMIT as TraceConfigureLastBranchRecord)
//   22 query ULONG (>= 4 bytes; the session is not used)
//   23 query ULONG (>= 4 bytes) for the session
//   24, 26 set TRACE_STACK_CACHING_INFO {BOOLEAN Enabled; ULONG CacheSize; ULONG BucketCount} (12 bytes)
//   25 query ETW_PMC_COUNTER_OWNERSHIP_STATUS in and out (>= 8 bytes; the kernel wants 8 + 12 x counters);
//            session must be 0
//   27 query a chain of ETW_PMC_SESSION_INFO (any size; ReturnLength says what suffices); session must be 0
//   28 set   TRACE_CONTEXT_REGISTER_INFO {ULONG RegisterTypes; ULONG Reserved} + CLASSIC_EVENT_IDs (<= 8);
//            events whose GUID is no kernel group are skipped, as SECHOST skips them for PMC events
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "etwctl/classes/current_windows.hpp"
#include "etwctl/compat.hpp"
#include "etwctl/config.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/request/current_windows.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace detail {

/// The inferred SECHOST checks for classes 16-28, in one place (docs/choices.md). Returns rule::ok or
/// the rule broken; `query` selects the direction.
constexpr rule current_buffer_checks(std::uint32_t c, bool query, std::uint64_t session, void const* info,
                                     std::uint32_t length) noexcept {
    if (info == nullptr && length != 0) return rule::null_buffer_with_length;
    if (!query) {
        switch (c) {
        case 16: {
            if (info == nullptr) return rule::ok; // clears
            if (length < 8) return rule::current_class_array_size;
            std::uint16_t count = 0;
            count = static_cast<std::uint16_t>(static_cast<unsigned char const*>(info)[4] |
                                               (static_cast<unsigned char const*>(info)[5] << 8));
            if (count > limits::max_periodic_capture_providers) return rule::periodic_capture_too_many;
            return length == 8U + 16U * count ? rule::ok : rule::current_class_array_size;
        }
        case 18: return length == 1 ? rule::ok : rule::current_class_length;
        case 20: return length == 4 ? rule::ok : rule::current_class_length;
        case 21:
            if (length % 4 != 0) return rule::current_class_array_size;
            return length / 4 > limits::max_lbr_events ? rule::lbr_events_too_many : rule::ok;
        case 24:
        case 26: return length == 12 ? rule::ok : rule::current_class_length;
        case 28:
            if (length < 8 || (length - 8) % 24 != 0) return rule::current_class_array_size;
            return (length - 8) / 24 > limits::max_context_register_events ? rule::context_register_too_many : rule::ok;
        default: return rule::set_class_not_supported;
        }
    }
    switch (c) {
    case 19:
    case 22:
    case 23: return length >= 4 ? rule::ok : rule::current_class_length;
    case 25:
        if (session != 0) return rule::current_class_session_not_zero;
        return length >= pmc_owners_head_size ? rule::ok : rule::current_class_length;
    case 27: return session != 0 ? rule::current_class_session_not_zero : rule::ok;
    default: return rule::query_class_not_supported;
    }
}

inline std::uint32_t current_win32(rule r) noexcept { return win32_error_of(r); }
inline std::uint32_t current_win32(std::int32_t status) noexcept { return status < 0 ? nt_status_to_win32(status) : 0U; }

template <kernel K>
std::uint32_t current_set(K& k, std::uint64_t session, std::uint32_t c, void const* info, std::uint32_t length) noexcept {
    if (rule const r = current_buffer_checks(c, false, session, info, length); r != rule::ok) return current_win32(r);
    auto const* p = static_cast<unsigned char const*>(info);
    auto const spti = system_performance_trace_information;
    auto const logger = static_cast<std::uint32_t>(session & 0xFFFFU);
    std::uint32_t returned = 0;
    switch (c) {
    case 16: {
        kernel_periodic_capture_request<limits::max_periodic_capture_providers> r{};
        r.logger_id = logger;
        std::size_t n = 0;
        if (p != nullptr) {
            std::memcpy(&r.frequency_seconds, p, 4);
            n = (length - 8) / 16;
            r.provider_count = static_cast<std::uint16_t>(n);
            std::memcpy(r.providers, p + 8, 16 * n);
        }
        return current_win32(k.nt_trace_control(trace_control::periodic_capture_state, &r, r.length_for(n), nullptr, 0, &returned));
    }
    case 18: {
        kernel_binary_tracking_request r{};
        r.logger_id = logger;
        r.enable = p[0];
        return current_win32(k.nt_trace_control(trace_control::provider_binary_tracking, &r, sizeof r, nullptr, 0, &returned));
    }
    case 20: {
        kernel_lbr_configuration_request r{};
        r.header.trace_handle = session;
        std::memcpy(&r.options, p, 4);
        return current_win32(k.nt_set_system_information(spti, &r, sizeof r));
    }
    case 21: {
        unsigned char buf[sizeof(kernel_request_header) + 4 * limits::max_lbr_events] = {};
        kernel_request_header const head{static_cast<std::uint32_t>(kernel_class::last_branch_event_list), 0, session};
        std::memcpy(buf, &head, sizeof head);
        if (length) std::memcpy(buf + sizeof head, p, length);
        return current_win32(k.nt_set_system_information(spti, buf, static_cast<std::uint32_t>(sizeof head + length)));
    }
    case 24:
    case 26: {
        kernel_stack_caching_request r{};
        r.header = {static_cast<std::uint32_t>(c == 24 ? kernel_class::stack_caching : kernel_class::unified_stack_caching), 0,
                    session};
        r.enabled = p[0];
        std::memcpy(&r.cache_size, p + 4, 4);
        std::memcpy(&r.bucket_count, p + 8, 4);
        return current_win32(k.nt_set_system_information(spti, &r, sizeof r));
    }
    case 28: {
        kernel_context_register_request r{};
        r.header.trace_handle = session;
        std::memcpy(&r.register_types, p, 4);
        std::size_t n = 0;
        for (std::size_t i = 0; i < (length - 8) / 24; ++i) {
            classic_event_id e{};
            std::memcpy(&e, p + 8 + 24 * i, 24);
            if (auto const h = hook_id_of(e)) r.hooks[n++] = h->value; // others skipped (see the top)
        }
        return current_win32(k.nt_set_system_information(spti, &r, r.length_for(n)));
    }
    default: return current_win32(rule::set_class_not_supported);
    }
}

template <kernel K>
std::uint32_t current_query(K& k, std::uint64_t session, std::uint32_t c, void* info, std::uint32_t length,
                            std::uint32_t* return_length) noexcept {
    if (rule const r = current_buffer_checks(c, true, session, info, length); r != rule::ok) {
        if (return_length && (r == rule::current_class_length) && c != 25) *return_length = 4;
        if (return_length && (r == rule::current_class_length) && c == 25) *return_length = static_cast<std::uint32_t>(pmc_owners_head_size);
        return current_win32(r);
    }
    std::uint32_t returned = 0;
    std::int32_t status = 0;
    switch (c) {
    case 19: status = k.nt_trace_control(trace_control::max_loggers, nullptr, 0, info, length, &returned); break;
    case 22: status = k.nt_trace_control(trace_control::max_pmc_counters, nullptr, 0, info, length, &returned); break;
    case 23: {
        kernel_stream_count_request r{};
        r.logger_id = static_cast<std::uint16_t>(session & 0xFFFFU);
        status = k.nt_trace_control(trace_control::stream_count, &r, sizeof r, info, length, &returned);
        break;
    }
    case 25: status = k.nt_trace_control(trace_control::pmc_counter_owners, info, length, info, length, &returned); break;
    case 27: status = k.nt_trace_control(trace_control::pmc_session_information, nullptr, 0, info, length, &returned); break;
    default: return current_win32(rule::query_class_not_supported);
    }
    if (return_length) *return_length = returned;
    return current_win32(status);
}

} // namespace detail

namespace compat::current {

/// TraceSetInformation of a current Windows release: classes 0-15 as compat::trace_set_information,
/// classes 16 and 18-28 with the inferred checks above.
template <kernel K>
std::uint32_t trace_set_information(K& k, std::uint64_t session, std::uint32_t information_class,
                                    void const* information, std::uint32_t length) noexcept {
    if (information_class < 16) return compat::trace_set_information(k, session, information_class, information, length);
    return detail::current_set(k, session, information_class, information, length);
}

/// TraceQueryInformation of a current Windows release. return_length may be NULL.
template <kernel K>
std::uint32_t trace_query_information(K& k, std::uint64_t session, std::uint32_t information_class, void* information,
                                      std::uint32_t length, std::uint32_t* return_length) noexcept {
    if (information_class < 16)
        return compat::trace_query_information(k, session, information_class, information, length, return_length);
    return detail::current_query(k, session, information_class, information, length, return_length);
}

} // namespace compat::current

ETWCTL_END_NAMESPACE
