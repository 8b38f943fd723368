// SPDX-License-Identifier: MIT
// etwctl/wpr/read.hpp - reads a .wprp file's text into a wpr::document with pugixml (Debian libpugixml-dev;
// CMake: link etwctl::wpr). This is the only header of etwctl that uses an XML library, and the only one
// that needs pugixml: everything after reading works on the plain tree of etwctl/wpr/document.hpp.
//
//   wpr::document d = wpr::read_document(text, "CPU.wprp");
//   if (!d.root) for (auto const& f : d.findings) std::puts(wpr::format(f).c_str());   // not well-formed
//
// The text may be UTF-8 (with or without a byte-order mark) or UTF-16 with a byte-order mark (converted
// to UTF-8 first). Positions are 1-based lines and columns of that UTF-8 text. Opt-in and allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/wpr/document.hpp"
#include "etwctl/wpr/plan.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {
namespace detail {

/// UTF-16 (LE or BE, after its byte-order mark) to UTF-8. Unpaired surrogates become U+FFFD.
inline std::string utf16_to_utf8(std::string_view bytes, bool little_endian) {
    std::string out;
    out.reserve(bytes.size());
    etwctl::detail::encode_utf8_from_utf16(
        bytes.size() / 2,
        [&](std::size_t i) -> std::uint32_t {
            auto const a = static_cast<std::uint8_t>(bytes[2 * i]);
            auto const b = static_cast<std::uint8_t>(bytes[2 * i + 1]);
            return little_endian ? (std::uint32_t{b} << 8 | a) : (std::uint32_t{a} << 8 | b);
        },
        [&](std::uint32_t byte) { out += static_cast<char>(byte); }, etwctl::detail::unpaired_surrogate::replace);
    return out;
}

/// Byte offsets to 1-based line and column (columns in characters of UTF-8).
class line_index {
public:
    explicit line_index(std::string_view text) : text_(text) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n') starts_.push_back(i + 1);
    }
    [[nodiscard]] position at(std::size_t offset) const noexcept {
        if (offset > text_.size()) offset = text_.size();
        std::size_t lo = 0;
        std::size_t hi = starts_.size();
        while (hi - lo > 1) { // the last line start <= offset
            std::size_t const mid = (lo + hi) / 2;
            if (starts_[mid] <= offset) lo = mid;
            else hi = mid;
        }
        std::uint32_t column = 1;
        for (std::size_t i = starts_[lo]; i < offset; ++i)
            if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column; // not a continuation byte
        return {static_cast<std::uint32_t>(lo + 1), column};
    }

private:
    std::string_view text_;
    std::vector<std::size_t> starts_;
};

/// A short quote of the text at an offset (to the end of the tag or line), for XML error messages.
inline std::string quote_at(std::string_view text, std::size_t offset) {
    if (offset >= text.size()) return {};
    std::size_t start = offset;
    while (start > 0 && text[start - 1] != '<' && text[start - 1] != '\n' && offset - start < 8) --start;
    if (start > 0 && text[start - 1] == '<') --start;
    std::size_t end = offset;
    while (end < text.size() && text[end] != '>' && text[end] != '\n' && end - start < 40) ++end;
    if (end < text.size() && text[end] == '>') ++end;
    return std::string(text.substr(start, end - start));
}

struct tree_builder {
    std::string_view file;
    line_index const& lines;
    char const* base; // the start of pugixml's parse buffer (names and values point into it)

    [[nodiscard]] position at(char const* p) const noexcept {
        return lines.at(static_cast<std::size_t>(p - base));
    }
    xml_element element(pugi::xml_node n) const {
        xml_element e;
        e.name = n.name();
        position const name_at = at(n.name());
        e.at = {name_at.line, name_at.column > 1 ? name_at.column - 1 : 1}; // the '<' before the name
        for (pugi::xml_attribute a : n.attributes())
            e.attributes.push_back({a.name(), a.value(), at(a.name())});
        for (pugi::xml_node c : n.children()) {
            if (c.type() == pugi::node_element) {
                e.children.push_back(element(c));
            } else if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
                std::string_view const v = c.value();
                for (char ch : v)
                    if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n') {
                        e.text += v;
                        break;
                    }
            }
        }
        return e;
    }
};

} // namespace detail

/// Reads a .wprp's text. A text that is not well-formed XML gives a document without a root and one
/// check::xml error naming pugixml's reason, the line and column, and the text there.
[[nodiscard]] inline document read_document(std::string_view text, std::string file) {
    document d;
    d.file = std::move(file);
    std::string converted;
    if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0xFF && static_cast<unsigned char>(text[1]) == 0xFE) {
        converted = detail::utf16_to_utf8(text.substr(2), true);
        text = converted;
    } else if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0xFE &&
               static_cast<unsigned char>(text[1]) == 0xFF) {
        converted = detail::utf16_to_utf8(text.substr(2), false);
        text = converted;
    } else if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
               static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF) {
        text.remove_prefix(3);
    }
    // After conversion the text is UTF-8 without a byte-order mark; an encoding= in the XML declaration
    // naming UTF-16 would now be wrong, so pugixml is told the encoding instead of reading it.
    detail::line_index const lines(text);
    pugi::xml_document x;
    pugi::xml_parse_result const r = x.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
    auto fault = [&](std::string why, position at) {
        finding f;
        f.level = severity::error;
        f.what = check::xml;
        f.file = d.file;
        f.line = at.line;
        f.column = at.column;
        f.text = std::move(why);
        d.findings.push_back(std::move(f));
    };
    if (!r) {
        std::size_t const offset = r.offset < 0 ? 0 : static_cast<std::size_t>(r.offset);
        std::string why = std::string("not well-formed XML: ") + r.description();
        if (std::string const q = detail::quote_at(text, offset); !q.empty()) why += " at '" + q + "'";
        fault(std::move(why), lines.at(offset));
        return d;
    }
    pugi::xml_node root;
    std::size_t roots = 0;
    for (pugi::xml_node c : x.children())
        if (c.type() == pugi::node_element) {
            if (roots++ == 0) root = c;
        }
    if (!root) {
        fault("no root element (a .wprp's root is <WindowsPerformanceRecorder>)", {});
        return d;
    }
    char const* base = root.name() - root.offset_debug();
    detail::tree_builder const b{d.file, lines, base};
    d.root = b.element(root);
    if (roots > 1) {
        fault("more than one root element", {});
        d.root.reset();
    }
    return d;
}

} // namespace wpr
ETWCTL_END_NAMESPACE
