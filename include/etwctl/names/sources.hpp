// SPDX-License-Identifier: MIT
// etwctl/names/sources.hpp - names of the profile sources (KPROFILE_SOURCE) and the timer's
// documented interval bounds, with a compile-time checked timer interval:
//
//   constexpr etwctl::profile_interval iv = etwctl::timer_interval<10000>;   // 1 ms
//   etwctl::timer_interval<100>   -> does not compile: outside 1221..1000000
//
// Names: 0x00..0x18 are KPROFILE_SOURCE (wdm.h / phnt / GC, identical). Each has the short name
// `tracelog -profilesources` prints ("Timer", "TotalIssues", ...: the KPROFILE name without
// "Profile"; ProfileTime is "Timer") and its KPROFILE name ("ProfileTime"); both are accepted by
// profile_source_by_name (case-insensitive), name_of returns the short one. Sources from 25 up are
// processor-specific: the HAL decides what they are. The names listed for them are what one Intel
// machine reports (`tracelog -profilesources`; KPROFILE_SOURCE in phnt ntkeapi.h / mingw wdm.h) - marked
// hal_dependent; confirm with query<profile_source_list>.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

struct profile_source_name {
    profile_source source;
    detail::table_text name;          ///< short name, as tracelog lists it (a std::string_view)
    detail::table_text kprofile_name; ///< KPROFILE_SOURCE enumerator, "" for processor-specific sources
    bool hal_dependent = false;     ///< processor-specific: the HAL may give this id another meaning
};

// clang-format off
inline constexpr profile_source_name profile_source_table[] = {
    {profile_source::time, "Timer", "ProfileTime"},
    {profile_source::alignment_fixup, "AlignmentFixup", "ProfileAlignmentFixup"},
    {profile_source::total_issues, "TotalIssues", "ProfileTotalIssues"},
    {profile_source::pipeline_dry, "PipelineDry", "ProfilePipelineDry"},
    {profile_source::load_instructions, "LoadInstructions", "ProfileLoadInstructions"},
    {profile_source::pipeline_frozen, "PipelineFrozen", "ProfilePipelineFrozen"},
    {profile_source::branch_instructions, "BranchInstructions", "ProfileBranchInstructions"},
    {profile_source::total_nonissues, "TotalNonissues", "ProfileTotalNonissues"},
    {profile_source::dcache_misses, "DcacheMisses", "ProfileDcacheMisses"},
    {profile_source::icache_misses, "IcacheMisses", "ProfileIcacheMisses"},
    {profile_source::cache_misses, "CacheMisses", "ProfileCacheMisses"},
    {profile_source::branch_mispredictions, "BranchMispredictions", "ProfileBranchMispredictions"},
    {profile_source::store_instructions, "StoreInstructions", "ProfileStoreInstructions"},
    {profile_source::fp_instructions, "FpInstructions", "ProfileFpInstructions"},
    {profile_source::integer_instructions, "IntegerInstructions", "ProfileIntegerInstructions"},
    {profile_source::issue2, "2Issue", "Profile2Issue"},
    {profile_source::issue3, "3Issue", "Profile3Issue"},
    {profile_source::issue4, "4Issue", "Profile4Issue"},
    {profile_source::special_instructions, "SpecialInstructions", "ProfileSpecialInstructions"},
    {profile_source::total_cycles, "TotalCycles", "ProfileTotalCycles"},
    {profile_source::icache_issues, "IcacheIssues", "ProfileIcacheIssues"},
    {profile_source::dcache_accesses, "DcacheAccesses", "ProfileDcacheAccesses"},
    {profile_source::memory_barrier_cycles, "MemoryBarrierCycles", "ProfileMemoryBarrierCycles"},
    {profile_source::load_linked_issues, "LoadLinkedIssues", "ProfileLoadLinkedIssues"},
    {profile_source::maximum, "Maximum", "ProfileMaximum"}, // the enumeration's end marker, not a counter
    // processor-specific (HAL/CPU dependent): one Intel machine's list
    {profile_source{25}, "UnhaltedCoreCycles", "", true},
    {profile_source{26}, "InstructionRetired", "", true},
    {profile_source{27}, "UnhaltedReferenceCycles", "", true},
    {profile_source{28}, "LLCReference", "", true},
    {profile_source{29}, "LLCMisses", "", true},
    {profile_source{30}, "BranchInstructionRetired", "", true},
    {profile_source{31}, "BranchMispredictsRetired", "", true},
    {profile_source{32}, "LbrInserts", "", true},
    {profile_source{33}, "InstructionsRetiredFixed", "", true},
    {profile_source{34}, "UnhaltedCoreCyclesFixed", "", true},
    {profile_source{35}, "UnhaltedReferenceCyclesFixed", "", true},
    {profile_source{36}, "TimerFixed", "", true},
};
// clang-format on

namespace detail {
template <class = void> // a template: clang would otherwise evaluate the whole check in every TU (its test of a parameterless constexpr function)
constexpr bool profile_source_table_well_formed() noexcept {
    constexpr std::size_t n = sizeof(profile_source_table) / sizeof(profile_source_table[0]);
    for (std::size_t i = 0; i < n; ++i) {
        if (static_cast<std::size_t>(profile_source_table[i].source) != i) return false; // dense, in order
        for (std::size_t j = 0; j < i; ++j)
            if (iequals(profile_source_table[i].name, profile_source_table[j].name)) return false;
    }
    return true;
}
} // namespace detail
// The table is checked (well_formed) by tests/tables/test_tables_static.cpp, not here: the O(n^2)
// check would be paid by every translation unit that includes this header.

/// Name (short or KPROFILE form, case-insensitive) -> source.
template <class D = void>
constexpr std::optional<detail::dependent_t<D, profile_source>> profile_source_by_name(std::string_view name) noexcept {
    if (name.empty()) return std::nullopt;
    for (auto const& s : profile_source_table)
        if (detail::iequals(s.name, name) || (!s.kprofile_name.empty() && detail::iequals(s.kprofile_name, name)))
            return s.source;
    return std::nullopt;
}
/// Source -> short name ("Timer", "TotalCycles", ...), "" if unnamed.
constexpr std::string_view name_of(profile_source s) noexcept {
    auto const i = static_cast<std::size_t>(s);
    return i < sizeof(profile_source_table) / sizeof(profile_source_table[0]) ? std::string_view(profile_source_table[i].name)
                                                                             : std::string_view{};
}
/// True for sources whose meaning the HAL decides (above ProfileMaximum).
constexpr bool is_processor_specific(profile_source s) noexcept { return s > profile_source::maximum; }

/// The timer's (ProfileTime's) documented interval: `tracelog -profilesources` reports min 1221
/// (0.1221 ms, about 8.19 kHz), max 1000000 (100 ms), default 10000 (1 ms), in 100 ns units. The
/// authoritative per-machine bounds come from query<profile_source_list> (MinInterval/MaxInterval).
namespace timer {
inline constexpr std::uint32_t min_interval = limits::timer_min_interval;
inline constexpr std::uint32_t max_interval = limits::timer_max_interval;
inline constexpr std::uint32_t default_interval = 10000;
} // namespace timer

namespace diagnostic {
template <std::uint32_t Interval, std::uint32_t Min, std::uint32_t Max>
struct timer_interval_out_of_bounds_100ns_units {
    static_assert(Interval >= Min && Interval <= Max,
                  "etwctl::timer_interval<V>: V (the first template argument above, in 100 ns units) is outside the "
                  "timer's documented bounds 1221..1000000 (0.1221 ms .. 100 ms)");
    static constexpr bool value = true;
};
} // namespace diagnostic

namespace detail {
// A class, so that a failed check prints its one message and nothing after it.
template <std::uint32_t V>
struct timer_interval_impl {
    static_assert(diagnostic::timer_interval_out_of_bounds_100ns_units<V, timer::min_interval, timer::max_interval>::value);
    static constexpr profile_interval value{V};
};
} // namespace detail

/// A timer interval of V x 100 ns, checked against the documented bounds at compile time.
template <std::uint32_t V>
inline constexpr profile_interval timer_interval = detail::timer_interval_impl<V>::value;

// ---- sampling rates: 8_kHz, sampling_rate<8000> ---------------------------------------------------

namespace diagnostic {
/// A rate whose period is not a whole number of the kernel's 100 ns units (the kernel's field is whole).
template <std::uint64_t Hz>
struct sampling_rate_not_whole_100ns_units {
    static_assert(Hz != 0 && 10'000'000 % Hz == 0,
                  "etwctl::sampling_rate<Hz> / _Hz / _kHz: 10000000 / Hz (above) is not a whole number of 100 ns, the "
                  "unit of the timer's interval; pick a rate that divides 10 MHz (8 kHz -> 1250, 4 kHz -> 2500, 1 kHz "
                  "-> 10000) or write timer_interval<N>");
    static constexpr bool value = true;
};
/// A rate outside the timer's documented range (interval 1221..1000000 x 100 ns: 10 Hz to about 8190 Hz).
template <std::uint64_t Hz>
struct sampling_rate_outside_timer_range_10_Hz_to_8190_Hz {
    static_assert(Hz >= 10 && Hz <= 10'000'000 / 1221,
                  "etwctl::sampling_rate<Hz> / _Hz / _kHz: the rate (above, in Hz) is outside the timer's documented "
                  "range: its interval 1221..1000000 x 100 ns is 10 Hz to 8190 Hz");
    static constexpr bool value = true;
};
template <bool Integer>
struct sampling_rate_literal_is_not_an_integer {
    static_assert(Integer, "etwctl::literals, _Hz / _kHz: write a whole number (8_kHz, 4000_Hz)");
    static constexpr bool value = true;
};
} // namespace diagnostic

namespace detail {
template <std::uint64_t Hz>
struct sampling_rate_impl {
    static_assert(diagnostic::sampling_rate_outside_timer_range_10_Hz_to_8190_Hz<Hz>::value);
    static_assert(diagnostic::sampling_rate_not_whole_100ns_units<(Hz >= 10 && Hz <= 10'000'000 / 1221) ? Hz : 1>::value);
    static constexpr profile_interval value{Hz >= 10 && Hz <= 10'000'000 / 1221 ? static_cast<std::uint32_t>(10'000'000 / Hz)
                                                                                : timer::default_interval};
};
} // namespace detail

/// The timer interval of a sampling rate in Hz, exactly: sampling_rate<8000> is timer_interval<1250>.
/// A rate whose period is not whole 100 ns units, or outside the timer's 10 Hz..8190 Hz, does not compile.
template <std::uint64_t Hz>
inline constexpr profile_interval sampling_rate = detail::sampling_rate_impl<Hz>::value;

namespace literals {
/// 4000_Hz: the timer interval of a sampling rate (sampling_rate<4000>, 2500 x 100 ns).
template <char... C>
constexpr profile_interval operator""_Hz() noexcept {
    constexpr auto v = detail::parse_integer_literal<C...>();
    static_assert(diagnostic::sampling_rate_literal_is_not_an_integer<!v.not_integer && !v.overflow>::value);
    constexpr std::uint64_t hz = v.not_integer || v.overflow ? 1000 : v.value;
    return sampling_rate<hz>;
}
/// 8_kHz: the timer interval of a sampling rate in kHz (sampling_rate<8000>, 1250 x 100 ns).
template <char... C>
constexpr profile_interval operator""_kHz() noexcept {
    constexpr auto v = detail::parse_integer_literal<C...>();
    static_assert(diagnostic::sampling_rate_literal_is_not_an_integer<!v.not_integer && !v.overflow && v.value <= 1'000'000>::value);
    constexpr std::uint64_t hz = (v.not_integer || v.overflow || v.value > 1'000'000) ? 1000 : v.value * 1000;
    return sampling_rate<hz>;
}
} // namespace literals

/// Run-time counterpart: true if v lies within the timer's documented bounds.
constexpr bool within_timer_bounds(profile_interval v) noexcept {
    return v.count() >= timer::min_interval && v.count() <= timer::max_interval;
}

ETWCTL_END_NAMESPACE
