// User code that declares the NT functions itself at global scope, with its own (different but
// valid) parameter spellings, before and after etwctl. This only compiles because etwctl declares
// nothing at global scope (native_kernel uses its own function-pointer types).
#include <windows.h>
#include <winternl.h>
#include <evntrace.h>

extern "C" {
NTSYSAPI LONG NTAPI NtSetSystemInformation(INT SystemInformationClass, PVOID SystemInformation, ULONG Length);
NTSYSAPI LONG NTAPI NtQueryIntervalProfile(INT ProfileSource, PULONG Interval);
}

#include "etwctl/etwctl.hpp"

extern "C" {
NTSYSAPI LONG NTAPI NtSetIntervalProfile(ULONG Interval, INT Source);
NTSYSAPI LONG NTAPI NtTraceControl(ULONG FunctionCode, PVOID InBuffer, ULONG InBufferLen, PVOID OutBuffer,
                                   ULONG OutBufferLen, PULONG ReturnLength);
}

#include "win_common.inc"
#include "windows_includes.hpp"

int hygiene_nt_declarations() {
    // Mention the declarations without calling them (no static import is made).
    using set_fn = decltype(&NtSetSystemInformation);
    using query_fn = decltype(&NtQueryIntervalProfile);
    static_assert(!std::is_same_v<set_fn, query_fn>);
    return use_etwctl_with_sdk_types();
}
