// SPDX-License-Identifier: MIT
// etwctl/profiler/pmc.hpp - hardware counters (PMC) on kernel events, in one checked call.
//
//   etwctl::pmc_counter const counters[] = {etwctl::pmc_counter::named("TotalCycles"),
//                                           etwctl::pmc_counter::named("InstructionRetired")};
//   etwctl::hook_id const events[] = {etwctl::hook_id{0x0524}};          // CSwitch
//   etwctl::pmc_report r = etwctl::setup_pmc(k, session, counters, events);
//   if (!r) log(etwctl::to_string(r.step), etwctl::to_string(r.condition), r.error.message());
//
// Setting PMCs up by hand takes three classes and several unwritten rules: the counters must be profile
// sources this machine has (other than the timer), at most 4 of them and at most 4 events, the session
// must be a system logger (EVENT_TRACE_SYSTEM_LOGGER_MODE), the privilege must be held, the counter and
// event lists can each be set once per session, and an event whose group is not enabled in the
// session's group mask never fires, so its counters silently never appear. setup_pmc checks what the
// library can know before anything is sent, then applies, and tells which condition failed.
//
// Steps, in this order (pmc_step names them in the report):
//  1. check_counts          1..4 counters, 0..4 events (rule::pmc_counters_empty / _size, pmc_events_size)
//  2. query_profile_sources query<profile_source_list> (machine-global)
//  3. resolve_counters      each counter by id or by the list's name: present (rule::profile_source_absent),
//                           not the timer (rule::pmc_counter_not_pmc)
//  4. check_intervals       each requested interval within the source's [min, max] (rule::interval_out_of_bounds)
//  5. query_group_mask      query<system_trace_enable_flags>: also proves the session exists and is a
//                           system logger (the kernel refuses the query otherwise); always runs
//  6. check_event_groups    each event's enabling PERF_* flag on (rule::pmc_event_group_not_enabled),
//                           from names/events.hpp's table (enabling_flag); events without a known
//                           flag are not refused (the library cannot know)
//  7. set_intervals         the requested intervals (machine-global; captured first)
//  8. set_counter_list      TracePmcCounterListInfo
//  9. set_event_list        TracePmcEventListInfo (skipped when no events are given)
// Why counters before events: the counter list is the step the kernel refuses most (privilege, paged
// session, more counters than the hardware has, a source it will not count); both lists can be set only
// once per session, so the likelier failure goes first and does not strand a spent event list. Why
// intervals first: they are read when the counters are programmed. A failure after step 7 puts the
// captured intervals back (rollback_error tells if that failed too); a spent counter list cannot be
// taken back (the kernel offers no way), which the report says (counters_applied).
// No heap: the profile-source list is read into a 4 KiB buffer on the stack unless storage is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/error.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/classes/info_classes.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"
#include "etwctl/typed/tags.hpp"

ETWCTL_BEGIN_NAMESPACE

/// One counter: a profile source by id, or by the name the machine's profile-source list gives it
/// (ids above ProfileMaximum are HAL-specific, so "InstructionRetired" is only meaningful per machine).
/// interval 0 leaves the source's interval as it is.
struct pmc_counter {
    std::uint32_t id = 0;
    std::string_view name{};
    profile_interval interval{};

    [[nodiscard]] static constexpr pmc_counter of(profile_source s, profile_interval i = {}) noexcept {
        return {static_cast<std::uint32_t>(s), {}, i};
    }
    [[nodiscard]] static constexpr pmc_counter of_id(std::uint32_t source_id, profile_interval i = {}) noexcept {
        return {source_id, {}, i};
    }
    [[nodiscard]] static constexpr pmc_counter named(std::string_view source_name, profile_interval i = {}) noexcept {
        return {0, source_name, i};
    }
    [[nodiscard]] constexpr bool by_name() const noexcept { return !name.empty(); }
};

enum class pmc_step : std::uint8_t {
    none,
    check_counts,
    query_profile_sources,
    resolve_counters,
    check_intervals,
    query_group_mask,
    check_event_groups,
    set_intervals,
    set_counter_list,
    set_event_list,
};

/// Which condition failed, in the words a user needs (the error_code keeps the domain-exact code).
enum class pmc_condition : std::uint8_t {
    ok,
    no_counters,
    too_many_counters,     ///< > 4 given, or more than this machine's kernel accepts
    too_many_events,
    source_absent,         ///< not in the machine's profile-source list (or the kernel will not count it)
    counter_is_timer,
    interval_out_of_bounds,
    event_not_kernel,      ///< a classic event whose GUID is no kernel group
    session_not_found,
    not_system_logger,     ///< the session lacks EVENT_TRACE_SYSTEM_LOGGER_MODE
    group_not_enabled,
    privilege_missing,     ///< SeSystemProfilePrivilege
    already_configured,    ///< the list was already set for this session (once per session)
    session_refused,       ///< the kernel refused the counter list for the session (e.g. paged memory)
    counters_in_use,       ///< the machine's counters are held by another owner (see pmc_report::owner)
    kernel_error,          ///< anything else the kernel said; see error
};

[[nodiscard]] constexpr std::string_view to_string(pmc_step s) noexcept {
    switch (s) {
    case pmc_step::none: return "none";
    case pmc_step::check_counts: return "check_counts";
    case pmc_step::query_profile_sources: return "query_profile_sources";
    case pmc_step::resolve_counters: return "resolve_counters";
    case pmc_step::check_intervals: return "check_intervals";
    case pmc_step::query_group_mask: return "query_group_mask";
    case pmc_step::check_event_groups: return "check_event_groups";
    case pmc_step::set_intervals: return "set_intervals";
    case pmc_step::set_counter_list: return "set_counter_list";
    case pmc_step::set_event_list: return "set_event_list";
    }
    return "?";
}

[[nodiscard]] constexpr std::string_view to_string(pmc_condition c) noexcept {
    switch (c) {
    case pmc_condition::ok: return "ok";
    case pmc_condition::no_counters: return "no counters given (1 to 4 are needed)";
    case pmc_condition::too_many_counters: return "too many counters";
    case pmc_condition::too_many_events: return "too many events (at most 4)";
    case pmc_condition::source_absent: return "profile source absent on this machine";
    case pmc_condition::counter_is_timer: return "the timer is not a hardware counter";
    case pmc_condition::interval_out_of_bounds: return "interval outside the source's [min, max]";
    case pmc_condition::event_not_kernel: return "event GUID is not a kernel group";
    case pmc_condition::session_not_found: return "session not found";
    case pmc_condition::not_system_logger: return "session is not in system-logger mode";
    case pmc_condition::group_not_enabled: return "event's group not enabled in the session's group mask";
    case pmc_condition::privilege_missing: return "SeSystemProfilePrivilege not held";
    case pmc_condition::already_configured: return "already configured for this session (once per session)";
    case pmc_condition::session_refused: return "the kernel refused the counter list for this session";
    case pmc_condition::counters_in_use: return "the hardware counters are held by another owner";
    case pmc_condition::kernel_error: return "kernel error";
    }
    return "?";
}

/// The enumerator's name (for machine-readable output).
[[nodiscard]] constexpr std::string_view condition_name(pmc_condition c) noexcept {
    switch (c) {
    case pmc_condition::ok: return "ok";
    case pmc_condition::no_counters: return "no_counters";
    case pmc_condition::too_many_counters: return "too_many_counters";
    case pmc_condition::too_many_events: return "too_many_events";
    case pmc_condition::source_absent: return "source_absent";
    case pmc_condition::counter_is_timer: return "counter_is_timer";
    case pmc_condition::interval_out_of_bounds: return "interval_out_of_bounds";
    case pmc_condition::event_not_kernel: return "event_not_kernel";
    case pmc_condition::session_not_found: return "session_not_found";
    case pmc_condition::not_system_logger: return "not_system_logger";
    case pmc_condition::group_not_enabled: return "group_not_enabled";
    case pmc_condition::privilege_missing: return "privilege_missing";
    case pmc_condition::already_configured: return "already_configured";
    case pmc_condition::session_refused: return "session_refused";
    case pmc_condition::counters_in_use: return "counters_in_use";
    case pmc_condition::kernel_error: return "kernel_error";
    }
    return "?";
}

/// What setup_pmc did. ok() / operator bool: everything applied. [[nodiscard]]: a report nobody reads
/// is a failure nobody sees, so discarding setup_pmc's result is a warning.
/// (A template with one use, pmc_report: its error members start as no_error(), and a template
/// instantiates that only where a report is made, so a TU that includes this header and never calls
/// setup_pmc carries no error-category code.)
template <class D = void>
struct [[nodiscard]] basic_pmc_report {
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    pmc_step step = pmc_step::none;       ///< the step that failed (none on success)
    pmc_condition condition = pmc_condition::ok;
    std::error_code error = no_error<D>();   ///< rule_category for a pre-check, ntstatus_category from the kernel
    std::size_t index = npos;             ///< the counter or event the failure is about, if one
    std::uint32_t source_id = 0;          ///< that counter's source id (resolve/interval failures)
    hook_id event{};                      ///< that event (group failures)
    perf_flag missing_flag{};             ///< the PERF_* flag the event needs (group failures)
    std::uint32_t min_interval = 0, max_interval = 0; ///< bounds of that source (interval failures)
    std::uint32_t counters[limits::max_pmc_counters] = {}; ///< the resolved source ids
    std::size_t counter_count = 0;
    bool intervals_applied = false;       ///< intervals were changed (and, after a failure, put back)
    bool counters_applied = false;        ///< the session's one counter list is spent
    bool events_applied = false;
    std::error_code rollback_error = no_error<D>(); ///< putting the intervals back failed
    /// After a refused counter list: the machine's maximum (TraceMaxPmcCounterQuery; 0 when this Windows
    /// cannot say) and, for counters_in_use, the first owner holding a counter (TracePmcCounterOwners).
    std::uint32_t max_counters = 0;
    pmc_counter_owner owner{};

    [[nodiscard]] bool ok() const noexcept { return step == pmc_step::none; }
    [[nodiscard]] explicit operator bool() const noexcept { return ok(); }
    /// The one error model: a report converts to the std::error_code of its failure (no_error() when
    /// everything applied), so `std::error_code ec = setup_pmc(...);` works like every other call.
    operator std::error_code() const noexcept { return error; } // NOLINT: lossless by design
};
using pmc_report = basic_pmc_report<>;

struct pmc_options {
    /// Refuse events whose group is off in the session's group mask. Turn off only if the flags are
    /// enabled after this call (the check reads the mask as it is now).
    bool check_event_groups = true;
    /// Where to read the profile-source list (and, after a refused counter list, the counters' owners);
    /// empty: a 4 KiB buffer on the stack.
    std::span<std::byte> source_list_storage{};
};

namespace detail {

/// The condition a kernel status stands for at a step.
inline pmc_condition pmc_condition_of(pmc_step step, std::int32_t status) noexcept {
    switch (status) {
    case ntstatus::privilege_not_held: return pmc_condition::privilege_missing;
    case ntstatus::wmi_instance_not_found: return pmc_condition::session_not_found;
    case ntstatus::wmi_already_enabled: return pmc_condition::already_configured;
    case ntstatus::not_supported: return step == pmc_step::set_counter_list ? pmc_condition::source_absent : pmc_condition::kernel_error;
    case ntstatus::invalid_parameter:
        // At the group-mask query the only session-dependent refusal is the system-logger-mode rule;
        // at the counter list the mode was already proven by that query (unless it was skipped).
        if (step == pmc_step::query_group_mask) return pmc_condition::not_system_logger;
        if (step == pmc_step::set_counter_list) return pmc_condition::session_refused;
        return pmc_condition::kernel_error;
    default: return pmc_condition::kernel_error;
    }
}

inline void pmc_fail(pmc_report& r, pmc_step step, pmc_condition c, std::error_code ec,
                     std::size_t index = pmc_report::npos) noexcept {
    r.step = step;
    r.condition = c;
    r.error = ec;
    r.index = index;
}
/// A pre-check's broken rule, handed out through detail::failed: the report's error keeps the context
/// this call recorded for it (fail / note_failure) and never an earlier failure's (a bare rule converted
/// to std::error_code would leave the thread's slot as it was, and describe(report.error) would show the
/// values of whatever failed before with the same rule, e.g. a timer's interval).
template <class T = void>
void pmc_fail(pmc_report& r, pmc_step step, pmc_condition c, rule broken, std::size_t index = pmc_report::npos) noexcept {
    pmc_fail(r, step, c, failed(make_error_code<T>(broken)), index);
}

/// The contexts of setup_pmc's pre-checks (cold: failures only). The name recorded is always a static
/// string: the slot outlives the call, the caller's counter names and the profile-source list may not.
template <class T = void>
ETWCTL_COLD std::error_code pmc_events_too_many(std::size_t n) noexcept {
    return fail(make_error_code<T>(rule::pmc_events_size),
                "setup_pmc: {value} events, TracePmcEventListInfo takes at most {high}", "setup_pmc", n, 0,
                limits::max_pmc_events);
}
template <class T = void>
ETWCTL_COLD std::error_code pmc_counter_is_timer(std::size_t index) noexcept {
    return fail(make_error_code<T>(rule::pmc_counter_not_pmc),
                "setup_pmc: counter {value} of the list is the timer (ProfileTime), which is no hardware counter; "
                "set its interval with set<sampled_profile_interval>",
                "setup_pmc", index);
}
template <class T = void>
ETWCTL_COLD std::error_code pmc_counter_absent(std::size_t index, std::uint32_t source_id) noexcept {
    return fail(make_error_code<T>(rule::profile_source_absent),
                "setup_pmc: counter {value} of the list (source {high}) is not in this machine's profile-source list "
                "(query<profile_source_list> lists what it has)",
                "setup_pmc", index, 0, source_id);
}
template <class T = void>
ETWCTL_COLD std::error_code pmc_event_group_off(event_not_enabled const& off) noexcept {
    std::string_view const flag = perf_flag_name<T>(off.flag);
    return fail(make_error_code<T>(rule::pmc_event_group_not_enabled),
                "setup_pmc: event {hex} never carries counters: the session's group mask does not enable {name}, the "
                "flag it needs (set it with set<system_trace_enable_flags>, or pmc_options::check_event_groups = "
                "false if it is enabled later)",
                flag.empty() ? std::string_view("its group's flag") : flag, off.event.value);
}
template <class T = void>
ETWCTL_COLD std::error_code pmc_event_not_kernel(std::size_t index) noexcept {
    return fail(make_error_code<T>(rule::pmc_event_group_not_enabled),
                "setup_pmc: event {value} of the list has an EventGuid that is no kernel group's; SECHOST would skip it "
                "and its counters would never appear",
                "setup_pmc", index);
}
template <class T = void> // a template: a TU that never fails a PMC setup carries no category code
void pmc_fail_kernel(pmc_report& r, pmc_step step, std::error_code ec) noexcept {
    std::int32_t const status = ec.category() == ntstatus_category<T>() ? ec.value() : 0;
    pmc_condition c = status != 0 ? pmc_condition_of(step, status) : pmc_condition::kernel_error;
    if (rule_of<T>(ec) == rule::pmc_counters_size) c = pmc_condition::too_many_counters;
    pmc_fail(r, step, c, ec);
}

template <kernel K>
pmc_report setup_pmc_hooks(K& k, session_handle session, std::span<pmc_counter const> counters,
                           std::span<hook_id const> events, pmc_options const& options) noexcept {
    basic_pmc_report<detail::dependent_t<K, void>> r; // pmc_report, built where this template is instantiated

    // 1. counts (SECHOST's limits; the kernel's own counter maximum may be lower: step 8 reports it)
    if (counters.empty())
        return pmc_fail(r, pmc_step::check_counts, pmc_condition::no_counters,
                        fail(make_error_code<K>(rule::pmc_counters_empty),
                             "setup_pmc: no counters given; TracePmcCounterListInfo takes 1 to {high}", "setup_pmc", 0, 0,
                             limits::max_pmc_counters)),
               r;
    if (counters.size() > limits::max_pmc_counters)
        return pmc_fail(r, pmc_step::check_counts, pmc_condition::too_many_counters,
                        fail(make_error_code<K>(rule::pmc_counters_size),
                             "PMC: {value} counters requested, TracePmcCounterListInfo takes at most {high}", "setup_pmc",
                             counters.size(), 0, limits::max_pmc_counters)),
               r;
    if (events.size() > limits::max_pmc_events)
        return pmc_fail(r, pmc_step::check_counts, pmc_condition::too_many_events, pmc_events_too_many<K>(events.size())), r;

    // 2. the machine's profile sources
    profile_source_list_buffer<> local;
    std::span<std::byte> const storage =
        options.source_list_storage.empty() ? detail::deferred<K>(local).span() : options.source_list_storage;
    auto const list = query<profile_source_list>(k, storage);
    if (!list) return pmc_fail_kernel(r, pmc_step::query_profile_sources, list.error()), r;

    // 3 + 4. resolve each counter and check its interval
    profile_source_entry entries[limits::max_pmc_counters];
    for (std::size_t i = 0; i < counters.size(); ++i) {
        auto const& c = counters[i];
        bool found = false;
        if (c.by_name()) {
            found = find_named(*list, c.name, entries[i]);
        } else {
            found = list->find(c.id, entries[i]);
        }
        std::uint32_t const id = found ? entries[i].source_id() : c.id;
        if (id == static_cast<std::uint32_t>(profile_source::time) && (found || !c.by_name())) {
            pmc_fail(r, pmc_step::resolve_counters, pmc_condition::counter_is_timer, pmc_counter_is_timer<K>(i), i);
            r.source_id = id;
            return r;
        }
        if (!found) {
            pmc_fail(r, pmc_step::resolve_counters, pmc_condition::source_absent, pmc_counter_absent<K>(i, id), i);
            r.source_id = id;
            return r;
        }
        r.counters[r.counter_count++] = id;
    }
    for (std::size_t i = 0; i < counters.size(); ++i) {
        auto const v = counters[i].interval.count();
        if (v == 0) continue;
        if (v < entries[i].min_interval() || v > entries[i].max_interval()) {
            // The context is this counter's: its value and its source's bounds (noted, then handed out).
            std::error_code const ec = interval_out_of_bounds<K>(r.counters[i], v, {entries[i].min_interval(), entries[i].max_interval()});
            pmc_fail(r, pmc_step::check_intervals, pmc_condition::interval_out_of_bounds, failed(ec), i);
            r.source_id = r.counters[i];
            r.min_interval = entries[i].min_interval();
            r.max_interval = entries[i].max_interval();
            return r;
        }
    }

    // 5 + 6. the session's group mask and the events' groups
    // The query runs even when the check is off: it proves the session exists and is a system logger,
    // which the counter-list refusal alone could not tell apart from its other causes.
    auto const mask = query<system_trace_enable_flags>(k, session);
    if (!mask) return pmc_fail_kernel(r, pmc_step::query_group_mask, mask.error()), r;
    if (options.check_event_groups)
        if (auto const off = first_event_not_enabled(*mask, events)) { // names/events.hpp's event table
            pmc_fail(r, pmc_step::check_event_groups, pmc_condition::group_not_enabled, pmc_event_group_off<K>(*off),
                     off->index);
            r.event = off->event;
            r.missing_flag = off->flag;
            return r;
        }

    // 7. intervals (captured first, so a later failure can put them back)
    struct saved_interval {
        std::uint32_t source;
        profile_interval interval;
    } saved[limits::max_pmc_counters] = {};
    std::size_t saved_count = 0;
    // Each captured value goes back as it was, unchecked (the machine had it), as interval_guard restores.
    auto roll_back = [&]() noexcept {
        while (saved_count != 0) {
            auto const& s = saved[--saved_count];
            if (auto const ec = set_interval(k, s.source, s.interval.count()).template code<K>(); ec && !r.rollback_error)
                r.rollback_error = ec;
        }
    };
    for (std::size_t i = 0; i < counters.size(); ++i) {
        if (counters[i].interval.count() == 0) continue;
        auto const src = static_cast<profile_source>(r.counters[i]);
        auto const before = query<sampled_profile_interval>(k, src);
        if (!before) {
            pmc_fail_kernel(r, pmc_step::set_intervals, before.error());
            r.index = i;
            roll_back();
            return r;
        }
        // A counter's interval is an event count, in the bounds step 4 checked (no second list query).
        interval_bounds const bounds{entries[i].min_interval(), entries[i].max_interval()};
        if (auto const ec = set<sampled_profile_interval>(k, src, counter_interval{counters[i].interval.count()}, bounds); ec) {
            pmc_fail_kernel(r, pmc_step::set_intervals, ec);
            r.index = i;
            r.source_id = r.counters[i];
            roll_back();
            return r;
        }
        saved[saved_count++] = {r.counters[i], *before};
        r.intervals_applied = true;
    }

    // 8. the counter list. A refusal is explained where this Windows can: more counters than
    // TraceMaxPmcCounterQuery allows (too_many_counters), or counters held by another owner
    // (TracePmcCounterOwners: counters_in_use, naming the owner). Only failures pay for these queries.
    profile_source ids[limits::max_pmc_counters] = {};
    for (std::size_t i = 0; i < r.counter_count; ++i) ids[i] = static_cast<profile_source>(r.counters[i]);
    if (auto const ec = set<pmc_counter_list>(k, session, std::span<profile_source const>(detail::deferred<K>(ids), r.counter_count)); ec) {
        pmc_fail_kernel(r, pmc_step::set_counter_list, ec);
        if (r.condition == pmc_condition::session_refused || r.condition == pmc_condition::kernel_error) {
            if (auto const max = query<max_pmc_counters>(k); max) {
                r.max_counters = *max;
                if (r.counter_count > *max) {
                    r.condition = pmc_condition::too_many_counters;
                    (void)fail(r.error, "PMC: {value} counters requested, this machine samples at most {high}", "setup_pmc",
                               r.counter_count, 0, *max);
                }
            }
            // The owners go into the list's storage, free again (nothing below reads the list): 4 KiB
            // holds 340 counters' owners, where a fixed 16-counter buffer failed on larger machines.
            if (auto const o = query<pmc_counter_owners>(k, storage); r.condition != pmc_condition::too_many_counters && o)
                for (std::size_t i = 0; i < o->size(); ++i)
                    if ((*o)[i].type != pmc_owner_type::free) {
                        r.condition = pmc_condition::counters_in_use;
                        r.owner = (*o)[i];
                        break;
                    }
        }
        roll_back();
        return r;
    }
    r.counters_applied = true;

    // 9. the event list
    if (!events.empty()) {
        if (auto const ec = set<pmc_event_list>(k, session, events); ec) {
            pmc_fail_kernel(r, pmc_step::set_event_list, ec);
            roll_back();
            return r;
        }
        r.events_applied = true;
    }
    return r;
}

} // namespace detail

/// The profile source this machine's list calls `name` (case-insensitive ASCII, as pmc_counter::named),
/// read with query<profile_source_list> into `storage` (empty: 4 KiB on the stack). Ids above
/// ProfileMaximum (24) are the HAL's and differ between machines: resolve counters by name at run time,
/// never by an id written into the program. Errors: the query's, or rule::profile_source_absent.
template <kernel K>
[[nodiscard]] result<profile_source> find_profile_source(K& k, std::string_view name,
                                                         std::span<std::byte> const storage = {}) noexcept {
    profile_source_list_buffer<> local;
    auto const list = query<profile_source_list>(k, storage.empty() ? detail::deferred<K>(local).span() : storage);
    if (!list) return list.error();
    profile_source_entry e;
    if (detail::find_named(*list, name, e)) return static_cast<profile_source>(e.source_id());
    return rule::profile_source_absent;
}

/// Counters on kernel events given as hook ids (a hook_list, a span, an array).
template <kernel K>
pmc_report setup_pmc(K& k, session_handle session, std::span<pmc_counter const> counters,
                     std::span<hook_id const> events, pmc_options const& options = {}) noexcept {
    return detail::setup_pmc_hooks(k, session, counters, events, options);
}
template <kernel K, std::size_t N>
pmc_report setup_pmc(K& k, session_handle session, std::span<pmc_counter const> counters, hook_list<N> const& events,
                     pmc_options const& options = {}) noexcept {
    static_assert(N <= limits::max_pmc_events, "etwctl::setup_pmc: at most 4 events carry PMC counters");
    return detail::setup_pmc_hooks(k, session, counters, std::span<hook_id const>(events.data(), N), options);
}

/// Counters on kernel events given as classic events (GUID + type). A GUID that is no kernel group is
/// refused (SECHOST would skip it silently, and its counters would never appear).
template <kernel K, classic_event_id_like E>
pmc_report setup_pmc(K& k, session_handle session, std::span<pmc_counter const> counters, std::span<E const> events,
                     pmc_options const& options = {}) noexcept {
    basic_pmc_report<detail::dependent_t<K, void>> r; // pmc_report, built where this template is instantiated
    if (events.size() > limits::max_pmc_events) {
        detail::pmc_fail(r, pmc_step::check_counts, pmc_condition::too_many_events, detail::pmc_events_too_many<K>(events.size()));
        return r;
    }
    hook_id hooks[limits::max_pmc_events] = {};
    for (std::size_t i = 0; i < events.size(); ++i) {
        auto const h = hook_id_of(events[i]);
        if (!h) {
            detail::pmc_fail(r, pmc_step::check_event_groups, pmc_condition::event_not_kernel, detail::pmc_event_not_kernel<K>(i), i);
            return r;
        }
        hooks[i] = *h;
    }
    return detail::setup_pmc_hooks(k, session, counters, std::span<hook_id const>(hooks, events.size()), options);
}

ETWCTL_END_NAMESPACE
