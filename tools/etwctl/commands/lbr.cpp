// etwctl lbr SESSION [--options FLAGS] EVENTS: last-branch recording. TraceLbrConfigurationInfo
// (class 20, kernel class 0x13) sets the options, then TraceLbrEventListInfo (21, 0x14) the events whose
// records carry the branches (at most 4, TRACE_LBR_MAXIMUM_EVENTS). FLAGS: option names joined with '+'
// (lbr_option_names in annotate.hpp, the SDK's TRACE_LBR_CONFIGURATION bits) or a number. Excluding both
// kernel and user branches records nothing and the kernel refuses it: the tool refuses it first.
#include <cstdint>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/error.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/typed/set.hpp"

#include "../annotate.hpp"
#include "../names.hpp"
#include "../session.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {

parsed parse_lbr_options(std::string_view text, std::uint32_t& flags) {
    flags = 0;
    std::uint64_t n = 0;
    if (parse_uint(text, 0xFFFFFFFFULL, n)) {
        if ((n & ~std::uint64_t{etwctl::lbr::all}) != 0)
            return {false, "bad --options '" + std::string(text) + "': bits " + hex(n & ~std::uint64_t{etwctl::lbr::all}, 8) +
                               " are not TRACE_LBR_CONFIGURATION options (known: " + hex(etwctl::lbr::all, 8) + ")"};
        flags = static_cast<std::uint32_t>(n);
        return {true, {}};
    }
    if (iequals(text, "none")) return {true, {}};
    if (auto const m = separator_error(text, ',', '+', "LBR options"); !m.empty()) return {false, m};
    for (auto const& item : split(text, '+')) {
        lbr_option_name const* found = nullptr;
        for (auto const& o : lbr_option_names)
            if (iequals(o.name, item)) found = &o;
        if (!found) {
            std::vector<std::string_view> names;
            for (auto const& o : lbr_option_names) names.push_back(o.name);
            std::string const near = nearest_name(item, names);
            return {false, "bad --options '" + std::string(text) + "': " +
                               (item.empty() ? std::string("empty name (stray '+')") : "unknown LBR option '" + item + "'") +
                               (near.empty() ? std::string(" (etwctl lbr --help lists them)") : " (did you mean " + near + "?)")};
        }
        if (flags & found->bit)
            return {false, "bad --options '" + std::string(text) + "': name given twice '" + item + "'"};
        flags |= found->bit;
    }
    return {true, {}};
}

} // namespace

int cmd_lbr(context const& ctx, tool_kernel& k, json_object& out) {
    if (int const rc = only_options(ctx, {"--options"}, {}); rc != exit_ok) return rc;
    auto const& p = ctx.cl.positional;
    if (p.size() != 3) return usage_error(ctx, "expected SESSION and EVENTS");
    std::uint32_t flags = 0;
    std::string const options_text = ctx.cl.option("--options").value_or("none");
    if (auto const r = parse_lbr_options(options_text, flags); !r.ok) return usage_error(ctx, r.message);
    if (!etwctl::lbr_options{flags}.records_something()) {
        failure f{exit_refused, etwctl::win32_error_code(etwctl::win32::invalid_parameter),
                  "--options " + lbr_options_text(flags) +
                      " excludes both kernel and user branches: nothing would be recorded, and the kernel refuses it "
                      "(STATUS_INVALID_PARAMETER); nothing was sent",
                  {}, {}};
        f.hint = "keep at most one of exclude-kernel and exclude-user";
        f.details.str("options", hex(flags, 8));
        return report_failure(ctx, f);
    }
    if (blank(p[2])) return usage_error(ctx, "EVENTS is empty: name 1 to 4 stack-walk events (CSwitch+Profile)");
    etwctl::hook_id ids[etwctl::limits::max_stack_tracing_events];
    std::size_t n = 0;
    bool too_many = false;
    auto const r = parse_events_arg(p[2], ids, n, false, too_many);
    if (!r.ok && !too_many) return usage_error(ctx, r.message);
    if (too_many || n > etwctl::limits::max_lbr_events) {
        std::string const count = too_many ? "more than " + std::to_string(etwctl::limits::max_stack_tracing_events)
                                           : std::to_string(n);
        failure f{exit_refused, etwctl::make_error_code(etwctl::rule::lbr_events_too_many),
                  count + " LBR events given; at most " + std::to_string(etwctl::limits::max_lbr_events) +
                      " (TRACE_LBR_MAXIMUM_EVENTS); nothing was sent",
                  {}, {}};
        f.hint = "name at most 4 events";
        if (!too_many) f.details.num("count", n);
        f.details.num("max", etwctl::limits::max_lbr_events);
        return report_failure(ctx, f);
    }

    session_arg s;
    if (int const rc = resolve_session(ctx, k, p[1], s); rc != exit_ok) return rc;
    std::span<etwctl::hook_id const> const events(ids, n);
    auto const fail = [&](std::error_code const& ec, std::string_view class_name, bool options_applied) {
        failure f{options_applied ? exit_partial : exit_code_of(ec), ec,
                  std::string(options_applied ? "the LBR options were set, but " : "") + "cannot set " + std::string(class_name) +
                      " for " + s.text,
                  {}, {}};
        if (not_on_this_windows(ec)) {
            f.message = std::string(class_name) + " is not on this Windows: " + f.message;
            f.hint = "this Windows release lacks last-branch recording through ETW" +
                     std::string(options_applied ? "" : "; nothing was changed");
        }
        if (options_applied) f.message += "; the options stay set (the kernel has no way to take them back)";
        f.details.str("class", class_name).boolean("options_applied", options_applied);
        return report_failure(ctx, f);
    };
    if (auto const ec = etwctl::set<etwctl::lbr_configuration>(k, s.handle, etwctl::lbr_options{flags}); ec)
        return fail(ec, "TraceLbrConfigurationInfo", false);
    if (auto const ec = etwctl::set<etwctl::lbr_event_list>(k, s.handle, events); ec)
        return fail(ec, "TraceLbrEventListInfo", true);

    std::vector<std::string> ej;
    for (auto h : events)
        ej.push_back(json_object().str("hook", hex(h.value, 4)).str("name", etwctl::kernel_event_name(h)).text());
    out.num("session", s.handle.value).str("options", hex(flags, 8)).str("option_names", lbr_options_text(flags));
    out.raw("events", json_array(ej));
    if (!ctx.cl.json)
        std::cout << s.text << ": last-branch recording on " << event_list_text(events) << " (" << n
                  << (n == 1 ? " event" : " events") << "), options " << lbr_options_text(flags) << " (" << hex(flags, 8) << ")\n";
    return exit_ok;
}

} // namespace etwctl_tool
