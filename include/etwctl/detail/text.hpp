// SPDX-License-Identifier: MIT
// etwctl/detail/text.hpp - THE text utilities: the one fixed-string type (a string literal as a template
// argument: stack_walk<"CSwitch">, "..."_guid), ASCII case folding and comparison, hex digits in and out.
// All constexpr, no allocation, no locale.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "etwctl/config.hpp"

ETWCTL_BEGIN_NAMESPACE

/// A string literal usable as a template argument: stack_walk<"CSwitch">, "3d6fa8d4-..."_guid.
template <std::size_t N>
struct fixed_string {
    char value[N] = {};
    constexpr fixed_string() noexcept = default;
    constexpr fixed_string(char const (&s)[N]) noexcept { // NOLINT: implicit from a literal is the point
        for (std::size_t i = 0; i < N; ++i) value[i] = s[i];
    }
    static constexpr std::size_t size() noexcept { return N - 1; }
    constexpr std::string_view view() const noexcept { return {value, N - 1}; }
};
template <std::size_t N>
fixed_string(char const (&)[N]) -> fixed_string<N>;

namespace detail {

/// The std::string_view of a string literal in a constant table (rule texts, event and flag names).
/// Its length is __builtin_strlen's (g++, clang and MSVC all evaluate it on a literal at once), not
/// std::char_traits::length's: that is a character-by-character loop in constant evaluation (clang 14
/// spends about 20,000 instructions per character on it, in every translation unit that reads the
/// table). One constructor for every literal, not a template over the literal's size: g++ 12 would
/// instantiate one per distinct length, which cost the rule table alone 32M compiler instructions
/// (docs/performance.md, "Include weight"). It is a std::string_view and adds nothing: read it as one.
/// From a pointer, it views the characters up to the first NUL; from a view, the view.
struct table_text : std::string_view {
    constexpr table_text() noexcept = default;
    constexpr table_text(char const* s) noexcept // NOLINT: implicit from a literal is the point
        : std::string_view(s, __builtin_strlen(s)) {}
    constexpr table_text(std::string_view s) noexcept : std::string_view(s) {} // NOLINT: any view converts
};

/// The `n` characters at `p`. The headers make every (pointer, length) std::string_view here: with
/// exactly std::string_view's own parameter types, overload resolution settles on the exact constructor
/// and never tests the (iterator, sentinel) constructor's contiguous_iterator constraint, which an int
/// length or a `char*` reaches and which costs g++ 12 about 60 ms of every translation unit the first
/// time (docs/performance.md, "Include weight").
constexpr std::string_view view_of(char const* p, std::size_t n) noexcept { return std::string_view(p, n); }

constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// Names are matched case-insensitively (ASCII) everywhere: at compile time and at run time alike.
constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

/// The value of a hex digit, or -1.
constexpr int hex_digit(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// "0x" + 1..max_digits hex digits.
constexpr bool parse_hex(std::string_view s, std::size_t max_digits, std::uint32_t& v) noexcept {
    if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || s.size() - 2 > max_digits) return false;
    std::uint32_t r = 0;
    for (std::size_t i = 2; i < s.size(); ++i) {
        int const d = hex_digit(s[i]);
        if (d < 0) return false;
        r = (r << 4) | static_cast<std::uint32_t>(d);
    }
    v = r;
    return true;
}

/// Writes the low `digits` nibbles of v as hex into out[0, digits) (most significant first).
constexpr void format_hex(std::uint64_t v, int digits, char* out, bool upper = false) noexcept {
    char const* const set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i) *out++ = set[(v >> (4 * i)) & 0xFU];
}

/// Writes s at out[at...] as far as out reaches; returns at + s.size() (the length it would need).
constexpr std::size_t put(std::span<char> const& out, std::size_t at, std::string_view s) noexcept {
    for (char c : s) {
        if (at < out.size()) out[at] = c;
        ++at;
    }
    return at;
}
/// `v` in upper-case hex without leading zeros (no "0x"), like put.
constexpr std::size_t put_hex(std::span<char> const& out, std::size_t at, std::uint64_t v) noexcept {
    char digits[16] = {};
    int n = 1;
    while (n < 16 && (v >> (4 * n)) != 0) ++n;
    format_hex(v, n, digits, true);
    return put(out, at, view_of(digits, static_cast<std::size_t>(n)));
}
constexpr std::size_t put_decimal(std::span<char> const& out, std::size_t at, std::uint64_t v) noexcept {
    char digits[20] = {}; // filled from the end: the most significant digit first
    std::size_t first = sizeof digits;
    do digits[--first] = static_cast<char>('0' + v % 10); while ((v /= 10) != 0);
    return put(out, at, view_of(digits + first, sizeof digits - first));
}


/// What the UTF-16 to UTF-8 encoder does with a surrogate that is not half of a pair.
enum class unpaired_surrogate : bool {
    keep,   ///< written as its own three bytes (a name Windows reports may hold one; nothing is lost)
    replace ///< written as U+FFFD (text for an XML parser, which refuses a lone surrogate)
};
/// The one UTF-16 to UTF-8 encoder: reads `count` code units through unit(i) and hands each UTF-8 byte
/// to put(byte). A high surrogate followed by a low one is one code point.
template <class Unit, class Put>
constexpr void encode_utf8_from_utf16(std::size_t count, Unit unit, Put put, unpaired_surrogate lone) noexcept {
    for (std::size_t i = 0; i < count; ++i) {
        std::uint32_t c = unit(i);
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < count) {
            std::uint32_t const lo = unit(i + 1);
            if (lo >= 0xDC00 && lo < 0xE000) c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00), ++i;
        }
        if (lone == unpaired_surrogate::replace && c >= 0xD800 && c < 0xE000) c = 0xFFFD;
        if (c < 0x80) {
            put(c);
        } else if (c < 0x800) {
            put(0xC0 | (c >> 6)), put(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            put(0xE0 | (c >> 12)), put(0x80 | ((c >> 6) & 0x3F)), put(0x80 | (c & 0x3F));
        } else {
            put(0xF0 | (c >> 18)), put(0x80 | ((c >> 12) & 0x3F)), put(0x80 | ((c >> 6) & 0x3F)), put(0x80 | (c & 0x3F));
        }
    }
}
} // namespace detail
ETWCTL_END_NAMESPACE
