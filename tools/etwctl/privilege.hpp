// Windows only: profiling needs SeSystemProfilePrivilege enabled in the token (held by administrators,
// off by default), as xperf enables it. Failure is not fatal: the kernel's refusal will say what is missing.
#pragma once

#include <windows.h>

namespace etwctl_tool {

inline void enable_profile_privilege() {
    HANDLE token = nullptr;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token)) return;
    TOKEN_PRIVILEGES tp{};
    tp.PrivilegeCount = 1;
    tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
    if (LookupPrivilegeValueW(nullptr, L"SeSystemProfilePrivilege", &tp.Privileges[0].Luid))
        AdjustTokenPrivileges(token, FALSE, &tp, sizeof tp, nullptr, nullptr);
    CloseHandle(token);
}

} // namespace etwctl_tool
