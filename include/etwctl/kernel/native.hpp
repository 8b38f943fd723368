// etwctl/kernel/native.hpp - etwctl::native_kernel, the kernel layer on Windows: the six calls of the
// kernel concept (kernel/concept.hpp) go to ntdll / advapi32 through detail/windows_syscalls.hpp, the
// one header that includes <windows.h>. Each export is resolved lazily and lock-free
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
#include "etwctl/query.hpp"
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

    /// Whether the export exists in this process (resolves it if needed).
    bool available(kernel_function f) const noexcept {
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

    detail::lazy_export exports_[6];
};

static_assert(kernel<native_kernel>);
static_assert(kernel_with_availability<native_kernel>);
static_assert(kernel_with_privileges<native_kernel>);

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
} // namespace compat

ETWCTL_END_NAMESPACE

#endif // _WIN32
