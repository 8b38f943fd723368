// etwctl interval get|set (xperf -setprofint): the sampled-profile interval of a profile source.
#include <iostream>
#include <string>

#include "etwctl/error.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/typed/set.hpp"

#include "../sources.hpp"
#include "commands.hpp"

namespace etwctl_tool {

int cmd_interval(context const& ctx, tool_kernel& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() < 2 || (p[1] != "get" && p[1] != "set")) return usage_error(ctx, "expected 'get' or 'set'");
    bool const setting = p[1] == "set";
    if (setting ? p.size() != 3 : p.size() != 2) return usage_error(ctx, setting ? "set takes one VALUE" : "get takes no VALUE");
    auto const rows = read_sources(k);
    if (!rows) return report_failure(ctx, {exit_code_of(rows.error()), rows.error(), "cannot read the profile-source list", {}, {}});
    std::string const source_text = ctx.cl.option("--source").value_or("0");
    source_row const* src = find_source(*rows, source_text);
    if (!src) {
        std::string const suggestion = suggest_source(*rows, source_text);
        failure f{exit_refused, etwctl::make_error_code(etwctl::rule::profile_source_absent),
                  "profile source '" + source_text + "' is not in this machine's list" +
                      (suggestion.empty() ? std::string(" (see etwctl profile-sources)") : " (did you mean " + suggestion + "?)"),
                  {}, {}};
        f.details.str("source", source_text);
        return report_failure(ctx, f);
    }
    auto const source = static_cast<etwctl::profile_source>(src->id);
    out.num("source", src->id).str("name", src->name);
    auto const before = etwctl::query<etwctl::sampled_profile_interval>(k, source);
    if (!before) return report_failure(ctx, {exit_code_of(before.error()), before.error(), "cannot read the interval of " + src->name, {}, {}});
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
                  {}, {}};
        f.details.num("requested", value).num("min", src->min).num("max", src->max);
        return report_failure(ctx, f);
    }
    // The timer takes a time interval; a counter its event count, checked against the bounds this command
    // just read from the profile-source list (no second query).
    std::error_code const ec =
        is_timer_source(*src)
            ? etwctl::set<etwctl::sampled_profile_interval>(k, source, etwctl::profile_interval{value})
            : etwctl::set<etwctl::sampled_profile_interval>(k, source, etwctl::counter_interval{value},
                                                            etwctl::interval_bounds{src->min, src->max});
    if (ec) return report_failure(ctx, {exit_code_of(ec), ec, "cannot set the interval of " + label, {}, {}});
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

} // namespace etwctl_tool
