// SPDX-License-Identifier: MIT
// etwctl/typed/set.hpp - the typed setters:  std::error_code ec = etwctl::set<InfoClass>(kernel, args...);
//
//   set<stack_tracing>(k, session, events)            events: classic_event_id / CLASSIC_EVENT_ID range (<= 256),
//                                                      or hook ids (a hook_list from stack_walk<"...">, a span)
//   set<system_trace_enable_flags>(k, session, group_mask)
//   set<sampled_profile_interval>(k, profile_interval)                   the timer (ProfileTime); machine-global: no session
//   set<sampled_profile_interval>(k, profile_source, counter_interval[, bounds or profile_source_list_view])
//                                                      a hardware counter, checked against the source's [min, max]
//   set<sampled_profile_interval>(k, profile_source, profile_interval)   the timer, or a counter: the number is
//                                                      read as its event count and checked as a counter_interval is
//   set<profile_source_config>(k, session, sources)   1..4 profile_source
//   set<pmc_event_list>(k, session, events)            <= 4, as for stack_tracing
//   set<pmc_counter_list>(k, session, counters)        1..4 profile_source
//   set<disallow_list>(k, session, guids)              <= 256 guid
//   set<periodic_capture_state_list>(k, session, capture_frequency, providers)   <= 16 GUIDs (16)
//   set<periodic_capture_state_list>(k, session)       clears (16)
//   set<session_binary_tracking>(k, session, bool)     (18)
//   set<lbr_configuration>(k, session, lbr_options)    (20)
//   set<lbr_event_list>(k, session, hooks)             <= 4 hook ids (21)
//   set<stack_caching>(k, session, stack_cache_size, stack_cache_buckets)           (24; once per session)
//   set<unified_stack_caching>(k, session, stack_cache_size, stack_cache_buckets)   (26)
//   set<context_register>(k, session, hooks)           <= 8 hook ids or events (28)
//   set<provider_binary_tracking>(k, registration)
//   set<provider_traits>(k, registration, traits)      make_provider_traits(...) or bytes
//   set<use_descriptor_type>(k, registration, bool)
// Sizes known at compile time are checked at compile time (static extents: C arrays, std::array,
// std::span<T, N>, hook_list<N>); dynamic sizes are checked at run time against the same row of the
// class table (classes/info_classes.hpp) the drop-in functions use (request/checks.hpp), and the
// request is built from the typed values by the request layer (request/encode.hpp): no raw buffer is
// faked, compat.hpp is not involved. Errors: rule_category() for a broken rule,
// ntstatus_category() for the kernel's status, win32_category() for EventSetInformation's result.
// No heap, no exceptions; the request is built on the stack.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ranges>
#include <span>
#include <system_error>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/provider_traits.hpp"
#include "etwctl/request/checks.hpp"
#include "etwctl/request/encode.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/types.hpp"
#include "etwctl/typed/outcome.hpp"
#include "etwctl/typed/tags.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace detail {

template <class>
inline constexpr bool dependent_false = false;

/// Whether the last argument is a plain number (an int where an interval was wanted).
template <class... A>
constexpr bool last_is_number() noexcept {
    bool r = false;
    ((r = std::is_arithmetic_v<std::remove_cvref_t<A>>), ...);
    return r;
}

template <class T>
inline constexpr bool is_hook_list = false;
template <std::size_t N>
inline constexpr bool is_hook_list<hook_list<N>> = true;

template <class T>
struct static_extent : std::integral_constant<std::size_t, std::dynamic_extent> {};
template <class T, std::size_t N>
struct static_extent<T[N]> : std::integral_constant<std::size_t, N> {};
template <class T, std::size_t N>
struct static_extent<std::array<T, N>> : std::integral_constant<std::size_t, N> {};
template <class T, std::size_t N>
struct static_extent<std::span<T, N>> : std::integral_constant<std::size_t, N> {};
template <std::size_t N>
struct static_extent<hook_list<N>> : std::integral_constant<std::size_t, N> {};

/// The compile-time element count of R, or std::dynamic_extent.
template <class R>
inline constexpr std::size_t extent_of = static_extent<std::remove_cvref_t<R>>::value;

template <class R>
concept sized_contiguous = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;

template <class R>
using element_of = std::remove_cvref_t<std::ranges::range_value_t<R>>;

template <class R>
concept event_range = sized_contiguous<R> && classic_event_id_like<element_of<R>>;
template <class R>
concept hook_range = sized_contiguous<R> && std::same_as<element_of<R>, hook_id>;
template <class R>
concept source_range = sized_contiguous<R> && std::same_as<element_of<R>, profile_source>;
template <class R>
concept guid_range = sized_contiguous<R> && (std::same_as<element_of<R>, guid> || guid_like<element_of<R>>);


// ---- one setter per class; set<C> dispatches here --------------------------------------------------

template <class C>
struct setter;

/// The count of a typed list against the class's row (the rules SECHOST applies to the same list as a
/// raw buffer); a broken rule records the count and the limit as its context.
template <class C>
ETWCTL_INLINE_ALWAYS rule check_list_count(std::size_t n) noexcept {
    constexpr direction_rules const& d = C::row.set;
    rule const r = validate::check_count(d, n);
    if (r != rule::ok) [[unlikely]]
        note_failure(r, n == 0 ? std::string_view("set<{name}>: an empty list; give 1 to {high}")
                             : std::string_view("set<{name}>: {value} elements, the kernel accepts at most {high}"),
                   C::name, n, 0, d.max_count);
    return r;
}

/// The context of rule::event_guid_not_kernel_group (cold).
template <class C>
ETWCTL_COLD void note_unknown_group(std::size_t index) noexcept {
    note_failure(make_error_code<C>(rule::event_guid_not_kernel_group),
                 "set<{name}>: event {value} of the list has an EventGuid that is no kernel group's (SECHOST would drop "
                 "it silently; a list of only such events would be sent empty); nothing was sent",
                 C::name, index);
}

/// The shared body of every list class: the count checked, then the row's request, built from the
/// typed elements.
template <class C, kernel K, class R>
ETWCTL_INLINE_ALWAYS outcome send_list(K& k, session_handle session, R const& list) noexcept {
    constexpr direction_rules const& d = C::row.set;
    std::size_t const n = std::ranges::size(list);
    if (rule const r = check_list_count<C>(n); r != rule::ok) [[unlikely]]
        return broke(r);
    auto const* data = std::ranges::data(list);
    if constexpr (d.request == request_kind::hook_list) {
        if constexpr (is_hook_list<std::remove_cvref_t<R>>) return send_hook_list(k, d.kernel_code, session.value, list);
        else if constexpr (std::same_as<element_of<R>, hook_id>) return send_hook_list<d.max_count>(k, d.kernel_code, session.value, data, n);
        else { // events: one whose GUID is no kernel group's is refused, not dropped as SECHOST drops it
            outcome const o = send_hook_list<d.max_count, true>(k, d.kernel_code, session.value, data, n);
            if (o.broken == rule::event_guid_not_kernel_group) [[unlikely]]
                note_unknown_group<C>(first_unknown_group(data, n));
            return o;
        }
    } else if constexpr (d.request == request_kind::ulong_list) {
        static_assert(sizeof(*data) == 4);
        return send_ulong_list<d.max_count>(k, d.kernel_code, session.value, data, n);
    } else {
        static_assert(d.request == request_kind::disallow_list);
        static_assert(sizeof(*data) == 16);
        return send_disallow_list(k, session.value, data, n);
    }
}

template <>
struct setter<stack_tracing> {
    template <kernel K, class R>
        requires(event_range<R> || hook_range<R>)
    ETWCTL_INLINE_ALWAYS static outcome apply(K& k, session_handle session, R const& events) noexcept {
        constexpr std::size_t n = extent_of<R>;
        if constexpr (n != std::dynamic_extent)
            static_assert(n <= limits::max_stack_tracing_events,
                          "etwctl::set<stack_tracing>: too many events; the kernel accepts at most 256");
        return send_list<stack_tracing>(k, session, events);
    }
};

template <>
struct setter<pmc_event_list> {
    template <kernel K, class R>
        requires(event_range<R> || hook_range<R>)
    ETWCTL_INLINE_ALWAYS static outcome apply(K& k, session_handle session, R const& events) noexcept {
        constexpr std::size_t n = extent_of<R>;
        if constexpr (n != std::dynamic_extent)
            static_assert(n <= limits::max_pmc_events,
                          "etwctl::set<pmc_event_list>: too many events; TracePmcEventListInfo accepts at most 4");
        return send_list<pmc_event_list>(k, session, events);
    }
};

template <>
struct setter<system_trace_enable_flags> {
    template <kernel K>
    static outcome apply(K& k, session_handle session, group_mask const& masks) noexcept {
        return send_group_masks(k, session.value, masks.masks, limits::max_group_masks);
    }
};

/// The interval's context when it is out of the source's bounds (cold).
template <class T = void>
ETWCTL_COLD std::error_code interval_out_of_bounds(std::uint32_t source, std::uint32_t value, interval_bounds b) noexcept {
    std::error_code const ec = make_error_code<T>(rule::interval_out_of_bounds);
    note_failure(ec,
                source == 0 ? std::string_view("interval {value} (100 ns units) is outside the timer's [{low}, {high}]; "
                                               "pass a value in range, or timer_bounds.clamp(v) to accept the kernel's clamp")
                            : std::string_view("interval {value} events is outside this hardware counter's [{low}, "
                                               "{high}] (its MinInterval and MaxInterval in the profile-source list); "
                                               "pass a value in range, or bounds.clamp(v) to accept the kernel's clamp"),
                source == 0 ? std::string_view("Timer") : std::string_view("hardware counter"), value, b.min, b.max);
    return ec; // noted: the caller hands it out through failed() (directly, or as an outcome)
}

template <>
struct setter<sampled_profile_interval> {
    /// The timer (ProfileTime), checked against its bounds (1221..1000000 x 100 ns) first: the kernel
    /// would clamp silently.
    /// (These two return the outcome, as the list setters do: set() turns it into the error_code with the
    /// cold path recording the context, so the successful call costs what the hand-written one does plus
    /// the status test.)
    template <kernel K>
    ETWCTL_INLINE_ALWAYS static outcome apply(K& k, profile_interval interval) noexcept {
        if (!timer_bounds.contains(interval.count())) [[unlikely]] {
            (void)interval_out_of_bounds(0, interval.count(), timer_bounds); // records the context
            return broke(rule::interval_out_of_bounds);
        }
        return set_interval(k, static_cast<std::uint32_t>(profile_source::time), interval.count());
    }
    /// A source given a profile_interval: the timer checked as above; for a hardware counter the kernel
    /// reads the same ULONG as an event count, so the number is checked as a counter_interval of that
    /// many events is, against the source's [min, max] from this machine's profile-source list (one
    /// query): sent as is, profile_interval{1} for TotalIssues would be clamped silently by the kernel
    /// (to 4096 on a typical machine). Write counter_interval{N} (N_events) for a counter, with the
    /// bounds at hand where the list was read once.
    template <kernel K>
    static std::error_code apply(K& k, profile_source source, profile_interval interval) noexcept {
        if (source == profile_source::time) [[likely]]
            return to_error_code<sampled_profile_interval>(apply(k, interval));
        return apply(k, source, counter_interval{interval.count()});
    }
    /// A hardware counter with its bounds at hand (e.g. from a profile_source_list_view read once).
    template <kernel K>
    static std::error_code apply(K& k, profile_source source, counter_interval interval, interval_bounds bounds) noexcept {
        if (source == profile_source::time) [[unlikely]]
            return fail(rule::pmc_counter_not_pmc,
                        "the timer takes a time interval (profile_interval, 100 ns units), not a counter_interval", "Timer");
        if (!bounds.contains(interval.count())) [[unlikely]] {
            auto const ec = interval_out_of_bounds(static_cast<std::uint32_t>(source), interval.count(), bounds);
            return failed(ec);
        }
        return set_interval(k, static_cast<std::uint32_t>(source), interval.count()).code();
    }
    /// A hardware counter checked against a profile-source list the caller has read (a cache).
    template <kernel K>
    static std::error_code apply(K& k, profile_source source, counter_interval interval,
                                 profile_source_list_view const& sources) noexcept {
        profile_source_entry e;
        if (!sources.find(static_cast<std::uint32_t>(source), e)) [[unlikely]]
            return fail(rule::profile_source_absent,
                        "profile source {value} is not in this machine's profile-source list "
                        "(query<profile_source_list> lists what it has)",
                        "", static_cast<std::uint32_t>(source));
        return apply(k, source, interval, interval_bounds{e.min_interval(), e.max_interval()});
    }
    /// A hardware counter checked against this machine's profile-source list, read now (one query,
    /// 4 KiB on the stack).
    template <kernel K>
    static std::error_code apply(K& k, profile_source source, counter_interval interval) noexcept {
        alignas(8) detail::dependent_t<K, std::byte> storage[4096]; // dependent: the span below is built where apply is
        std::size_t returned = 0;
        auto const o = query_profile_sources(k, storage, sizeof storage, returned);
        if (!o.ok()) return o.code();
        return apply(k, source, interval, profile_source_list_view::from_checked(checked_chain({storage, returned})));
    }
};

template <>
struct setter<profile_source_config> {
    template <kernel K, source_range R>
    ETWCTL_INLINE_ALWAYS static outcome apply(K& k, session_handle session, R const& sources) noexcept {
        constexpr std::size_t n = extent_of<R>;
        if constexpr (n != std::dynamic_extent) {
            static_assert(n >= 1, "etwctl::set<profile_source_config>: no profile source; give 1 to 4");
            static_assert(n <= limits::max_profile_sources,
                          "etwctl::set<profile_source_config>: too many profile sources; TraceProfileSourceConfigInfo accepts at most 4");
        }
        return send_list<profile_source_config>(k, session, sources);
    }
};

template <>
struct setter<pmc_counter_list> {
    template <kernel K, source_range R>
    ETWCTL_INLINE_ALWAYS static outcome apply(K& k, session_handle session, R const& counters) noexcept {
        constexpr std::size_t n = extent_of<R>;
        if constexpr (n != std::dynamic_extent) {
            static_assert(n >= 1, "etwctl::set<pmc_counter_list>: no counter; give 1 to 4 hardware counters");
            static_assert(n <= limits::max_pmc_counters,
                          "etwctl::set<pmc_counter_list>: too many counters; TracePmcCounterListInfo accepts at most 4");
        }
        return send_list<pmc_counter_list>(k, session, counters);
    }
};

template <>
struct setter<disallow_list> {
    template <kernel K, guid_range R>
    ETWCTL_INLINE_ALWAYS static outcome apply(K& k, session_handle session, R const& guids) noexcept {
        constexpr std::size_t n = extent_of<R>;
        if constexpr (n != std::dynamic_extent)
            static_assert(n <= limits::max_disallow_list,
                          "etwctl::set<disallow_list>: too many GUIDs; etwctl sends at most 256 (the request is built on the stack)");
        return send_list<disallow_list>(k, session, guids);
    }
};

// ---- the classes later releases added (16-28) -------------------------------------------------------

/// TRACE_STACK_CACHING_INFO for class 24 or 26: the values inside the kernel's clamps, then the request.
template <class C, kernel K>
std::error_code set_stack_cache(K& k, session_handle session, stack_cache_size size, stack_cache_buckets buckets) noexcept {
    if (!size.is_kernel_default() && (size.bytes < stack_cache_size_bounds.min || size.bytes > stack_cache_size_bounds.max))
        [[unlikely]]
        return fail(rule::stack_cache_out_of_bounds,
                    "set<{name}>: a cache of {value} bytes is outside the kernel's [{low}, {high}] (3 to 50 MiB); pass "
                    "a size in range, or stack_cache_size{stack_cache_size_bounds.clamp(bytes)} to accept the clamp",
                    C::name, size.bytes, stack_cache_size_bounds.min, stack_cache_size_bounds.max);
    if (!buckets.is_kernel_default() && !stack_cache_bucket_bounds.contains(buckets.count)) [[unlikely]]
        return fail(rule::stack_cache_out_of_bounds,
                    "set<{name}>: {value} buckets is outside the kernel's [{low}, {high}]; pass a count in range, or "
                    "stack_cache_buckets{stack_cache_bucket_bounds.clamp(n)} to accept the clamp",
                    C::name, buckets.count, stack_cache_bucket_bounds.min, stack_cache_bucket_bounds.max);
    return to_error_code<C>(send_stack_caching(k, C::row.set.kernel_code, session.value, 1,
                                               static_cast<std::uint32_t>(size.bytes), buckets.count)); // in bounds: fits
}

template <>
struct setter<stack_caching> {
    template <kernel K>
    static std::error_code apply(K& k, session_handle session, stack_cache_size size, stack_cache_buckets buckets) noexcept {
        return set_stack_cache<stack_caching>(k, session, size, buckets);
    }
};

template <>
struct setter<unified_stack_caching> {
    template <kernel K>
    static std::error_code apply(K& k, session_handle session, stack_cache_size size, stack_cache_buckets buckets) noexcept {
        return set_stack_cache<unified_stack_caching>(k, session, size, buckets);
    }
};

template <>
struct setter<lbr_configuration> {
    template <kernel K>
    static std::error_code apply(K& k, session_handle session, lbr_options options) noexcept {
        return to_error_code<lbr_configuration>(send_lbr_configuration(k, session.value, options.flags));
    }
};

template <>
struct setter<lbr_event_list> {
    /// hook_ids, or the SDK's own form: a ULONG[] of hook ids (ULONG, DWORD, std::uint32_t), sent as given,
    /// as TraceSetInformation(TraceLbrEventListInfo) sends the caller's array.
    template <kernel K, class R>
        requires(hook_range<R> || (sized_contiguous<R> && ulong_type<element_of<R>>))
    static std::error_code apply(K& k, session_handle session, R const& hooks) noexcept {
        if constexpr (extent_of<R> != std::dynamic_extent)
            static_assert(extent_of<R> <= limits::max_lbr_events,
                          "etwctl::set<lbr_event_list>: at most 4 events (TRACE_LBR_MAXIMUM_EVENTS)");
        std::size_t const n = std::ranges::size(hooks);
        if (rule const r = check_list_count<lbr_event_list>(n); r != rule::ok) return failed(make_error_code<K>(r));
        constexpr direction_rules const& d = lbr_event_list::row.set; // ULONG hook ids, as a stack-walk list
        if constexpr (hook_range<R>)
            return to_error_code<lbr_event_list>(
                send_hook_list<d.max_count>(k, d.kernel_code, session.value, std::ranges::data(hooks), n));
        else
            return to_error_code<lbr_event_list>(
                send_ulong_list<d.max_count>(k, d.kernel_code, session.value, std::ranges::data(hooks), n));
    }
};

template <>
struct setter<context_register> {
    /// Hook ids, or events (CLASSIC_EVENT_ID / classic_event_id: encoded as every hook list is).
    template <kernel K, class R>
        requires(hook_range<R> || event_range<R>)
    static std::error_code apply(K& k, session_handle session, R const& hooks) noexcept {
        if constexpr (extent_of<R> != std::dynamic_extent)
            static_assert(extent_of<R> <= limits::max_context_register_events,
                          "etwctl::set<context_register>: at most 8 events (ETW_MAX_CONTEXT_REGISTER_EVENTS)");
        std::size_t const n = std::ranges::size(hooks);
        if (rule const r = check_list_count<context_register>(n); r != rule::ok) return failed(make_error_code<K>(r));
        outcome const o = send_context_register(k, session.value, context_registers::both, std::ranges::data(hooks), n, true);
        if constexpr (event_range<R>)
            if (o.broken == rule::event_guid_not_kernel_group) [[unlikely]]
                note_unknown_group<context_register>(first_unknown_group(std::ranges::data(hooks), n));
        return to_error_code<context_register>(o);
    }
};

template <>
struct setter<session_binary_tracking> {
    template <kernel K>
    static std::error_code apply(K& k, session_handle session, bool enable) noexcept {
        return to_error_code<session_binary_tracking>(send_binary_tracking(k, session.value, enable));
    }
};

template <>
struct setter<periodic_capture_state_list> {
    /// The kernel's rules (NtTraceControl EtwUpdatePeriodicCaptureState): a frequency of at least 5 s,
    /// and providers with it; checked here so the call does not fail with a bare STATUS_INVALID_PARAMETER.
    template <kernel K, guid_range R>
    static std::error_code apply(K& k, session_handle session, capture_frequency frequency, R const& providers) noexcept {
        if constexpr (extent_of<R> != std::dynamic_extent)
            static_assert(extent_of<R> <= limits::max_periodic_capture_providers,
                          "etwctl::set<periodic_capture_state_list>: at most 16 providers");
        std::size_t const n = std::ranges::size(providers);
        if (rule const r = check_list_count<periodic_capture_state_list>(n); r != rule::ok) return failed(make_error_code<K>(r));
        if (n == 0) [[unlikely]]
            return fail(rule::periodic_capture_frequency,
                        "set<{name}>: a capture every {value} s for no provider; the kernel refuses a frequency without "
                        "providers. To clear, call set<{name}>(k, session)",
                        periodic_capture_state_list::name, frequency.seconds);
        if (frequency.seconds < limits::min_periodic_capture_seconds) [[unlikely]]
            return fail(rule::periodic_capture_frequency,
                        "set<{name}>: a capture every {value} s is below the kernel's minimum of {low} s (query<"
                        "periodic_capture_state> reports it); pass at least {low}",
                        periodic_capture_state_list::name, frequency.seconds, limits::min_periodic_capture_seconds);
        static_assert(sizeof(*std::ranges::data(providers)) == 16);
        return to_error_code<periodic_capture_state_list>(
            send_periodic_capture(k, session.value, frequency.seconds, std::ranges::data(providers), n));
    }
    /// Clears the session's periodic capture state (the SDK's NULL buffer).
    template <kernel K>
    static std::error_code apply(K& k, session_handle session) noexcept {
        return to_error_code<periodic_capture_state_list>(send_periodic_capture(k, session.value, 0, nullptr, 0));
    }
};

/// EventSetInformation through the kernel layer, after NTDLL's checks (request/checks.hpp).
template <kernel K>
std::error_code event_set(K& k, registration_handle reg, event_info_class c, void const* info, std::uint32_t length) noexcept {
    auto const cls = static_cast<std::uint32_t>(c);
    if (rule r = validate::event_set_information(cls, info, length); r != rule::ok) return failed(make_error_code<K>(r));
    std::uint32_t const e = k.event_set_information(reg.value, cls, info, length);
    return e == 0 ? no_error<K>() : win32_error_code<K>(e);
}

template <>
struct setter<provider_binary_tracking> {
    template <kernel K>
    static std::error_code apply(K& k, registration_handle reg) noexcept {
        return event_set(k, reg, event_info_class::provider_binary_track_info, nullptr, 0);
    }
};

template <>
struct setter<provider_traits> {
    template <kernel K, std::size_t N>
    static std::error_code apply(K& k, registration_handle reg, provider_traits_blob<N> const& traits) noexcept {
        return event_set(k, reg, event_info_class::provider_set_traits, traits.bytes, static_cast<std::uint32_t>(N));
    }
    /// Traits from bytes: checked as the kernel checks them before anything is sent.
    template <kernel K>
    static std::error_code apply(K& k, registration_handle reg, std::span<std::byte const> traits) noexcept {
        if (rule r = check_provider_traits(traits); r != rule::ok) return failed(make_error_code<K>(r));
        return event_set(k, reg, event_info_class::provider_set_traits, traits.data(),
                         static_cast<std::uint32_t>(traits.size()));
    }
};

template <>
struct setter<use_descriptor_type> {
    template <kernel K>
    static std::error_code apply(K& k, registration_handle reg, bool use) noexcept {
        unsigned char const value = use ? 1 : 0; // a BOOLEAN byte
        return event_set(k, reg, event_info_class::provider_use_descriptor_type, &value, 1);
    }
};

} // namespace detail

/// Sets one information class. See the table at the top of this header for the arguments of each.
/// Declared `inline` on purpose: g++ gives declared-inline functions a larger inlining budget, and
/// set() must be inlined into its caller for a compile-time hook_list's ids to become immediate stores
/// (otherwise a shared out-of-line copy loads them from the list object; see docs/performance.md).
template <info_tag C, kernel K, class... Args>
[[nodiscard]] ETWCTL_INLINE_ALWAYS std::error_code set(K& k, Args const&... args) noexcept {
    if constexpr (!C::settable) {
        static_assert(detail::dependent_false<C>,
                      "etwctl::set: this information class can only be queried; use etwctl::query<C>");
        return {};
    } else if constexpr (requires { detail::setter<C>::apply(k, args...); }) {
        return detail::to_error_code<C>(detail::setter<C>::apply(k, args...), args...);
    } else {
        // One message per class, naming the signature that would have worked.
        static_assert(!std::is_same_v<C, stack_tracing>,
                      "etwctl::set<stack_tracing>: wrong arguments; use set<stack_tracing>(kernel, session, events) "
                      "with events a contiguous range of classic_event_id / CLASSIC_EVENT_ID or hook_id");
        static_assert(!std::is_same_v<C, pmc_event_list>,
                      "etwctl::set<pmc_event_list>: wrong arguments; use set<pmc_event_list>(kernel, session, events) "
                      "with 0 to 4 classic_event_id / CLASSIC_EVENT_ID or hook_id");
        static_assert(!std::is_same_v<C, system_trace_enable_flags>,
                      "etwctl::set<system_trace_enable_flags>: wrong arguments; use "
                      "set<system_trace_enable_flags>(kernel, session, group_mask)");
        static_assert(!std::is_same_v<C, sampled_profile_interval> || !detail::last_is_number<Args...>(),
                      "etwctl::set<sampled_profile_interval>: the interval is a bare number, which has no unit; write "
                      "timer_interval<1250> (100 ns units, checked at compile time), 1250_100ns, 8_kHz or "
                      "sampling_rate<8000>, std::chrono::microseconds(125), or for a hardware counter "
                      "counter_interval{N} / 65536_events");
        static_assert(!std::is_same_v<C, sampled_profile_interval> || detail::last_is_number<Args...>(),
                      "etwctl::set<sampled_profile_interval>: wrong arguments; the interval is machine-global and takes "
                      "no session: use set<sampled_profile_interval>(kernel, profile_source, profile_interval)");
        static_assert(!std::is_same_v<C, profile_source_config>,
                      "etwctl::set<profile_source_config>: wrong arguments; use "
                      "set<profile_source_config>(kernel, session, sources) with 1 to 4 etwctl::profile_source");
        static_assert(!std::is_same_v<C, pmc_counter_list>,
                      "etwctl::set<pmc_counter_list>: wrong arguments; use set<pmc_counter_list>(kernel, session, "
                      "counters) with 1 to 4 etwctl::profile_source");
        static_assert(!std::is_same_v<C, disallow_list>,
                      "etwctl::set<disallow_list>: wrong arguments; use set<disallow_list>(kernel, session, guids)");
        static_assert(!std::is_same_v<C, provider_binary_tracking>,
                      "etwctl::set<provider_binary_tracking>: wrong arguments; use "
                      "set<provider_binary_tracking>(kernel, registration_handle)");
        static_assert(!std::is_same_v<C, provider_traits>,
                      "etwctl::set<provider_traits>: wrong arguments; use set<provider_traits>(kernel, "
                      "registration_handle, make_provider_traits(\"Name\"[, group]))");
        static_assert(!std::is_same_v<C, use_descriptor_type>,
                      "etwctl::set<use_descriptor_type>: wrong arguments; use "
                      "set<use_descriptor_type>(kernel, registration_handle, bool)");
        return {};
    }
}

ETWCTL_END_NAMESPACE
