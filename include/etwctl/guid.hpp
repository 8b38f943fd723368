// SPDX-License-Identifier: MIT
// etwctl/guid.hpp - a GUID that is layout-compatible with the SDK's GUID and constructible at compile
// time from its text form:   constexpr etwctl::guid g = etwctl::guid::from_string("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c");
// or with the literal:        using namespace etwctl::literals; auto g = "{3d6fa8d4-...}"_guid;
// A GUID from user code (anything with Data1..Data4, e.g. the SDK's GUID) converts without a cast.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"

ETWCTL_BEGIN_NAMESPACE

/// Anything shaped like the SDK's GUID (Data1, Data2, Data3, Data4[8]).
template <class G>
concept guid_like = requires(G const& g) {
    { g.Data1 } -> std::convertible_to<std::uint32_t>;
    { g.Data2 } -> std::convertible_to<std::uint16_t>;
    { g.Data3 } -> std::convertible_to<std::uint16_t>;
    { g.Data4[7] } -> std::convertible_to<std::uint8_t>;
};

namespace diagnostic {
// Not constexpr on purpose: reached during constant evaluation only for malformed text, where the
// compiler reports the call and so names the mistake.
inline void etwctl_guid_from_string_malformed_text_expected_8_4_4_4_12_hex_digits() noexcept {}
} // namespace diagnostic

struct guid {
    std::uint32_t data1 = 0;
    std::uint16_t data2 = 0;
    std::uint16_t data3 = 0;
    std::uint8_t data4[8] = {};

    constexpr guid() noexcept = default;
    constexpr guid(std::uint32_t d1, std::uint16_t d2, std::uint16_t d3, std::uint8_t a, std::uint8_t b,
                   std::uint8_t c, std::uint8_t d, std::uint8_t e, std::uint8_t f, std::uint8_t g,
                   std::uint8_t h) noexcept
        : data1(d1), data2(d2), data3(d3), data4{a, b, c, d, e, f, g, h} {}

    /// From the SDK's GUID (or any guid_like type): no cast needed at the call site.
    template <guid_like G>
    constexpr guid(G const& g) noexcept // NOLINT(google-explicit-constructor): interop is the point
        : data1(static_cast<std::uint32_t>(g.Data1)), data2(static_cast<std::uint16_t>(g.Data2)),
          data3(static_cast<std::uint16_t>(g.Data3)),
          data4{static_cast<std::uint8_t>(g.Data4[0]), static_cast<std::uint8_t>(g.Data4[1]),
                static_cast<std::uint8_t>(g.Data4[2]), static_cast<std::uint8_t>(g.Data4[3]),
                static_cast<std::uint8_t>(g.Data4[4]), static_cast<std::uint8_t>(g.Data4[5]),
                static_cast<std::uint8_t>(g.Data4[6]), static_cast<std::uint8_t>(g.Data4[7])} {}

    /// Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", optionally in braces. Returns false on bad text.
    static constexpr bool try_parse(std::string_view text, guid& out) noexcept {
        if (text.size() == 38 && text.front() == '{' && text.back() == '}') text = text.substr(1, 36);
        if (text.size() != 36) return false;
        std::uint8_t bytes[16] = {};
        std::size_t b = 0;
        for (std::size_t i = 0; i < 36;) {
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (text[i] != '-') return false;
                ++i;
                continue;
            }
            int const hi = detail::hex_digit(text[i]);
            int const lo = detail::hex_digit(text[i + 1]);
            if (hi < 0 || lo < 0) return false;
            bytes[b++] = static_cast<std::uint8_t>(hi * 16 + lo);
            i += 2;
        }
        out.data1 = (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
                    (std::uint32_t{bytes[2]} << 8) | bytes[3];
        out.data2 = static_cast<std::uint16_t>((bytes[4] << 8) | bytes[5]);
        out.data3 = static_cast<std::uint16_t>((bytes[6] << 8) | bytes[7]);
        for (int i = 0; i < 8; ++i) out.data4[i] = bytes[8 + i];
        return true;
    }

    /// Compile-time (or run-time) construction from text; at compile time bad text does not compile.
    static constexpr guid from_string(std::string_view text) noexcept {
        guid g;
        if (!try_parse(text, g)) {
            if (std::is_constant_evaluated())
                diagnostic::etwctl_guid_from_string_malformed_text_expected_8_4_4_4_12_hex_digits();
            return guid{};
        }
        return g;
    }

    /// The same from a string literal: its length is the literal's size (no search for the NUL, which
    /// costs a character-by-character loop in constant evaluation; see detail::table_text).
    template <std::size_t N>
    static constexpr guid from_string(char const (&text)[N]) noexcept {
        return from_string(std::string_view(text, text[N - 1] == '\0' ? N - 1 : N));
    }

    /// Writes the 36-character lower-case form (no braces) into out[0..36).
    constexpr void format(char (&out)[37]) const noexcept {
        char* o = out;
        detail::format_hex(data1, 8, o);
        o[8] = '-';
        detail::format_hex(data2, 4, o + 9);
        o[13] = '-';
        detail::format_hex(data3, 4, o + 14);
        o[18] = '-';
        for (int i = 0; i < 2; ++i) detail::format_hex(data4[i], 2, o + 19 + 2 * i);
        o[23] = '-';
        for (int i = 2; i < 8; ++i) detail::format_hex(data4[i], 2, o + 24 + 2 * (i - 2));
        o[36] = '\0';
    }

    friend constexpr bool operator==(guid const& a, guid const& b) noexcept {
        // At run time: two 8-byte compares. Field by field, g++ keeps an 8-iteration byte loop for
        // data4, which made the GUID -> group lookup about 4x slower (docs/performance.md).
        if (!std::is_constant_evaluated()) {
            std::uint64_t x[2];
            std::uint64_t y[2];
            std::memcpy(x, &a, sizeof x);
            std::memcpy(y, &b, sizeof y);
            return ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0;
        }
        if (a.data1 != b.data1 || a.data2 != b.data2 || a.data3 != b.data3) return false;
        for (int i = 0; i < 8; ++i)
            if (a.data4[i] != b.data4[i]) return false;
        return true;
    }

};

static_assert(sizeof(guid) == 16 && alignof(guid) == 4, "etwctl::guid must be layout-compatible with GUID");


namespace literals {
/// "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c"_guid, checked at compile time: malformed text is one error
/// (a static_assert naming the rule), whichever compiler.
template <fixed_string Text>
consteval guid operator""_guid() noexcept {
    constexpr bool well_formed = [] {
        guid g;
        return guid::try_parse(Text.view(), g);
    }();
    static_assert(well_formed,
                  "etwctl_guid_from_string_malformed_text_expected_8_4_4_4_12_hex_digits: etwctl::literals::_guid "
                  "needs \"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\", optionally in braces");
    guid g;
    guid::try_parse(Text.view(), g);
    return g;
}
} // namespace literals

ETWCTL_END_NAMESPACE
