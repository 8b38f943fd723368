// The command line: global options, positional arguments, --name value options, and the help texts.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace etwctl_tool {

/// Exit codes (scripts rely on them; keep docs/tool.md in step): 0 ok, 1 usage (bad command line,
/// unknown name or value), 2 refused by an etwctl rule before anything was sent, 3 the kernel refused
/// or failed, 4 partially applied (a later step failed after an earlier one took effect).
enum exit_code : int { exit_ok = 0, exit_usage = 1, exit_refused = 2, exit_kernel = 3, exit_partial = 4 };

struct command_help {
    std::string_view name;
    std::string_view usage;
    std::string_view text;
};

inline constexpr command_help helps[] = {
    {"profile-sources", "etwctl profile-sources   (xperf: -pmcsources)",
     "Lists the machine's profile sources: id, name, current interval, min and max interval\n"
     "(100 ns units for the timer; an event count for hardware counters)."},
    {"interval", "etwctl interval get [--source NAME|ID]\n       etwctl interval set [--source NAME|ID] VALUE",
     "Reads or sets the sampled-profile interval of a source (default: the timer). It is machine-global.\n"
     "VALUE: 100 ns units (10000 = 1 ms), or with a unit for timer sources: 122.1us, 1ms, 8kHz.\n"
     "The value must lie within the source's [min, max] (rule interval_out_of_bounds)."},
    {"stackwalk", "etwctl stackwalk SESSION NAMES\n       etwctl stackwalk SESSION set NAMES\n       etwctl stackwalk SESSION clear",
     "Sets the session's stack-walk list: NAMES is CSwitch+ReadyThread+... (xperf names or 0x hook ids).\n"
     "The list replaces the session's previous one. An empty list is refused: 'clear' (or 'none') turns\n"
     "stack walking off. 'add' / 'remove' are refused: the kernel cannot report a session's list."},
    {"flags", "etwctl flags SESSION get\n       etwctl flags SESSION set|add|remove NAMES\n       etwctl flags SESSION clear",
     "Reads or sets the session's kernel flags (group mask): NAMES is PROC_THREAD+LOADER+PROFILE+...\n"
     "(xperf flag and group names, PERF_* names or 0x PERF values). add / remove change the flags the\n"
     "kernel reports for the session. An empty list is refused: 'clear' turns every flag off."},
    {"limits", "etwctl limits [SESSION]",
     "Prints the machine's limits: the most loggers (TraceMaxLoggersQuery), the most hardware counters\n"
     "sampled at once (TraceMaxPmcCounterQuery) and, for a SESSION, its streams (TraceStreamCount).\n"
     "A Windows without a class prints 'not on this Windows'."},
    {"pmc", "etwctl pmc SESSION --counters NAME|ID,... [--events NAMES] [--interval N] [--flags NAMES]\n"
            "       etwctl pmc owners",
     "Attaches hardware counters (profile sources, 1 to 4, joined with ',') to kernel events (0 to 4,\n"
     "xperf names joined with '+' or ','). --interval sets each counter's interval first; --flags turns\n"
     "kernel flags on (added to the session's flags) before the events' groups are checked. The counter\n"
     "and event lists can be set once per session. 'pmc owners' prints who holds each counter\n"
     "(TracePmcCounterOwners: free, held outside ETW, or a session's)."},
    {"list", "etwctl list events|flags|groups|sources|classes",
     "Prints the names the tool accepts, from etwctl's tables: hook id / mask / source id, the xperf name\n"
     "and whether xperf knows it. With --json, one object per row."},
    {"version", "etwctl version", "Prints the tool's version, the kernel it talks to and TraceVersionInfo."},
    {"decode-handle", "etwctl decode-handle 0xHANDLE",
     "Decodes a classic provider's enable-callback TRACEHANDLE (TRACE_ENABLE_CONTEXT): logger id, level,\n"
     "internal flag and enable flags."},
    {"xperf", "etwctl [-session NAME|ID] -on FLAGS|GROUP [-stackwalk EVENTS] [-setprofint N [SOURCE]]\n"
              "       [-pmc COUNTERS EVENTS]\n"
              "       etwctl [-session NAME|ID] -stackwalk EVENTS\n"
              "       etwctl -setprofint N [SOURCE]\n"
              "       etwctl -pmcsources",
     "xperf's spellings, on a running session (the NT Kernel Logger unless -session names another):\n"
     "flags and events are joined with '+', counters with ','; names are not case sensitive. Each option\n"
     "runs the same code as the matching command (docs/tool.md lists the requests each sends).\n"
     "Unlike xperf, -on does not start a session: it sets the running session's flags."},
};

inline constexpr std::string_view general_help =
    "usage: etwctl [--dry-run] [--trace] [--json] [--sim] COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  profile-sources                      list the machine's profile sources\n"
    "  interval get|set [--source S] [V]    the sampled-profile interval of a source\n"
    "  stackwalk SESSION NAMES|clear        set a session's stack-walk events\n"
    "  flags SESSION get|set|add|remove|clear [NAMES]   read or change a session's kernel flags\n"
    "  pmc SESSION --counters C,... [--events E+...] [--interval N] [--flags F+...]\n"
    "  list events|flags|groups|sources|classes          the names the tool accepts\n"
    "  version                              versions and the kernel in use\n"
    "  decode-handle 0xHANDLE               decode a TRACE_ENABLE_CONTEXT handle\n"
    "xperf forms (etwctl help xperf):\n"
    "  -on FLAGS|GROUP [-stackwalk E+...] [-setprofint N [SOURCE]] [-pmc C,... E+...] [-session S]\n"
    "  -stackwalk E+...   -setprofint N [SOURCE]   -pmcsources\n"
    "\n"
    "SESSION: a logger id (decimal or 0x), 'kernel' / \"NT Kernel Logger\" (0xFFFF), or a session name.\n"
    "options:\n"
    "  --dry-run   print the exact kernel requests as annotated hex; send only reads\n"
    "  --trace     send the requests and print them as annotated hex, with each status\n"
    "  --json      machine-readable output on stdout\n"
    "  --sim       use the simulated kernel even on Windows\n"
    "  --help      this text, or a command's (etwctl COMMAND --help)\n"
    "exit codes: 0 ok, 1 usage, 2 refused by a rule, 3 kernel error, 4 partially applied\n";

inline command_help const* find_help(std::string_view name) {
    for (auto const& h : helps)
        if (h.name == name) return &h;
    return nullptr;
}

struct command_line {
    bool dry_run = false, json = false, help = false, sim = false, trace = false;
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> options; // --name value
    std::string error;

    std::optional<std::string> option(std::string_view name) const {
        for (auto const& [k, v] : options)
            if (k == name) return v;
        return std::nullopt;
    }
};

command_line parse_command_line(int argc, char** argv);

} // namespace etwctl_tool
