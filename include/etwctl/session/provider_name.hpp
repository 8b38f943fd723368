// SPDX-License-Identifier: MIT
// etwctl/session/provider_name.hpp - the provider GUID of an EventSource / TraceLogging name, the way
// Windows' tools derive it (xperf and WPR's "*Name", PerfView's "*Name", .NET's EventSource), so a session
// can enable such a provider by its name:
//
//   constexpr etwctl::guid g = etwctl::provider_name<"MyCompany.MyComponent">; // a constant
//   auto r = etwctl::provider_guid_from_name(text);                             // run time: result<guid>
//
// The algorithm (RFC 4122 name-based GUID, version 5, as Microsoft documents it for TraceLogging
// providers, https://learn.microsoft.com/windows/win32/api/traceloggingprovider/nf-traceloggingprovider-tracelogging_define_provider,
// and as EventSource implements it): SHA-1 over the 16 bytes of the namespace GUID
// 482C2DB2-C390-47C8-87F8-1A15BFC130FB (in the order the text reads) followed by the name upper-cased
// and encoded as UTF-16 big-endian; the first 16 bytes of the digest, with the high nibble of byte 7 set
// to 5, read as a GUID (Data1..Data3 little-endian, as System.Guid(byte[]) reads them).
// Pairs a public source confirms are the tests (tests/sessions/test_typed_provider_name.cpp).
//
// Names are ASCII: etwctl upper-cases A-Z only (EventSource uses ToUpperInvariant, which also folds
// non-ASCII letters; without a Unicode table etwctl cannot, so a non-ASCII name is refused, not hashed
// wrongly: docs/choices.md). No heap: the digest is computed over the name as it streams past.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/rules.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace detail {

/// SHA-1 (FIPS 180-4), streaming, constexpr, fixed size.
class sha1 {
public:
    constexpr void add(std::uint8_t byte) noexcept {
        block_[fill_++] = byte;
        ++length_;
        if (fill_ == 64) compress();
    }
    /// The 20-byte digest (the object is spent afterwards).
    constexpr void finish(std::uint8_t (&out)[20]) noexcept {
        std::uint64_t const bits = length_ * 8;
        add(0x80);
        while (fill_ != 56) add(0);
        for (int i = 7; i >= 0; --i) add(static_cast<std::uint8_t>(bits >> (8 * i)));
        for (int i = 0; i < 5; ++i)
            for (int b = 0; b < 4; ++b) out[4 * i + b] = static_cast<std::uint8_t>(h_[i] >> (24 - 8 * b));
    }

private:
    static constexpr std::uint32_t rotl(std::uint32_t v, int n) noexcept { return (v << n) | (v >> (32 - n)); }
    constexpr void compress() noexcept {
        std::uint32_t w[80] = {};
        for (int i = 0; i < 16; ++i)
            w[i] = (std::uint32_t{block_[4 * i]} << 24) | (std::uint32_t{block_[4 * i + 1]} << 16) |
                   (std::uint32_t{block_[4 * i + 2]} << 8) | block_[4 * i + 3];
        for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
        std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4];
        for (int i = 0; i < 80; ++i) {
            std::uint32_t f = 0, k = 0;
            if (i < 20) f = (b & c) | (~b & d), k = 0x5A827999U;
            else if (i < 40) f = b ^ c ^ d, k = 0x6ED9EBA1U;
            else if (i < 60) f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDCU;
            else f = b ^ c ^ d, k = 0xCA62C1D6U;
            std::uint32_t const t = rotl(a, 5) + f + e + k + w[i];
            e = d, d = c, c = rotl(b, 30), b = a, a = t;
        }
        h_[0] += a, h_[1] += b, h_[2] += c, h_[3] += d, h_[4] += e;
        fill_ = 0;
    }

    std::uint32_t h_[5] = {0x67452301U, 0xEFCDAB89U, 0x98BADCFEU, 0x10325476U, 0xC3D2E1F0U};
    std::uint8_t block_[64] = {};
    std::size_t fill_ = 0;
    std::uint64_t length_ = 0;
};

/// The namespace of EventSource / TraceLogging names, 482C2DB2-C390-47C8-87F8-1A15BFC130FB, byte by byte
/// as the text reads.
inline constexpr std::uint8_t provider_name_namespace[16] = {0x48, 0x2C, 0x2D, 0xB2, 0xC3, 0x90, 0x47, 0xC8,
                                                             0x87, 0xF8, 0x1A, 0x15, 0xBF, 0xC1, 0x30, 0xFB};

/// The name is hashable: 1 or more characters, all ASCII and none NUL.
constexpr bool provider_name_hashable(std::string_view name) noexcept {
    if (name.empty()) return false;
    for (char const c : name)
        if (c == '\0' || static_cast<unsigned char>(c) > 0x7F) return false;
    return true;
}

/// The hash of a hashable name.
constexpr guid provider_guid_of_hashable(std::string_view name) noexcept {
    sha1 h;
    for (std::uint8_t const b : provider_name_namespace) h.add(b);
    for (char const c : name) {
        char const upper = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
        h.add(0); // UTF-16 big-endian: the high byte of an ASCII character is 0
        h.add(static_cast<std::uint8_t>(upper));
    }
    std::uint8_t d[20] = {};
    h.finish(d);
    d[7] = static_cast<std::uint8_t>((d[7] & 0x0F) | 0x50);
    return guid(std::uint32_t{d[0]} | (std::uint32_t{d[1]} << 8) | (std::uint32_t{d[2]} << 16) | (std::uint32_t{d[3]} << 24),
                static_cast<std::uint16_t>(d[4] | (d[5] << 8)), static_cast<std::uint16_t>(d[6] | (d[7] << 8)), d[8], d[9],
                d[10], d[11], d[12], d[13], d[14], d[15]);
}

} // namespace detail

/// The provider GUID of an EventSource / TraceLogging name, at run time. Refuses an empty name, a NUL
/// or a non-ASCII character (rule provider_name_not_hashable; describe() names the position).
template <class = void>
[[nodiscard]] result<guid> provider_guid_from_name(std::string_view name) noexcept {
    if (!detail::provider_name_hashable(name)) {
        std::size_t at = 0;
        while (at < name.size() && name[at] != '\0' && static_cast<unsigned char>(name[at]) <= 0x7F) ++at;
        return detail::fail(make_error_code(rule::provider_name_not_hashable),
                            name.empty() ? std::string_view("provider name: an empty name has no GUID; give the "
                                                            "EventSource / TraceLogging provider's name")
                                         : std::string_view("provider name: character {value} is NUL or not ASCII; "
                                                            "etwctl hashes ASCII names only (give the provider's "
                                                            "GUID instead)"),
                            "provider_guid_from_name", at);
    }
    return detail::provider_guid_of_hashable(name);
}

namespace detail {
template <fixed_string Name>
consteval guid provider_name_guid() noexcept {
    static_assert(provider_name_hashable(Name.view()),
                  "etwctl::provider_name<Name>: the name must be 1 or more ASCII characters without NUL "
                  "(etwctl hashes ASCII names only; give the provider's GUID instead)");
    return provider_guid_of_hashable(Name.view());
}
} // namespace detail

/// provider_name<"MyCompany.MyComponent">: the GUID as a constant (ce5fa4ea-ab00-5402-8b76-9f76ac858fb5).
template <fixed_string Name>
inline constexpr guid provider_name = detail::provider_name_guid<Name>();

ETWCTL_END_NAMESPACE
