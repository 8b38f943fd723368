// etwctl wpr: wpr.exe's verbs on a .wprp profile. The arguments, then -start: the profile read and checked
// whole first (a fault anywhere sends nothing), then wpr::apply through the tool's kernel (so --dry-run
// and --json print every call: the session starts, the group mask, the stack list, each EnableTraceEx2
// with its provider). The sessions outlive the tool, as wpr -start's do; a failure stops the ones this
// start had started and names the step.
#include <iostream>
#include <string>
#include <vector>

#include "etwctl/error.hpp"
#include "etwctl/session/provider_name.hpp"

#include "../provider_lookup.hpp"
#include "commands.hpp"
#include "session_verbs.hpp"
#include "wpr_tool.hpp"

namespace etwctl_tool {

namespace wpr = etwctl::wpr;

namespace {

int parse_wpr_args(context const& ctx, wpr_args& a) {
    auto const& p = ctx.cl.positional; // p[0] == "wpr"
    for (std::size_t i = 1; i < p.size(); ++i) {
        std::string const& w = p[i];
        bool verb = false;
        for (auto v : wpr_verbs) verb = verb || iequals(w, v); // cli.hpp: --help lists each
        if (verb) {
            if (!a.verb.empty()) return usage_error(ctx, "give one verb: " + a.verb + " and " + w);
            a.verb = w;
            for (char& c : a.verb) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        } else if (iequals(w, "-filemode")) {
            a.file_mode = true;
        } else if (!w.empty() && w[0] == '-') {
            return usage_error(ctx, "unknown wpr option '" + w + "' (expected -start, -stop, -cancel, -status, -profiles, -check, -filemode)");
        } else if (a.target.empty()) {
            a.target = w;
        } else {
            return usage_error(ctx, "one FILE[!Profile] or OUT.etl only; '" + w + "' is one too many");
        }
    }
    for (auto const& [name, value] : ctx.cl.options)
        if (name == "--base") a.bases.push_back(value);
        else return usage_error(ctx, "option " + name + " does not apply here");
    if (!ctx.cl.switches.empty()) return usage_error(ctx, "option " + ctx.cl.switches.front() + " does not apply here");
    if (a.verb.empty()) return usage_error(ctx, "expected -start, -stop, -cancel, -status, -profiles or -check");
    bool const needs_target = a.verb == "-start" || a.verb == "-stop" || a.verb == "-profiles" || a.verb == "-check";
    if (needs_target && a.target.empty())
        return usage_error(ctx, a.verb + (a.verb == "-stop"       ? " needs OUT.etl"
                                          : a.verb == "-profiles" ? " needs FILE"
                                          : a.verb == "-check"    ? " needs FILE[!Profile]"
                                                                  : " needs FILE!Profile"));
    if (a.verb == "-check" && a.file_mode && a.target.find('!') == std::string::npos)
        return usage_error(ctx, "-filemode chooses the File version of one profile (FILE!Profile); -check FILE checks every "
                                "profile of the file as it is declared");
    if (a.verb == "-cancel" && !a.target.empty()) return usage_error(ctx, "-cancel takes no file");
    if (a.file_mode && a.verb != "-start" && a.verb != "-check" && a.verb != "-status")
        return usage_error(ctx, "-filemode applies to -start, -check and -status only");
    if (!a.bases.empty() && (a.verb == "-stop" || a.verb == "-cancel" || a.verb == "-profiles"))
        return usage_error(ctx, "--base applies to -start, -check and -status only");
    return exit_ok;
}

/// A provider the profile names by name: "*Name" hashed as EventSource / TraceLogging do; any other name
/// looked up among the manifest providers Windows has registered (never on the simulated machine).
etwctl::result<etwctl::guid> resolve_provider(context const& ctx, std::string_view name) {
    if (!name.empty() && name.front() == '*') return etwctl::provider_guid_from_name(name.substr(1));
    provider_lookup const found = find_manifest_provider(name, ctx.simulated);
    if (found.found) return found.id;
    static thread_local std::string text; // the error's context keeps a view of its text until describe()
    text = "provider '{name}': " + found.why;
    return etwctl::record_failure(etwctl::make_error_code(etwctl::rule::parse_unknown_name), text, name);
}

int wpr_start(context const& ctx, tool_kernel& k, wpr_args const& a, json_object& out) {
    std::optional<wpr::plan> p;
    std::vector<std::string> warnings;
    if (int const rc = load_wpr_plan(ctx, a, p, warnings); rc != exit_ok) return rc;
    wpr::apply_options o;
    o.resolve_provider = [&](std::string_view name) { return resolve_provider(ctx, name); };
    o.before_call = [&](wpr::apply_step const& s) {
        if (s.call == wpr::apply_call::enable_provider || s.call == wpr::apply_call::capture_state) k.note_provider_name(s.provider);
    };
    std::size_t const mark = k.requests().size();
    wpr::apply_result r = wpr::apply(k, *p, o);
    for (auto const& f : r.warnings) warn(ctx, f, warnings);
    if (!r) {
        session_run run;
        std::vector<std::string> undone;
        for (auto const& s : r.rolled_back) {
            if (!s.report.stopped) continue; // not undone: its calls stay in effect (finish_partial names them)
            run.rolled_back.push_back(s.handle.value);
            undone.push_back(json_string(s.name));
            if (!k.is_placeholder(s.handle.value))
                std::cerr << "etwctl: " << ctx.command << ": stopped '" << s.name << "' again: a later step failed\n";
        }
        bool const checked = !r.failed || r.failed->call == wpr::apply_call::check;
        // What was sent before the failure (the rolled-back sessions' calls included): a later step's
        // refusal, even by a rule, comes after these, so the exit code must not say "nothing was sent".
        std::vector<std::string> sent;
        if (!checked)
            for (auto const& c : calls_that_took_effect(k, mark, session_run{})) sent.push_back(json_string(c));
        int code = exit_code_of(r.error);
        if (!checked && code == exit_refused) code = exit_partial;
        failure f{code, r.error,
                  "cannot start " + p->profile_id + ": " + r.message +
                      (checked ? "; nothing was sent"
                               : "; " + std::to_string(sent.size()) + " calls were sent (the stops included), and the " +
                                     std::to_string(undone.size()) + " sessions started were stopped again"),
                  {}, {}};
        f.details.str("step", wpr::to_string(r.failed ? r.failed->call : wpr::apply_call::check))
            .str("session", r.failed ? r.failed->session : std::string())
            .str("provider", r.failed ? r.failed->provider : std::string())
            .raw("sent", json_array(sent))
            .raw("rolled_back", json_array(undone))
            .raw("warnings", json_array(warnings));
        int const rc = report_failure(ctx, f);
        if (!checked && !ctx.cl.json) {
            std::cerr << "  sent:\n";
            for (auto const& c : calls_that_took_effect(k, mark, session_run{})) std::cerr << "    " << c << "\n";
        }
        if (!checked && code == exit_partial && ctx.deferred && ctx.deferred->set &&
            calls_that_took_effect(k, mark, run).empty()) {
            // Every call was undone: `applied` lists them as sent and undone (none stays in effect).
            for (auto const& c : calls_that_took_effect(k, mark, session_run{}))
                ctx.deferred->applied.push_back(json_string(
                    c + (c.find("EVENT_TRACE_CONTROL_STOP") != std::string::npos ? " (the rollback)" : " (undone: its session was stopped again)")));
        }
        return finish_partial(ctx, k, mark, run, rc);
    }
    std::vector<std::string> sj;
    for (std::size_t i = 0; i < r.profile.size(); ++i) {
        etwctl::trace_session const& s = r.profile.sessions()[i];
        std::string const& name = r.profile.names()[i];
        std::string const& file = r.profile.log_files()[i];
        std::vector<std::string> aj;
        for (auto const& adj : s.adjusted())
            aj.push_back(json_object().str("setting", etwctl::session_setting_name(adj.setting)).num("requested", adj.requested).num("effective", adj.effective).text());
        sj.push_back(json_object()
                         .str("name", name)
                         .num("logger", s.handle().logger().value)
                         .str("handle", hex(s.handle().value, 16))
                         .str("log_file", file)
                         .raw("adjusted", json_array(aj))
                         .text());
        if (!ctx.cl.json) {
            std::cout << (ctx.cl.dry_run ? "would start '" : "started '") << name << "'"
                      << (ctx.cl.dry_run ? std::string() : " (logger " + std::to_string(s.handle().logger().value) + ")")
                      << (file.empty() ? std::string(": in memory") : ": file " + file) << "\n";
            for (auto const& adj : s.adjusted())
                std::cout << "  Windows changed " << etwctl::session_setting_name(adj.setting) << ": asked " << adj.requested
                          << ", has " << adj.effective << "\n";
        }
    }
    std::vector<std::string> cj; // values sent clamped into the kernel's bounds (the plan's [clamped] warning says so on stderr)
    for (auto const& c : r.clamped)
        cj.push_back(json_object().str("session", c.session).str("setting", c.setting).num("written", c.written).num("applied", c.applied).text());
    r.profile.release(); // the sessions run on after the tool, as wpr -start's do (etwctl wpr -stop / -cancel)
    if (!ctx.cl.json)
        std::cout << p->profile_id << ": " << sj.size() << (sj.size() == 1 ? " session" : " sessions") << " running"
                  << (warnings.empty() ? std::string() : "; " + std::to_string(warnings.size()) + " warnings on stderr") << "\n";
    out.str("profile", p->profile_id).raw("sessions", json_array(sj)).raw("clamped", json_array(cj)).raw("warnings", json_array(warnings));
    return exit_ok;
}

} // namespace

int cmd_wpr(context const& ctx, tool_kernel& k, json_object& out) {
    wpr_args a;
    if (int const rc = parse_wpr_args(ctx, a); rc != exit_ok) return rc;
    if (a.verb == "-start") return wpr_start(ctx, k, a, out);
    if (a.verb == "-stop") return wpr_stop(ctx, k, a, out);
    if (a.verb == "-cancel") return wpr_cancel(ctx, k, a, out);
    if (a.verb == "-status") return wpr_status(ctx, k, a, out);
    if (a.verb == "-profiles") return wpr_profiles(ctx, a, out);
    return wpr_check(ctx, a, out);
}

} // namespace etwctl_tool
