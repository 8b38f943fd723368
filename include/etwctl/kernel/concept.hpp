// SPDX-License-Identifier: MIT
// etwctl/kernel/concept.hpp - the thin kernel layer: the six calls etwctl makes, as a concept.
//
// Anything with these six members is a kernel: etwctl::native_kernel (Windows: ntdll/advapi32),
// etwctl::sim::kernel (the simulated kernel), or a user's own test double. Nothing else is required.
// NTSTATUS is std::int32_t, Win32 errors are std::uint32_t.
// Also here: the kernel-side constants every layer shares (the SystemInformationClass, the kernel's
// EVENT_TRACE_INFORMATION_CLASS values, the NtTraceControl function codes).
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>

#include "etwctl/config.hpp"

ETWCTL_BEGIN_NAMESPACE

template <class K>
concept kernel = requires(K& k, void const* in, void* out, std::uint32_t u, std::uint32_t* pu, std::uint64_t h) {
    { k.nt_set_system_information(u, in, u) } -> std::same_as<std::int32_t>;
    { k.nt_query_system_information(u, out, u, pu) } -> std::same_as<std::int32_t>;
    { k.nt_set_interval_profile(u, u) } -> std::same_as<std::int32_t>;
    { k.nt_query_interval_profile(u, pu) } -> std::same_as<std::int32_t>;
    { k.nt_trace_control(u, in, u, out, u, pu) } -> std::same_as<std::int32_t>;
    { k.event_set_information(h, u, in, u) } -> std::same_as<std::uint32_t>;
};

/// The six calls, named (for records, availability and error messages).
enum class kernel_function : std::uint8_t {
    nt_set_system_information,
    nt_query_system_information,
    nt_set_interval_profile,
    nt_query_interval_profile,
    nt_trace_control,
    event_set_information,
};

/// The export each call is (ntdll's Nt* functions, advapi32's EventSetInformation). NUL-terminated.
constexpr std::string_view kernel_function_name(kernel_function f) noexcept {
    switch (f) {
    case kernel_function::nt_set_system_information: return "NtSetSystemInformation";
    case kernel_function::nt_query_system_information: return "NtQuerySystemInformation";
    case kernel_function::nt_set_interval_profile: return "NtSetIntervalProfile";
    case kernel_function::nt_query_interval_profile: return "NtQueryIntervalProfile";
    case kernel_function::nt_trace_control: return "NtTraceControl";
    case kernel_function::event_set_information: return "EventSetInformation";
    }
    return "";
}

/// Optional extension a kernel may offer: whether an export exists (native_kernel resolves exports at
/// run time; the simulated kernel can pretend one is missing, as Wine lacks NtQueryIntervalProfile).
template <class K>
concept kernel_with_availability = kernel<K> && requires(K const& k, kernel_function f) {
    { k.available(f) } -> std::same_as<bool>;
};

template <kernel K>
constexpr bool is_available(K const& k, kernel_function f) noexcept {
    if constexpr (kernel_with_availability<K>) return k.available(f);
    else return true;
}

/// Optional extension a kernel may offer: enabling SeSystemProfilePrivilege in the caller's token
/// (what profiling needs; held by administrators, off by default). Returns a Win32 code: 0 when it is
/// enabled, ERROR_NOT_ALL_ASSIGNED (1300) when the token does not hold it (not elevated).
/// native_kernel does it with AdjustTokenPrivileges; sim::kernel models it. kernel/privilege.hpp has
/// the function to call: enable_system_profile_privilege(k).
template <class K>
concept kernel_with_privileges = kernel<K> && requires(K& k) {
    { k.enable_system_profile_privilege() } -> std::same_as<std::uint32_t>;
};

/// SYSTEM_INFORMATION_CLASS SystemPerformanceTraceInformation: the one class every ETW request uses.
inline constexpr std::uint32_t system_performance_trace_information = 0x1F;

/// EVENT_TRACE_INFORMATION_CLASS: the first dword of every SystemPerformanceTraceInformation buffer.
enum class event_trace_information_class : std::uint32_t {
    kernel_version = 0x00,
    group_mask = 0x01,
    performance = 0x02,
    time_profile = 0x03,
    session_security = 0x04,
    spinlock = 0x05,
    stack_tracing = 0x06,
    executive_resource = 0x07,
    heap_tracing = 0x08,
    heap_summary_tracing = 0x09,
    pool_tag_filter = 0x0A,
    pebs_tracing = 0x0B,
    profile_config = 0x0C,
    profile_source_list = 0x0D,
    profile_event_list = 0x0E,
    profile_counter_list = 0x0F,
    stack_caching = 0x10,
    object_type_filter = 0x11,
    soft_restart = 0x12,
    last_branch_configuration = 0x13, ///< Windows 10 1709 and later
    last_branch_event_list = 0x14,
    profile_source_add = 0x15,        ///< Windows 10 1803 and later (custom hardware counters)
    profile_source_remove = 0x16,
    unified_stack_caching = 0x1A,     ///< Windows 10 21H1 and later
    context_register = 0x1B,          ///< Windows 11 24H2 and later
};

/// NtTraceControl function codes etwctl (and the simulated ntdll/kernel) use (phnt ntwmi.h ETWTRACECONTROLCODE;
/// https://www.geoffchappell.com/studies/windows/km/ntoskrnl/api/etw/traceapi/control/index.htm).
namespace trace_control {
inline constexpr std::uint32_t track_binary = 0x1A;
inline constexpr std::uint32_t update_disallow_list = 0x1C;
inline constexpr std::uint32_t set_provider_traits = 0x1E;
inline constexpr std::uint32_t use_descriptor_type = 0x1F;
inline constexpr std::uint32_t get_disallow_list = 0x22;
// The codes of the TRACE_INFO_CLASS values later releases added (16-28).
inline constexpr std::uint32_t periodic_capture_state = 0x25;
inline constexpr std::uint32_t provider_binary_tracking = 0x29;
inline constexpr std::uint32_t max_loggers = 0x2A;
inline constexpr std::uint32_t max_pmc_counters = 0x2B;
inline constexpr std::uint32_t stream_count = 0x2C;
inline constexpr std::uint32_t pmc_counter_owners = 0x2D;
inline constexpr std::uint32_t pmc_session_information = 0x2E;
} // namespace trace_control

ETWCTL_END_NAMESPACE
