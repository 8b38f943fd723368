// SPDX-License-Identifier: MIT
// etwctl/pmc_views.hpp - the replies of the two PMC queries later releases added, as checked views into
// the caller's storage (as profile_source_list.hpp is for TraceProfileSourceListInfo): who holds each
// hardware counter (TracePmcCounterOwners, class 25: ETW_PMC_COUNTER_OWNERSHIP_STATUS) and which
// sessions use which counters on which events (TracePmcSessionInformation, class 27: a chain of
// ETW_PMC_SESSION_INFO). Layouts: SDK evntrace.h; nothing outside the bytes is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// ETW_PMC_COUNTER_OWNER_TYPE.
enum class pmc_owner_type : std::uint32_t {
    free = 0,
    untagged = 1,
    tagged = 2,
    tagged_with_source = 3,
};

/// ETW_PMC_COUNTER_OWNERSHIP_STATUS head and one ETW_PMC_COUNTER_OWNER.
inline constexpr std::size_t pmc_owners_head_size = 8;
inline constexpr std::size_t pmc_owner_record_size = 12;
/// ETW_PMC_SESSION_INFO head.
inline constexpr std::size_t pmc_session_head_size = 16;

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
        out.bytes_ = bytes.data(); // the head and n records: what parse checked
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
        std::memcpy(&v, bytes_ + off, 4);
        return v;
    }
    std::byte const* bytes_ = nullptr;
    std::size_t count_ = 0;
};

/// The bytes query<pmc_counter_owners> needs for a machine with `counters` counters (the result of
/// query<max_pmc_counters>): the 8-byte head and 12 bytes per counter, computed in 64 bits.
constexpr std::uint64_t pmc_owner_storage_size(std::uint32_t counters) noexcept {
    return pmc_owners_head_size + std::uint64_t{pmc_owner_record_size} * counters;
}

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
    // Copy members declared, so no implicit move is (see profile_source_list_view).
    constexpr pmc_session_view(pmc_session_view const&) noexcept = default;
    constexpr pmc_session_view& operator=(pmc_session_view const&) noexcept = default;
    /// rule::ok if every record lies inside bytes, holds its sources and USHORT hook ids, and the
    /// offsets move forward by multiples of 4 (no cycles). An empty reply is an empty list.
    static rule parse(std::span<std::byte const> const bytes, pmc_session_view& out) noexcept {
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

ETWCTL_END_NAMESPACE
