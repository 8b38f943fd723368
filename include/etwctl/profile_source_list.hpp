// SPDX-License-Identifier: MIT
// etwctl/profile_source_list.hpp - a bounds-checked view of a PROFILE_SOURCE_INFO chain.
//
// The kernel replies with records linked by NextEntryOffset, each a 0x18-byte head and a NUL-terminated
// UTF-16 description. SECHOST trusts that chain; etwctl does not: check_chain() accepts a chain only if
// every record lies inside the reply, offsets move strictly forward by a multiple of 8 (no cycles, no
// misalignment), and every description ends with a NUL inside its own record. The view reads fields
// with memcpy, so the storage needs no particular alignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// The bytes one PROFILE_SOURCE_INFO record with a description of n characters takes in the list: the
/// 0x18-byte head, the UTF-16 description and its NUL, rounded up to the 8 bytes NextEntryOffset moves by.
constexpr std::size_t profile_source_record_size(std::size_t description_chars) noexcept {
    return (profile_source_info_description_offset + 2 * (description_chars + 1) + 7) / 8 * 8;
}

/// Returns rule::ok if bytes[0, size) holds a well-formed chain (an empty reply is a valid empty list).
constexpr rule check_profile_source_chain(std::span<std::byte const> bytes) noexcept {
    std::size_t const size = bytes.size();
    if (size == 0) return rule::ok;
    std::size_t off = 0;
    for (;;) {
        constexpr std::size_t head = profile_source_info_description_offset;
        if (size - off < head + 2) return rule::kernel_reply_malformed; // head + at least the NUL
        std::uint32_t next = 0;
        for (std::size_t i = 0; i < 4; ++i) next |= std::uint32_t{std::to_integer<std::uint8_t>(bytes[off + i])} << (8 * i);
        std::size_t const end = next == 0 ? size : off + next;
        if (next != 0 && (next % 8 != 0 || next < head + 2 || next > size - off)) return rule::kernel_reply_malformed;
        bool terminated = false;
        for (std::size_t p = off + head; p + 1 < end; p += 2)
            if (bytes[p] == std::byte{0} && bytes[p + 1] == std::byte{0}) {
                terminated = true;
                break;
            }
        if (!terminated) return rule::kernel_reply_malformed;
        if (next == 0) return rule::ok;
        off += next;
        if (off == size) return rule::kernel_reply_malformed; // a link to nothing
    }
}

/// One PROFILE_SOURCE_INFO record of a checked chain.
class profile_source_entry {
public:
    constexpr profile_source_entry() noexcept = default;
    constexpr profile_source_entry(std::byte const* record, std::size_t record_size) noexcept
        : p_(record), size_(record_size) {}

    etwctl::profile_source source() const noexcept { return static_cast<etwctl::profile_source>(field(4)); }
    std::uint32_t source_id() const noexcept { return field(4); }
    std::uint32_t min_interval() const noexcept { return field(8); }
    std::uint32_t max_interval() const noexcept { return field(12); }

    /// Length of the description in UTF-16 units, without the NUL.
    std::size_t description_size() const noexcept {
        std::size_t n = 0;
        for (std::size_t o = profile_source_info_description_offset; o + 1 < size_; o += 2, ++n)
            if (p_[o] == std::byte{0} && p_[o + 1] == std::byte{0}) return n;
        return n;
    }
    char16_t description_at(std::size_t i) const noexcept {
        std::size_t const o = profile_source_info_description_offset + 2 * i;
        return static_cast<char16_t>(std::to_integer<unsigned>(p_[o]) | (std::to_integer<unsigned>(p_[o + 1]) << 8));
    }
    /// Copies the description as ASCII ('?' for anything else) into out, NUL-terminated; returns its length.
    std::size_t description_ascii(std::span<char> out) const noexcept {
        if (out.empty()) return 0;
        std::size_t const n = description_size();
        std::size_t i = 0;
        for (; i < n && i + 1 < out.size(); ++i) {
            char16_t const c = description_at(i);
            out[i] = c < 0x80 ? static_cast<char>(c) : '?';
        }
        out[i] = '\0';
        return i;
    }

private:
    std::uint32_t field(std::size_t offset) const noexcept {
        std::uint32_t v;
        std::memcpy(&v, p_ + offset, 4);
        return v;
    }
    std::byte const* p_ = nullptr;
    std::size_t size_ = 0;
};

namespace detail {
/// A list entry's description compared with a name as every lookup of a source by name compares it
/// (pmc_counter::named, find_profile_source, add_profile_source's "taken" check): ASCII, case-insensitive.
inline bool description_is(profile_source_entry const& e, std::string_view name) noexcept {
    if (e.description_size() != name.size()) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        char16_t const c = e.description_at(i);
        if (c >= 0x80 || ascii_lower(static_cast<char>(c)) != ascii_lower(name[i])) return false;
    }
    return true;
}

/// Says "the request layer checked this chain" (request/encode.hpp's query_profile_sources), so the
/// view is built without checking it a second time.
struct checked_chain {
    explicit constexpr checked_chain(std::span<std::byte const> const b) noexcept : bytes(b) {}
    std::span<std::byte const> bytes;
};
} // namespace detail

/// A forward range over a checked chain. Construct through parse() (or query<profile_source_list>).
class profile_source_list_view {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = profile_source_entry;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = profile_source_entry;

        constexpr iterator() noexcept = default;
        constexpr iterator(std::span<std::byte const> const all, std::size_t off) noexcept
            : all_(all.data()), size_(all.size()), off_(off) {}
        profile_source_entry operator*() const noexcept { return {all_ + off_, record_end() - off_}; }
        iterator& operator++() noexcept {
            std::uint32_t next;
            std::memcpy(&next, all_ + off_, 4);
            off_ = next == 0 ? size_ : off_ + next;
            return *this;
        }
        iterator operator++(int) noexcept {
            auto t = *this;
            ++*this;
            return t;
        }
        friend bool operator==(iterator const& a, iterator const& b) noexcept { return a.off_ == b.off_; }

    private:
        std::size_t record_end() const noexcept {
            std::uint32_t next;
            std::memcpy(&next, all_ + off_, 4);
            return next == 0 ? size_ : off_ + next;
        }
        std::byte const* all_ = nullptr; // the chain (a pointer and a size, not a span: copying a span member
        std::size_t size_ = 0;           // costs g++ the ranges concepts, tests/hygiene/check_ranges_constraints.cmake)
        std::size_t off_ = 0;
    };

    constexpr profile_source_list_view() noexcept = default;
    // Copy members declared, so no implicit move is: its member-wise span move would make g++ weigh span's
    // range constructor in every TU (tests/hygiene/check_ranges_constraints.cmake).
    constexpr profile_source_list_view(profile_source_list_view const&) noexcept = default;
    constexpr profile_source_list_view& operator=(profile_source_list_view const&) noexcept = default;

    /// Checks the chain; returns false (and leaves out empty) if it is malformed.
    static constexpr rule parse(std::span<std::byte const> const bytes, profile_source_list_view& out) noexcept {
        rule const r = check_profile_source_chain(bytes);
        if (r == rule::ok)
            out.bytes_ = bytes;
        else
            out.bytes_ = {};
        return r;
    }

    /// A chain the request layer has already checked.
    static constexpr profile_source_list_view from_checked(detail::checked_chain const c) noexcept {
        profile_source_list_view v;
        v.bytes_ = c.bytes;
        return v;
    }

    iterator begin() const noexcept { return {bytes_, 0}; }
    iterator end() const noexcept { return {bytes_, bytes_.size()}; }
    bool empty() const noexcept { return bytes_.empty(); }
    std::size_t size() const noexcept {
        std::size_t n = 0;
        for (auto it = begin(); it != end(); ++it) ++n;
        return n;
    }
    std::span<std::byte const> bytes() const noexcept { return bytes_; }

    /// The entry for a source id, if present.
    bool find(std::uint32_t source_id, profile_source_entry& out) const noexcept {
        for (auto e : *this)
            if (e.source_id() == source_id) {
                out = e;
                return true;
            }
        return false;
    }

private:
    std::span<std::byte const> bytes_{};
};

namespace detail {
/// The entry a name stands for: the one whose description equals it exactly, else the first that
/// equals it ignoring ASCII case (a list written by other tools may hold both "TotalCycles" and
/// "totalcycles"; the exact spelling wins). False if none.
inline bool find_named(profile_source_list_view const& list, std::string_view name, profile_source_entry& out) noexcept {
    bool found = false;
    for (auto e : list) {
        if (!description_is(e, name)) continue;
        bool exact = true;
        for (std::size_t i = 0; i < name.size() && exact; ++i)
            exact = e.description_at(i) == static_cast<char16_t>(static_cast<unsigned char>(name[i]));
        if (exact || !found) out = e;
        found = true;
        if (exact) break;
    }
    return found;
}
} // namespace detail

ETWCTL_END_NAMESPACE
