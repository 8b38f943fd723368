// SPDX-License-Identifier: MIT
// etwctl/session/session.hpp - sessions as objects: start one from a configuration and own it
// (trace_session: move-only, stops on scope exit unless released), or refer to one that runs
// (session_ref: attach by name or logger id, never stopped unless asked). Both query, flush, update and
// stop; stop returns the final statistics, and lost events are reported as their own condition.
//
//   auto s = etwctl::start_session(k, config);              // result<trace_session>
//   if (!s) return describe(s.error());
//   ... set<stack_tracing>(k, s->handle(), ...); enable_provider(*s, ...);
//   auto report = s->stop();                                // [[nodiscard]] stop_report
//   if (report.lost()) warn(describe(report.error));        // report.error == session_condition::events_lost
//
// Every call builds its own properties block on the stack (session_properties: the structure and room for
// two names of 1024 characters, as Microsoft documents for controlling a session): the start block is
// never reused, since ControlTrace writes the session's values back into the block it is given (the
// stop-then-reuse and UPDATE-overwrites bugs other controllers had). No heap.
//
// The kernel is held as a session_kernel_ref (session/kernel_ref.hpp): trace_session is a plain class, so
// it is a member or a std::optional<trace_session> without naming the kernel's type; the kernel must
// outlive the session object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/session/config.hpp"
#include "etwctl/session/kernel_ref.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

// The loss codes (session_loss, session_condition, session_loss_category()) are error.hpp's, with the
// library's other error categories.

// ---- statistics, adjustments, status ------------------------------------------------------------------------

/// The counters a session reports (EVENT_TRACE_PROPERTIES' output fields).
struct session_statistics {
    std::uint32_t events_lost = 0;
    std::uint32_t buffers_written = 0;
    std::uint32_t log_buffers_lost = 0;
    std::uint32_t real_time_buffers_lost = 0;
    std::uint32_t number_of_buffers = 0;
    std::uint32_t free_buffers = 0;

    static constexpr session_statistics of(event_trace_properties_v2 const& p) noexcept {
        return {p.events_lost, p.buffers_written, p.log_buffers_lost, p.real_time_buffers_lost, p.number_of_buffers,
                p.free_buffers};
    }
    constexpr bool lost() const noexcept { return events_lost != 0 || log_buffers_lost != 0 || real_time_buffers_lost != 0; }
    friend constexpr bool operator==(session_statistics const&, session_statistics const&) noexcept = default;
};

/// A value Windows changed: what the configuration asked for and what the session has.
struct session_adjustment {
    session_setting setting{};
    std::uint32_t requested = 0;
    std::uint32_t effective = 0;
};

/// Every value Windows changed (clamped, rounded, ignored), compared with the request; empty when none.
class session_adjustments {
public:
    static constexpr std::size_t capacity = 8;
    constexpr session_adjustment const* begin() const noexcept { return items_; }
    constexpr session_adjustment const* end() const noexcept { return items_ + count_; }
    constexpr std::size_t size() const noexcept { return count_; }
    constexpr bool empty() const noexcept { return count_ == 0; }
    /// The adjustment of one setting, or nullptr when Windows kept it.
    constexpr session_adjustment const* find(session_setting s) const noexcept {
        for (auto const& a : *this)
            if (a.setting == s) return &a;
        return nullptr;
    }
    constexpr void add(session_setting s, std::uint32_t requested, std::uint32_t effective) noexcept {
        if (count_ < capacity) items_[count_++] = {s, requested, effective};
    }

private:
    session_adjustment items_[capacity] = {};
    std::size_t count_ = 0;
};

/// The values a start asked for (0: "Windows' default", never reported as changed).
struct session_request {
    std::uint32_t buffer_kb = 0;
    std::uint32_t minimum_buffers = 0;
    std::uint32_t maximum_buffers = 0;
    std::uint32_t maximum_file_size = 0; ///< the field's value (MB, or KB with USE_KBYTES_FOR_SIZE)
    std::uint32_t flush_timer = 0;
    std::uint32_t clock = 0;
    std::uint32_t enable_flags = 0;
    std::uint32_t log_file_mode = 0;

    static constexpr session_request of(session_config const& c) noexcept {
        return {c.buffer_kilobytes(),   c.minimum_buffer_count(), c.maximum_buffer_count(),
                c.maximum_file_size().field_value(), c.flush_timer_seconds(), static_cast<std::uint32_t>(c.clock_kind()),
                c.enable_flag_bits(),   c.log_file_mode_bits()};
    }
    /// What differs in `p` (a block Windows wrote back) from this request.
    constexpr session_adjustments compare(event_trace_properties_v2 const& p) const noexcept {
        session_adjustments a;
        auto const check = [&a](session_setting s, std::uint32_t want, std::uint32_t got) {
            if (want != 0 && want != got) a.add(s, want, got);
        };
        check(session_setting::buffer_size, buffer_kb, p.buffer_size);
        check(session_setting::minimum_buffers, minimum_buffers, p.minimum_buffers);
        check(session_setting::maximum_buffers, maximum_buffers, p.maximum_buffers);
        check(session_setting::maximum_file_size, maximum_file_size, p.maximum_file_size);
        check(session_setting::flush_timer, flush_timer, p.flush_timer);
        check(session_setting::clock, clock, p.wnode.client_context);
        check(session_setting::enable_flags, enable_flags, p.enable_flags);
        // LogFileMode: only the bits asked for that the session lacks (Windows adds bits of its own).
        if ((log_file_mode & ~p.log_file_mode) != 0) a.add(session_setting::log_file_mode, log_file_mode, p.log_file_mode);
        return a;
    }
};

/// What a query returns: the session's block as Windows wrote it (its effective properties and names),
/// its statistics, and what differs from the start's request (empty for a session not started here).
struct session_status {
    session_properties block{};
    session_adjustments adjusted{};

    constexpr session_statistics statistics() const noexcept { return session_statistics::of(block.properties); }
    constexpr event_trace_properties_v2 const& properties() const noexcept { return block.properties; }
    constexpr session_handle handle() const noexcept { return block.handle(); }
    constexpr wide_string_view name() const noexcept { return block.name(); }
    constexpr wide_string_view log_file() const noexcept { return block.log_file(); }
};

/// What stop() found: the final statistics, and the error: the stop's failure, else the loss (an error
/// code in session_loss_category that compares equal to session_condition::events_lost), else none.
struct [[nodiscard]] stop_report {
    std::error_code error = no_error();
    session_statistics statistics{};
    bool stopped = false; ///< the session no longer runs (also after a loss)

    constexpr bool lost() const noexcept { return statistics.lost(); }
    /// Stopped, and nothing lost.
    explicit operator bool() const noexcept { return stopped && !error; }
};

// ---- updates --------------------------------------------------------------------------------------------

/// What ControlTrace(UPDATE) can change, and nothing else: FlushTimer, MaximumBuffers, EnableFlags (system
/// loggers), real time on or off, and a switch to a new log file (ControlTraceW page; "Updating an Event
/// Tracing Session"). Private loggers take only the flush timer and the file. Unset fields are kept.
class session_update {
public:
    /// FlushTimer in whole seconds, 1 to 4294967295 (0 keeps the session's). Outside 0 to 4294967295 the
    /// update is refused (rule::session_setting_out_of_range, naming the limit), never truncated.
    constexpr session_update flush_timer(std::chrono::seconds every) const noexcept {
        session_update u = *this;
        auto const n = every.count();
        if (n < 0 || static_cast<std::uint64_t>(n) > limits::max_flush_timer_seconds) {
            if (u.problem_ == rule::ok) { // the first refused value is the one reported
                u.problem_ = rule::session_setting_out_of_range;
                u.problem_value_ = static_cast<std::uint64_t>(n);
            }
            return u;
        }
        u.flush_timer_ = static_cast<std::uint32_t>(n);
        u.flush_set_ = n > 0;
        return u;
    }
    constexpr session_update maximum_buffers(std::uint32_t count) const noexcept {
        session_update u = *this;
        u.maximum_buffers_ = count;
        return u;
    }
    constexpr session_update enable_flags(std::uint32_t flags) const noexcept {
        session_update u = *this;
        u.enable_flags_ = flags;
        u.enable_flags_set_ = true;
        return u;
    }
    constexpr session_update real_time(bool on) const noexcept {
        session_update u = *this;
        u.real_time_ = on ? 1 : 2;
        return u;
    }
    /// Switch to a new log file (or, for a buffering session, flush the ring to it).
    constexpr session_update log_file(session_text path) const noexcept {
        session_update u = *this;
        u.log_file_ = path;
        return u;
    }

    /// Fills a fresh block for ControlTrace(UPDATE) from the session's current mode and, for a system
    /// logger, its current EnableFlags; a rule on failure. UPDATE replaces a system logger's EnableFlags
    /// with the block's ("set this member to 0 to disable all kernel providers", ControlTraceW), so flags
    /// the update does not set are sent back as they are (docs/choices.md).
    constexpr rule fill(session_properties& p, std::uint32_t current_mode, bool system_logger,
                        std::uint32_t current_enable_flags = 0) const noexcept {
        p = session_properties::for_control();
        auto& e = p.properties;
        if (problem_ != rule::ok) return problem_;
        if (enable_flags_set_ && !system_logger) return rule::session_enable_flags_need_system_logger;
        // An EnableFlags with EVENT_TRACE_FLAG_EXTENSION is an offset into the block it came in, not flags:
        // it cannot be sent back, and 0 would turn the kernel events off.
        if (system_logger && !enable_flags_set_ && (current_enable_flags & 0x80000000U) != 0)
            return rule::session_enable_flags_extension;
        e.flush_timer = flush_set_ ? flush_timer_ : 0;
        e.maximum_buffers = maximum_buffers_;
        e.enable_flags = enable_flags_set_ ? enable_flags_ : system_logger ? current_enable_flags : 0;
        // LogFileMode carries only REAL_TIME: 0 turns it off, so the current state is sent unless changed.
        bool const rt = real_time_ == 0 ? (current_mode & log_file_mode::real_time) != 0 : real_time_ == 1;
        e.log_file_mode = rt ? log_file_mode::real_time : 0;
        // LogFileNameOffset: 0 keeps the file (Microsoft: set it to 0 when not switching).
        if (log_file_.empty()) {
            e.log_file_name_offset = 0;
        } else {
            std::size_t const n = log_file_.copy_utf16(p.log_file_name, limits::max_log_file_name_length + 1);
            if (n == session_text::npos) return rule::session_text_not_utf8;
            if (n > limits::max_log_file_name_length) return rule::session_log_file_name_too_long;
        }
        return rule::ok;
    }
    constexpr bool changes_enable_flags() const noexcept { return enable_flags_set_; }
    /// The first value refused when the update was built (rule::ok: none), and that value.
    constexpr rule problem() const noexcept { return problem_; }
    constexpr std::uint64_t problem_value() const noexcept { return problem_value_; }

private:
    rule problem_ = rule::ok;
    std::uint64_t problem_value_ = 0;
    std::uint32_t flush_timer_ = 0;
    std::uint32_t maximum_buffers_ = 0;
    std::uint32_t enable_flags_ = 0;
    std::uint8_t real_time_ = 0; ///< 0 keep, 1 on, 2 off
    bool flush_set_ = false;
    bool enable_flags_set_ = false;
    session_text log_file_{};
};

// ---- messages ------------------------------------------------------------------------------------------------

namespace detail {
/// The sentence for a Win32 code a session call returned: what it means here and what to do.
constexpr std::string_view session_refusal_text(std::uint32_t e) noexcept {
    switch (e) {
    case win32::already_exists:
        return "{name}: a session with this name or GUID already runs, Win32 {win32} (if_exists::attach uses it, "
               "if_exists::stop_and_restart replaces it; leftovers of a crashed run: stop_orphans(k, prefix))";
    case win32::no_system_resources:
        return "{name}: no session slot, Win32 {win32}: the machine runs its maximum of sessions (64 by default, "
               "EtwMaxLoggers) or 8 system loggers (stop sessions you do not need; stop_orphans(k, prefix))";
    case win32::access_denied:
        return "{name}: access denied, Win32 {win32}: controlling sessions needs an elevated administrator or a "
               "member of Performance Log Users (the NT Kernel Logger: administrators only)";
    case win32::bad_pathname:
        return "{name}: Win32 {win32}: the log file is used by another session or its folder does not exist";
    case win32::disk_full:
        return "{name}: Win32 {win32}: not enough disk for the maximum file size (plus 200 MB on the system drive)";
    case win32::wmi_instance_not_found:
        return "{name}: no such session, Win32 {win32} (it stopped, or never ran)";
    case win32::active_connections:
        return "{name}: the session is already stopping, Win32 {win32}";
    case win32::timeout:
        return "{name}: the providers did not answer within the timeout, Win32 {win32}";
    default: return "{name}: Windows refused, Win32 {win32}";
    }
}
ETWCTL_COLD inline std::error_code session_refused(std::string_view call, std::uint32_t e) noexcept {
    return fail(win32_error_code(e), session_refusal_text(e), call, e);
}
} // namespace detail

// ---- session_ref: a session that runs, not owned ------------------------------------------------------

namespace detail {
/// A digest of a session name: FNV-1a over its UTF-16 units, ASCII letters folded as session names compare
/// (session_names_equal). What a session object keeps, with the handle, to tell its own session from a
/// later one that got the same logger id after it stopped (8 bytes, not the name's 2 KB).
constexpr std::uint64_t session_name_digest(wide_string_view name) noexcept {
    std::uint64_t h = 0xCBF29CE484222325ULL;
    for (wide_char const c : name) {
        auto u = static_cast<std::uint32_t>(static_cast<std::uint16_t>(c));
        if (u >= 'A' && u <= 'Z') u += 'a' - 'A';
        h = (h ^ u) * 0x100000001B3ULL;
    }
    return h;
}
} // namespace detail

/// A running session, by its handle and name: query, flush, update, and stop on request. Never stops
/// anything on its own (copying it copies the reference). Made by attach_session, or from a trace_session.
///
/// A handle's low 16 bits are a logger id (WNODE_HEADER), and a stopped session's id may go to the next
/// session that starts. So an object that knows its session's name (every one start_session and
/// attach_session make) acts only on that session: each call queries by handle and compares the name that
/// answers, and a session of another name is "not found" (ERROR_WMI_INSTANCE_NOT_FOUND; describe() says
/// the session is gone and another has its logger id), never stopped, updated or flushed. A reference made
/// from a bare handle (the two-argument constructor) knows no name and acts on whatever session has it.
/// ControlTraceW cannot be given both (a name makes it ignore the handle): docs/choices.md has the choice.
class session_ref {
public:
    constexpr session_ref() noexcept = default;
    /// A session by its handle alone (acts on whatever session has it).
    constexpr session_ref(session_kernel_ref k, session_handle h) noexcept : kernel_(k), handle_(h), valid_(true) {}
    /// A session by its handle and its name, as StartTrace or a query gave them (acts on that session only).
    constexpr session_ref(session_kernel_ref k, session_handle h, wide_string_view name) noexcept
        : kernel_(k), handle_(h), name_digest_(detail::session_name_digest(name)), valid_(true), named_(!name.empty()) {}

    constexpr session_handle handle() const noexcept { return handle_; }
    constexpr logger_id id() const noexcept { return handle_.logger(); }
    constexpr explicit operator bool() const noexcept { return valid_; }
    /// The kernel (valid only when the reference is: check operator bool first).
    constexpr session_kernel_ref kernel() const noexcept { return kernel_; }

    /// ControlTrace(QUERY): the session's effective properties, names and statistics ("not found" when
    /// another session now has the handle).
    [[nodiscard]] result<session_status> query() const noexcept {
        session_status s;
        s.block = session_properties::for_control();
        if (auto const ec = control(control_code::query, s.block, "ControlTrace(QUERY)")) return ec;
        if (!is_mine(s.block)) return gone("ControlTrace(QUERY)");
        return s;
    }
    /// ControlTrace(FLUSH): the session's buffers written out now (after a query that checks it is this
    /// object's session, when the object knows its name).
    [[nodiscard]] std::error_code flush() const noexcept {
        if (auto const ec = confirm("ControlTrace(FLUSH)")) return ec;
        session_properties p = session_properties::for_control();
        return control(control_code::flush, p, "ControlTrace(FLUSH)");
    }
    /// ControlTrace(UPDATE) with only what UPDATE can change (session_update); a query first reads the
    /// session's mode and, for a system logger, its EnableFlags, so what the update does not set is kept.
    [[nodiscard]] std::error_code update(session_update const& u) const noexcept {
        if (u.problem() == rule::session_setting_out_of_range) // refused before any call
            return detail::fail(make_error_code(u.problem()),
                                "ControlTrace(UPDATE): {name} {value} is out of range: at most {high}",
                                session_setting_name(session_setting::flush_timer), u.problem_value(), 0,
                                limits::max_flush_timer_seconds);
        auto const current = query();
        if (!current) return current.error();
        std::uint32_t const mode = current->properties().log_file_mode;
        bool const system_logger = (mode & log_file_mode::system_logger) != 0 ||
                                   handle_.logger().is_kernel_logger() ||
                                   current->properties().wnode.guid == session_guids::system_trace_control;
        session_properties p;
        if (auto const r = u.fill(p, mode, system_logger, current->properties().enable_flags); r != rule::ok)
            return detail::fail(make_error_code(r), update_refusal_text(r), "ControlTrace(UPDATE)",
                                current->properties().enable_flags, 0, limits::max_log_file_name_length);
        return control(control_code::update, p, "ControlTrace(UPDATE)");
    }
    /// ControlTrace(STOP): stops the session (asked for explicitly: a session_ref never stops on its own),
    /// after a query that checks it is this object's session, when the object knows its name.
    [[nodiscard]] stop_report stop() const noexcept {
        stop_report r;
        if (!valid_) {
            r.error = empty_object("ControlTrace(STOP)");
            return r;
        }
        if (auto const ec = confirm("ControlTrace(STOP)")) {
            r.error = ec;
            return r;
        }
        session_properties p = session_properties::for_control();
        std::uint32_t const e = kernel_.control_trace_w(handle_.value, nullptr, p.data(), static_cast<std::uint32_t>(control_code::stop));
        return stopped(e, p, "ControlTrace(STOP)");
    }

    /// What a ControlTrace(STOP) answered, as a report: ERROR_MORE_DATA still stopped the session (its names
    /// did not fit, ControlTraceW; not with etwctl's block); then the final statistics and any loss.
    static stop_report stopped(std::uint32_t e, session_properties const& p, std::string_view call) noexcept {
        stop_report r;
        r.stopped = e == win32::success || e == win32::more_data;
        r.statistics = session_statistics::of(p.properties);
        if (!r.stopped) r.error = detail::session_refused(call, e);
        else if (r.lost()) r.error = loss_error(r.statistics);
        return r;
    }

    /// The loss error of a set of final statistics (the first kind lost), with its counts for describe().
    static std::error_code loss_error(session_statistics const& s) noexcept {
        session_loss const kind = s.events_lost != 0         ? session_loss::events_lost
                                  : s.log_buffers_lost != 0 ? session_loss::log_buffers_lost
                                                            : session_loss::real_time_buffers_lost;
        return detail::fail(make_error_code(kind),
                            "the session lost data: {value} events, {low} log-file buffers, {high} real-time buffers "
                            "(larger or more buffers: buffer(...), buffers(...); a consumer that keeps up; or a file)",
                            "stop", s.events_lost, s.log_buffers_lost, s.real_time_buffers_lost);
    }

protected:
    static constexpr std::string_view update_refusal_text(rule r) noexcept {
        switch (r) {
        case rule::session_enable_flags_need_system_logger:
            return "ControlTrace(UPDATE): enable flags on a session that is not a system logger, where Windows ignores them";
        case rule::session_enable_flags_extension:
            return "ControlTrace(UPDATE): the system logger's EnableFlags {hex} is an extension (group masks), which an "
                   "update cannot send back, and 0 would turn its kernel events off (give enable_flags(...) with the "
                   "update, or set<system_trace_enable_flags> after it)";
        default:
            return "ControlTrace(UPDATE): the new log-file path is not valid UTF-8 or longer than {high} characters";
        }
    }
    /// Whether a block a query wrote back is this object's session: the name that answered has this
    /// object's digest. An object without a name, or a reply without one, cannot tell: it is taken as is.
    constexpr bool is_mine(session_properties const& p) const noexcept {
        return !named_ || p.name().empty() || detail::session_name_digest(p.name()) == name_digest_;
    }
    /// The session this object was made for stopped and another has its logger id: "not found".
    std::error_code gone(std::string_view call) const noexcept {
        return detail::fail(win32_error_code(win32::wmi_instance_not_found),
                            "{name}: the session this object owned (or attached to) is gone: logger id {value} now "
                            "belongs to another session, which is left alone (Win32 ERROR_WMI_INSTANCE_NOT_FOUND 4201)",
                            call, handle_.logger().value);
    }
    /// Before a call that acts (STOP, FLUSH): a QUERY by handle, and the name that answers compared.
    std::error_code confirm(std::string_view call) const noexcept {
        if (!valid_ || !named_) return no_error();
        session_properties p = session_properties::for_control();
        if (auto const ec = control(control_code::query, p, call)) return ec;
        return is_mine(p) ? no_error() : gone(call);
    }
    static std::error_code empty_object(std::string_view call) noexcept {
        return detail::fail(make_error_code(rule::session_no_target),
                            "{name}: an empty session object (not started, moved from, or released)", call);
    }
    std::error_code control(control_code code, session_properties& p, std::string_view call) const noexcept {
        if (!valid_) return empty_object(call);
        std::uint32_t const e = kernel_.control_trace_w(handle_.value, nullptr, p.data(), static_cast<std::uint32_t>(code));
        if (e != win32::success) return detail::session_refused(call, e);
        return no_error();
    }

    session_kernel_ref kernel_{};
    session_handle handle_{};
    std::uint64_t name_digest_ = 0; ///< detail::session_name_digest of the session's name (when named_)
    bool valid_ = false;
    bool named_ = false;
};

// ---- trace_session: a session this program started ----------------------------------------------------

/// What start_session does when a session of that name already runs.
enum class if_exists : std::uint8_t {
    fail,             ///< return ERROR_ALREADY_EXISTS (the default: nothing else is touched)
    attach,           ///< use the running session, not owned: never stopped by this object
    stop_and_restart, ///< stop the running session (it is someone else's: asked for explicitly) and start anew
};

namespace detail {
class trace_session_factory;
}

/// A session: owned when this program started it (stopped on scope exit unless released), or attached
/// (if_exists::attach: owns() is false, never stopped unless stop() is called). Move-only.
class trace_session : public session_ref {
public:
    constexpr trace_session() noexcept = default;
    trace_session(trace_session const&) = delete;
    trace_session& operator=(trace_session const&) = delete;
    trace_session(trace_session&& o) noexcept
        : session_ref(o), owns_(std::exchange(o.owns_, false)), request_(o.request_), adjusted_(o.adjusted_) {
        o.valid_ = false;
    }
    trace_session& operator=(trace_session&& o) noexcept {
        if (this != &o) {
            close();
            static_cast<session_ref&>(*this) = o;
            owns_ = std::exchange(o.owns_, false);
            request_ = o.request_;
            adjusted_ = o.adjusted_;
            o.valid_ = false;
        }
        return *this;
    }
    ~trace_session() { close(); }

    /// Whether this object stops the session on scope exit (started here and not released).
    constexpr bool owns() const noexcept { return owns_ && valid_; }
    /// What Windows changed at the start, compared with the configuration (empty: nothing).
    constexpr session_adjustments const& adjusted() const noexcept { return adjusted_; }
    /// The values the start asked for.
    constexpr session_request const& requested() const noexcept { return request_; }
    /// A non-owning reference to the same session.
    constexpr session_ref ref() const noexcept { return static_cast<session_ref const&>(*this); }

    /// ControlTrace(QUERY), with what differs from the start's request.
    [[nodiscard]] result<session_status> query() const noexcept {
        auto r = session_ref::query();
        if (r && owns_) r.value().adjusted = request_.compare(r->properties());
        return r;
    }
    /// Stops the session (owned or attached) and reports the final statistics; the object is empty after.
    [[nodiscard]] stop_report stop() noexcept {
        stop_report r = session_ref::stop();
        // Stopped, or gone (stopped elsewhere; its logger id maybe another's now): nothing left to stop.
        if (r.stopped || to_win32(r.error) == win32::wmi_instance_not_found) valid_ = false, owns_ = false;
        return r;
    }
    /// Gives up ownership: the session keeps running after this object; its handle is returned.
    session_handle release() noexcept {
        owns_ = false;
        valid_ = false;
        return handle_;
    }

private:
    friend class detail::trace_session_factory;
    void close() noexcept {
        if (owns_ && valid_) (void)session_ref::stop();
        owns_ = false;
        valid_ = false;
    }

    bool owns_ = false;
    session_request request_{};
    session_adjustments adjusted_{};
};

namespace detail {
/// Makes trace_session objects (start_session): the one place that sets their private state.
class trace_session_factory {
public:
    static trace_session make(session_ref const& ref, bool owns, session_request const& req,
                              session_adjustments const& adjusted) noexcept {
        trace_session s;
        static_cast<session_ref&>(s) = ref;
        s.owns_ = owns;
        s.request_ = req;
        s.adjusted_ = adjusted;
        return s;
    }
};
} // namespace detail

// ---- start, attach ----------------------------------------------------------------------------------------

namespace detail {
/// A session name as ControlTrace's InstanceName: NUL-terminated UTF-16 in `out`, or the rule it breaks.
inline std::error_code instance_name(session_text name, wide_char (&out)[limits::max_session_name_length + 1],
                                     std::string_view call) noexcept {
    std::size_t const n = name.copy_utf16(out, limits::max_session_name_length + 1);
    if (n != session_text::npos && n != 0 && n <= limits::max_session_name_length) return no_error();
    return fail(make_error_code(n == session_text::npos ? rule::session_text_not_utf8 : rule::session_name_invalid),
                "{name}: the name has {value} characters; a session name has 1 to {high}", call,
                n == session_text::npos ? 0 : n, 0, limits::max_session_name_length);
}
} // namespace detail

/// ControlTrace(QUERY) by name: the running session's handle (to attach to it).
[[nodiscard]] inline result<session_ref> attach_session(session_kernel_ref k, session_text name) noexcept {
    wide_char instance[limits::max_session_name_length + 1] = {};
    if (auto const ec = detail::instance_name(name, instance, "attach_session")) return ec;
    session_properties p = session_properties::for_control();
    std::uint32_t const e = k.control_trace_w(0, instance, p.data(), static_cast<std::uint32_t>(control_code::query));
    if (e != win32::success) return detail::session_refused("attach_session: ControlTrace(QUERY)", e);
    // The name as the session has it (the query writes it back); the caller's if the reply has none.
    wide_string_view const running = p.name();
    return session_ref(k, p.handle(), running.empty() ? wide_string_view(instance) : running);
}

/// ControlTrace(STOP) by name: stops a running session this program may not have started (asked for
/// explicitly), with the final statistics.
[[nodiscard]] inline stop_report stop_session(session_kernel_ref k, session_text name) noexcept {
    wide_char instance[limits::max_session_name_length + 1] = {};
    if (auto const ec = detail::instance_name(name, instance, "stop_session")) {
        stop_report r;
        r.error = ec;
        return r;
    }
    session_properties p = session_properties::for_control();
    std::uint32_t const e = k.control_trace_w(0, instance, p.data(), static_cast<std::uint32_t>(control_code::stop));
    return session_ref::stopped(e, p, "stop_session: ControlTrace(STOP)");
}

/// A session by its logger id (or handle): checked with a query, so a stale id is an error now.
[[nodiscard]] inline result<session_ref> attach_session(session_kernel_ref k, session_handle h) noexcept {
    session_ref r(k, h);
    auto const q = r.query();
    if (!q) return q.error();
    return session_ref(k, q->handle().value != 0 ? q->handle() : h, q->name()); // the name that answered
}

namespace detail {
ETWCTL_COLD inline std::error_code start_refused(std::uint32_t e) noexcept { return session_refused("StartTrace", e); }

inline std::uint32_t start_with(session_kernel_ref k, session_properties& p, std::uint64_t& handle) noexcept {
    // StartTrace copies the session name to LoggerNameOffset itself; InstanceName is the block's own copy.
    wide_char name[limits::max_session_name_length + 1] = {};
    wide_string_view const n = p.name();
    for (std::size_t i = 0; i < n.size(); ++i) name[i] = n[i];
    return k.start_trace_w(&handle, name, p.data());
}
} // namespace detail

/// Starts a session from a configuration. The configuration's first broken rule (session_config::
/// complete()) is returned without a call; then StartTrace. If a session of that name already runs, the
/// policy decides (if_exists). What Windows changed in the values asked for is in adjusted().
[[nodiscard]] inline result<trace_session> start_session(session_kernel_ref k, session_config const& config,
                                                         if_exists policy = if_exists::fail) noexcept {
    session_properties p;
    if (auto const problem = config.complete(); problem.broken != rule::ok) return config_error(problem);
    (void)config.build(p);
    std::uint64_t handle = 0;
    std::uint32_t e = detail::start_with(k, p, handle);
    if (e == win32::already_exists && policy != if_exists::fail) {
        auto const running = attach_session(k, config.name());
        if (!running) return detail::start_refused(e); // the GUID collided, not the name: nothing to attach to
        if (policy == if_exists::attach)
            return detail::trace_session_factory::make(*running, false, session_request::of(config), {});
        // stop_and_restart: the caller asked for exactly this. A fresh block for the stop and for the start.
        stop_report const old = stop_session(k, config.name());
        if (!old.stopped) return old.error;
        (void)config.build(p);
        e = detail::start_with(k, p, handle);
        if (e == win32::already_exists) { // the old session's slot may linger a moment (krabsetw PR #226): once more
            (void)config.build(p);
            e = detail::start_with(k, p, handle);
        }
    }
    if (e != win32::success) return detail::start_refused(e);
    session_request const req = session_request::of(config);
    // The session's name with its handle: the object acts on this session only (session_ref).
    wide_char name[limits::max_session_name_length + 1] = {};
    std::size_t n = config.name().copy_utf16(name, limits::max_session_name_length + 1);
    if (n == session_text::npos || n > limits::max_session_name_length) n = 0; // complete() refused these already
    return detail::trace_session_factory::make(session_ref(k, session_handle{handle}, wide_string_view(name, n)), true, req,
                                               req.compare(p.properties));
}

ETWCTL_END_NAMESPACE

