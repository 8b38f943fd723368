// Small text helpers for the tool: hex, JSON strings/objects, value parsing. Portable C++20 only
// (no <format>: gcc 12 lacks it; no POSIX calls: the tool also builds with mingw).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/group_mask.hpp"
#include "etwctl/names/parse.hpp"

namespace etwctl_tool {

inline std::string hex(std::uint64_t v, int digits) {
    static constexpr char d[] = "0123456789ABCDEF";
    std::string s = "0x";
    for (int i = digits - 1; i >= 0; --i) s += d[(v >> (4 * i)) & 0xFU];
    return s;
}
/// 0x with at least `digits` digits, more if the value needs them.
inline std::string hex_min(std::uint64_t v, int digits) {
    int n = 1;
    while (n < 16 && (v >> (4 * n)) != 0) ++n;
    return hex(v, n > digits ? n : digits);
}
inline std::string hex_byte(unsigned b) {
    static constexpr char d[] = "0123456789abcdef";
    return {d[(b >> 4) & 0xFU], d[b & 0xFU]};
}

inline bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

/// Levenshtein distance, ASCII case-insensitive (for did-you-mean suggestions).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t const sub = prev[j - 1] + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
            std::size_t const del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        prev.swap(cur);
    }
    return prev[b.size()];
}

/// Decimal or 0x-hex unsigned integer, the whole text, within max.
inline bool parse_uint(std::string_view s, std::uint64_t max, std::uint64_t& out) noexcept {
    if (s.empty()) return false;
    unsigned base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s.remove_prefix(2);
    }
    std::uint64_t v = 0;
    for (char c : s) {
        unsigned d;
        if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
        else return false;
        if (v > (max - d) / base) return false;
        v = v * base + d;
    }
    out = v;
    return true;
}

/// An interval in 100 ns units: a plain number, or a number with a unit: ns, us, ms, s (a period) or
/// Hz, kHz, MHz (a rate, turned into its period). Rounded to the nearest unit; 1..2^32-1.
inline bool parse_interval(std::string_view s, std::uint32_t& out, bool& had_unit) {
    had_unit = false;
    std::size_t i = 0;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) ++i;
    std::string_view const number = s.substr(0, i), unit = s.substr(i);
    if (number.empty() || number == ".") return false;
    if (unit.empty()) {
        std::uint64_t v = 0;
        if (!parse_uint(number, 0xFFFFFFFFULL, v) || v == 0) return false;
        out = static_cast<std::uint32_t>(v);
        return true;
    }
    had_unit = true;
    // Parse the decimal by hand: strtod would follow the C locale's decimal point.
    double value = 0, scale = 1;
    bool point = false;
    for (char c : number) {
        if (c == '.') {
            if (point) return false;
            point = true;
            continue;
        }
        if (point) scale /= 10;
        value = value * (point ? 1 : 10) + (c - '0') * (point ? scale : 1);
    }
    double units = 0; // in 100 ns
    if (iequals(unit, "ns")) units = value / 100;
    else if (iequals(unit, "us")) units = value * 10;
    else if (iequals(unit, "ms")) units = value * 10'000;
    else if (iequals(unit, "s")) units = value * 10'000'000;
    else if (iequals(unit, "hz") || iequals(unit, "khz") || iequals(unit, "mhz")) {
        double const hz = value * (iequals(unit, "hz") ? 1 : iequals(unit, "khz") ? 1e3 : 1e6);
        if (hz <= 0) return false;
        units = 1e7 / hz;
    } else {
        return false;
    }
    units += 0.5;
    if (units < 1 || units > 4294967295.0) return false;
    out = static_cast<std::uint32_t>(units);
    return true;
}

/// "1 ms, 1000.0 Hz"-style description of a timer interval in 100 ns units.
inline std::string describe_period(std::uint32_t units) {
    auto fixed = [](double v, int decimals) {
        std::string s = std::to_string(static_cast<long long>(v));
        if (decimals > 0) {
            double frac = v - static_cast<double>(static_cast<long long>(v));
            s += '.';
            for (int i = 0; i < decimals; ++i) {
                frac *= 10;
                int const d = static_cast<int>(frac);
                s += static_cast<char>('0' + d);
                frac -= d;
            }
        }
        return s;
    };
    double const us = units / 10.0;
    std::string p = us >= 1000 ? fixed(us / 1000 + 5e-9, 4) + " ms" : fixed(us + 5e-9, 1) + " us";
    return p + ", " + fixed(1e7 / units + 0.05, 1) + " Hz";
}

/// format_kernel_flags of the whole mask, however long (the text is sized from the returned length).
inline std::string kernel_flags_text(etwctl::group_mask const& m) {
    std::string t(512, '\0');
    std::size_t n = etwctl::format_kernel_flags(m, std::span<char>(t.data(), t.size()));
    if (n >= t.size()) {
        t.assign(n + 1, '\0');
        n = etwctl::format_kernel_flags(m, std::span<char>(t.data(), t.size()));
    }
    t.resize(n);
    return t;
}

/// The length of the well-formed UTF-8 sequence at s[i] (1-4), or 0 if the bytes there are not one
/// (a stray continuation byte, a truncated or overlong sequence, a surrogate, a value past U+10FFFF).
inline std::size_t utf8_sequence(std::string_view s, std::size_t i) {
    auto const b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    unsigned char const c = b(0);
    std::size_t const n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((b(k) & 0xC0) != 0x80) return 0;
    if (n == 3 && ((c == 0xE0 && b(1) < 0xA0) || (c == 0xED && b(1) > 0x9F))) return 0; // overlong; surrogates
    if (n == 4 && ((c == 0xF0 && b(1) < 0x90) || (c == 0xF4 && b(1) > 0x8F))) return 0; // overlong; past U+10FFFF
    return n;
}

/// A JSON string: valid UTF-8 as it is, control characters and every byte that is not part of a
/// well-formed UTF-8 sequence escaped (\u00XX, the byte's value), so the output is always valid UTF-8.
inline std::string json_string(std::string_view s) {
    std::string o = "\"";
    for (std::size_t i = 0; i < s.size(); ++i) {
        char const c = s[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            std::size_t const n = utf8_sequence(s, i);
            if (n == 0) {
                o += "\\u00" + hex_byte(static_cast<unsigned char>(c));
            } else {
                o += s.substr(i, n);
                i += n - 1;
            }
            continue;
        }
        switch (c) {
        case '"': o += "\\\""; break;
        case '\\': o += "\\\\"; break;
        case '\n': o += "\\n"; break;
        case '\t': o += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) o += "\\u00" + hex_byte(static_cast<unsigned char>(c));
            else o += c;
        }
    }
    return o + "\"";
}

/// A JSON object built member by member (insertion order kept).
class json_object {
public:
    json_object& raw(std::string_view key, std::string const& value) {
        body_ += (body_.empty() ? "" : ",") + json_string(key) + ":" + value;
        return *this;
    }
    json_object& str(std::string_view key, std::string_view value) { return raw(key, json_string(value)); }
    json_object& num(std::string_view key, std::uint64_t value) { return raw(key, std::to_string(value)); }
    json_object& boolean(std::string_view key, bool value) { return raw(key, value ? "true" : "false"); }
    std::string text() const { return "{" + body_ + "}"; }

private:
    std::string body_;
};

inline std::string json_array(std::vector<std::string> const& items) {
    std::string o = "[";
    for (std::size_t i = 0; i < items.size(); ++i) o += (i ? "," : "") + items[i];
    return o + "]";
}

} // namespace etwctl_tool
