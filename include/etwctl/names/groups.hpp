// SPDX-License-Identifier: MIT
// etwctl/names/groups.hpp - the 31 kernel event groups and their classic GUIDs (the high byte of a
// hook id), with a constant-time GUID -> group lookup.
//
// SECHOST turns a CLASSIC_EVENT_ID into a hook id as (group(EventGuid) << 8) | Type and skips GUIDs
// that are not in this table. Source: Geoff Chappell's hook-id page (groups from SECHOST symbols),
// https://www.geoffchappell.com/studies/windows/km/ntoskrnl/inc/api/ntwmi/wmi_trace_packet/hookid.htm; GUID values also in
// phnt ntwmi.h and the SDK's evntrace.h.
#pragma once

#include <cstddef>
#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

struct kernel_group {
    std::uint8_t group;      ///< the hook id's high byte (EVENT_TRACE_GROUP_* >> 8)
    detail::table_text name;      ///< EVENT_TRACE_GROUP_* suffix (a std::string_view)
    detail::table_text guid_name;
    guid event_guid;
};

// clang-format off
inline constexpr kernel_group kernel_group_table[] = {
    {0x00, "HEADER",      "EventTraceGuid",       guid::from_string("68fdd900-4a3e-11d1-84f4-0000f80464e3")},
    {0x01, "IO",          "DiskIoGuid",           guid::from_string("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c")},
    {0x02, "MEMORY",      "PageFaultGuid",        guid::from_string("3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c")},
    {0x03, "PROCESS",     "ProcessGuid",          guid::from_string("3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c")},
    {0x04, "FILE",        "FileIoGuid",           guid::from_string("90cbdc39-4a3e-11d1-84f4-0000f80464e3")},
    {0x05, "THREAD",      "ThreadGuid",           guid::from_string("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c")},
    {0x06, "TCPIP",       "TcpIpGuid",            guid::from_string("9a280ac0-c8e0-11d1-84e2-00c04fb998a2")},
    {0x07, "JOB",         "JobGuid",              guid::from_string("3282fc76-feed-498e-8aa7-e70f459d430e")},
    {0x08, "UDPIP",       "UdpIpGuid",            guid::from_string("bf3a50c5-a9c9-4988-a005-2df0b7c80f80")},
    {0x09, "REGISTRY",    "RegistryGuid",         guid::from_string("ae53722e-c863-11d2-8659-00c04fa321a1")},
    {0x0A, "DBGPRINT",    "DbgPrintGuid",         guid::from_string("13976d09-a327-438c-950b-7f03192815c7")},
    {0x0B, "CONFIG",      "EventTraceConfigGuid", guid::from_string("01853a65-418f-4f36-aefc-dc0f1d2fd235")},
    {0x0C, "SPARE1",      "EventTraceSpare1",     guid::from_string("99134383-5248-43fc-834b-529454e75df3")},
    {0x0D, "WNF",         "WnfGuid",              guid::from_string("42695762-ea50-497a-9068-5cbbb35e0b95")},
    {0x0E, "POOL",        "PoolGuid",             guid::from_string("0268a8b6-74fd-4302-9dd0-6e8f1795c0cf")},
    {0x0F, "PERFINFO",    "PerfInfoGuid",         guid::from_string("ce1dbfb4-137e-4da6-87b0-3f59aa102cbc")},
    {0x10, "HEAP",        "HeapGuid",             guid::from_string("222962ab-6180-4b88-a825-346b75f2a24a")},
    {0x11, "OBJECT",      "ObjectGuid",           guid::from_string("89497f50-effe-4440-8cf2-ce6b1cdcaca7")},
    {0x12, "POWER",       "PowerGuid",            guid::from_string("e43445e0-0903-48c3-b878-ff0fccebdd04")},
    {0x13, "MODBOUND",    "ModBoundGuid",         guid::from_string("a9152f00-3f58-4bee-92a1-70c7d079d5dd")},
    {0x14, "IMAGE",       "ImageLoadGuid",        guid::from_string("2cb15d1d-5fc1-11d2-abe1-00a0c911f518")},
    {0x15, "DPC",         "DpcGuid",              guid::from_string("b2d14872-7c5b-463d-8419-ee9bf7d23e04")},
    {0x16, "CC",          "CcGuid",               guid::from_string("7687a439-f752-45b8-b741-321aec0f8df9")},
    {0x17, "CRITSEC",     "CritSecGuid",          guid::from_string("3ac66736-cc59-4cff-8115-8df50e39816b")},
    {0x18, "STACKWALK",   "StackWalkGuid",        guid::from_string("def2fe46-7bd6-4b80-bd94-f57fe20d0ce3")},
    {0x19, "UMS",         "UmsEventGuid",         guid::from_string("9aec974b-5b8e-4118-9b92-3186d8002ce5")},
    {0x1A, "ALPC",        "ALPCGuid",             guid::from_string("45d8cccd-539f-4b72-a8b7-5c683142609a")},
    {0x1B, "SPLITIO",     "SplitIoGuid",          guid::from_string("d837ca92-12b9-44a5-ad6a-3a65b3578aa8")},
    {0x1C, "THREAD_POOL", "ThreadPoolGuid",       guid::from_string("c861d0e2-a2c1-4d36-9f9c-970bab943a12")},
    {0x1D, "HYPERVISOR",  "HypervisorTraceGuid",  guid::from_string("7f2a405c-69b5-4bf9-a1f5-30e8f1afab5e")},
    {0x1E, "HYPERVISORX", "HypervisorXTraceGuid", guid::from_string("2ce9a149-effe-42f0-a635-a1d39e26c8f2")},
};
// clang-format on

inline constexpr std::size_t kernel_group_count = sizeof(kernel_group_table) / sizeof(kernel_group_table[0]);
static_assert(kernel_group_count == 31, "etwctl: 31 kernel groups (MAX_KERNEL_TRACE_EVENTS = 0x1F)");

template <class = void> // a template: clang would otherwise evaluate the whole check in every TU (its test of a parameterless constexpr function)
constexpr bool kernel_group_table_in_order() noexcept {
    for (std::size_t i = 0; i < kernel_group_count; ++i)
        if (kernel_group_table[i].group != i) return false;
    return true;
}
static_assert(kernel_group_table_in_order());

namespace detail {
// GUID -> group in constant time: a multiplicative hash of Data1 (distinct for all 31 GUIDs) indexes a
// 64-slot table built at compile time; one 16-byte compare confirms. The multiplier is searched at
// compile time for a collision-free placement, so the table cannot silently break when edited.
//
// The table is laid out for the encoding loop (request/encode.hpp): a slot holds the GUID as the two
// 64-bit words a load of the GUID's 16 bytes gives, and the hook id's high bits already shifted
// (group << 8), so an event costs one hash, two compares and one OR. An empty slot holds the GUID of
// a group that hashes to ANOTHER slot: no GUID that hashes here can equal it, so "known" is the
// compare alone, with no empty-slot test (an all-zero or any unknown GUID never matches).
inline constexpr std::uint32_t group_hash_bits = 6;
inline constexpr std::uint8_t group_hash_empty = 0xFF;

constexpr std::uint32_t group_hash(std::uint32_t data1, std::uint32_t multiplier) noexcept {
    return (data1 * multiplier) >> (32 - group_hash_bits);
}

constexpr bool group_hash_collision_free(std::uint32_t m) noexcept {
    bool used[1U << group_hash_bits] = {};
    for (auto const& g : kernel_group_table) {
        auto const h = group_hash(g.event_guid.data1, m);
        if (used[h]) return false;
        used[h] = true;
    }
    return true;
}

constexpr std::uint32_t find_group_hash_multiplier() noexcept {
    // Starts at the first collision-free multiplier the search finds from the golden ratio 0x9E3779B1
    // (7516 odd steps later): the search used to cost every TU ~0.35 s of g++ constant evaluation.
    // If the table changes, the search simply continues from here (odd steps keep m odd).
    std::uint32_t m = 0x9E37B469U;
    for (int i = 0; i < 100000; ++i, m += 2)
        if (group_hash_collision_free(m)) return m;
    return 0;
}

inline constexpr std::uint32_t group_hash_multiplier = find_group_hash_multiplier();
static_assert(group_hash_multiplier != 0, "etwctl: no collision-free hash for the kernel group GUIDs");

/// A GUID as the two 64-bit words its 16 bytes load as on a little-endian machine (every Windows target).
static_assert(std::endian::native == std::endian::little, "etwctl: the GUID lookup reads GUIDs as little-endian words");
struct guid_words {
    std::uint64_t lo; ///< Data1 | Data2 << 32 | Data3 << 48
    std::uint64_t hi; ///< Data4[0..7]
};

constexpr guid_words words_of_value(guid const& g) noexcept {
    std::uint64_t hi = 0;
    for (int i = 7; i >= 0; --i) hi = (hi << 8) | g.data4[i];
    return {std::uint64_t{g.data1} | (std::uint64_t{g.data2} << 32) | (std::uint64_t{g.data3} << 48), hi};
}

/// The words of a GUID in memory: etwctl::guid, or a guid_like type with the SDK's exact layout (a
/// 4-byte Data1: not the case where `unsigned long` is 8 bytes), read with two loads; any other
/// guid_like type is converted field by field first.
template <class G>
inline guid_words words_of(G const& g) noexcept {
    constexpr bool sdk_layout = [] {
        if constexpr (std::is_same_v<G, guid>) return true;
        else return sizeof(G) == 16 && std::is_trivially_copyable_v<G> && std::is_standard_layout_v<G> &&
                    sizeof(G::Data1) == 4 && sizeof(G::Data2) == 2 && sizeof(G::Data3) == 2 && sizeof(G::Data4) == 8;
    }();
    guid_words w;
    if constexpr (sdk_layout) {
        std::memcpy(&w, &g, sizeof w);
    } else {
        guid const copy(g);
        std::memcpy(&w, &copy, sizeof w);
    }
    return w;
}

struct hook_slot {
    guid_words guid;
    std::uint32_t hook_high; ///< group << 8 (0xFF00 in an empty slot: never used, see above)
    std::uint32_t group;     ///< the group, group_hash_empty in an empty slot

    /// True exactly when `w` is this slot's GUID (a compare of the XOR difference with 0, which the
    /// compilers fold into the encoder's count update: cmp + adc, no setcc).
    constexpr bool holds(guid_words w) const noexcept { return ((guid.lo ^ w.lo) | (guid.hi ^ w.hi)) == 0; }
};
static_assert(sizeof(hook_slot) == 24);

constexpr auto make_hook_slots() noexcept {
    struct slots_t {
        hook_slot s[1U << group_hash_bits];
    } out{};
    for (std::uint32_t h = 0; h < (1U << group_hash_bits); ++h) {
        // Empty: a group GUID whose own slot is not h, so nothing hashing to h can match it.
        for (auto const& g : kernel_group_table)
            if (group_hash(g.event_guid.data1, group_hash_multiplier) != h) {
                out.s[h] = {words_of_value(g.event_guid), std::uint32_t{group_hash_empty} << 8, group_hash_empty};
                break;
            }
    }
    for (auto const& g : kernel_group_table) {
        auto const h = group_hash(g.event_guid.data1, group_hash_multiplier);
        out.s[h] = {words_of_value(g.event_guid), std::uint32_t{g.group} << 8, g.group};
    }
    return out;
}
inline constexpr auto hook_slots = make_hook_slots();

/// For the encoding loop: the slot a GUID selects. The GUID is a kernel group GUID exactly when
/// `slot.holds(w)`; then `slot.hook_high` is its hook id's high bits (group << 8). One multiply, one
/// shift, one address computation: no branch, no empty-slot test.
///     auto const& slot = hook_slot_of(w);  out[n] = slot.hook_high | type;  n += slot.holds(w);
constexpr hook_slot const& hook_slot_of(guid_words w) noexcept {
    return hook_slots.s[group_hash(static_cast<std::uint32_t>(w.lo), group_hash_multiplier)];
}

/// The group of a classic GUID, or group_hash_empty.
constexpr std::uint8_t group_or_empty(guid const& g) noexcept {
    guid_words const w = std::is_constant_evaluated() ? words_of_value(g) : words_of(g);
    auto const& slot = hook_slot_of(w);
    return slot.holds(w) ? static_cast<std::uint8_t>(slot.group) : group_hash_empty;
}
} // namespace detail

/// The kernel group of a classic GUID, or std::nullopt if the GUID is not a kernel group GUID.
constexpr std::optional<std::uint8_t> group_of(guid const& g) noexcept {
    auto const group = detail::group_or_empty(g);
    if (group == detail::group_hash_empty) return std::nullopt;
    return group;
}

/// The classic GUID of a kernel group (the hook id's high byte), or nullptr.
constexpr kernel_group const* kernel_group_by_id(std::uint8_t group) noexcept {
    return group < kernel_group_count ? &kernel_group_table[group] : nullptr;
}

/// SECHOST's translation: CLASSIC_EVENT_ID -> hook id, or nullopt when the GUID is unknown (skipped).
template <classic_event_id_like E>
constexpr std::optional<hook_id> hook_id_of(E const& e) noexcept {
    if (auto const g = group_of(event_guid_of(e))) return hook_id(*g, event_type_of(e));
    return std::nullopt;
}

/// The CLASSIC_EVENT_ID for a hook id (group GUID + type); the inverse of hook_id_of.
constexpr std::optional<classic_event_id> classic_event_id_of(hook_id h) noexcept {
    if (h.group() >= kernel_group_count) return std::nullopt; // by index: constant under g++'s UBSan too
    classic_event_id e{};
    e.event_guid = kernel_group_table[h.group()].event_guid;
    e.type = h.type();
    return e;
}

ETWCTL_END_NAMESPACE
