// What the Windows tests need to know about the host they run on. Wine is detected here, in tests
// only (ntdll exports wine_get_version under Wine); the library itself never asks.
#pragma once

#include <windows.h>

namespace etwctl_test {

inline HMODULE ntdll() noexcept { return ::GetModuleHandleW(L"ntdll.dll"); }

inline bool running_on_wine() noexcept {
    return ::GetProcAddress(ntdll(), "wine_get_version") != nullptr;
}

/// Whether an export exists, asked of the OS directly (the truth native_kernel::available must match).
inline bool has_export(wchar_t const* module, char const* name) noexcept {
    HMODULE m = ::GetModuleHandleW(module);
    if (!m) m = ::LoadLibraryW(module);
    return m && ::GetProcAddress(m, name) != nullptr;
}

} // namespace etwctl_test
