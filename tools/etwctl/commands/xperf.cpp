// xperf's spellings (-start, -on, -stackwalk, -setprofint, -pmc, -stop, ...) and `etwctl session ...`.
// The whole line is read into a plan first (plan.hpp): a mistake anywhere on it is reported before
// anything is sent. Then the plan is applied in xperf's order: the interval, then each group in the
// order written. A running session's -on / -stackwalk / -pmc run the same code as the etwctl commands
// (flags set, stackwalk, pmc); the session verbs are in session_verbs.cpp. A failure after a call took
// effect names the calls and exits 4.
#include <iostream>
#include <string>
#include <vector>

#include "../annotate.hpp"
#include "../plan.hpp"
#include "../session.hpp"
#include "commands.hpp"
#include "session_verbs.hpp"

namespace etwctl_tool {

namespace {

/// A plan that could not be made: a usage error, or a refusal naming its rule.
int report_plan_error(context const& ctx, plan_error const& e) {
    if (e.code == exit_usage || !e.ec) return usage_error(ctx, e.message);
    failure f{e.code, e.ec, e.message, {}, e.hint};
    return report_failure(ctx, f);
}

/// A running session's -on (kernel flags), -stackwalk and -pmc: the etwctl commands on its logger id.
int apply_running(context const& ctx, tool_kernel& k, group const& g, std::string const& session, std::vector<std::string>& results) {
    if (!g.on.empty())
        if (int const rc = run_command(ctx, k, {"flags", session, "set", g.on}, {}, results); rc != exit_ok) return rc;
    if (!g.stackwalk.empty())
        if (int const rc = run_command(ctx, k, {"stackwalk", session, "set", g.stackwalk}, {}, results, nullptr,
                                       g.on.empty() ? nullptr : &g.flags);
            rc != exit_ok)
            return rc;
    if (g.pmc)
        if (int const rc = run_command(ctx, k, {"pmc", session}, {{"--counters", g.pmc->counters}, {"--events", g.pmc->events}}, results);
            rc != exit_ok)
            return rc;
    return exit_ok;
}

/// Applies a plan: the checks that need no call, a running session's lookup, then the interval and each
/// group in order. After a failure the sessions the line started are stopped again, and what stays in
/// effect is named (exit 4).
int apply_plan(context const& ctx, tool_kernel& k, plan const& p, json_object& out) {
    prepared_plan prepared;
    if (int const rc = prepare_plan(ctx, p, prepared); rc != exit_ok) return rc;
    std::size_t const mark = k.requests().size();
    // A running session given by name is looked up once (a read), before anything changes.
    std::string running_session = "kernel";
    for (auto const& g : p.groups)
        if (g.kind == group_kind::running && !g.name.empty()) {
            session_arg resolved;
            if (int const rc = resolve_session(ctx, k, g.name, resolved); rc != exit_ok) return rc;
            running_session = std::to_string(resolved.handle.logger().value);
        }
    std::vector<std::string> results;
    session_run run;
    auto steps = [&]() -> int {
        if (p.pmcsources)
            if (int const rc = run_command(ctx, k, {"profile-sources"}, {}, results); rc != exit_ok) return rc;
        if (p.setprofint) {
            std::vector<std::pair<std::string, std::string>> o;
            if (!p.setprofint->source.empty()) o.emplace_back("--source", p.setprofint->source);
            if (int const rc = run_command(ctx, k, {"interval", "set", p.setprofint->value}, o, results); rc != exit_ok) return rc;
        }
        for (std::size_t i = 0; i < p.groups.size(); ++i) {
            group const& g = p.groups[i];
            int const rc = g.kind == group_kind::running ? apply_running(ctx, k, g, running_session, results)
                                                          : apply_session_group(ctx, k, g, prepared.providers[i], run, results);
            if (rc != exit_ok) return rc;
        }
        return exit_ok;
    };
    int rc = steps();
    if (rc != exit_ok) rc = roll_back_starts(ctx, k, run, rc);
    if (rc != exit_ok) return finish_partial(ctx, k, mark, run, rc);
    out.raw("steps", json_array(results));
    return exit_ok;
}

} // namespace

int run_command(context const& ctx, tool_kernel& k, std::vector<std::string> positional,
                std::vector<std::pair<std::string, std::string>> options, std::vector<std::string>& results,
                session_arg const* started, etwctl::group_mask const* known_flags) {
    command_line sub;
    sub.dry_run = ctx.cl.dry_run, sub.json = ctx.cl.json, sub.sim = ctx.cl.sim, sub.trace = ctx.cl.trace;
    sub.positional = std::move(positional);
    sub.options = std::move(options);
    context sc{sub, sub.positional[0], ctx.simulated, ctx.deferred};
    sc.started_session = started;
    sc.known_flags = known_flags;
    json_object o;
    o.str("command", sc.command);
    std::string_view const c = sc.command;
    int const rc = c == "profile-sources" ? cmd_profile_sources(sc, k, o)
                   : c == "interval"      ? cmd_interval(sc, k, o)
                   : c == "flags"         ? cmd_flags(sc, k, o)
                   : c == "stackwalk"     ? cmd_stackwalk(sc, k, o)
                                          : cmd_pmc(sc, k, o);
    if (rc == exit_ok) results.push_back(o.text());
    return rc;
}

int cmd_xperf(context const& ctx, tool_kernel& k, json_object& out) {
    plan_error e;
    plan const p = parse_xperf_line(ctx.cl.positional, e);
    if (e.code) return report_plan_error(ctx, e);
    return apply_plan(ctx, k, p, out);
}

int cmd_session(context const& ctx, tool_kernel& k, json_object& out) {
    plan_error e;
    plan const p = parse_session_command(ctx.cl.positional, e);
    if (e.code) return report_plan_error(ctx, e);
    return apply_plan(ctx, k, p, out);
}

} // namespace etwctl_tool
