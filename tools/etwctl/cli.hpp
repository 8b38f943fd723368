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

/// One command the tool accepts: main.cpp runs a command only if it is here (find_help), `etwctl --help`
/// lists each by its `listing` (general_help()), and `etwctl NAME --help` prints its usage and text.
/// The checks below the table refuse to compile an entry without help text.
struct command_help {
    std::string_view name;
    std::string_view usage;
    std::string_view text;
    std::string_view listing; ///< its lines in `etwctl --help` (the forms, then what they do); xperf's: the forms
};

/// wpr's verbs, as wpr.exe spells them: commands/wpr.cpp accepts these and no others, and the wpr entry
/// below must list each (checked at compile time).
inline constexpr std::string_view wpr_verbs[] = {"-start", "-stop", "-cancel", "-status", "-profiles", "-check"};

inline constexpr command_help helps[] = {
    {"help", "etwctl help [COMMAND]", "Prints the commands, or a COMMAND's usage and text (as etwctl COMMAND --help).",
     "help [COMMAND]                       this list, or a command's help"},
    {"profile-sources", "etwctl profile-sources   (xperf: -pmcsources)",
     "Lists the machine's profile sources: id, name, current interval, min and max interval\n"
     "(100 ns units for the timer; an event count for hardware counters).",
     "profile-sources                      list the machine's profile sources"},
    {"interval", "etwctl interval get [--source NAME|ID]\n       etwctl interval set [--source NAME|ID] VALUE",
     "Reads or sets the sampled-profile interval of a source (default: the timer). It is machine-global.\n"
     "VALUE: 100 ns units (10000 = 1 ms), or with a unit for timer sources: 122.1us, 1ms, 8kHz.\n"
     "The value must lie within the source's [min, max] (rule interval_out_of_bounds).",
     "interval get|set [--source S] [V]    the sampled-profile interval of a source"},
    {"stackwalk", "etwctl stackwalk SESSION NAMES\n       etwctl stackwalk SESSION set NAMES\n       etwctl stackwalk SESSION clear",
     "Sets the session's stack-walk list: NAMES is CSwitch+ReadyThread+... (xperf names or 0x hook ids).\n"
     "The list replaces the session's previous one. An empty list is refused: 'clear' (or 'none') turns\n"
     "stack walking off. 'add' / 'remove' are refused: the kernel cannot report a session's list.",
     "stackwalk SESSION NAMES|clear        set a session's stack-walk events"},
    {"flags", "etwctl flags SESSION get\n       etwctl flags SESSION set|add|remove NAMES\n       etwctl flags SESSION clear",
     "Reads or sets the session's kernel flags (group mask): NAMES is PROC_THREAD+LOADER+PROFILE+...\n"
     "(xperf flag and group names, PERF_* names or 0x PERF values). add / remove change the flags the\n"
     "kernel reports for the session. An empty list is refused: 'clear' turns every flag off.",
     "flags SESSION get|set|add|remove|clear [NAMES]   read or change a session's kernel flags"},
    {"limits", "etwctl limits [SESSION]",
     "Prints the machine's limits: the most loggers (TraceMaxLoggersQuery), the most hardware counters\n"
     "sampled at once (TraceMaxPmcCounterQuery) and, for a SESSION, its streams (TraceStreamCount).\n"
     "A Windows without a class prints 'not on this Windows'.",
     "limits [SESSION]                     the machine's logger and counter limits"},
    {"pmc", "etwctl pmc SESSION --counters NAME|ID,... [--events NAMES] [--interval N] [--flags NAMES]\n"
            "       etwctl pmc owners\n"
            "       etwctl pmc add NAME --intel EVENT:UMASK[,cmask=N,inv,edge,any] [--interval N] [--no-persist]\n"
            "       etwctl pmc add NAME --amd EVENT:UMASK[,cmask=N,inv,edge,hostguest=N,pmu=N] [--interval N]\n"
            "       etwctl pmc add NAME --arm EVENT[,halt] [--interval N]\n"
            "       etwctl pmc remove ID|NAME",
     "Attaches hardware counters (profile sources, 1 to 4, joined with ',') to kernel events (0 to 4,\n"
     "xperf names joined with '+' or ','). --interval sets each counter's interval first; --flags turns\n"
     "kernel flags on (added to the session's flags) before the events' groups are checked. The counter\n"
     "and event lists can be set once per session. 'pmc owners' prints who holds each counter\n"
     "(TracePmcCounterOwners: free, held outside ETW, or a session's).\n"
     "'pmc add' adds a custom hardware counter to the machine's profile sources (Windows 10 1803 and later)\n"
     "under NAME (1..126 ASCII characters; --description TEXT is another spelling of NAME) and prints the\n"
     "id the kernel gave it; use NAME or the id with --counters. EVENT and UMASK are hexadecimal, as in\n"
     "the processor manuals (24:3F = EventSelect 0x24, UMask 0x3F); cmask, hostguest and pmu take decimal\n"
     "or 0x. --interval: the initial interval in events (default 65536). The source persists after etwctl\n"
     "exits (--no-persist: it may not). 'pmc remove' removes a custom counter by id or NAME.",
     "pmc SESSION --counters C,... [--events E+...] [--interval N] [--flags F+...]   count events with hardware counters\n"
     "pmc owners                           who holds each hardware counter\n"
     "pmc add NAME --intel|--amd|--arm SPEC [--interval N]   add a custom hardware counter\n"
     "pmc remove ID|NAME                   remove a custom hardware counter"},
    {"stackcache", "etwctl stackcache SESSION SIZE BUCKETS [--unified] [--clamp]",
     "Enables the session's stack cache (TraceStackCachingInfo; --unified: TraceUnifiedStackCachingInfo).\n"
     "SIZE: bytes, or a whole number with KiB, MiB or GiB (16MiB); KB / MB are refused as ambiguous.\n"
     "The kernel allows 3MiB..50MiB and 256..4096 BUCKETS and would clamp other values silently: etwctl\n"
     "refuses them (exit 2), or with --clamp uses the nearest allowed value and says so on stderr.\n"
     "Stack caching cannot be switched off (the kernel refuses Enabled = 0) and can be enabled once per\n"
     "session (a second enable is refused: STATUS_WMI_ALREADY_ENABLED); it ends with the session.",
     "stackcache SESSION SIZE BUCKETS [--unified] [--clamp]  enable a session's stack cache"},
    {"lbr", "etwctl lbr SESSION [--options FLAGS] EVENTS",
     "Turns last-branch recording on for the session: TraceLbrConfigurationInfo (the options), then\n"
     "TraceLbrEventListInfo (the events whose records carry the branches: 1 to 4 stack-walk event names\n"
     "joined with '+', as stackwalk takes them). FLAGS: names joined with '+', or a number (0x201):\n"
     "exclude-kernel, exclude-user, exclude-jcc, exclude-near-rel-call, exclude-near-ind-call,\n"
     "exclude-near-ret, exclude-near-ind-jmp, exclude-near-rel-jmp, exclude-far-branch, callstack,\n"
     "sampled (ARM64). Excluding both kernel and user records nothing: refused (exit 2). If the event\n"
     "list fails after the options were set, the exit code is 4.",
     "lbr SESSION [--options F+...] EVENTS set a session's last-branch recording"},
    {"list", "etwctl list events|flags|groups|sources|classes",
     "Prints the names the tool accepts, from etwctl's tables: hook id / mask / source id, the xperf name\n"
     "and whether xperf knows it. With --json, one object per row.",
     "list events|flags|groups|sources|classes          the names the tool accepts"},
    {"version", "etwctl version", "Prints the tool's version, the kernel it talks to and TraceVersionInfo.",
     "version                              versions and the kernel in use"},
    {"trace", "etwctl trace dump FILE [--json] [--events NAME,...] [--pid N] [--limit N]\n"
              "       etwctl trace stats FILE [--json]\n"
              "       etwctl trace stacks FILE [--pid N] [--events NAME,...]",
     "Reads an .etl file on any OS (no kernel involved; --sim changes nothing). dump: one line per event in\n"
     "timestamp order, the header event first (--json: JSON Lines with time_ms, cpu, pid, tid, key, hook,\n"
     "provider, name, opcode, kind, fields, stack, pmc or bytes). stats: counts by key and name, lost data,\n"
     "samples per process. stacks: the sampled stacks in the folded format flame-graph tools read\n"
     "(process;frame;...;frame count, root first, frames module+0xoffset from the trace's image events).\n"
     "--events: kernel event names (xperf's and the MOF classes', 0x hook ids) and TraceLogging event\n"
     "names, joined with ','; --pid: the events of one process (-1: of no known process).\n"
     "Exit codes: 0 read whole, 1 usage, 2 not a trace etwctl can read (nothing read), 3 the file cannot be\n"
     "read, 4 read with faults (each on stderr with its file offset; what could be read is in the output).",
     "trace dump|stats|stacks FILE [--json] [--events E,...] [--pid N] [--limit N]   read an .etl file"},
    {"decode-handle", "etwctl decode-handle 0xHANDLE",
     "Decodes a classic provider's enable-callback TRACEHANDLE (TRACE_ENABLE_CONTEXT): logger id, level,\n"
     "internal flag and enable flags.",
     "decode-handle 0xHANDLE               decode a TRACE_ENABLE_CONTEXT handle"},
    {"session", "etwctl session start NAME [-on FLAGS|PROVIDERS] [-f FILE] [-FileMode M] [-MaxFile MB] [-BufferSize KB]\n"
                "                     [-MinBuffers N] [-MaxBuffers N] [-Buffering] [-RealTime] [-FlushTimer S] [-ClockType C]\n"
                "                     [-stackwalk EVENTS] [-pmc COUNTERS EVENTS]\n"
                "       etwctl session stop NAME [NAME ...]\n"
                "       etwctl session flush NAME [-f FILE]\n"
                "       etwctl session update NAME [-on ...] [-f FILE] [-FlushTimer S] [-MaxBuffers N] [-RealTime]\n"
                "       etwctl session query NAME\n"
                "       etwctl session list\n"
                "       etwctl session consume NAME [--json] [--events NAME,...] [--duration S]",
     "Starts, stops, flushes, updates, queries or lists ETW sessions (StartTraceW, ControlTraceW, QueryAllTracesW,\n"
     "EnableTraceEx2), one session a command, with the options of xperf's -start group (etwctl help xperf).\n"
     "NAME \"NT Kernel Logger\" is the kernel logger; another NAME with kernel flags in -on is a system logger\n"
     "(EVENT_TRACE_SYSTEM_LOGGER_MODE); with providers in -on a user session.\n"
     "consume: reads a real-time session's events for S seconds (default 1; on the simulated machine simulated\n"
     "seconds) and prints them as trace dump does (--json: JSON Lines); --events filters by name; the report\n"
     "(events delivered, lost, span, why it ended) goes to stderr.",
     "session start|stop|flush|update|query|list|consume [NAME] [OPTIONS]   control ETW sessions"},
    {"wpr", "etwctl wpr -start FILE!Profile[.Light|.Verbose] [-filemode] [--base FILE]...\n"
            "       etwctl wpr -stop OUT.etl\n"
            "       etwctl wpr -cancel\n"
            "       etwctl wpr -status [FILE!Profile [-filemode] [--base FILE]...]\n"
            "       etwctl wpr -profiles FILE\n"
            "       etwctl wpr -check FILE!Profile[.Light|.Verbose] [-filemode] [--base FILE]...\n"
            "       etwctl wpr -check FILE [--base FILE]...   (every profile of the file)",
     "Windows Performance Recorder profiles (.wprp), as wpr.exe takes them. The profile is read and checked\n"
     "whole first (WPR's schema, Base= inheritance): a fault anywhere sends nothing. -start starts the system\n"
     "logger and one session per event collector, named as WPR names them (WPR_initiated_WprApp_...), and\n"
     "leaves them running; -status lists them (with a profile: compared with it), -cancel stops them,\n"
     "-stop stops them with each session's events in a file of its own: OUT.etl is NOT written (WPR's merge\n"
     "is not public; exit code 4 says so). -profiles lists a file's profiles; -check prints the plan (FILE\n"
     "without !Profile: every profile's, exit 0 when every one can be applied). A stack cache outside the\n"
     "kernel's bounds is applied clamped, as the kernel clamps it, with a warning naming both values.\n"
     "--base FILE: a file that defines what Base= names (wpr -exportprofile writes WPR's built-in ones).\n"
     "Memory mode is WPR's default; -filemode picks the File version (files in the current directory).",
     "wpr -start|-check|-status FILE!Profile [-filemode] [--base FILE]...   apply or check a WPR profile (.wprp)\n"
     "wpr -stop|-cancel|-profiles [OUT.etl|FILE]   stop or cancel the profile's sessions; list a file's profiles"},
    {"xperf", "etwctl [-start [NAME]] [-on FLAGS|PROVIDERS] [-stackwalk EVENTS] [-f FILE] [-FileMode M] [-MaxFile MB]\n"
              "       [-BufferSize KB] [-MinBuffers N] [-MaxBuffers N] [-Buffering] [-RealTime] [-FlushTimer S]\n"
              "       [-ClockType PerfCounter|SystemTime|Cycle] [-pmc COUNTERS EVENTS] [-start NAME ...] [-setprofint N [SOURCE]]\n"
              "       etwctl -stop [NAME ...] [-stop NAME ...]\n"
              "       etwctl -flush [NAME] [-f FILE]\n"
              "       etwctl -update [NAME] [-on ...] [-f FILE] [-FlushTimer S] [-MaxBuffers N] [-RealTime]\n"
              "       etwctl -loggers [NAME]\n"
              "       etwctl [-session NAME|ID] -on FLAGS|GROUP [-stackwalk EVENTS] [-pmc COUNTERS EVENTS]\n"
              "       etwctl -setprofint N [SOURCE]\n"
              "       etwctl -pmcsources",
     "xperf's spellings. Several -start groups may share a line, each followed by its options; the options\n"
     "before any -start START the NT Kernel Logger, as xperf's do (it must not be running: ERROR_ALREADY_EXISTS);\n"
     "with -session NAME|ID (etwctl's own) they change that running session instead (-session kernel: the\n"
     "running NT Kernel Logger). A session started without -f, -RealTime or -Buffering logs to xperf's\n"
     "default file: \\Kernel.etl for the NT Kernel Logger, \\User.etl for a user session; a system logger\n"
     "(kernel flags on a named session) has no documented default and needs one of the three.\n"
     "-on: kernel flags and groups joined with '+', or for a user session providers joined with '+':\n"
     "GUID or *EventSourceName or a manifest name, [:Keywords[:Level[:'stack|sid|tsid']]].\n"
     "The whole line is read before anything is sent; an option given twice is refused. -d (merge) is\n"
     "not a session verb: refused. Names and options are not case sensitive (docs/tool.md).",
     "-start [NAME] -on FLAGS|PROVIDERS [-f FILE] [-BufferSize KB] ... [-start NAME ...]\n"
     "-stop [NAME ...]   -flush [NAME] [-f FILE]   -update [NAME] ...   -loggers [NAME]\n"
     "-on FLAGS|GROUP [-stackwalk E+...] [-setprofint N [SOURCE]] [-pmc C,... E+...]   start the NT Kernel Logger\n"
     "-session S -on FLAGS|GROUP [-stackwalk E+...] [-pmc C,... E+...]   change a running session\n"
     "-stackwalk E+...   -setprofint N [SOURCE]   -pmcsources"},
};

/// `etwctl --help`: the global options, then every command of `helps` by its listing (in table order),
/// then xperf's forms, the SESSION argument and the exit codes.
std::string general_help();

namespace detail {
constexpr bool help_complete() {
    for (auto const& h : helps)
        if (h.name.empty() || h.usage.empty() || h.text.empty() || h.listing.empty()) return false;
    return true;
}
constexpr bool listed_as_itself() { // each listing line names its command first (xperf's: an option)
    for (auto const& h : helps) {
        std::string_view const first = h.name == "xperf" ? std::string_view("-") : h.name;
        for (std::string_view l = h.listing; !l.empty();) {
            std::size_t const nl = l.find('\n');
            std::string_view const line = l.substr(0, nl);
            if (line.substr(0, first.size()) != first || (h.name != "xperf" && line.size() > first.size() && line[first.size()] != ' '))
                return false;
            l = nl == std::string_view::npos ? std::string_view() : l.substr(nl + 1);
        }
    }
    return true;
}
constexpr bool wpr_verbs_listed() {
    for (auto const& h : helps)
        if (h.name == "wpr")
            for (auto v : wpr_verbs)
                if (h.listing.find(v) == std::string_view::npos || h.usage.find(v) == std::string_view::npos) return false;
    return true;
}
} // namespace detail
static_assert(detail::help_complete(), "every command needs its usage, text and --help listing");
static_assert(detail::listed_as_itself(), "each --help line of a command starts with the command's name");
static_assert(detail::wpr_verbs_listed(), "etwctl --help and wpr's usage list every verb wpr accepts");

constexpr command_help const* find_help(std::string_view name) {
    for (auto const& h : helps)
        if (h.name == name) return &h;
    return nullptr;
}

struct command_line {
    bool dry_run = false, json = false, help = false, sim = false, trace = false;
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> options; // --name value
    std::vector<std::string> switches;                         // --name (no value): --unified, --clamp, ...
    std::string error;

    std::optional<std::string> option(std::string_view name) const {
        for (auto const& [k, v] : options)
            if (k == name) return v;
        return std::nullopt;
    }
    bool has(std::string_view name) const {
        for (auto const& s : switches)
            if (s == name) return true;
        return false;
    }
};

command_line parse_command_line(int argc, char** argv);

/// The one refusal of an option given twice, for the tool's own --options (parse_command_line) and
/// xperf's -options (plan.cpp) alike: names the option, both values as written and, for xperf's group
/// options, the group ("for -start S"). A second value would otherwise replace or be ignored silently.
/// `first` / `second`: the values as written (empty for an option that takes none).
std::string option_given_twice(std::string_view option, std::string_view first, std::string_view second,
                               std::string_view where = {});

} // namespace etwctl_tool
