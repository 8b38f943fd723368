// etwctl/compat.hpp - drop-in equivalents of TraceSetInformation, TraceQueryInformation,
// EtwGetTraceEnableFlags and TraceLoggingSetInformation, with SECHOST/NTDLL semantics (sources in docs/choices.md):
// the same checks in the same order, the same error codes, byte-exact kernel requests, kernel
// failures mapped as RtlNtStatusToDosError does. No heap: kernel requests are built on the stack
// (at most 0x10 + 4 * 256 bytes). Nothing outside the caller's buffers is read or written.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "etwctl/config.hpp"
#include "etwctl/classes/info_classes.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"
#include "etwctl/request/checks.hpp"

ETWCTL_BEGIN_NAMESPACE

/// The EtwTraceProcessingVersion SECHOST reports for TraceVersionInfo (Windows 10: 1).
inline constexpr std::uint32_t etw_trace_processing_version = 1;

namespace detail {

/// CLASSIC_EVENT_IDs in raw caller memory -> hook ids (unknown GUIDs skipped, as SECHOST does).
/// Returns the number of hook ids written to out.
inline std::size_t hook_ids_from_raw(void const* info, std::uint32_t count, std::uint32_t* out) noexcept {
    std::size_t n = 0;
    auto const* bytes = static_cast<unsigned char const*>(info);
    for (std::uint32_t i = 0; i < count; ++i) {
        auto const* rec = bytes + std::size_t{i} * validate::classic_event_id_size;
        guid g;
        std::memcpy(&g, rec, sizeof(guid));
        auto const group = group_or_empty(g); // branch-free, as in set.hpp's hooks_from
        out[n] = (std::uint32_t{group} << 8) | rec[16];
        n += group != group_hash_empty;
    }
    return n;
}

template <kernel K, std::size_t Capacity>
outcome send_hook_list(K& k, event_trace_information_class c, std::uint64_t session, void const* info,
                       std::uint32_t length) noexcept {
    kernel_id_list_request<Capacity> req; // only the sent part is written
    req.header = {static_cast<std::uint32_t>(c), 0, session};
    std::size_t const n = length == 0 ? 0 : hook_ids_from_raw(info, length / validate::classic_event_id_size, req.ids);
    return kernel_said(set_system_information(k, &req, req.length_for(n)));
}

template <kernel K, std::size_t Capacity>
outcome send_ulong_list(K& k, event_trace_information_class c, std::uint64_t session, void const* info,
                        std::uint32_t length) noexcept {
    kernel_id_list_request<Capacity> req;
    req.header = {static_cast<std::uint32_t>(c), 0, session};
    if (length != 0) std::memcpy(req.ids, info, length);
    return kernel_said(set_system_information(k, &req, req.length_for(length / 4)));
}

template <kernel K>
outcome send_group_masks(K& k, std::uint64_t session, void const* info, std::uint32_t length) noexcept {
    kernel_group_mask_request req{};
    req.header = {static_cast<std::uint32_t>(event_trace_information_class::group_mask), 0, session};
    if (length != 0) std::memcpy(req.masks, info, length); // masks not given stay 0
    return kernel_said(set_system_information(k, &req, sizeof req));
}

template <kernel K>
outcome set_interval(K& k, std::uint32_t source, std::uint32_t interval) noexcept {
    if (source == static_cast<std::uint32_t>(profile_source::time)) {
        kernel_time_profile_request req;
        req.profile_interval = interval;
        return kernel_said(set_system_information(k, &req, sizeof req));
    }
    return kernel_said(k.nt_set_interval_profile(interval, source));
}

template <kernel K>
outcome query_interval(K& k, std::uint32_t source, std::uint32_t& interval) noexcept {
    if (source == static_cast<std::uint32_t>(profile_source::time)) {
        kernel_time_profile_request req;
        std::uint32_t returned = 0;
        std::int32_t const s = query_system_information(k, &req, sizeof req, &returned);
        if (s >= 0) interval = req.profile_interval;
        return kernel_said(s);
    }
    std::uint32_t value = 0;
    std::int32_t const s = k.nt_query_interval_profile(source, &value);
    if (s >= 0) interval = value;
    return kernel_said(s);
}

template <kernel K>
outcome query_group_masks(K& k, std::uint64_t session, std::uint32_t (&masks)[limits::max_group_masks]) noexcept {
    kernel_group_mask_request req{};
    req.header = {static_cast<std::uint32_t>(event_trace_information_class::group_mask), 0, session};
    std::uint32_t returned = 0;
    std::int32_t const s = query_system_information(k, &req, sizeof req, &returned);
    if (s >= 0) std::memcpy(masks, req.masks, sizeof masks);
    return kernel_said(s);
}

/// Sends the disallow list (GUIDs in raw caller memory) through NtTraceControl(0x1C).
template <kernel K>
outcome send_disallow_list(K& k, std::uint64_t session, void const* info, std::uint32_t length) noexcept {
    kernel_disallow_list_request<limits::max_disallow_list> req;
    req.logger_id = static_cast<std::uint32_t>(session & 0xFFFFU);
    req.count = length / 16;
    if (length != 0) std::memcpy(req.guids, info, length);
    std::uint32_t returned = 0;
    return kernel_said(k.nt_trace_control(trace_control::update_disallow_list, &req, req.length_for(req.count),
                                          nullptr, 0, &returned));
}

/// NtTraceControl(0x22): GUIDs straight into the caller's buffer. returned = bytes (or bytes needed).
template <kernel K>
outcome query_disallow_list(K& k, std::uint64_t session, void* info, std::uint32_t length,
                            std::uint32_t& returned) noexcept {
    returned = 0;
    std::int32_t const s = k.nt_trace_control(trace_control::get_disallow_list, &session, sizeof session, info,
                                              length, &returned);
    if (s >= 0 && (returned > length || returned % 16 != 0)) return broke(rule::kernel_reply_malformed);
    // A "too small" reply must name a bigger size; otherwise the caller would be told to retry with a
    // buffer that is already big enough: a kernel that says so is lying about the size.
    if ((s == ntstatus::buffer_too_small || s == ntstatus::info_length_mismatch || s == ntstatus::buffer_overflow) &&
        returned <= length)
        return broke(rule::kernel_reply_malformed);
    return kernel_said(s);
}

/// The profile-source-list protocol (etwctl's choice, docs/choices.md). The caller's buffer is the
/// kernel's buffer: {class 0x0D, spare} then the records. The size the kernel asks for includes that
/// 8-byte head, so a buffer sized from a probe always suffices; on success the records are moved to
/// the start of the buffer and returned = their size. A NULL or too-small buffer is a size probe made
/// with an 8-byte head on the stack: it fails with rule::source_list_buffer_too_small and
/// returned = the size that suffices. The reply is checked before anything is moved.
template <kernel K>
outcome query_profile_sources(K& k, void* info, std::uint32_t length, std::uint32_t& returned) noexcept {
    returned = 0;
    kernel_profile_list_header probe;
    bool const use_caller = info != nullptr && length >= sizeof probe;
    void* const buf = use_caller ? info : &probe;
    std::uint32_t const buf_len = use_caller ? length : static_cast<std::uint32_t>(sizeof probe);
    if (use_caller) store(buf, 0, probe);

    std::uint32_t kernel_returned = 0;
    std::int32_t const s = query_system_information(k, buf, buf_len, &kernel_returned);
    if (s == ntstatus::info_length_mismatch || s == ntstatus::buffer_too_small || s == ntstatus::buffer_overflow) {
        if (kernel_returned <= buf_len) return broke(rule::kernel_reply_malformed); // "too small" but no bigger size
        returned = kernel_returned;
        return broke(rule::source_list_buffer_too_small);
    }
    if (s < 0) return kernel_said(s);
    if (kernel_returned < kernel_profile_list_records_offset || kernel_returned > buf_len)
        return broke(rule::kernel_reply_malformed);
    std::uint32_t const records = kernel_returned - kernel_profile_list_records_offset;
    if (records != 0) {
        if (!use_caller) { // the kernel claims records but had only the 8-byte head to put them in
            return broke(rule::kernel_reply_malformed);
        }
        auto* bytes = static_cast<std::byte*>(info);
        rule const r = check_profile_source_chain({bytes + kernel_profile_list_records_offset, records});
        if (r != rule::ok) return broke(r);
        std::memmove(bytes, bytes + kernel_profile_list_records_offset, records);
    }
    returned = records;
    return kernel_said(s);
}

} // namespace detail

namespace compat {

/// TraceSetInformation (spec 000).
template <kernel K>
std::uint32_t trace_set_information(K& k, std::uint64_t session, std::uint32_t information_class,
                                    void const* information, std::uint32_t length) noexcept {
    using detail::broke;
    auto run = [&]() noexcept -> detail::outcome {
        switch (static_cast<trace_info_class>(information_class)) {
        case trace_info_class::stack_tracing:
            if (rule r = validate::stack_tracing(information, length); r != rule::ok) return broke(r);
            return detail::send_hook_list<K, limits::max_stack_tracing_events>(
                k, event_trace_information_class::stack_tracing, session, information, length);
        case trace_info_class::system_trace_enable_flags:
            if (rule r = validate::enable_flags_set(information, length); r != rule::ok) return broke(r);
            return detail::send_group_masks(k, session, information, length);
        case trace_info_class::sampled_profile_interval: {
            if (rule r = validate::sampled_profile_interval_session(session); r != rule::ok) return broke(r);
            if (rule r = validate::sampled_profile_interval_buffer(information, length); r != rule::ok) return broke(r);
            auto const v = detail::load<trace_profile_interval>(information);
            return detail::set_interval(k, v.source, v.interval);
        }
        case trace_info_class::profile_source_config:
            if (rule r = validate::profile_source_config(information, length); r != rule::ok) return broke(r);
            return detail::send_ulong_list<K, limits::max_profile_sources>(
                k, event_trace_information_class::profile_config, session, information, length);
        case trace_info_class::pmc_event_list:
            if (rule r = validate::pmc_event_list(information, length); r != rule::ok) return broke(r);
            return detail::send_hook_list<K, limits::max_pmc_events>(
                k, event_trace_information_class::profile_event_list, session, information, length);
        case trace_info_class::pmc_counter_list:
            if (rule r = validate::pmc_counter_list(information, length); r != rule::ok) return broke(r);
            return detail::send_ulong_list<K, limits::max_pmc_counters>(
                k, event_trace_information_class::profile_counter_list, session, information, length);
        case trace_info_class::set_disallow_list:
            if (rule r = validate::disallow_list_set(information, length); r != rule::ok) return broke(r);
            return detail::send_disallow_list(k, session, information, length);
        default:
            return broke(rule::set_class_not_supported);
        }
    };
    return run().win32();
}

/// TraceQueryInformation (spec 001). return_length may be NULL.
template <kernel K>
std::uint32_t trace_query_information(K& k, std::uint64_t session, std::uint32_t information_class,
                                      void* information, std::uint32_t length, std::uint32_t* return_length) noexcept {
    using detail::broke;
    auto set_returned = [&](std::uint32_t n) noexcept {
        if (return_length) *return_length = n;
    };
    auto run = [&]() noexcept -> detail::outcome {
        switch (static_cast<trace_info_class>(information_class)) {
        case trace_info_class::system_trace_enable_flags: {
            set_returned(4 * limits::max_group_masks);
            if (rule r = validate::enable_flags_query(information, length); r != rule::ok) return broke(r);
            std::uint32_t masks[limits::max_group_masks];
            auto const o = detail::query_group_masks(k, session, masks);
            if (o.ok()) std::memcpy(information, masks, sizeof masks);
            return o;
        }
        case trace_info_class::sampled_profile_interval: {
            if (rule r = validate::sampled_profile_interval_session(session); r != rule::ok) return broke(r);
            set_returned(sizeof(trace_profile_interval));
            if (rule r = validate::sampled_profile_interval_buffer(information, length); r != rule::ok) return broke(r);
            std::uint32_t const source = detail::load<std::uint32_t>(information, 0);
            std::uint32_t interval = 0;
            auto const o = detail::query_interval(k, source, interval);
            if (o.ok()) detail::store(information, offsetof(trace_profile_interval, interval), interval);
            return o;
        }
        case trace_info_class::profile_source_list: {
            if (rule r = validate::profile_source_list_session(session); r != rule::ok) return broke(r);
            std::uint32_t returned = 0;
            auto const o = detail::query_profile_sources(k, information, length, returned);
            set_returned(returned);
            return o;
        }
        case trace_info_class::version: {
            if (rule r = validate::version_session(session); r != rule::ok) return broke(r);
            set_returned(sizeof(trace_version_info));
            if (rule r = validate::version_buffer(information, length); r != rule::ok) return broke(r);
            detail::store(information, offsetof(trace_version_info, etw_trace_processing_version),
                          etw_trace_processing_version); // Reserved is left as it is
            return {};
        }
        case trace_info_class::disallow_list_query: {
            if (rule r = validate::disallow_list_query(information, length); r != rule::ok) return broke(r);
            std::uint32_t returned = 0;
            auto const o = detail::query_disallow_list(k, session, information, length, returned);
            if (o.broken == rule::ok) set_returned(returned);
            return o;
        }
        default:
            return broke(rule::query_class_not_supported);
        }
    };
    return run().win32();
}

/// The same, for a ReturnLength declared as the SDK's ULONG where that is `unsigned long` (Windows: a
/// 32-bit type distinct from std::uint32_t), so `ULONG returned; ...(&returned)` needs no cast.
template <kernel K, class ULong>
    requires(std::same_as<ULong, unsigned long> && sizeof(ULong) == 4 && !std::same_as<ULong, std::uint32_t>)
std::uint32_t trace_query_information(K& k, std::uint64_t session, std::uint32_t information_class,
                                      void* information, std::uint32_t length, ULong* return_length) noexcept {
    std::uint32_t returned = return_length ? static_cast<std::uint32_t>(*return_length) : 0U;
    std::uint32_t const e = trace_query_information(k, session, information_class, information, length,
                                                    return_length ? &returned : nullptr);
    if (return_length) *return_length = returned; // unchanged unless the call set it
    return e;
}

/// EtwGetTraceEnableFlags: the flags, or 0 with *error = ERROR_INVALID_HANDLE.
/// *error (if error is not NULL) is 0 on success.
inline std::uint32_t get_trace_enable_flags(std::uint64_t trace_handle, std::uint32_t* error) noexcept {
    rule const r = validate::enable_context(trace_handle);
    if (error) *error = win32_error_of(r);
    return r == rule::ok ? static_cast<std::uint32_t>(trace_handle >> 32) : 0U;
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
