// etwctl/request/current_windows.hpp - the kernel requests of the information classes later Windows
// releases added (TRACE_INFO_CLASS 16-28), byte for byte, and their limits.
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
// Class 17 (TracePeriodicCaptureStateInfo) is not here: its caller-side output is public, the kernel
// request is not (docs/choices.md).
#pragma once

#include <cstddef>
#include <cstdint>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/request/layouts.hpp"

ETWCTL_BEGIN_NAMESPACE

/// EVENT_TRACE_INFORMATION_CLASS values past the ones kernel/concept.hpp names (phnt ntexapi.h).
namespace kernel_class {
inline constexpr auto stack_caching = event_trace_information_class::stack_caching; // 0x10
inline constexpr auto last_branch_configuration = static_cast<event_trace_information_class>(0x13);
inline constexpr auto last_branch_event_list = static_cast<event_trace_information_class>(0x14);
inline constexpr auto unified_stack_caching = static_cast<event_trace_information_class>(0x1A);
inline constexpr auto context_register = static_cast<event_trace_information_class>(0x1B);
} // namespace kernel_class

/// NtTraceControl codes of the newer classes (phnt ntwmi.h ETWTRACECONTROLCODE).
namespace trace_control {
inline constexpr std::uint32_t periodic_capture_state = 0x25;
inline constexpr std::uint32_t provider_binary_tracking = 0x29;
inline constexpr std::uint32_t max_loggers = 0x2A;
inline constexpr std::uint32_t max_pmc_counters = 0x2B;
inline constexpr std::uint32_t stream_count = 0x2C;
inline constexpr std::uint32_t pmc_counter_owners = 0x2D;
inline constexpr std::uint32_t pmc_session_information = 0x2E;
} // namespace trace_control

/// Limits of the newer classes (SDK evntrace.h; kernel listings for the stack-cache clamps).
namespace limits {
inline constexpr std::size_t max_periodic_capture_providers = 16;
inline constexpr std::size_t max_lbr_events = 4; ///< TRACE_LBR_MAXIMUM_EVENTS
inline constexpr std::size_t max_context_register_events = 8; ///< ETW_MAX_CONTEXT_REGISTER_EVENTS
inline constexpr std::uint32_t stack_cache_min_bytes = 3U * 1024 * 1024;
inline constexpr std::uint32_t stack_cache_max_bytes = 50U * 1024 * 1024;
inline constexpr std::uint32_t stack_cache_min_buckets = 256;
inline constexpr std::uint32_t stack_cache_max_buckets = 4096;
} // namespace limits

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

/// ETW_CONTEXT_REGISTER_TYPES: the kernel accepts only both (3).
namespace context_registers {
inline constexpr std::uint32_t control = 0x1;
inline constexpr std::uint32_t integer = 0x2;
inline constexpr std::uint32_t both = control | integer;
} // namespace context_registers

/// ETW_PMC_COUNTER_OWNER_TYPE.
enum class pmc_owner_type : std::uint32_t {
    free = 0,
    untagged = 1,
    tagged = 2,
    tagged_with_source = 3,
};

// ---- the requests ----------------------------------------------------------------------------------

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
    kernel_request_header header{static_cast<std::uint32_t>(kernel_class::last_branch_configuration), 0, 0};
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
    kernel_request_header header{static_cast<std::uint32_t>(kernel_class::context_register), 0, 0};
    std::uint32_t register_types = context_registers::both;
    std::uint32_t hooks[limits::max_context_register_events] = {};
    static constexpr std::uint32_t length_for(std::size_t n) noexcept { return static_cast<std::uint32_t>(0x14 + 4 * n); }
};
static_assert(offsetof(kernel_context_register_request, hooks) == 0x14);

/// ETW_PMC_COUNTER_OWNERSHIP_STATUS head and one ETW_PMC_COUNTER_OWNER.
inline constexpr std::size_t pmc_owners_head_size = 8;
inline constexpr std::size_t pmc_owner_record_size = 12;
/// ETW_PMC_SESSION_INFO head.
inline constexpr std::size_t pmc_session_head_size = 16;

ETWCTL_END_NAMESPACE
