// An xperf command line (or `etwctl session ...`) read into a plan before anything is applied: the
// groups xperf takes (-start NAME -on ... -f ..., -update, -flush, -stop, -loggers, and the options
// before any of them, which belong to the NT Kernel Logger or to -session's running session), each
// value parsed and each name checked. Pure: no kernel is involved, so a mistake anywhere on the line
// is found before the first call is made.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "etwctl/group_mask.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/types.hpp"

namespace etwctl_tool {

/// What a group does to its session.
enum class group_kind {
    running, ///< options before any -start with -session NAME: change that running session
    start,   ///< -start [NAME], or the options before any -start without -session (the NT Kernel Logger, as in xperf)
    update,  ///< -update [NAME]: ControlTrace UPDATE and the -on / -stackwalk / -pmc changes
    flush,   ///< -flush [NAME] [-f FILE]
    stop,    ///< -stop [NAME]
    query,   ///< -loggers NAME, session query NAME
    list,    ///< -loggers, session list
};

/// -FileMode's words.
enum class file_mode { sequential, circular, append, new_file };
/// -ClockType's words (Wnode.ClientContext: PerfCounter 1, SystemTime 2, Cycle 3).
enum class clock_kind { perf_counter = 1, system_time = 2, cycle = 3 };

/// One provider of a user session's -on: Provider[:Keywords[:Level[:'stack|sid|tsid']]].
struct provider_spec {
    enum class kind { guid, event_source, manifest };
    std::string text;             ///< the whole item as written
    std::string name;             ///< the provider part as written (a GUID, *Name or a manifest name)
    kind how = kind::guid;
    etwctl::guid id{};            ///< for kind::guid (the others are resolved when the plan is applied)
    bool keywords_given = false;
    std::uint64_t keywords = ~std::uint64_t{0}; ///< MatchAnyKeyword (default: every keyword)
    std::uint8_t level = 5;       ///< TRACE_LEVEL_VERBOSE unless given
    std::uint32_t enable_property = 0; ///< EVENT_ENABLE_PROPERTY_STACK_TRACE 0x4, SID 0x1, TS_ID 0x2, or a number
};

/// The session settings of a group (-f, -FileMode, ...), each as given.
struct session_settings {
    std::optional<std::string> file;
    std::optional<file_mode> mode;
    std::optional<std::uint32_t> max_file, buffer_size, min_buffers, max_buffers, flush_timer;
    std::optional<clock_kind> clock;
    bool buffering = false, real_time = false;

    bool any() const noexcept {
        return file || mode || max_file || buffer_size || min_buffers || max_buffers || flush_timer || clock || buffering ||
               real_time;
    }
};

struct pmc_spec {
    std::string counters, events; ///< as written (validated: separators, event names)
};

struct group {
    group_kind kind = group_kind::running;
    std::string name;              ///< empty: the NT Kernel Logger (-stop: see names)
    std::vector<std::string> names; ///< -stop's names, in order ("NT Kernel Logger" for a -stop without one)
    std::string opened_by;         ///< "-start", "-update", ... or "" for the options before any of them
    std::string on;                ///< -on as written
    bool kernel = true;            ///< -on holds kernel flags (else providers)
    etwctl::group_mask flags;      ///< the kernel flags of -on
    std::vector<provider_spec> providers;
    std::string stackwalk;         ///< -stackwalk, repeated ones joined with '+'
    std::optional<pmc_spec> pmc;
    session_settings settings;

    bool kernel_logger() const;    ///< the group's session is the NT Kernel Logger
    std::string label() const;     ///< "NT Kernel Logger", "'UIforETWSession'"
};

struct interval_spec {
    std::string value, source; ///< as written; source empty: the timer
};

struct plan {
    std::vector<group> groups; ///< in command-line order
    std::optional<interval_spec> setprofint;
    bool pmcsources = false;
    std::optional<std::string> session; ///< -session: the running session the first group changes
};

/// A line that cannot become a plan: the exit code (usage 1, refused 2), the message and the error.
struct plan_error {
    int code = 0;
    std::string message;
    std::error_code ec; ///< a rule for refusals (code 2); empty for usage errors
    std::string hint;
};

/// Reads xperf's options (a[0] is the first option). On failure `error.code` is non-zero.
plan parse_xperf_line(std::vector<std::string> const& a, plan_error& error);

/// `etwctl session start|stop|list|query|flush|update ...` (p[0] == "session") as the same plan.
plan parse_session_command(std::vector<std::string> const& p, plan_error& error);

/// "NT Kernel Logger" compared as Windows compares session names (case-insensitive).
bool is_kernel_logger_name(std::string_view name) noexcept;

} // namespace etwctl_tool
