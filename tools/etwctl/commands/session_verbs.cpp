// The session verbs on the library's typed session API: -start (start_session with a session_config,
// then the kernel flags, stacks and counters through the etwctl commands on the new handle, and the
// providers with enable_provider), -update (attach_session, session_ref::update, the same changes),
// -flush (flush, or UPDATE with a log file), -stop (stop_session, with the final statistics), -loggers
// (list_sessions; with a NAME, a query).
#include "session_verbs.hpp"

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "etwctl/error.hpp"
#include "etwctl/request/decode.hpp"
#include "etwctl/sessions.hpp"

#include "../annotate.hpp"
#include "../names.hpp"
#include "../provider_lookup.hpp"
#include "../session.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {

/// A named session with kernel work (-on kernel flags, -stackwalk, -pmc) is a system logger; the NT
/// Kernel Logger is one by name; anything else is a user session.
bool system_logger(group const& g) {
    return g.kernel_logger() || (g.kernel && (!g.on.empty() || !g.stackwalk.empty() || g.pmc));
}

char const* kind_name(etwctl::session_kind k) {
    switch (k) {
    case etwctl::session_kind::user: return "user session";
    case etwctl::session_kind::system_logger: return "system logger";
    case etwctl::session_kind::nt_kernel_logger: return "NT Kernel Logger";
    }
    return "";
}

/// xperf's default log files, from its documentation of -f (Windows Performance Toolkit, xperf "start"
/// options on learn.microsoft.com): "The default is \Kernel.etl for kernel traces and \User.etl for user
/// traces". A path at the root of the current drive: on Windows, StartTraceW resolves it there as it does
/// for xperf; the simulated kernel keeps the name as given and writes no file (docs/tool.md).
constexpr std::string_view xperf_kernel_file = "\\Kernel.etl";
constexpr std::string_view xperf_user_file = "\\User.etl";

/// Where a -start group's events go: its -f; nothing (in memory or real time: -Buffering, -RealTime);
/// else xperf's default file. A system logger (a named session with kernel work) has no documented
/// default: `undocumented`, refused by prepare_plan rather than guessed.
struct destination {
    std::string_view file;     ///< empty: no log file
    bool defaulted = false;    ///< the file is xperf's default (no -f)
    bool undocumented = false; ///< no -f, and no source states xperf's default for this kind of session
};

destination destination_of(group const& g) {
    auto const& s = g.settings;
    if (s.file) return {*s.file};
    if (s.real_time || s.buffering) return {};
    if (g.kernel_logger()) return {xperf_kernel_file, true};
    if (system_logger(g)) return {{}, false, true};
    return {xperf_user_file, true};
}

/// The -start group as a session configuration (names point into the plan, which outlives it).
etwctl::session_config config_of(group const& g) {
    using etwctl::session_config;
    session_config c = g.kernel_logger() ? session_config::nt_kernel_logger()
                       : system_logger(g) ? session_config::system_logger(g.name)
                                          : session_config::user(g.name);
    auto const& s = g.settings;
    destination const d = destination_of(g);
    if (!d.file.empty() || s.mode || s.max_file) {
        std::string_view const path = d.file;
        etwctl::file_size const max = s.max_file ? etwctl::file_size::megabytes(*s.max_file) : etwctl::file_size{};
        switch (s.mode.value_or(file_mode::sequential)) {
        case file_mode::sequential: c = c.file_sequential(path, max); break;
        case file_mode::circular: c = c.file_circular(path, max); break;
        case file_mode::append: c = c.file_append(path); break;
        case file_mode::new_file: c = c.file_newfile(path, max); break;
        }
    }
    if (s.real_time) c = c.real_time();
    if (s.buffering) c = c.buffering();
    if (s.buffer_size) c = c.buffer(etwctl::buffer_size::kilobytes(*s.buffer_size));
    if (s.min_buffers || s.max_buffers)
        c = c.buffers(etwctl::minimum_buffers{s.min_buffers.value_or(0)}, etwctl::maximum_buffers{s.max_buffers.value_or(0)});
    if (s.flush_timer) c = c.flush_timer(std::chrono::seconds{*s.flush_timer});
    if (s.clock) c = c.clock(static_cast<etwctl::clock_type>(static_cast<std::uint32_t>(*s.clock)));
    if (system_logger(g) && g.kernel && g.flags.masks[0] != 0) c = c.enable_flags(g.flags.masks[0]);
    return c;
}

/// The name a session call uses for the group: its own, or the NT Kernel Logger's.
std::string session_name(group const& g) { return g.kernel_logger() ? std::string("NT Kernel Logger") : g.name; }

/// What to do about a configuration rule, in the tool's options (describe() speaks the library's).
std::string config_hint(etwctl::rule r) {
    switch (r) {
    case etwctl::rule::session_mode_needs_maximum_file_size: return "add -MaxFile MB (the file's limit)";
    case etwctl::rule::session_mode_needs_log_file: return "add -f FILE";
    case etwctl::rule::session_newfile_needs_percent_d: return "give -f a name with one %d, e.g. -f trace_%d.etl";
    case etwctl::rule::session_no_destination: return "add -f FILE, -RealTime or -Buffering";
    case etwctl::rule::session_log_file_mode_conflict:
        return "-Buffering keeps events in memory (no -f; save them with -flush NAME -f FILE); -FileMode Append does not take -RealTime";
    case etwctl::rule::session_buffer_size_out_of_range: return "give -BufferSize in KB, 4..16384";
    case etwctl::rule::session_name_invalid: return "give a session name of 1..1024 characters";
    default: return {};
    }
}

/// What to do about the Win32 codes the session calls answer most, in the tool's words.
std::string session_hint(std::error_code const& ec) {
    if (ec.category() != etwctl::win32_category()) return {};
    switch (static_cast<std::uint32_t>(ec.value())) {
    case etwctl::win32::already_exists:
        return "a session of that name runs: stop it first (etwctl -stop NAME) or change it (etwctl -update NAME ...); "
               "etwctl -loggers lists the sessions";
    case etwctl::win32::wmi_instance_not_found: return "no such session: etwctl -loggers lists the sessions that run";
    case etwctl::win32::access_denied:
        return "run elevated (as administrator) or as a member of Performance Log Users; the NT Kernel Logger needs an administrator";
    case etwctl::win32::no_system_resources:
        return "the machine runs its most sessions (64 by default) or 8 system loggers: etwctl -loggers lists them; stop the ones "
               "nobody needs";
    default: return {};
    }
}

/// "'Name' (logger 3)", "NT Kernel Logger (0xFFFF)", "'Name' (dry run: not started)".
std::string handle_label(group const& g, etwctl::session_handle h, tool_kernel const& k) {
    return g.label() + " (" + (k.is_placeholder(h.value)          ? std::string("dry run: not started")
                               : h.logger().is_kernel_logger() ? std::string("0xFFFF")
                                                               : "logger " + std::to_string(h.logger().value)) + ")";
}

/// A refusal of the typed API, reported with describe()'s message (the values and the fix).
int report_error(context const& ctx, std::error_code const& ec, std::string const& what, std::string const& session,
                 std::string hint = {}) {
    failure f{exit_code_of(ec), ec, what + ": " + etwctl::describe(ec), {}, hint.empty() ? session_hint(ec) : std::move(hint)};
    f.details.str("session", session);
    return report_failure(ctx, f);
}

std::string statistics_json(etwctl::session_statistics const& s) {
    return json_object()
        .num("events_lost", s.events_lost)
        .num("buffers_written", s.buffers_written)
        .num("log_buffers_lost", s.log_buffers_lost)
        .num("real_time_buffers_lost", s.real_time_buffers_lost)
        .num("number_of_buffers", s.number_of_buffers)
        .num("free_buffers", s.free_buffers)
        .text();
}

/// The kernel flags, stacks and counters of a system logger, through the etwctl commands on `s`.
int apply_kernel_work(context const& ctx, tool_kernel& k, group const& g, session_arg const& s, bool started,
                      std::vector<std::string>& results) {
    // A started session got Masks[0] as its EnableFlags; the group mask is needed for the other words.
    bool extended = false;
    for (std::size_t i = 1; i < 8; ++i) extended = extended || g.flags.masks[i] != 0;
    if (g.kernel && !g.on.empty() && (!started || extended))
        if (int const rc = run_command(ctx, k, {"flags", "-", "set", g.on}, {}, results, &s); rc != exit_ok) return rc;
    if (!g.stackwalk.empty())
        if (int const rc = run_command(ctx, k, {"stackwalk", "-", "set", g.stackwalk}, {}, results, &s,
                                       g.kernel && !g.on.empty() ? &g.flags : nullptr);
            rc != exit_ok)
            return rc;
    if (g.pmc)
        if (int const rc = run_command(ctx, k, {"pmc", "-"}, {{"--counters", g.pmc->counters}, {"--events", g.pmc->events}}, results, &s);
            rc != exit_ok)
            return rc;
    return exit_ok;
}

/// EnableTraceEx2 for each provider of the group's -on.
int enable_providers(context const& ctx, tool_kernel& k, group const& g, std::vector<etwctl::guid> const& ids,
                     etwctl::session_ref const& ref, std::string const& label, json_object& step) {
    std::vector<std::string> pj;
    for (std::size_t i = 0; i < g.providers.size() && i < ids.size(); ++i) {
        provider_spec const& p = g.providers[i];
        etwctl::enable_options o;
        o.level(p.level).match_any(p.keywords).enable_properties(p.enable_property); // any bit as given: EnableTraceEx2 checks it
        k.note_provider_name(p.name);
        if (auto const ec = etwctl::enable_provider(ref, ids[i], o); ec)
            return report_error(ctx, ec, "cannot enable provider " + p.name + " on " + label, label);
        char t[37];
        ids[i].format(t);
        pj.push_back(json_object()
                         .str("provider", t)
                         .str("provider_name", p.name)
                         .num("level", p.level)
                         .str("match_any", hex(p.keywords, 16))
                         .num("enable_property", p.enable_property)
                         .text());
        if (!ctx.cl.json)
            std::cout << label << ": provider " << p.name << (p.how == provider_spec::kind::guid ? "" : " {" + std::string(t) + "}")
                      << " enabled, level " << unsigned{p.level} << ", keywords " << hex_min(p.keywords, 1)
                      << (p.enable_property ? ", " + enable_property_text(p.enable_property) : std::string()) << "\n";
    }
    step.raw("providers", json_array(pj));
    return exit_ok;
}

int apply_start(context const& ctx, tool_kernel& k, group const& g, std::vector<etwctl::guid> const& ids, session_run& run,
                std::vector<std::string>& results) {
    etwctl::session_config const config = config_of(g);
    std::string const name = session_name(g);
    auto started = etwctl::start_session(etwctl::session_kernel_ref(k), config);
    if (!started) {
        // The NT Kernel Logger runs already: StartTraceW answers ERROR_ALREADY_EXISTS, and so does xperf
        // ("NT Kernel Logger: Cannot create a file when that file already exists", microsoft/WSL#538).
        std::error_code const ec = started.error();
        bool const kernel_logger_runs = g.kernel_logger() && ec.category() == etwctl::win32_category() &&
                                        static_cast<std::uint32_t>(ec.value()) == etwctl::win32::already_exists;
        return report_error(ctx, ec, "cannot start " + g.label(), name,
                            kernel_logger_runs ? "the NT Kernel Logger runs already (one per machine; -on without -start starts it, as "
                                                 "xperf's does): stop it first (etwctl -stop), or change the running one (etwctl "
                                                 "-session kernel -on FLAGS, or etwctl -update -on FLAGS)"
                                               : std::string());
    }
    destination const d = destination_of(g);
    etwctl::session_adjustments const adjusted = started->adjusted();
    etwctl::session_handle const h = (*started).release(); // the session outlives the tool, as xperf's do
    run.sessions.push_back({name, h.value});
    session_arg s;
    s.handle = h;
    s.text = handle_label(g, h, k);
    json_object step;
    step.str("command", "start").str("session", name).str("kind", kind_name(config.kind())).str("handle", hex(h.value, 16));
    step.num("logger", h.logger().value);
    if (!d.file.empty()) step.str("log_file", std::string(d.file)).boolean("log_file_default", d.defaulted);
    std::vector<std::string> aj;
    for (auto const& a : adjusted)
        aj.push_back(json_object().str("setting", etwctl::session_setting_name(a.setting)).num("requested", a.requested).num("effective", a.effective).text());
    step.raw("adjusted", json_array(aj));
    if (!ctx.cl.json) {
        std::cout << "started " << s.text;
        if (config.kind() != etwctl::session_kind::nt_kernel_logger) std::cout << ": " << kind_name(config.kind());
        if (!d.file.empty()) std::cout << ", file " << d.file << (d.defaulted ? " (xperf's default: no -f)" : "");
        if (g.settings.real_time) std::cout << ", real time";
        if (g.settings.buffering) std::cout << ", buffering (in memory)";
        std::cout << "\n";
        for (auto const& a : adjusted)
            std::cout << "  Windows changed " << etwctl::session_setting_name(a.setting) << ": asked " << a.requested << ", has "
                      << a.effective << "\n";
    }
    if (g.kernel) { // the start first, then the steps on the new session
        results.push_back(step.text());
        return apply_kernel_work(ctx, k, g, s, true, results);
    }
    if (int const rc = enable_providers(ctx, k, g, ids, etwctl::session_ref(etwctl::session_kernel_ref(k), h), s.text, step); rc != exit_ok)
        return rc;
    results.push_back(step.text());
    return exit_ok;
}

int apply_update(context const& ctx, tool_kernel& k, group const& g, std::vector<etwctl::guid> const& ids,
                 std::vector<std::string>& results) {
    std::string const name = session_name(g);
    auto const ref = etwctl::attach_session(etwctl::session_kernel_ref(k), name);
    if (!ref) return report_error(ctx, ref.error(), "cannot find " + g.label(), name);
    session_arg s;
    s.handle = ref->handle();
    s.text = handle_label(g, s.handle, k);
    json_object step;
    step.str("command", "update").str("session", name).num("logger", s.handle.logger().value);
    auto const& st = g.settings;
    if (st.file || st.flush_timer || st.max_buffers || st.real_time) {
        etwctl::session_update u;
        if (st.file) u = u.log_file(*st.file);
        if (st.flush_timer) u = u.flush_timer(std::chrono::seconds{*st.flush_timer});
        if (st.max_buffers) u = u.maximum_buffers(*st.max_buffers);
        if (st.real_time) u = u.real_time(true);
        if (auto const ec = ref->update(u); ec) return report_error(ctx, ec, "cannot update " + s.text, name);
        if (!ctx.cl.json) std::cout << (ctx.cl.dry_run ? "would update " : "updated ") << s.text << "\n";
    }
    if (int const rc = g.kernel ? apply_kernel_work(ctx, k, g, s, false, results) : enable_providers(ctx, k, g, ids, *ref, s.text, step);
        rc != exit_ok)
        return rc;
    results.push_back(step.text());
    return exit_ok;
}

int apply_flush(context const& ctx, tool_kernel& k, group const& g, std::vector<std::string>& results) {
    std::string const name = session_name(g);
    auto const ref = etwctl::attach_session(etwctl::session_kernel_ref(k), name);
    if (!ref) return report_error(ctx, ref.error(), "cannot find " + g.label(), name);
    std::string const label = handle_label(g, ref->handle(), k);
    // -f FILE: UPDATE with the log file (a buffering session writes its ring there; a file session
    // switches to it: ControlTraceW, "Updating an Event Tracing Session"). Otherwise FLUSH.
    std::error_code const ec = g.settings.file ? ref->update(etwctl::session_update{}.log_file(*g.settings.file)) : ref->flush();
    if (ec) return report_error(ctx, ec, "cannot flush " + label, name);
    json_object step;
    step.str("command", "flush").str("session", name).num("logger", ref->handle().logger().value);
    if (g.settings.file) step.str("log_file", *g.settings.file);
    results.push_back(step.text());
    if (!ctx.cl.json) std::cout << (ctx.cl.dry_run ? "would flush " : "flushed ") << label << (g.settings.file ? " to " + *g.settings.file : std::string()) << "\n";
    return exit_ok;
}

/// Each name is stopped even if an earlier one fails (UIforETW stops three sessions on one line, some of
/// which may not run); the first failure is reported after all were tried.
int apply_stop(context const& ctx, tool_kernel& k, group const& g, std::vector<std::string>& results) {
    std::vector<std::string> const& names = g.names; // a -stop without a name: "NT Kernel Logger" (plan.cpp)
    std::error_code first_error;
    std::string first_name;
    for (auto const& name : names) {
        etwctl::stop_report const r = etwctl::stop_session(etwctl::session_kernel_ref(k), name);
        json_object step;
        step.str("command", "stop").str("session", name).boolean("stopped", r.stopped);
        if (r.stopped) {
            step.raw("statistics", statistics_json(r.statistics));
            if (!ctx.cl.json && ctx.cl.dry_run) std::cout << "would stop '" << name << "' (dry run: not sent)\n";
            else if (!ctx.cl.json)
                std::cout << "stopped '" << name << "': " << r.statistics.buffers_written << " buffers written, "
                          << r.statistics.events_lost << " events lost\n";
            if (r.lost())
                std::cerr << "etwctl: " << ctx.command << ": warning: '" << name << "' lost data: " << r.statistics.events_lost
                          << " events, " << r.statistics.log_buffers_lost << " log-file buffers, " << r.statistics.real_time_buffers_lost
                          << " real-time buffers (larger or more buffers: -BufferSize, -MinBuffers, -MaxBuffers)\n";
            results.push_back(step.text());
        } else if (!first_error) {
            first_error = r.error;
            first_name = name;
            (void)etwctl::describe(r.error); // keep its context for the report below
        } else {
            std::cerr << "etwctl: " << ctx.command << ": cannot stop '" << name << "': " << r.error.message() << "\n";
        }
    }
    if (first_error) return report_error(ctx, first_error, "cannot stop '" + first_name + "'", first_name);
    return exit_ok;
}

std::string mode_text(std::uint32_t m) { return log_file_mode_text(m); }

std::string session_json(etwctl::session_properties const& b) {
    auto const& p = b.properties;
    return json_object()
        .str("name", utf8_of(b.name().data(), b.name().size()))
        .num("logger", b.handle().logger().value)
        .str("handle", hex(b.handle().value, 16))
        .str("log_file_mode", hex(p.log_file_mode, 8))
        .str("log_file", utf8_of(b.log_file().data(), b.log_file().size()))
        .num("buffer_size_kb", p.buffer_size)
        .num("minimum_buffers", p.minimum_buffers)
        .num("maximum_buffers", p.maximum_buffers)
        .num("enable_flags", p.enable_flags)
        .raw("statistics", statistics_json(etwctl::session_statistics::of(p)))
        .text();
}

int apply_query(context const& ctx, tool_kernel& k, group const& g, std::vector<std::string>& results) {
    std::string const name = session_name(g);
    auto const ref = etwctl::attach_session(etwctl::session_kernel_ref(k), name);
    if (!ref) return report_error(ctx, ref.error(), "cannot find " + g.label(), name);
    auto const q = ref->query();
    if (!q) return report_error(ctx, q.error(), "cannot query " + g.label(), name);
    auto const& p = q->properties();
    results.push_back(json_object().str("command", "query").raw("session", session_json(q->block)).text());
    if (!ctx.cl.json) {
        std::cout << utf8_of(q->name().data(), q->name().size()) << " (logger " << q->handle().logger().value << ")\n"
                  << "  LogFileMode  " << hex(p.log_file_mode, 8) << " " << mode_text(p.log_file_mode) << "\n"
                  << "  log file     " << (q->log_file().empty() ? std::string("(none)") : utf8_of(q->log_file().data(), q->log_file().size())) << "\n"
                  << "  buffers      " << p.buffer_size << " KB, " << p.minimum_buffers << ".." << p.maximum_buffers << ", "
                  << p.number_of_buffers << " in use, " << p.free_buffers << " free\n"
                  << "  EnableFlags  " << hex(p.enable_flags, 8) << "\n"
                  << "  written      " << p.buffers_written << " buffers; lost " << p.events_lost << " events, " << p.log_buffers_lost
                  << " log-file buffers, " << p.real_time_buffers_lost << " real-time buffers\n";
    }
    return exit_ok;
}

/// QueryAllTracesW with storage for 64 sessions, then, if more run, for as many as Windows reports.
int apply_list(context const& ctx, tool_kernel& k, std::vector<std::string>& results) {
    std::vector<etwctl::session_properties> entries(etwctl::limits::max_loggers);
    std::vector<void*> pointers(entries.size());
    auto listed = etwctl::list_sessions(k, etwctl::session_list_storage{entries, pointers});
    if (!listed && etwctl::sessions_required() > entries.size()) {
        entries.resize(etwctl::sessions_required());
        pointers.resize(entries.size());
        listed = etwctl::list_sessions(k, etwctl::session_list_storage{entries, pointers});
    }
    if (!listed) return report_error(ctx, listed.error(), "cannot list the sessions", "");
    std::vector<std::string> sj;
    if (!ctx.cl.json) std::cout << "Logger  Name                              LogFileMode  Log file\n";
    for (auto const& s : *listed) {
        sj.push_back(session_json(s));
        if (!ctx.cl.json) {
            std::string id = std::to_string(s.handle().logger().value);
            std::string nm = utf8_of(s.name().data(), s.name().size());
            id.resize(id.size() < 6 ? 6 : id.size(), ' ');
            nm.resize(nm.size() < 32 ? 32 : nm.size(), ' ');
            std::cout << id << "  " << nm << "  " << hex(s.properties.log_file_mode, 8) << "   "
                      << (s.log_file().empty() ? std::string("-") : utf8_of(s.log_file().data(), s.log_file().size())) << "\n";
        }
    }
    if (!ctx.cl.json) std::cout << listed->size() << (listed->size() == 1 ? " session\n" : " sessions\n");
    results.push_back(json_object().str("command", "list").num("count", listed->size()).raw("sessions", json_array(sj)).text());
    return exit_ok;
}

/// The session a recorded request is about (its handle), if it names one.
bool handle_of_request(request const& r, std::uint64_t& h) {
    if (r.is_session) {
        h = r.session.handle;
        return r.session.function != etwctl::session_function::query_all_traces_w;
    }
    if (r.function != etwctl::kernel_function::nt_set_system_information) return false;
    auto const d = etwctl::decode_request(r.function, r.code, std::span<std::byte const>(r.bytes.data(), r.bytes.size()));
    if (d.kind == etwctl::request_kind::none || d.kind == etwctl::request_kind::interval ||
        d.kind == etwctl::request_kind::profile_source_list || r.bytes.size() < 16)
        return false;
    h = d.trace_handle;
    return true;
}

} // namespace

int prepare_plan(context const& ctx, plan const& p, prepared_plan& out) {
    out.providers.assign(p.groups.size(), {});
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
        group const& g = p.groups[i];
        for (auto const& pr : g.providers) {
            etwctl::guid id = pr.id;
            if (pr.how == provider_spec::kind::event_source) {
                auto const r = etwctl::provider_guid_from_name(std::string_view(pr.name).substr(1));
                if (!r) return report_error(ctx, r.error(), "provider " + pr.name, session_name(g));
                id = *r;
            } else if (pr.how == provider_spec::kind::manifest) {
                auto const found = find_manifest_provider(pr.name, ctx.simulated);
                if (!found.found) return usage_error(ctx, found.why);
                id = found.id;
            }
            out.providers[i].push_back(id);
        }
        if (g.kind == group_kind::start && destination_of(g).undocumented) {
            std::error_code const ec = etwctl::make_error_code(etwctl::rule::session_no_destination);
            failure f{exit_refused, ec,
                      "cannot start " + g.label() +
                          ": a system logger (kernel work on a named session) without -f, -RealTime or -Buffering, and no "
                          "source states the file xperf writes for one (its documentation of -f gives \\Kernel.etl for kernel "
                          "traces, the NT Kernel Logger's, and \\User.etl for user traces); nothing was sent",
                      {}, config_hint(etwctl::rule::session_no_destination)};
            f.details.str("session", session_name(g));
            return report_failure(ctx, f);
        }
        if (g.kind == group_kind::start)
            if (auto const problem = config_of(g).complete(); problem.broken != etwctl::rule::ok) {
                std::error_code const ec = etwctl::config_error(problem);
                failure f{exit_refused, ec, "cannot start " + g.label() + ": " + etwctl::describe(ec) + "; nothing was sent", {},
                          config_hint(problem.broken)};
                f.details.str("session", session_name(g));
                return report_failure(ctx, f);
            }
    }
    return exit_ok;
}

int apply_session_group(context const& ctx, tool_kernel& k, group const& g, std::vector<etwctl::guid> const& providers,
                        session_run& run, std::vector<std::string>& results) {
    switch (g.kind) {
    case group_kind::start: return apply_start(ctx, k, g, providers, run, results);
    case group_kind::update: return apply_update(ctx, k, g, providers, results);
    case group_kind::flush: return apply_flush(ctx, k, g, results);
    case group_kind::stop: return apply_stop(ctx, k, g, results);
    case group_kind::query: return apply_query(ctx, k, g, results);
    case group_kind::list: return apply_list(ctx, k, results);
    case group_kind::running: break;
    }
    return exit_ok;
}

int roll_back_starts(context const& ctx, tool_kernel& k, session_run& run, int rc) {
    for (auto it = run.sessions.rbegin(); it != run.sessions.rend(); ++it) {
        if (k.is_placeholder(it->handle)) continue; // a dry run started nothing
        etwctl::session_ref const ref(etwctl::session_kernel_ref(k), etwctl::session_handle{it->handle});
        etwctl::stop_report const r = ref.stop();
        if (r.stopped) {
            run.rolled_back.push_back(it->handle);
            std::cerr << "etwctl: " << ctx.command << ": stopped '" << it->name
                      << "' again: a later step failed (xperf stops the loggers a line started when one fails)\n";
        } else {
            std::cerr << "etwctl: " << ctx.command << ": could not stop '" << it->name << "' again: " << r.error.message() << "\n";
        }
    }
    run.sessions.clear();
    return rc;
}

std::vector<std::string> calls_that_took_effect(tool_kernel const& k, std::size_t from, session_run const& run) {
    std::vector<std::string> calls;
    auto const namer = [](std::uint32_t id) { return "source " + std::to_string(id); };
    for (std::size_t i = from; i < k.requests().size(); ++i) {
        request const& r = k.requests()[i];
        if (!r.took_effect()) continue;
        std::uint64_t h = 0;
        bool undone = false;
        if (handle_of_request(r, h))
            for (auto const rb : run.rolled_back) undone = undone || rb == h || ((rb & 0xFFFFU) != 0 && (rb & 0xFFFFU) == (h & 0xFFFFU));
        if (undone) continue;
        annotated_request const a = annotate(r, namer);
        std::string what = a.rows.empty() || r.is_session ? std::string() : a.rows.front().note;
        if (auto const pad = what.find(", padding"); pad != std::string::npos) what.erase(pad);
        calls.push_back("#" + std::to_string(i + 1) + " " + a.call + (what.empty() ? "" : ": " + what));
    }
    return calls;
}

int finish_partial(context const& ctx, tool_kernel const& k, std::size_t from, session_run const& run, int rc) {
    if (rc == exit_ok) return rc;
    auto const calls = calls_that_took_effect(k, from, run);
    if (calls.empty()) return rc;
    std::cerr << "etwctl: " << ctx.command << ": partly applied: these calls took effect and stay in effect:\n";
    for (auto const& c : calls) std::cerr << "  " << c << "\n";
    if (ctx.deferred && ctx.deferred->set) {
        ctx.deferred->exit_code = exit_partial;
        for (auto const& c : calls) ctx.deferred->applied.push_back(json_string(c));
    }
    return exit_partial;
}

} // namespace etwctl_tool
