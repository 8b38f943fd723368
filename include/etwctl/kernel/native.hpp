// etwctl/kernel/native.hpp - etwctl::native_kernel, the kernel layer on Windows: the six calls of the
// kernel concept (kernel/concept.hpp) go to ntdll / advapi32 through detail/windows_syscalls.hpp, the
// one header that includes <windows.h>; the session calls (kernel/session_concept.hpp: StartTraceW,
// ControlTraceW, QueryAllTracesW, EnableTraceEx2 and the A forms) go to advapi32 the same way (a
// missing one is ERROR_PROC_NOT_FOUND), and current_process_id / process_alive to kernel32. Each export is resolved lazily and lock-free
// (detail/lazy_export.hpp); a missing one is STATUS_ENTRYPOINT_NOT_FOUND (ERROR_PROC_NOT_FOUND from
// EventSetInformation), never a load failure.
// Also here, on Windows only: the overloads of set / query / compat without a kernel argument.
// On other platforms this header declares nothing.
#pragma once

#if defined(_WIN32)

#include <cstdint>
#include <utility>

#include "etwctl/compat.hpp"
#include "etwctl/config.hpp"
#include "etwctl/detail/lazy_export.hpp"
#include "etwctl/detail/windows_syscalls.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/query.hpp"
#include "etwctl/session/compat.hpp"
#include "etwctl/set.hpp"
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
    std::uint32_t current_process_id() noexcept { return detail::win::current_process_id(); }
    bool process_alive(std::uint32_t pid) noexcept { return detail::win::process_alive(pid); }

    /// Whether the export exists in this process (resolves it if needed).
    bool available(kernel_function f) const noexcept {
        return const_cast<native_kernel*>(this)->address(f) != 0;
    }
    bool session_available(session_function f) const noexcept {
        return const_cast<native_kernel*>(this)->address(f) != 0;
    }

private:
    std::uintptr_t address(kernel_function f) noexcept {
        return exports_[static_cast<int>(f)].get([f]() noexcept { return detail::win::find_export(f); });
    }
    std::uintptr_t address(session_function f) noexcept {
        return session_exports_[static_cast<int>(f)].get([f]() noexcept { return detail::win::find_export(f); });
    }

    detail::lazy_export exports_[6];
    detail::lazy_export session_exports_[session_function_count];
};

static_assert(kernel<native_kernel>);
static_assert(kernel_with_availability<native_kernel>);
static_assert(session_kernel<native_kernel> && ansi_session_kernel<native_kernel> && orphan_session_kernel<native_kernel>);

// ---- overloads that use native_kernel ------------------------------------------------------------

template <info_tag C, class First, class... Args>
    requires(!kernel<std::remove_cvref_t<First>>)
[[nodiscard]] std::error_code set(First const& first, Args const&... args) noexcept {
    return set<C>(native_kernel::instance(), first, args...);
}
template <info_tag C>
[[nodiscard]] std::error_code set() noexcept {
    return set<C>(native_kernel::instance());
}

template <trace_info_tag C, class... Args>
    requires((sizeof...(Args) == 0) || (!kernel<std::remove_cvref_t<Args>> && ...))
[[nodiscard]] auto query(Args&&... args) noexcept {
    return query<C>(native_kernel::instance(), std::forward<Args>(args)...);
}

namespace compat {
inline std::uint32_t trace_set_information(std::uint64_t session, std::uint32_t information_class,
                                           void const* information, std::uint32_t length) noexcept {
    return trace_set_information(native_kernel::instance(), session, information_class, information, length);
}
inline std::uint32_t trace_query_information(std::uint64_t session, std::uint32_t information_class, void* information,
                                             std::uint32_t length, std::uint32_t* return_length) noexcept {
    return trace_query_information(native_kernel::instance(), session, information_class, information, length,
                                   return_length);
}
template <class ULong>
    requires(std::same_as<ULong, unsigned long> && sizeof(ULong) == 4 && !std::same_as<ULong, std::uint32_t>)
std::uint32_t trace_query_information(std::uint64_t session, std::uint32_t information_class, void* information,
                                      std::uint32_t length, ULong* return_length) noexcept {
    return trace_query_information(native_kernel::instance(), session, information_class, information, length,
                                   return_length);
}
template <event_set_information_policy P = default_event_set_information_policy>
std::int32_t tracelogging_set_information(std::uint64_t reg_handle, std::uint32_t information_class,
                                          void const* information, std::uint32_t length) noexcept {
    return tracelogging_set_information<P>(native_kernel::instance(), reg_handle, information_class, information, length);
}

// The session drop-in functions without the kernel argument (session/compat.hpp).
template <trace_handle_type H, properties_block P>
std::uint32_t start_trace(H* session_handle, wide_char const* instance_name, P* properties) noexcept {
    return start_trace(native_kernel::instance(), session_handle, instance_name, properties);
}
template <trace_handle_type H, properties_block P>
std::uint32_t start_trace_a(H* session_handle, char const* instance_name, P* properties) noexcept {
    return start_trace_a(native_kernel::instance(), session_handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t control_trace(std::uint64_t handle, wide_char const* instance_name, P* properties, std::uint32_t code) noexcept {
    return control_trace(native_kernel::instance(), handle, instance_name, properties, code);
}
template <properties_block P>
std::uint32_t control_trace_a(std::uint64_t handle, char const* instance_name, P* properties, std::uint32_t code) noexcept {
    return control_trace_a(native_kernel::instance(), handle, instance_name, properties, code);
}
template <properties_block P>
std::uint32_t stop_trace(std::uint64_t handle, wide_char const* instance_name, P* properties) noexcept {
    return stop_trace(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t stop_trace_a(std::uint64_t handle, char const* instance_name, P* properties) noexcept {
    return stop_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t query_trace(std::uint64_t handle, wide_char const* instance_name, P* properties) noexcept {
    return query_trace(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t query_trace_a(std::uint64_t handle, char const* instance_name, P* properties) noexcept {
    return query_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t update_trace(std::uint64_t handle, wide_char const* instance_name, P* properties) noexcept {
    return update_trace(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t update_trace_a(std::uint64_t handle, char const* instance_name, P* properties) noexcept {
    return update_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t flush_trace(std::uint64_t handle, wide_char const* instance_name, P* properties) noexcept {
    return flush_trace(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t flush_trace_a(std::uint64_t handle, char const* instance_name, P* properties) noexcept {
    return flush_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P, ulong_type U>
std::uint32_t query_all_traces(P** property_array, std::uint32_t count, U* session_count) noexcept {
    return query_all_traces(native_kernel::instance(), property_array, count, session_count);
}
template <properties_block P, ulong_type U>
std::uint32_t query_all_traces_a(P** property_array, std::uint32_t count, U* session_count) noexcept {
    return query_all_traces_a(native_kernel::instance(), property_array, count, session_count);
}
template <class G>
    requires(guid_like<G> || std::same_as<G, guid>)
std::uint32_t enable_trace_ex2(std::uint64_t trace_handle, G const* provider_id, std::uint32_t control_code, std::uint8_t level,
                               std::uint64_t match_any_keyword, std::uint64_t match_all_keyword, std::uint32_t timeout,
                               void const* enable_parameters) noexcept {
    return enable_trace_ex2(native_kernel::instance(), trace_handle, provider_id, control_code, level, match_any_keyword,
                            match_all_keyword, timeout, enable_parameters);
}
} // namespace compat

ETWCTL_END_NAMESPACE

#endif // _WIN32
