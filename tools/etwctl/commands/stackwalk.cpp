// etwctl stackwalk SESSION [set] NAMES | clear (xperf -stackwalk): the session's stack-walk list.
// An empty list is refused (it would silently turn stack walking off); add/remove are refused because
// the kernel does not report a session's list (docs/tool.md).
#include <iostream>
#include <string>

#include "etwctl/error.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/profiler/stack_walk_set.hpp"
#include "etwctl/typed/query.hpp"

#include "../names.hpp"
#include "../session.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {
/// The events of a stack-walk list the session's group mask does not enable are accepted by the kernel
/// and never recorded (issue 21 item 22): one warning each on stderr and in --json's "warnings", from the
/// library's check (first_event_not_enabled) against the mask the same line set (ctx.known_flags), else
/// the mask read back now. Not an error: the flags may still be set afterwards.
void warn_disabled_events(context const& ctx, tool_kernel& k, session_arg const& s, std::string const& session_text,
                          std::span<etwctl::hook_id const> events, json_object& out) {
    if (events.empty()) return;
    etwctl::result<etwctl::group_mask> const mask =
        ctx.known_flags ? etwctl::result<etwctl::group_mask>(*ctx.known_flags) : etwctl::query<etwctl::system_trace_enable_flags>(k, s.handle);
    if (!mask) return; // the check needs the mask; the set itself succeeded
    std::vector<std::string> warnings;
    for (auto rest = events;;) {
        auto const off = etwctl::first_event_not_enabled(*mask, rest);
        if (!off) break;
        rest = rest.subspan(off->index + 1);
        std::string const name = event_list_text(std::span<etwctl::hook_id const>(&off->event, 1));
        std::string const flag = flags_text(etwctl::group_mask(off->flag));
        std::cerr << "etwctl: " << ctx.command << ": warning: " << name << " (" << hex(off->event.value, 4)
                  << ") is never recorded: " << s.text << " does not enable " << flag << "; add it (etwctl flags "
                  << session_text << " ...+" << flag << ", xperf -on ...+" << flag << ")\n";
        warnings.push_back(json_object()
                               .str("warning", "event_group_not_enabled")
                               .str("hook", hex(off->event.value, 4))
                               .str("name", name)
                               .str("needs", flag)
                               .text());
    }
    if (!warnings.empty()) out.raw("warnings", json_array(warnings));
}
} // namespace

int cmd_stackwalk(context const& ctx, tool_kernel& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() < 3) return usage_error(ctx, "expected SESSION and NAMES (or 'clear')");
    std::string const verb = p.size() == 4 ? p[2] : std::string();
    if (p.size() > 4 || (p.size() == 4 && verb != "set" && verb != "add" && verb != "remove"))
        return usage_error(ctx, "expected SESSION [set] NAMES, or SESSION clear");
    if (verb == "add" || verb == "remove") {
        failure f{exit_refused, etwctl::make_error_code(etwctl::rule::query_class_not_supported),
                  "stackwalk " + verb + " needs the session's current list, and the kernel does not report it "
                  "(TraceQueryInformation has no stack-tracing query); give the whole list with 'stackwalk SESSION NAMES'",
                  {}, {}};
        return report_failure(ctx, f);
    }
    std::string const& names = p.back();
    bool const clearing = p.size() == 3 && (iequals(names, "clear") || iequals(names, "none"));
    if (!clearing && blank(names)) {
        failure f{exit_refused, etwctl::make_error_code(etwctl::rule::parse_empty_name),
                  "an empty stack-walk list would turn stack walking off; nothing was sent", {}, {}};
        f.hint = "use 'etwctl stackwalk SESSION clear' to turn stack walking off";
        return report_failure(ctx, f);
    }
    session_arg s;
    if (int const rc = resolve_session(ctx, k, p[1], s); rc != exit_ok) return rc;
    etwctl::stack_walk_set<> set;
    if (!clearing) {
        etwctl::hook_id ids[etwctl::limits::max_stack_tracing_events];
        std::size_t n = 0;
        bool too_many = false;
        auto const r = parse_events_arg(names, ids, n, false, too_many);
        if (too_many)
            return report_failure(ctx, {exit_refused, etwctl::make_error_code(etwctl::rule::stack_walk_overflow),
                                        "more than 256 stack-walk events", {}, {}});
        if (!r.ok) return usage_error(ctx, r.message);
        if (auto const rr = set.add(std::span<etwctl::hook_id const>(ids, n)); rr != etwctl::rule::ok)
            return report_failure(ctx, {exit_refused, etwctl::make_error_code(rr), "too many stack-walk events", {}, {}});
    }
    out.num("session", s.handle.value);
    std::vector<std::string> events;
    for (auto h : set)
        events.push_back(json_object().str("hook", hex(h.value, 4)).str("name", etwctl::kernel_event_name(h)).text());
    out.raw("events", json_array(events));
    if (auto const ec = set.apply(k, s.handle); ec)
        return report_failure(ctx, {exit_code_of(ec), ec, "cannot set the stack-walk list of " + s.text, {}, {}});
    if (!ctx.cl.json)
        std::cout << s.text << ": stack walk " << (set.empty() ? std::string("off") : event_list_text(set.span())) << " ("
                  << set.size() << (set.size() == 1 ? " event" : " events") << ")\n";
    warn_disabled_events(ctx, k, s, p[1], set.span(), out);
    return exit_ok;
}

} // namespace etwctl_tool
