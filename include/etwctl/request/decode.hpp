// SPDX-License-Identifier: MIT
// etwctl/request/decode.hpp - the request layer read backwards: a kernel request's bytes -> what they
// mean, field by field. The simulated kernel reads its requests with it, the etwctl tool's --dry-run
// prints them with it, the tests check requests with it; the layouts are those of request/layouts.hpp,
// so encoding and decoding cannot drift apart (tests/core round-trips every request kind).
//
//   decoded_request r = decode_request(kernel_function::nt_set_system_information, 0x1F, bytes);
//   r.kind == request_kind::hook_list; r.trace_handle; r.count; r.element(i)  (hook id i)
//   for_each_field(r, [](request_field const& f) { ... f.offset, f.size, f.kind, f.index, f.value ... });
//
// Nothing is read outside `bytes`; a length that does not fit the layout is reported (well_formed ==
// false) with the fields that do fit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// What one field of a request is.
enum class field_kind : std::uint8_t {
    kernel_class,     ///< EVENT_TRACE_INFORMATION_CLASS (first ULONG of SystemPerformanceTraceInformation)
    spare,            ///< padding / Spare
    trace_handle,     ///< the session's TRACEHANDLE
    hook,             ///< HookId[index]
    source,           ///< ProfileSource[index] (KPROFILE_SOURCE)
    mask,             ///< Masks[index]
    interval,         ///< ProfileInterval (100 ns units for the timer)
    logger,           ///< the logger id (NtTraceControl requests)
    element_count,    ///< an element count (NtTraceControl requests)
    guid_entry,       ///< GUID[index]
    output,           ///< room for the kernel's answer (queries)
    flag,             ///< a BOOLEAN / UCHAR switch (Enable, Enabled)
    options,          ///< TRACE_LBR_CONFIGURATION options
    cache_size,       ///< a stack cache's CacheSize (bytes)
    bucket_count,     ///< a stack cache's BucketCount
    register_types,   ///< ETW_CONTEXT_REGISTER_TYPES
    frequency,        ///< a capture frequency (seconds)
    unknown,          ///< bytes no known layout describes
};

/// One field: where it is, what it is, its value (GUIDs: the first 8 bytes; output: its size).
struct request_field {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    field_kind kind = field_kind::unknown;
    std::uint32_t index = 0;
    std::uint64_t value = 0;
};

/// A kernel request read from its bytes.
struct decoded_request {
    kernel_function function = kernel_function::nt_set_system_information;
    std::uint32_t code = 0; ///< SystemInformationClass, NtTraceControl code, or the source of an interval call
    bool query = false;
    request_kind kind = request_kind::none; ///< the class table's kind; none when no layout fits
    std::uint32_t kernel_class = 0;         ///< EVENT_TRACE_INFORMATION_CLASS (SystemPerformanceTraceInformation)
    std::uint64_t trace_handle = 0;
    std::size_t first = 0; ///< offset of the first element
    std::size_t count = 0; ///< elements (hook ids, sources, masks, GUIDs)
    std::size_t element_size = 0;
    bool well_formed = false; ///< the length fits the layout exactly
    std::span<std::byte const> bytes{};

    /// ULONG element i (hook id, profile source, mask); i < count.
    std::uint32_t element(std::size_t i) const noexcept { return u32(first + element_size * i); }
    /// GUID element i of a disallow list; i < count.
    etwctl::guid guid_at(std::size_t i) const noexcept {
        etwctl::guid g;
        std::memcpy(&g, bytes.data() + first + 16 * i, sizeof g);
        return g;
    }
    /// The logger id a request names (the TraceHandle's low 16 bits, or the disallow request's LoggerId).
    std::uint16_t logger() const noexcept { return static_cast<std::uint16_t>(trace_handle & 0xFFFFU); }

    std::uint32_t u32(std::size_t off) const noexcept {
        std::uint32_t v = 0;
        if (off + 4 <= bytes.size()) std::memcpy(&v, bytes.data() + off, 4);
        return v;
    }
    std::uint64_t u64(std::size_t off) const noexcept {
        std::uint64_t v = 0;
        if (off + 8 <= bytes.size()) std::memcpy(&v, bytes.data() + off, 8);
        return v;
    }
};

namespace detail {
/// Where the fields of the requests of classes 16-28 are: read from their layouts (request/layouts.hpp).
namespace at {
template <class T>
constexpr std::uint32_t size = static_cast<std::uint32_t>(sizeof(T));
using capture = kernel_periodic_capture_request<1>;
inline constexpr std::uint32_t capture_frequency = offsetof(capture, frequency_seconds);
inline constexpr std::uint32_t capture_count = offsetof(capture, provider_count);
inline constexpr std::uint32_t capture_reserved = offsetof(capture, reserved);
inline constexpr std::uint32_t capture_guids = offsetof(capture, providers);
inline constexpr std::uint32_t tracking_enable = offsetof(kernel_binary_tracking_request, enable);
inline constexpr std::uint32_t lbr_options = offsetof(kernel_lbr_configuration_request, options);
inline constexpr std::uint32_t cache_enabled = offsetof(kernel_stack_caching_request, enabled);
inline constexpr std::uint32_t cache_size = offsetof(kernel_stack_caching_request, cache_size);
inline constexpr std::uint32_t cache_buckets = offsetof(kernel_stack_caching_request, bucket_count);
inline constexpr std::uint32_t cache_tail = offsetof(kernel_stack_caching_request, reserved1);
inline constexpr std::uint32_t context_types = offsetof(kernel_context_register_request, register_types);
inline constexpr std::uint32_t context_hooks = offsetof(kernel_context_register_request, hooks);
} // namespace at

/// Whether a request kind is an NtTraceControl call (its kernel_code a function code) rather than a
/// SystemPerformanceTraceInformation class.
constexpr bool is_trace_control(request_kind k) noexcept {
    switch (k) {
    case request_kind::disallow_list:
    case request_kind::periodic_capture:
    case request_kind::binary_tracking:
    case request_kind::control_ulong:
    case request_kind::stream_count:
    case request_kind::pmc_owners:
    case request_kind::pmc_sessions: return true;
    default: return false;
    }
}
/// The request kind of a kernel code, from the class table's rows: a SystemPerformanceTraceInformation
/// class (control = false) or an NtTraceControl function code (control = true).
constexpr request_kind kind_of_kernel_code(std::uint32_t code, bool control) noexcept {
    if (!control && code == static_cast<std::uint32_t>(event_trace_information_class::time_profile)) return request_kind::interval;
    for (auto const& t : trace_info_class_table)
        for (direction_rules const* d : {&t.set, &t.query})
            if (sends_kernel_request(d->request) && d->request != request_kind::interval &&
                is_trace_control(d->request) == control && d->kernel_code == code)
                return d->request;
    return request_kind::none;
}
/// The request kind of a SystemPerformanceTraceInformation class.
constexpr request_kind kind_of_kernel_class(std::uint32_t kernel_class) noexcept {
    return kind_of_kernel_code(kernel_class, false);
}
} // namespace detail

/// Reads a request. `code` is the call's first ULONG argument (SystemInformationClass or NtTraceControl
/// function code); `query` tells a query's buffer from a set's for the calls that have both.
inline decoded_request decode_request(kernel_function f, std::uint32_t code, std::span<std::byte const> bytes) noexcept {
    decoded_request r;
    r.function = f;
    r.code = code;
    r.bytes = bytes;
    r.query = f == kernel_function::nt_query_system_information || f == kernel_function::nt_query_interval_profile;
    std::size_t const n = bytes.size();
    switch (f) {
    case kernel_function::nt_set_interval_profile:
    case kernel_function::nt_query_interval_profile:
        r.kind = request_kind::interval;
        r.well_formed = n == 0;
        return r;
    case kernel_function::nt_trace_control:
        r.kind = detail::kind_of_kernel_code(code, true);
        switch (r.kind) {
        case request_kind::disallow_list:
            if (code == trace_control::update_disallow_list) {
                r.first = 8;
                r.element_size = 16;
                r.trace_handle = r.u32(0);
                r.count = n >= 8 ? (n - 8) / 16 : 0;
                r.well_formed = n >= 8 && (n - 8) % 16 == 0 && r.u32(4) == r.count;
            } else {
                r.query = true;
                r.trace_handle = r.u64(0);
                r.well_formed = n == 8;
            }
            break;
        case request_kind::periodic_capture: // {LoggerId; Frequency; USHORT Count; USHORT 0; GUID[Count]}
            r.first = detail::at::capture_guids;
            r.element_size = sizeof(guid);
            r.trace_handle = r.u32(0);
            r.count = n >= r.first ? (n - r.first) / sizeof(guid) : 0;
            r.well_formed = n >= r.first && (n - r.first) % sizeof(guid) == 0 &&
                            (r.u32(detail::at::capture_count) & 0xFFFFU) == r.count;
            break;
        case request_kind::binary_tracking: // {LoggerId; UCHAR Enable; 3 bytes}
            r.trace_handle = r.u32(0);
            r.well_formed = n == detail::at::size<kernel_binary_tracking_request>;
            break;
        case request_kind::stream_count: // {USHORT LoggerId; 6 bytes}
            r.query = true;
            r.trace_handle = r.u32(0) & 0xFFFFU;
            r.well_formed = n == detail::at::size<kernel_stream_count_request>;
            break;
        case request_kind::control_ulong:
        case request_kind::pmc_sessions:
            r.query = true;
            r.well_formed = n == 0;
            break;
        case request_kind::pmc_owners: // the caller's buffer, in and out
            r.query = true;
            r.well_formed = n >= pmc_owners_head_size;
            break;
        default:
            break;
        }
        return r;
    case kernel_function::nt_set_system_information:
    case kernel_function::nt_query_system_information:
        break;
    default:
        return r;
    }
    if (code != system_performance_trace_information || n < 4) return r;
    r.kernel_class = r.u32(0);
    r.kind = detail::kind_of_kernel_class(r.kernel_class);
    switch (r.kind) {
    case request_kind::interval:
        r.well_formed = n == sizeof(kernel_time_profile_request);
        break;
    case request_kind::profile_source_list:
        r.well_formed = n >= kernel_profile_list_records_offset; // the rest is the output buffer
        break;
    case request_kind::lbr_configuration: // {head; ULONG Options; 4 bytes}
    case request_kind::stack_caching:     // {head; BOOLEAN Enabled; 3 bytes; CacheSize; BucketCount; 4 bytes}
        if (n < sizeof(kernel_request_header)) break;
        r.trace_handle = r.u64(8);
        r.well_formed = n == (r.kind == request_kind::stack_caching ? detail::at::size<kernel_stack_caching_request>
                                                                    : detail::at::size<kernel_lbr_configuration_request>);
        break;
    case request_kind::context_register: // {head; RegisterTypes; ULONG HookId[n]}
        if (n < detail::at::context_hooks) break;
        r.trace_handle = r.u64(8);
        r.first = detail::at::context_hooks;
        r.element_size = 4;
        r.count = (n - r.first) / 4;
        r.well_formed = (n - r.first) % 4 == 0;
        break;
    case request_kind::hook_list:
    case request_kind::ulong_list:
    case request_kind::group_mask:
        if (n < sizeof(kernel_request_header)) break;
        r.trace_handle = r.u64(8);
        r.first = sizeof(kernel_request_header);
        r.element_size = 4;
        if (r.query) {
            r.well_formed = true; // the rest is the output buffer
            break;
        }
        r.count = (n - sizeof(kernel_request_header)) / 4;
        r.well_formed = (n - sizeof(kernel_request_header)) % 4 == 0 &&
                        (r.kind != request_kind::group_mask || n == sizeof(kernel_group_mask_request));
        break;
    default:
        break;
    }
    return r;
}

/// Calls visit(request_field) for each field of the request, in offset order.
template <class Visit>
void for_each_field(decoded_request const& r, Visit&& visit) {
    auto const n = static_cast<std::uint32_t>(r.bytes.size());
    auto field = [&](std::uint32_t off, std::uint32_t size, field_kind kind, std::uint32_t index, std::uint64_t value) {
        if (off + size <= n) visit(request_field{off, size, kind, index, value});
    };
    auto rest = [&](std::uint32_t off, field_kind kind) {
        if (off < n) visit(request_field{off, n - off, kind, 0, n - off});
    };
    if (r.function == kernel_function::nt_trace_control) {
        if (r.kind == request_kind::disallow_list && !r.query) {
            field(0, 4, field_kind::logger, 0, r.u32(0));
            field(4, 4, field_kind::element_count, 0, r.u32(4));
            for (std::uint32_t i = 0; i < r.count; ++i) field(8 + 16 * i, 16, field_kind::guid_entry, i, r.u64(8 + 16 * i));
            rest(static_cast<std::uint32_t>(8 + 16 * r.count), field_kind::unknown);
        } else if (r.kind == request_kind::disallow_list) {
            field(0, 8, field_kind::trace_handle, 0, r.u64(0));
        } else if (r.kind == request_kind::periodic_capture) {
            namespace at = detail::at;
            field(0, 4, field_kind::logger, 0, r.u32(0));
            field(at::capture_frequency, 4, field_kind::frequency, 0, r.u32(at::capture_frequency));
            field(at::capture_count, 2, field_kind::element_count, 0, r.u32(at::capture_count) & 0xFFFFU);
            field(at::capture_reserved, 2, field_kind::spare, 0, r.u32(at::capture_count) >> 16);
            for (std::uint32_t i = 0; i < r.count; ++i)
                field(at::capture_guids + 16 * i, 16, field_kind::guid_entry, i, r.u64(at::capture_guids + 16 * i));
            rest(static_cast<std::uint32_t>(at::capture_guids + 16 * r.count), field_kind::unknown);
        } else if (r.kind == request_kind::binary_tracking) {
            namespace at = detail::at;
            field(0, 4, field_kind::logger, 0, r.u32(0));
            field(at::tracking_enable, 1, field_kind::flag, 0, r.u32(at::tracking_enable) & 0xFFU);
            field(at::tracking_enable + 1, 3, field_kind::spare, 0, r.u32(at::tracking_enable) >> 8);
            rest(at::size<kernel_binary_tracking_request>, field_kind::unknown);
        } else if (r.kind == request_kind::stream_count) {
            field(0, 2, field_kind::logger, 0, r.u32(0) & 0xFFFFU);
            rest(2, field_kind::spare);
        } else if (r.kind == request_kind::pmc_owners) {
            rest(0, field_kind::output);
        } else {
            rest(0, field_kind::unknown);
        }
        return;
    }
    if (r.bytes.size() < 4 || r.kind == request_kind::none) {
        rest(0, field_kind::unknown);
        return;
    }
    field(0, 4, field_kind::kernel_class, 0, r.kernel_class);
    switch (r.kind) {
    case request_kind::interval:
        field(4, 4, r.query ? field_kind::output : field_kind::interval, 0, r.u32(4));
        rest(8, field_kind::unknown);
        return;
    case request_kind::profile_source_list:
        field(4, 4, field_kind::spare, 0, r.u32(4));
        rest(8, field_kind::output);
        return;
    default:
        break;
    }
    field(4, 4, field_kind::spare, 0, r.u32(4));
    field(8, 8, field_kind::trace_handle, 0, r.trace_handle);
    if (r.query) {
        rest(16, field_kind::output);
        return;
    }
    namespace at = detail::at;
    switch (r.kind) {
    case request_kind::lbr_configuration:
        field(at::lbr_options, 4, field_kind::options, 0, r.u32(at::lbr_options));
        rest(at::lbr_options + 4, field_kind::spare);
        return;
    case request_kind::stack_caching:
        field(at::cache_enabled, 1, field_kind::flag, 0, r.u32(at::cache_enabled) & 0xFFU);
        field(at::cache_enabled + 1, 3, field_kind::spare, 0, r.u32(at::cache_enabled) >> 8);
        field(at::cache_size, 4, field_kind::cache_size, 0, r.u32(at::cache_size));
        field(at::cache_buckets, 4, field_kind::bucket_count, 0, r.u32(at::cache_buckets));
        rest(at::cache_tail, field_kind::spare);
        return;
    case request_kind::context_register:
        field(at::context_types, 4, field_kind::register_types, 0, r.u32(at::context_types));
        for (std::uint32_t i = 0; i < r.count; ++i) field(at::context_hooks + 4 * i, 4, field_kind::hook, i, r.element(i));
        rest(static_cast<std::uint32_t>(at::context_hooks + 4 * r.count), field_kind::unknown);
        return;
    default:
        break;
    }
    // ULONG lists: hook ids (stack tracing, PMC events, LBR events) or profile sources
    bool const hooks = r.kind == request_kind::hook_list ||
                       r.kernel_class == static_cast<std::uint32_t>(event_trace_information_class::last_branch_event_list);
    field_kind const kind = hooks                                ? field_kind::hook
                            : r.kind == request_kind::ulong_list ? field_kind::source
                                                                 : field_kind::mask;
    for (std::uint32_t i = 0; i < r.count; ++i) field(16 + 4 * i, 4, kind, i, r.element(i));
    rest(static_cast<std::uint32_t>(16 + 4 * r.count), field_kind::unknown);
}

ETWCTL_END_NAMESPACE
