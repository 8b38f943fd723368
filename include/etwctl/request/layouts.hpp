// SPDX-License-Identifier: MIT
// etwctl/request/layouts.hpp - the buffers the kernel receives, byte for byte (EVENT_TRACE_* structures of
// phnt ntwmi.h and Geoff Chappell's km/ntoskrnl/inc/api/ntetw/ pages; user-mode ones from the SDK's evntrace.h),
// and the outcome type both the compat and the typed layers return internally.
//
//   EVENT_TRACE_SYSTEM_EVENT_INFORMATION      {class, pad, TraceHandle, ULONG HookId[n]}      0x10 + 4n
//   EVENT_TRACE_PROFILE_COUNTER_INFORMATION   {class, pad, TraceHandle, ULONG ProfileSource[n]} 0x10 + 4n
//   EVENT_TRACE_GROUPMASK_INFORMATION         {class 1, pad, TraceHandle, ULONG Masks[8]}       0x30
//   EVENT_TRACE_TIME_PROFILE_INFORMATION      {class 3, ULONG ProfileInterval}                  8
//   profile-source list (query, class 0x0D)   {class 0x0D, ULONG Spare} then the records        8 + records
//   disallow list (NtTraceControl 0x1C)       {ULONG LoggerId, ULONG Count, GUID[Count]}        8 + 16n
//   disallow list query (NtTraceControl 0x22) input: the 8-byte TRACEHANDLE; output: GUID[]
// The last three are etwctl's choices where no source gives the layout (docs/choices.md).
//
// The requests of the classes later releases added (TRACE_INFO_CLASS 16-28), from the SDK's evntrace.h
// (TRACE_INFO_CLASS values, TRACE_STACK_CACHING_INFO, TRACE_PERIODIC_CAPTURE_STATE_INFO, TRACE_LBR_CONFIGURATION, TRACE_LBR_MAXIMUM_EVENTS,
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
#include <system_error>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/pmc_views.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// The fixed 16-byte head of the kernel's list requests.
struct kernel_request_header {
    std::uint32_t information_class = 0;
    std::uint32_t spare = 0;
    std::uint64_t trace_handle = 0;
};
static_assert(sizeof(kernel_request_header) == 0x10);

/// EVENT_TRACE_SYSTEM_EVENT_INFORMATION / EVENT_TRACE_PROFILE_COUNTER_INFORMATION with room for
/// Capacity ids. Only the first count ids are sent; the rest is never initialised or read.
template <std::size_t Capacity>
struct kernel_id_list_request {
    static_assert(Capacity > 0);
    kernel_request_header header;
    std::uint32_t ids[Capacity];

    static constexpr std::uint32_t length_for(std::size_t count) noexcept {
        return static_cast<std::uint32_t>(sizeof(kernel_request_header) + 4 * count);
    }
};

/// EVENT_TRACE_GROUPMASK_INFORMATION.
struct kernel_group_mask_request {
    kernel_request_header header;
    std::uint32_t masks[limits::max_group_masks];
};
static_assert(sizeof(kernel_group_mask_request) == 0x30);

/// EVENT_TRACE_TIME_PROFILE_INFORMATION.
struct kernel_time_profile_request {
    std::uint32_t information_class = static_cast<std::uint32_t>(event_trace_information_class::time_profile);
    std::uint32_t profile_interval = 0;
};
static_assert(sizeof(kernel_time_profile_request) == 8);

/// Head of the profile-source-list query; PROFILE_SOURCE_INFO records follow from offset 8.
struct kernel_profile_list_header {
    std::uint32_t information_class = static_cast<std::uint32_t>(event_trace_information_class::profile_source_list);
    std::uint32_t spare = 0;
};
inline constexpr std::uint32_t kernel_profile_list_records_offset = sizeof(kernel_profile_list_header);
static_assert(kernel_profile_list_records_offset == 8);

/// NtTraceControl(0x1C) input: logger id, count, GUIDs.
template <std::size_t Capacity>
struct kernel_disallow_list_request {
    static_assert(Capacity > 0);
    std::uint32_t logger_id;
    std::uint32_t count;
    guid guids[Capacity];

    static constexpr std::uint32_t length_for(std::size_t n) noexcept {
        return static_cast<std::uint32_t>(8 + 16 * n);
    }
};

// ---- the requests of the classes later releases added (TRACE_INFO_CLASS 16-28; phnt ntwmi.h) -----------

/// ETW_CONTEXT_REGISTER_TYPES: the kernel accepts only both (3).
namespace context_registers {
inline constexpr std::uint32_t control = 0x1;
inline constexpr std::uint32_t integer = 0x2;
inline constexpr std::uint32_t both = control | integer;
} // namespace context_registers

/// NtTraceControl 0x25 head; Capacity GUIDs follow (only count are sent).
template <std::size_t Capacity>
struct kernel_periodic_capture_request {
    std::uint32_t logger_id = 0;
    std::uint32_t frequency_seconds = 0;
    std::uint16_t provider_count = 0;
    std::uint16_t reserved = 0;
    guid providers[Capacity] = {};
    static constexpr std::uint32_t length_for(std::size_t n) noexcept { return static_cast<std::uint32_t>(12 + 16 * n); }
};
static_assert(sizeof(kernel_periodic_capture_request<16>) == 12 + 16 * 16);

/// NtTraceControl 0x29.
struct kernel_binary_tracking_request {
    std::uint32_t logger_id = 0;
    std::uint8_t enable = 0;
    std::uint8_t reserved[3] = {};
};
static_assert(sizeof(kernel_binary_tracking_request) == 8);

/// NtTraceControl 0x2C input.
struct kernel_stream_count_request {
    std::uint16_t logger_id = 0;
    std::uint8_t reserved[6] = {};
};
static_assert(sizeof(kernel_stream_count_request) == 8);

/// SystemPerformanceTraceInformation 0x13.
struct kernel_lbr_configuration_request {
    kernel_request_header header{static_cast<std::uint32_t>(event_trace_information_class::last_branch_configuration), 0, 0};
    std::uint32_t options = 0;
    std::uint32_t reserved = 0;
};
static_assert(sizeof(kernel_lbr_configuration_request) == 0x18);

/// EVENT_TRACE_STACK_CACHING_INFORMATION (0x10 and 0x1A).
struct kernel_stack_caching_request {
    kernel_request_header header{};
    std::uint8_t enabled = 0;
    std::uint8_t reserved0[3] = {};
    std::uint32_t cache_size = 0;
    std::uint32_t bucket_count = 0;
    std::uint32_t reserved1 = 0;
};
static_assert(sizeof(kernel_stack_caching_request) == 0x20);
static_assert(offsetof(kernel_stack_caching_request, enabled) == 0x10);
static_assert(offsetof(kernel_stack_caching_request, cache_size) == 0x14);
static_assert(offsetof(kernel_stack_caching_request, bucket_count) == 0x18);

/// SystemPerformanceTraceInformation 0x1B with room for the most hooks.
struct kernel_context_register_request {
    kernel_request_header header{static_cast<std::uint32_t>(event_trace_information_class::context_register), 0, 0};
    std::uint32_t register_types = context_registers::both;
    std::uint32_t hooks[limits::max_context_register_events] = {};
    static constexpr std::uint32_t length_for(std::size_t n) noexcept { return static_cast<std::uint32_t>(0x14 + 4 * n); }
};
static_assert(offsetof(kernel_context_register_request, hooks) == 0x14);

static_assert(offsetof(kernel_lbr_configuration_request, options) == 0x10);
static_assert(offsetof(kernel_periodic_capture_request<16>, provider_count) == 8);
static_assert(offsetof(kernel_periodic_capture_request<16>, providers) == 12);
static_assert(offsetof(kernel_binary_tracking_request, enable) == 4);
static_assert(offsetof(kernel_context_register_request, register_types) == 0x10);

// ETW_PMC_COUNTER_OWNERSHIP_STATUS and ETW_PMC_SESSION_INFO (classes 25 and 27): pmc_views.hpp.

namespace detail {

/// What an operation came to: a broken rule (checked here) or the kernel's status.
struct outcome {
    rule broken = rule::ok;
    std::int32_t status = 0;

    constexpr bool ok() const noexcept { return broken == rule::ok && status >= 0; }
    /// The Win32 code, as SECHOST returns it (RtlNtStatusToDosError for kernel failures).
    constexpr std::uint32_t win32() const noexcept {
        if (broken != rule::ok) return win32_error_of(broken);
        return status < 0 ? nt_status_to_win32(status) : win32::success;
    }
    /// The error_code the typed layer returns: rule_category or ntstatus_category, never mixed.
    /// A template so that a header that never asks for it carries no error-category code.
    template <class T = void>
    std::error_code code() const noexcept {
        if (broken != rule::ok) return failed(make_error_code<T>(broken));
        return status < 0 ? failed(ntstatus_error_code<T>(status)) : no_error<T>();
    }
};

constexpr outcome broke(rule r) noexcept { return {r, 0}; }
constexpr outcome kernel_said(std::int32_t s) noexcept { return {rule::ok, s}; }

} // namespace detail
ETWCTL_END_NAMESPACE
