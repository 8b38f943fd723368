// SPDX-License-Identifier: MIT
// etwctl/session/config.hpp - a session's configuration, as named and strongly typed settings, and the
// properties block StartTrace takes, built from it on the stack: EVENT_TRACE_PROPERTIES_V2 with the names
// inline (no offsets or sizes for the caller to compute, no heap).
//
//   constexpr auto config = etwctl::session_config::user("etwctl-demo")
//                               .real_time()
//                               .buffer(etwctl::buffer_size::kilobytes(256))
//                               .buffers(etwctl::minimum_buffers{16}, etwctl::maximum_buffers{64})
//                               .flush_timer(std::chrono::seconds{1});
//
// Every setting is checked against Windows' rules (session/checks.hpp: the same functions the drop-in
// StartTrace and the simulated kernel use) as soon as it is given. Where the configuration is a constant,
// a broken rule does not compile: the compiler names it (etwctl_session_configuration_breaks_rule<
// rule::session_log_file_mode_conflict>, ...). Otherwise the configuration remembers the first broken
// rule and start_session returns it, with a describe() message that names the rule, the values and the fix.
// Only "no destination" (neither real time, buffering nor a file) waits for the start: the destination
// may be given after the other settings.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <system_error>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/session/checks.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/session/text.hpp"

ETWCTL_BEGIN_NAMESPACE

// ---- strong types ------------------------------------------------------------------------------------------

/// EVENT_TRACE_PROPERTIES.BufferSize: the size of each buffer, in KB, as Windows reads the field. Made only
/// through kilobytes() / megabytes(), so a count of MB cannot land in the KB field (PerfView #2439).
class buffer_size {
public:
    static constexpr buffer_size kilobytes(std::uint32_t n) noexcept { return buffer_size{n}; }
    /// n MB (saturates: a size that does not fit is refused by the range check, not wrapped).
    static constexpr buffer_size megabytes(std::uint32_t n) noexcept {
        return buffer_size{n > 0xFFFFFFFFU / 1024 ? 0xFFFFFFFFU : n * 1024};
    }
    constexpr std::uint32_t in_kilobytes() const noexcept { return kb_; }
    friend constexpr bool operator==(buffer_size, buffer_size) noexcept = default;

private:
    constexpr explicit buffer_size(std::uint32_t kb) noexcept : kb_(kb) {}
    std::uint32_t kb_ = 0;
};

/// EVENT_TRACE_PROPERTIES.MaximumFileSize: the log file's limit. The block carries MB, or KB with
/// EVENT_TRACE_USE_KBYTES_FOR_SIZE: etwctl picks the unit (KB only when the size is not whole MB).
class file_size {
public:
    constexpr file_size() noexcept = default; ///< unlimited (0)
    static constexpr file_size kilobytes(std::uint32_t n) noexcept { return file_size{n}; }
    /// n MB, at most limits::max_file_size_megabytes (4,194,303): a larger n is kept as out_of_range(), and a
    /// configuration given it is refused (rule::session_setting_out_of_range), never saturated.
    static constexpr file_size megabytes(std::uint32_t n) noexcept {
        if (n > limits::max_file_size_megabytes) {
            file_size f;
            f.requested_mb_ = n;
            return f;
        }
        return file_size{n * 1024};
    }
    constexpr std::uint32_t in_kilobytes() const noexcept { return kb_; }
    /// Made from more MB than the KB value holds: in_kilobytes() is 0 and requested_megabytes() says what was asked.
    constexpr bool out_of_range() const noexcept { return requested_mb_ != 0; }
    constexpr std::uint32_t requested_megabytes() const noexcept { return requested_mb_; }
    constexpr bool unlimited() const noexcept { return kb_ == 0; }
    /// Whole MB: the field is MB; else KB with EVENT_TRACE_USE_KBYTES_FOR_SIZE.
    constexpr bool needs_kilobyte_unit() const noexcept { return kb_ % 1024 != 0; }
    constexpr std::uint32_t field_value() const noexcept { return needs_kilobyte_unit() ? kb_ : kb_ / 1024; }
    friend constexpr bool operator==(file_size, file_size) noexcept = default;

private:
    constexpr explicit file_size(std::uint32_t kb) noexcept : kb_(kb) {}
    std::uint32_t kb_ = 0;
    std::uint32_t requested_mb_ = 0; ///< non-zero only when out of range
};

/// EVENT_TRACE_PROPERTIES.MinimumBuffers / MaximumBuffers (0: ETW's default).
struct minimum_buffers {
    std::uint32_t count = 0;
    friend constexpr bool operator==(minimum_buffers, minimum_buffers) noexcept = default;
};
struct maximum_buffers {
    std::uint32_t count = 0;
    friend constexpr bool operator==(maximum_buffers, maximum_buffers) noexcept = default;
};

/// Which kind of session a configuration starts (fixed when the configuration is made).
enum class session_kind : std::uint8_t {
    user,             ///< a user-mode session: providers enabled with EnableTraceEx2
    system_logger,    ///< a private system logger (EVENT_TRACE_SYSTEM_LOGGER_MODE, Windows 8+): kernel events
    nt_kernel_logger, ///< the NT Kernel Logger (the singleton, SystemTraceControlGuid)
};

/// One numeric setting the configuration sends, for the report of what Windows changed (session.hpp).
enum class session_setting : std::uint8_t {
    buffer_size,
    minimum_buffers,
    maximum_buffers,
    maximum_file_size,
    flush_timer,
    clock,
    enable_flags,
    log_file_mode,
};
constexpr std::string_view session_setting_name(session_setting s) noexcept {
    switch (s) {
    case session_setting::buffer_size: return "BufferSize (KB)";
    case session_setting::minimum_buffers: return "MinimumBuffers";
    case session_setting::maximum_buffers: return "MaximumBuffers";
    case session_setting::maximum_file_size: return "MaximumFileSize";
    case session_setting::flush_timer: return "FlushTimer (s)";
    case session_setting::clock: return "ClientContext (clock)";
    case session_setting::enable_flags: return "EnableFlags";
    case session_setting::log_file_mode: return "LogFileMode";
    }
    return "";
}

// ---- the properties block ------------------------------------------------------------------------------------

/// EVENT_TRACE_PROPERTIES_V2 followed by room for a session name and a log-file name of 1024 characters
/// each (and their NULs): the block Microsoft documents for any session call, Wnode.BufferSize its
/// size, the offsets set. Built on the stack for each call (session.hpp never reuses one: a ControlTrace
/// writes the session's values back into the block it is given).
struct session_properties {
    event_trace_properties_v2 properties{};
    wide_char logger_name[limits::max_session_name_length + 1] = {};
    wide_char log_file_name[limits::max_log_file_name_length + 1] = {};
    wide_char spare[2] = {}; ///< keeps the size a multiple of 8 without padding bytes (every byte sent is set)

    static constexpr std::uint32_t size = static_cast<std::uint32_t>(sizeof(event_trace_properties_v2) + 2 * 2 * 1025 + 4);
    static constexpr std::uint32_t logger_name_offset = static_cast<std::uint32_t>(sizeof(event_trace_properties_v2));
    static constexpr std::uint32_t log_file_name_offset = logger_name_offset + 2 * 1025;

    /// A zeroed block for a control call (query, stop, flush, update, QueryAllTraces): BufferSize,
    /// both offsets, WNODE_FLAG_TRACED_GUID | WNODE_FLAG_VERSIONED_PROPERTIES and VersionNumber 2.
    static constexpr session_properties for_control() noexcept {
        session_properties p;
        p.properties.wnode.buffer_size = size;
        p.properties.wnode.flags = wnode_flag::traced_guid | wnode_flag::versioned_properties;
        p.properties.v2_control = event_trace_properties_version_2;
        p.properties.logger_name_offset = logger_name_offset;
        p.properties.log_file_name_offset = log_file_name_offset;
        return p;
    }

    void* data() noexcept { return this; }
    void const* data() const noexcept { return this; }

    /// The names as the block holds them (up to the first NUL, never past their arrays).
    constexpr wide_string_view name() const noexcept { return terminated(logger_name); }
    constexpr wide_string_view log_file() const noexcept { return terminated(log_file_name); }
    constexpr session_handle handle() const noexcept { return session_handle{properties.wnode.historical_context}; }

private:
    template <std::size_t N>
    static constexpr wide_string_view terminated(wide_char const (&a)[N]) noexcept {
        std::size_t n = 0;
        while (n < N && a[n] != wide_char{0}) ++n;
        return {a, n};
    }
};
static_assert(sizeof(session_properties) == session_properties::size, "etwctl: session_properties must have no padding");
static_assert(offsetof(session_properties, logger_name) == session_properties::logger_name_offset);
static_assert(offsetof(session_properties, log_file_name) == session_properties::log_file_name_offset);
static_assert(session_properties::size % 8 == 0);

// ---- the configuration ----------------------------------------------------------------------------------------

namespace diagnostic {
// Not constexpr on purpose: reached during constant evaluation only when a constant configuration breaks
// rule R, where the compiler reports the call and so names the rule.
template <rule R>
void etwctl_session_configuration_breaks_rule() noexcept {}
} // namespace diagnostic

namespace detail {
template <std::size_t... I>
constexpr void report_broken_configuration(rule r, std::index_sequence<I...>) noexcept {
    ((r == static_cast<rule>(I) ? diagnostic::etwctl_session_configuration_breaks_rule<static_cast<rule>(I)>() : void()), ...);
}
} // namespace detail

/// What a configuration found wrong: the rule, the mode bits involved and the values (for messages).
struct session_config_problem {
    rule broken = rule::ok;
    std::uint32_t bit = 0;   ///< the LogFileMode bit at fault (0: none)
    std::uint32_t other = 0; ///< the bit it conflicts with (session_setting_out_of_range: the session_setting)
    std::uint64_t value = 0; ///< the value at fault (a length, a size)
    std::uint64_t limit = 0; ///< its limit
};

class session_config {
public:
    constexpr session_config() noexcept = default;

    /// A user-mode session (providers are enabled on it with enable_provider).
    static constexpr session_config user(session_text name) noexcept { return session_config(session_kind::user, name); }
    /// A private system logger (EVENT_TRACE_SYSTEM_LOGGER_MODE, Windows 8+): kernel events, any name.
    static constexpr session_config system_logger(session_text name) noexcept {
        return session_config(session_kind::system_logger, name);
    }
    /// The NT Kernel Logger (the singleton): its reserved name and SystemTraceControlGuid.
    static constexpr session_config nt_kernel_logger() noexcept {
        session_config c(session_kind::nt_kernel_logger, session_text(session_names::kernel_logger));
        c.guid_ = session_guids::system_trace_control;
        return c.checked();
    }

    // -- destination: real time, a file, or in memory ------------------------------------------------------
    /// EVENT_TRACE_REAL_TIME_MODE: events go to real-time consumers (with a file too, if one is given).
    constexpr session_config real_time() const noexcept { return with_mode(log_file_mode::real_time); }
    /// EVENT_TRACE_BUFFERING_MODE: events stay in an in-memory ring (MinimumBuffers x BufferSize); no file.
    constexpr session_config buffering() const noexcept { return with_mode(log_file_mode::buffering); }
    /// EVENT_TRACE_FILE_MODE_SEQUENTIAL to `path`, stopping at `max` (default: unlimited).
    constexpr session_config file_sequential(session_text path, file_size max = {}) const noexcept {
        return with_file(log_file_mode::sequential, path, max);
    }
    /// EVENT_TRACE_FILE_MODE_CIRCULAR to `path`: the oldest events are overwritten past `max` (required).
    constexpr session_config file_circular(session_text path, file_size max) const noexcept {
        return with_file(log_file_mode::circular, path, max);
    }
    /// EVENT_TRACE_FILE_MODE_APPEND to an existing `path` (not with real time; Windows wants the
    /// system-time clock for correct time stamps: clock(clock_type::system_time)).
    constexpr session_config file_append(session_text path) const noexcept {
        return with_file(log_file_mode::append, path, file_size{});
    }
    /// EVENT_TRACE_FILE_MODE_NEWFILE: a new file each time `max` is reached; `path` holds one "%d".
    constexpr session_config file_newfile(session_text path, file_size max) const noexcept {
        return with_file(log_file_mode::newfile, path, max);
    }

    // -- buffers and timing -------------------------------------------------------------------------------
    constexpr session_config buffer(buffer_size size) const noexcept { return with(&session_config::buffer_kb_, size.in_kilobytes()); }
    constexpr session_config buffers(minimum_buffers minimum, maximum_buffers maximum) const noexcept {
        session_config c = *this;
        c.minimum_buffers_ = minimum.count;
        return c.with(&session_config::maximum_buffers_, maximum.count);
    }
    /// FlushTimer, in whole seconds (a std::chrono duration that is not whole seconds does not convert), 0 to
    /// 4294967295: outside, the configuration is refused (rule::session_setting_out_of_range), never saturated.
    constexpr session_config flush_timer(std::chrono::seconds every) const noexcept {
        auto const n = every.count();
        if (n < 0 || static_cast<std::uint64_t>(n) > limits::max_flush_timer_seconds) {
            session_config c = *this;
            if (c.problem_.broken == rule::ok)
                c.problem_ = {rule::session_setting_out_of_range, 0, static_cast<std::uint32_t>(session_setting::flush_timer),
                              static_cast<std::uint64_t>(n), limits::max_flush_timer_seconds};
            return c.checked();
        }
        return with(&session_config::flush_timer_s_, static_cast<std::uint32_t>(n));
    }
    /// Wnode.ClientContext: the time stamps' clock (default: QPC).
    constexpr session_config clock(clock_type t) const noexcept {
        // Not with(): clang 14 leaves with<clock_type> undefined in a constant expression once a run-time
        // use queued its instantiation (a constant configuration with .clock(...) did not compile).
        session_config c = *this;
        c.clock_ = t;
        return c.checked();
    }

    // -- options ---------------------------------------------------------------------------------------------
    /// EnableFlags (EVENT_TRACE_FLAG_*): the kernel events of a system logger (group masks beyond the first
    /// word: set<system_trace_enable_flags> on the started session). On a user session: refused.
    constexpr session_config enable_flags(std::uint32_t flags) const noexcept { return with(&session_config::enable_flags_, flags); }
    /// EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING: one set of buffers for all processors.
    constexpr session_config no_per_processor_buffering() const noexcept {
        return with_mode(log_file_mode::no_per_processor_buffering);
    }
    /// EVENT_TRACE_INDEPENDENT_SESSION_MODE (Windows 8.1+): a provider's write failure in another session
    /// does not fail this one.
    constexpr session_config independent() const noexcept { return with_mode(log_file_mode::independent_session); }
    /// EVENT_TRACE_USE_PAGED_MEMORY: buffers from paged pool (not for system loggers).
    constexpr session_config paged_memory() const noexcept { return with_mode(log_file_mode::use_paged_memory); }
    /// EVENT_TRACE_USE_GLOBAL_SEQUENCE / _LOCAL_SEQUENCE: sequence numbers on the events.
    constexpr session_config global_sequence() const noexcept { return with_mode(log_file_mode::use_global_sequence); }
    constexpr session_config local_sequence() const noexcept { return with_mode(log_file_mode::use_local_sequence); }
    /// EVENT_TRACE_FILE_MODE_PREALLOCATE: the file's maximum size is reserved at the start.
    constexpr session_config preallocate() const noexcept { return with_mode(log_file_mode::preallocate); }
    /// Wnode.Guid: the session's GUID (default 0: ETW makes one). Must be unique among running sessions.
    constexpr session_config session_guid(guid g) const noexcept { return with(&session_config::guid_, g); }
    /// FlushThreshold (Windows 8.1+): buffers filled before they are flushed.
    constexpr session_config flush_threshold(std::uint32_t buffers) const noexcept {
        return with(&session_config::flush_threshold_, buffers);
    }

    // -- what it is ---------------------------------------------------------------------------------------------
    constexpr session_kind kind() const noexcept { return kind_; }
    constexpr session_text name() const noexcept { return name_; }
    constexpr session_text log_file() const noexcept { return log_file_; }
    constexpr std::uint32_t log_file_mode_bits() const noexcept { return full_mode(); }
    constexpr std::uint32_t buffer_kilobytes() const noexcept { return buffer_kb_; }
    constexpr std::uint32_t minimum_buffer_count() const noexcept { return minimum_buffers_; }
    constexpr std::uint32_t maximum_buffer_count() const noexcept { return maximum_buffers_; }
    constexpr std::uint32_t flush_timer_seconds() const noexcept { return flush_timer_s_; }
    constexpr clock_type clock_kind() const noexcept { return clock_; }
    constexpr std::uint32_t enable_flag_bits() const noexcept { return enable_flags_; }
    constexpr file_size maximum_file_size() const noexcept { return max_file_; }
    constexpr guid session_guid_value() const noexcept { return guid_; }
    constexpr bool system_logger_target() const noexcept { return kind_ != session_kind::user; }

    /// The first rule the configuration breaks so far (rule::ok: none). "No destination" is reported by
    /// complete() only, since the destination may come last.
    constexpr session_config_problem const& problem() const noexcept { return problem_; }
    /// The whole check a start makes: problem(), then the destination.
    constexpr session_config_problem complete() const noexcept {
        if (problem_.broken != rule::ok) return problem_;
        auto const f = diagnose_log_file_mode(facts());
        if (f.broken != rule::ok) return {f.broken, f.bit, f.other, full_mode(), 0};
        return {};
    }

    /// The block StartTrace takes, or the rule the configuration breaks (complete()).
    constexpr rule build(session_properties& p) const noexcept {
        if (auto const c = complete(); c.broken != rule::ok) return c.broken;
        fill(p);
        return rule::ok;
    }

private:
    constexpr session_config(session_kind kind, session_text name) noexcept : kind_(kind), name_(name) {
        *this = checked();
    }

    constexpr std::uint32_t full_mode() const noexcept {
        std::uint32_t m = mode_;
        if (kind_ == session_kind::system_logger) m |= log_file_mode::system_logger;
        if (max_file_.needs_kilobyte_unit()) m |= log_file_mode::use_kbytes_for_size;
        return m;
    }
    constexpr log_file_mode_facts facts() const noexcept {
        return {full_mode(), max_file_.field_value(), !log_file_.empty(), system_logger_target()};
    }

    /// This configuration with one field set, checked: every setter is one of these.
    template <class T>
    constexpr session_config with(T session_config::*field, T value) const noexcept {
        session_config c = *this;
        c.*field = value;
        return c.checked();
    }
    constexpr session_config with_mode(std::uint32_t bit) const noexcept { return with(&session_config::mode_, mode_ | bit); }
    constexpr session_config with_file(std::uint32_t bit, session_text path, file_size max) const noexcept {
        session_config c = *this;
        c.mode_ = (c.mode_ & ~file_modes) | bit;
        c.log_file_ = path;
        c.max_file_ = max;
        return c.checked();
    }
    static constexpr std::uint32_t file_modes =
        log_file_mode::sequential | log_file_mode::circular | log_file_mode::append | log_file_mode::newfile;

    /// The configuration with its first problem recorded; in constant evaluation a problem does not compile.
    constexpr session_config checked() const noexcept {
        session_config c = *this;
        if (c.problem_.broken == rule::ok) c.problem_ = diagnose();
        if (c.problem_.broken != rule::ok && std::is_constant_evaluated())
            detail::report_broken_configuration(c.problem_.broken, std::make_index_sequence<static_cast<std::size_t>(rule::count_)>{});
        return c;
    }

    /// Every rule but "no destination", in the order StartTrace checks (session/checks.hpp).
    constexpr session_config_problem diagnose() const noexcept {
        std::size_t const name_length = name_.utf16_length();
        if (name_length == session_text::npos) return {rule::session_text_not_utf8, 0, 0, 0, 0};
        if (auto r = check_session_name(true, name_length); r != rule::ok)
            return {r, 0, 0, name_length, limits::max_session_name_length};
        std::size_t const file_length = log_file_.utf16_length();
        if (file_length == session_text::npos) return {rule::session_text_not_utf8, 0, 0, 0, 0};
        if (file_length > limits::max_log_file_name_length)
            return {rule::session_log_file_name_too_long, 0, 0, file_length, limits::max_log_file_name_length};
        if (kind_ == session_kind::user) {
            // SystemTraceControlGuid names the NT Kernel Logger: a user session may not take it.
            if (reserved_session_of_guid(guid_) == reserved_session::nt_kernel_logger)
                return {rule::session_kernel_logger_guid, 0, 0, 0, 0};
        }
        if (auto r = check_buffer_size(buffer_kb_); r != rule::ok)
            return {r, 0, 0, buffer_kb_, limits::max_buffer_size_kb};
        if (max_file_.out_of_range())
            return {rule::session_setting_out_of_range, 0, static_cast<std::uint32_t>(session_setting::maximum_file_size),
                    max_file_.requested_megabytes(), limits::max_file_size_megabytes};
        if (auto r = check_enable_flags_target(enable_flags_, system_logger_target()); r != rule::ok)
            return {r, 0, 0, enable_flags_, 0};
        auto const f = diagnose_log_file_mode(facts());
        if (f.broken != rule::ok && f.broken != rule::session_no_destination) return {f.broken, f.bit, f.other, full_mode(), 0};
        if ((full_mode() & log_file_mode::newfile) != 0) {
            wide_char path[limits::max_log_file_name_length + 1] = {};
            std::size_t const n = log_file_.copy_utf16(path, sizeof path / sizeof path[0]);
            if (auto r = check_newfile_name(full_mode(), wide_string_view(path, n)); r != rule::ok) return {r, 0, 0, 0, 0};
        }
        return {};
    }

    constexpr void fill(session_properties& p) const noexcept {
        p = session_properties::for_control();
        auto& e = p.properties;
        e.wnode.guid = guid_;
        e.wnode.client_context = static_cast<std::uint32_t>(clock_);
        e.buffer_size = buffer_kb_;
        e.minimum_buffers = minimum_buffers_;
        e.maximum_buffers = maximum_buffers_;
        e.maximum_file_size = max_file_.field_value();
        e.log_file_mode = full_mode();
        e.flush_timer = flush_timer_s_;
        e.enable_flags = enable_flags_;
        e.flush_threshold = static_cast<std::int32_t>(flush_threshold_);
        (void)name_.copy_utf16(p.logger_name, limits::max_session_name_length + 1);
        if (log_file_.empty()) e.log_file_name_offset = 0;
        else (void)log_file_.copy_utf16(p.log_file_name, limits::max_log_file_name_length + 1);
    }

    session_kind kind_ = session_kind::user;
    session_text name_{};
    session_text log_file_{};
    std::uint32_t mode_ = 0;
    std::uint32_t buffer_kb_ = 0;
    std::uint32_t minimum_buffers_ = 0;
    std::uint32_t maximum_buffers_ = 0;
    std::uint32_t flush_timer_s_ = 0;
    std::uint32_t enable_flags_ = 0;
    std::uint32_t flush_threshold_ = 0;
    clock_type clock_ = clock_type::qpc;
    file_size max_file_{};
    guid guid_{};
    session_config_problem problem_{};
};

// ---- run-time messages -------------------------------------------------------------------------------------

namespace detail {
/// The sentence for a configuration's problem: the rule's values and the fix (describe() fills them in).
constexpr std::string_view config_problem_text(rule r) noexcept {
    switch (r) {
    case rule::session_name_invalid:
        return "session configuration: the session name has {value} characters; Windows takes 1 to {high} "
               "(give a shorter name)";
    case rule::session_log_file_name_too_long:
        return "session configuration: the log-file path has {value} characters; Windows takes at most {high} "
               "(give a shorter path)";
    case rule::session_text_not_utf8:
        return "session configuration: a name or path given as char text is not valid UTF-8 (give it as UTF-8, "
               "or as UTF-16: u\"...\" / L\"...\")";
    case rule::session_kernel_logger_guid:
        return "session configuration: SystemTraceControlGuid belongs to the NT Kernel Logger (use "
               "session_config::nt_kernel_logger(), or another GUID)";
    case rule::session_buffer_size_out_of_range:
        return "session configuration: buffer size {value} KB; Windows takes {low} to {high} KB per buffer "
               "(buffer_size::kilobytes(n) or ::megabytes(n) within that range)";
    case rule::session_enable_flags_need_system_logger:
        return "session configuration: enable flags {hex} on a user session, where Windows ignores them (start a "
               "system logger: session_config::system_logger(name), or enable providers instead)";
    case rule::session_log_file_mode_conflict:
        return "session configuration: LogFileMode {hex} combines {name} with a mode it excludes (choose one: "
               "real time with a sequential or circular file, buffering without a file, append without real time)";
    case rule::session_mode_needs_maximum_file_size:
        return "session configuration: LogFileMode {hex}: {name} needs a maximum file size (give file_size::"
               "megabytes(n) with the file)";
    case rule::session_mode_system_logger:
        return "session configuration: LogFileMode {hex}: a system logger does not take {name} (use a sequential "
               "or circular file, non-paged buffers)";
    case rule::session_newfile_needs_percent_d:
        return "session configuration: a NEWFILE path must contain exactly one \"%d\" (the file's number), "
               "e.g. \"trace_%d.etl\"";
    case rule::session_no_destination:
        return "session configuration: no destination (add real_time(), buffering() or a file_...(path))";
    case rule::session_setting_out_of_range: // config_error picks the setting's own sentence
        return "session configuration: {name} {value} is out of range: at most {high}";
    default: // the mode rules the setters cannot reach (NONSTOPPABLE, RELOG, COMPRESSED are not offered)
        return "session configuration: LogFileMode {hex} breaks a rule of StartTrace (see the rule's text)";
    }
}
} // namespace detail

/// The error a configuration's problem is, with its context recorded for describe().
template <class = void>
std::error_code config_error(session_config_problem const& p) noexcept {
    std::string_view const bit_name = p.bit != 0 ? log_file_mode_name(p.bit) : std::string_view{};
    std::uint64_t const low = p.broken == rule::session_buffer_size_out_of_range ? limits::min_buffer_size_kb : 0;
    if (p.broken == rule::session_setting_out_of_range) {
        auto const s = static_cast<session_setting>(p.other);
        return detail::fail(make_error_code(p.broken),
                            s == session_setting::maximum_file_size
                                ? std::string_view("session configuration: {name} {value} MB is out of range: at most {high} MB")
                                : detail::config_problem_text(p.broken),
                            session_setting_name(s), p.value, 0, p.limit);
    }
    return detail::fail(make_error_code(p.broken), detail::config_problem_text(p.broken), bit_name, p.value, low, p.limit);
}

ETWCTL_END_NAMESPACE
