// etwctl list events|flags|groups|sources|classes: the names the tool accepts, printed from etwctl's
// tables (names/events.hpp, names/flags.hpp, names/sources.hpp, classes/info_classes.hpp), with the
// xperf name next to etwctl's where they differ.
#include <iostream>
#include <string>
#include <vector>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/names/sources.hpp"

#include "../names.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {
std::string pad(std::string s, std::size_t w) { return s.size() < w ? s + std::string(w - s.size(), ' ') : s + " "; }

struct table {
    std::vector<std::string> json_rows;
    std::string text;
    void row(json_object const& o, std::vector<std::pair<std::string, std::size_t>> const& cells) {
        json_rows.push_back(o.text());
        std::string line;
        for (auto const& [c, w] : cells) line += pad(c, w);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        text += line + "\n";
    }
};

std::string perf_value_text(etwctl::group_mask const& m) {
    std::string t;
    for (std::size_t i = 0; i < etwctl::limits::max_group_masks; ++i)
        if (m.masks[i]) t += (t.empty() ? "" : "+") + hex((std::uint64_t{i} << 29) | m.masks[i], 8);
    return t;
}

void list_events(table& t) {
    t.text = "etwctl name                         hook    group        flag                 xperf name                         note\n";
    for (auto const& e : etwctl::kernel_event_table<>) {
        std::string const group(etwctl::kernel_group_table[e.group].name);
        std::string const flag = e.enabling_flag() ? flags_text(etwctl::group_mask(*e.enabling_flag())) : std::string("-");
        std::string note = e.alias ? "alias of " + std::string(etwctl::kernel_event_name(e.hook())) : std::string();
        if (e.inferred) note += (note.empty() ? "" : "; ") + std::string("name inferred");
        if (e.inferred_flag) note += (note.empty() ? "" : "; ") + std::string("flag inferred");
        std::string const xperf = e.xperf_name ? std::string(e.name) : std::string("-");
        json_object o;
        o.str("name", e.name).str("hook", hex(e.hook().value, 4)).str("group", group).str("flag", flag)
            .raw("xperf_name", e.xperf_name ? json_string(e.name) : "null").boolean("alias", e.alias)
            .boolean("inferred", e.inferred).boolean("inferred_flag", e.inferred_flag);
        t.row(o, {{std::string(e.name), 36}, {hex(e.hook().value, 4), 8}, {group, 13}, {flag, 21}, {xperf, 35}, {note, 0}});
    }
}

void list_flags(table& t) {
    t.text = "etwctl name             value         xperf name          note\n";
    for (auto const& f : etwctl::xperf_kernel_flag_table<>) {
        json_object o;
        o.str("name", f.name).str("value", perf_value_text(f.mask)).str("xperf_name", f.name).boolean("inferred", f.inferred);
        t.row(o, {{std::string(f.name), 24}, {perf_value_text(f.mask), 14}, {std::string(f.name), 20},
                  {f.inferred ? "value matched by name (inferred)" : "", 0}});
    }
    for (auto const& f : etwctl::xperf_kernel_flag_without_value) {
        json_object o;
        o.str("name", f.name).raw("value", "null").str("xperf_name", f.name).str("note", f.seen_in);
        t.row(o, {{"-", 24}, {"-", 14}, {std::string(f.name), 20}, {"no public value; seen in " + std::string(f.seen_in), 0}});
    }
    for (auto const& f : etwctl::perf_flag_table<>) {
        json_object o;
        o.str("name", f.name).str("value", hex(f.flag.value, 8)).raw("xperf_name", "null");
        t.row(o, {{std::string(f.name), 24}, {hex(f.flag.value, 8), 14}, {"-", 20}, {"etwctl name (phnt ntwmi.h)", 0}});
    }
}

void list_groups(table& t) {
    t.text = "xperf group    value                                     note        members\n";
    for (auto const& g : etwctl::xperf_kernel_group_table<>) {
        json_object o;
        o.str("name", g.name).str("value", perf_value_text(g.mask)).str("members", g.members).boolean("inferred", g.inferred);
        t.row(o, {{std::string(g.name), 15}, {perf_value_text(g.mask), 42}, {g.inferred ? "inferred" : "confirmed", 12},
                  {std::string(g.members), 0}});
    }
}

void list_sources(table& t) {
    t.text = "  id  etwctl name                 KPROFILE_SOURCE                 note\n";
    for (auto const& s : etwctl::profile_source_table) {
        auto const id = static_cast<std::uint32_t>(s.source);
        json_object o;
        o.num("id", id).str("name", s.name).str("kprofile_name", s.kprofile_name).boolean("processor_specific", s.hal_dependent);
        std::string idt = std::to_string(id);
        t.row(o, {{std::string(4 - (idt.size() < 4 ? idt.size() : 4), ' ') + idt, 6}, {std::string(s.name), 28},
                  {s.kprofile_name.empty() ? "-" : std::string(s.kprofile_name), 32},
                  {s.hal_dependent ? "processor-specific: the machine's list decides" : "", 0}});
    }
}

void list_classes(table& t) {
    // Columns every revision of the class table has: the class, whether TraceSetInformation /
    // TraceQueryInformation take it, and its payload.
    t.text = "  id  SDK name                            set  query  payload\n";
    for (auto const& c : etwctl::trace_info_class_table) {
        auto const id = static_cast<std::uint32_t>(c.id);
        bool const set = static_cast<bool>(c.set), query = static_cast<bool>(c.query);
        json_object o;
        o.num("id", id).str("name", c.sdk_name).boolean("set", set).boolean("query", query).str("payload", c.payload);
        std::string idt = std::to_string(id);
        t.row(o, {{std::string(4 - (idt.size() < 4 ? idt.size() : 4), ' ') + idt, 6}, {std::string(c.sdk_name), 36},
                  {set ? "yes" : "-", 5}, {query ? "yes" : "-", 7}, {std::string(c.payload), 0}});
    }
}
} // namespace

int cmd_list(context const& ctx, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() != 2) return usage_error(ctx, "expected events, flags, groups, sources or classes");
    table t;
    std::string const& what = p[1];
    if (what == "events") list_events(t);
    else if (what == "flags") list_flags(t);
    else if (what == "groups") list_groups(t);
    else if (what == "sources") list_sources(t);
    else if (what == "classes") list_classes(t);
    else {
        std::string const near = nearest_name(what, {"events", "flags", "groups", "sources", "classes"});
        return usage_error(ctx, "unknown list '" + what + "'" + (near.empty() ? "" : " (did you mean " + near + "?)"));
    }
    out.str("list", what).raw("rows", json_array(t.json_rows));
    if (!ctx.cl.json) std::cout << t.text;
    return exit_ok;
}

} // namespace etwctl_tool
