// SPDX-License-Identifier: MIT
// etwctl/wpr/plan.hpp - what a Windows Performance Recorder profile (.wprp) asks of the machine, as plain
// data: one system logger and one session per event collector, each with the properties StartTrace
// takes, the kernel settings etwctl's typed calls take (group mask, stack list, stack caching, hardware
// counters) and the providers with EnableTraceEx2's parameters. etwctl/wpr/profiles.hpp builds a plan
// from a .wprp; an apply step starts it through etwctl's session API; etwctl/wpr/check.hpp compares a
// plan with what a running session reports.
//
// OPT-IN and ALLOCATING: this folder (etwctl/wpr/) is not included by etwctl/etwctl.hpp, and unlike
// the rest of etwctl it uses std::string and std::vector (a profile is a document of any size). It is
// meant for tools and for programs that read profiles at start-up, not for hot paths. Reading .wprp
// files needs pugixml (etwctl/wpr/read.hpp only; CMake target etwctl::wpr).
//
// Where a value comes from is said next to each field. Nothing is guessed: a setting whose meaning no
// public source gives is not in the plan and is named in plan::warnings instead (check::not_carried).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/config.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {

// ---- findings: what reading, checking and lowering a profile found --------------------------------

enum class severity : std::uint8_t { warning, error };

/// What a finding is about (its "rule"). Errors stop the plan; warnings travel with it.
enum class check : std::uint8_t {
    xml,               ///< not well-formed XML (error)
    element,           ///< the schema's content model: unknown element, order, count (error)
    attribute,         ///< unknown or missing attribute (error)
    value,             ///< a value outside its type: enumeration, pattern, range, number (error)
    unique_id,         ///< an Id given twice in one file (error)
    unique_value,      ///< a value given twice in one list (Keywords, Stacks, ...) (error)
    base_builtin,      ///< Base names one of WPR's built-in objects, not passed as a file (warning)
    base_unknown,      ///< Base names nothing known (error)
    base_cycle,        ///< Base chain loops (error)
    base_kind,         ///< Base or a reference names an object of another kind (error)
    reference_builtin, ///< ...Id Value= names a built-in WPR object not passed as a file (warning)
    reference_unknown, ///< ...Id Value= names nothing known (error)
    no_value,          ///< a keyword or stack name no public source gives a value for (error)
    doc_rule,          ///< a rule WPR's docs state that Microsoft's own files break (warning)
    not_carried,       ///< an element or attribute the plan cannot carry (warning)
    reading,           ///< etwctl's reading of something the sources leave open (warning)
    profile_choice,    ///< the requested profile is not in the file (error)
    limit,             ///< beyond a limit of the kernel or of EnableTraceEx2 (error)
    clamped,           ///< beyond a bound the kernel clamps to: applied clamped, the values named (warning)
};
[[nodiscard]] constexpr std::string_view to_string(check c) noexcept {
    switch (c) {
    case check::xml: return "xml";
    case check::element: return "element";
    case check::attribute: return "attribute";
    case check::value: return "value";
    case check::unique_id: return "unique_id";
    case check::unique_value: return "unique_value";
    case check::base_builtin: return "base_builtin";
    case check::base_unknown: return "base_unknown";
    case check::base_cycle: return "base_cycle";
    case check::base_kind: return "base_kind";
    case check::reference_builtin: return "reference_builtin";
    case check::reference_unknown: return "reference_unknown";
    case check::no_value: return "no_value";
    case check::doc_rule: return "doc_rule";
    case check::not_carried: return "not_carried";
    case check::reading: return "reading";
    case check::profile_choice: return "profile_choice";
    case check::limit: return "limit";
    case check::clamped: return "clamped";
    }
    return "?";
}

/// One finding, located in the file: line and column are 1-based (0 = the file as a whole); element is
/// the element's name ("Keyword"), text says what and why, naming the value and the rule.
struct finding {
    severity level = severity::error;
    check what = check::xml;
    std::string file;
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string element;
    std::string text;
};

/// "CPU.wprp:12:9: error: <Keyword>: 'CSwich' is not a SystemProvider keyword of WPR's schema; did you
/// mean 'CSwitch'? [value]"
[[nodiscard]] inline std::string format(finding const& f) {
    std::string s = f.file.empty() ? std::string("<input>") : f.file;
    if (f.line != 0) {
        s += ':' + std::to_string(f.line);
        if (f.column != 0) s += ':' + std::to_string(f.column);
    }
    s += f.level == severity::error ? ": error: " : ": warning: ";
    if (!f.element.empty()) s += '<' + f.element + ">: ";
    s += f.text;
    s += " [";
    s += to_string(f.what);
    s += ']';
    return s;
}

[[nodiscard]] inline bool has_errors(std::vector<finding> const& findings) noexcept {
    for (auto const& f : findings)
        if (f.level == severity::error) return true;
    return false;
}

// ---- the plan ----------------------------------------------------------------------------------------

enum class logging_mode : std::uint8_t { memory, file };
enum class detail_level : std::uint8_t { light, verbose };
[[nodiscard]] constexpr std::string_view to_string(logging_mode m) noexcept { return m == logging_mode::file ? "File" : "Memory"; }
[[nodiscard]] constexpr std::string_view to_string(detail_level d) noexcept { return d == detail_level::light ? "Light" : "Verbose"; }

/// WPR's buffer defaults when a collector gives none: 64 buffers of 128 KB (learn.microsoft.com,
/// windows-hardware/test/wpt/logging-mode).
inline constexpr std::uint32_t default_buffer_size_kb = 128;
inline constexpr std::uint32_t default_buffers = 64;

/// Buffers given as a share of the machine's memory (Buffers PercentageOfTotalMemory="true"): the count
/// is known only on the machine. buffers_for_memory() computes it.
struct memory_share {
    double percent = 0;                                  ///< Buffers Value
    std::optional<std::uint32_t> maximum_buffer_space_mb; ///< Buffers MaximumBufferSpace (MB, per WPR's docs)
};

/// A kernel event named in the profile: the name as written and its hook id.
struct named_hook {
    std::string name; ///< WPR's Stack name, or the CustomStack value as written
    hook_id hook;
};

/// One EnableTraceEx2 capture-state pass (CaptureStateOnStart / OnSave / OnDemand of an EventProvider).
enum class capture_moment : std::uint8_t { start, save, demand };
struct capture_state_plan {
    capture_moment when = capture_moment::start;
    std::uint64_t match_any = 0;            ///< the OR of its Keyword values
    std::optional<std::uint32_t> timeout_s; ///< Timeout in seconds (0..4294967); nullopt: not given
    bool infinite = false;                  ///< Timeout="infinite"
};

/// EventFilters / StackFilters: event ids in or out (EVENT_FILTER_TYPE_EVENT_ID / _STACKWALK).
struct event_id_filter_plan {
    bool filter_in = true;
    std::vector<std::uint16_t> ids;
};
/// EventNameFilters / StackEventNameFilters (EVENT_FILTER_TYPE_EVENT_NAME / _STACKWALK_NAME).
struct event_name_filter_plan {
    bool filter_in = true;
    std::optional<std::uint8_t> level;
    std::uint64_t match_any = 0; ///< the OR of its Keyword values
    std::vector<std::string> names;
};
/// StackKeywordLevelFilter (EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW).
struct level_keyword_filter_plan {
    bool filter_in = true;
    std::optional<std::uint8_t> level;
    std::uint64_t match_any = 0;
};

/// One provider of a session: EnableTraceEx2's parameters. A provider the profile lists more than once
/// in a session (several EventProvider Ids with the same Name) is one entry: keywords and enable
/// properties ORed, the highest level (a reading warning says so when the entries differ).
struct provider_plan {
    std::string id;                  ///< the EventProvider Id (the first one, when entries were merged)
    std::string name;                ///< Name as written: a GUID or a provider name
    std::optional<guid> provider;    ///< Name read as a GUID; nullopt: a name the apply step resolves
    std::uint8_t level = 5;          ///< Level; 5 (verbose) when not given (level_given false)
    bool level_given = false;
    std::uint64_t match_any = 0;     ///< the OR of its Keyword values (0 = all events, per WPR's docs)
    std::uint64_t match_all = 0;     ///< .wprp has no MatchAll: always 0
    std::uint32_t enable_property = 0; ///< EVENT_ENABLE_PROPERTY_* bits (session/layouts.hpp enable_property)
    std::vector<std::string> exe_names; ///< ProcessExeFilter, split at ';' (EVENT_FILTER_TYPE_EXECUTABLE_NAME)
    std::optional<event_id_filter_plan> event_ids;          ///< EventFilters
    std::optional<event_id_filter_plan> stack_event_ids;    ///< StackFilters
    std::optional<event_name_filter_plan> event_names;      ///< EventNameFilters
    std::optional<event_name_filter_plan> stack_event_names; ///< StackEventNameFilters
    std::optional<level_keyword_filter_plan> stack_level_keyword; ///< StackKeywordLevelFilter
    std::vector<capture_state_plan> capture_state;
    bool capture_state_only = false; ///< CaptureStateOnly: enabled only for the capture-state passes
    bool strict = false;             ///< Strict: the start fails if this provider cannot be enabled
};

/// One session: what StartTrace gets, and its providers.
struct session_plan {
    std::string name;           ///< session name (profile_request::session_prefix + collector name)
    std::string collector_id;   ///< the .wprp collector's Id
    std::string collector_name; ///< its Name as written ("" when the file does not give it)
    bool system_logger = false; ///< the system collector: EVENT_TRACE_SYSTEM_LOGGER_MODE
    std::uint32_t log_file_mode = 0; ///< EVENT_TRACE_* mode bits (session/layouts.hpp log_file_mode)
    std::uint32_t buffer_size_kb = default_buffer_size_kb; ///< BufferSize
    std::uint32_t minimum_buffers = default_buffers;       ///< Buffers (WPR takes one count: Min = Max)
    std::uint32_t maximum_buffers = default_buffers;
    std::optional<memory_share> buffers_from_memory; ///< set: the counts above are WPR's defaults until computed
    std::uint32_t maximum_file_size_mb = 0;          ///< MaximumFileSize (File mode only)
    std::uint32_t flush_timer_s = 0;                 ///< FlushTimer
    std::optional<std::uint32_t> flush_threshold;    ///< FlushThreshold (the properties' AgeLimit field)
    std::vector<std::string> defaulted; ///< fields set to WPR's defaults because the profile gives none
    std::vector<provider_plan> providers;
};

/// StackCaching as written: WPR does not publish the unit of CacheSize (a reading warning says so);
/// etwctl reads it as KB (Microsoft's files write 3072, the kernel's minimum of 3 MiB, in KB).
struct stack_caching_plan {
    std::uint32_t bucket_count = 0;
    std::uint32_t cache_size = 0;
};

/// What set<stack_caching> is sent for a StackCaching: CacheSize (KB) in bytes and BucketCount, each
/// moved into the kernel's bounds as the kernel itself moves them (it clamps TRACE_STACK_CACHING_INFO's
/// CacheSize to 3..50 MiB and BucketCount to 256..4096: public decompiled listings of ntoskrnl's
/// EtwpEnableStackCaching). WPR applies a profile whose values are outside and the kernel clamps them
/// silently (Microsoft's MSO-Scripts profiles write CacheSize 1024 and 2048); etwctl sends the clamped
/// values itself and says so: `*_clamped` here, a check::clamped warning in the plan, and
/// apply_result::clamped. 0 (the kernel's default, its minimum) is sent as 0 and is not a clamp.
struct stack_cache_settings {
    std::uint64_t written_bytes = 0; ///< CacheSize as written, read as KB, in bytes
    std::uint32_t written_buckets = 0;
    stack_cache_size size;           ///< sent
    stack_cache_buckets buckets;     ///< sent
    bool size_clamped = false;
    bool buckets_clamped = false;
    [[nodiscard]] constexpr bool clamped() const noexcept { return size_clamped || buckets_clamped; }
};
[[nodiscard]] constexpr stack_cache_settings stack_cache_settings_of(stack_caching_plan const& c) noexcept {
    stack_cache_settings s;
    s.written_bytes = std::uint64_t{c.cache_size} * 1024U;
    s.written_buckets = c.bucket_count;
    std::uint64_t bytes = s.written_bytes;
    if (bytes != 0 && bytes < stack_cache_size_bounds.min) bytes = stack_cache_size_bounds.min;
    if (bytes > stack_cache_size_bounds.max) bytes = stack_cache_size_bounds.max;
    s.size = stack_cache_size{bytes};
    s.size_clamped = bytes != s.written_bytes;
    s.buckets = stack_cache_buckets{c.bucket_count == 0 ? 0U : stack_cache_bucket_bounds.clamp(c.bucket_count)};
    s.buckets_clamped = s.buckets.count != c.bucket_count;
    return s;
}
/// What the clamp of a StackCaching changed, naming the profile's values and the values sent ("" when
/// nothing was clamped): "StackCaching CacheSize=1024 (KB) is below the kernel's minimum of 3072 KB
/// (3 MiB): the kernel clamps it; applied as 3072 KB (3145728 bytes)".
[[nodiscard]] inline std::string stack_cache_clamp_text(stack_caching_plan const& c) {
    stack_cache_settings const s = stack_cache_settings_of(c);
    std::string t;
    if (s.size_clamped) {
        bool const low = s.written_bytes < stack_cache_size_bounds.min;
        std::uint64_t const kb = s.size.bytes / 1024U;
        t = "StackCaching CacheSize=" + std::to_string(c.cache_size) + " (KB) is " + (low ? "below the kernel's minimum of " : "above the kernel's maximum of ") +
            std::to_string(kb) + " KB (" + std::to_string(kb / 1024U) + " MiB): the kernel clamps it; applied as " + std::to_string(kb) +
            " KB (" + std::to_string(s.size.bytes) + " bytes)";
    }
    if (s.buckets_clamped) {
        bool const low = c.bucket_count < stack_cache_bucket_bounds.min;
        if (!t.empty()) t += "; ";
        t += "StackCaching BucketCount=" + std::to_string(c.bucket_count) + " is " + (low ? "below the kernel's minimum of " : "above the kernel's maximum of ") +
             std::to_string(s.buckets.count) + ": the kernel clamps it; applied as " + std::to_string(s.buckets.count);
    }
    return t;
}
struct sampled_counter_plan {
    std::string source;                    ///< a profile-source name (find_profile_source on the machine)
    std::optional<std::uint32_t> interval; ///< Interval (1221..2147483647)
};
struct last_branch_plan {
    std::vector<named_hook> events; ///< set<lbr_event_list>
};
/// HardwareCounter: the counters on events (set<pmc_counter_list> / set<pmc_event_list>), sampled
/// counters (set<profile_source_config> + set<sampled_profile_interval>) and LBR events.
struct hardware_counter_plan {
    std::string id;
    std::vector<std::string> counters;     ///< profile-source names, resolved on the machine
    std::vector<named_hook> events;        ///< the events that carry them
    std::vector<sampled_counter_plan> sampled;
    std::optional<last_branch_plan> last_branch;
    bool strict = false;
};

/// The system logger: one session for every SystemCollector of the profile (WPR makes one).
struct system_plan {
    session_plan session;
    group_mask flags;                  ///< keywords and custom keywords, set into their Masks[] index
    std::vector<std::string> keywords; ///< as written, in order (CustomKeyword values as written)
    std::vector<named_hook> stacks;    ///< the stack list, in order, each hook once
    std::optional<stack_caching_plan> stack_caching;
    std::optional<hardware_counter_plan> hardware_counters;
};

struct plan {
    std::string file;        ///< the .wprp the profile came from
    std::string profile_id;  ///< the chosen Profile's Id
    std::string profile_name;
    std::string description;
    detail_level level = detail_level::verbose;
    logging_mode mode = logging_mode::memory;
    std::vector<std::string> problem_categories;
    std::optional<system_plan> system;       ///< absent when the profile has no SystemCollectorId
    std::vector<session_plan> event_sessions; ///< one per event collector Name
    std::vector<finding> warnings;           ///< every warning of reading, checking and lowering
};

/// The buffer count of a memory share on a machine with total_memory_bytes of memory: the percentage
/// of memory in buffers of buffer_size_kb, capped at MaximumBufferSpace. This formula is etwctl's reading
/// of WPR's docs (Buffers: "the percentage of total memory that should be allocated"); WPR does not
/// publish its own. At least 1.
[[nodiscard]] inline std::uint32_t buffers_for_memory(memory_share const& share, std::uint32_t buffer_size_kb,
                                                      std::uint64_t total_memory_bytes) noexcept {
    if (buffer_size_kb == 0) return 1;
    double bytes = static_cast<double>(total_memory_bytes) * share.percent / 100.0;
    if (share.maximum_buffer_space_mb) {
        double const cap = static_cast<double>(*share.maximum_buffer_space_mb) * 1024.0 * 1024.0;
        if (bytes > cap) bytes = cap;
    }
    double const count = bytes / (static_cast<double>(buffer_size_kb) * 1024.0);
    if (count < 1.0) return 1;
    if (count > 4294967295.0) return 0xFFFFFFFFU;
    return static_cast<std::uint32_t>(count);
}

} // namespace wpr
ETWCTL_END_NAMESPACE
