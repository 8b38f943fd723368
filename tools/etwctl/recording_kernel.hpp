// The tool's kernel wrapper: forwards the six calls and the session calls (StartTraceW, ControlTraceW,
// QueryAllTracesW, EnableTraceEx2) to a real or simulated kernel and keeps a copy of every request, so
// --dry-run can print the exact bytes. In dry-run mode only reads reach the kernel
// (queries are needed to validate and do not change anything); every set is recorded and answered
// with STATUS_SUCCESS without being sent. So that a dry run of "set the flags, then check against
// them" (pmc --flags) sees what it would have set, group masks set in a dry run are remembered per
// session and answered to later group-mask queries in the same run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/request/logger_query.hpp"
#include "etwctl/session/checks.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/session/text.hpp"
#include "etwctl/status_codes.hpp"

namespace etwctl_tool {

/// A 16-bit name as UTF-8 (for messages and JSON); stops at the NUL or after `max` units.
inline std::string utf8_of(etwctl::wide_char const* w, std::size_t max = 4096) {
    std::size_t n = 0;
    while (w && n < max && w[n]) ++n;
    etwctl::wide_string_view const text(w, n);
    std::string o(etwctl::utf8_from_utf16(text, nullptr, 0), '\0');
    (void)etwctl::utf8_from_utf16(text, o.data(), o.size());
    return o;
}

/// The session calls' own facts (StartTraceW, ControlTraceW, QueryAllTracesW, EnableTraceEx2).
struct session_request {
    etwctl::session_function function{};
    std::string name;               ///< the SessionName / InstanceName argument (UTF-8; empty: NULL)
    std::string session;            ///< the session's name as known: the argument, else by its handle (earlier calls)
    std::uint64_t handle = 0;       ///< ControlTraceW / EnableTraceEx2: the handle passed; StartTraceW: the handle returned
    std::uint32_t control = 0;      ///< ControlTraceW's ControlCode, EnableTraceEx2's ControlCode, QueryAllTracesW's count
    std::uint32_t sessions = 0;     ///< QueryAllTracesW: the SessionCount returned
    etwctl::guid provider{};        ///< EnableTraceEx2
    std::string provider_name;      ///< EnableTraceEx2: the provider as the user wrote it
    std::uint8_t level = 0;
    std::uint64_t match_any = 0, match_all = 0;
    std::uint32_t timeout = 0;
    bool has_parameters = false;    ///< EnableTraceEx2: EnableParameters was given (its bytes are the request's)
};

struct request {
    etwctl::kernel_function function{};
    std::uint32_t code = 0;          ///< information class, NtTraceControl code, profile source or EVENT_INFO_CLASS
    std::uint32_t length = 0;        ///< the declared buffer length
    std::uint32_t value = 0;         ///< NtSetIntervalProfile's interval
    std::vector<std::byte> bytes;    ///< input bytes (for a query: the request head the caller filled in)
    bool is_query = false;
    bool sent = true;
    std::int32_t status = 0;         ///< NTSTATUS (event_set_information: the Win32 error)
    std::string logger_name;         ///< the logger query: the name its LoggerName points at (ASCII)
    bool is_session = false;         ///< a session call: `session` holds its facts, status is its Win32 code
    session_request session;

    /// Sent, succeeded and changed something (not a read).
    bool took_effect() const noexcept {
        bool const win32 = is_session || function == etwctl::kernel_function::event_set_information;
        return sent && !is_query && (win32 ? status == 0 : status >= 0);
    }
};

template <etwctl::kernel K>
class recording_kernel {
public:
    recording_kernel(K& inner, bool dry_run) noexcept : inner_(inner), dry_run_(dry_run) {}

    std::vector<request> const& requests() const noexcept { return log_; }
    bool dry_run() const noexcept { return dry_run_; }
    K& inner() noexcept { return inner_; }

    std::int32_t nt_set_system_information(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept {
        auto& r = add(etwctl::kernel_function::nt_set_system_information, cls, buffer, length, length, false);
        if (dry_run_ && is_group_mask(cls, buffer, length)) remember_mask(buffer);
        return r.status = dry_run_ ? etwctl::ntstatus::success : inner_.nt_set_system_information(cls, buffer, length);
    }
    std::int32_t nt_query_system_information(std::uint32_t cls, void* buffer, std::uint32_t length,
                                             std::uint32_t* return_length) noexcept {
        // Only the head the caller filled in is input (class, handle); the rest is the output buffer.
        auto& r = add(etwctl::kernel_function::nt_query_system_information, cls, buffer, length,
                      length < 16 ? length : 16, true);
        if (is_group_mask(cls, buffer, length) && is_placeholder(full_handle_of(buffer))) {
            // A session this dry run would have started: the kernel does not know it; its flags are
            // what the run set.
            std::memset(static_cast<unsigned char*>(buffer) + 0x10, 0, 32);
            recall_mask(buffer);
            if (return_length) *return_length = length;
            r.sent = false;
            return r.status = etwctl::ntstatus::success;
        }
        r.status = inner_.nt_query_system_information(cls, buffer, length, return_length);
        if (dry_run_ && r.status >= 0 && is_group_mask(cls, buffer, length)) recall_mask(buffer);
        return r.status;
    }
    std::int32_t nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept {
        auto& r = add(etwctl::kernel_function::nt_set_interval_profile, source, nullptr, 0, 0, false);
        r.value = interval;
        return r.status = dry_run_ ? etwctl::ntstatus::success : inner_.nt_set_interval_profile(interval, source);
    }
    std::int32_t nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept {
        auto& r = add(etwctl::kernel_function::nt_query_interval_profile, source, nullptr, 0, 0, true);
        return r.status = inner_.nt_query_interval_profile(source, interval);
    }
    std::int32_t nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                  std::uint32_t out_length, std::uint32_t* return_length) noexcept {
        // The logger query (a session by name) only reads: it is sent in a dry run too.
        bool const read_only = code == etwctl::logger_query::control_code;
        auto& r = add(etwctl::kernel_function::nt_trace_control, code, in, in_length, in_length, read_only);
        if (read_only && in && in_length >= sizeof(etwctl::logger_query::wmi_logger_information)) {
            etwctl::logger_query::wmi_logger_information info;
            std::memcpy(&info, in, sizeof info);
            for (std::size_t i = 0; info.logger_name.buffer && i < info.logger_name.length / 2u; ++i)
                r.logger_name += static_cast<char>(info.logger_name.buffer[i] < 0x80 ? info.logger_name.buffer[i] : u'?');
        }
        return r.status = dry_run_ && !read_only
                              ? etwctl::ntstatus::success
                              : inner_.nt_trace_control(code, in, in_length, out, out_length, return_length);
    }
    std::uint32_t event_set_information(std::uint64_t reg, std::uint32_t cls, void const* info, std::uint32_t length) noexcept {
        auto& r = add(etwctl::kernel_function::event_set_information, cls, info, length, length, false);
        std::uint32_t const e = dry_run_ ? 0U : inner_.event_set_information(reg, cls, info, length);
        r.status = static_cast<std::int32_t>(e);
        return e;
    }

    // ---- the session calls (etwctl::session_kernel) ----
    // In a dry run only the reads are sent (QueryAllTracesW, ControlTraceW QUERY); StartTraceW answers
    // with a placeholder handle (logger id 0, which no session has) that later requests of the run carry,
    // except for the NT Kernel Logger, whose handle is known: 0x000000000000FFFF.

    /// The provider as written, for the next EnableTraceEx2's record (provider_name).
    void note_provider_name(std::string name) { provider_name_ = std::move(name); }
    /// The session a handle belongs to, for the records of later calls on it (EnableTraceEx2 has no name).
    void note_session(std::uint64_t handle, std::string name) {
        for (auto& [h, n] : names_)
            if (h == handle) {
                n = std::move(name);
                return;
            }
        names_.emplace_back(handle, std::move(name));
    }
    std::string session_name(std::uint64_t handle) const {
        for (auto const& [h, n] : names_)
            if (h == handle || ((h & 0xFFFFU) != 0 && (h & 0xFFFFU) == (handle & 0xFFFFU))) return n; // the logger id decides
        return {};
    }
    /// True for a handle a dry run's StartTraceW made up.
    bool is_placeholder(std::uint64_t handle) const noexcept {
        for (auto const& p : placeholders_)
            if (p == handle) return true;
        return false;
    }

    /// StartTraceW of the NT Kernel Logger: its name, or (another name) Wnode.Guid SystemTraceControlGuid,
    /// as the session model decides (testing/sim_sessions.hpp).
    static bool starts_kernel_logger(etwctl::wide_char const* name, void const* props) noexcept {
        if (name) {
            std::size_t n = 0;
            while (n <= etwctl::limits::max_session_name_length && name[n] != 0) ++n;
            auto const by_name = etwctl::reserved_session_of_name(std::basic_string_view<etwctl::wide_char>(name, n));
            if (by_name != etwctl::reserved_session::none) return by_name == etwctl::reserved_session::nt_kernel_logger;
        }
        if (!props) return false;
        etwctl::wnode_header w;
        std::memcpy(&w, props, sizeof w);
        return etwctl::reserved_session_of_guid(w.guid) == etwctl::reserved_session::nt_kernel_logger;
    }

    std::uint32_t start_trace_w(std::uint64_t* handle, etwctl::wide_char const* name, void* props) noexcept {
        auto& r = add_session(etwctl::session_function::start_trace_w, name, props, false);
        if (dry_run_) {
            // The NT Kernel Logger's handle is known before the call: KERNEL_LOGGER_ID, 0xFFFF, in the low
            // word (docs/choices.md, "The NT Kernel Logger's id"); any other session's is made up.
            std::uint64_t const h = starts_kernel_logger(name, props) ? std::uint64_t{etwctl::limits::kernel_logger_id}
                                                                      : (std::uint64_t{placeholders_.size()} + 1) << 32;
            placeholders_.push_back(h);
            if (handle) *handle = h;
            r.session.handle = h;
            r.session.session = r.session.name;
            note_session(h, r.session.name);
            return 0;
        }
        r.session.session = r.session.name;
        auto const e = inner_.start_trace_w(handle, name, props);
        r.status = static_cast<std::int32_t>(e);
        if (handle) r.session.handle = *handle;
        if (e == 0 && handle) note_session(*handle, r.session.name);
        return e;
    }
    std::uint32_t control_trace_w(std::uint64_t handle, etwctl::wide_char const* name, void* props, std::uint32_t code) noexcept {
        bool const read = code == static_cast<std::uint32_t>(etwctl::control_code::query);
        auto& r = add_session(etwctl::session_function::control_trace_w, name, props, read);
        r.session.handle = handle;
        r.session.control = code;
        r.session.session = name ? r.session.name : session_name(handle);
        if ((dry_run_ && !read) || is_placeholder(handle)) return 0; // a dry run's own session: nothing to ask
        auto const e = inner_.control_trace_w(handle, name, props, code);
        r.status = static_cast<std::int32_t>(e);
        if (e == 0 && read && name && props) { // a query by name answers the handle: later calls on it are that session's
            etwctl::wnode_header w;
            std::memcpy(&w, props, sizeof w);
            note_session(w.historical_context, r.session.name);
        }
        return e;
    }
    std::uint32_t query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept {
        auto& r = add_session(etwctl::session_function::query_all_traces_w, nullptr, nullptr, true);
        r.session.control = count;
        auto const e = inner_.query_all_traces_w(array, count, sessions);
        if (sessions) r.session.sessions = *sessions;
        return static_cast<std::uint32_t>(r.status = static_cast<std::int32_t>(e));
    }
    std::uint32_t enable_trace_ex2(std::uint64_t handle, etwctl::guid const* provider, std::uint32_t code, std::uint8_t level,
                                   std::uint64_t any, std::uint64_t all, std::uint32_t timeout, void const* params) noexcept {
        auto& r = add_session(etwctl::session_function::enable_trace_ex2, nullptr, nullptr, false);
        auto& s = r.session;
        s.handle = handle, s.control = code, s.level = level, s.match_any = any, s.match_all = all, s.timeout = timeout;
        s.session = session_name(handle);
        if (provider) s.provider = *provider;
        s.provider_name = std::move(provider_name_);
        provider_name_.clear();
        if (params) {
            s.has_parameters = true;
            r.bytes.resize(sizeof(etwctl::enable_trace_parameters));
            std::memcpy(r.bytes.data(), params, r.bytes.size());
            r.length = static_cast<std::uint32_t>(r.bytes.size());
        }
        if (dry_run_) return 0;
        auto const e = inner_.enable_trace_ex2(handle, provider, code, level, any, all, timeout, params);
        return static_cast<std::uint32_t>(r.status = static_cast<std::int32_t>(e));
    }

private:
    request& add_session(etwctl::session_function f, etwctl::wide_char const* name, void const* props, bool query) {
        request r;
        r.is_session = true;
        r.session.function = f;
        r.session.name = utf8_of(name, etwctl::limits::max_session_name_length + 1);
        r.is_query = query;
        r.sent = query || !dry_run_;
        if (props) { // the whole block as sent: Wnode.BufferSize bytes
            std::uint32_t size = 0;
            std::memcpy(&size, props, 4);
            r.length = size;
            r.bytes.resize(size);
            std::memcpy(r.bytes.data(), props, size);
        }
        log_.push_back(std::move(r));
        return log_.back();
    }

    struct shadow_mask {
        std::uint64_t handle;
        unsigned char masks[32];
    };
    static bool is_group_mask(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept {
        std::uint32_t c = 0;
        if (cls != etwctl::system_performance_trace_information || !buffer || length != 0x30) return false;
        std::memcpy(&c, buffer, 4);
        return c == static_cast<std::uint32_t>(etwctl::event_trace_information_class::group_mask);
    }
    static std::uint64_t full_handle_of(void const* buffer) noexcept {
        std::uint64_t h = 0;
        std::memcpy(&h, static_cast<unsigned char const*>(buffer) + 8, 8);
        return h;
    }
    static std::uint64_t handle_of(void const* buffer) noexcept {
        std::uint64_t const h = full_handle_of(buffer);
        return (h & 0xFFFFU) ? h & 0xFFFFU : h; // the logger id selects the session (a dry run's placeholder: all of it)
    }
    void remember_mask(void const* buffer) {
        shadow_mask m{handle_of(buffer), {}};
        std::memcpy(m.masks, static_cast<unsigned char const*>(buffer) + 0x10, 32);
        for (auto& s : shadow_)
            if (s.handle == m.handle) {
                s = m;
                return;
            }
        shadow_.push_back(m);
    }
    void recall_mask(void* buffer) const noexcept {
        for (auto const& s : shadow_)
            if (s.handle == handle_of(buffer)) std::memcpy(static_cast<unsigned char*>(buffer) + 0x10, s.masks, 32);
    }

    request& add(etwctl::kernel_function f, std::uint32_t code, void const* bytes, std::uint32_t length,
                 std::uint32_t copy, bool query) {
        request r;
        r.function = f;
        r.code = code;
        r.length = length;
        r.is_query = query;
        r.sent = query || !dry_run_;
        if (bytes && copy) {
            r.bytes.resize(copy);
            std::memcpy(r.bytes.data(), bytes, copy);
        }
        log_.push_back(std::move(r));
        return log_.back();
    }

    K& inner_;
    bool dry_run_;
    std::vector<request> log_;
    std::vector<shadow_mask> shadow_;
    std::vector<std::uint64_t> placeholders_;
    std::vector<std::pair<std::uint64_t, std::string>> names_;
    std::string provider_name_;
};

} // namespace etwctl_tool
