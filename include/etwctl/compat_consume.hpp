// SPDX-License-Identifier: MIT
// etwctl/compat_consume.hpp - drop-in functions for Windows' consumer API, in namespace etwctl::compat:
// the kernel first, then Windows' own arguments in the SDK's own types, accepted without casts.
//
//   OpenTraceW(&logfile)                        ->  compat::open_trace(k, &logfile)
//   ProcessTrace(handles, count, start, end)    ->  compat::process_trace(k, handles, count, start, end)
//   CloseTrace(handle)                          ->  compat::close_trace(k, handle)
//
// The answers are Windows' (Microsoft Learn, "OpenTraceW", "ProcessTrace", "CloseTrace"): open_trace
// returns the PROCESSTRACE_HANDLE or INVALID_PROCESSTRACE_HANDLE (the Win32 code in *error when given;
// through native_kernel GetLastError holds it too, as after OpenTraceW); a NULL Logfile is
// ERROR_INVALID_PARAMETER; process_trace checks HandleArray and HandleCount as ProcessTrace documents
// (NULL array or 0 handles: ERROR_INVALID_PARAMETER; more than 64: ERROR_BAD_LENGTH) before the kernel
// sees them; StartTime / EndTime are the SDK's FILETIME (any struct with dwLowDateTime / dwHighDateTime)
// or NULL. The logfile is the SDK's EVENT_TRACE_LOGFILEW or etwctl's event_trace_logfilew_layout (the
// same layout: kernel/consumer_concept.hpp).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/kernel/consumer_concept.hpp"
#include "etwctl/status_codes.hpp"

ETWCTL_BEGIN_NAMESPACE

/// A type an EVENT_TRACE_LOGFILEW may be passed as: the SDK's struct (LogFileName, LoggerName, Context)
/// or etwctl's event_trace_logfilew_layout, of the same size.
template <class L>
concept logfile_w_block = !std::is_const_v<L> && sizeof(L) == sizeof(event_trace_logfilew_layout) &&
                          (std::same_as<L, event_trace_logfilew_layout> ||
                           requires(L& l) { l.LogFileName; l.LoggerName; l.Context; l.ProcessTraceMode; });

/// The SDK's FILETIME (two DWORDs, low first) or anything with those members.
template <class F>
concept filetime_like = requires(F const& f) { f.dwLowDateTime; f.dwHighDateTime; };

namespace compat {

/// ProcessTrace's documented limit on file handles (real time: exactly one).
inline constexpr std::uint32_t max_process_trace_handles = 64;

/// OpenTraceW.
template <consumer_kernel K, logfile_w_block L>
std::uint64_t open_trace(K& k, L* logfile, std::uint32_t* error = nullptr) noexcept {
    std::uint64_t h = invalid_processtrace_handle;
    std::uint32_t const e = logfile ? k.open_trace_w(logfile, &h) : win32::invalid_parameter;
    if (error) *error = e;
    return e == win32::success ? h : invalid_processtrace_handle;
}
template <consumer_kernel K>
std::uint64_t open_trace(K&, std::nullptr_t, std::uint32_t* error = nullptr) noexcept {
    if (error) *error = win32::invalid_parameter;
    return invalid_processtrace_handle;
}

/// ProcessTrace. `handles` is the SDK's PTRACEHANDLE (any 64-bit unsigned integer type) or NULL.
template <consumer_kernel K, class H, class F = std::nullptr_t, class G = std::nullptr_t>
    requires(std::unsigned_integral<H> && sizeof(H) == 8)
std::uint32_t process_trace(K& k, H* handles, std::uint32_t count, F start = nullptr, G end = nullptr) noexcept {
    if (!handles || count == 0) return win32::invalid_parameter;
    if (count > max_process_trace_handles) return 24; // ERROR_BAD_LENGTH (winerror.h)
    std::uint64_t copy[max_process_trace_handles];
    for (std::uint32_t i = 0; i < count; ++i) copy[i] = handles[i];
    std::uint64_t s = 0, e = 0;
    auto const time = [](auto p, std::uint64_t& out) -> std::uint64_t const* {
        using P = decltype(p);
        if constexpr (std::is_same_v<P, std::nullptr_t> || std::is_integral_v<P>) { // NULL, nullptr, 0
            return nullptr;
        } else {
            static_assert(std::is_pointer_v<P> && filetime_like<std::remove_cv_t<std::remove_pointer_t<P>>>,
                          "etwctl::compat::process_trace: StartTime / EndTime are FILETIME pointers or NULL");
            if (!p) return nullptr;
            out = (std::uint64_t{p->dwHighDateTime} << 32) | p->dwLowDateTime;
            return &out;
        }
    };
    return k.process_trace(copy, count, time(start, s), time(end, e));
}
template <consumer_kernel K, class F = std::nullptr_t, class G = std::nullptr_t>
std::uint32_t process_trace(K&, std::nullptr_t, std::uint32_t, F = nullptr, G = nullptr) noexcept {
    return win32::invalid_parameter;
}

/// CloseTrace. ERROR_CTX_CLOSE_PENDING (consumer_result::ctx_close_pending) is success.
template <consumer_kernel K>
std::uint32_t close_trace(K& k, std::uint64_t handle) noexcept {
    if (handle == 0 || handle == invalid_processtrace_handle) return win32::invalid_handle;
    return k.close_trace(handle);
}

} // namespace compat
ETWCTL_END_NAMESPACE
