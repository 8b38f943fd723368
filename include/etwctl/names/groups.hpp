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

namespace detail {
/// The groups' numbers (a hook id's high byte) by name, numbered from 0 in the table's order: the table's
/// rows and the event table (names/events.hpp) take them from here, and kernel_group_table_in_order
/// checks each row against its position.
enum group_number : std::uint8_t {
    header_group, disk_group /* IO */, fault_group /* MEMORY */, process_group, file_group, thread_group, tcp_group,
    job_group, udp_group, registry_group, dbgprint_group, config_group, spare1_group, wnf_group, pool_group,
    perfinfo_group, heap_group, object_group, power_group, modbound_group, image_group, dpc_group, cc_group,
    critsec_group, stackwalk_group, ums_group, alpc_group, splitio_group, threadpool_group, hypervisor_group,
    hypervisorx_group
};
} // namespace detail

// clang-format off
inline constexpr kernel_group kernel_group_table[] = {
    {detail::header_group,      "HEADER",      "EventTraceGuid",       guid{0x68fdd900, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}},
    {detail::disk_group,        "IO",          "DiskIoGuid",           guid{0x3d6fa8d4, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}},
    {detail::fault_group,       "MEMORY",      "PageFaultGuid",        guid{0x3d6fa8d3, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}},
    {detail::process_group,     "PROCESS",     "ProcessGuid",          guid{0x3d6fa8d0, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}},
    {detail::file_group,        "FILE",        "FileIoGuid",           guid{0x90cbdc39, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}},
    {detail::thread_group,      "THREAD",      "ThreadGuid",           guid{0x3d6fa8d1, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c}},
    {detail::tcp_group,         "TCPIP",       "TcpIpGuid",            guid{0x9a280ac0, 0xc8e0, 0x11d1, 0x84, 0xe2, 0x00, 0xc0, 0x4f, 0xb9, 0x98, 0xa2}},
    {detail::job_group,         "JOB",         "JobGuid",              guid{0x3282fc76, 0xfeed, 0x498e, 0x8a, 0xa7, 0xe7, 0x0f, 0x45, 0x9d, 0x43, 0x0e}},
    {detail::udp_group,         "UDPIP",       "UdpIpGuid",            guid{0xbf3a50c5, 0xa9c9, 0x4988, 0xa0, 0x05, 0x2d, 0xf0, 0xb7, 0xc8, 0x0f, 0x80}},
    {detail::registry_group,    "REGISTRY",    "RegistryGuid",         guid{0xae53722e, 0xc863, 0x11d2, 0x86, 0x59, 0x00, 0xc0, 0x4f, 0xa3, 0x21, 0xa1}},
    {detail::dbgprint_group,    "DBGPRINT",    "DbgPrintGuid",         guid{0x13976d09, 0xa327, 0x438c, 0x95, 0x0b, 0x7f, 0x03, 0x19, 0x28, 0x15, 0xc7}},
    {detail::config_group,      "CONFIG",      "EventTraceConfigGuid", guid{0x01853a65, 0x418f, 0x4f36, 0xae, 0xfc, 0xdc, 0x0f, 0x1d, 0x2f, 0xd2, 0x35}},
    {detail::spare1_group,      "SPARE1",      "EventTraceSpare1",     guid{0x99134383, 0x5248, 0x43fc, 0x83, 0x4b, 0x52, 0x94, 0x54, 0xe7, 0x5d, 0xf3}},
    {detail::wnf_group,         "WNF",         "WnfGuid",              guid{0x42695762, 0xea50, 0x497a, 0x90, 0x68, 0x5c, 0xbb, 0xb3, 0x5e, 0x0b, 0x95}},
    {detail::pool_group,        "POOL",        "PoolGuid",             guid{0x0268a8b6, 0x74fd, 0x4302, 0x9d, 0xd0, 0x6e, 0x8f, 0x17, 0x95, 0xc0, 0xcf}},
    {detail::perfinfo_group,    "PERFINFO",    "PerfInfoGuid",         guid{0xce1dbfb4, 0x137e, 0x4da6, 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc}},
    {detail::heap_group,        "HEAP",        "HeapGuid",             guid{0x222962ab, 0x6180, 0x4b88, 0xa8, 0x25, 0x34, 0x6b, 0x75, 0xf2, 0xa2, 0x4a}},
    {detail::object_group,      "OBJECT",      "ObjectGuid",           guid{0x89497f50, 0xeffe, 0x4440, 0x8c, 0xf2, 0xce, 0x6b, 0x1c, 0xdc, 0xac, 0xa7}},
    {detail::power_group,       "POWER",       "PowerGuid",            guid{0xe43445e0, 0x0903, 0x48c3, 0xb8, 0x78, 0xff, 0x0f, 0xcc, 0xeb, 0xdd, 0x04}},
    {detail::modbound_group,    "MODBOUND",    "ModBoundGuid",         guid{0xa9152f00, 0x3f58, 0x4bee, 0x92, 0xa1, 0x70, 0xc7, 0xd0, 0x79, 0xd5, 0xdd}},
    {detail::image_group,       "IMAGE",       "ImageLoadGuid",        guid{0x2cb15d1d, 0x5fc1, 0x11d2, 0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18}},
    {detail::dpc_group,         "DPC",         "DpcGuid",              guid{0xb2d14872, 0x7c5b, 0x463d, 0x84, 0x19, 0xee, 0x9b, 0xf7, 0xd2, 0x3e, 0x04}},
    {detail::cc_group,          "CC",          "CcGuid",               guid{0x7687a439, 0xf752, 0x45b8, 0xb7, 0x41, 0x32, 0x1a, 0xec, 0x0f, 0x8d, 0xf9}},
    {detail::critsec_group,     "CRITSEC",     "CritSecGuid",          guid{0x3ac66736, 0xcc59, 0x4cff, 0x81, 0x15, 0x8d, 0xf5, 0x0e, 0x39, 0x81, 0x6b}},
    {detail::stackwalk_group,   "STACKWALK",   "StackWalkGuid",        guid{0xdef2fe46, 0x7bd6, 0x4b80, 0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3}},
    {detail::ums_group,         "UMS",         "UmsEventGuid",         guid{0x9aec974b, 0x5b8e, 0x4118, 0x9b, 0x92, 0x31, 0x86, 0xd8, 0x00, 0x2c, 0xe5}},
    {detail::alpc_group,        "ALPC",        "ALPCGuid",             guid{0x45d8cccd, 0x539f, 0x4b72, 0xa8, 0xb7, 0x5c, 0x68, 0x31, 0x42, 0x60, 0x9a}},
    {detail::splitio_group,     "SPLITIO",     "SplitIoGuid",          guid{0xd837ca92, 0x12b9, 0x44a5, 0xad, 0x6a, 0x3a, 0x65, 0xb3, 0x57, 0x8a, 0xa8}},
    {detail::threadpool_group,  "THREAD_POOL", "ThreadPoolGuid",       guid{0xc861d0e2, 0xa2c1, 0x4d36, 0x9f, 0x9c, 0x97, 0x0b, 0xab, 0x94, 0x3a, 0x12}},
    {detail::hypervisor_group,  "HYPERVISOR",  "HypervisorTraceGuid",  guid{0x7f2a405c, 0x69b5, 0x4bf9, 0xa1, 0xf5, 0x30, 0xe8, 0xf1, 0xaf, 0xab, 0x5e}},
    {detail::hypervisorx_group, "HYPERVISORX", "HypervisorXTraceGuid", guid{0x2ce9a149, 0xeffe, 0x42f0, 0xa6, 0x35, 0xa1, 0xd3, 0x9e, 0x26, 0xc8, 0xf2}},
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

struct hook_slot_table {
    hook_slot s[1U << group_hash_bits];
};

/// The slots, built where a lookup is compiled (a variable template whose type depends on D, read by
/// templates that pass their own parameter on: see detail::dependent_t): building them costs a
/// translation unit about 26M instructions of clang's constant evaluation, which a TU that encodes no
/// event does not pay.
template <class D>
constexpr dependent_t<D, hook_slot_table> make_hook_slots() noexcept {
    dependent_t<D, hook_slot_table> out{};
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
template <class D = void>
inline constexpr dependent_t<D, hook_slot_table> hook_slots = make_hook_slots<D>();

/// For the encoding loop: the slot a GUID selects. The GUID is a kernel group GUID exactly when
/// `slot.holds(w)`; then `slot.hook_high` is its hook id's high bits (group << 8). One multiply, one
/// shift, one address computation: no branch, no empty-slot test.
///     auto const& slot = hook_slot_of(w);  out[n] = slot.hook_high | type;  n += slot.holds(w);
/// (Any D reads the one table, hook_slots<void>: an encoder of any event type passes its own.)
template <class D = void>
constexpr hook_slot const& hook_slot_of(guid_words w) noexcept {
    return hook_slots<dependent_t<D, void>>.s[group_hash(static_cast<std::uint32_t>(w.lo), group_hash_multiplier)];
}

/// The group of a classic GUID, or group_hash_empty.
template <class D = void>
constexpr std::uint8_t group_or_empty(guid const& g) noexcept {
    guid_words const w = std::is_constant_evaluated() ? words_of_value(g) : words_of(g);
    auto const& slot = hook_slot_of<D>(w);
    return slot.holds(w) ? static_cast<std::uint8_t>(slot.group) : group_hash_empty;
}
} // namespace detail

/// The kernel group of a classic GUID, or std::nullopt if the GUID is not a kernel group GUID.
/// (The functions of names/ that return a std::optional are templates with a defaulted parameter, called
/// as plain functions: see detail::dependent_t.)
template <class D = void>
constexpr std::optional<detail::dependent_t<D, std::uint8_t>> group_of(guid const& g) noexcept {
    auto const group = detail::group_or_empty<D>(g);
    if (group == detail::group_hash_empty) return std::nullopt;
    return group;
}

/// The classic GUID of a kernel group (the hook id's high byte), or nullptr.
constexpr kernel_group const* kernel_group_by_id(std::uint8_t group) noexcept {
    return group < kernel_group_count ? &kernel_group_table[group] : nullptr;
}

/// SECHOST's translation: CLASSIC_EVENT_ID -> hook id, or nullopt when the GUID is unknown (skipped).
template <classic_event_id_like E>
constexpr std::optional<detail::dependent_t<E, hook_id>> hook_id_of(E const& e) noexcept {
    auto const g = detail::group_or_empty<E>(event_guid_of(e));
    if (g == detail::group_hash_empty) return std::nullopt;
    return hook_id(g, event_type_of(e));
}

/// The CLASSIC_EVENT_ID for a hook id (group GUID + type); the inverse of hook_id_of.
template <class D = void>
constexpr std::optional<detail::dependent_t<D, classic_event_id>> classic_event_id_of(hook_id h) noexcept {
    if (h.group() >= kernel_group_count) return std::nullopt; // by index: constant under g++'s UBSan too
    detail::dependent_t<D, classic_event_id> e{};
    e.event_guid = kernel_group_table[h.group()].event_guid;
    e.type = h.type();
    return e;
}

ETWCTL_END_NAMESPACE
