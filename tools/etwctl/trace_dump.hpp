// The formatting of `etwctl trace dump` (commands/trace.cpp), shared with `etwctl session consume`
// (commands/consume.cpp): one implementation of the --events filter and of an event's text line / JSON
// line, so a consumed session prints exactly what a dump of its file prints.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/trace.hpp"

#include "text.hpp"
#include "trace_analysis.hpp"

namespace etwctl_tool {

/// --events: kernel hooks (by name or 0x id) and TraceLogging event names.
struct event_filter {
    std::vector<bool> hooks;          // indexed by hook id; empty when no kernel name was given
    std::vector<std::string> names;   // TraceLogging event names (matched case-insensitively)
    bool active() const { return !hooks.empty() || !names.empty(); }
    bool matches(etwctl::trace::record const& r) const {
        if (r.has_hook()) return !hooks.empty() && hooks[r.hook().value];
        if (names.empty()) return false;
        etwctl::trace::tl_event_metadata md;
        if (!trace_tool::tracelogging_metadata(r, md)) return false;
        for (auto const& n : names)
            if (iequals(n, md.name())) return true;
        return false;
    }
};

/// NAME,NAME,... ('+' joins too): kernel names (case-insensitive, aliases included), hook ids as 0x0F2E,
/// and TraceLogging event names; a name close to a kernel name is refused as a misspelling, naming the
/// nearest. False with `error` (a usage error's message).
bool parse_event_filter(std::string_view text, event_filter& out, std::string& error);

/// One event as `trace dump --json` prints it (a JSON line, "\n" included) / as its text line.
void write_json_event(std::string& out, etwctl::trace::event const& e, trace_tool::event_ids ids, etwctl::trace::clock const& clock,
                      std::vector<std::uint64_t>& frames);
void write_text_event(std::string& out, etwctl::trace::event const& e, trace_tool::event_ids ids, etwctl::trace::clock const& clock,
                      std::vector<std::uint64_t>& frames);

} // namespace etwctl_tool
