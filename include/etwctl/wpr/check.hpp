// SPDX-License-Identifier: MIT
// etwctl/wpr/check.hpp - compares a plan (etwctl/wpr/plan.hpp) with what running sessions report: the
// properties ControlTrace QUERY returns (buffers, modes, file size, flush timer) and, for the system
// logger, the group mask query<system_trace_enable_flags> returns - compared by meaning, so an alias bit
// read back in either form (EVENT_TRACE_FLAG_CSWITCH in Masks[0] or PERF_CONTEXT_SWITCH in Masks[1]; the
// kernel's choice is not published) matches. What the kernel does not report back (the stack list, the
// PMC lists, ...) is a cannot_read_back entry that says so, never a silent pass.
//
//   std::vector<wpr::queried_session> running = ...;  // filled from the session API's query
//   for (auto const& d : wpr::compare(plan, running)) std::puts(wpr::format(d).c_str());
//
// The caller queries; this header makes no call. Opt-in and allocating, as all of etwctl/wpr/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/wpr/plan.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {

/// What a running session reports: EVENT_TRACE_PROPERTIES as ControlTrace QUERY fills it, and for a
/// system logger its group mask.
struct queried_session {
    std::string name;
    std::uint32_t buffer_size_kb = 0;
    std::uint32_t minimum_buffers = 0;
    std::uint32_t maximum_buffers = 0;
    std::uint32_t log_file_mode = 0;
    std::uint32_t maximum_file_size_mb = 0;
    std::uint32_t flush_timer_s = 0;
    std::optional<group_mask> flags; ///< query<system_trace_enable_flags>; nullopt: not queried
};

enum class difference_kind : std::uint8_t {
    differs,          ///< the session reports another value
    missing,          ///< no session of the plan's name is running
    cannot_read_back, ///< the kernel does not report this back: it cannot be verified
    not_compared,     ///< the value is known only on the machine (or was not queried): not compared
};
[[nodiscard]] constexpr std::string_view to_string(difference_kind k) noexcept {
    switch (k) {
    case difference_kind::differs: return "differs";
    case difference_kind::missing: return "missing";
    case difference_kind::cannot_read_back: return "cannot be read back";
    case difference_kind::not_compared: return "not compared";
    }
    return "?";
}

struct difference {
    difference_kind kind = difference_kind::differs;
    std::string session; ///< the plan's session name
    std::string what;    ///< the field ("buffer_size_kb", "group mask Masks[1]", "stack list", ...)
    std::string expected;
    std::string actual;
    std::string note;
};

/// "WPR_initiated_WprApp_WPR System Collector: buffer_size_kb differs: the plan has 1024, the session 64"
[[nodiscard]] inline std::string format(difference const& d) {
    std::string s = d.session + ": " + d.what + ' ' + std::string(to_string(d.kind));
    if (d.kind == difference_kind::differs) s += ": the plan has " + d.expected + ", the session " + d.actual;
    if (!d.note.empty()) s += " (" + d.note + ")";
    return s;
}

struct check_options {
    /// The machine's memory, to compute the buffers of a memory share; nullopt: those are not compared.
    std::optional<std::uint64_t> total_memory_bytes;
};

/// The LogFileMode bits a plan sets, and so compares.
inline constexpr std::uint32_t planned_mode_bits = log_file_mode::sequential | log_file_mode::circular | log_file_mode::buffering |
                                                  log_file_mode::real_time | log_file_mode::system_logger |
                                                  log_file_mode::private_logger | log_file_mode::private_in_proc | log_file_mode::secure;

namespace detail {

[[nodiscard]] inline std::string hex32(std::uint32_t v) {
    char buf[11] = {'0', 'x'};
    constexpr char digits[] = "0123456789ABCDEF";
    for (int i = 0; i < 8; ++i) buf[2 + i] = digits[(v >> (28 - 4 * i)) & 0xFU];
    buf[10] = '\0';
    return buf;
}

/// True when etwctl's class table has a query for the class (on any release).
[[nodiscard]] constexpr bool readable(trace_info_class c) noexcept {
    auto const* t = find_traits(static_cast<std::uint32_t>(c));
    return t && static_cast<bool>(t->query);
}

struct comparer {
    std::vector<difference>& out;
    std::string session;

    void differs(std::string what, std::string expected, std::string actual, std::string note = {}) {
        out.push_back({difference_kind::differs, session, std::move(what), std::move(expected), std::move(actual), std::move(note)});
    }
    void other(difference_kind k, std::string what, std::string note) {
        out.push_back({k, session, std::move(what), {}, {}, std::move(note)});
    }
    void number(std::string what, std::uint32_t expected, std::uint32_t actual, std::string note = {}) {
        if (expected != actual) differs(std::move(what), std::to_string(expected), std::to_string(actual), std::move(note));
    }
    void cannot_read_back(trace_info_class c, std::string what, std::string_view class_name) {
        if (readable(c)) return;
        other(difference_kind::cannot_read_back, std::move(what),
              "TraceQueryInformation has no query for " + std::string(class_name) + ": the kernel does not report it back");
    }

    void properties(session_plan const& p, queried_session const& q, check_options const& o) {
        number("buffer_size_kb", p.buffer_size_kb, q.buffer_size_kb);
        std::uint32_t buffers_min = p.minimum_buffers;
        std::uint32_t buffers_max = p.maximum_buffers;
        bool compare_buffers = true;
        if (p.buffers_from_memory) {
            if (o.total_memory_bytes) {
                buffers_min = buffers_max = buffers_for_memory(*p.buffers_from_memory, p.buffer_size_kb, *o.total_memory_bytes);
            } else {
                compare_buffers = false;
                other(difference_kind::not_compared, "buffers",
                      "the plan gives the buffers as a share of memory; pass check_options::total_memory_bytes to compare them");
            }
        }
        if (compare_buffers) {
            number("minimum_buffers", buffers_min, q.minimum_buffers, "the kernel may raise the minimum to the processor count");
            number("maximum_buffers", buffers_max, q.maximum_buffers);
        }
        std::uint32_t const expected_mode = p.log_file_mode & planned_mode_bits;
        std::uint32_t const actual_mode = q.log_file_mode & planned_mode_bits;
        if (expected_mode != actual_mode)
            differs("log_file_mode", hex32(expected_mode), hex32(actual_mode),
                    "the bits a plan sets: file modes, buffering, real time, system logger, private, secure");
        if (p.log_file_mode & (log_file_mode::sequential | log_file_mode::circular))
            number("maximum_file_size_mb", p.maximum_file_size_mb, q.maximum_file_size_mb);
        number("flush_timer_s", p.flush_timer_s, q.flush_timer_s);
        if (p.flush_threshold) other(difference_kind::not_compared, "flush_threshold", "queried_session does not carry it");
        if (!p.providers.empty())
            other(difference_kind::cannot_read_back, "providers (" + std::to_string(p.providers.size()) + ")",
                  "the session's properties do not list its providers or their EnableTraceEx2 parameters");
    }

    void system(system_plan const& p, queried_session const& q) {
        if (!q.flags) {
            other(difference_kind::not_compared, "group mask", "not queried: query<system_trace_enable_flags> on the session");
        } else {
            // By meaning: a Masks[0] alias bit and its PERF_* bit are the same group (group_mask::canonical).
            group_mask const expected = p.flags.canonical();
            group_mask const actual = q.flags->canonical();
            for (std::size_t i = 0; i < limits::max_group_masks; ++i)
                if (expected.masks[i] != actual.masks[i])
                    differs("group mask Masks[" + std::to_string(i) + "]", hex32(expected.masks[i]), hex32(actual.masks[i]),
                            "compared with each alias bit in its PERF_* form, as either form may be read back");
        }
        if (!p.stacks.empty()) cannot_read_back(trace_info_class::stack_tracing, "stack list (" + std::to_string(p.stacks.size()) + " events)", "TraceStackTracingInfo");
        if (p.stack_caching) cannot_read_back(trace_info_class::stack_caching, "stack caching", "TraceStackCachingInfo");
        if (p.hardware_counters) {
            auto const& h = *p.hardware_counters;
            if (!h.counters.empty()) cannot_read_back(trace_info_class::pmc_counter_list, "PMC counter list", "TracePmcCounterListInfo");
            if (!h.events.empty()) cannot_read_back(trace_info_class::pmc_event_list, "PMC event list", "TracePmcEventListInfo");
            if (h.last_branch && !h.last_branch->events.empty())
                cannot_read_back(trace_info_class::lbr_event_list, "LBR event list", "TraceLbrEventListInfo");
            if (!h.sampled.empty())
                other(difference_kind::not_compared, "sampled counters",
                      "the profile sources and their intervals are machine-global: query<sampled_profile_interval> per source");
        }
    }
};

} // namespace detail

/// The differences between a plan and the sessions running (matched by name, case-insensitively, as
/// ETW compares session names). Empty when every value that can be read back matches and nothing is
/// unverifiable.
[[nodiscard]] inline std::vector<difference> compare(plan const& p, std::span<queried_session const> running,
                                                     check_options const& options = {}) {
    std::vector<difference> out;
    auto find = [&](std::string const& name) -> queried_session const* {
        for (auto const& q : running)
            if (etwctl::detail::iequals(q.name, name)) return &q;
        return nullptr;
    };
    auto one = [&](session_plan const& s, system_plan const* sys) {
        detail::comparer c{out, s.name};
        queried_session const* q = find(s.name);
        if (!q) {
            c.other(difference_kind::missing, "session", "no running session has this name");
            return;
        }
        c.properties(s, *q, options);
        if (sys) c.system(*sys, *q);
    };
    if (p.system) one(p.system->session, &*p.system);
    for (auto const& s : p.event_sessions) one(s, nullptr);
    return out;
}

} // namespace wpr
ETWCTL_END_NAMESPACE
