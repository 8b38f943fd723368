// etwctl - the command-line tool: kernel-session profiling controls in the idiom of xperf/tracelog,
// built on the etwctl library. On Windows it talks to the kernel (native_kernel); elsewhere, or with
// --sim, to the simulated kernel (and says so on stderr). See docs/tool.md.
//
// Exit codes (scripts rely on them; keep docs/tool.md in step):
//   0 ok, 1 usage (bad command line, unknown name or value), 2 refused by an etwctl rule before
//   anything was sent, 3 the kernel refused or failed, 4 partially applied (a later step failed
//   after an earlier one took effect and could not be undone).
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "etwctl/etwctl.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/sources.hpp"

#include "annotate.hpp"
#include "recording_kernel.hpp"
#include "text.hpp"

#if defined(_WIN32)
#include <windows.h>
#endif

#ifndef ETWCTL_TOOL_VERSION
#define ETWCTL_TOOL_VERSION "unknown"
#endif

namespace etwctl_tool {
namespace {

enum exit_code : int { exit_ok = 0, exit_usage = 1, exit_refused = 2, exit_kernel = 3, exit_partial = 4 };

// ---- help ----------------------------------------------------------------------------------------------

struct command_help {
    std::string_view name;
    std::string_view usage;
    std::string_view text;
};

constexpr command_help helps[] = {
    {"profile-sources", "etwctl profile-sources",
     "Lists the machine's profile sources: id, name, current interval, min and max interval\n"
     "(100 ns units for the timer; an event count for hardware counters)."},
    {"interval", "etwctl interval get [--source NAME|ID]\n       etwctl interval set [--source NAME|ID] VALUE",
     "Reads or sets the sampled-profile interval of a source (default: the timer). It is machine-global.\n"
     "VALUE: 100 ns units (10000 = 1 ms), or with a unit for timer sources: 122.1us, 1ms, 8kHz.\n"
     "The value must lie within the source's [min, max] (rule interval_out_of_bounds)."},
    {"stackwalk", "etwctl stackwalk SESSION NAMES",
     "Sets the session's stack-walk list: NAMES is CSwitch+ReadyThread+... (xperf names or 0x hook ids),\n"
     "or 'none' to turn stack walking off. The list replaces the session's previous one."},
    {"flags", "etwctl flags SESSION get\n       etwctl flags SESSION set NAMES",
     "Reads or sets the session's kernel flags (group mask): NAMES is PROC_THREAD+LOADER+PROFILE+...\n"
     "(xperf names, PERF_* names or 0x PERF values)."},
    {"pmc", "etwctl pmc SESSION --counters NAME|ID,... [--events NAMES] [--interval N] [--flags NAMES]",
     "Attaches hardware counters (profile sources, 1 to 4) to kernel events (0 to 4, xperf names joined\n"
     "with '+' or ','). --interval sets each counter's interval first; --flags turns kernel flags on\n"
     "(added to the session's flags) before the events' groups are checked. The counter and event\n"
     "lists can be set once per session."},
    {"version", "etwctl version", "Prints the tool's version, the kernel it talks to and TraceVersionInfo."},
    {"decode-handle", "etwctl decode-handle 0xHANDLE",
     "Decodes a classic provider's enable-callback TRACEHANDLE (TRACE_ENABLE_CONTEXT): logger id, level,\n"
     "internal flag and enable flags."},
};

constexpr std::string_view general_help =
    "usage: etwctl [--dry-run] [--json] [--sim] COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  profile-sources                      list the machine's profile sources\n"
    "  interval get|set [--source S] [V]    the sampled-profile interval of a source\n"
    "  stackwalk SESSION NAMES              set a session's stack-walk events\n"
    "  flags SESSION get|set [NAMES]        read or set a session's kernel flags\n"
    "  pmc SESSION --counters C,... [--events E+...] [--interval N] [--flags F+...]\n"
    "  version                              versions and the kernel in use\n"
    "  decode-handle 0xHANDLE               decode a TRACE_ENABLE_CONTEXT handle\n"
    "\n"
    "SESSION: a logger id (decimal or 0x), or 'kernel' / \"NT Kernel Logger\" (0xFFFF).\n"
    "options:\n"
    "  --dry-run   print the exact kernel requests as annotated hex; send only reads\n"
    "  --json      machine-readable output on stdout\n"
    "  --sim       use the simulated kernel even on Windows\n"
    "  --help      this text, or a command's (etwctl COMMAND --help)\n"
    "exit codes: 0 ok, 1 usage, 2 refused by a rule, 3 kernel error, 4 partially applied\n";

command_help const* find_help(std::string_view name) {
    for (auto const& h : helps)
        if (h.name == name) return &h;
    return nullptr;
}

// ---- command line ------------------------------------------------------------------------------------

struct command_line {
    bool dry_run = false, json = false, help = false, sim = false;
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> options; // --name value
    std::string error;

    std::optional<std::string> option(std::string_view name) const {
        for (auto const& [k, v] : options)
            if (k == name) return v;
        return std::nullopt;
    }
};

command_line parse_command_line(int argc, char** argv) {
    static constexpr std::string_view valued[] = {"--source", "--counters", "--events", "--interval", "--flags"};
    command_line c;
    for (int i = 1; i < argc; ++i) {
        std::string_view const a = argv[i];
        if (a == "--dry-run") c.dry_run = true;
        else if (a == "--json") c.json = true;
        else if (a == "--sim") c.sim = true;
        else if (a == "--help" || a == "-h") c.help = true;
        else if (a.size() > 2 && a.substr(0, 2) == "--") {
            std::string_view name = a, value;
            bool inline_value = false;
            if (auto const eq = a.find('='); eq != std::string_view::npos) {
                name = a.substr(0, eq);
                value = a.substr(eq + 1);
                inline_value = true;
            }
            bool known = false;
            for (auto v : valued) known = known || v == name;
            if (!known) {
                c.error = "unknown option " + std::string(name);
                return c;
            }
            if (!inline_value) {
                if (i + 1 >= argc) {
                    c.error = "option " + std::string(name) + " needs a value";
                    return c;
                }
                value = argv[++i];
            }
            c.options.emplace_back(std::string(name), std::string(value));
        } else {
            c.positional.emplace_back(a);
        }
    }
    return c;
}

// ---- output -------------------------------------------------------------------------------------------

struct context {
    command_line const& cl;
    std::string command;
    bool simulated = false;
};

int usage_error(context const& ctx, std::string const& message) {
    if (ctx.cl.json) {
        std::cout << json_object()
                         .boolean("ok", false)
                         .num("exit_code", exit_usage)
                         .raw("error", json_object().str("kind", "usage").str("message", message).text())
                         .text()
                  << "\n";
    }
    std::cerr << "etwctl: " << (ctx.command.empty() ? "" : ctx.command + ": ") << message << "\n";
    if (auto const* h = find_help(ctx.command)) std::cerr << "usage: " << h->usage << "\n";
    else std::cerr << "run 'etwctl --help' for the commands\n";
    return exit_usage;
}

/// A hint for the statuses users meet most, in their words.
std::string hint_for(std::error_code const& ec) {
    if (ec.category() != etwctl::ntstatus_category()) return {};
    switch (ec.value()) {
    case etwctl::ntstatus::privilege_not_held: return "needs SeSystemProfilePrivilege: run elevated (as administrator)";
    case etwctl::ntstatus::wmi_instance_not_found: return "no such session: start it first (xperf -on, tracelog -start)";
    case etwctl::ntstatus::wmi_already_enabled: return "already set for this session: the list can be set once; restart the session";
    case etwctl::ntstatus::access_denied: return "access denied: run elevated, or as a member of Performance Log Users";
    case etwctl::ntstatus::entrypoint_not_found: return "the kernel function is not available on this system";
    default: return {};
    }
}

struct failure {
    int code = exit_ok;
    std::error_code ec;
    std::string message;     ///< what failed, in the tool's words
    json_object details;     ///< extra JSON members
};

/// Exit code for an error: a broken rule (checked before the call) is 2, except the name-parsing
/// rules, which are usage errors; anything the kernel said is 3.
int exit_code_of(std::error_code const& ec) {
    auto const r = etwctl::rule_of(ec);
    if (r == etwctl::rule::parse_unknown_name || r == etwctl::rule::parse_duplicate_name ||
        r == etwctl::rule::parse_empty_name || r == etwctl::rule::parse_too_many_names)
        return exit_usage;
    return r != etwctl::rule::ok ? exit_refused : exit_kernel;
}

int report_failure(context const& ctx, failure const& f) {
    auto const r = etwctl::rule_of(f.ec);
    std::string const hint = hint_for(f.ec);
    if (ctx.cl.json) {
        json_object e;
        e.str("kind", f.code == exit_refused ? "refused" : f.code == exit_usage ? "usage" : f.code == exit_partial ? "partial" : "kernel");
        e.str("category", f.ec.category().name()).raw("value", std::to_string(f.ec.value()));
        if (f.ec.category() == etwctl::ntstatus_category()) e.str("ntstatus", hex(static_cast<std::uint32_t>(f.ec.value()), 8));
        if (r != etwctl::rule::ok) e.str("rule", etwctl::info(r).name);
        e.num("win32", etwctl::to_win32(f.ec)).str("message", f.message).str("detail", f.ec.message());
        if (!hint.empty()) e.str("hint", hint);
        std::cout << json_object().boolean("ok", false).num("exit_code", static_cast<std::uint64_t>(f.code)).raw("error", e.text())
                         .raw("details", f.details.text()).text()
                  << "\n";
    }
    std::cerr << "etwctl: " << ctx.command << ": " << f.message << "\n";
    std::uint32_t const w = etwctl::to_win32(f.ec);
    char const* wname = etwctl::win32::name(w);
    std::string const win32 = "Win32 " + std::to_string(w) + (wname ? std::string(" ") + wname : std::string());
    if (r != etwctl::rule::ok)
        std::cerr << "  rule " << etwctl::info(r).name << ": " << etwctl::info(r).text << " (" << win32 << ")\n";
    else
        std::cerr << "  " << (f.code == exit_usage ? "" : "kernel: ") << f.ec.message() << " (" << win32 << ")\n";
    if (!hint.empty()) std::cerr << "  hint: " << hint << "\n";
    return f.code;
}

// ---- the machine ---------------------------------------------------------------------------------------

/// The simulated machine: the NT Kernel Logger running in system-logger mode with the flags of a
/// typical CPU-profiling session, privilege held. ETWCTL_SIM (comma-separated) changes it, so scripts
/// and tests can exercise refusals: no-privilege, flags=NAMES, logger=N (system-logger mode),
/// user-logger=N (not system-logger mode), paged-logger=N, max-pmc=N, no-query-interval,
/// pmc-events=NAMES (the NT Kernel Logger's PMC event list already set, as by an earlier run).
inline constexpr std::string_view sim_default_flags = "PROC_THREAD+LOADER+PROFILE+CSWITCH";

bool configure_sim(etwctl::sim::kernel& k, std::string& error) {
    std::string_view flags = sim_default_flags;
    bool no_privilege = false;
    std::string_view pmc_events;
    std::string spec;
    if (char const* env = std::getenv("ETWCTL_SIM")) spec = env;
    k.start_kernel_logger();
    std::string_view rest = spec;
    while (!rest.empty()) {
        auto const comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        if (item.empty()) continue;
        auto const eq = item.find('=');
        std::string_view const key = item.substr(0, eq);
        std::string_view const value = eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
        std::uint64_t n = 0;
        if (key == "no-privilege") no_privilege = true;
        else if (key == "no-query-interval") k.set_available(etwctl::kernel_function::nt_query_interval_profile, false);
        else if (key == "flags") flags = value;
        else if ((key == "logger" || key == "user-logger" || key == "paged-logger") && parse_uint(value, 63, n)) {
            etwctl::sim::logger_options o;
            o.system_logger_mode = key != "user-logger";
            o.paged_memory = key == "paged-logger";
            if (k.start_logger(static_cast<std::uint16_t>(n), o) == 0) {
                error = "ETWCTL_SIM: cannot start logger " + std::string(value);
                return false;
            }
        } else if (key == "pmc-events") {
            pmc_events = value; // as if an earlier run had set the NT Kernel Logger's PMC event list
        } else if (key == "max-pmc" && parse_uint(value, 16, n)) {
            k.set_max_pmc_counters(static_cast<std::uint32_t>(n));
        } else {
            error = "ETWCTL_SIM: unknown item '" + std::string(item) + "'";
            return false;
        }
    }
    etwctl::group_mask m;
    etwctl::parse_error pe;
    if (etwctl::parse_kernel_flags(flags, m, &pe) != etwctl::rule::ok) {
        error = "ETWCTL_SIM: bad flags '" + std::string(flags) + "'";
        return false;
    }
    // Set directly on the model (not through the recorder): it is the machine's state, not a request.
    if (auto const ec = etwctl::set<etwctl::system_trace_enable_flags>(k, etwctl::session_handle{etwctl::limits::kernel_logger_id}, m); ec) {
        error = "ETWCTL_SIM: cannot set flags: " + ec.message();
        return false;
    }
    if (!pmc_events.empty()) {
        etwctl::hook_id ids[etwctl::limits::max_pmc_events];
        std::size_t n = 0;
        if (etwctl::parse_stack_walk(pmc_events, ids, n) != etwctl::rule::ok ||
            etwctl::set<etwctl::pmc_event_list>(k, etwctl::session_handle{etwctl::limits::kernel_logger_id},
                                                std::span<etwctl::hook_id const>(ids, n))) {
            error = "ETWCTL_SIM: bad pmc-events '" + std::string(pmc_events) + "'";
            return false;
        }
    }
    k.set_privilege(!no_privilege); // after the flags: PROFILE needs the privilege to be set
    k.clear_requests();
    return true;
}

// ---- shared pieces of the commands ----------------------------------------------------------------------

struct session_arg {
    etwctl::session_handle handle;
    std::string text; ///< for messages
};

bool parse_session(std::string_view s, session_arg& out) {
    std::uint64_t n = 0;
    if (iequals(s, "kernel") || iequals(s, "NT Kernel Logger")) n = etwctl::limits::kernel_logger_id;
    else if (!parse_uint(s, 0xFFFF, n) || (n >= etwctl::limits::max_loggers && n != etwctl::limits::kernel_logger_id))
        return false;
    out.handle = etwctl::session_handle{n};
    out.text = n == etwctl::limits::kernel_logger_id ? std::string("NT Kernel Logger (0xFFFF)") : "logger " + std::to_string(n);
    return true;
}

std::string event_list_text(std::span<etwctl::hook_id const> ids) {
    std::string buf(64 + ids.size() * 32, '\0');
    std::size_t const n = etwctl::format_stack_walk(ids, std::span<char>(buf.data(), buf.size()));
    buf.resize(n < buf.size() ? n : buf.size());
    return buf;
}

/// Masks[0] alias bits duplicate the extended flags the kernel reports next to them; for display the
/// extended flag is enough (CSWITCH, not CSWITCH+0x00000010).
etwctl::group_mask display_mask(etwctl::group_mask m) {
    for (auto const& a : etwctl::enable_flag_aliases)
        if (m.contains(a.extended)) m.masks[0] &= ~a.enable_flag;
    return m;
}
std::string flags_text(etwctl::group_mask const& m) {
    std::string buf(1024, '\0');
    std::size_t const n = etwctl::format_kernel_flags(display_mask(m), std::span<char>(buf.data(), buf.size()));
    buf.resize(n < buf.size() ? n : buf.size());
    return buf.empty() ? std::string("(none)") : buf;
}

std::string parse_error_text(std::string_view what, std::string_view text, etwctl::parse_error const& e) {
    std::string m = "bad " + std::string(what) + " '" + std::string(text) + "': " +
                    std::string(etwctl::info(e.why).text);
    if (e.length) m += " '" + std::string(text.substr(e.offset, e.length)) + "'";
    m += " at offset " + std::to_string(e.offset);
    if (!e.suggestion.empty()) m += " (did you mean " + std::string(e.suggestion) + "?)";
    return m;
}

/// One row of the machine's profile-source list, copied out of the query buffer.
struct source_row {
    std::uint32_t id = 0;
    std::string name;
    std::uint32_t min = 0, max = 0;
};

template <class K>
etwctl::result<std::vector<source_row>> read_sources(K& k) {
    etwctl::profile_source_list_buffer<> storage;
    auto const list = etwctl::query<etwctl::profile_source_list>(k, storage.span());
    if (!list) return list.error();
    std::vector<source_row> rows;
    for (auto e : *list) {
        char name[128];
        e.description_ascii(name);
        rows.push_back({e.source_id(), name, e.min_interval(), e.max_interval()});
    }
    return rows;
}

source_row const* find_source(std::vector<source_row> const& rows, std::string_view text) {
    for (auto const& r : rows)
        if (iequals(r.name, text)) return &r;
    std::uint64_t n = 0;
    std::optional<std::uint32_t> id;
    if (parse_uint(text, 0xFFFFFFFFULL, n)) id = static_cast<std::uint32_t>(n);
    else if (auto const s = etwctl::profile_source_by_name(text)) id = static_cast<std::uint32_t>(*s); // KPROFILE names
    if (id)
        for (auto const& r : rows)
            if (r.id == *id) return &r;
    return nullptr;
}

bool is_timer_source(source_row const& s) {
    return s.id == static_cast<std::uint32_t>(etwctl::profile_source::time) || s.name.rfind("Timer", 0) == 0;
}

// ---- the commands -----------------------------------------------------------------------------------

template <class K>
int cmd_profile_sources(context const& ctx, K& k, json_object& out) {
    if (!ctx.cl.positional.empty() && ctx.cl.positional.size() != 1) return usage_error(ctx, "takes no arguments");
    auto const rows = read_sources(k);
    if (!rows) return report_failure(ctx, {exit_code_of(rows.error()), rows.error(), "cannot read the profile-source list", {}});
    std::vector<std::string> json_rows;
    std::string text = "  Id  Name                              Interval         Min         Max\n";
    for (auto const& r : *rows) {
        auto const iv = etwctl::query<etwctl::sampled_profile_interval>(k, static_cast<etwctl::profile_source>(r.id));
        std::string const interval = iv ? std::to_string(iv->count()) : std::string("?");
        auto pad_left = [](std::string s, std::size_t w) { return s.size() < w ? std::string(w - s.size(), ' ') + s : s; };
        auto pad_right = [](std::string s, std::size_t w) { return s.size() < w ? s + std::string(w - s.size(), ' ') : s; };
        text += pad_left(std::to_string(r.id), 4) + "  " + pad_right(r.name, 30) + pad_left(interval, 12) +
                pad_left(std::to_string(r.min), 12) + pad_left(std::to_string(r.max), 12) + "\n";
        json_object o;
        o.num("id", r.id).str("name", r.name);
        if (iv) o.num("interval", iv->count());
        else o.raw("interval", "null");
        json_rows.push_back(o.num("min", r.min).num("max", r.max).text());
    }
    out.raw("sources", json_array(json_rows));
    if (!ctx.cl.json) std::cout << text;
    return exit_ok;
}

template <class K>
int cmd_interval(context const& ctx, K& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() < 2 || (p[1] != "get" && p[1] != "set")) return usage_error(ctx, "expected 'get' or 'set'");
    bool const setting = p[1] == "set";
    if (setting ? p.size() != 3 : p.size() != 2) return usage_error(ctx, setting ? "set takes one VALUE" : "get takes no VALUE");
    auto const rows = read_sources(k);
    if (!rows) return report_failure(ctx, {exit_code_of(rows.error()), rows.error(), "cannot read the profile-source list", {}});
    std::string const source_text = ctx.cl.option("--source").value_or("0");
    source_row const* src = find_source(*rows, source_text);
    if (!src) {
        failure f{exit_refused, etwctl::make_error_code(etwctl::rule::profile_source_absent),
                  "profile source '" + source_text + "' is not in this machine's list (see etwctl profile-sources)", {}};
        f.details.str("source", source_text);
        return report_failure(ctx, f);
    }
    auto const source = static_cast<etwctl::profile_source>(src->id);
    out.num("source", src->id).str("name", src->name);
    auto const before = etwctl::query<etwctl::sampled_profile_interval>(k, source);
    if (!before) return report_failure(ctx, {exit_code_of(before.error()), before.error(), "cannot read the interval of " + src->name, {}});
    auto const describe = [&](std::uint32_t v) {
        return is_timer_source(*src) ? " (" + describe_period(v ? v : 1) + ")" : std::string(" events");
    };
    std::string const label = src->name + " (" + std::to_string(src->id) + ")";
    if (!setting) {
        out.num("interval", before->count()).num("min", src->min).num("max", src->max);
        if (!ctx.cl.json) std::cout << label << ": " << before->count() << describe(before->count()) << "\n";
        return exit_ok;
    }
    std::uint32_t value = 0;
    bool had_unit = false;
    if (!parse_interval(p[2], value, had_unit))
        return usage_error(ctx, "bad interval '" + p[2] + "': give 100 ns units (10000) or a value with a unit (122.1us, 1ms, 8kHz)");
    if (had_unit && !is_timer_source(*src))
        return usage_error(ctx, src->name + " counts events: give its interval as a plain number of events");
    if (value < src->min || value > src->max) {
        failure f{exit_refused, etwctl::make_error_code(etwctl::rule::interval_out_of_bounds),
                  "interval " + std::to_string(value) + " is outside " + label + "'s [" + std::to_string(src->min) + ", " +
                      std::to_string(src->max) + "]",
                  {}};
        f.details.num("requested", value).num("min", src->min).num("max", src->max);
        return report_failure(ctx, f);
    }
    if (auto const ec = etwctl::set<etwctl::sampled_profile_interval>(k, source, etwctl::profile_interval{value}); ec)
        return report_failure(ctx, {exit_code_of(ec), ec, "cannot set the interval of " + label, {}});
    out.num("before", before->count()).num("requested", value);
    std::string line = label + ": " + std::to_string(before->count()) + " -> " + std::to_string(value) + describe(value);
    if (!ctx.cl.dry_run) {
        // Read back: the kernel may round or clamp (the HAL decides).
        auto const after = etwctl::query<etwctl::sampled_profile_interval>(k, source);
        if (after) {
            out.num("after", after->count());
            if (after->count() != value) line += ", kernel set " + std::to_string(after->count());
        }
    }
    if (!ctx.cl.json) std::cout << line << "\n";
    return exit_ok;
}

template <class K>
int cmd_stackwalk(context const& ctx, K& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() != 3) return usage_error(ctx, "expected SESSION and NAMES");
    session_arg s;
    if (!parse_session(p[1], s)) return usage_error(ctx, "bad session '" + p[1] + "'");
    etwctl::stack_walk_set<> set;
    if (!iequals(p[2], "none")) {
        etwctl::hook_id ids[etwctl::limits::max_stack_tracing_events];
        std::size_t n = 0;
        etwctl::parse_error pe;
        if (auto const r = etwctl::parse_stack_walk(p[2], ids, n, &pe); r != etwctl::rule::ok) {
            if (r == etwctl::rule::parse_too_many_names)
                return report_failure(ctx, {exit_refused, etwctl::make_error_code(etwctl::rule::stack_walk_overflow),
                                            "more than 256 stack-walk events", {}});
            return usage_error(ctx, parse_error_text("stack-walk list", p[2], pe));
        }
        if (auto const r = set.add(std::span<etwctl::hook_id const>(ids, n)); r != etwctl::rule::ok)
            return report_failure(ctx, {exit_refused, etwctl::make_error_code(r), "too many stack-walk events", {}});
    }
    out.num("session", s.handle.value);
    std::vector<std::string> events;
    for (auto h : set)
        events.push_back(json_object().str("hook", hex(h.value, 4)).str("name", etwctl::kernel_event_name(h)).text());
    out.raw("events", json_array(events));
    if (auto const ec = set.apply(k, s.handle); ec)
        return report_failure(ctx, {exit_code_of(ec), ec, "cannot set the stack-walk list of " + s.text, {}});
    if (!ctx.cl.json)
        std::cout << s.text << ": stack walk " << (set.empty() ? std::string("off") : event_list_text(set.span())) << " ("
                  << set.size() << (set.size() == 1 ? " event" : " events") << ")\n";
    return exit_ok;
}

template <class K>
int cmd_flags(context const& ctx, K& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() < 3 || (p[2] != "get" && p[2] != "set")) return usage_error(ctx, "expected SESSION and 'get' or 'set'");
    session_arg s;
    if (!parse_session(p[1], s)) return usage_error(ctx, "bad session '" + p[1] + "'");
    bool const setting = p[2] == "set";
    if (setting ? p.size() != 4 : p.size() != 3) return usage_error(ctx, setting ? "set takes NAMES" : "get takes no NAMES");
    out.num("session", s.handle.value);
    auto const masks_json = [](etwctl::group_mask const& m) {
        std::vector<std::string> v;
        for (auto x : m.masks) v.push_back(json_string(hex(x, 8)));
        return json_array(v);
    };
    auto const masks_text = [](etwctl::group_mask const& m) {
        std::string t;
        for (auto x : m.masks) t += (t.empty() ? "" : " ") + hex(x, 8).substr(2);
        return t;
    };
    if (!setting) {
        auto const m = etwctl::query<etwctl::system_trace_enable_flags>(k, s.handle);
        if (!m) return report_failure(ctx, {exit_code_of(m.error()), m.error(), "cannot read the flags of " + s.text, {}});
        out.str("flags", flags_text(*m)).raw("masks", masks_json(*m));
        if (!ctx.cl.json) std::cout << s.text << ": " << flags_text(*m) << "\n  masks: " << masks_text(*m) << "\n";
        return exit_ok;
    }
    etwctl::group_mask m;
    etwctl::parse_error pe;
    if (etwctl::parse_kernel_flags(p[3], m, &pe) != etwctl::rule::ok) return usage_error(ctx, parse_error_text("kernel flags", p[3], pe));
    if (auto const ec = etwctl::set<etwctl::system_trace_enable_flags>(k, s.handle, m); ec)
        return report_failure(ctx, {exit_code_of(ec), ec, "cannot set the flags of " + s.text, {}});
    out.str("flags", flags_text(m)).raw("masks", masks_json(m));
    if (!ctx.cl.json) std::cout << s.text << ": flags set to " << flags_text(m) << "\n  masks: " << masks_text(m) << "\n";
    return exit_ok;
}

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> v;
    while (true) {
        auto const i = s.find(sep);
        v.emplace_back(s.substr(0, i));
        if (i == std::string_view::npos) return v;
        s = s.substr(i + 1);
    }
}

template <class K>
int cmd_pmc(context const& ctx, K& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() != 2) return usage_error(ctx, "expected SESSION");
    session_arg s;
    if (!parse_session(p[1], s)) return usage_error(ctx, "bad session '" + p[1] + "'");
    auto const counters_text = ctx.cl.option("--counters");
    if (!counters_text || counters_text->empty()) return usage_error(ctx, "--counters is required");

    std::optional<std::uint32_t> interval;
    if (auto const t = ctx.cl.option("--interval")) {
        std::uint64_t n = 0;
        if (!parse_uint(*t, 0xFFFFFFFFULL, n) || n == 0) return usage_error(ctx, "bad --interval '" + *t + "': give an event count");
        interval = static_cast<std::uint32_t>(n);
    }
    // Counters: names as the machine's list spells them (the library resolves them), or ids.
    std::vector<std::string> const names = split(*counters_text, ',');
    std::vector<etwctl::pmc_counter> counters;
    for (auto const& n : names) {
        if (n.empty()) return usage_error(ctx, "empty counter name in --counters");
        std::uint64_t id = 0;
        etwctl::profile_interval const iv{interval.value_or(0)};
        counters.push_back(parse_uint(n, 0xFFFFFFFFULL, id) ? etwctl::pmc_counter::of_id(static_cast<std::uint32_t>(id), iv)
                                                            : etwctl::pmc_counter::named(n, iv));
    }
    // Events: xperf's '+' or a comma.
    std::string events_text = ctx.cl.option("--events").value_or("");
    for (char& c : events_text)
        if (c == ',') c = '+';
    etwctl::hook_id ids[etwctl::limits::max_stack_tracing_events];
    std::size_t n_events = 0;
    etwctl::parse_error pe;
    if (etwctl::parse_stack_walk(events_text, ids, n_events, &pe) != etwctl::rule::ok)
        return usage_error(ctx, parse_error_text("event list", events_text, pe));

    out.num("session", s.handle.value);
    // --flags: added to the session's flags first, so the events' groups are on when checked.
    if (auto const flags = ctx.cl.option("--flags")) {
        etwctl::group_mask add;
        if (etwctl::parse_kernel_flags(*flags, add, &pe) != etwctl::rule::ok) return usage_error(ctx, parse_error_text("kernel flags", *flags, pe));
        auto const current = etwctl::query<etwctl::system_trace_enable_flags>(k, s.handle);
        if (!current) return report_failure(ctx, {exit_code_of(current.error()), current.error(), "cannot read the flags of " + s.text, {}});
        etwctl::group_mask const merged = display_mask(*current) | add;
        if (auto const ec = etwctl::set<etwctl::system_trace_enable_flags>(k, s.handle, merged); ec)
            return report_failure(ctx, {exit_code_of(ec), ec, "cannot set the flags of " + s.text, {}});
        out.str("flags", flags_text(merged));
    }

    auto const r = etwctl::setup_pmc(k, s.handle, std::span<etwctl::pmc_counter const>(counters),
                                     std::span<etwctl::hook_id const>(ids, n_events));
    // Names for counters given by id, from the machine's list (read directly: not a request of this command).
    std::vector<source_row> rows;
    if (auto const listed = read_sources(k.inner())) rows = *listed;
    auto const counter_label = [&](std::size_t i) {
        if (i < r.counter_count)
            for (auto const& row : rows)
                if (row.id == r.counters[i]) return row.name;
        return i < names.size() ? names[i] : std::string("?");
    };
    std::vector<std::string> cj;
    std::string ctext;
    for (std::size_t i = 0; i < r.counter_count; ++i) {
        cj.push_back(json_object().str("name", counter_label(i)).num("id", r.counters[i]).text());
        ctext += (i ? ", " : "") + counter_label(i) + " (" + std::to_string(r.counters[i]) + ")";
    }
    std::vector<std::string> ej;
    for (std::size_t i = 0; i < n_events; ++i)
        ej.push_back(json_object().str("hook", hex(ids[i].value, 4)).str("name", etwctl::kernel_event_name(ids[i])).text());
    out.raw("counters", json_array(cj)).raw("events", json_array(ej));
    if (interval) out.num("interval", *interval);
    if (r.ok()) {
        if (!ctx.cl.json)
            std::cout << s.text << ": PMC counters " << ctext << " on "
                      << (n_events ? event_list_text(std::span<etwctl::hook_id const>(ids, n_events)) : std::string("no events"))
                      << (interval ? ", interval " + std::to_string(*interval) : std::string()) << "\n";
        return exit_ok;
    }

    // Failure: name the step and the condition, and what it was about.
    std::string m = "failed at " + std::string(etwctl::to_string(r.step)) + ": " + std::string(etwctl::to_string(r.condition));
    if (r.index != etwctl::pmc_report::npos) {
        if (r.step == etwctl::pmc_step::check_event_groups || r.condition == etwctl::pmc_condition::event_not_kernel) {
            auto const h = r.index < n_events ? ids[r.index] : r.event;
            m += " (event " + event_list_text(std::span<etwctl::hook_id const>(&h, 1));
            if (r.missing_flag.value) m += " needs " + flags_text(etwctl::group_mask(r.missing_flag)) + "; add --flags " +
                                            flags_text(etwctl::group_mask(r.missing_flag));
            m += ")";
        } else {
            m += " (counter '" + counter_label(r.index) + "'";
            if (r.condition == etwctl::pmc_condition::interval_out_of_bounds)
                m += ": bounds [" + std::to_string(r.min_interval) + ", " + std::to_string(r.max_interval) + "]";
            m += ")";
        }
    }
    if (r.counters_applied) m += "; the session's counter list was set and cannot be taken back";
    if (r.rollback_error) m += "; putting the intervals back failed too: " + r.rollback_error.message();
    failure f{r.counters_applied || r.rollback_error ? exit_partial : exit_code_of(r.error), r.error, m, {}};
    f.details.str("step", etwctl::to_string(r.step)).str("condition", etwctl::condition_name(r.condition));
    if (r.index != etwctl::pmc_report::npos) f.details.num("index", r.index);
    f.details.boolean("counters_applied", r.counters_applied).boolean("events_applied", r.events_applied);
    return report_failure(ctx, f);
}

template <class K>
int cmd_version(context const& ctx, K& k, json_object& out) {
    if (ctx.cl.positional.size() != 1) return usage_error(ctx, "takes no arguments");
    auto const v = etwctl::query<etwctl::version>(k);
    std::string const kernel = ctx.simulated ? "simulated" : "native (Windows)";
    out.str("tool", ETWCTL_TOOL_VERSION)
        .str("library", std::to_string(ETWCTL_VERSION_MAJOR) + "." + std::to_string(ETWCTL_VERSION_MINOR) + "." +
                            std::to_string(ETWCTL_VERSION_PATCH))
        .str("kernel", kernel)
        .num("trace_processing_version", v ? *v : 0);
    if (!ctx.cl.json)
        std::cout << "etwctl " << ETWCTL_TOOL_VERSION << "\nkernel: " << kernel
                  << "\nTraceVersionInfo: EtwTraceProcessingVersion " << (v ? *v : 0) << "\n";
    return exit_ok;
}

int cmd_decode_handle(context const& ctx, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() != 2) return usage_error(ctx, "expected one HANDLE");
    std::uint64_t h = 0;
    if (!parse_uint(p[1], ~std::uint64_t{0}, h)) return usage_error(ctx, "bad handle '" + p[1] + "': give a 64-bit number (0x...)");
    etwctl::enable_context const c{h};
    out.str("handle", hex(h, 16));
    if (auto const r = c.check(); r != etwctl::rule::ok) {
        failure f{exit_refused, etwctl::make_error_code(r), "not a valid enable context: " + hex(h, 16), {}};
        f.details.num("logger_id", c.logger_id().value);
        return report_failure(ctx, f);
    }
    std::string const logger = c.logger_id().is_kernel_logger() ? "0xFFFF (NT Kernel Logger)" : std::to_string(c.logger_id().value);
    out.num("logger_id", c.logger_id().value).num("level", c.level()).num("internal_flag", c.internal_flag())
        .str("enable_flags", hex(c.enable_flags(), 8));
    if (!ctx.cl.json)
        std::cout << "handle        " << hex(h, 16) << "\nlogger id     " << logger << "\nlevel         "
                  << static_cast<unsigned>(c.level()) << "\ninternal flag " << hex(c.internal_flag(), 2)
                  << "\nenable flags  " << hex(c.enable_flags(), 8) << "\n";
    return exit_ok;
}

// ---- dispatch -----------------------------------------------------------------------------------------

template <class Inner>
int run(context& ctx, Inner& inner) {
    recording_kernel<Inner> k(inner, ctx.cl.dry_run);
    json_object out;
    out.boolean("ok", true).str("command", ctx.command);
    int rc = exit_usage;
    std::string_view const c = ctx.command;
    if (c == "profile-sources") rc = cmd_profile_sources(ctx, k, out);
    else if (c == "interval") rc = cmd_interval(ctx, k, out);
    else if (c == "stackwalk") rc = cmd_stackwalk(ctx, k, out);
    else if (c == "flags") rc = cmd_flags(ctx, k, out);
    else if (c == "pmc") rc = cmd_pmc(ctx, k, out);
    else if (c == "version") rc = cmd_version(ctx, k, out);
    else if (c == "decode-handle") rc = cmd_decode_handle(ctx, out);

    if (ctx.cl.dry_run) {
        // Names for profile sources in the annotations, read from the kernel directly (not recorded).
        std::vector<source_row> rows;
        if (auto r = read_sources(inner)) rows = *r;
        source_namer const namer = [&](std::uint32_t id) -> std::string {
            for (auto const& r : rows)
                if (r.id == id) return r.name;
            auto const n = etwctl::name_of(static_cast<etwctl::profile_source>(id));
            return n.empty() ? std::string("?") : std::string(n);
        };
        std::vector<std::string> rj;
        std::string text;
        for (std::size_t i = 0; i < k.requests().size(); ++i) {
            auto const a = annotate(k.requests()[i], namer);
            rj.push_back(format_json(a, k.requests()[i]));
            text += format_text(a, i + 1);
        }
        if (ctx.cl.json) {
            if (rc == exit_ok) out.raw("requests", json_array(rj));
            else std::cerr << "kernel requests (dry run):\n" << text; // the error object was printed already
        } else {
            (rc == exit_ok ? std::cout : std::cerr) << "kernel requests (dry run: only reads were sent):\n" << text;
        }
    }
    if (rc == exit_ok && ctx.cl.json) std::cout << out.text() << "\n";
    return rc;
}

#if defined(_WIN32)
/// Profiling needs SeSystemProfilePrivilege enabled in the token (held by administrators, off by
/// default), as xperf enables it. Failure is not fatal: the kernel's refusal will say what is missing.
void enable_profile_privilege() {
    HANDLE token = nullptr;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token)) return;
    TOKEN_PRIVILEGES tp{};
    tp.PrivilegeCount = 1;
    tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
    if (LookupPrivilegeValueW(nullptr, L"SeSystemProfilePrivilege", &tp.Privileges[0].Luid))
        AdjustTokenPrivileges(token, FALSE, &tp, sizeof tp, nullptr, nullptr);
    CloseHandle(token);
}
#endif

} // namespace
} // namespace etwctl_tool

int main(int argc, char** argv) {
    using namespace etwctl_tool;
    command_line const cl = parse_command_line(argc, argv);
    context ctx{cl, cl.positional.empty() ? std::string() : cl.positional[0]};
    if (!cl.error.empty()) return usage_error(ctx, cl.error);
    if (ctx.command.empty() || ctx.command == "help") {
        if (cl.positional.size() > 1)
            if (auto const* h = find_help(cl.positional[1])) {
                std::cout << "usage: " << h->usage << "\n\n" << h->text << "\n";
                return exit_ok;
            }
        (cl.help || ctx.command == "help" ? std::cout : std::cerr) << general_help;
        return cl.help || ctx.command == "help" ? exit_ok : exit_usage;
    }
    auto const* help = find_help(ctx.command);
    if (!help) return usage_error(ctx, "unknown command '" + ctx.command + "'");
    if (cl.help) {
        std::cout << "usage: " << help->usage << "\n\n" << help->text << "\n";
        return exit_ok;
    }
    if (ctx.command == "decode-handle") { // pure: no kernel involved
        json_object out;
        out.boolean("ok", true).str("command", ctx.command);
        int const rc = cmd_decode_handle(ctx, out);
        if (rc == exit_ok && cl.json) std::cout << out.text() << "\n";
        return rc;
    }

#if defined(_WIN32)
    if (!cl.sim) {
        if (!cl.dry_run) enable_profile_privilege();
        return run(ctx, etwctl::native_kernel::instance());
    }
#endif
    std::cerr << "etwctl: using the simulated kernel" << (cl.sim ? "" : " (not on Windows)")
              << "; its state does not persist between runs\n";
    auto machine = std::make_unique<etwctl::sim::kernel>(); // ~160 KiB of model state: not on the stack
    std::string error;
    if (!configure_sim(*machine, error)) return usage_error(ctx, error);
    ctx.simulated = true;
    return run(ctx, *machine);
}
