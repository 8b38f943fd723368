// SPDX-License-Identifier: MIT
// etwctl/types.hpp - the strong types of the API and the user-mode structures that are
// layout-compatible with the SDK's (CLASSIC_EVENT_ID, TRACE_PROFILE_INTERVAL, TRACE_VERSION_INFO,
// PROFILE_SOURCE_INFO), and the values of the later classes (stack-cache sizes, LBR options, capture frequency). The Windows build static_asserts sizes and offsets against the SDK headers.
#pragma once

#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ratio>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"

ETWCTL_BEGIN_NAMESPACE

/// ULONG: a 32-bit unsigned integer (unsigned long on Windows, which is not std::uint32_t). The drop-in
/// functions take a ULONG* / PULONG as the SDK spells it.
template <class U>
concept ulong_type = std::unsigned_integral<U> && sizeof(U) == 4;

/// Limits the kernel and SECHOST enforce (phnt ntwmi.h / ntexapi.h: ETW_MAX_STACKWALK_FILTER,
/// ETW_MAX_PROFILING_SOURCES, ETW_MAX_PMC_EVENTS, ETW_MAX_PMC_COUNTERS; MAXLOGGERS).
namespace limits {
inline constexpr std::size_t max_stack_tracing_events = 256;
inline constexpr std::size_t max_profile_sources = 4;
inline constexpr std::size_t max_pmc_events = 4;
inline constexpr std::size_t max_pmc_counters = 4;
inline constexpr std::size_t max_group_masks = 8;
inline constexpr std::uint16_t max_loggers = 64;
inline constexpr std::uint16_t kernel_logger_id = 0xFFFF;
/// etwctl's own bound for TraceSetDisallowList: the kernel request is built on the stack (no heap).
inline constexpr std::size_t max_disallow_list = 256;
// The classes later releases added (SDK evntrace.h; kernel listings for the stack-cache clamps).
inline constexpr std::size_t max_periodic_capture_providers = 16;
/// The shortest periodic capture frequency the kernel accepts: NtTraceControl (EtwUpdatePeriodicCaptureState)
/// refuses 1-4 s with STATUS_INVALID_PARAMETER (public decompiled listings, two builds); 0 means off.
inline constexpr std::uint32_t min_periodic_capture_seconds = 5;
inline constexpr std::size_t max_lbr_events = 4;               ///< TRACE_LBR_MAXIMUM_EVENTS
inline constexpr std::size_t max_context_register_events = 8; ///< ETW_MAX_CONTEXT_REGISTER_EVENTS
inline constexpr std::uint32_t stack_cache_min_bytes = 3U * 1024 * 1024;
inline constexpr std::uint32_t stack_cache_max_bytes = 50U * 1024 * 1024;
inline constexpr std::uint32_t stack_cache_min_buckets = 256;
inline constexpr std::uint32_t stack_cache_max_buckets = 4096;
} // namespace limits

/// The id of a logger (trace session): the low 16 bits of a TRACEHANDLE. 0xFFFF = NT Kernel Logger.
struct logger_id {
    std::uint16_t value = 0;
    constexpr bool is_kernel_logger() const noexcept { return value == limits::kernel_logger_id; }
    friend constexpr bool operator==(logger_id, logger_id) noexcept = default;
};
inline constexpr logger_id kernel_logger{limits::kernel_logger_id};

/// EVENT_DESCRIPTOR (SDK evntprov.h): an event's id, version, channel, level, opcode, task and keywords, in
/// the SDK's layout (pinned in tests/windows). One type for the EVENT_HEADER a consumer receives
/// (kernel/consumer_concept.hpp) and the descriptor the trace reader reads from a record (trace/format.hpp).
struct event_descriptor {
    std::uint16_t id = 0;
    std::uint8_t version = 0;
    std::uint8_t channel = 0;
    std::uint8_t level = 0;
    std::uint8_t opcode = 0;
    std::uint16_t task = 0;
    std::uint64_t keyword = 0;
    friend constexpr bool operator==(event_descriptor const&, event_descriptor const&) noexcept = default;
};

/// A trace session handle (TRACEHANDLE) as returned by StartTrace. Converts from the SDK's TRACEHANDLE.
struct session_handle {
    std::uint64_t value = 0;
    constexpr session_handle() noexcept = default;
    constexpr session_handle(std::uint64_t v) noexcept : value(v) {} // NOLINT: TRACEHANDLE interop
    constexpr logger_id logger() const noexcept { return {static_cast<std::uint16_t>(value & 0xFFFFU)}; }
    friend constexpr bool operator==(session_handle, session_handle) noexcept = default;
};

/// A provider registration handle (REGHANDLE), for the EventSetInformation classes.
struct registration_handle {
    std::uint64_t value = 0;
    constexpr registration_handle() noexcept = default;
    constexpr registration_handle(std::uint64_t v) noexcept : value(v) {} // NOLINT: REGHANDLE interop
    friend constexpr bool operator==(registration_handle, registration_handle) noexcept = default;
};

/// A 16-bit kernel hook id: (group << 8) | type. The kernel receives it widened to 32 bits.
struct hook_id {
    std::uint16_t value = 0;
    constexpr hook_id() noexcept = default;
    constexpr explicit hook_id(std::uint16_t v) noexcept : value(v) {}
    constexpr hook_id(std::uint8_t group, std::uint8_t type) noexcept
        : value(static_cast<std::uint16_t>((group << 8) | type)) {}
    constexpr std::uint8_t group() const noexcept { return static_cast<std::uint8_t>(value >> 8); }
    constexpr std::uint8_t type() const noexcept { return static_cast<std::uint8_t>(value & 0xFFU); }
    friend constexpr bool operator==(hook_id, hook_id) noexcept = default;
    friend constexpr auto operator<=>(hook_id, hook_id) noexcept = default;
};

/// CLASSIC_EVENT_ID: { GUID EventGuid; UCHAR Type; UCHAR Reserved[7]; }, 24 bytes.
struct classic_event_id {
    guid event_guid{};
    std::uint8_t type = 0;
    std::uint8_t reserved[7] = {};
    friend constexpr bool operator==(classic_event_id const& a, classic_event_id const& b) noexcept {
        return a.event_guid == b.event_guid && a.type == b.type;
    }
};
static_assert(sizeof(classic_event_id) == 24 && offsetof(classic_event_id, type) == 16);

/// etwctl's classic_event_id, or the SDK's CLASSIC_EVENT_ID (EventGuid, Type): both pass without casts.
template <class E>
concept classic_event_id_like = std::same_as<E, classic_event_id> || requires(E const& e) {
    { e.EventGuid } -> guid_like;
    { e.Type } -> std::convertible_to<std::uint8_t>;
};

template <classic_event_id_like E>
constexpr guid event_guid_of(E const& e) noexcept {
    if constexpr (std::same_as<E, classic_event_id>) return e.event_guid;
    else return guid(e.EventGuid);
}
template <classic_event_id_like E>
constexpr std::uint8_t event_type_of(E const& e) noexcept {
    if constexpr (std::same_as<E, classic_event_id>) return e.type;
    else return static_cast<std::uint8_t>(e.Type);
}

/// KPROFILE_SOURCE. 0x00..0x18 are named (names/sources.hpp has the names); values above
/// ProfileMaximum are processor-specific (HAL/CPU dependent) and are just as valid here.
enum class profile_source : std::uint32_t {
    time = 0x00,
    alignment_fixup = 0x01,
    total_issues = 0x02,
    pipeline_dry = 0x03,
    load_instructions = 0x04,
    pipeline_frozen = 0x05,
    branch_instructions = 0x06,
    total_nonissues = 0x07,
    dcache_misses = 0x08,
    icache_misses = 0x09,
    cache_misses = 0x0A,
    branch_mispredictions = 0x0B,
    store_instructions = 0x0C,
    fp_instructions = 0x0D,
    integer_instructions = 0x0E,
    issue2 = 0x0F,
    issue3 = 0x10,
    issue4 = 0x11,
    special_instructions = 0x12,
    total_cycles = 0x13,
    icache_issues = 0x14,
    dcache_accesses = 0x15,
    memory_barrier_cycles = 0x16,
    load_linked_issues = 0x17,
    maximum = 0x18,
};

/// The sampled-profile interval, in the kernel's unit of 100 ns. For hardware-counter sources the
/// kernel reads the same field as an event count (a sample every N events); count() is that N.
using profile_interval = std::chrono::duration<std::uint32_t, std::ratio<1, 10'000'000>>;

/// The hardware-counter interval: a sample every N events. Not a duration, and nothing converts a
/// duration into it (counter_interval{1ms} does not compile): the kernel reads the same ULONG as 100 ns
/// units for the timer and as an event count for a counter, and mixing them up sampled 10,000 events
/// where 1 ms was meant. Literal: 65536_events (etwctl::literals).
struct counter_interval {
    std::uint32_t events = 0;
    constexpr counter_interval() noexcept = default;
    constexpr explicit counter_interval(std::uint32_t n) noexcept : events(n) {}
    template <class Rep, class Period>
    counter_interval(std::chrono::duration<Rep, Period>) = delete; // a time is not an event count
    constexpr std::uint32_t count() const noexcept { return events; }
    friend constexpr bool operator==(counter_interval, counter_interval) noexcept = default;
    friend constexpr auto operator<=>(counter_interval, counter_interval) noexcept = default;
};

namespace limits {
/// The timer's (ProfileTime's) interval bounds in 100 ns units, as `tracelog -profilesources` and the
/// profile-source list report them: 1221 (0.1221 ms, about 8.19 kHz) to 1000000 (100 ms).
inline constexpr std::uint32_t timer_min_interval = 1221;
inline constexpr std::uint32_t timer_max_interval = 1000000;
} // namespace limits

/// A source's [MinInterval, MaxInterval] (the profile-source list's), in the source's unit.
struct interval_bounds {
    std::uint32_t min = 0;
    std::uint32_t max = 0xFFFFFFFFU;
    constexpr bool contains(std::uint32_t v) const noexcept { return v >= min && v <= max; }
    /// The value the kernel would use: v clamped to the bounds (the explicit way to accept clamping).
    constexpr std::uint32_t clamp(std::uint32_t v) const noexcept { return v < min ? min : v > max ? max : v; }
    constexpr counter_interval clamp(counter_interval v) const noexcept { return counter_interval{clamp(v.events)}; }
    constexpr profile_interval clamp(profile_interval v) const noexcept { return profile_interval{clamp(v.count())}; }
};
/// The timer's documented bounds.
inline constexpr interval_bounds timer_bounds{limits::timer_min_interval, limits::timer_max_interval};

namespace detail {
/// The value of an integer literal's characters (decimal, 0x hex, 0b binary, leading-0 octal, digit
/// separators), for the literal operator templates below; `overflow` when it does not fit 64 bits.
struct literal_value {
    std::uint64_t value = 0;
    bool overflow = false;
    bool not_integer = false; ///< a character that is no digit of the base ('.', 'e': a floating literal)
};
template <char... C>
consteval literal_value parse_integer_literal() noexcept {
    constexpr char text[] = {C..., '\0'};
    std::size_t i = 0;
    std::uint64_t base = 10;
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) base = 16, i = 2;
    else if (text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) base = 2, i = 2;
    else if (text[0] == '0' && text[1] != '\0') base = 8, i = 1;
    literal_value r;
    for (; text[i] != '\0'; ++i) {
        char const c = text[i];
        if (c == '\'') continue;
        std::uint64_t const digit = c >= '0' && c <= '9'   ? static_cast<std::uint64_t>(c - '0')
                                    : c >= 'a' && c <= 'f' ? static_cast<std::uint64_t>(c - 'a' + 10)
                                    : c >= 'A' && c <= 'F' ? static_cast<std::uint64_t>(c - 'A' + 10)
                                                           : 99;
        if (digit >= base) {
            r.not_integer = true;
            continue;
        }
        if (r.value > (~std::uint64_t{0} - digit) / base) r.overflow = true;
        r.value = r.value * base + digit;
    }
    return r;
}
} // namespace detail

namespace diagnostic {
/// Named so that the compiler's message shows the unit; a failed check prints this one message.
template <bool Fits>
struct events_literal_exceeds_32_bits {
    static_assert(Fits, "etwctl::literals, _events: the count does not fit the kernel's 32-bit interval "
                        "(at most 4294967295 events)");
    static constexpr bool value = true;
};
template <bool Fits>
struct interval_100ns_literal_exceeds_32_bits {
    static_assert(Fits, "etwctl::literals, _100ns: the interval does not fit the kernel's 32-bit field "
                        "(at most 4294967295 x 100 ns); the timer accepts at most 1000000 (100 ms)");
    static constexpr bool value = true;
};
} // namespace diagnostic

namespace literals {
/// 65536_events: a hardware-counter interval. A count above 2^32 - 1 does not compile (it used to wrap).
template <char... C>
constexpr counter_interval operator""_events() noexcept {
    constexpr auto v = detail::parse_integer_literal<C...>();
    static_assert(diagnostic::events_literal_exceeds_32_bits<!v.overflow && !v.not_integer && v.value <= 0xFFFFFFFFU>::value);
    return counter_interval{static_cast<std::uint32_t>(v.value)};
}
/// 1250_100ns: a timer interval in the kernel's 100 ns units (std::chrono literals work too: 125us).
/// A value above 2^32 - 1 does not compile (it used to wrap).
template <char... C>
constexpr profile_interval operator""_100ns() noexcept {
    constexpr auto v = detail::parse_integer_literal<C...>();
    static_assert(diagnostic::interval_100ns_literal_exceeds_32_bits<!v.overflow && !v.not_integer && v.value <= 0xFFFFFFFFU>::value);
    return profile_interval{static_cast<std::uint32_t>(v.value)};
}
} // namespace literals

/// TRACE_PROFILE_INTERVAL: { ULONG Source; ULONG Interval; }.
struct trace_profile_interval {
    std::uint32_t source = 0;
    std::uint32_t interval = 0;
};
static_assert(sizeof(trace_profile_interval) == 8);

/// TRACE_VERSION_INFO: { UINT EtwTraceProcessingVersion; UINT Reserved; }.
struct trace_version_info {
    std::uint32_t etw_trace_processing_version = 0;
    std::uint32_t reserved = 0;
};
static_assert(sizeof(trace_version_info) == 8);

/// The fixed part of PROFILE_SOURCE_INFO; the NUL-terminated UTF-16 Description follows at 0x18.
struct profile_source_info_header {
    std::uint32_t next_entry_offset = 0;
    std::uint32_t source = 0;
    std::uint32_t min_interval = 0;
    std::uint32_t max_interval = 0;
    std::uint64_t reserved = 0;
};
static_assert(sizeof(profile_source_info_header) == 0x18);
inline constexpr std::size_t profile_source_info_description_offset = 0x18;

// ---- the values of the classes later releases added (16-28; SDK evntrace.h) --------------------------

/// TRACE_LBR_CONFIGURATION flags (SDK evntrace.h).
namespace lbr {
inline constexpr std::uint32_t none = 0x0;
inline constexpr std::uint32_t exclude_kernel = 0x1;
inline constexpr std::uint32_t exclude_user = 0x2;
inline constexpr std::uint32_t exclude_jcc = 0x4;
inline constexpr std::uint32_t exclude_near_rel_call = 0x8;
inline constexpr std::uint32_t exclude_near_ind_call = 0x10;
inline constexpr std::uint32_t exclude_near_ret = 0x20;
inline constexpr std::uint32_t exclude_near_ind_jmp = 0x40;
inline constexpr std::uint32_t exclude_near_rel_jmp = 0x80;
inline constexpr std::uint32_t exclude_far_branch = 0x100;
inline constexpr std::uint32_t callstack_enable = 0x200;
inline constexpr std::uint32_t sampled = 0x400; ///< ARM64 only
inline constexpr std::uint32_t all = 0x7FF;
inline constexpr std::uint8_t event_opcode = 0x20; ///< TRACE_LBR_EVENT_OPCODE: the LBR records' opcode
} // namespace lbr

/// TRACE_STACK_CACHING_INFO CacheSize, in bytes. The kernel clamps it to 3..50 MiB. Held in 64 bits so
/// that no size wraps on its way to the bounds check (mebibytes(4099) is 4099 MiB, refused; it used to
/// become 3 MiB in 32 bits and pass).
struct stack_cache_size {
    std::uint64_t bytes = 0;
    static constexpr stack_cache_size mebibytes(std::uint32_t n) noexcept { return {std::uint64_t{n} * 1024U * 1024U}; }
    /// "The kernel's default": CacheSize 0, as PerfView sends on every kernel collection. The kernel's
    /// handler clamps CacheSize to 3..50 MiB, so 0 becomes its minimum, 3 MiB (public decompiled listings
    /// of EtwpEnableStackCaching). set<stack_caching> sends 0 for it, the one value outside the bounds it
    /// lets through, because the caller asked for whatever the kernel picks.
    static constexpr stack_cache_size kernel_default() noexcept { return {0}; }
    constexpr bool is_kernel_default() const noexcept { return bytes == 0; }
    friend constexpr bool operator==(stack_cache_size, stack_cache_size) noexcept = default;
};
/// TRACE_STACK_CACHING_INFO BucketCount. The kernel clamps it to 256..4096.
struct stack_cache_buckets {
    std::uint32_t count = 0;
    /// BucketCount 0 (PerfView's): the kernel raises it to its minimum, 256 buckets.
    static constexpr stack_cache_buckets kernel_default() noexcept { return {0}; }
    constexpr bool is_kernel_default() const noexcept { return count == 0; }
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

ETWCTL_END_NAMESPACE
