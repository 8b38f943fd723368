// SPDX-License-Identifier: MIT
// etwctl/session/providers.hpp - user-mode providers on a session: enable, disable and capture state
// with EnableTraceEx2's parameters, typed.
//
//   auto opts = etwctl::enable_options{}.level(etwctl::trace_level::information).match_any(0x10)
//                   .stack_trace().process_ids(pids).event_ids(etwctl::filter_in, ids);
//   std::error_code ec = etwctl::enable_provider(session, etwctl::provider_name<"MyCompany.MyComponent">, opts);
//
// The filters are laid out as the SDK's EVENT_FILTER_DESCRIPTOR payloads (evntprov.h): PIDs as ULONGs,
// the executable names as one UTF-16 string with ';' between names, event ids as EVENT_FILTER_EVENT_ID
// {FilterIn, Reserved, Count, Events[]}, the stack-walk level / keyword filter as EVENT_FILTER_LEVEL_KW.
// Windows' limits (MAX_EVENT_FILTER_PID_COUNT 8, MAX_EVENT_FILTER_DATA_SIZE 1024 bytes,
// MAX_EVENT_FILTER_EVENT_ID_COUNT 64) are checked with session/checks.hpp's check_enable_filter (the drop-in
// EnableTraceEx2's check) before the call; each type has one slot here, so a type cannot repeat and at
// most 5 of MAX_EVENT_FILTERS_COUNT filters are sent.
// The request (ENABLE_TRACE_PARAMETERS version 2, the descriptors, the payloads) is built on the stack for
// each call. No heap.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/session/checks.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/session/session.hpp"
#include "etwctl/session/text.hpp"

ETWCTL_BEGIN_NAMESPACE

/// The level of events a provider writes (winmeta.h WINEVENT_LEVEL_*); any other 8-bit level is a
/// static_cast away.
enum class trace_level : std::uint8_t {
    critical = 1,
    error = 2,
    warning = 3,
    information = 4,
    verbose = 5,
};

/// Whether an id filter keeps the events it lists (filter_in) or drops them (filter_out).
enum class id_filter : std::uint8_t { filter_out = 0, filter_in = 1 };
inline constexpr id_filter filter_in = id_filter::filter_in;
inline constexpr id_filter filter_out = id_filter::filter_out;

namespace detail {
struct enable_request;
}

/// EnableTraceEx2's parameters: level, keywords, enable properties, filters, timeout. A value (about 2 KB:
/// the filters' payloads are inline); every setter returns a copy, so a constant set of options is a
/// constexpr value.
class enable_options {
public:
    static constexpr std::size_t executable_names_capacity = limits::max_event_filter_data_size / 2; ///< units, NUL included

    constexpr enable_options& level(trace_level l) noexcept { return level_ = static_cast<std::uint8_t>(l), *this; }
    constexpr enable_options& level(std::uint8_t l) noexcept { return level_ = l, *this; }
    /// MatchAnyKeyword (0: every keyword, for manifest and TraceLogging providers).
    constexpr enable_options& match_any(std::uint64_t keywords) noexcept { return any_ = keywords, *this; }
    /// MatchAllKeyword.
    constexpr enable_options& match_all(std::uint64_t keywords) noexcept { return all_ = keywords, *this; }

    // EVENT_ENABLE_PROPERTY_* (evntcons.h)
    constexpr enable_options& stack_trace() noexcept { return with(enable_property::stack_trace); }
    constexpr enable_options& sid() noexcept { return with(enable_property::sid); }
    constexpr enable_options& ts_id() noexcept { return with(enable_property::ts_id); }
    constexpr enable_options& process_start_key() noexcept { return with(enable_property::process_start_key); }
    constexpr enable_options& ignore_keyword_0() noexcept { return with(enable_property::ignore_keyword_0); }
    constexpr enable_options& enable_keyword_0() noexcept { return with(enable_property::enable_keyword_0); }
    constexpr enable_options& event_key() noexcept { return with(enable_property::event_key); }
    constexpr enable_options& psm_key() noexcept { return with(enable_property::psm_key); }
    constexpr enable_options& exclude_inprivate() noexcept { return with(enable_property::exclude_inprivate); }
    constexpr enable_options& enable_silos() noexcept { return with(enable_property::enable_silos); }
    constexpr enable_options& source_container_tracking() noexcept { return with(enable_property::source_container_tracking); }
    /// EVENT_ENABLE_PROPERTY_* bits given as a number (a profile's, a command line's): ORed in as given
    /// (EnableTraceEx2 refuses a bit it does not know).
    constexpr enable_options& enable_properties(std::uint32_t bits) noexcept { return with(bits); }

    /// EVENT_FILTER_TYPE_PID: only events of these processes (at most 8).
    constexpr enable_options& process_ids(std::span<std::uint32_t const> pids) noexcept {
        pid_count_ = pids.size();
        for (std::size_t i = 0; i < pids.size() && i < limits::max_event_filter_pids; ++i) pids_[i] = pids[i];
        has_pids_ = true;
        return *this;
    }
    /// EVENT_FILTER_TYPE_EXECUTABLE_NAME: only events of processes with these executables, one string
    /// with ';' between names ("game.exe;editor.exe"), at most 1024 bytes with its NUL.
    constexpr enable_options& executable_names(session_text names) noexcept {
        exe_length_ = names.copy_utf16(exe_, executable_names_capacity);
        has_exe_ = true;
        return *this;
    }
    /// EVENT_FILTER_TYPE_EVENT_ID: keep (filter_in) or drop (filter_out) these event ids (at most 64).
    constexpr enable_options& event_ids(id_filter mode, std::span<std::uint16_t const> ids) noexcept {
        return set_ids(event_ids_, mode, ids);
    }
    /// EVENT_FILTER_TYPE_STACKWALK: stacks only for (filter_in) or except for (filter_out) these ids (at most 64).
    constexpr enable_options& stack_walk_event_ids(id_filter mode, std::span<std::uint16_t const> ids) noexcept {
        return set_ids(stack_ids_, mode, ids);
    }
    /// EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW: stacks for events of this level and keywords (filter_in) or
    /// for all others (filter_out).
    constexpr enable_options& stack_walk_level_keyword(id_filter mode, std::uint8_t level, std::uint64_t any,
                                                      std::uint64_t all) noexcept {
        level_kw_ = {any, all, level, static_cast<std::uint8_t>(mode)};
        has_level_kw_ = true;
        return *this;
    }
    /// How long EnableTraceEx2 waits for the provider's callbacks (0: it does not wait).
    constexpr enable_options& timeout(std::chrono::milliseconds t) noexcept {
        timeout_ms_ = t.count() <= 0 ? 0 : t.count() > 0xFFFFFFFE ? 0xFFFFFFFEU : static_cast<std::uint32_t>(t.count());
        return *this;
    }
    /// ENABLE_TRACE_PARAMETERS.SourceId (default: none).
    constexpr enable_options& source_id(guid g) noexcept { return source_id_ = g, *this; }

    constexpr std::uint8_t level_value() const noexcept { return level_; }
    constexpr std::uint64_t any_keywords() const noexcept { return any_; }
    constexpr std::uint64_t all_keywords() const noexcept { return all_; }
    constexpr std::uint32_t properties() const noexcept { return properties_; }
    constexpr std::uint32_t timeout_milliseconds() const noexcept { return timeout_ms_; }

    /// The first Windows limit the filters break (rule::ok: none), with the value and the limit: the same
    /// check_enable_filter the drop-in EnableTraceEx2 applies (session/checks.hpp), over these filters' facts.
    constexpr rule check(std::uint64_t* value = nullptr, std::uint64_t* limit = nullptr) const noexcept {
        auto const broke = [&](rule r, std::uint64_t v, std::uint64_t l) {
            if (value) *value = v;
            if (limit) *limit = l;
            return r;
        };
        auto const filter = [](std::uint32_t type, std::size_t size, std::size_t items) {
            return check_enable_filter(enable_filter_facts{type, static_cast<std::uint32_t>(size > 0xFFFFFFFFU ? 0xFFFFFFFFU : size),
                                                           true, static_cast<std::uint32_t>(items)});
        };
        if (has_pids_)
            if (auto r = filter(filter_type::pid, 4 * pid_count_, pid_count_); r != rule::ok)
                return broke(r, pid_count_, limits::max_event_filter_pids);
        if (has_exe_) {
            if (exe_length_ == session_text::npos) return broke(rule::session_text_not_utf8, 0, 0);
            if (auto r = filter(filter_type::executable_name, 2 * (exe_length_ + 1), 0); r != rule::ok)
                return broke(r, 2 * (exe_length_ + 1), limits::max_event_filter_data_size);
        }
        for (auto const* ids : {&event_ids_, &stack_ids_})
            if (ids->present)
                if (auto r = filter(filter_type::event_id, sizeof(event_filter_event_id_header) + 2 * ids->count, ids->count);
                    r != rule::ok)
                    return broke(r, ids->count, limits::max_event_filter_event_ids);
        return rule::ok;
    }

    /// The number of filters these options send.
    constexpr std::size_t filter_count() const noexcept {
        return std::size_t{has_pids_} + has_exe_ + event_ids_.present + stack_ids_.present + has_level_kw_;
    }

private:
    friend struct detail::enable_request;
    struct id_list {
        event_filter_event_id_header head{};
        std::uint16_t ids[limits::max_event_filter_event_ids] = {};
        std::size_t count = 0;
        bool present = false;
    };
    constexpr enable_options& with(std::uint32_t bit) noexcept { return properties_ |= bit, *this; }
    constexpr enable_options& set_ids(id_list& l, id_filter mode, std::span<std::uint16_t const> ids) noexcept {
        l.count = ids.size();
        l.present = true;
        l.head.filter_in = static_cast<std::uint8_t>(mode);
        l.head.count = static_cast<std::uint16_t>(ids.size() > 0xFFFF ? 0xFFFF : ids.size());
        for (std::size_t i = 0; i < ids.size() && i < limits::max_event_filter_event_ids; ++i) l.ids[i] = ids[i];
        return *this;
    }

    std::uint8_t level_ = static_cast<std::uint8_t>(trace_level::verbose);
    std::uint64_t any_ = 0;
    std::uint64_t all_ = 0;
    std::uint32_t properties_ = 0;
    std::uint32_t timeout_ms_ = 0;
    guid source_id_{};
    std::uint32_t pids_[limits::max_event_filter_pids] = {};
    std::size_t pid_count_ = 0;
    bool has_pids_ = false;
    wide_char exe_[executable_names_capacity] = {};
    std::size_t exe_length_ = 0;
    bool has_exe_ = false;
    id_list event_ids_{};
    id_list stack_ids_{};
    event_filter_level_kw level_kw_{};
    bool has_level_kw_ = false;
};

namespace detail {
/// The bytes EnableTraceEx2 receives for a set of options: ENABLE_TRACE_PARAMETERS (version 2), the
/// descriptors and their payloads, all inside this object (built on the caller's stack; the descriptors
/// point into it, so it is neither copied nor moved).
struct enable_request {
    enable_trace_parameters parameters{};
    event_filter_descriptor descriptors[5] = {};
    std::uint32_t pids[limits::max_event_filter_pids] = {};
    wide_char executable_names[enable_options::executable_names_capacity] = {};
    struct id_payload {
        event_filter_event_id_header head{};
        std::uint16_t ids[limits::max_event_filter_event_ids] = {};
    };
    id_payload event_ids{};
    id_payload stack_walk_ids{};
    event_filter_level_kw level_kw{};

    explicit enable_request(enable_options const& o) noexcept {
        parameters.version = enable_trace_parameters_version;
        parameters.enable_property = o.properties_;
        parameters.source_id = o.source_id_;
        std::uint32_t n = 0;
        auto const add = [&](void const* data, std::size_t size, std::uint32_t type) {
            descriptors[n].ptr = reinterpret_cast<std::uintptr_t>(data);
            descriptors[n].size = static_cast<std::uint32_t>(size);
            descriptors[n].type = type;
            ++n;
        };
        if (o.has_pids_) {
            for (std::size_t i = 0; i < o.pid_count_; ++i) pids[i] = o.pids_[i];
            add(pids, 4 * o.pid_count_, filter_type::pid);
        }
        if (o.has_exe_) {
            for (std::size_t i = 0; i <= o.exe_length_ && i < enable_options::executable_names_capacity; ++i)
                executable_names[i] = o.exe_[i];
            add(executable_names, 2 * (o.exe_length_ + 1), filter_type::executable_name);
        }
        auto const ids = [&](id_payload& out, enable_options::id_list const& in, std::uint32_t type) {
            if (!in.present) return;
            out.head = in.head;
            for (std::size_t i = 0; i < in.count; ++i) out.ids[i] = in.ids[i];
            add(&out, sizeof(event_filter_event_id_header) + 2 * in.count, type);
        };
        ids(event_ids, o.event_ids_, filter_type::event_id);
        ids(stack_walk_ids, o.stack_ids_, filter_type::stackwalk);
        if (o.has_level_kw_) {
            level_kw = o.level_kw_;
            add(&level_kw, sizeof level_kw, filter_type::stackwalk_level_kw);
        }
        parameters.enable_filter_desc = n != 0 ? descriptors : nullptr;
        parameters.filter_desc_count = n;
    }
    enable_request(enable_request const&) = delete;
    enable_request& operator=(enable_request const&) = delete;
};

ETWCTL_COLD inline std::error_code enable_refused(std::uint32_t e) noexcept {
    if (e == win32::no_system_resources)
        return fail(win32_error_code(e),
                    "EnableTraceEx2: the provider is already enabled in as many sessions as Windows allows ({high} for "
                    "a manifest or TraceLogging provider), Win32 {win32} (stop one of them, or share a session)",
                    "EnableTraceEx2", e, 0, limits::max_sessions_per_provider);
    if (e == win32::invalid_function)
        return fail(win32_error_code(e),
                    "EnableTraceEx2: the provider is not registered, so its level cannot be updated, Win32 {win32}",
                    "EnableTraceEx2", e);
    return session_refused("EnableTraceEx2", e);
}

inline std::error_code enable_call(session_ref const& s, guid const& provider, enable_code code,
                                   enable_options const& o) noexcept {
    if (!s) return fail(make_error_code(rule::session_handle_zero),
                        "EnableTraceEx2: an empty session object (not started, moved from, or released)", "EnableTraceEx2");
    std::uint64_t value = 0, limit = 0;
    if (rule const r = o.check(&value, &limit); r != rule::ok)
        return fail(make_error_code(r),
                    "EnableTraceEx2: a filter holds {value} where Windows takes at most {high} (split it across "
                    "sessions, or filter less)",
                    "EnableTraceEx2", value, 0, limit);
    enable_request const request(o);
    std::uint32_t const e = s.kernel().enable_trace_ex2(s.handle().value, &provider, static_cast<std::uint32_t>(code),
                                                        o.level_value(), o.any_keywords(), o.all_keywords(),
                                                        o.timeout_milliseconds(), &request.parameters);
    if (e != win32::success) return enable_refused(e);
    return no_error();
}
} // namespace detail

/// EnableTraceEx2(ENABLE_PROVIDER): the provider writes to the session with these options. Each call
/// replaces the provider's filters in this session.
[[nodiscard]] inline std::error_code enable_provider(session_ref const& s, guid const& provider,
                                                     enable_options const& o = {}) noexcept {
    return detail::enable_call(s, provider, enable_code::enable, o);
}
/// EnableTraceEx2(DISABLE_PROVIDER).
[[nodiscard]] inline std::error_code disable_provider(session_ref const& s, guid const& provider) noexcept {
    if (!s) return detail::fail(make_error_code(rule::session_handle_zero),
                                "EnableTraceEx2: an empty session object (not started, moved from, or released)",
                                "EnableTraceEx2");
    std::uint32_t const e = s.kernel().enable_trace_ex2(s.handle().value, &provider,
                                                        static_cast<std::uint32_t>(enable_code::disable), 0, 0, 0, 0, nullptr);
    if (e != win32::success) return detail::enable_refused(e);
    return no_error();
}
/// EnableTraceEx2(CAPTURE_STATE): the provider writes its state events (rundown) to the session.
[[nodiscard]] inline std::error_code capture_state(session_ref const& s, guid const& provider,
                                                   enable_options const& o = {}) noexcept {
    return detail::enable_call(s, provider, enable_code::capture_state, o);
}

ETWCTL_END_NAMESPACE
