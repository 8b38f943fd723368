// xperf's spellings: -on, -stackwalk, -setprofint, -pmc, -pmcsources, -session. Each option becomes
// the matching etwctl command (flags set, stackwalk, interval set, pmc, profile-sources), run by the
// same code, in the order xperf applies them: interval, flags, stack walk, counters.
#include <iostream>
#include <string>
#include <vector>

#include "../names.hpp"
#include "../session.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {
struct step {
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> options;
};

bool is_option(std::string const& a) { return a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9'); }
bool is_number(std::string const& a) { return !a.empty() && a[0] >= '0' && a[0] <= '9'; }
} // namespace

int cmd_xperf(context const& ctx, tool_kernel& k, json_object& out) {
    static constexpr std::string_view known[] = {"-on", "-stackwalk", "-setprofint", "-pmc", "-pmcsources", "-session"};
    auto const& a = ctx.cl.positional;
    std::string session = "kernel", on, stackwalk, interval, source, counters, events;
    bool pmcsources = false, have_interval = false, have_pmc = false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        std::string opt = a[i];
        for (char& c : opt) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; // xperf ignores case
        auto const value = [&](std::string const& what) -> std::string const* {
            if (i + 1 >= a.size() || is_option(a[i + 1])) return nullptr;
            (void)what;
            return &a[++i];
        };
        if (opt == "-pmcsources") {
            pmcsources = true;
        } else if (opt == "-session" || opt == "-on" || opt == "-stackwalk") {
            auto const* v = value(opt);
            if (!v) return usage_error(ctx, a[i] + " needs a value");
            if (opt == "-session") session = *v;
            else if (opt == "-on") on = *v;
            else stackwalk += (stackwalk.empty() ? "" : "+") + *v; // -stackwalk may be repeated
        } else if (opt == "-setprofint") {
            // -setprofint N [SOURCE], or -setprofint SOURCE N as scripts write it for counters.
            auto const* first = value(opt);
            if (!first) return usage_error(ctx, "-setprofint needs an interval");
            auto const* second = i + 1 < a.size() && !is_option(a[i + 1]) ? &a[++i] : nullptr;
            if (iequals(*first, "cached") || (second && iequals(*second, "cached")))
                return usage_error(ctx, "-setprofint ... cached is not supported: etwctl sets the interval now, "
                                        "it does not keep it for sessions started later");
            if (is_number(*first)) interval = *first, source = second ? *second : "";
            else if (second && is_number(*second)) interval = *second, source = *first;
            else return usage_error(ctx, "-setprofint needs an interval (100 ns units for the timer)");
            have_interval = true;
        } else if (opt == "-pmc") {
            auto const* c = value(opt);
            auto const* e = c ? value(opt) : nullptr;
            if (!c || !e) return usage_error(ctx, "-pmc needs COUNTERS (joined with ',') and EVENTS (joined with '+')");
            if (auto const m = separator_error(*e, ',', '+', "event names"); !m.empty()) return usage_error(ctx, m);
            counters = *c, events = *e, have_pmc = true;
        } else {
            std::vector<std::string_view> names(std::begin(known), std::end(known));
            std::string const suggestion = nearest_name(opt, names);
            return usage_error(ctx, "unknown xperf option '" + a[i] + "'" + (suggestion.empty() ? "" : " (did you mean " + suggestion + "?)"));
        }
    }
    if (on.empty() && stackwalk.empty() && !have_interval && !have_pmc && !pmcsources)
        return usage_error(ctx, "nothing to do: give -on, -stackwalk, -setprofint, -pmc or -pmcsources");

    // A session named by its name is looked up once; the steps get its logger id.
    if (!on.empty() || !stackwalk.empty() || have_pmc) {
        session_arg resolved;
        if (int const rc = resolve_session(ctx, k, session, resolved); rc != exit_ok) return rc;
        session = std::to_string(resolved.handle.logger().value);
    }
    std::vector<step> steps;
    if (pmcsources) steps.push_back({{"profile-sources"}, {}});
    if (have_interval) {
        step s{{"interval", "set", interval}, {}};
        if (!source.empty()) s.options.emplace_back("--source", source);
        steps.push_back(s);
    }
    if (!on.empty()) steps.push_back({{"flags", session, "set", on}, {}});
    if (!stackwalk.empty()) steps.push_back({{"stackwalk", session, "set", stackwalk}, {}});
    if (have_pmc) steps.push_back({{"pmc", session}, {{"--counters", counters}, {"--events", events}}});

    std::vector<std::string> results;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        command_line sub;
        sub.dry_run = ctx.cl.dry_run, sub.json = ctx.cl.json, sub.sim = ctx.cl.sim;
        sub.positional = steps[i].positional;
        sub.options = steps[i].options;
        context const sc{sub, sub.positional[0], ctx.simulated};
        json_object o;
        o.str("command", sc.command);
        std::string_view const c = sc.command;
        int const rc = c == "profile-sources" ? cmd_profile_sources(sc, k, o)
                       : c == "interval"      ? cmd_interval(sc, k, o)
                       : c == "flags"         ? cmd_flags(sc, k, o)
                       : c == "stackwalk"     ? cmd_stackwalk(sc, k, o)
                                              : cmd_pmc(sc, k, o);
        if (rc != exit_ok) {
            if (i > 0) std::cerr << "etwctl: the steps before '" << c << "' took effect\n";
            return i > 0 && rc != exit_usage ? exit_partial : rc;
        }
        results.push_back(o.text());
    }
    out.raw("steps", json_array(results));
    return exit_ok;
}

} // namespace etwctl_tool
