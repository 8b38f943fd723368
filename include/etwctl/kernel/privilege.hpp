// SPDX-License-Identifier: MIT
// etwctl/kernel/privilege.hpp - enabling SeSystemProfilePrivilege, which the kernel wants for sampling
// intervals, profile sources, PMC counters, PERF_PROFILE / PERF_PMC_PROFILE and context registers.
//
//   if (auto ec = etwctl::enable_system_profile_privilege(etwctl::native_kernel::instance())) log(etwctl::describe(ec));
//
// Administrators hold the privilege, disabled; a profiler enables it once at start (as xperf does).
// The kernel layer does it (kernel_with_privileges, kernel/concept.hpp): native_kernel with
// AdjustTokenPrivileges (detail/windows_syscalls.hpp, resolved at run time like every export),
// sim::kernel in its model, kernel_ref by forwarding. A kernel without the extension cannot.
#pragma once

#include <cstdint>
#include <system_error>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/status_codes.hpp"

ETWCTL_BEGIN_NAMESPACE

/// Enables SeSystemProfilePrivilege in the calling process's token. Errors (win32_category): 1300
/// ERROR_NOT_ALL_ASSIGNED when the token does not hold it (the process is not elevated); 50
/// ERROR_NOT_SUPPORTED when the kernel type cannot enable privileges; what OpenProcessToken /
/// AdjustTokenPrivileges report otherwise. describe() says what to do.
template <kernel K>
std::error_code enable_system_profile_privilege(K& k) noexcept {
    std::uint32_t e = win32::not_supported;
    if constexpr (kernel_with_privileges<K>) e = k.enable_system_profile_privilege();
    if (e == win32::success) return no_error<K>();
    std::error_code const ec = win32_error_code<K>(e);
    if (e == win32::not_all_assigned)
        return detail::fail(ec,
                            "SeSystemProfilePrivilege is not in this process's token, so it cannot be enabled: run "
                            "elevated (as administrator)",
                            "enable_system_profile_privilege");
    if (e == win32::not_supported)
        return detail::fail(ec, "{name}: this kernel has no way to enable a privilege (it does not offer "
                                "enable_system_profile_privilege())",
                            "enable_system_profile_privilege");
    return detail::fail(ec, "{name}: enabling SeSystemProfilePrivilege failed with Win32 error {value}",
                        "enable_system_profile_privilege", e);
}

ETWCTL_END_NAMESPACE
