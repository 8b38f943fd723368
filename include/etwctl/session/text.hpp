// SPDX-License-Identifier: MIT
// etwctl/session/text.hpp - a session name or log-file path as the caller has it, turned into the 16-bit
// units the properties block carries (names on the wire are UTF-16 on every platform).
//
//   session_text{"etwctl-demo"}      char: UTF-8 (ASCII is UTF-8), decoded when the block is built
//   session_text{u"etwctl-demo"}     char16_t: UTF-16 as is
//   session_text{L"etwctl-demo"}     wchar_t where it is 16 bits (Windows): UTF-16 as is
//
// A view: it points at the caller's characters and copies nothing; the characters must outlive the
// configuration or call that holds it (a string literal always does). No heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/kernel/session_concept.hpp"

ETWCTL_BEGIN_NAMESPACE

class session_text {
public:
    constexpr session_text() noexcept = default;
    constexpr session_text(char const* s) noexcept : session_text(std::string_view(s)) {} // NOLINT: literals
    constexpr session_text(std::string_view s) noexcept : narrow_(s.data()), size_(s.size()), wide_(false) {} // NOLINT
    constexpr session_text(char16_t const* s) noexcept : session_text(std::u16string_view(s)) {}                 // NOLINT
    constexpr session_text(std::u16string_view s) noexcept : utf16_(s.data()), size_(s.size()), wide_(true) {}   // NOLINT
    /// wchar_t text where wchar_t is 16 bits (Windows: L"...", LPCWSTR, std::wstring_view).
    template <class W>
        requires(std::same_as<W, wchar_t> && sizeof(wchar_t) == 2)
    constexpr session_text(W const* s) noexcept : session_text(std::basic_string_view<W>(s)) {} // NOLINT
    template <class W>
        requires(std::same_as<W, wchar_t> && sizeof(wchar_t) == 2)
    constexpr session_text(std::basic_string_view<W> s) noexcept // NOLINT
        : wchar_(s.data()), size_(s.size()), wide_(true), is_wchar_(true) {}

    /// Any string object that converts to one of the views above (std::string, std::u16string, ...).
    template <class S>
        requires(std::is_class_v<S> && std::is_convertible_v<S const&, std::string_view> &&
                 !std::is_same_v<S, std::string_view>)
    constexpr session_text(S const& s) noexcept : session_text(std::string_view(s)) {} // NOLINT
    template <class S>
        requires(std::is_class_v<S> && std::is_convertible_v<S const&, std::u16string_view> &&
                 !std::is_same_v<S, std::u16string_view>)
    constexpr session_text(S const& s) noexcept : session_text(std::u16string_view(s)) {} // NOLINT

    /// A temporary string object would leave the view dangling once the statement ends: name it first.
    template <class S>
        requires(std::is_class_v<std::remove_cvref_t<S>> && !std::is_lvalue_reference_v<S> &&
                 !std::is_trivially_copyable_v<std::remove_cvref_t<S>> &&
                 (std::is_convertible_v<S const&, std::string_view> || std::is_convertible_v<S const&, std::u16string_view>))
    session_text(S&&) = delete;

    constexpr bool empty() const noexcept { return size_ == 0; }
    /// Code units as given (bytes for char text).
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool is_utf16() const noexcept { return wide_; }

    /// Writes the text as UTF-16 into out[0, capacity) and a NUL after it when it fits. Returns the
    /// number of units the whole text needs (without the NUL), so a result >= capacity means it did not
    /// fit; npos for malformed UTF-8 (an overlong form, a surrogate, a stray or missing continuation byte).
    constexpr std::size_t copy_utf16(wide_char* out, std::size_t capacity) const noexcept {
        std::size_t n = 0;
        auto const put = [&](std::uint32_t unit) constexpr noexcept {
            if (n < capacity) out[n] = static_cast<wide_char>(unit);
            ++n;
        };
        if (wide_) {
            for (std::size_t i = 0; i < size_; ++i) put(is_wchar_ ? static_cast<std::uint32_t>(wchar_[i]) : static_cast<std::uint32_t>(utf16_[i]));
        } else {
            for (std::size_t i = 0; i < size_;) {
                std::uint32_t cp = 0;
                std::size_t const used = decode_utf8(i, cp);
                if (used == 0) return npos;
                i += used;
                if (cp >= 0x10000) {
                    put(0xD800 + ((cp - 0x10000) >> 10));
                    put(0xDC00 + ((cp - 0x10000) & 0x3FF));
                } else {
                    put(cp);
                }
            }
        }
        if (n < capacity) out[n] = wide_char{0};
        return n;
    }

    /// The UTF-16 length (npos for malformed UTF-8).
    constexpr std::size_t utf16_length() const noexcept { return copy_utf16(nullptr, 0); }

    /// copy_utf16's answer for malformed UTF-8.
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

private:
    constexpr unsigned char byte(std::size_t i) const noexcept { return static_cast<unsigned char>(narrow_[i]); }
    /// The code point at narrow_[i]: bytes used, or 0 when malformed.
    constexpr std::size_t decode_utf8(std::size_t i, std::uint32_t& cp) const noexcept {
        unsigned char const b0 = byte(i);
        std::size_t len = 0;
        std::uint32_t min = 0;
        if (b0 < 0x80) return cp = b0, 1;
        if ((b0 & 0xE0) == 0xC0) len = 2, cp = b0 & 0x1FU, min = 0x80;
        else if ((b0 & 0xF0) == 0xE0) len = 3, cp = b0 & 0x0FU, min = 0x800;
        else if ((b0 & 0xF8) == 0xF0) len = 4, cp = b0 & 0x07U, min = 0x10000;
        else return 0;
        if (i + len > size_) return 0;
        for (std::size_t k = 1; k < len; ++k) {
            unsigned char const b = byte(i + k);
            if ((b & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (b & 0x3FU);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        return len;
    }

    char const* narrow_ = nullptr;
    char16_t const* utf16_ = nullptr;
    wchar_t const* wchar_ = nullptr;
    std::size_t size_ = 0;
    bool wide_ = false;
    bool is_wchar_ = false;
};

/// UTF-16 text (a name or path as Windows reports it) as UTF-8, into `out`: returns the bytes the whole
/// text needs, writing only as many as fit (nothing past out's end). A surrogate pair is one code point;
/// an unpaired surrogate is written as its own three bytes (as Windows' names may hold one). No heap.
constexpr std::size_t utf8_from_utf16(wide_string_view w, char* out, std::size_t capacity) noexcept {
    std::size_t n = 0;
    detail::encode_utf8_from_utf16(
        w.size(), [&](std::size_t i) -> std::uint32_t { return static_cast<std::uint16_t>(w[i]); },
        [&](std::uint32_t byte) {
            if (n < capacity) out[n] = static_cast<char>(byte);
            ++n;
        },
        detail::unpaired_surrogate::keep);
    return n;
}

ETWCTL_END_NAMESPACE
