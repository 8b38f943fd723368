// SPDX-License-Identifier: MIT
// etwctl/provider_traits.hpp - the provider-traits blob of EventProviderSetTraits, built at compile
// time (or into a caller's buffer at run time) and checked exactly as the kernel checks it.
//
// Layout (https://learn.microsoft.com/en-us/windows/win32/etw/provider-traits; byte-aligned, little-endian,
// no padding):
//   UINT16 TraitsSize            total size, this field included; must equal InformationLength
//   CHAR   ProviderName[]        UTF-8, NUL-terminated (may be empty)
//   { UINT16 TraitSize; UINT8 Type; BYTE Data[TraitSize - 3]; }...   sizes add up exactly to TraitsSize
// Type 1 (EtwProviderTraitTypeGroup) carries the 16-byte provider-group GUID (TraitSize 0x13).
// Windows accepts 3..0xFFFF bytes; Microsoft advises staying under 256 because traits go into events.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/rules.hpp"

ETWCTL_BEGIN_NAMESPACE

inline constexpr std::size_t provider_traits_max_size = 0xFFFF;
inline constexpr std::size_t provider_traits_advised_size = 256;
inline constexpr std::uint8_t provider_trait_type_group = 1;
inline constexpr std::size_t provider_group_trait_size = 2 + 1 + 16;

/// Checks a traits blob of exactly blob.size() bytes (the InformationLength). traits_length for a size
/// outside 3..0xFFFF; traits_malformed for a bad size field, a name without NUL or trait sizes that
/// do not account exactly for the rest.
constexpr rule check_provider_traits(std::span<std::byte const> blob) noexcept {
    std::size_t const n = blob.size();
    if (n < 3 || n > provider_traits_max_size) return rule::traits_length;
    auto u8 = [&](std::size_t i) { return std::to_integer<std::uint32_t>(blob[i]); };
    if ((u8(0) | (u8(1) << 8)) != n) return rule::traits_malformed;
    std::size_t p = 2;
    while (p < n && blob[p] != std::byte{0}) ++p;
    if (p == n) return rule::traits_malformed; // no NUL
    ++p;
    while (p < n) {
        if (n - p < 3) return rule::traits_malformed;
        std::size_t const size = u8(p) | (u8(p + 1) << 8);
        if (size < 3 || size > n - p) return rule::traits_malformed;
        p += size;
    }
    return rule::ok;
}

/// What a checked blob says.
struct provider_traits_info {
    std::string_view name;
    bool has_group = false;
    guid group{};
};

/// Parses a blob that passed check_provider_traits (returns its rule otherwise, out untouched).
/// The name view points into blob.
inline rule parse_provider_traits(std::span<std::byte const> const blob, provider_traits_info& out) noexcept {
    if (rule r = check_provider_traits(blob); r != rule::ok) return r;
    auto u8 = [&](std::size_t i) { return std::to_integer<std::uint32_t>(blob[i]); };
    provider_traits_info info;
    std::size_t p = 2;
    while (blob[p] != std::byte{0}) ++p;
    info.name = std::string_view(reinterpret_cast<char const*>(blob.data()) + 2, p - 2);
    ++p;
    while (p < blob.size()) {
        std::size_t const size = u8(p) | (u8(p + 1) << 8);
        if (u8(p + 2) == provider_trait_type_group && size == provider_group_trait_size) {
            std::uint8_t b[16] = {};
            for (std::size_t i = 0; i < 16; ++i) b[i] = static_cast<std::uint8_t>(u8(p + 3 + i));
            info.group = guid(std::uint32_t{b[0]} | (std::uint32_t{b[1]} << 8) | (std::uint32_t{b[2]} << 16) | (std::uint32_t{b[3]} << 24),
                              static_cast<std::uint16_t>(b[4] | (b[5] << 8)),
                              static_cast<std::uint16_t>(b[6] | (b[7] << 8)), b[8], b[9], b[10], b[11], b[12],
                              b[13], b[14], b[15]);
            info.has_group = true;
        }
        p += size;
    }
    out = info;
    return rule::ok;
}

namespace detail {
constexpr void put_u16(std::byte* out, std::size_t v) noexcept {
    out[0] = static_cast<std::byte>(v & 0xFF);
    out[1] = static_cast<std::byte>((v >> 8) & 0xFF);
}
constexpr void put_guid_le(std::byte* out, guid const& g) noexcept {
    for (int i = 0; i < 4; ++i) out[i] = static_cast<std::byte>((g.data1 >> (8 * i)) & 0xFF);
    out[4] = static_cast<std::byte>(g.data2 & 0xFF);
    out[5] = static_cast<std::byte>(g.data2 >> 8);
    out[6] = static_cast<std::byte>(g.data3 & 0xFF);
    out[7] = static_cast<std::byte>(g.data3 >> 8);
    for (int i = 0; i < 8; ++i) out[8 + i] = static_cast<std::byte>(g.data4[i]);
}
/// Writes the blob into out[0, out_size) (exactly its size); returns rule::ok or why it cannot.
constexpr rule write_provider_traits(std::string_view name, guid const* group, std::byte* out, std::size_t out_size) noexcept {
    for (char c : name)
        if (c == '\0') return rule::traits_malformed; // an embedded NUL would cut the name
    std::size_t const size = 2 + name.size() + 1 + (group ? provider_group_trait_size : 0);
    if (size > provider_traits_max_size) return rule::traits_length;
    if (out_size != size) return rule::traits_length;
    put_u16(out, size);
    for (std::size_t i = 0; i < name.size(); ++i) out[2 + i] = static_cast<std::byte>(name[i]);
    out[2 + name.size()] = std::byte{0};
    if (group) {
        std::byte* t = out + 3 + name.size();
        put_u16(t, provider_group_trait_size);
        t[2] = static_cast<std::byte>(provider_trait_type_group);
        put_guid_le(t + 3, *group);
    }
    return rule::ok;
}
} // namespace detail

namespace diagnostic {
// Called only when a provider name given at compile time contains a NUL before its end.
inline void etwctl_provider_traits_name_contains_an_embedded_NUL() noexcept {}

/// The size checks of provider_traits_blob, in an empty base class: a failed check in a base prints its
/// one message, while inside the blob itself clang would also reject every later use of the blob.
template <std::size_t Size>
struct provider_traits_size_check {
    static_assert(Size >= 3, "etwctl::provider_traits: a traits blob is at least 3 bytes");
    static_assert(Size <= provider_traits_max_size,
                  "etwctl::provider_traits: the blob exceeds 65535 bytes; Windows rejects it (keep traits under 256 bytes)");
};
} // namespace diagnostic

/// A traits blob of a size known at compile time. Build with make_provider_traits().
template <std::size_t Size>
struct provider_traits_blob : diagnostic::provider_traits_size_check<Size> {
    std::byte bytes[Size] = {};

    static constexpr std::size_t size() noexcept { return Size; }
    constexpr std::span<std::byte const, Size> span() const noexcept { return std::span<std::byte const, Size>(bytes); }
    /// Microsoft advises < 256 bytes: traits are copied into every event.
    static constexpr bool within_advised_size = Size < provider_traits_advised_size;
};

/// Compile-time traits: name only, or name + provider group. The name is a string literal.
template <std::size_t N>
constexpr provider_traits_blob<2 + N> make_provider_traits(char const (&name)[N]) noexcept {
    provider_traits_blob<2 + N> b;
    if (detail::write_provider_traits(std::string_view(name, N - 1), nullptr, b.bytes, b.size()) != rule::ok &&
        std::is_constant_evaluated())
        diagnostic::etwctl_provider_traits_name_contains_an_embedded_NUL();
    return b;
}
template <std::size_t N>
constexpr provider_traits_blob<2 + N + provider_group_trait_size> make_provider_traits(char const (&name)[N],
                                                                                      guid const& group) noexcept {
    provider_traits_blob<2 + N + provider_group_trait_size> b;
    if (detail::write_provider_traits(std::string_view(name, N - 1), &group, b.bytes, b.size()) != rule::ok &&
        std::is_constant_evaluated())
        diagnostic::etwctl_provider_traits_name_contains_an_embedded_NUL();
    return b;
}

/// Run-time builder into a caller's buffer (no heap). On success returns ok and sets size; the
/// buffer must hold provider_traits_size(name, group) bytes, else traits_length.
constexpr std::size_t provider_traits_size(std::string_view name, bool with_group) noexcept {
    return 2 + name.size() + 1 + (with_group ? provider_group_trait_size : 0);
}
constexpr rule build_provider_traits(std::string_view name, guid const* group, std::span<std::byte> buffer,
                                     std::size_t& size) noexcept {
    std::size_t const n = provider_traits_size(name, group != nullptr);
    if (n > buffer.size()) return rule::traits_length;
    rule const r = detail::write_provider_traits(name, group, buffer.data(), n);
    if (r == rule::ok) size = n;
    return r;
}

ETWCTL_END_NAMESPACE
