// etwctl/request/current_windows.hpp - the kernel requests of the information classes later Windows
// releases added (TRACE_INFO_CLASS 16-28), byte for byte, and one encoder per request kind of their
// rows in the class table (classes/info_classes.hpp), called by both faces (compat::current and the
// typed API) as request/encode.hpp's are for the Windows 10 classes.
//
// Sources: the SDK's evntrace.h (TRACE_INFO_CLASS values, TRACE_STACK_CACHING_INFO,
// TRACE_PERIODIC_CAPTURE_STATE_INFO, TRACE_LBR_CONFIGURATION, TRACE_LBR_MAXIMUM_EVENTS,
// ETW_PMC_COUNTER_OWNERSHIP_STATUS, ETW_PMC_SESSION_INFO, TRACE_CONTEXT_REGISTER_INFO,
// ETW_MAX_CONTEXT_REGISTER_EVENTS), phnt ntexapi.h / ntwmi.h (EVENT_TRACE_INFORMATION_CLASS 0x10 stack
// caching, 0x13 / 0x14 last-branch configuration / event list, 0x1A unified stack caching, 0x1B context
// registers; EVENT_TRACE_STACK_CACHING_INFORMATION; the ETWTRACECONTROLCODE values), and
// https://learn.microsoft.com/en-us/windows/win32/api/evntrace/ne-evntrace-trace_query_info_class.
//
//   class  kernel request                                                                    bytes
//   16     NtTraceControl 0x25 {ULONG LoggerId; ULONG Frequency; USHORT Count; USHORT 0; GUID[n]} 12 + 16n, n <= 16
//   18     NtTraceControl 0x29 {ULONG LoggerId; UCHAR Enable; 3 bytes 0}                      8
//   19     NtTraceControl 0x2A, no input; out ULONG                                          0 / 4
//   20     SystemPerformanceTraceInformation 0x13 {class; 0; TraceHandle; ULONG Options; 0}  0x18
//   21     SystemPerformanceTraceInformation 0x14 {class; 0; TraceHandle; ULONG HookId[n]}   0x10 + 4n, n <= 4
//   22     NtTraceControl 0x2B, no input; out ULONG                                          0 / 4
//   23     NtTraceControl 0x2C {USHORT LoggerId; 6 bytes 0}; out ULONG                        8 / 4
//   24/26  SystemPerformanceTraceInformation 0x10 / 0x1A {class; 0; TraceHandle; BOOLEAN Enabled;
//          3 bytes 0; ULONG CacheSize; ULONG BucketCount; 4 bytes 0}                          0x20
//   25     NtTraceControl 0x2D, the caller's ETW_PMC_COUNTER_OWNERSHIP_STATUS in and out      8 + 12n
//   27     NtTraceControl 0x2E, no input; out a chain of ETW_PMC_SESSION_INFO                 0 / any
//   28     SystemPerformanceTraceInformation 0x1B {class; 0; TraceHandle; ULONG RegisterTypes;
//          ULONG HookId[n]}                                                                  0x14 + 4n, n <= 8
// Class 17 (TracePeriodicCaptureStateInfo) is not here: it has no kernel request (no NtTraceControl code
// queries periodic capture state); compat.hpp answers it with the kernel's limits (docs/choices.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/encode.hpp"
#include "etwctl/request/layouts.hpp"

ETWCTL_BEGIN_NAMESPACE

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

/// TRACE_LBR_CONFIGURATION flags (SDK evntrace.h).
namespace lbr {
inline constexpr std::uint32_t none = 0x0;
inline constexpr std::uint32_t exclude_kernel = 0x1;
inline constexpr std::uint32_t exclude_user = 0x2;
inline constexpr std::uint32_t exclude_jcc = 0x4;
inline constexpr std::uint32_t exclude_near_rel_call = 0x8;
inline constexpr std::uint32_t exclude_near_ind_call = 0x10;
inline constexpr std::uint32_t exclude_near_ret = 0x20;
inline constexpr std::uint32_t exclude_near_ind_jmp = 0x40;
inline constexpr std::uint32_t exclude_near_rel_jmp = 0x80;
inline constexpr std::uint32_t exclude_far_branch = 0x100;
inline constexpr std::uint32_t callstack_enable = 0x200;
inline constexpr std::uint32_t sampled = 0x400; ///< ARM64 only
inline constexpr std::uint32_t all = 0x7FF;
inline constexpr std::uint8_t event_opcode = 0x20; ///< TRACE_LBR_EVENT_OPCODE: the LBR records' opcode
} // namespace lbr

/// ETW_PMC_COUNTER_OWNER_TYPE.
enum class pmc_owner_type : std::uint32_t {
    free = 0,
    untagged = 1,
    tagged = 2,
    tagged_with_source = 3,
};

// The requests themselves (kernel_stack_caching_request, ...) are in request/layouts.hpp with every
// other request layout; the decoder and the simulated kernel read them there.


// ---- the encoders ---------------------------------------------------------------------------------------

namespace detail {

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

ETWCTL_END_NAMESPACE
