// etwctl profile-sources (xperf -pmcsources): the machine's profile-source list with each interval.
#include <iostream>

#include "etwctl/typed/query.hpp"

#include "../sources.hpp"
#include "commands.hpp"

namespace etwctl_tool {

int cmd_profile_sources(context const& ctx, tool_kernel& k, json_object& out) {
    if (ctx.cl.positional.size() > 1) return usage_error(ctx, "takes no arguments");
    auto const rows = read_sources(k);
    if (!rows) return report_failure(ctx, {exit_code_of(rows.error()), rows.error(), "cannot read the profile-source list", {}, {}});
    std::vector<std::string> json_rows;
    std::string text = "  Id  Name                              Interval         Min         Max\n";
    auto pad_left = [](std::string s, std::size_t w) { return s.size() < w ? std::string(w - s.size(), ' ') + s : s; };
    auto pad_right = [](std::string s, std::size_t w) { return s.size() < w ? s + std::string(w - s.size(), ' ') : s; };
    for (auto const& r : *rows) {
        auto const iv = etwctl::query<etwctl::sampled_profile_interval>(k, static_cast<etwctl::profile_source>(r.id));
        std::string const interval = iv ? std::to_string(iv->count()) : std::string("?");
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

} // namespace etwctl_tool
