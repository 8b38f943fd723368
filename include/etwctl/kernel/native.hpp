// SPDX-License-Identifier: MIT
// etwctl/kernel/native.hpp - etwctl::native_kernel, the kernel layer on Windows: the six calls of the
// kernel concept (kernel/concept.hpp) go to ntdll / advapi32 through detail/windows_syscalls.hpp, the
// one header that includes <windows.h>; the session calls (kernel/session_concept.hpp: StartTraceW,
// ControlTraceW, QueryAllTracesW, EnableTraceEx2 and the A forms) go to advapi32 the same way (a
// missing one is ERROR_PROC_NOT_FOUND), the consumer calls (kernel/consumer_concept.hpp: OpenTraceW,
// ProcessTrace, CloseTrace) likewise, and current_process_id / process_alive to kernel32. Each export is resolved lazily and lock-free
// (detail/lazy_export.hpp); a missing one is STATUS_ENTRYPOINT_NOT_FOUND (ERROR_PROC_NOT_FOUND from
// EventSetInformation), never a load failure.
// The overloads of set / query / compat without a kernel argument are one layer up, above the faces
// (default_kernel.hpp): the kernel layer includes no face. On other platforms this header declares nothing.
#pragma once

#if defined(_WIN32)

#include <cstdint>

#include "etwctl/config.hpp"
#include "etwctl/detail/lazy_export.hpp"
#include "etwctl/detail/windows_syscalls.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/consumer_concept.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/status_codes.hpp"

ETWCTL_BEGIN_NAMESPACE

class native_kernel {
public:
    /// The process-wide instance (the exports are process-wide too).
    static native_kernel& instance() noexcept {
        static native_kernel k;
        return k;
    }

    std::int32_t nt_set_system_information(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept {
        if (auto f = address(kernel_function::nt_set_system_information)) return detail::win::nt_set_system_information(f, cls, buffer, length);
        return ntstatus::entrypoint_not_found;
    }
    std::int32_t nt_query_system_information(std::uint32_t cls, void* buffer, std::uint32_t length,
                                             std::uint32_t* return_length) noexcept {
        if (auto f = address(kernel_function::nt_query_system_information))
            return detail::win::nt_query_system_information(f, cls, buffer, length, return_length);
        return ntstatus::entrypoint_not_found;
    }
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept {
        if (auto f = address(kernel_function::nt_set_interval_profile)) return detail::win::nt_set_interval_profile(f, interval, source);
        return ntstatus::entrypoint_not_found;
    }
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept {
        if (auto f = address(kernel_function::nt_query_interval_profile)) return detail::win::nt_query_interval_profile(f, source, interval);
        return ntstatus::entrypoint_not_found;
    }
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* return_length) noexcept {
        if (auto f = address(kernel_function::nt_trace_control))
            return detail::win::nt_trace_control(f, code, in, in_length, out, out_length, return_length);
        return ntstatus::entrypoint_not_found;
    }
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* info, std::uint32_t length) noexcept {
        if (auto f = address(kernel_function::event_set_information)) return detail::win::event_set_information(f, reg, cls, info, length);
        return win32::proc_not_found;
    }

    // ---- the session calls (session_kernel, ansi_session_kernel, orphan_session_kernel) --------------
    std::uint32_t start_trace_w(std::uint64_t* handle, wide_char const* name, void* props) noexcept {
        if (auto f = address(session_function::start_trace_w)) return detail::win::start_trace_w(f, handle, name, props);
        return win32::proc_not_found;
    }
    std::uint32_t start_trace_a(std::uint64_t* handle, char const* name, void* props) noexcept {
        if (auto f = address(session_function::start_trace_a)) return detail::win::start_trace_a(f, handle, name, props);
        return win32::proc_not_found;
    }
    std::uint32_t control_trace_w(std::uint64_t handle, wide_char const* name, void* props, std::uint32_t code) noexcept {
        if (auto f = address(session_function::control_trace_w)) return detail::win::control_trace_w(f, handle, name, props, code);
        return win32::proc_not_found;
    }
    std::uint32_t control_trace_a(std::uint64_t handle, char const* name, void* props, std::uint32_t code) noexcept {
        if (auto f = address(session_function::control_trace_a)) return detail::win::control_trace_a(f, handle, name, props, code);
        return win32::proc_not_found;
    }
    std::uint32_t query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept {
        if (auto f = address(session_function::query_all_traces_w)) return detail::win::query_all_traces(f, array, count, sessions);
        return win32::proc_not_found;
    }
    std::uint32_t query_all_traces_a(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept {
        if (auto f = address(session_function::query_all_traces_a)) return detail::win::query_all_traces(f, array, count, sessions);
        return win32::proc_not_found;
    }
    std::uint32_t enable_trace_ex2(std::uint64_t handle, guid const* provider, std::uint32_t code, std::uint8_t level,
                                   std::uint64_t match_any, std::uint64_t match_all, std::uint32_t timeout,
                                   void const* params) noexcept {
        if (auto f = address(session_function::enable_trace_ex2))
            return detail::win::enable_trace_ex2(f, handle, provider, code, level, match_any, match_all, timeout, params);
        return win32::proc_not_found;
    }
    // ---- the consumer calls (consumer_kernel) ------------------------------------------------------------
    std::uint32_t open_trace_w(void* logfile, std::uint64_t* handle) noexcept {
        if (auto f = address(consumer_function::open_trace_w)) return detail::win::open_trace_w(f, logfile, handle);
        *handle = invalid_processtrace_handle;
        return win32::proc_not_found;
    }
    std::uint32_t process_trace(std::uint64_t const* handles, std::uint32_t count, std::uint64_t const* start_time,
                                std::uint64_t const* end_time) noexcept {
        if (auto f = address(consumer_function::process_trace)) return detail::win::process_trace(f, handles, count, start_time, end_time);
        return win32::proc_not_found;
    }
    std::uint32_t close_trace(std::uint64_t handle) noexcept {
        if (auto f = address(consumer_function::close_trace)) return detail::win::close_trace(f, handle);
        return win32::proc_not_found;
    }
    /// The EventRecordCallback that calls F with each EVENT_RECORD (event_record_consumer_kernel: trace::consume).
    template <event_record_handler F>
    void* event_record_callback() noexcept {
        return detail::win::event_record_callback<F>();
    }
    bool consumer_available(consumer_function f) const noexcept {
        return const_cast<native_kernel*>(this)->address(f) != 0;
    }

    std::uint32_t current_process_id() noexcept { return detail::win::current_process_id(); }
    bool process_alive(std::uint32_t pid) noexcept { return detail::win::process_alive(pid); }

    /// Whether the export exists in this process (resolves it if needed).
    bool available(kernel_function f) const noexcept {
        return const_cast<native_kernel*>(this)->address(f) != 0;
    }
    bool session_available(session_function f) const noexcept {
        return const_cast<native_kernel*>(this)->address(f) != 0;
    }

    /// Enables SeSystemProfilePrivilege in the process token (kernel_with_privileges; call it through
    /// etwctl::enable_system_profile_privilege(k), kernel/privilege.hpp, for the error_code).
    std::uint32_t enable_system_profile_privilege() noexcept {
        return detail::win::enable_privilege(L"SeSystemProfilePrivilege");
    }

private:
    std::uintptr_t address(kernel_function f) noexcept {
        return exports_[static_cast<int>(f)].get([f]() noexcept { return detail::win::find_export(f); });
    }
    std::uintptr_t address(session_function f) noexcept {
        return session_exports_[static_cast<int>(f)].get([f]() noexcept { return detail::win::find_export(f); });
    }
    std::uintptr_t address(consumer_function f) noexcept {
        return consumer_exports_[static_cast<int>(f)].get([f]() noexcept { return detail::win::find_export(f); });
    }

    detail::lazy_export exports_[6];
    detail::lazy_export session_exports_[session_function_count];
    detail::lazy_export consumer_exports_[consumer_function_count];
};

static_assert(kernel<native_kernel>);
static_assert(kernel_with_availability<native_kernel>);
static_assert(session_kernel<native_kernel> && ansi_session_kernel<native_kernel> && orphan_session_kernel<native_kernel>);
static_assert(kernel_with_privileges<native_kernel>);
static_assert(consumer_kernel<native_kernel> && event_record_consumer_kernel<native_kernel>);

ETWCTL_END_NAMESPACE

#endif // _WIN32
