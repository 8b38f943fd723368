// SPDX-License-Identifier: MIT
// etwctl/kernel/session_concept.hpp - the kernel layer for ETW sessions: a concept of its own beside the
// six calls of kernel/concept.hpp, so a kernel double written for those six keeps compiling.
//
// The line is Windows' documented session API: StartTraceW, ControlTraceW, QueryAllTracesW and
// EnableTraceEx2 (advapi32 / sechost), and optionally the ANSI forms StartTraceA, ControlTraceA,
// QueryAllTracesA. Each member has the Windows function's arguments and returns its Win32 code (why this
// line and not NtTraceControl: docs/choices.md). `props` is the caller's whole properties block
// (EVENT_TRACE_PROPERTIES or _V2, then the names), described only by its Wnode.BufferSize; `array` is
// QueryAllTraces' array of pointers to such blocks. Names are 16-bit units (`wide_char`) or, for the A
// forms, bytes.
//
// Implementations: etwctl::native_kernel (Windows: the exports, resolved lazily), etwctl::sim::kernel
// (the simulated kernel's session model), or a user's own double.
#pragma once

#include <concepts>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"

ETWCTL_BEGIN_NAMESPACE

/// The 16-bit unit of the SDK's WCHAR: wchar_t where it is 16 bits (Windows), else char16_t.
using wide_char = std::conditional_t<sizeof(wchar_t) == 2, wchar_t, char16_t>;
/// A view of a 16-bit name.
using wide_string_view = std::basic_string_view<wide_char>;

/// A kernel for sessions: the four documented calls, each returning its Win32 code.
///  - start_trace_w(handle_out, name, props): StartTraceW(PTRACEHANDLE, LPCWSTR, PEVENT_TRACE_PROPERTIES)
///  - control_trace_w(handle, name, props, code): ControlTraceW(TRACEHANDLE, LPCWSTR, PEVENT_TRACE_PROPERTIES, ULONG)
///  - query_all_traces_w(array, count, sessions_out): QueryAllTracesW(PEVENT_TRACE_PROPERTIES*, ULONG, PULONG)
///  - enable_trace_ex2(handle, provider, code, level, any, all, timeout, params):
///    EnableTraceEx2(TRACEHANDLE, LPCGUID, ULONG, UCHAR, ULONGLONG, ULONGLONG, ULONG, PENABLE_TRACE_PARAMETERS)
template <class K>
concept session_kernel = requires(K& k, std::uint64_t* ph, std::uint64_t h, wide_char const* wname, void* props,
                                  void** array, std::uint32_t u, std::uint32_t* pu, guid const* g, std::uint8_t level,
                                  std::uint64_t kw, void const* params) {
    { k.start_trace_w(ph, wname, props) } -> std::same_as<std::uint32_t>;
    { k.control_trace_w(h, wname, props, u) } -> std::same_as<std::uint32_t>;
    { k.query_all_traces_w(array, u, pu) } -> std::same_as<std::uint32_t>;
    { k.enable_trace_ex2(h, g, u, level, kw, kw, u, params) } -> std::same_as<std::uint32_t>;
};

/// Optional extension: the ANSI forms (names are CHAR; native_kernel calls StartTraceA & co., the
/// simulated kernel widens the name and writes CHAR names back).
template <class K>
concept ansi_session_kernel = session_kernel<K> && requires(K& k, std::uint64_t* ph, std::uint64_t h, char const* aname,
                                                            void* props, void** array, std::uint32_t u, std::uint32_t* pu) {
    { k.start_trace_a(ph, aname, props) } -> std::same_as<std::uint32_t>;
    { k.control_trace_a(h, aname, props, u) } -> std::same_as<std::uint32_t>;
    { k.query_all_traces_a(array, u, pu) } -> std::same_as<std::uint32_t>;
};

/// Optional extension for orphan handling: this process's id and whether another process still runs
/// (native: GetCurrentProcessId; OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION) + GetExitCodeProcess
/// == STILL_ACTIVE).
template <class K>
concept orphan_session_kernel = session_kernel<K> && requires(K& k, std::uint32_t pid) {
    { k.current_process_id() } -> std::same_as<std::uint32_t>;
    { k.process_alive(pid) } -> std::same_as<bool>;
};

/// The session calls, named (for records, availability and messages).
enum class session_function : std::uint8_t {
    start_trace_w,
    control_trace_w,
    query_all_traces_w,
    enable_trace_ex2,
    start_trace_a,
    control_trace_a,
    query_all_traces_a,
};
inline constexpr std::size_t session_function_count = 7;

/// The export each call is ("StartTraceW", ...). NUL-terminated.
constexpr std::string_view session_function_name(session_function f) noexcept {
    switch (f) {
    case session_function::start_trace_w: return "StartTraceW";
    case session_function::control_trace_w: return "ControlTraceW";
    case session_function::query_all_traces_w: return "QueryAllTracesW";
    case session_function::enable_trace_ex2: return "EnableTraceEx2";
    case session_function::start_trace_a: return "StartTraceA";
    case session_function::control_trace_a: return "ControlTraceA";
    case session_function::query_all_traces_a: return "QueryAllTracesA";
    }
    return "";
}

ETWCTL_END_NAMESPACE
