// SPDX-License-Identifier: MIT
// etwctl/group_mask.hpp - PERFINFO_GROUPMASK (8 x 32-bit masks) as a value type with set operations.
//
// A PERF_* flag encodes its mask index in bits 29-31 and its bits in 0-28 (phnt ntwmi.h PERF_MASK_INDEX):
// PERF_PROFILE = 0x20000002 is bit 0x2 of Masks[1]. Combining flags therefore means setting bits in the
// right mask, never OR-ing the 32-bit values (0x20000002 | 0x40000040 would be nonsense).
// Masks[0] is the documented EnableFlags word; some of its bits are aliases the kernel translates into
// extended bits (EVENT_TRACE_FLAG_CSWITCH 0x10 -> PERF_CONTEXT_SWITCH); normalized() applies them.
//
// Equality is by meaning: `a == b` compares canonical() forms, so a mask read back from the kernel
// (which repeats each extended bit as its Masks[0] alias "for compatibility") equals the mask that was
// set, however either spelt its Masks[0] aliases. The stored bits are kept as given (the kernel
// receives exactly what was set); identical(a, b) compares them bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "etwctl/config.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// One PERF_* value: mask index (bits 29-31) + group bits (0-28).
struct perf_flag {
    std::uint32_t value = 0;
    static constexpr std::uint32_t index_mask = 0xE0000000U;
    static constexpr std::uint32_t bits_mask = ~index_mask;

    constexpr perf_flag() noexcept = default;
    constexpr explicit perf_flag(std::uint32_t v) noexcept : value(v) {}
    [[nodiscard]] constexpr std::size_t index() const noexcept { return (value & index_mask) >> 29; }
    [[nodiscard]] constexpr std::uint32_t bits() const noexcept { return value & bits_mask; }
    friend constexpr bool operator==(perf_flag, perf_flag) noexcept = default;
};

/// Masks[0] alias bits and the extended flag the kernel translates each into (phnt ntwmi.h; Geoff Chappell's
/// https://www.geoffchappell.com/studies/windows/km/ntoskrnl/inc/api/ntwmi/perfinfo_groupmask.htm).
struct enable_flag_alias {
    std::uint32_t enable_flag; ///< EVENT_TRACE_FLAG_* bit in Masks[0]
    perf_flag extended;        ///< the PERF_* flag it stands for
};
inline constexpr enable_flag_alias enable_flag_aliases[] = {
    {0x00000010U, perf_flag{0x20000004U}}, // CSWITCH       -> PERF_CONTEXT_SWITCH
    {0x00000020U, perf_flag{0x20000080U}}, // DPC           -> PERF_DPC
    {0x00000040U, perf_flag{0x20004000U}}, // INTERRUPT     -> PERF_INTERRUPT
    {0x00000080U, perf_flag{0x40000040U}}, // SYSTEMCALL    -> PERF_SYSCALL
    {0x00000800U, perf_flag{0x20000200U}}, // DISPATCHER    -> PERF_DISPATCHER
    {0x00004000U, perf_flag{0x20008000U}}, // VIRTUAL_ALLOC -> PERF_VIRTUAL_ALLOC
    {0x00800000U, perf_flag{0x20000010U}}, // DRIVER        -> PERF_DRIVERS
    {0x01000000U, perf_flag{0x20000002U}}, // PROFILE       -> PERF_PROFILE
};

struct group_mask {
    std::uint32_t masks[limits::max_group_masks] = {};

    constexpr group_mask() noexcept = default;
    constexpr explicit group_mask(perf_flag f) noexcept { set(f); }

    /// The documented EnableFlags word as Masks[0].
    [[nodiscard]] static constexpr group_mask from_enable_flags(std::uint32_t enable_flags) noexcept {
        group_mask m;
        m.masks[0] = enable_flags;
        return m;
    }

    constexpr group_mask& set(perf_flag f) noexcept {
        masks[f.index()] |= f.bits();
        return *this;
    }
    constexpr group_mask& clear(perf_flag f) noexcept {
        masks[f.index()] &= ~f.bits();
        return *this;
    }
    /// True if every bit of f is set in its mask.
    [[nodiscard]] constexpr bool contains(perf_flag f) const noexcept { return (masks[f.index()] & f.bits()) == f.bits(); }
    [[nodiscard]] constexpr bool empty() const noexcept {
        for (auto m : masks)
            if (m) return false;
        return true;
    }

    /// The kernel's view: each Masks[0] alias also sets its extended flag, and each extended flag that
    /// has an alias also shows in Masks[0] (as the kernel reports it back "for compatibility").
    [[nodiscard]] constexpr group_mask normalized() const noexcept {
        group_mask m = *this;
        for (auto const& a : enable_flag_aliases) {
            if (masks[0] & a.enable_flag) m.set(a.extended);
            if (contains(a.extended)) m.masks[0] |= a.enable_flag;
        }
        return m;
    }
    /// One spelling per group: each Masks[0] alias becomes its extended flag (what a mask read back
    /// from the kernel means, without the bits it repeats "for compatibility").
    [[nodiscard]] constexpr group_mask canonical() const noexcept {
        group_mask m = *this;
        for (auto const& a : enable_flag_aliases)
            if (masks[0] & a.enable_flag) {
                m.set(a.extended);
                m.masks[0] &= ~a.enable_flag;
            }
        return m;
    }
    /// True if f is on in the kernel's view (directly or through its Masks[0] alias).
    [[nodiscard]] constexpr bool enables(perf_flag f) const noexcept { return normalized().contains(f); }

    friend constexpr group_mask operator|(group_mask a, group_mask const& b) noexcept {
        for (std::size_t i = 0; i < limits::max_group_masks; ++i) a.masks[i] |= b.masks[i];
        return a;
    }
    friend constexpr group_mask operator&(group_mask a, group_mask const& b) noexcept {
        for (std::size_t i = 0; i < limits::max_group_masks; ++i) a.masks[i] &= b.masks[i];
        return a;
    }
    /// Set difference.
    friend constexpr group_mask operator-(group_mask a, group_mask const& b) noexcept {
        for (std::size_t i = 0; i < limits::max_group_masks; ++i) a.masks[i] &= ~b.masks[i];
        return a;
    }
    friend constexpr group_mask operator|(group_mask a, perf_flag f) noexcept { return a.set(f); }
    constexpr group_mask& operator|=(group_mask const& b) noexcept { return *this = *this | b; }
    /// Equal when they enable the same groups: the canonical() forms are compared, so a Masks[0] alias
    /// and its extended flag are the same flag (query after set compares equal to what was set).
    friend constexpr bool operator==(group_mask const& a, group_mask const& b) noexcept {
        return identical(a.canonical(), b.canonical());
    }
    /// Bit-for-bit equality of the eight masks (what the kernel receives), aliases not normalised.
    [[nodiscard]] friend constexpr bool identical(group_mask const& a, group_mask const& b) noexcept {
        for (std::size_t i = 0; i < limits::max_group_masks; ++i)
            if (a.masks[i] != b.masks[i]) return false;
        return true;
    }
};
static_assert(sizeof(group_mask) == 32, "etwctl::group_mask must be layout-compatible with PERFINFO_GROUPMASK");

ETWCTL_END_NAMESPACE
