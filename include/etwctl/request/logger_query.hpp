// SPDX-License-Identifier: MIT
// etwctl/request/logger_query.hpp - a session by name: the trace-control query ControlTrace sends for
// EVENT_TRACE_CONTROL_QUERY, NtTraceControl(EtwQueryLoggerCode = 3) with a WMI_LOGGER_INFORMATION
// naming the logger; the kernel answers with the logger's TRACEHANDLE in Wnode.HistoricalContext.
//
// Sources: the ETWTRACECONTROLCODE values in phnt ntwmi.h (EtwQueryLoggerCode = 3) and Geoff Chappell's
// NtTraceControl page (https://www.geoffchappell.com/studies/windows/km/ntoskrnl/api/etw/traceapi/control/index.htm);
// the WMI_LOGGER_INFORMATION layout as phnt ntwmi.h declares it (WNODE_HEADER from the SDK's wmistr.h).
// The layout is declared with the ABI's own types, so 32- and 64-bit builds get their own offsets;
// the 64-bit offsets are checked below. Used by the etwctl tool (`-session NAME`) and modelled by the
// simulated kernel (testing/sim_kernel.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace logger_query {

/// NtTraceControl function code EtwQueryLoggerCode (phnt ntwmi.h).
inline constexpr std::uint32_t control_code = 0x03;
/// WNODE_FLAG_TRACED_GUID (SDK wmistr.h): the WNODE describes a trace session.
inline constexpr std::uint32_t wnode_flag_traced_guid = 0x00020000U;
/// The longest logger name etwctl sends (MAX_PATH-style bound; the SDK's examples use 1024).
inline constexpr std::size_t max_name_length = 1024;

struct unicode_string {
    std::uint16_t length;         ///< bytes, without a terminator
    std::uint16_t maximum_length; ///< bytes
    char16_t const* buffer;
};

struct wnode_header {
    std::uint32_t buffer_size;
    std::uint32_t provider_id;
    std::uint64_t historical_context; ///< out: the logger's TRACEHANDLE
    std::int64_t time_stamp;
    unsigned char guid[16];
    std::uint32_t client_context;
    std::uint32_t flags;
};

struct wmi_logger_information {
    wnode_header wnode;
    std::uint32_t buffer_size, minimum_buffers, maximum_buffers, maximum_file_size;
    std::uint32_t log_file_mode, flush_timer, enable_flags;
    std::int32_t age_limit;
    std::uint32_t wow;
    std::uint64_t log_file_handle;
    std::uint32_t number_of_buffers, free_buffers, events_lost, buffers_written, log_buffers_lost, real_time_buffers_lost;
    std::uint64_t logger_thread_id;
    unicode_string log_file_name;
    unicode_string logger_name;
    std::uint32_t real_time_consumer_count;
    std::uint32_t spare_ulong;
    std::uint64_t logger_extension;
};

#if UINTPTR_MAX > 0xFFFFFFFFU
static_assert(sizeof(wnode_header) == 0x30);
static_assert(offsetof(wmi_logger_information, log_file_handle) == 0x58);
static_assert(offsetof(wmi_logger_information, logger_name) == 0x90);
static_assert(sizeof(wmi_logger_information) == 0xB0);
#endif

/// Fills `info` (and `name16`, which its LoggerName points at) for a query of the named logger.
/// Names are ASCII here; false if the name is empty, too long or not ASCII.
inline bool encode(std::string_view name, wmi_logger_information& info, char16_t (&name16)[max_name_length]) noexcept {
    if (name.empty() || name.size() >= max_name_length) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        auto const c = static_cast<unsigned char>(name[i]);
        if (c == 0 || c >= 0x80) return false;
        name16[i] = static_cast<char16_t>(c);
    }
    name16[name.size()] = u'\0';
    std::memset(&info, 0, sizeof info);
    info.wnode.buffer_size = static_cast<std::uint32_t>(sizeof info);
    info.wnode.flags = wnode_flag_traced_guid;
    info.logger_name.length = static_cast<std::uint16_t>(2 * name.size());
    info.logger_name.maximum_length = static_cast<std::uint16_t>(2 * (name.size() + 1));
    info.logger_name.buffer = name16;
    return true;
}

} // namespace logger_query

/// The TRACEHANDLE of the running session called `name` (e.g. "My Session"), through the trace-control
/// query. Errors: rule::parse_empty_name for an empty, too long or non-ASCII name (nothing sent);
/// otherwise the kernel's status (STATUS_WMI_INSTANCE_NOT_FOUND: no such session). A success that
/// does not deliver a handle (ReturnLength short of Wnode.HistoricalContext, or a handle of 0, which
/// as a logger id would name the NT Kernel Logger) is rule::kernel_reply_malformed, never a handle.
template <kernel K>
result<session_handle> find_session(K& k, std::string_view name) noexcept {
    logger_query::wmi_logger_information info;
    char16_t name16[logger_query::max_name_length];
    if (!logger_query::encode(name, info, name16)) return rule::parse_empty_name;
    std::uint32_t returned = 0;
    auto const size = static_cast<std::uint32_t>(sizeof info);
    std::int32_t const s = k.nt_trace_control(logger_query::control_code, &info, size, &info, size, &returned);
    if (s < 0) return detail::failed(ntstatus_error_code(s));
    constexpr std::size_t handle_end = offsetof(logger_query::wnode_header, historical_context) + sizeof(std::uint64_t);
    if (returned < handle_end || returned > size || info.wnode.historical_context == 0)
        return detail::fail(make_error_code(rule::kernel_reply_malformed),
                            "{name}: the kernel reported success but returned {value} bytes and no TRACEHANDLE (a "
                            "handle of 0 would mean the NT Kernel Logger); nothing was trusted",
                            "find_session", returned);
    return session_handle{info.wnode.historical_context};
}

ETWCTL_END_NAMESPACE
