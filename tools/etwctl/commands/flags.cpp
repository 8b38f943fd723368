// etwctl flags SESSION get | set NAMES | add NAMES | remove NAMES | clear (xperf -on): the session's
// kernel flags (group mask). An empty list is refused; 'clear' turns every flag off on purpose.
#include <iostream>
#include <string>
#include <vector>

#include "etwctl/error.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/typed/set.hpp"

#include "../names.hpp"
#include "../session.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {
std::string masks_json(etwctl::group_mask const& m) {
    std::vector<std::string> v;
    for (auto x : m.masks) v.push_back(json_string(hex(x, 8)));
    return json_array(v);
}
std::string masks_text(etwctl::group_mask const& m) {
    std::string t;
    for (auto x : m.masks) t += (t.empty() ? "" : " ") + hex(x, 8).substr(2);
    return t;
}
} // namespace

int cmd_flags(context const& ctx, tool_kernel& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    static constexpr std::string_view verbs[] = {"get", "set", "add", "remove", "clear"};
    std::string const verb = p.size() >= 3 ? p[2] : std::string();
    bool known = false;
    for (auto v : verbs) known = known || v == verb;
    if (!known) return usage_error(ctx, "expected SESSION and 'get', 'set', 'add', 'remove' or 'clear'");
    bool const takes_names = verb == "set" || verb == "add" || verb == "remove";
    if (takes_names ? p.size() != 4 : p.size() != 3)
        return usage_error(ctx, verb + (takes_names ? " takes NAMES" : " takes no NAMES"));
    if (takes_names && blank(p[3])) {
        failure f{exit_refused, etwctl::make_error_code(etwctl::rule::parse_empty_name),
                  "an empty flag list would " + std::string(verb == "set" ? "turn every kernel flag off" : "change nothing") +
                      "; nothing was sent",
                  {}, {}};
        f.hint = "use 'etwctl flags SESSION clear' to turn every flag off";
        return report_failure(ctx, f);
    }
    etwctl::group_mask given;
    if (takes_names)
        if (auto const r = parse_flags_arg(p[3], given); !r.ok) return usage_error(ctx, r.message);
    session_arg s;
    if (int const rc = resolve_session(ctx, k, p[1], s); rc != exit_ok) return rc;
    out.num("session", s.handle.value);
    etwctl::group_mask m = given;
    if (verb == "get" || verb == "add" || verb == "remove") {
        auto const current = etwctl::query<etwctl::system_trace_enable_flags>(k, s.handle);
        if (!current)
            return report_failure(ctx, {exit_code_of(current.error()), current.error(), "cannot read the flags of " + s.text, {}, {}});
        if (verb == "get") {
            out.str("flags", flags_text(*current)).raw("masks", masks_json(*current));
            if (!ctx.cl.json) std::cout << s.text << ": " << flags_text(*current) << "\n  masks: " << masks_text(*current) << "\n";
            return exit_ok;
        }
        // Relative to what the kernel reports. Removing a flag removes its Masks[0] alias bit too.
        etwctl::group_mask const base = display_mask(*current);
        m = verb == "add" ? base | given : display_mask(base - display_mask(given));
        out.str("before", flags_text(base));
    } else if (verb == "clear") {
        m = etwctl::group_mask{};
    }
    if (auto const ec = etwctl::set<etwctl::system_trace_enable_flags>(k, s.handle, m); ec)
        return report_failure(ctx, {exit_code_of(ec), ec, "cannot set the flags of " + s.text, {}, {}});
    out.str("flags", flags_text(m)).raw("masks", masks_json(m));
    if (!ctx.cl.json) std::cout << s.text << ": flags set to " << flags_text(m) << "\n  masks: " << masks_text(m) << "\n";
    return exit_ok;
}

} // namespace etwctl_tool
