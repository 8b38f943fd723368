// SPDX-License-Identifier: MIT
// etwctl/wpr/apply.hpp - starts a plan (etwctl/wpr/plan.hpp) through etwctl's session API, all or nothing,
// and finds, stops and cancels the sessions a profile started.
//
//   wpr::apply_result r = wpr::apply(k, plan, {.log_directory = "C:\\traces"});
//   if (!r) { std::fprintf(stderr, "%s\n", r.message.c_str()); return 1; }   // names the step and the error
//   ...                                                                       // r.profile owns the sessions
//   r.profile.release();                                                      // or: they stop on scope exit
//
// What apply sends, in this order (each step a typed call of etwctl):
//  1. the system logger (plan::system): start_session with a private system logger named as the plan says
//     (session_config::system_logger; the NT Kernel Logger only where Windows has no private system
//     loggers, as kernel_session() chooses), then set<system_trace_enable_flags> (the whole group mask),
//     set<stack_tracing> (the stack list), set<stack_caching>, setup_pmc (the hardware counters on events)
//     and set<lbr_event_list>;
//  2. one session per event collector, then for each provider EnableTraceEx2 (enable_provider with the
//     plan's level, keywords, enable properties and filters) and its capture-state-on-start passes.
// Before the first call every session's configuration is checked (session_config::complete), every
// session's name as a file name (check_file_name: its log file is "<directory>/<name>.etl"), and every
// provider named by a name is resolved: a fault there sends nothing. A stack cache outside the kernel's
// bounds is sent clamped, as the kernel would clamp it, and named in apply_result::clamped. After a call
// failed, the sessions this apply started are stopped again (in reverse order) and the result names the
// step (which session, which provider, which call) with describe()'s message.
// What a plan carries that apply does not send (event-name filters, capture state on save or on demand,
// sampled counters) is a warning in apply_result::warnings, never dropped silently.
//
// Session names: WPR's own (plan.hpp: "WPR_initiated_WprApp_" + the collector's name), so that wpr.exe
// -status and -cancel see etwctl's sessions and etwctl sees WPR's (docs/choices.md says why).
// Opt-in and allocating, as all of etwctl/wpr/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/profiler/pmc.hpp"
#include "etwctl/sessions.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/wpr/check.hpp"
#include "etwctl/wpr/plan.hpp"
#include "etwctl/wpr/resolve.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {

// ---- steps --------------------------------------------------------------------------------------------

/// The calls apply makes, one kind per step.
enum class apply_call : std::uint8_t {
    check,             ///< the checks before any call (configuration, provider names): nothing was sent
    start_session,     ///< StartTrace
    group_mask,        ///< set<system_trace_enable_flags>
    stack_list,        ///< set<stack_tracing>
    stack_caching,     ///< set<stack_caching>
    hardware_counters, ///< setup_pmc (counter list, then event list)
    lbr_events,        ///< set<lbr_event_list>
    enable_provider,   ///< EnableTraceEx2(ENABLE_PROVIDER)
    capture_state,     ///< EnableTraceEx2(CAPTURE_STATE)
};
[[nodiscard]] constexpr std::string_view to_string(apply_call c) noexcept {
    switch (c) {
    case apply_call::check: return "check";
    case apply_call::start_session: return "StartTrace";
    case apply_call::group_mask: return "set<system_trace_enable_flags>";
    case apply_call::stack_list: return "set<stack_tracing>";
    case apply_call::stack_caching: return "set<stack_caching>";
    case apply_call::hardware_counters: return "setup_pmc";
    case apply_call::lbr_events: return "set<lbr_event_list>";
    case apply_call::enable_provider: return "EnableTraceEx2";
    case apply_call::capture_state: return "EnableTraceEx2(CAPTURE_STATE)";
    }
    return "?";
}

/// One step of an apply: the call, the session it is about, and the provider (as written in the file).
struct apply_step {
    apply_call call = apply_call::check;
    std::string session;
    std::string provider; ///< EnableTraceEx2 / capture state / a provider's check: the Name as written
};

/// "EnableTraceEx2 of provider 'Contoso.App.Markers' on 'WPR_initiated_WprApp_Test Event Collector'"
[[nodiscard]] inline std::string format(apply_step const& s) {
    std::string t(to_string(s.call));
    if (!s.provider.empty()) t += " of provider '" + s.provider + "'";
    if (!s.session.empty()) t += (s.provider.empty() ? " of '" : " on '") + s.session + "'";
    return t;
}

// ---- options ------------------------------------------------------------------------------------------

struct apply_options {
    /// File mode: each session writes "<log_directory>/<session name>.etl" ("" : the current directory).
    std::string log_directory;
    /// The machine's memory, for buffers given as a share of it (Buffers PercentageOfTotalMemory);
    /// nullopt: those sessions keep WPR's default count (64), and a warning says so.
    std::optional<std::uint64_t> total_memory_bytes;
    /// A provider the file names by name, not GUID: its GUID, or an error. Unset: a name written
    /// "*Name" is an EventSource / TraceLogging name (provider_guid_from_name); any other name is
    /// refused before any call, since only Windows' provider registry knows manifest names.
    std::function<result<guid>(std::string_view name)> resolve_provider;
    /// Called before each call apply makes (a tool notes the provider's name; a test injects a fault).
    std::function<void(apply_step const&)> before_call;
};

// ---- the sessions a profile started ----------------------------------------------------------------------

/// What stopping one session of a profile did.
struct stopped_session {
    std::string name;
    std::string log_file;        ///< its .etl ("" : a Memory-mode session, or the flush failed)
    session_handle handle{};
    std::error_code flush_error; ///< stop_profile: the flush (or the write of the ring to the file) failed
    stop_report report;
    std::string skipped;         ///< stop_profile: why it was left running, untouched (its name cannot be a file name)
};

/// The sessions an apply started: move-only, stopped (in reverse order) on scope exit unless released.
class applied_profile {
public:
    applied_profile() = default;
    applied_profile(applied_profile const&) = delete;
    applied_profile& operator=(applied_profile const&) = delete;
    applied_profile(applied_profile&&) noexcept = default;
    applied_profile& operator=(applied_profile&& o) noexcept {
        if (this != &o) {
            close();
            sessions_ = std::move(o.sessions_);
            names_ = std::move(o.names_);
            log_files_ = std::move(o.log_files_);
        }
        return *this;
    }
    ~applied_profile() { close(); }

    [[nodiscard]] std::size_t size() const noexcept { return sessions_.size(); }
    [[nodiscard]] bool empty() const noexcept { return sessions_.empty(); }
    /// The sessions, in the order they were started (the system logger first).
    [[nodiscard]] std::vector<trace_session>& sessions() noexcept { return sessions_; }
    [[nodiscard]] std::vector<std::string> const& names() const noexcept { return names_; }
    /// Each session's log file ("" in Memory mode), in the same order.
    [[nodiscard]] std::vector<std::string> const& log_files() const noexcept { return log_files_; }

    /// Stops every session still owned, the last started first; their reports in that order.
    std::vector<stopped_session> stop() {
        std::vector<stopped_session> reports;
        for (std::size_t i = sessions_.size(); i-- > 0;)
            if (sessions_[i].owns()) {
                session_handle const h = sessions_[i].handle();
                reports.push_back({names_[i], log_files_[i], h, {}, sessions_[i].stop(), {}});
            }
        sessions_.clear();
        names_.clear();
        log_files_.clear();
        return reports;
    }
    /// The sessions keep running after this object (as wpr -start leaves them); their names are kept.
    void release() noexcept {
        for (auto& s : sessions_) (void)s.release();
        sessions_.clear();
    }

    void add(trace_session s, std::string name, std::string log_file) {
        sessions_.push_back(std::move(s));
        names_.push_back(std::move(name));
        log_files_.push_back(std::move(log_file));
    }

private:
    void close() noexcept {
        while (!sessions_.empty()) sessions_.pop_back(); // each stops itself if owned, the last started first
    }
    std::vector<trace_session> sessions_;
    std::vector<std::string> names_;
    std::vector<std::string> log_files_;
};

/// A value apply sent clamped into the kernel's bounds, as the kernel would have clamped it (a
/// StackCaching outside 3..50 MiB or 256..4096 buckets: plan.hpp stack_cache_settings_of).
struct clamped_setting {
    std::string session;
    std::string setting;       ///< "StackCaching CacheSize" (bytes) or "StackCaching BucketCount"
    std::uint64_t written = 0; ///< the plan's value (CacheSize read as KB, in bytes)
    std::uint64_t applied = 0; ///< the value sent
};

/// What apply did: the started sessions, or the step that failed with its error and message (the
/// sessions it had started are stopped again: rolled_back holds their reports).
struct apply_result {
    applied_profile profile;
    std::error_code error;
    std::optional<apply_step> failed;
    std::string message;              ///< "<step>: <describe(error)>" on failure
    std::vector<finding> warnings;    ///< what the plan carries that apply did not send
    /// The values sent clamped (known before the first call; the plan's check::clamped warning names
    /// them too). A success with a clamp is never silent.
    std::vector<clamped_setting> clamped;
    std::vector<stopped_session> rolled_back;
    explicit operator bool() const noexcept { return !error; }
};

// ---- a session name as a file name -----------------------------------------------------------------------

/// Why `name` cannot be a file name in a directory ("" : it can). A session's log file is
/// "<directory>/<name>.etl" (docs/tool.md), so its name must name one file there and nothing else:
/// no path separator ('\\' or '/'), no "..", no drive ("C:"), no NUL, no trailing dot or space (Windows
/// strips them), and not a device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9, with or without an extension).
/// Source: Microsoft Learn, "Naming Files, Paths, and Namespaces" (Naming Conventions).
/// The answer names the offending part and the rule: "'x\\..' holds a path separator '\\' at offset 1".
[[nodiscard]] inline std::string check_file_name(std::string_view name) {
    std::string const quoted = "'" + std::string(name) + "'";
    if (name.empty()) return quoted + " is empty";
    for (std::size_t i = 0; i < name.size(); ++i) {
        char const c = name[i];
        if (c == '\\' || c == '/')
            return quoted + " holds a path separator '" + std::string(1, c) + "' at offset " + std::to_string(i);
        if (c == '\0') return quoted + " holds a NUL at offset " + std::to_string(i);
        if (c == ':') return quoted + " holds a drive or stream separator ':' at offset " + std::to_string(i);
    }
    if (name.find("..") != std::string_view::npos)
        return quoted + " holds \"..\" at offset " + std::to_string(name.find(".."));
    if (name.back() == '.' || name.back() == ' ') return quoted + " ends with a " + (name.back() == '.' ? "dot" : "space");
    std::string_view base = name.substr(0, name.find('.'));
    while (!base.empty() && base.back() == ' ') base.remove_suffix(1);
    static constexpr std::string_view devices[] = {"CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7",
                                                   "COM8", "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9"};
    for (auto const d : devices)
        if (etwctl::detail::iequals(base, d)) return quoted + " is the device name " + std::string(d) + " (with or without an extension)";
    return {};
}

namespace detail {

/// A session name that cannot be a file name, as an error naming the offending part (rule session_name_invalid).
[[nodiscard]] inline std::error_code file_name_error(std::string const& why) {
    static thread_local std::string held; // the error's context keeps a view of its name until describe()
    held = why;
    return etwctl::detail::fail(make_error_code(rule::session_name_invalid),
                                "session name {name}: a log file is <directory>/<session name>.etl, so the name must be one "
                                "file name; rename the collector (Name=) or the session",
                                held);
}

[[nodiscard]] inline std::string log_file_of(apply_options const& o, std::string const& session) {
    if (o.log_directory.empty()) return session + ".etl";
    char const last = o.log_directory.back();
    return o.log_directory + (last == '/' || last == '\\' ? "" : "/") + session + ".etl";
}

/// The session_config of a session plan, or the reason it cannot be one. `log_file` must outlive it.
[[nodiscard]] inline session_config config_of(session_plan const& s, std::string const& log_file, bool private_system_loggers,
                                              std::uint32_t buffers_min, std::uint32_t buffers_max, std::string& unsupported) {
    session_config c = !s.system_logger          ? session_config::user(s.name)
                       : private_system_loggers ? session_config::system_logger(s.name)
                                                : session_config::nt_kernel_logger();
    std::uint32_t const m = s.log_file_mode;
    file_size const max = file_size::megabytes(s.maximum_file_size_mb);
    if (m & log_file_mode::circular) c = c.file_circular(log_file, max);
    else if (m & log_file_mode::sequential) c = c.file_sequential(log_file, max);
    if (m & log_file_mode::buffering) c = c.buffering();
    if (m & log_file_mode::real_time) c = c.real_time();
    for (std::uint32_t const bit : {log_file_mode::private_logger, log_file_mode::private_in_proc, log_file_mode::secure})
        if (m & bit) unsupported = std::string(log_file_mode_name(bit)) + " (session_config has no such setting)";
    c = c.buffer(buffer_size::kilobytes(s.buffer_size_kb)).buffers(minimum_buffers{buffers_min}, maximum_buffers{buffers_max});
    if (s.flush_timer_s != 0) c = c.flush_timer(std::chrono::seconds{s.flush_timer_s});
    if (s.flush_threshold) c = c.flush_threshold(*s.flush_threshold);
    return c;
}

/// EnableTraceEx2's options for a provider plan (the filters enable_options carries).
[[nodiscard]] inline enable_options enable_options_of(provider_plan const& p, std::string& exe_names) {
    enable_options o;
    o.level(p.level).match_any(p.match_any).match_all(p.match_all).enable_properties(p.enable_property);
    if (!p.exe_names.empty()) {
        exe_names.clear();
        for (auto const& n : p.exe_names) exe_names += (exe_names.empty() ? "" : ";") + n;
        o.executable_names(exe_names);
    }
    auto const mode = [](bool in) { return in ? filter_in : filter_out; };
    if (p.event_ids) o.event_ids(mode(p.event_ids->filter_in), p.event_ids->ids);
    if (p.stack_event_ids) o.stack_walk_event_ids(mode(p.stack_event_ids->filter_in), p.stack_event_ids->ids);
    if (p.stack_level_keyword)
        o.stack_walk_level_keyword(mode(p.stack_level_keyword->filter_in), p.stack_level_keyword->level.value_or(0),
                                   p.stack_level_keyword->match_any, 0);
    return o;
}

[[nodiscard]] inline std::vector<hook_id> hooks_of(std::vector<named_hook> const& v) {
    std::vector<hook_id> h;
    for (auto const& n : v) h.push_back(n.hook);
    return h;
}

inline void apply_warning(std::vector<finding>& out, plan const& p, std::string text) {
    out.push_back({severity::warning, check::not_carried, p.file, 0, 0, {}, std::move(text) + " (not sent by apply)"});
}

/// Every warning of what the plan carries that apply does not send.
inline void apply_warnings(plan const& p, apply_options const& o, std::vector<finding>& out) {
    auto const session_warnings = [&](session_plan const& s) {
        if (s.buffers_from_memory && !o.total_memory_bytes)
            apply_warning(out, p, s.name + ": buffers are " + std::to_string(s.buffers_from_memory->percent) +
                                      "% of memory and the machine's memory was not given: WPR's default of " +
                                      std::to_string(default_buffers) + " buffers is used");
        for (auto const& pr : s.providers) {
            if (pr.event_names || pr.stack_event_names)
                apply_warning(out, p, s.name + ": provider '" + pr.name +
                                          "': event-name filters (EVENT_FILTER_TYPE_EVENT_NAME / _STACKWALK_NAME): enable_options has no such filter");
            for (auto const& cs : pr.capture_state)
                if (cs.when != capture_moment::start)
                    apply_warning(out, p, s.name + ": provider '" + pr.name + "': capture state " +
                                              (cs.when == capture_moment::save ? "on save" : "on demand") +
                                              " is sent when WPR saves or is asked, not at the start");
        }
    };
    if (p.system) {
        session_warnings(p.system->session);
        if (p.system->hardware_counters && !p.system->hardware_counters->sampled.empty())
            apply_warning(out, p, p.system->session.name +
                                      ": sampled counters: their interval is machine-global (set<sampled_profile_interval>; etwctl pmc / interval)");
    }
    for (auto const& s : p.event_sessions) session_warnings(s);
}

/// A provider's GUID: as written, or resolved by name.
[[nodiscard]] inline result<guid> provider_guid(provider_plan const& p, apply_options const& o) {
    if (p.provider) return *p.provider;
    if (o.resolve_provider) return o.resolve_provider(p.name);
    if (!p.name.empty() && p.name.front() == '*') return provider_guid_from_name(std::string_view(p.name).substr(1));
    return etwctl::detail::fail(make_error_code(rule::parse_unknown_name),
                                "provider '{name}' is named, not given as a GUID: only Windows' provider registry knows its "
                                "GUID (pass apply_options::resolve_provider, or write the GUID in the profile)",
                                p.name);
}

/// One session plan, prepared before any call: its configuration and its providers' GUIDs.
struct prepared_session {
    session_plan const* plan = nullptr;
    std::string log_file;
    std::vector<guid> providers;
    std::uint32_t buffers_min = 0;
    std::uint32_t buffers_max = 0;
};

} // namespace detail

/// Starts a plan on kernel `k` (a kernel and a session kernel: native_kernel, sim::kernel, a recorder),
/// all or nothing. `k` must outlive the result's sessions.
template <class K>
    requires(etwctl::kernel<K> && session_kernel<K>)
[[nodiscard]] apply_result apply(K& k, plan const& p, apply_options const& o = {}) {
    apply_result r;
    detail::apply_warnings(p, o, r.warnings);
    apply_step step;
    auto const failed = [&](std::error_code ec) {
        r.error = ec;
        r.message = format(step) + ": " + std::string(describe(ec));
        r.failed = step;
        r.rolled_back = r.profile.stop();
        return std::move(r);
    };
    bool const private_loggers = has_private_system_loggers(session_kernel_ref(k));

    // 1. Checks: every configuration, every provider's GUID and filters. Nothing is sent yet.
    std::vector<detail::prepared_session> sessions;
    if (p.system) sessions.push_back({&p.system->session, {}, {}, 0, 0});
    for (auto const& s : p.event_sessions) sessions.push_back({&s, {}, {}, 0, 0});
    for (auto& ps : sessions) {
        session_plan const& s = *ps.plan;
        step = {apply_call::check, s.name, {}};
        if (std::string const why = check_file_name(s.name); !why.empty()) return failed(detail::file_name_error(why));
        if (s.log_file_mode & (log_file_mode::sequential | log_file_mode::circular)) ps.log_file = detail::log_file_of(o, s.name);
        ps.buffers_min = s.minimum_buffers;
        ps.buffers_max = s.maximum_buffers;
        if (s.buffers_from_memory && o.total_memory_bytes)
            ps.buffers_min = ps.buffers_max = buffers_for_memory(*s.buffers_from_memory, s.buffer_size_kb, *o.total_memory_bytes);
        std::string unsupported;
        session_config const c = detail::config_of(s, ps.log_file, private_loggers, ps.buffers_min, ps.buffers_max, unsupported);
        if (!unsupported.empty())
            return failed(etwctl::detail::fail(make_error_code(rule::session_log_file_mode_conflict),
                                               "the collector asks for {name}: etwctl cannot start such a session", unsupported));
        if (auto const problem = c.complete(); problem.broken != rule::ok) return failed(config_error(problem));
        if (s.system_logger && p.system && p.system->stack_caching) {
            // Outside the kernel's bounds: sent clamped, as the kernel would clamp it (WPR applies such
            // profiles), and said in r.clamped; set<stack_caching> itself refuses unclamped values.
            stack_cache_settings const cache = stack_cache_settings_of(*p.system->stack_caching);
            if (cache.size_clamped) r.clamped.push_back({s.name, "StackCaching CacheSize", cache.written_bytes, cache.size.bytes});
            if (cache.buckets_clamped)
                r.clamped.push_back({s.name, "StackCaching BucketCount", cache.written_buckets, cache.buckets.count});
        }
        for (auto const& pr : s.providers) {
            step.provider = pr.name;
            auto const id = detail::provider_guid(pr, o);
            if (!id) return failed(id.error());
            ps.providers.push_back(*id);
            std::string exe;
            std::uint64_t value = 0, limit = 0;
            if (rule const broken = detail::enable_options_of(pr, exe).check(&value, &limit); broken != rule::ok)
                return failed(etwctl::detail::fail(make_error_code(broken),
                                                   "a filter holds {value} where EnableTraceEx2 takes at most {high}", "", value, 0, limit));
        }
    }

    // 2. The calls, in order; a failure stops what this apply started.
    auto const call = [&](apply_call c, std::string const& session, std::string const& provider = {}) {
        step = {c, session, provider};
        if (o.before_call) o.before_call(step);
    };
    for (auto const& ps : sessions) {
        session_plan const& s = *ps.plan;
        std::string unused;
        session_config const c = detail::config_of(s, ps.log_file, private_loggers, ps.buffers_min, ps.buffers_max, unused);
        call(apply_call::start_session, s.name);
        auto started = start_session(session_kernel_ref(k), c);
        if (!started) return failed(started.error());
        session_handle const h = started->handle();
        r.profile.add(std::move(*started), s.name, ps.log_file);
        if (s.system_logger && p.system) {
            system_plan const& sys = *p.system;
            if (sys.flags != group_mask{}) {
                call(apply_call::group_mask, s.name);
                if (auto const ec = set<system_trace_enable_flags>(k, h, sys.flags)) return failed(ec);
            }
            if (!sys.stacks.empty()) {
                call(apply_call::stack_list, s.name);
                std::vector<hook_id> const hooks = detail::hooks_of(sys.stacks);
                if (auto const ec = set<stack_tracing>(k, h, std::span<hook_id const>(hooks))) return failed(ec);
            }
            if (sys.stack_caching) {
                // CacheSize read as KB: etwctl's reading (WPR does not publish the unit); Microsoft's files
                // write 3072, which is 3 MiB, the kernel's lower bound. The values inside the kernel's
                // bounds (clamped, said in r.clamped), as the kernel would use them.
                call(apply_call::stack_caching, s.name);
                stack_cache_settings const cache = stack_cache_settings_of(*sys.stack_caching);
                if (auto const ec = set<stack_caching>(k, h, cache.size, cache.buckets)) return failed(ec);
            }
            if (sys.hardware_counters) {
                auto const& hc = *sys.hardware_counters;
                if (!hc.counters.empty()) {
                    call(apply_call::hardware_counters, s.name);
                    std::vector<pmc_counter> counters;
                    for (auto const& name : hc.counters) counters.push_back(pmc_counter::named(name));
                    std::vector<hook_id> const events = detail::hooks_of(hc.events);
                    pmc_report const pr = setup_pmc(k, h, std::span<pmc_counter const>(counters), std::span<hook_id const>(events));
                    if (!pr.ok()) return failed(pr.error);
                }
                if (hc.last_branch && !hc.last_branch->events.empty()) {
                    call(apply_call::lbr_events, s.name);
                    std::vector<hook_id> const events = detail::hooks_of(hc.last_branch->events);
                    if (auto const ec = set<lbr_event_list>(k, h, std::span<hook_id const>(events))) return failed(ec);
                }
            }
        }
        session_ref const ref = r.profile.sessions().back().ref();
        for (std::size_t i = 0; i < s.providers.size(); ++i) {
            provider_plan const& pr = s.providers[i];
            std::string exe;
            enable_options const opts = detail::enable_options_of(pr, exe);
            if (!pr.capture_state_only) {
                call(apply_call::enable_provider, s.name, pr.name);
                if (auto const ec = enable_provider(ref, ps.providers[i], opts)) return failed(ec);
            }
            for (auto const& cs : pr.capture_state) {
                if (cs.when != capture_moment::start) continue;
                enable_options co = opts;
                co.match_any(cs.match_any);
                if (cs.timeout_s) co.timeout(std::chrono::milliseconds{std::uint64_t{*cs.timeout_s} * 1000U});
                call(apply_call::capture_state, s.name, pr.name);
                if (auto const ec = capture_state(ref, ps.providers[i], co)) return failed(ec);
            }
        }
    }
    return r;
}

// ---- the sessions of a profile: find, status, stop, cancel ---------------------------------------------

/// WPR's prefix of its default instance ("WPR_initiated_WprApp_"): the sessions a profile starts.
[[nodiscard]] inline std::string default_session_prefix() { return profile_request{}.session_prefix; }

/// A running session of a profile: its name, log file, handle and what check.hpp compares.
struct running_session {
    std::string name;
    std::string log_file;
    session_handle handle{};
    queried_session query; ///< properties as ControlTrace QUERY reports them; flags for a system logger
};

struct profile_sessions {
    std::vector<running_session> sessions;
    std::error_code error; ///< the list's or a query's error (sessions then holds what was found before)
};

namespace detail {
[[nodiscard]] inline std::string utf8_of(wide_string_view w) {
    std::string o(utf8_from_utf16(w, nullptr, 0), '\0');
    (void)utf8_from_utf16(w, o.data(), o.size());
    return o;
}
} // namespace detail

/// The running sessions whose names begin with `prefix` (ASCII case-insensitive, as ETW compares
/// session names): a list (QueryAllTraces), then for each system logger its group mask.
template <class K>
    requires(etwctl::kernel<K> && session_kernel<K>)
[[nodiscard]] profile_sessions find_profile_sessions(K& k, std::string_view prefix) {
    profile_sessions out;
    std::vector<session_properties> entries(limits::max_loggers);
    std::vector<void*> pointers(entries.size());
    auto listed = list_sessions(k, session_list_storage{entries, pointers});
    if (!listed && sessions_required() > entries.size()) {
        entries.resize(sessions_required());
        pointers.resize(entries.size());
        listed = list_sessions(k, session_list_storage{entries, pointers});
    }
    if (!listed) {
        out.error = listed.error();
        return out;
    }
    for (auto const& b : *listed) {
        std::string const name = detail::utf8_of(b.name());
        if (name.size() < prefix.size() || !etwctl::detail::iequals(std::string_view(name).substr(0, prefix.size()), prefix)) continue;
        running_session s;
        s.name = name;
        s.log_file = detail::utf8_of(b.log_file());
        s.handle = b.handle();
        auto const& pr = b.properties;
        s.query = {name, pr.buffer_size, pr.minimum_buffers, pr.maximum_buffers, pr.log_file_mode, pr.maximum_file_size, pr.flush_timer, {}};
        if (pr.log_file_mode & log_file_mode::system_logger) {
            auto const flags = query<system_trace_enable_flags>(k, s.handle);
            if (!flags) {
                out.error = flags.error();
                return out;
            }
            s.query.flags = *flags;
        }
        out.sessions.push_back(std::move(s));
    }
    return out;
}

/// wpr -cancel: stops every session whose name begins with `prefix`; nothing is saved.
template <class K>
    requires(etwctl::kernel<K> && session_kernel<K>)
[[nodiscard]] std::vector<stopped_session> cancel_profile(K& k, std::vector<running_session> const& sessions) {
    std::vector<stopped_session> out;
    for (auto const& s : sessions) out.push_back({s.name, s.log_file, s.handle, {}, stop_session(session_kernel_ref(k), s.name), {}});
    return out;
}

/// wpr -stop: for each session, its events to a file (a File-mode session: flushed to its own file; a
/// Memory-mode session: its ring written to "<directory>/<name>.etl" with ControlTrace UPDATE), then
/// stopped. WPR then merges the files into one .etl with a KernelTraceControl merge that is not public:
/// etwctl does not merge, and names each session's file instead.
template <class K>
    requires(etwctl::kernel<K> && session_kernel<K>)
[[nodiscard]] std::vector<stopped_session> stop_profile(K& k, std::vector<running_session> const& sessions,
                                                        std::string const& directory = {}) {
    std::vector<stopped_session> out;
    apply_options o;
    o.log_directory = directory;
    for (auto const& s : sessions) {
        stopped_session st{s.name, s.log_file, s.handle, {}, {}, {}};
        session_ref const ref(session_kernel_ref(k), s.handle);
        if (s.log_file.empty()) {
            if (std::string const why = check_file_name(s.name); !why.empty()) {
                // Its file would be "<directory>/<name>.etl": a path elsewhere. Left running, untouched.
                st.log_file.clear();
                st.skipped = why + ": it cannot name a file in the directory; left running (wpr -cancel stops it)";
                out.push_back(std::move(st));
                continue;
            }
            st.log_file = detail::log_file_of(o, s.name);
            st.flush_error = ref.update(session_update{}.log_file(st.log_file));
        } else {
            st.flush_error = ref.flush();
        }
        if (st.flush_error) st.log_file.clear();
        st.report = stop_session(session_kernel_ref(k), s.name);
        out.push_back(std::move(st));
    }
    return out;
}

} // namespace wpr
ETWCTL_END_NAMESPACE
