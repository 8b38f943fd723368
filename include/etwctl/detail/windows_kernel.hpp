// etwctl/detail/windows_kernel.hpp - THE kernel layer on Windows, and the only etwctl header that
// includes a Windows header. etwctl::native_kernel calls ntdll's NtSetSystemInformation,
// NtQuerySystemInformation, NtSetIntervalProfile, NtQueryIntervalProfile, NtTraceControl and
// advapi32's EventSetInformation, each resolved lazily with GetProcAddress: nothing is imported
// statically (Wine has no NtQueryIntervalProfile; a static import would abort when called), and a
// missing export is STATUS_ENTRYPOINT_NOT_FOUND (ERROR_PROC_NOT_FOUND from EventSetInformation).
// It defines no macros for the user (no NOMINMAX, WIN32_LEAN_AND_MEAN, UNICODE) and declares nothing
// at global scope. On other platforms this header is empty.
// Also here, on Windows only: the overloads of set / query / compat without a kernel argument.
#pragma once

#if defined(_WIN32)

#include <windows.h>

#include <cstdint>
#include <utility>

#include "etwctl/compat.hpp"
#include "etwctl/detail/lazy_export.hpp"
#include "etwctl/kernel.hpp"
#include "etwctl/query.hpp"
#include "etwctl/set.hpp"
#include "etwctl/status_codes.hpp"

namespace etwctl {

class native_kernel {
public:
    /// The process-wide instance (the exports are process-wide too).
    static native_kernel& instance() noexcept {
        static native_kernel k;
        return k;
    }

    std::int32_t nt_set_system_information(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept {
        using fn = LONG(NTAPI*)(ULONG, PVOID, ULONG);
        if (auto f = resolve<fn>(kernel_function::nt_set_system_information))
            return f(cls, const_cast<void*>(buffer), length); // the NT prototype takes PVOID; the kernel only reads
        return ntstatus::entrypoint_not_found;
    }
    std::int32_t nt_query_system_information(std::uint32_t cls, void* buffer, std::uint32_t length,
                                             std::uint32_t* return_length) noexcept {
        using fn = LONG(NTAPI*)(ULONG, PVOID, ULONG, PULONG);
        if (auto f = resolve<fn>(kernel_function::nt_query_system_information)) {
            ULONG returned = 0;
            LONG const s = f(cls, buffer, length, &returned);
            if (return_length) *return_length = returned;
            return s;
        }
        return ntstatus::entrypoint_not_found;
    }
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept {
        using fn = LONG(NTAPI*)(ULONG, ULONG);
        if (auto f = resolve<fn>(kernel_function::nt_set_interval_profile)) return f(interval, source);
        return ntstatus::entrypoint_not_found;
    }
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept {
        using fn = LONG(NTAPI*)(ULONG, PULONG);
        if (auto f = resolve<fn>(kernel_function::nt_query_interval_profile)) {
            ULONG value = 0;
            LONG const s = f(source, &value);
            if (interval) *interval = value;
            return s;
        }
        return ntstatus::entrypoint_not_found;
    }
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* return_length) noexcept {
        using fn = LONG(NTAPI*)(ULONG, PVOID, ULONG, PVOID, ULONG, PULONG);
        if (auto f = resolve<fn>(kernel_function::nt_trace_control)) {
            ULONG returned = 0;
            LONG const s = f(code, const_cast<void*>(in), in_length, out, out_length, &returned);
            if (return_length) *return_length = returned;
            return s;
        }
        return ntstatus::entrypoint_not_found;
    }
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* info, std::uint32_t length) noexcept {
        using fn = ULONG(WINAPI*)(ULONGLONG, int, PVOID, ULONG); // EVENT_INFO_CLASS is an int-sized enum
        if (auto f = resolve<fn>(kernel_function::event_set_information))
            return f(reg, static_cast<int>(cls), const_cast<void*>(info), length);
        return win32::proc_not_found;
    }

    /// Whether the export exists in this process (resolves it if needed).
    bool available(kernel_function f) const noexcept {
        return const_cast<native_kernel*>(this)->address(f) != 0;
    }

private:
    static HMODULE module_for(kernel_function f) noexcept {
        if (f != kernel_function::event_set_information) return ::GetModuleHandleW(L"ntdll.dll");
        if (HMODULE m = ::GetModuleHandleW(L"advapi32.dll")) return m;
        if (HMODULE m = ::LoadLibraryExW(L"advapi32.dll", nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32)) return m;
        return ::LoadLibraryW(L"advapi32.dll");
    }

    std::uintptr_t address(kernel_function f) noexcept {
        return exports_[static_cast<int>(f)].get([f]() noexcept -> std::uintptr_t {
            HMODULE const m = module_for(f);
            if (!m) return 0;
            return reinterpret_cast<std::uintptr_t>(::GetProcAddress(m, kernel_function_name(f).data()) /* NUL-terminated literal */);
        });
    }

    template <class Fn>
    Fn resolve(kernel_function f) noexcept {
        return reinterpret_cast<Fn>(address(f));
    }

    detail::lazy_export exports_[6];
};

static_assert(kernel<native_kernel>);
static_assert(kernel_with_availability<native_kernel>);

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

} // namespace etwctl

#endif // _WIN32
