// SPDX-License-Identifier: MIT
// etwctl/trace/text.hpp - the strings a trace holds, as views over its bytes.
//
// ETW payloads keep UTF-16LE strings (SDK: "strings are NUL-terminated UTF-16LE unless marked ANSI"; MOF
// `string` properties of the kernel's classes, TraceLogging's InType UnicodeString / CountedString) and
// 8-bit strings (ANSI ImageFileName, TraceLogging AnsiString / UTF-8 names). A UTF-16 string in a record
// is not aligned to 2 bytes in general (it follows a u8 or an odd-length ANSI string), so it is kept as
// bytes and read a code unit at a time: never as a char16_t pointer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/detail/text.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

/// UTF-16LE text inside a record: its bytes (an even count, without the terminating NUL).
class utf16_text {
public:
    constexpr utf16_text() noexcept = default;
    /// `bytes` holds the code units; an odd last byte is not part of the text.
    constexpr explicit utf16_text(std::span<std::byte const> bytes) noexcept : bytes_(bytes.first(bytes.size() & ~std::size_t{1})) {}

    /// Code units (not characters: a surrogate pair is two).
    constexpr std::size_t size() const noexcept { return bytes_.size() / 2; }
    constexpr bool empty() const noexcept { return bytes_.empty(); }
    /// The i-th code unit (i < size()).
    constexpr char16_t operator[](std::size_t i) const noexcept {
        return static_cast<char16_t>(std::to_integer<unsigned>(bytes_[2 * i]) | (std::to_integer<unsigned>(bytes_[2 * i + 1]) << 8));
    }
    constexpr std::span<std::byte const> bytes() const noexcept { return bytes_; }

    /// The text as UTF-8 into `out`: returns the bytes the whole text needs and writes only as many as fit
    /// (nothing past out's end). A surrogate pair is one code point; an unpaired surrogate becomes U+FFFD
    /// (a trace is untrusted input, and its text goes to JSON and terminals).
    constexpr std::size_t to_utf8(std::span<char> out) const noexcept {
        std::size_t n = 0;
        etwctl::detail::encode_utf8_from_utf16(
            size(), [&](std::size_t i) -> std::uint32_t { return (*this)[i]; },
            [&](std::uint32_t byte) {
                if (n < out.size()) out[n] = static_cast<char>(byte);
                ++n;
            },
            etwctl::detail::unpaired_surrogate::replace);
        return n;
    }
    /// Whether the text equals the ASCII string `s` (names, paths compared in tests and filters).
    constexpr bool equals_ascii(std::string_view s) const noexcept {
        if (s.size() != size()) return false;
        for (std::size_t i = 0; i < s.size(); ++i)
            if ((*this)[i] != static_cast<char16_t>(static_cast<unsigned char>(s[i]))) return false;
        return true;
    }

private:
    std::span<std::byte const> bytes_{};
};

/// A NUL-terminated UTF-16LE string at `offset` of `bytes`: the text up to the NUL, and the offset just past
/// the NUL (or bytes.size() when the text runs to the end without one: `terminated` says which).
struct utf16_field {
    utf16_text text;
    std::size_t next = 0;
    bool terminated = false;
};
constexpr utf16_field read_utf16z(std::span<std::byte const> bytes, std::size_t offset) noexcept {
    if (offset > bytes.size()) return {{}, bytes.size(), false};
    std::size_t i = offset;
    while (i + 1 < bytes.size()) {
        if (bytes[i] == std::byte{0} && bytes[i + 1] == std::byte{0})
            return {utf16_text(bytes.subspan(offset, i - offset)), i + 2, true};
        i += 2;
    }
    return {utf16_text(bytes.subspan(offset)), bytes.size(), false};
}

/// A NUL-terminated 8-bit string at `offset` (ANSI or UTF-8, as the field says), the same way.
struct ansi_field {
    std::string_view text;
    std::size_t next = 0;
    bool terminated = false;
};
inline ansi_field read_ansiz(std::span<std::byte const> bytes, std::size_t offset) noexcept {
    if (offset > bytes.size()) return {{}, bytes.size(), false};
    auto const* const first = reinterpret_cast<char const*>(bytes.data()) + offset;
    for (std::size_t i = offset; i < bytes.size(); ++i)
        if (bytes[i] == std::byte{0}) return {std::string_view(first, i - offset), i + 1, true};
    return {std::string_view(first, bytes.size() - offset), bytes.size(), false};
}

} // namespace trace
ETWCTL_END_NAMESPACE
