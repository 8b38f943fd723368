// SPDX-License-Identifier: MIT
// etwctl/detail/windows_syscalls.hpp - the one etwctl header that includes <windows.h>.
//
// The consumer functions (OpenTraceW, ProcessTrace, CloseTrace: advapi32, forwarded to sechost) likewise.
//
// The session functions (advapi32's StartTraceW, ControlTraceW, QueryAllTracesW, EnableTraceEx2 and the
// A forms, forwarded to sechost on current Windows) are resolved the same way: GetProcAddress on
// advapi32, on first use; a missing one is ERROR_PROC_NOT_FOUND. Their prototypes are spelt with the
// base types (TRACEHANDLE is ULONG64, the properties and parameters are passed as pointers), so no
// other SDK header is needed.
//
// The six exports etwctl calls (ntdll's NtSetSystemInformation, NtQuerySystemInformation,
// NtSetIntervalProfile, NtQueryIntervalProfile, NtTraceControl and advapi32's EventSetInformation) are
// resolved with GetProcAddress on first use: nothing is imported statically (Wine has no
// NtQueryIntervalProfile; a static import would abort the process when called). A missing export is
// STATUS_ENTRYPOINT_NOT_FOUND (ERROR_PROC_NOT_FOUND from EventSetInformation). Nothing here defines a
// macro for the user (no NOMINMAX, WIN32_LEAN_AND_MEAN, UNICODE) or declares anything at global scope.
// etwctl::native_kernel (kernel/native.hpp) is the public face; on other platforms this header is empty.
#pragma once

#if defined(_WIN32)

#include <windows.h>

#include <cstdint>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/consumer_concept.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/status_codes.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace detail::win {

/// advapi32, loaded from System32 if the process has not loaded it yet.
inline HMODULE advapi32() noexcept {
    HMODULE m = ::GetModuleHandleW(L"advapi32.dll");
    if (!m && !(m = ::LoadLibraryExW(L"advapi32.dll", nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32))) m = ::LoadLibraryW(L"advapi32.dll");
    return m;
}

/// The export's address in its module (ntdll, or advapi32 for EventSetInformation), or 0.
inline std::uintptr_t find_export(kernel_function f) noexcept {
    HMODULE const m = f != kernel_function::event_set_information ? ::GetModuleHandleW(L"ntdll.dll") : advapi32();
    if (!m) return 0;
    return reinterpret_cast<std::uintptr_t>(::GetProcAddress(m, kernel_function_name(f).data()) /* NUL-terminated literal */);
}
/// A session function's address in advapi32, or 0.
inline std::uintptr_t find_export(session_function f) noexcept {
    HMODULE const m = advapi32();
    if (!m) return 0;
    return reinterpret_cast<std::uintptr_t>(::GetProcAddress(m, session_function_name(f).data()) /* NUL-terminated literal */);
}

/// A consumer function's address in advapi32 (OpenTraceW, ProcessTrace, CloseTrace), or 0.
inline std::uintptr_t find_export(consumer_function f) noexcept {
    HMODULE const m = advapi32();
    if (!m) return 0;
    return reinterpret_cast<std::uintptr_t>(::GetProcAddress(m, consumer_function_name(f).data()) /* NUL-terminated literal */);
}

// One thunk per export: the address (non-zero) cast to the export's prototype and called.
inline std::int32_t nt_set_system_information(std::uintptr_t fn, std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept {
    using type = LONG(NTAPI*)(ULONG, PVOID, ULONG);
    return reinterpret_cast<type>(fn)(cls, const_cast<void*>(buffer), length); // PVOID in the NT prototype; the kernel only reads
}
inline std::int32_t nt_query_system_information(std::uintptr_t fn, std::uint32_t cls, void* buffer, std::uint32_t length,
                                                std::uint32_t* return_length) noexcept {
    using type = LONG(NTAPI*)(ULONG, PVOID, ULONG, PULONG);
    ULONG returned = 0;
    LONG const s = reinterpret_cast<type>(fn)(cls, buffer, length, &returned);
    if (return_length) *return_length = returned;
    return s;
}
inline std::int32_t nt_set_interval_profile(std::uintptr_t fn, std::uint32_t interval, std::uint32_t source) noexcept {
    using type = LONG(NTAPI*)(ULONG, ULONG);
    return reinterpret_cast<type>(fn)(interval, source);
}
inline std::int32_t nt_query_interval_profile(std::uintptr_t fn, std::uint32_t source, std::uint32_t* interval) noexcept {
    using type = LONG(NTAPI*)(ULONG, PULONG);
    ULONG value = 0;
    LONG const s = reinterpret_cast<type>(fn)(source, &value);
    if (interval) *interval = value;
    return s;
}
inline std::int32_t nt_trace_control(std::uintptr_t fn, std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                     std::uint32_t out_length, std::uint32_t* return_length) noexcept {
    using type = LONG(NTAPI*)(ULONG, PVOID, ULONG, PVOID, ULONG, PULONG);
    ULONG returned = 0;
    LONG const s = reinterpret_cast<type>(fn)(code, const_cast<void*>(in), in_length, out, out_length, &returned);
    if (return_length) *return_length = returned;
    return s;
}
inline std::uint32_t event_set_information(std::uintptr_t fn, std::uint64_t reg, std::uint32_t cls, void const* info,
                                           std::uint32_t length) noexcept {
    using type = ULONG(WINAPI*)(ULONGLONG, int, PVOID, ULONG); // EVENT_INFO_CLASS is an int-sized enum
    return reinterpret_cast<type>(fn)(reg, static_cast<int>(cls), const_cast<void*>(info), length);
}

// The session functions (evntrace.h prototypes; WMIAPI is WINAPI).
static_assert(std::is_same_v<std::uint64_t, ULONG64>, "TRACEHANDLE is ULONG64");
inline std::uint32_t start_trace_w(std::uintptr_t fn, std::uint64_t* handle, wchar_t const* name, void* props) noexcept {
    using type = ULONG(WINAPI*)(ULONG64*, LPCWSTR, void*);
    return reinterpret_cast<type>(fn)(handle, name, props); // std::uint64_t is ULONG64 here: the caller's pointer as is
}
inline std::uint32_t start_trace_a(std::uintptr_t fn, std::uint64_t* handle, char const* name, void* props) noexcept {
    using type = ULONG(WINAPI*)(ULONG64*, LPCSTR, void*);
    return reinterpret_cast<type>(fn)(handle, name, props); // std::uint64_t is ULONG64 here: the caller's pointer as is
}
inline std::uint32_t control_trace_w(std::uintptr_t fn, std::uint64_t handle, wchar_t const* name, void* props,
                                     std::uint32_t code) noexcept {
    using type = ULONG(WINAPI*)(ULONG64, LPCWSTR, void*, ULONG);
    return reinterpret_cast<type>(fn)(handle, name, props, code);
}
inline std::uint32_t control_trace_a(std::uintptr_t fn, std::uint64_t handle, char const* name, void* props,
                                     std::uint32_t code) noexcept {
    using type = ULONG(WINAPI*)(ULONG64, LPCSTR, void*, ULONG);
    return reinterpret_cast<type>(fn)(handle, name, props, code);
}
inline std::uint32_t query_all_traces(std::uintptr_t fn, void** array, std::uint32_t count, std::uint32_t* sessions) noexcept {
    using type = ULONG(WINAPI*)(void**, ULONG, PULONG); // the same for QueryAllTracesW and QueryAllTracesA
    ULONG n = 0;
    ULONG const e = reinterpret_cast<type>(fn)(array, count, sessions ? &n : nullptr);
    if (sessions) *sessions = n;
    return e;
}
inline std::uint32_t enable_trace_ex2(std::uintptr_t fn, std::uint64_t handle, void const* provider, std::uint32_t code,
                                      std::uint8_t level, std::uint64_t any, std::uint64_t all, std::uint32_t timeout,
                                      void const* params) noexcept {
    using type = ULONG(WINAPI*)(ULONG64, GUID const*, ULONG, UCHAR, ULONGLONG, ULONGLONG, ULONG, void*);
    return reinterpret_cast<type>(fn)(handle, static_cast<GUID const*>(provider), code, level, any, all, timeout,
                                      const_cast<void*>(params)); // PENABLE_TRACE_PARAMETERS: EnableTraceEx2 only reads it
}

// The consumer functions (evntrace.h prototypes: PROCESSTRACE_HANDLE is ULONG64, a TRACEHANDLE; the
// logfile is passed as a pointer; LPFILETIME points at two DWORDs, the low part first, which is the
// little-endian layout of a 64-bit FILETIME value).
static_assert(sizeof(FILETIME) == 8);
inline std::uint32_t open_trace_w(std::uintptr_t fn, void* logfile, std::uint64_t* handle) noexcept {
    using type = ULONG64(WINAPI*)(void*);
    ::SetLastError(0);
    ULONG64 const h = reinterpret_cast<type>(fn)(logfile);
    if (h == static_cast<ULONG64>(invalid_processtrace_handle)) {
        *handle = invalid_processtrace_handle;
        DWORD const e = ::GetLastError();
        return e != 0 ? e : win32::invalid_parameter; // "INVALID_PROCESSTRACE_HANDLE; GetLastError for more"
    }
    *handle = h;
    return win32::success;
}
inline std::uint32_t process_trace(std::uintptr_t fn, std::uint64_t const* handles, std::uint32_t count, std::uint64_t const* start,
                                   std::uint64_t const* end) noexcept {
    using type = ULONG(WINAPI*)(ULONG64*, ULONG, FILETIME*, FILETIME*);
    FILETIME s{}, e{};
    auto const to_filetime = [](std::uint64_t v, FILETIME& out) {
        out.dwLowDateTime = static_cast<DWORD>(v & 0xFFFFFFFFU);
        out.dwHighDateTime = static_cast<DWORD>(v >> 32);
        return &out;
    };
    return reinterpret_cast<type>(fn)(const_cast<ULONG64*>(handles), count, start ? to_filetime(*start, s) : nullptr,
                                      end ? to_filetime(*end, e) : nullptr); // ProcessTrace only reads the array
}
inline std::uint32_t close_trace(std::uintptr_t fn, std::uint64_t handle) noexcept {
    using type = ULONG(WINAPI*)(ULONG64);
    return reinterpret_cast<type>(fn)(handle);
}

/// EventRecordCallback (evntrace.h PEVENT_RECORD_CALLBACK: VOID WINAPI (PEVENT_RECORD)): calls F with the
/// record (its state in EVENT_RECORD.UserContext, which ProcessTrace sets from EVENT_TRACE_LOGFILEW.Context),
/// read as etwctl's event_record_layout, the SDK's layout (pinned in tests/windows against mingw-w64's
/// evntcons.h). A null record is ignored.
template <event_record_handler F>
inline VOID WINAPI event_record_entry(void* record) noexcept {
    if (record) F(*static_cast<event_record_layout const*>(record));
}
template <event_record_handler F>
inline void* event_record_callback() noexcept {
    using type = VOID(WINAPI*)(void*);
    type const f = &event_record_entry<F>;
    return reinterpret_cast<void*>(f);
}

inline std::uint32_t current_process_id() noexcept { return ::GetCurrentProcessId(); }
/// Whether a process runs: OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION) and GetExitCodeProcess ==
/// STILL_ACTIVE; a process this one may not open (ERROR_ACCESS_DENIED) exists, so it runs.
inline bool process_alive(std::uint32_t pid) noexcept {
    if (pid == 0) return false;
    HANDLE const h = ::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if (!h) return ::GetLastError() == ERROR_ACCESS_DENIED;
    DWORD code = 0;
    bool const alive = ::GetExitCodeProcess(h, &code) && code == STILL_ACTIVE;
    ::CloseHandle(h);
    return alive;
}
/// Enables a privilege (e.g. L"SeSystemProfilePrivilege") in the process token with
/// AdjustTokenPrivileges: 0, ERROR_NOT_ALL_ASSIGNED when the token does not hold it, the Win32 error of
/// the step that failed, or ERROR_PROC_NOT_FOUND. advapi32's functions are resolved at run time, as
/// every export etwctl calls (a program using etwctl links nothing).
inline std::uint32_t enable_privilege(wchar_t const* name) noexcept {
    HMODULE m = ::GetModuleHandleW(L"advapi32.dll");
    if (!m && !(m = ::LoadLibraryExW(L"advapi32.dll", nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32))) m = ::LoadLibraryW(L"advapi32.dll");
    if (!m) return ERROR_PROC_NOT_FOUND;
    using open_type = BOOL(WINAPI*)(HANDLE, DWORD, PHANDLE);
    using lookup_type = BOOL(WINAPI*)(LPCWSTR, LPCWSTR, PLUID);
    using adjust_type = BOOL(WINAPI*)(HANDLE, BOOL, PTOKEN_PRIVILEGES, DWORD, PTOKEN_PRIVILEGES, PDWORD);
    auto const open_token = reinterpret_cast<open_type>(reinterpret_cast<std::uintptr_t>(::GetProcAddress(m, "OpenProcessToken")));
    auto const lookup_value = reinterpret_cast<lookup_type>(reinterpret_cast<std::uintptr_t>(::GetProcAddress(m, "LookupPrivilegeValueW")));
    auto const adjust_privileges = reinterpret_cast<adjust_type>(reinterpret_cast<std::uintptr_t>(::GetProcAddress(m, "AdjustTokenPrivileges")));
    if (!open_token || !lookup_value || !adjust_privileges) return ERROR_PROC_NOT_FOUND;
    HANDLE token = nullptr;
    if (!open_token(::GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token)) return ::GetLastError();
    TOKEN_PRIVILEGES tp{};
    tp.PrivilegeCount = 1;
    tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
    DWORD e = ERROR_SUCCESS;
    if (!lookup_value(nullptr, name, &tp.Privileges[0].Luid)) e = ::GetLastError();
    else if (!adjust_privileges(token, FALSE, &tp, sizeof tp, nullptr, nullptr)) e = ::GetLastError();
    else e = ::GetLastError(); // success: ERROR_SUCCESS, or ERROR_NOT_ALL_ASSIGNED when the token lacks it
    ::CloseHandle(token);
    return e;
}

} // namespace detail::win
ETWCTL_END_NAMESPACE

#endif // _WIN32
