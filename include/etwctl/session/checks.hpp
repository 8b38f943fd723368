// SPDX-License-Identifier: MIT
// etwctl/session/checks.hpp - Windows' documented checks of a session's properties, as constexpr
// functions returning the rule they break (rule::ok when none). One source of truth: the drop-in
// functions (session/compat.hpp) read the facts out of a caller's raw block and call these; the typed
// configuration calls the same functions, at compile time where its values are constants; the
// simulated kernel applies the kernel's share of them.
//
// Two layers check a StartTrace: sechost (Win32 codes directly) and the kernel (STATUS_INVALID_PARAMETER,
// so ERROR_INVALID_PARAMETER). Both are here, each rule says whose it is. Sources (K unless marked):
//  - StartTraceW: https://learn.microsoft.com/en-us/windows/win32/api/evntrace/nf-evntrace-starttracew;
//    ControlTraceW: .../nf-evntrace-controltracew; QueryAllTracesW: .../nf-evntrace-queryalltracesw;
//    EVENT_TRACE_PROPERTIES(_V2): .../ns-evntrace-event_trace_properties(_v2); the Logging Mode Constants
//    page https://learn.microsoft.com/en-us/windows/win32/etw/logging-mode-constants;
//  - sechost's StartTrace: Geoff Chappell,
//    https://www.geoffchappell.com/studies/windows/win32/advapi32/api/etw/logapi/starttrace.htm; the
//    kernel's LogFileMode validation: https://www.geoffchappell.com/studies/windows/km/ntoskrnl/api/etw/traceapi/wmi_logger_information/logfilemode.htm;
//  - what real Windows returns, observed by Wine's conformance test (dlls/advapi32/tests/eventlog.c,
//    test_start_trace, run on Windows Vista and later).
// Where etwctl builds on an inference rather than a documented fact, the comment says "inferred".
//
// The order of the checks, where one input breaks several rules, is etwctl's choice (docs/choices.md):
// arguments, block size, names, offsets and room, reserved GUID, V2 filters, LogFileMode, NEWFILE's
// pattern, destination, Wnode.Flags.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/session/layouts.hpp"

ETWCTL_BEGIN_NAMESPACE

// ---- names -----------------------------------------------------------------------------------------

/// Session names compare case-insensitively (StartTraceW: "case-insensitive, must be unique"). etwctl
/// folds ASCII letters only; other characters compare exactly (docs/choices.md).
template <class A, class B>
constexpr bool session_names_equal(std::basic_string_view<A> a, std::basic_string_view<B> b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        auto x = static_cast<std::uint32_t>(static_cast<std::make_unsigned_t<A>>(a[i]));
        auto y = static_cast<std::uint32_t>(static_cast<std::make_unsigned_t<B>>(b[i]));
        if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
        if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
        if (x != y) return false;
    }
    return true;
}

/// Which reserved session a name or GUID is (evntrace.h, phnt ntwmi.h).
enum class reserved_session : std::uint8_t {
    none,
    nt_kernel_logger,               ///< "NT Kernel Logger" / SystemTraceControlGuid
    circular_kernel_context_logger, ///< "Circular Kernel Context Logger" / CKCLGuid
    global_logger,                  ///< "GlobalLogger" / GlobalLoggerGuid
};

template <class Char>
constexpr reserved_session reserved_session_of_name(std::basic_string_view<Char> name) noexcept {
    if (session_names_equal(name, session_names::kernel_logger)) return reserved_session::nt_kernel_logger;
    if (session_names_equal(name, session_names::circular_kernel_context_logger))
        return reserved_session::circular_kernel_context_logger;
    if (session_names_equal(name, session_names::global_logger)) return reserved_session::global_logger;
    return reserved_session::none;
}
constexpr reserved_session reserved_session_of_guid(guid const& g) noexcept {
    if (g == session_guids::system_trace_control) return reserved_session::nt_kernel_logger;
    if (g == session_guids::circular_kernel_context_logger) return reserved_session::circular_kernel_context_logger;
    if (g == session_guids::global_logger) return reserved_session::global_logger;
    return reserved_session::none;
}

/// StartTrace's InstanceName: NULL, empty or longer than 1024 characters -> session_name_invalid
/// (ERROR_INVALID_NAME; Chappell's StartTrace for NULL / empty / too long, the StartTraceW page for 1024).
constexpr rule check_session_name(bool present, std::size_t length) noexcept {
    if (!present || length == 0 || length > limits::max_session_name_length) return rule::session_name_invalid;
    return rule::ok;
}

/// Wnode.Guid = SystemTraceControlGuid names the NT Kernel Logger: any other name is
/// ERROR_INVALID_PARAMETER (StartTraceW and ControlTraceW pages; Wine's test: "wine" -> 87).
template <class Char>
constexpr rule check_kernel_logger_guid(guid const& session_guid, std::basic_string_view<Char> name) noexcept {
    if (session_guid == session_guids::system_trace_control && !session_names_equal(name, session_names::kernel_logger))
        return rule::session_kernel_logger_guid;
    return rule::ok;
}

/// EVENT_TRACE_FILE_MODE_NEWFILE: the log-file name must hold exactly one '%' and it must be followed by
/// 'd' (Chappell's StartTrace, sechost 5.2+: ERROR_INVALID_NAME). `at(i)` gives the i-th character.
template <class At>
constexpr rule check_newfile_pattern(std::uint32_t mode, std::size_t length, At at) noexcept {
    if ((mode & log_file_mode::newfile) == 0) return rule::ok;
    std::size_t percents = 0;
    bool followed_by_d = false;
    for (std::size_t i = 0; i < length; ++i)
        if (at(i) == u'%') {
            ++percents;
            followed_by_d = i + 1 < length && at(i + 1) == u'd';
        }
    return percents == 1 && followed_by_d ? rule::ok : rule::session_newfile_needs_percent_d;
}
/// The same over a name of any character type.
template <class Char>
constexpr rule check_newfile_name(std::uint32_t mode, std::basic_string_view<Char> log_file) noexcept {
    return check_newfile_pattern(mode, log_file.size(), [log_file](std::size_t i) {
        return static_cast<char16_t>(static_cast<std::make_unsigned_t<Char>>(log_file[i]));
    });
}

// ---- the block: size, offsets, room, flags, V2 ---------------------------------------------------

/// Wnode.BufferSize against the structure: < sizeof(EVENT_TRACE_PROPERTIES) (0x78) -> ERROR_BAD_LENGTH
/// (Chappell's StartTrace; Wine's test: 0 -> ERROR_BAD_LENGTH on Vista and later). With
/// WNODE_FLAG_VERSIONED_PROPERTIES, < sizeof(EVENT_TRACE_PROPERTIES_V2) -> ERROR_BAD_LENGTH (inferred:
/// a reimplementation of sechost; etwctl applies it because the V2 fields would lie outside the block).
constexpr rule check_properties_size(std::uint32_t buffer_size, std::uint32_t wnode_flags) noexcept {
    if (buffer_size < sizeof(event_trace_properties)) return rule::session_properties_too_small;
    if ((wnode_flags & wnode_flag::versioned_properties) != 0 && buffer_size < sizeof(event_trace_properties_v2))
        return rule::session_v2_too_small;
    return rule::ok;
}

/// A non-zero LoggerNameOffset / LogFileNameOffset must lie in [sizeof(EVENT_TRACE_PROPERTIES),
/// Wnode.BufferSize), else ERROR_INVALID_PARAMETER (Chappell's StartTrace and EVENT_TRACE_PROPERTIES;
/// Wine's test: either offset = 1 -> 87). 0 means "no such name".
constexpr rule check_name_offsets(std::uint32_t buffer_size, std::uint32_t logger_name_offset,
                                  std::uint32_t log_file_name_offset) noexcept {
    auto const bad = [buffer_size](std::uint32_t off) {
        return off != 0 && (off < sizeof(event_trace_properties) || off >= buffer_size);
    };
    return bad(logger_name_offset) || bad(log_file_name_offset) ? rule::session_name_offset : rule::ok;
}

/// The room the names need inside the block (StartTrace copies the session name to LoggerNameOffset;
/// the log-file name is the caller's). `unit` is the size of a character (2, or 1 for the A forms);
/// lengths are in characters without the NUL; `log_file_terminated` says whether the log-file name
/// ends with a NUL inside the block. ERROR_BAD_LENGTH when the session name and its NUL do not fit
/// after LoggerNameOffset (Chappell's StartTrace; Wine's test: a longer InstanceName than the space
/// reserved -> 24), when the log-file name runs to the end of the block without a NUL (etwctl: Windows
/// would read past the block; docs/choices.md), or when the copy of the session name would overwrite
/// the log-file name (inferred from Chappell's "room for the log-file name as given and a copy of the
/// session name").
constexpr rule check_name_room(std::uint32_t buffer_size, std::uint32_t unit, std::uint32_t logger_name_offset,
                               std::size_t name_length, std::uint32_t log_file_name_offset, bool log_file_terminated,
                               std::size_t log_file_length) noexcept {
    if (log_file_name_offset != 0 && !log_file_terminated) return rule::session_name_no_room;
    if (logger_name_offset == 0) return rule::ok; // "in principle" allowed: nothing is copied
    std::uint64_t const name_end = std::uint64_t{logger_name_offset} + std::uint64_t{unit} * (name_length + 1);
    if (name_end > buffer_size) return rule::session_name_no_room;
    if (log_file_name_offset != 0) {
        std::uint64_t const file_end = std::uint64_t{log_file_name_offset} + std::uint64_t{unit} * (log_file_length + 1);
        if (logger_name_offset < file_end && log_file_name_offset < name_end) return rule::session_name_no_room;
    }
    return rule::ok;
}

/// Wnode.Flags must contain WNODE_FLAG_TRACED_GUID (the WNODE_HEADER page; the kernel refuses a start
/// without it with STATUS_INVALID_PARAMETER, Chappell's NtTraceControl). Checked for StartTrace.
constexpr rule check_wnode_flags(std::uint32_t wnode_flags) noexcept {
    return (wnode_flags & wnode_flag::traced_guid) != 0 ? rule::ok : rule::session_wnode_flags;
}

/// EVENT_TRACE_PROPERTIES_V2 (with WNODE_FLAG_VERSIONED_PROPERTIES): FilterDescCount and FilterDesc are
/// both zero or both non-zero, else ERROR_INVALID_PARAMETER (inferred: a reimplementation of sechost).
constexpr rule check_v2_filters(std::uint32_t wnode_flags, std::uint32_t filter_desc_count, bool filter_desc_present) noexcept {
    if ((wnode_flags & wnode_flag::versioned_properties) == 0) return rule::ok;
    return (filter_desc_count != 0) == filter_desc_present ? rule::ok : rule::session_v2_filters_mismatch;
}

/// EnableFlags with EVENT_TRACE_FLAG_EXTENSION (0x80000000): the low 16 bits are the extension's offset
/// from the start of the block, bits 16-23 its length in ULONGs (0xFF: the item format, whose header
/// gives the length: `item_format_length` in ULONGs, 0 when unknown). A malformed extension is
/// ERROR_INVALID_PARAMETER (Chappell's StartTrace); etwctl's test of "malformed" (inferred): the
/// extension lies after the structure, is not empty and ends inside Wnode.BufferSize.
constexpr rule check_enable_flags_extension(std::uint32_t enable_flags, std::uint32_t buffer_size,
                                            std::uint32_t item_format_length = 0) noexcept {
    if ((enable_flags & 0x80000000U) == 0) return rule::ok;
    std::uint32_t const offset = enable_flags & 0xFFFFU;
    std::uint32_t length = (enable_flags >> 16) & 0xFFU;
    if (length == 0xFF) length = item_format_length;
    if (offset < sizeof(event_trace_properties) || length == 0 ||
        std::uint64_t{offset} + 4ULL * length > buffer_size)
        return rule::session_enable_flags_extension;
    return rule::ok;
}

// ---- LogFileMode --------------------------------------------------------------------------------------

/// Two LogFileMode bits that exclude each other, and whose check it is.
struct log_file_mode_exclusion {
    std::uint32_t first;
    std::uint32_t second;
    bool kernel; ///< the kernel's check (else sechost's, or both)
};

/// The pairs StartTrace or the kernel refuse with ERROR_INVALID_PARAMETER (Chappell's StartTrace and
/// LogFileMode pages; the Logging Mode Constants page; Wine's test for SEQUENTIAL + CIRCULAR).
inline constexpr log_file_mode_exclusion log_file_mode_exclusions[] = {
    {log_file_mode::sequential, log_file_mode::circular, false},
    {log_file_mode::circular, log_file_mode::append, false},
    {log_file_mode::circular, log_file_mode::newfile, false},
    {log_file_mode::circular, log_file_mode::relog, false},
    {log_file_mode::append, log_file_mode::real_time, false},
    {log_file_mode::append, log_file_mode::relog, false},
    {log_file_mode::append, log_file_mode::preallocate, true},
    {log_file_mode::append, log_file_mode::buffering, true},
    {log_file_mode::append, log_file_mode::newfile, true},
    {log_file_mode::newfile, log_file_mode::preallocate, false},
    {log_file_mode::newfile, log_file_mode::relog, false},
    {log_file_mode::newfile, log_file_mode::buffering, true},
    {log_file_mode::real_time, log_file_mode::private_logger, false},
    {log_file_mode::add_header, log_file_mode::real_time, false},
    {log_file_mode::buffering, log_file_mode::sequential, true},
    {log_file_mode::buffering, log_file_mode::circular, true},
    {log_file_mode::buffering, log_file_mode::buffer_interface, true},
    {log_file_mode::use_global_sequence, log_file_mode::use_local_sequence, true},
    {log_file_mode::stop_on_hybrid_shutdown, log_file_mode::persist_on_hybrid_shutdown, true},
};

/// The LogFileMode facts the mode rules read.
struct log_file_mode_facts {
    std::uint32_t mode = 0;
    std::uint32_t maximum_file_size = 0;
    bool has_log_file = false;         ///< LogFileNameOffset names a non-empty name
    bool system_logger_target = false; ///< a reserved system session by name or GUID (SYSTEM_LOGGER_MODE counts anyway)
};

/// What the mode check found: the rule and the bits involved (0 where none), for messages.
struct log_file_mode_finding {
    rule broken = rule::ok;
    std::uint32_t bit = 0;   ///< the mode bit at fault
    std::uint32_t other = 0; ///< the bit it conflicts with (conflicts only)
};

/// Every LogFileMode rule of StartTrace and of the kernel, in one place (sources above each step).
constexpr log_file_mode_finding diagnose_log_file_mode(log_file_mode_facts const& f) noexcept {
    std::uint32_t const m = f.mode;
    auto const has = [m](std::uint32_t bit) { return (m & bit) != 0; };
    // NONSTOPPABLE_MODE is for AutoLoggers: StartTrace refuses it always (Chappell, 6.0+).
    if (has(log_file_mode::nonstoppable)) return {rule::session_mode_not_allowed, log_file_mode::nonstoppable, 0};
    // RELOG_MODE and PRIVATE_IN_PROC need PRIVATE_LOGGER_MODE (Chappell's StartTrace; the kernel refuses RELOG
    // outright since 6.2, Chappell's LogFileMode page: a RELOG private logger is left to Windows).
    if (!has(log_file_mode::private_logger)) {
        if (has(log_file_mode::relog)) return {rule::session_mode_needs_private, log_file_mode::relog, 0};
        if (has(log_file_mode::private_in_proc)) return {rule::session_mode_needs_private, log_file_mode::private_in_proc, 0};
    }
    for (auto const& x : log_file_mode_exclusions)
        if (has(x.first) && has(x.second)) return {rule::session_log_file_mode_conflict, x.first, x.second};
    // CIRCULAR, NEWFILE, PREALLOCATE and USE_KBYTES_FOR_SIZE need MaximumFileSize (sechost 5.2+, kernel 6.2+).
    constexpr std::uint32_t sized[] = {log_file_mode::circular, log_file_mode::newfile, log_file_mode::preallocate,
                                       log_file_mode::use_kbytes_for_size};
    if (f.maximum_file_size == 0)
        for (std::uint32_t bit : sized)
            if (has(bit)) return {rule::session_mode_needs_maximum_file_size, bit, 0};
    // NEWFILE, PREALLOCATE and USE_KBYTES_FOR_SIZE need a log file (Chappell's StartTrace).
    constexpr std::uint32_t filed[] = {log_file_mode::newfile, log_file_mode::preallocate, log_file_mode::use_kbytes_for_size};
    if (!f.has_log_file)
        for (std::uint32_t bit : filed)
            if (has(bit)) return {rule::session_mode_needs_log_file, bit, 0};
    // BUFFERING keeps events in memory: no log file (Chappell's LogFileMode page; Logging Mode Constants).
    if (has(log_file_mode::buffering) && f.has_log_file) return {rule::session_mode_excludes_log_file, log_file_mode::buffering, 0};
    // System loggers (SYSTEM_LOGGER_MODE, the NT Kernel Logger, the CKCL): no NEWFILE (kernel 6.2+), no paged
    // memory (the StartTraceW page, Logging Mode Constants; the CKCL and GlobalLogger by GUID count as system
    // loggers: inferred from "the first two slots are the NT Kernel Logger's and the CKCL's").
    if (f.system_logger_target || has(log_file_mode::system_logger)) {
        if (has(log_file_mode::newfile)) return {rule::session_mode_system_logger, log_file_mode::newfile, 0};
        if (has(log_file_mode::use_paged_memory)) return {rule::session_mode_system_logger, log_file_mode::use_paged_memory, 0};
    }
    // COMPRESSED_MODE requires BUFFERING (kernel, 1607+).
    if (has(log_file_mode::compressed) && !has(log_file_mode::buffering))
        return {rule::session_mode_needs_buffering, log_file_mode::compressed, 0};
    // No real time, no buffering and no log file: ERROR_BAD_PATHNAME (StartTraceW: "Both LogFileMode and
    // LogFileNameOffset are zero"; Chappell; Wine's test: mode 0 without a file -> 161).
    if (!has(log_file_mode::real_time) && !has(log_file_mode::buffering) && !f.has_log_file)
        return {rule::session_no_destination, 0, 0};
    return {};
}

constexpr rule check_log_file_mode(log_file_mode_facts const& f) noexcept { return diagnose_log_file_mode(f).broken; }
constexpr rule check_log_file_mode(std::uint32_t mode, std::uint32_t maximum_file_size, bool has_log_file,
                                   bool system_logger_target) noexcept {
    return check_log_file_mode(log_file_mode_facts{mode, maximum_file_size, has_log_file, system_logger_target});
}

/// Whether a start makes a system logger: SYSTEM_LOGGER_MODE, or the reserved system sessions by name
/// or GUID (StartTraceW, "System Loggers").
constexpr bool is_system_logger_target(std::uint32_t mode, reserved_session by_name, reserved_session by_guid) noexcept {
    return (mode & log_file_mode::system_logger) != 0 || by_name != reserved_session::none || by_guid != reserved_session::none;
}

// ---- the whole start ----------------------------------------------------------------------------------

/// Everything StartTrace's checks read, as facts (compat reads them from the caller's block and names;
/// the typed configuration knows them from its own values).
struct start_facts {
    // the arguments
    bool handle_pointer_present = true;
    bool properties_present = true;
    // the block
    std::uint32_t buffer_size = 0; ///< Wnode.BufferSize
    std::uint32_t wnode_flags = 0;
    guid session_guid{};
    std::uint32_t log_file_mode = 0;
    std::uint32_t maximum_file_size = 0;
    std::uint32_t enable_flags = 0;
    std::uint32_t enable_flags_item_length = 0; ///< the extension's header length (item format), else 0
    std::uint32_t logger_name_offset = 0;
    std::uint32_t log_file_name_offset = 0;
    std::uint32_t filter_desc_count = 0;        ///< V2 only
    bool filter_desc_present = false;           ///< V2 only
    // the names
    std::uint32_t unit = 2;                     ///< bytes per character: 2, or 1 for the A forms
    bool name_present = false;
    std::size_t name_length = 0;
    reserved_session name_reserved = reserved_session::none;
    bool kernel_logger_guid_ok = true;          ///< check_kernel_logger_guid passed
    bool log_file_terminated = true;
    std::size_t log_file_length = 0;            ///< characters without the NUL
    bool newfile_pattern_ok = true;             ///< check_newfile_name passed
};

/// StartTrace's checks in order; the first broken rule, or rule::ok.
constexpr rule check_start(start_facts const& f) noexcept {
    // NULL Properties or SessionHandle: ERROR_INVALID_PARAMETER (StartTraceW; Wine's test).
    if (!f.properties_present || !f.handle_pointer_present) return rule::session_argument_null;
    if (auto r = check_properties_size(f.buffer_size, f.wnode_flags); r != rule::ok) return r;
    if (auto r = check_session_name(f.name_present, f.name_length); r != rule::ok) return r;
    if (auto r = check_name_offsets(f.buffer_size, f.logger_name_offset, f.log_file_name_offset); r != rule::ok) return r;
    if (auto r = check_name_room(f.buffer_size, f.unit, f.logger_name_offset, f.name_length, f.log_file_name_offset,
                                 f.log_file_terminated, f.log_file_length);
        r != rule::ok)
        return r;
    if (!f.kernel_logger_guid_ok) return rule::session_kernel_logger_guid;
    if (auto r = check_v2_filters(f.wnode_flags, f.filter_desc_count, f.filter_desc_present); r != rule::ok) return r;
    if (auto r = check_enable_flags_extension(f.enable_flags, f.buffer_size, f.enable_flags_item_length); r != rule::ok) return r;
    bool const has_log_file = f.log_file_name_offset != 0 && f.log_file_length != 0;
    bool const system_target = is_system_logger_target(f.log_file_mode, f.name_reserved, reserved_session_of_guid(f.session_guid));
    log_file_mode_facts const m{f.log_file_mode, f.maximum_file_size, has_log_file, system_target};
    auto const mode = check_log_file_mode(m);
    if (mode != rule::ok && mode != rule::session_no_destination) return mode;
    if (!f.newfile_pattern_ok) return rule::session_newfile_needs_percent_d;
    if (mode != rule::ok) return mode;
    return check_wnode_flags(f.wnode_flags);
}

// ---- ControlTrace, QueryAllTraces, EnableTraceEx2 ----------------------------------------------------

/// ControlTrace's checks of its arguments and the caller's block (ControlTraceW page): NULL Properties
/// -> 87; the block's size and offsets as for StartTrace; no name and no handle -> 87
/// (session_no_target); SystemTraceControlGuid with another name -> 87 (passed in as the result of
/// check_kernel_logger_guid for the name given).
constexpr rule check_control(bool properties_present, std::uint32_t buffer_size, std::uint32_t wnode_flags,
                             std::uint32_t logger_name_offset, std::uint32_t log_file_name_offset, bool name_given,
                             std::uint64_t handle, bool kernel_logger_guid_ok) noexcept {
    if (!properties_present) return rule::session_argument_null;
    if (auto r = check_properties_size(buffer_size, wnode_flags); r != rule::ok) return r;
    if (auto r = check_name_offsets(buffer_size, logger_name_offset, log_file_name_offset); r != rule::ok) return r;
    if (!name_given && handle == 0) return rule::session_no_target;
    if (!kernel_logger_guid_ok) return rule::session_kernel_logger_guid;
    return rule::ok;
}

/// The most loggers a Windows can be configured for (EtwMaxLoggers: 32..256; StartTraceW page).
inline constexpr std::uint32_t max_configurable_loggers = 256;

/// QueryAllTraces: a NULL array (or SessionCount pointer) -> 87; PropertyArrayCount 0, or above the
/// machine's maximum number of sessions -> 87 (QueryAllTracesW page). etwctl checks the bound no
/// Windows exceeds (256); the machine's own maximum is the kernel's to check.
constexpr rule check_query_all(bool array_present, std::uint32_t count, bool count_out_present) noexcept {
    if (!array_present || !count_out_present) return rule::session_argument_null;
    if (count == 0 || count > max_configurable_loggers) return rule::session_query_all_count;
    return rule::ok;
}

/// EnableTraceEx2: ProviderId NULL -> 87, TraceHandle 0 -> 87 (EnableTraceEx2 page).
constexpr rule check_enable(std::uint64_t handle, bool provider_present) noexcept {
    if (!provider_present) return rule::session_argument_null;
    if (handle == 0) return rule::session_handle_zero;
    return rule::ok;
}

/// ControlTrace(EVENT_TRACE_CONTROL_UPDATE) with a block whose LogFileMode has APPEND and whose
/// LogFileNameOffset names a new file: ERROR_INVALID_PARAMETER (inferred: a reimplementation of sechost).
/// What UPDATE may change at all (EnableFlags, FlushTimer, LogFileNameOffset, REAL_TIME on or off,
/// MaximumBuffers; for private loggers LogFileNameOffset and FlushTimer only; ControlTraceW and
/// "Updating an Event Tracing Session") is the kernel's to apply: the simulated kernel models it.
constexpr rule check_update(std::uint32_t log_file_mode, std::uint32_t log_file_name_offset) noexcept {
    if ((log_file_mode & log_file_mode::append) != 0 && log_file_name_offset != 0) return rule::session_update_append_file;
    return rule::ok;
}

/// One filter of EnableTraceEx2's parameters, as facts: its type, its Size, whether Ptr is set, and
/// the number of items it holds where the type counts them (PIDs: Size / 4; EVENT_ID and STACKWALK:
/// the Count field), else 0.
struct enable_filter_facts {
    std::uint32_t type = 0;
    std::uint32_t size = 0;
    bool data_present = false;
    std::uint32_t items = 0;
};

/// A filter against its documented limits (evntprov.h MAX_EVENT_FILTER_*; EnableTraceEx2 and
/// EVENT_FILTER_DESCRIPTOR pages): data present and non-empty; PID: whole ULONGs, at most 8;
/// EXECUTABLE_NAME, PACKAGE_ID, PACKAGE_APP_ID, SCHEMATIZED: at most 1024 bytes; PAYLOAD and EVENT_NAME:
/// at most 4096; EVENT_ID and STACKWALK: at most 64 ids and Size = 4 + 2 x Count; STACKWALK_LEVEL_KW:
/// Size = sizeof(EVENT_FILTER_LEVEL_KW). The limits are documented; the code Windows returns for a
/// filter beyond them is not, and etwctl answers ERROR_INVALID_PARAMETER, the code EnableTraceEx2
/// documents for bad parameters (docs/choices.md).
constexpr rule check_enable_filter(enable_filter_facts const& f) noexcept {
    if (!f.data_present || f.size == 0) return rule::session_enable_filter;
    switch (f.type) {
    case filter_type::pid:
        return f.size % 4 == 0 && f.size / 4 <= limits::max_event_filter_pids ? rule::ok : rule::session_enable_filter;
    case filter_type::executable_name:
    case filter_type::package_id:
    case filter_type::package_app_id:
    case filter_type::schematized:
        return f.size <= limits::max_event_filter_data_size ? rule::ok : rule::session_enable_filter;
    case filter_type::payload:
        return f.size <= limits::max_event_filter_payload_size ? rule::ok : rule::session_enable_filter;
    case filter_type::event_name:
        return f.size <= limits::max_event_filter_event_name_size ? rule::ok : rule::session_enable_filter;
    case filter_type::event_id:
    case filter_type::stackwalk:
        return f.items >= 1 && f.items <= limits::max_event_filter_event_ids &&
                       f.size == sizeof(event_filter_event_id_header) + 2U * f.items
                   ? rule::ok
                   : rule::session_enable_filter;
    case filter_type::stackwalk_level_kw:
        return f.size == sizeof(event_filter_level_kw) ? rule::ok : rule::session_enable_filter;
    default:
        return rule::ok; // other types: no documented limit etwctl checks
    }
}

/// EnableTraceEx2's ControlCode and ENABLE_TRACE_PARAMETERS (evntrace.h; EnableTraceEx2 and
/// ENABLE_TRACE_PARAMETERS pages): the code is 0, 1 or 2 (session_enable_code); Version 1 or 2, a
/// FilterDescCount needs EnableFilterDesc, at most 13 filters (MAX_EVENT_FILTERS_COUNT) and each type
/// once per call (session_enable_parameters). Codes for these: etwctl's choice, ERROR_INVALID_PARAMETER.
constexpr rule check_enable_code(std::uint32_t code) noexcept {
    return code <= static_cast<std::uint32_t>(enable_code::capture_state) ? rule::ok : rule::session_enable_code;
}
constexpr rule check_enable_parameters(std::uint32_t version, std::uint32_t filter_desc_count, bool filter_desc_present) noexcept {
    if (version != enable_trace_parameters_version && version != enable_trace_parameters_version_1)
        return rule::session_enable_parameters;
    if (version == enable_trace_parameters_version_1) return rule::ok; // V1 has no FilterDescCount
    if (filter_desc_count != 0 && !filter_desc_present) return rule::session_enable_parameters;
    if (filter_desc_count > limits::max_event_filters) return rule::session_enable_parameters;
    return rule::ok;
}
/// Each filter type at most once per call.
template <class Types>
constexpr rule check_enable_filter_types(Types const& types, std::size_t count) noexcept {
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = i + 1; j < count; ++j)
            if (types[i] == types[j]) return rule::session_enable_parameters;
    return rule::ok;
}

// ---- documented limits Windows does not refuse (it clamps or ignores): the typed API refuses them ----------
// (No silent success: where Windows would change or drop a value, etwctl says so before the call. These are
// etwctl's rules over documented facts; compat passes such values on, as Windows takes them.)

/// EVENT_TRACE_PROPERTIES.BufferSize: 4 to 16384 KB (1024 before Windows 8) per the EVENT_TRACE_PROPERTIES
/// page; 0 lets ETW choose. Outside: session_buffer_size_out_of_range.
constexpr rule check_buffer_size(std::uint32_t kilobytes) noexcept {
    if (kilobytes == 0) return rule::ok;
    return kilobytes < limits::min_buffer_size_kb || kilobytes > limits::max_buffer_size_kb ? rule::session_buffer_size_out_of_range
                                                                                            : rule::ok;
}

/// EnableFlags select a system logger's kernel events; a user session ignores them (EVENT_TRACE_PROPERTIES
/// page): session_enable_flags_need_system_logger.
constexpr rule check_enable_flags_target(std::uint32_t enable_flags, bool system_logger_target) noexcept {
    return enable_flags != 0 && !system_logger_target ? rule::session_enable_flags_need_system_logger : rule::ok;
}

/// The log-file name: at most 1024 characters (EVENT_TRACE_PROPERTIES page): session_log_file_name_too_long.
constexpr rule check_log_file_name_length(std::size_t length) noexcept {
    return length > limits::max_log_file_name_length ? rule::session_log_file_name_too_long : rule::ok;
}

ETWCTL_END_NAMESPACE
