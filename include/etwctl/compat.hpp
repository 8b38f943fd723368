// SPDX-License-Identifier: MIT
// etwctl/compat.hpp - drop-in equivalents of TraceSetInformation, TraceQueryInformation,
// EtwGetTraceEnableFlags and TraceLoggingSetInformation, with SECHOST/NTDLL semantics (sources in docs/choices.md):
// the same checks in the same order, the same error codes, byte-exact kernel requests, kernel failures
// mapped as RtlNtStatusToDosError does. Nothing outside the caller's buffers is read or written.
//
// A thin face over the class table and the request layer: the row of the class
// (classes/info_classes.hpp) says whether the release accepts it, its session rule and its buffer rules
// (request/checks.hpp); its request kind picks the encoder (request/encode.hpp). The typed API
// (typed/set.hpp / typed/query.hpp) uses the same rows and encoders directly; neither face calls the other.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/enable_context.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/checks.hpp"
#include "etwctl/request/encode.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace compat {

/// The information class a drop-in function takes: the SDK's TRACE_INFO_CLASS (or any integer), or
/// etwctl's trace_info_class, each without a cast.
struct info_class_arg {
    std::uint32_t value;
    constexpr info_class_arg(std::uint32_t v) noexcept : value(v) {} // NOLINT(google-explicit-constructor)
    constexpr info_class_arg(trace_info_class c) noexcept            // NOLINT(google-explicit-constructor)
        : value(static_cast<std::uint32_t>(c)) {}
};

/// A ULONG* the SDK declares that is not std::uint32_t* (Windows: unsigned long).
template <class U>
concept sdk_ulong = ulong_type<U> && !std::same_as<U, std::uint32_t>;

} // namespace compat

namespace detail {

/// Runs `call` with a std::uint32_t* standing for the caller's ULONG* (NULL stays NULL); what the call
/// wrote is copied back, and an untouched value stays as it was.
template <ulong_type U, class F>
std::uint32_t through_u32(U* out, F&& call) noexcept {
    std::uint32_t v = out ? static_cast<std::uint32_t>(*out) : 0U;
    std::uint32_t const e = call(out ? &v : nullptr);
    if (out) *out = v;
    return e;
}

/// The requests of the classes later releases added (16-28; only compat::current accepts them), out of
/// line and out of the hot code (a few calls per session), so that raw_set / raw_query stay small
/// when inlined into the Windows 10 drop-in functions, which never reach these classes.
template <kernel K>
ETWCTL_COLD outcome raw_set_later(K& k, std::uint64_t session, direction_rules const& d, void const* info,
                                      std::uint32_t length) noexcept {
    switch (d.request) {
    case request_kind::periodic_capture: // {Frequency; USHORT Count; USHORT Reserved} + GUIDs; NULL clears
        return send_periodic_capture(k, session, info ? load<std::uint32_t>(info) : 0U,
                                     static_cast<unsigned char const*>(info) + (info ? d.header_size : 0),
                                     info ? (length - d.header_size) / d.element_size : 0);
    case request_kind::binary_tracking:
        return send_binary_tracking(k, session, load<std::uint8_t>(info) != 0);
    case request_kind::lbr_configuration:
        return send_lbr_configuration(k, session, load<std::uint32_t>(info));
    case request_kind::stack_caching: // TRACE_STACK_CACHING_INFO {BOOLEAN Enabled; ULONG CacheSize; ULONG BucketCount}
        return send_stack_caching(k, d.kernel_code, session, load<std::uint8_t>(info), load<std::uint32_t>(info, 4),
                                  load<std::uint32_t>(info, 8));
    case request_kind::context_register: // {ULONG RegisterTypes; ULONG Reserved} + CLASSIC_EVENT_IDs
        return send_context_register(
            k, session, load<std::uint32_t>(info),
            static_cast<raw_classic_event_id const*>(static_cast<void const*>(static_cast<unsigned char const*>(info) + d.header_size)),
            (length - d.header_size) / d.element_size);
    default:
        return broke(rule::set_class_not_supported);
    }
}

template <kernel K>
ETWCTL_COLD outcome raw_query_later(K& k, std::uint64_t session, direction_rules const& d, void* info,
                                        std::uint32_t length, std::uint32_t* return_length) noexcept {
    auto const logger = stream_count_input(session);
    void const* input = nullptr; // control_ulong, pmc_sessions: no input
    std::uint32_t in_length = 0;
    switch (d.request) {
    case request_kind::control_ulong:
    case request_kind::pmc_sessions:
        break;
    case request_kind::stream_count: // the session's logger id
        input = &logger;
        in_length = sizeof logger;
        break;
    case request_kind::pmc_owners: // the caller's ETW_PMC_COUNTER_OWNERSHIP_STATUS goes in and comes back
        input = info;
        in_length = length;
        break;
    case request_kind::capture_limits: // TRACE_PERIODIC_CAPTURE_STATE_INFO: the kernel's limits, no call
        store(info, 0, limits::min_periodic_capture_seconds);
        store(info, 4, static_cast<std::uint16_t>(limits::max_periodic_capture_providers));
        store(info, 6, std::uint16_t{0}); // Reserved
        return {};
    default:
        return broke(rule::query_class_not_supported);
    }
    std::size_t returned = 0;
    auto const o = query_control(k, d.kernel_code, input, in_length, info, length, returned);
    if (o.broken == rule::ok && return_length) *return_length = static_cast<std::uint32_t>(returned);
    return o;
}

/// TraceSetInformation for the classes `release` accepts: the row's rules, then its request.
template <kernel K>
ETWCTL_INLINE_ALWAYS outcome raw_set(K& k, std::uint64_t session, std::uint32_t information_class, void const* info, std::uint32_t length,
                windows_release release) noexcept {
    auto const* row = find_traits(information_class);
    if (row == nullptr || !accepted_by(*row, release) || !row->set) return broke(rule::set_class_not_supported);
    if (rule r = validate::check_session(*row, session); r != rule::ok) return broke(r);
    direction_rules const& d = row->set;
    if (rule r = validate::check_buffer(d, info, length); r != rule::ok) return broke(r);
    // The checks pass a NULL buffer only with length 0 (an empty list). Saying so here lets the compiler
    // see that nothing below copies from a caller's literal NULL (g++ -O2 otherwise warns, -Wnonnull, of
    // a memcpy from NULL on a path it cannot prove dead); with a real pointer this folds away.
    if (info == nullptr) length = 0;
    switch (d.request) {
    case request_kind::hook_list:
        return send_hook_list<max_set_elements(request_kind::hook_list)>(
            k, d.kernel_code, session, static_cast<raw_classic_event_id const*>(info), length / d.element_size);
    case request_kind::ulong_list:
        return send_ulong_list<max_set_elements(request_kind::ulong_list)>(k, d.kernel_code, session, info, length / d.element_size);
    case request_kind::group_mask:
        return send_group_masks(k, session, info, length / d.element_size);
    case request_kind::interval: {
        auto const v = load<trace_profile_interval>(info);
        return set_interval(k, v.source, v.interval);
    }
    case request_kind::disallow_list:
        return send_disallow_list(k, session, info, length / d.element_size);
    case request_kind::periodic_capture:
    case request_kind::binary_tracking:
    case request_kind::lbr_configuration:
    case request_kind::stack_caching:
    case request_kind::context_register:
        return raw_set_later(k, session, d, info, length);
    default:
        return broke(rule::set_class_not_supported);
    }
}

/// TraceQueryInformation for the classes `release` accepts. ReturnLength is written where SECHOST
/// writes it: the struct size after the session check and before the buffer check for fixed structs,
/// the reply's size for the protocols.
template <kernel K>
ETWCTL_INLINE_ALWAYS outcome raw_query(K& k, std::uint64_t session, std::uint32_t information_class, void* info, std::uint32_t length,
                  std::uint32_t* return_length, windows_release release) noexcept {
    auto const* row = find_traits(information_class);
    if (row == nullptr || !accepted_by(*row, release) || !row->query) return broke(rule::query_class_not_supported);
    if (rule r = validate::check_session(*row, session); r != rule::ok) return broke(r);
    direction_rules const& d = row->query;
    if (return_length && (d.shape == buffer_shape::exact || d.shape == buffer_shape::at_least))
        *return_length = d.element_size;
    if (rule r = validate::check_buffer(d, info, length); r != rule::ok) return broke(r);
    switch (d.request) {
    case request_kind::group_mask: {
        std::uint32_t masks[limits::max_group_masks];
        auto const o = query_group_masks(k, session, masks);
        // check_buffer let through at least sizeof masks; the copy is bounded by the caller's length all the
        // same (g++ at -O0, where the class does not fold to this branch, would otherwise see 32 bytes
        // written into the smaller struct of another class's caller: -Wstringop-overflow)
        if (o.ok()) std::memcpy(info, masks, length < sizeof masks ? std::size_t{length} : sizeof masks);
        return o;
    }
    case request_kind::interval: {
        std::uint32_t interval = 0;
        auto const o = query_interval(k, load<std::uint32_t>(info, 0), interval);
        if (o.ok()) store(info, offsetof(trace_profile_interval, interval), interval);
        return o;
    }
    case request_kind::profile_source_list: {
        std::size_t returned = 0;
        auto const o = query_profile_sources(k, info, length, returned);
        if (return_length) *return_length = static_cast<std::uint32_t>(returned);
        return o;
    }
    case request_kind::user_mode: // TraceVersionInfo: SECHOST answers itself; Reserved is left as it is
        store(info, offsetof(trace_version_info, etw_trace_processing_version), etw_trace_processing_version);
        return {};
    case request_kind::disallow_list: {
        std::size_t returned = 0;
        auto const o = query_disallow_list(k, session, info, length, returned);
        if (o.broken == rule::ok && return_length) *return_length = static_cast<std::uint32_t>(returned);
        return o;
    }
    case request_kind::control_ulong:
    case request_kind::stream_count:
    case request_kind::pmc_owners:
    case request_kind::pmc_sessions:
    case request_kind::capture_limits:
        return raw_query_later(k, session, d, info, length, return_length);
    default:
        return broke(rule::query_class_not_supported);
    }
}

} // namespace detail

namespace compat {

/// TraceSetInformation: Windows 10 RTM's SECHOST. Always inlined (ETWCTL_INLINE_ALWAYS): in its caller
/// the class and the buffer shape fold to the one request (docs/performance.md).
template <kernel K>
ETWCTL_INLINE_ALWAYS std::uint32_t trace_set_information(K& k, std::uint64_t session, info_class_arg information_class,
                                    void const* information, std::uint32_t length) noexcept {
    return detail::raw_set(k, session, information_class.value, information, length, windows_release::windows_10_rtm).win32();
}

/// TraceQueryInformation: Windows 10 RTM's SECHOST. return_length may be NULL. Always inlined, as above.
template <kernel K>
ETWCTL_INLINE_ALWAYS std::uint32_t trace_query_information(K& k, std::uint64_t session, info_class_arg information_class,
                                      void* information, std::uint32_t length, std::uint32_t* return_length) noexcept {
    return detail::raw_query(k, session, information_class.value, information, length, return_length,
                             windows_release::windows_10_rtm)
        .win32();
}

/// The same, for a ReturnLength declared as the SDK's ULONG where that is `unsigned long` (Windows: a
/// 32-bit type distinct from std::uint32_t), so `ULONG returned; ...(&returned)` needs no cast.
template <kernel K, sdk_ulong U>
std::uint32_t trace_query_information(K& k, std::uint64_t session, info_class_arg information_class,
                                      void* information, std::uint32_t length, U* return_length) noexcept {
    return detail::through_u32(return_length, [&](std::uint32_t* r) {
        return trace_query_information(k, session, information_class, information, length, r);
    });
}

/// EtwGetTraceEnableFlags: the flags, or 0 with *error = ERROR_INVALID_HANDLE.
/// *error (if error is not NULL) is 0 on success.
inline std::uint32_t get_trace_enable_flags(std::uint64_t trace_handle, std::uint32_t* error) noexcept {
    rule const r = validate::enable_context(trace_handle);
    if (error) *error = win32_error_of(r);
    return r == rule::ok ? static_cast<std::uint32_t>(trace_handle >> 32) : 0U;
}

/// The same, with the error in the SDK's ULONG / DWORD (unsigned long on Windows).
template <sdk_ulong U>
std::uint32_t get_trace_enable_flags(std::uint64_t trace_handle, U* error) noexcept {
    std::uint32_t flags = 0;
    (void)detail::through_u32(error, [&](std::uint32_t* e) {
        flags = get_trace_enable_flags(trace_handle, e);
        return 0U;
    });
    return flags;
}

/// TraceLoggingSetInformation: EventSetInformation's checks, then the call; an HRESULT.
template <event_set_information_policy P = default_event_set_information_policy, kernel K>
std::int32_t tracelogging_set_information(K& k, std::uint64_t reg_handle, std::uint32_t information_class,
                                          void const* information, std::uint32_t length) noexcept {
    if constexpr (P == event_set_information_policy::disabled) {
        (void)k, (void)reg_handle, (void)information_class, (void)information, (void)length;
        return hresult::from_win32(win32_error_of(rule::event_set_information_unavailable));
    } else {
        if constexpr (P == event_set_information_policy::dynamic) {
            if (!is_available(k, kernel_function::event_set_information))
                return hresult::from_win32(win32_error_of(rule::event_set_information_unavailable));
        }
        if (rule r = validate::event_set_information(information_class, information, length); r != rule::ok)
            return hresult::from_win32(win32_error_of(r));
        return hresult::from_win32(k.event_set_information(reg_handle, information_class, information, length));
    }
}

} // namespace compat
ETWCTL_END_NAMESPACE

#if defined(_WIN32)
#include "etwctl/kernel/native.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace compat {
// The drop-in functions without the kernel argument, on the default kernel (native_kernel::instance()),
// as session/compat.hpp does for the session functions: with this header, on Windows only, so the
// umbrella gives the same API on every platform (compat is opt-in everywhere).
inline std::uint32_t trace_set_information(std::uint64_t session, info_class_arg information_class,
                                           void const* information, std::uint32_t length) noexcept {
    return trace_set_information(native_kernel::instance(), session, information_class, information, length);
}
inline std::uint32_t trace_query_information(std::uint64_t session, info_class_arg information_class, void* information,
                                             std::uint32_t length, std::uint32_t* return_length) noexcept {
    return trace_query_information(native_kernel::instance(), session, information_class, information, length,
                                   return_length);
}
template <sdk_ulong U>
std::uint32_t trace_query_information(std::uint64_t session, info_class_arg information_class, void* information,
                                      std::uint32_t length, U* return_length) noexcept {
    return trace_query_information(native_kernel::instance(), session, information_class, information, length,
                                   return_length);
}
template <event_set_information_policy P = default_event_set_information_policy>
std::int32_t tracelogging_set_information(std::uint64_t reg_handle, std::uint32_t information_class,
                                          void const* information, std::uint32_t length) noexcept {
    return tracelogging_set_information<P>(native_kernel::instance(), reg_handle, information_class, information, length);
}
} // namespace compat
ETWCTL_END_NAMESPACE
#endif // _WIN32
