// etwctl/classes/current_windows.hpp - the typed API of the information classes later Windows releases
// added to TraceSetInformation / TraceQueryInformation (TRACE_INFO_CLASS 16-28, SDK evntrace.h).
//
//   set<stack_caching>(k, session, stack_cache_size::mebibytes(16), stack_cache_buckets{1024})   class 24
//   set<unified_stack_caching>(k, session, stack_cache_size::mebibytes(16), stack_cache_buckets{1024}) 26
//   set<lbr_configuration>(k, session, lbr_options{lbr::exclude_kernel | lbr::callstack_enable})      20
//   set<lbr_event_list>(k, session, stack_walk<"CSwitch+Profile">)            (<= 4 hook ids)        21
//   set<session_binary_tracking>(k, session, true)                                                 18
//   set<periodic_capture_state_list>(k, session, capture_frequency{60}, providers) (<= 16 GUIDs)    16
//   set<periodic_capture_state_list>(k, session)                              (clears)             16
//   set<context_register>(k, session, hooks)                                  (<= 8 hook ids)      28
//   query<max_loggers>(k), query<max_pmc_counters>(k)                         -> result<uint32_t>  19, 22
//   query<stream_count>(k, session)                                           -> result<uint32_t>  23
//   query<pmc_counter_owners>(k, storage[, processor])                        -> result<pmc_owner_view> 25
//   query<pmc_session_information>(k, storage)                                -> result<pmc_session_view> 27
//   query<periodic_capture_state>(k)                 -> result<periodic_capture_limits> (no kernel call) 17
// Class 17 (TracePeriodicCaptureStateInfo) reports the system's periodic-capture limits. No kernel request
// exists for it (no NtTraceControl code queries periodic capture state): it is answered with the limits
// the kernel's handler enforces (a frequency of 0 or at least 5 s, at most 16 providers; docs/choices.md
// gives the sources and how certain each part is).
//
// Naming: the EventSetInformation class EventProviderBinaryTrackInfo already owns the tag
// `provider_binary_tracking` (per provider registration, no payload). TRACE_INFO_CLASS 18
// (TraceProviderBinaryTracking) is a different request on a different object: it switches binary
// tracking on or off for a whole trace session (NtTraceControl 0x29 with the logger id). Its tag is
// `session_binary_tracking`, named after what it acts on, so neither call can be mistaken for the other.
//
// "Not on this Windows": a kernel that predates a class answers STATUS_NOT_IMPLEMENTED (a system class)
// or STATUS_INVALID_DEVICE_REQUEST (an NtTraceControl code), both ERROR_INVALID_FUNCTION. The typed
// calls report that as an error in missing_class_category(): its value is the TRACE_INFO_CLASS, its
// message "this Windows does not support TraceStackCachingInfo (...)", and it compares equal to
// win32_condition(ERROR_INVALID_FUNCTION) like the raw status would.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/query.hpp"
#include "etwctl/request/current_windows.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/set.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

// ---- "this Windows does not support <class>" ---------------------------------------------------------

/// The SDK name of a TRACE_INFO_CLASS of later releases (16-28), or "" for others (the class table's).
constexpr std::string_view current_class_name(std::uint32_t c) noexcept {
    auto const* row = find_traits(c);
    return row && row->release == windows_release::windows_10_later ? row->sdk_name : std::string_view{};
}

namespace detail {
/// A template, held never-destroyed like error.hpp's categories: a TU that never asks for it carries
/// none of its code (no vtable, no destructor registration).
template <class = void>
class missing_class_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "etwctl.missing_class"; }
    std::string message(int value) const override {
        auto const c = static_cast<std::uint32_t>(value);
        std::string_view const n = current_class_name(c);
        return "this Windows does not support " + std::string(n.empty() ? "the information class" : n) +
               " (information class " + std::to_string(c) +
               "; the kernel lacks the request: STATUS_NOT_IMPLEMENTED / STATUS_INVALID_DEVICE_REQUEST, "
               "ERROR_INVALID_FUNCTION)";
    }
    std::error_condition default_error_condition(int) const noexcept override {
        return win32_condition(win32::invalid_function);
    }
};
} // namespace detail

template <class = void>
inline std::error_category const& missing_class_category() noexcept {
    return detail::category_holder<detail::missing_class_category_impl<>>::instance.object;
}

/// The error a typed call returns when the kernel lacks the class.
template <class = void>
inline std::error_code missing_class_error(trace_info_class c) noexcept {
    return {static_cast<int>(c), missing_class_category()};
}

// ---- strong types ----------------------------------------------------------------------------------------

/// TRACE_STACK_CACHING_INFO CacheSize, in bytes. The kernel clamps it to 3..50 MiB. Held in 64 bits so
/// that no size wraps on its way to the bounds check (mebibytes(4099) is 4099 MiB, refused; it used to
/// become 3 MiB in 32 bits and pass).
struct stack_cache_size {
    std::uint64_t bytes = 0;
    static constexpr stack_cache_size mebibytes(std::uint32_t n) noexcept { return {std::uint64_t{n} * 1024U * 1024U}; }
    friend constexpr bool operator==(stack_cache_size, stack_cache_size) noexcept = default;
};
/// TRACE_STACK_CACHING_INFO BucketCount. The kernel clamps it to 256..4096.
struct stack_cache_buckets {
    std::uint32_t count = 0;
    friend constexpr bool operator==(stack_cache_buckets, stack_cache_buckets) noexcept = default;
};
/// The kernel's clamps of the two (it would use the nearest bound). set<stack_caching> refuses a value
/// outside them (rule::stack_cache_out_of_bounds) instead of letting the kernel change it silently;
/// to accept the clamp, pass stack_cache_size{stack_cache_size_bounds.clamp(bytes)} (and the same for
/// the buckets).
inline constexpr interval_bounds stack_cache_size_bounds{limits::stack_cache_min_bytes, limits::stack_cache_max_bytes};
inline constexpr interval_bounds stack_cache_bucket_bounds{limits::stack_cache_min_buckets, limits::stack_cache_max_buckets};

/// TRACE_LBR_CONFIGURATION flags (lbr::exclude_kernel, ...). Excluding both kernel and user records
/// nothing: the kernel refuses it (STATUS_INVALID_PARAMETER); a constant refuses it at compile time
/// (lbr_options::checked<...>()).
struct lbr_options {
    std::uint32_t flags = 0;
    constexpr bool records_something() const noexcept { return (flags & 3U) != 3U; }
    template <std::uint32_t Flags>
    static constexpr lbr_options checked() noexcept {
        static_assert((Flags & 3U) != 3U, "etwctl::lbr_options: excluding both kernel and user branches records nothing "
                                          "(the kernel refuses it)");
        static_assert((Flags & ~lbr::all) == 0, "etwctl::lbr_options: unknown TRACE_LBR_CONFIGURATION bits");
        return {Flags};
    }
    friend constexpr bool operator==(lbr_options, lbr_options) noexcept = default;
};

/// TRACE_PERIODIC_CAPTURE_STATE_INFO CaptureStateFrequencyInSeconds.
struct capture_frequency {
    std::uint32_t seconds = 0;
};

/// What TracePeriodicCaptureStateInfo reports: the shortest capture frequency and the most providers
/// the kernel accepts (NtTraceControl EtwUpdatePeriodicCaptureState refuses 1-4 s and more than 16).
struct periodic_capture_limits {
    std::uint32_t min_frequency_seconds = limits::min_periodic_capture_seconds;
    std::uint32_t max_providers = limits::max_periodic_capture_providers;
    friend constexpr bool operator==(periodic_capture_limits, periodic_capture_limits) noexcept = default;
};

/// One ETW_PMC_COUNTER_OWNER.
struct pmc_counter_owner {
    pmc_owner_type type = pmc_owner_type::free;
    std::uint32_t profile_source = 0;
    std::uint32_t owner_tag = 0; ///< with the simulated and real kernels: the owning logger's id for ETW owners
};

constexpr std::string_view to_string(pmc_owner_type t) noexcept {
    switch (t) {
    case pmc_owner_type::free: return "free";
    case pmc_owner_type::untagged: return "untagged (held outside ETW)";
    case pmc_owner_type::tagged: return "tagged";
    case pmc_owner_type::tagged_with_source: return "tagged with source";
    }
    return "?";
}

/// A checked ETW_PMC_COUNTER_OWNERSHIP_STATUS in the caller's storage.
class pmc_owner_view {
public:
    constexpr pmc_owner_view() noexcept = default;
    /// rule::ok if bytes hold the head and NumberOfCounters whole records.
    static rule parse(std::span<std::byte const> bytes, pmc_owner_view& out) noexcept {
        out = {};
        if (bytes.size() < pmc_owners_head_size) return rule::kernel_reply_malformed;
        std::uint32_t n;
        std::memcpy(&n, bytes.data() + 4, 4);
        if (n > (bytes.size() - pmc_owners_head_size) / pmc_owner_record_size) return rule::kernel_reply_malformed;
        out.bytes_ = bytes.first(pmc_owners_head_size + pmc_owner_record_size * n);
        out.count_ = n;
        return rule::ok;
    }
    std::uint32_t processor() const noexcept { return field(0); }
    std::size_t size() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }
    pmc_counter_owner operator[](std::size_t i) const noexcept {
        std::size_t const o = pmc_owners_head_size + pmc_owner_record_size * i;
        return {static_cast<pmc_owner_type>(field(o)), field(o + 4), field(o + 8)};
    }
    /// How many counters have an owner of a type other than free.
    std::size_t owned() const noexcept {
        std::size_t n = 0;
        for (std::size_t i = 0; i < count_; ++i) n += (*this)[i].type != pmc_owner_type::free ? 1U : 0U;
        return n;
    }

private:
    std::uint32_t field(std::size_t off) const noexcept {
        std::uint32_t v;
        std::memcpy(&v, bytes_.data() + off, 4);
        return v;
    }
    std::span<std::byte const> bytes_{};
    std::size_t count_ = 0;
};

/// Storage for query<pmc_counter_owners>: room for MaxCounters records.
template <std::size_t MaxCounters = 16>
struct pmc_owner_buffer {
    alignas(4) std::byte bytes[pmc_owners_head_size + pmc_owner_record_size * MaxCounters];
    constexpr operator std::span<std::byte>() noexcept { return bytes; } // NOLINT: storage is passed as-is
};

/// One ETW_PMC_SESSION_INFO record of a checked chain.
class pmc_session_entry {
public:
    constexpr pmc_session_entry() noexcept = default;
    explicit pmc_session_entry(std::byte const* p) noexcept : p_(p) {}
    std::uint16_t logger_id() const noexcept {
        std::uint16_t v;
        std::memcpy(&v, p_ + 4, 2);
        return v;
    }
    std::size_t source_count() const noexcept { return u32(8); }
    std::size_t hook_count() const noexcept { return u32(12); }
    std::uint32_t source(std::size_t i) const noexcept { return u32(pmc_session_head_size + 4 * i); }
    /// Hook ids are USHORTs (SDK), in slots the kernel sizes at 4 bytes each.
    hook_id hook(std::size_t i) const noexcept {
        std::uint16_t v;
        std::memcpy(&v, p_ + pmc_session_head_size + 4 * source_count() + 2 * i, 2);
        return hook_id{v};
    }

private:
    std::uint32_t u32(std::size_t off) const noexcept {
        std::uint32_t v;
        std::memcpy(&v, p_ + off, 4);
        return v;
    }
    std::byte const* p_ = nullptr;
};

/// A checked chain of ETW_PMC_SESSION_INFO records in the caller's storage.
class pmc_session_view {
public:
    constexpr pmc_session_view() noexcept = default;
    /// rule::ok if every record lies inside bytes, holds its sources and USHORT hook ids, and the
    /// offsets move forward by multiples of 4 (no cycles). An empty reply is an empty list.
    static rule parse(std::span<std::byte const> bytes, pmc_session_view& out) noexcept {
        out = {};
        std::size_t off = 0, n = 0;
        while (off < bytes.size()) {
            if (bytes.size() - off < pmc_session_head_size) return rule::kernel_reply_malformed;
            std::uint32_t next, sources, hooks;
            std::memcpy(&next, bytes.data() + off, 4);
            std::memcpy(&sources, bytes.data() + off + 8, 4);
            std::memcpy(&hooks, bytes.data() + off + 12, 4);
            std::size_t const end = next == 0 ? bytes.size() : off + next;
            if (next != 0 && (next % 4 != 0 || next > bytes.size() - off)) return rule::kernel_reply_malformed;
            std::uint64_t const need = pmc_session_head_size + 4ULL * sources + 2ULL * hooks;
            if (need > end - off) return rule::kernel_reply_malformed;
            ++n;
            if (next == 0) break;
            off += next;
        }
        out.bytes_ = bytes;
        out.count_ = n;
        return rule::ok;
    }
    std::size_t size() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }
    pmc_session_entry operator[](std::size_t i) const noexcept {
        std::size_t off = 0;
        for (std::size_t k = 0; k < i; ++k) {
            std::uint32_t next;
            std::memcpy(&next, bytes_.data() + off, 4);
            off += next;
        }
        return pmc_session_entry(bytes_.data() + off);
    }

private:
    std::span<std::byte const> bytes_{};
    std::size_t count_ = 0;
};

// ---- tags ----------------------------------------------------------------------------------------------

// What each tag can do (settable / queryable), its limits and its request come from its row in the
// class table, as for the Windows 10 classes.
struct periodic_capture_state_list : named_trace_tag<trace_info_class::periodic_capture_state_list, "periodic_capture_state_list"> {};
struct periodic_capture_state : named_trace_tag<trace_info_class::periodic_capture_state, "periodic_capture_state"> {};
struct session_binary_tracking : named_trace_tag<trace_info_class::provider_binary_tracking, "session_binary_tracking"> {};
struct max_loggers : named_trace_tag<trace_info_class::max_loggers_query, "max_loggers"> {};
struct lbr_configuration : named_trace_tag<trace_info_class::lbr_configuration, "lbr_configuration"> {};
struct lbr_event_list : named_trace_tag<trace_info_class::lbr_event_list, "lbr_event_list"> {};
struct max_pmc_counters : named_trace_tag<trace_info_class::max_pmc_counter_query, "max_pmc_counters"> {};
struct stream_count : named_trace_tag<trace_info_class::stream_count, "stream_count"> {};
struct stack_caching : named_trace_tag<trace_info_class::stack_caching, "stack_caching"> {};
struct pmc_counter_owners : named_trace_tag<trace_info_class::pmc_counter_owners, "pmc_counter_owners"> {};
struct unified_stack_caching : named_trace_tag<trace_info_class::unified_stack_caching, "unified_stack_caching"> {};
struct pmc_session_information : named_trace_tag<trace_info_class::pmc_session_information, "pmc_session_information"> {};
struct context_register : named_trace_tag<trace_info_class::context_register, "context_register"> {};

// ---- the requests, sent (the row's request kind, request/current_windows.hpp's encoders) -----------------

namespace detail {

/// A typed call's outcome: a kernel without the class (STATUS_NOT_IMPLEMENTED for a system class,
/// STATUS_INVALID_DEVICE_REQUEST for an NtTraceControl code) becomes missing_class_error; every other
/// refusal is reported as for the Windows 10 classes (kernel_refused).
template <class C, bool Query = false>
std::error_code current_code(outcome o) noexcept {
    if (o.ok()) [[likely]] return {};
    if (o.broken == rule::ok && (o.status == ntstatus::not_implemented || o.status == ntstatus::invalid_device_request))
        return failed(missing_class_error(C::info_class));
    return to_error_code<C, Query>(o);
}
/// The same for a query: its refusals are described as query<C>, not set<C>.
template <class C>
std::error_code query_code(outcome o) noexcept {
    return current_code<C, true>(o);
}

/// TRACE_STACK_CACHING_INFO for class 24 or 26: the values inside the kernel's clamps, then the request.
template <class C, kernel K>
std::error_code set_stack_cache(K& k, session_handle session, stack_cache_size size, stack_cache_buckets buckets) noexcept {
    if (size.bytes < stack_cache_size_bounds.min || size.bytes > stack_cache_size_bounds.max) [[unlikely]]
        return fail(rule::stack_cache_out_of_bounds,
                    "set<{name}>: a cache of {value} bytes is outside the kernel's [{low}, {high}] (3 to 50 MiB); pass "
                    "a size in range, or stack_cache_size{stack_cache_size_bounds.clamp(bytes)} to accept the clamp",
                    C::name, size.bytes, stack_cache_size_bounds.min, stack_cache_size_bounds.max);
    if (!stack_cache_bucket_bounds.contains(buckets.count)) [[unlikely]]
        return fail(rule::stack_cache_out_of_bounds,
                    "set<{name}>: {value} buckets is outside the kernel's [{low}, {high}]; pass a count in range, or "
                    "stack_cache_buckets{stack_cache_bucket_bounds.clamp(n)} to accept the clamp",
                    C::name, buckets.count, stack_cache_bucket_bounds.min, stack_cache_bucket_bounds.max);
    return current_code<C>(send_stack_caching(k, C::row.set.kernel_code, session.value, 1,
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
        return current_code<lbr_configuration>(send_lbr_configuration(k, session.value, options.flags));
    }
};

template <>
struct setter<lbr_event_list> {
    template <kernel K, class R>
        requires hook_range<R>
    static std::error_code apply(K& k, session_handle session, R const& hooks) noexcept {
        if constexpr (extent_of<R> != std::dynamic_extent)
            static_assert(extent_of<R> <= limits::max_lbr_events,
                          "etwctl::set<lbr_event_list>: at most 4 events (TRACE_LBR_MAXIMUM_EVENTS)");
        std::size_t const n = std::ranges::size(hooks);
        if (rule const r = check_list_count<lbr_event_list>(n); r != rule::ok) return failed(make_error_code(r));
        constexpr direction_rules const& d = lbr_event_list::row.set; // ULONG hook ids, as a stack-walk list
        return current_code<lbr_event_list>(
            send_hook_list<d.max_count>(k, d.kernel_code, session.value, std::ranges::data(hooks), n));
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
        if (rule const r = check_list_count<context_register>(n); r != rule::ok) return failed(make_error_code(r));
        outcome const o = send_context_register(k, session.value, context_registers::both, std::ranges::data(hooks), n, true);
        if constexpr (event_range<R>)
            if (o.broken == rule::event_guid_not_kernel_group) [[unlikely]]
                note_unknown_group<context_register>(first_unknown_group(std::ranges::data(hooks), n));
        return current_code<context_register>(o);
    }
};

template <>
struct setter<session_binary_tracking> {
    template <kernel K>
    static std::error_code apply(K& k, session_handle session, bool enable) noexcept {
        return current_code<session_binary_tracking>(send_binary_tracking(k, session.value, enable));
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
        if (rule const r = check_list_count<periodic_capture_state_list>(n); r != rule::ok) return failed(make_error_code(r));
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
        return current_code<periodic_capture_state_list>(
            send_periodic_capture(k, session.value, frequency.seconds, std::ranges::data(providers), n));
    }
    /// Clears the session's periodic capture state (the SDK's NULL buffer).
    template <kernel K>
    static std::error_code apply(K& k, session_handle session) noexcept {
        return current_code<periodic_capture_state_list>(send_periodic_capture(k, session.value, 0, nullptr, 0));
    }
};

/// A ULONG answer of the row's NtTraceControl query.
template <class C, kernel K>
result<std::uint32_t> query_ulong(K& k, void const* in, std::uint32_t in_length) noexcept {
    std::uint32_t value = 0;
    std::size_t returned = 0;
    if (auto const ec = query_code<C>(query_control(k, C::row.query.kernel_code, in, in_length, &value, sizeof value, returned)))
        return ec;
    if (returned < sizeof value) return rule::kernel_reply_malformed;
    return value;
}

template <>
struct querier<periodic_capture_state> {
    /// No kernel call: the limits the kernel enforces (classes/info_classes.hpp's row, docs/choices.md).
    template <kernel K>
    static result<periodic_capture_limits> apply(K&) noexcept {
        return periodic_capture_limits{};
    }
};

template <>
struct querier<max_loggers> {
    template <kernel K>
    static result<std::uint32_t> apply(K& k) noexcept {
        return query_ulong<max_loggers>(k, nullptr, 0);
    }
};

template <>
struct querier<max_pmc_counters> {
    template <kernel K>
    static result<std::uint32_t> apply(K& k) noexcept {
        return query_ulong<max_pmc_counters>(k, nullptr, 0);
    }
};

template <>
struct querier<stream_count> {
    template <kernel K>
    static result<std::uint32_t> apply(K& k, session_handle session) noexcept {
        auto const in = stream_count_input(session.value);
        return query_ulong<stream_count>(k, &in, sizeof in);
    }
};

template <>
struct querier<pmc_counter_owners> {
    /// storage: at least 8 + 12 x query<max_pmc_counters> bytes (pmc_owner_buffer<> holds 16 counters).
    template <kernel K>
    static result<pmc_owner_view> apply(K& k, std::span<std::byte> storage, std::uint32_t processor = 0,
                                        std::uint32_t* required_size = nullptr) noexcept {
        if (storage.size() < pmc_owners_head_size) return rule::kernel_reply_malformed;
        std::memset(storage.data(), 0, storage.size());
        std::memcpy(storage.data(), &processor, 4);
        auto const length = kernel_length(storage.size());
        std::size_t returned = 0;
        auto const ec = query_code<pmc_counter_owners>(
            query_control(k, pmc_counter_owners::row.query.kernel_code, storage.data(), length, storage.data(), length, returned));
        if (required_size) *required_size = static_cast<std::uint32_t>(returned);
        if (ec) return ec;
        pmc_owner_view v;
        if (rule const r = pmc_owner_view::parse(storage.first(returned), v); r != rule::ok) return r;
        return v;
    }
};

template <>
struct querier<pmc_session_information> {
    template <kernel K>
    static result<pmc_session_view> apply(K& k, std::span<std::byte> storage, std::uint32_t* required_size = nullptr) noexcept {
        std::size_t returned = 0;
        auto const ec = query_code<pmc_session_information>(
            query_control(k, pmc_session_information::row.query.kernel_code, nullptr, 0,
                          storage.empty() ? nullptr : storage.data(), storage.size(), returned));
        if (required_size) *required_size = static_cast<std::uint32_t>(returned);
        if (ec) return ec;
        pmc_session_view v;
        if (rule const r = pmc_session_view::parse(storage.first(returned), v); r != rule::ok) return r;
        return v;
    }
};

} // namespace detail

ETWCTL_END_NAMESPACE
