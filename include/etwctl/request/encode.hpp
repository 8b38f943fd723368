// SPDX-License-Identifier: MIT
// etwctl/request/encode.hpp - the request layer: one function per kernel request kind of the class
// table (classes/info_classes.hpp), building the kernel's buffer byte for byte (request/layouts.hpp),
// making the one kernel call and checking the reply before anything reaches the caller.
//
// Both faces call these with what they have: the typed API (typed/set.hpp / typed/query.hpp) with typed values
// (events, hook ids, sources, GUIDs, masks), the drop-in functions (compat.hpp) with the caller's raw
// buffer after SECHOST's checks (request/checks.hpp). Neither builds a fake buffer for the other.
// No heap: requests are built on the stack (at most 0x10 + 4 * 256 bytes). Lengths are std::size_t up
// to the kernel boundary, where a ULONG takes over (a larger caller buffer is offered as 4 GiB - 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace detail {
/// A CLASSIC_EVENT_ID as raw caller memory (alignment 1): what the drop-in functions encode from.
struct raw_classic_event_id {
    unsigned char bytes[24];
};
static_assert(sizeof(raw_classic_event_id) == 24 && alignof(raw_classic_event_id) == 1);
} // namespace detail

// Beside event_guid_of / event_type_of of types.hpp, so the encoder finds all of them by one lookup.
inline guid event_guid_of(detail::raw_classic_event_id const& e) noexcept {
    guid g;
    std::memcpy(&g, e.bytes, sizeof g);
    return g;
}
constexpr std::uint8_t event_type_of(detail::raw_classic_event_id const& e) noexcept { return e.bytes[16]; }

namespace detail {

/// Anything the hook-id encoder reads: etwctl's classic_event_id, the SDK's CLASSIC_EVENT_ID, raw memory.
template <class E>
concept hook_encodable = requires(E const& e) {
    { event_guid_of(e) } -> std::convertible_to<guid>;
    { event_type_of(e) } -> std::convertible_to<std::uint8_t>;
};

/// THE CLASSIC_EVENT_ID -> hook id encoder (SECHOST's translation): (group(EventGuid) << 8) | Type,
/// events whose GUID is not a kernel group GUID skipped. Branch-free: every id is written, only known
/// GUIDs advance the count, so `out` must have room for `count` ids. Returns the ids written.
template <hook_encodable E>
std::size_t encode_hook_ids(E const* events, std::size_t count, std::uint32_t* out) noexcept {
    // Per event: the GUID's 16 bytes as two words, the one slot its Data1 hashes to, the slot's
    // pre-shifted group OR the type, stored unconditionally; the count advances only when the slot
    // holds this GUID (cmp + adc, no branch, no empty-slot test: names/groups.hpp). As many
    // instructions per event as the best hand-written encoder (docs/performance.md shows the loop).
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i) {
        E const& e = events[i];
        guid_words w;
        if constexpr (requires { e.EventGuid; }) w = words_of(e.EventGuid);          // the SDK's layout
        else if constexpr (requires { e.event_guid; }) w = words_of(e.event_guid);   // etwctl::classic_event_id
        else w = words_of(event_guid_of(e));                                          // raw caller memory
        hook_slot const& slot = hook_slot_of<E>(w);
        out[n] = slot.hook_high | event_type_of(e);
        n += slot.holds(w);
    }
    return n;
}

/// Hook ids widened to the kernel's ULONGs. Indexed with the count known up front: a plain widening
/// copy the compiler can vectorize.
inline std::size_t encode_hook_ids(hook_id const* ids, std::size_t count, std::uint32_t* out) noexcept {
    for (std::size_t i = 0; i < count; ++i) out[i] = ids[i].value;
    return count;
}

template <kernel K>
std::int32_t set_system_information(K& k, void const* request, std::uint32_t length) noexcept {
    return k.nt_set_system_information(system_performance_trace_information, request, length);
}
template <kernel K>
std::int32_t query_system_information(K& k, void* request, std::uint32_t length, std::uint32_t* returned) noexcept {
    return k.nt_query_system_information(system_performance_trace_information, request, length, returned);
}

/// The logger id a session handle names (its low 16 bits), as the NtTraceControl requests carry it.
constexpr std::uint32_t logger_of(std::uint64_t session) noexcept { return static_cast<std::uint32_t>(session & 0xFFFFU); }

/// A caller's length at the kernel boundary: a ULONG; more than 4 GiB - 1 is offered as 4 GiB - 1.
constexpr std::uint32_t kernel_length(std::size_t n) noexcept {
    return n > 0xFFFFFFFFU ? 0xFFFFFFFFU : static_cast<std::uint32_t>(n);
}

// ---- request_kind::hook_list ----------------------------------------------------------------------

/// The request for a hook list whose ids the compiler knows: built by a constexpr function, so the
/// bytes are fixed at compile time (tests static_assert them) and sending them costs the stores.
template <std::size_t N>
constexpr kernel_id_list_request<N == 0 ? 1 : N> make_hook_request(std::uint32_t kernel_class, std::uint64_t session,
                                                                   hook_list<N> const& hooks) noexcept {
    kernel_id_list_request<N == 0 ? 1 : N> req{};
    req.header = {kernel_class, 0, session};
    for (std::size_t i = 0; i < N; ++i) req.ids[i] = hooks.ids[i].value;
    return req;
}

template <std::size_t N>
constexpr kernel_id_list_request<N == 0 ? 1 : N> make_hook_request(event_trace_information_class c, std::uint64_t session,
                                                                   hook_list<N> const& hooks) noexcept {
    return make_hook_request(static_cast<std::uint32_t>(c), session, hooks);
}

template <kernel K, std::size_t N>
ETWCTL_INLINE_ALWAYS outcome send_hook_list(K& k, std::uint32_t kernel_class, std::uint64_t session, hook_list<N> const& hooks) noexcept {
    auto const req = make_hook_request(kernel_class, session, hooks);
    return kernel_said(set_system_information(k, &req, req.length_for(N)));
}

/// Events (or hook ids) -> {class, pad, TraceHandle, HookId[n]}; count <= Capacity (checked by the caller).
/// Events whose GUID is no kernel group's are skipped, as SECHOST skips them; with Strict (the typed
/// face) such an event breaks rule::event_guid_not_kernel_group and nothing is sent (a mistyped GUID
/// would otherwise shorten the list silently, and an all-unknown list would switch it off).
template <std::size_t Capacity, bool Strict = false, kernel K, class E>
ETWCTL_INLINE_ALWAYS outcome send_hook_list(K& k, std::uint32_t kernel_class, std::uint64_t session, E const* events, std::size_t count) noexcept {
    kernel_id_list_request<Capacity> req; // only the sent part is written
    req.header = {kernel_class, 0, session};
    std::size_t const n = count == 0 ? 0 : encode_hook_ids(events, count, req.ids);
    if constexpr (Strict)
        if (n != count) [[unlikely]]
            return broke(rule::event_guid_not_kernel_group);
    return kernel_said(set_system_information(k, &req, req.length_for(n)));
}

/// The index of the first event whose GUID is no kernel group's (count if none): the context of
/// rule::event_guid_not_kernel_group, computed on the failure path only.
template <class E>
std::size_t first_unknown_group(E const* events, std::size_t count) noexcept {
    for (std::size_t i = 0; i < count; ++i)
        if (group_or_empty<E>(event_guid_of(events[i])) == group_hash_empty) return i;
    return count;
}

// ---- request_kind::ulong_list -----------------------------------------------------------------------

/// count ULONGs (profile sources) from `values` (any alignment) -> {class, pad, TraceHandle, ULONG[n]}.
template <std::size_t Capacity, kernel K>
ETWCTL_INLINE_ALWAYS outcome send_ulong_list(K& k, std::uint32_t kernel_class, std::uint64_t session, void const* values, std::size_t count) noexcept {
    kernel_id_list_request<Capacity> req;
    req.header = {kernel_class, 0, session};
    if (count != 0) std::memcpy(req.ids, values, 4 * count);
    return kernel_said(set_system_information(k, &req, req.length_for(count)));
}

// ---- request_kind::group_mask -------------------------------------------------------------------------

/// count (<= 8) masks from `masks` (any alignment); the masks not given are sent as 0.
template <kernel K>
ETWCTL_INLINE_ALWAYS outcome send_group_masks(K& k, std::uint64_t session, void const* masks, std::size_t count) noexcept {
    kernel_group_mask_request req{};
    req.header = {static_cast<std::uint32_t>(event_trace_information_class::group_mask), 0, session};
    if (count != 0) std::memcpy(req.masks, masks, 4 * count);
    return kernel_said(set_system_information(k, &req, sizeof req));
}

template <kernel K>
ETWCTL_INLINE_ALWAYS outcome query_group_masks(K& k, std::uint64_t session, std::uint32_t (&masks)[limits::max_group_masks]) noexcept {
    kernel_group_mask_request req{};
    req.header = {static_cast<std::uint32_t>(event_trace_information_class::group_mask), 0, session};
    std::uint32_t returned = 0;
    std::int32_t const s = query_system_information(k, &req, sizeof req, &returned);
    if (s >= 0) std::memcpy(masks, req.masks, sizeof masks);
    return kernel_said(s);
}

// ---- request_kind::interval ---------------------------------------------------------------------------

/// The timer goes through EVENT_TRACE_TIME_PROFILE_INFORMATION, every other source NtSetIntervalProfile.
template <kernel K>
ETWCTL_INLINE_ALWAYS outcome set_interval(K& k, std::uint32_t source, std::uint32_t interval) noexcept {
    if (source == static_cast<std::uint32_t>(profile_source::time)) {
        kernel_time_profile_request req;
        req.profile_interval = interval;
        return kernel_said(set_system_information(k, &req, sizeof req));
    }
    return kernel_said(k.nt_set_interval_profile(interval, source));
}

template <kernel K>
ETWCTL_INLINE_ALWAYS outcome query_interval(K& k, std::uint32_t source, std::uint32_t& interval) noexcept {
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

// ---- request_kind::disallow_list ----------------------------------------------------------------------

/// count (<= 256) GUIDs from `guids` (any alignment) -> NtTraceControl(0x1C, {logger id, count, GUIDs}).
template <kernel K>
outcome send_disallow_list(K& k, std::uint64_t session, void const* guids, std::size_t count) noexcept {
    kernel_disallow_list_request<limits::max_disallow_list> req;
    req.logger_id = logger_of(session);
    req.count = static_cast<std::uint32_t>(count);
    if (count != 0) std::memcpy(req.guids, guids, 16 * count);
    std::uint32_t returned = 0;
    return kernel_said(
        k.nt_trace_control(trace_control::update_disallow_list, &req, req.length_for(count), nullptr, 0, &returned));
}

/// NtTraceControl(0x22): GUIDs straight into the caller's buffer. returned = bytes (or bytes needed).
template <kernel K>
outcome query_disallow_list(K& k, std::uint64_t session, void* out, std::size_t length, std::size_t& returned) noexcept {
    returned = 0;
    std::uint32_t const len = kernel_length(length);
    std::uint32_t got = 0;
    std::int32_t const s = k.nt_trace_control(trace_control::get_disallow_list, &session, sizeof session, out, len, &got);
    returned = got;
    if (s >= 0 && (got > len || got % 16 != 0)) return broke(rule::kernel_reply_malformed);
    // A "too small" reply must name a bigger size; otherwise the caller would be told to retry with a
    // buffer that is already big enough: a kernel that says so is lying about the size.
    if ((s == ntstatus::buffer_too_small || s == ntstatus::info_length_mismatch || s == ntstatus::buffer_overflow) &&
        got <= len)
        return broke(rule::kernel_reply_malformed);
    return kernel_said(s);
}

// ---- request_kind::profile_source_list -----------------------------------------------------------------

/// The profile-source-list protocol (etwctl's choice, docs/choices.md). The caller's buffer is the
/// kernel's buffer: {class 0x0D, spare} then the records. The size the kernel asks for includes that
/// 8-byte head, so a buffer sized from a probe always suffices; on success the records are checked
/// (check_profile_source_chain), moved to the start of the buffer and returned = their size. A NULL or
/// too-small buffer is a size probe made with an 8-byte head on the stack: it fails with
/// rule::source_list_buffer_too_small and returned = the size that suffices.
template <kernel K>
outcome query_profile_sources(K& k, void* info, std::size_t length, std::size_t& returned) noexcept {
    returned = 0;
    kernel_profile_list_header probe;
    bool const use_caller = info != nullptr && length >= sizeof probe;
    void* const buf = use_caller ? info : &probe;
    std::uint32_t const buf_len = use_caller ? kernel_length(length) : static_cast<std::uint32_t>(sizeof probe);
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
        if (!use_caller) return broke(rule::kernel_reply_malformed); // records claimed, but only the head existed
        auto* bytes = static_cast<std::byte*>(info);
        rule const r = check_profile_source_chain(std::span<std::byte const>(deferred<K>(bytes) + kernel_profile_list_records_offset, records));
        if (r != rule::ok) return broke(r);
        std::memmove(bytes, bytes + kernel_profile_list_records_offset, records);
    }
    returned = records;
    return kernel_said(s);
}


// ---- the requests of the classes later releases added (16-28) -----------------------------------------


/// request_kind::periodic_capture: count (<= 16) GUIDs from `guids` (any alignment); 0 clears.
template <kernel K>
outcome send_periodic_capture(K& k, std::uint64_t session, std::uint32_t frequency_seconds, void const* guids,
                              std::size_t count) noexcept {
    kernel_periodic_capture_request<limits::max_periodic_capture_providers> r{};
    r.logger_id = logger_of(session);
    r.frequency_seconds = frequency_seconds;
    r.provider_count = static_cast<std::uint16_t>(count);
    if (count != 0) std::memcpy(r.providers, guids, 16 * count);
    std::uint32_t returned = 0;
    return kernel_said(k.nt_trace_control(trace_control::periodic_capture_state, &r, r.length_for(count), nullptr, 0, &returned));
}

/// request_kind::binary_tracking.
template <kernel K>
outcome send_binary_tracking(K& k, std::uint64_t session, bool enable) noexcept {
    kernel_binary_tracking_request r{};
    r.logger_id = logger_of(session);
    r.enable = enable ? 1 : 0;
    std::uint32_t returned = 0;
    return kernel_said(k.nt_trace_control(trace_control::provider_binary_tracking, &r, sizeof r, nullptr, 0, &returned));
}

/// request_kind::lbr_configuration.
template <kernel K>
outcome send_lbr_configuration(K& k, std::uint64_t session, std::uint32_t options) noexcept {
    kernel_lbr_configuration_request r{};
    r.header.trace_handle = session;
    r.options = options;
    return kernel_said(set_system_information(k, &r, sizeof r));
}

/// request_kind::stack_caching (kernel class 0x10 or 0x1A).
template <kernel K>
outcome send_stack_caching(K& k, std::uint32_t kernel_code, std::uint64_t session, std::uint8_t enabled,
                           std::uint32_t cache_size, std::uint32_t bucket_count) noexcept {
    kernel_stack_caching_request r{};
    r.header = {kernel_code, 0, session};
    r.enabled = enabled;
    r.cache_size = cache_size;
    r.bucket_count = bucket_count;
    return kernel_said(set_system_information(k, &r, sizeof r));
}

/// request_kind::context_register: count (<= 8) events or hook ids, encoded as every hook list is
/// (events whose GUID is no kernel group are skipped, as SECHOST skips them for PMC events).
template <kernel K, class E>
outcome send_context_register(K& k, std::uint64_t session, std::uint32_t register_types, E const* events,
                              std::size_t count, bool strict = false) noexcept {
    kernel_context_register_request r{};
    r.header.trace_handle = session;
    r.register_types = register_types;
    std::size_t const n = count == 0 ? 0 : encode_hook_ids(events, count, r.hooks);
    if (strict && n != count) return broke(rule::event_guid_not_kernel_group); // the typed face: see send_hook_list
    return kernel_said(set_system_information(k, &r, r.length_for(n)));
}

/// An NtTraceControl query straight into the caller's buffer (request_kind::control_ulong,
/// stream_count, pmc_owners, pmc_sessions): returned = the bytes written or needed; a reply that claims
/// more than the buffer while reporting success is malformed.
template <kernel K>
outcome query_control(K& k, std::uint32_t code, void const* in, std::uint32_t in_length, void* out, std::size_t length,
                      std::size_t& returned) noexcept {
    std::uint32_t const len = kernel_length(length);
    std::uint32_t got = 0;
    std::int32_t const s = k.nt_trace_control(code, in, in_length, out, len, &got);
    returned = got;
    if (s >= 0 && got > len) return broke(rule::kernel_reply_malformed);
    return kernel_said(s);
}

/// request_kind::stream_count's input: the session's logger id.
constexpr kernel_stream_count_request stream_count_input(std::uint64_t session) noexcept {
    kernel_stream_count_request r{};
    r.logger_id = static_cast<std::uint16_t>(logger_of(session));
    return r;
}

} // namespace detail

/// The newer classes' kernel codes (phnt ntexapi.h EVENT_TRACE_INFORMATION_CLASS, by their old names
/// here; the enum in kernel/concept.hpp has them all) - NtTraceControl codes are in trace_control::, the
/// limits in limits:: (types.hpp).
namespace kernel_class {
inline constexpr auto stack_caching = event_trace_information_class::stack_caching;                         // 0x10
inline constexpr auto last_branch_configuration = event_trace_information_class::last_branch_configuration; // 0x13
inline constexpr auto last_branch_event_list = event_trace_information_class::last_branch_event_list;       // 0x14
inline constexpr auto unified_stack_caching = event_trace_information_class::unified_stack_caching;         // 0x1A
inline constexpr auto context_register = event_trace_information_class::context_register;                   // 0x1B
} // namespace kernel_class

ETWCTL_END_NAMESPACE
