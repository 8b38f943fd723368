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

#include <algorithm>
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

/// Byte offsets to 1-based line and column (columns in characters of UTF-8). Each lookup reads at most
/// two steps of 64 bytes: the characters before every 64th byte are counted once, when the index is made
/// (a one-line file of megabytes is not read again from the line's start for each element).
class line_index {
public:
    static constexpr std::size_t step = 64;

    explicit line_index(std::string_view text) : text_(text) {
        starts_.push_back(0);
        characters_.reserve(text.size() / step + 2);
        std::size_t characters = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if (i % step == 0) characters_.push_back(characters);
            if (text[i] == '\n') starts_.push_back(i + 1);
            if (!continuation(text[i])) ++characters;
        }
        if (text.size() % step == 0) characters_.push_back(characters); // the entry of offset text.size()
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
        std::size_t const column = characters_before(offset) - characters_before(starts_[lo]) + 1;
        return {static_cast<std::uint32_t>(lo + 1), static_cast<std::uint32_t>(column)};
    }

private:
    std::string_view text_;
    std::vector<std::size_t> starts_;
    std::vector<std::size_t> characters_; ///< [k]: the characters before byte k * step

    [[nodiscard]] static constexpr bool continuation(char c) noexcept { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
    [[nodiscard]] std::size_t characters_before(std::size_t offset) const noexcept {
        std::size_t const from = offset - offset % step;
        std::size_t n = characters_[offset / step];
        for (std::size_t i = from; i < offset; ++i)
            if (!continuation(text_[i])) ++n;
        work.column_bytes += offset - from;
        return n;
    }
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

/// The length of the character reference at the start of s when pugixml decodes it to U+0000, else 0.
/// pugixml reads &#N; and &#xN; into 32 bits and lets the number wrap, so &#x100000000; is a NUL as well
/// as &#0;, &#x0; and &#000;: this reads them the same way.
[[nodiscard]] constexpr std::size_t nul_reference(std::string_view s) noexcept {
    if (s.size() < 4 || s[0] != '&' || s[1] != '#') return 0;
    bool const hex = s[2] == 'x';
    std::size_t i = hex ? 3 : 2;
    std::uint32_t v = 0;
    std::size_t const first = i;
    for (; i < s.size() && s[i] != ';'; ++i) {
        char const c = s[i];
        std::uint32_t d = 0;
        if (c >= '0' && c <= '9') d = static_cast<std::uint32_t>(c - '0');
        else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = static_cast<std::uint32_t>((c | 0x20) - 'a' + 10);
        else return 0; // not a reference pugixml decodes: kept as written
        v = v * (hex ? 16U : 10U) + d;
    }
    if (i == s.size() || i == first) return 0;
    return v == 0 ? i + 1 : 0;
}

/// Walks pugixml's tree in document order without recursion (pugixml's own links: first child, next
/// sibling, parent), calling visit(node, depth) for every node under and including top (top's depth is 1).
template <class Visit>
void walk(pugi::xml_node top, Visit&& visit) {
    pugi::xml_node n = top;
    std::size_t depth = 1;
    while (n) {
        visit(n, depth);
        if (pugi::xml_node const c = n.first_child()) {
            n = c;
            ++depth;
            continue;
        }
        while (n != top && !n.next_sibling()) {
            n = n.parent();
            --depth;
        }
        if (n == top) break;
        n = n.next_sibling();
    }
}

/// The faults of well-formedness pugixml does not report, found before anything is built from its tree:
/// elements nested past max_nesting_depth, an attribute given twice on one element, and a character
/// reference to U+0000 in a value or text (pugixml decodes it and the value would end there).
struct screen {
    std::string_view text;
    line_index const& lines;
    char const* base;
    std::string_view file;
    std::vector<finding>& out;
    std::size_t listed = 0;     ///< findings of references and attributes listed
    std::size_t not_listed = 0; ///< and not (past max_listed)
    static constexpr std::size_t max_listed = 16;

    [[nodiscard]] std::size_t offset_of(char const* p) const noexcept {
        return p >= base && p <= base + text.size() ? static_cast<std::size_t>(p - base) : text.size();
    }
    [[nodiscard]] position element_at(pugi::xml_node n) const noexcept {
        position const name_at = lines.at(offset_of(n.name()));
        return {name_at.line, name_at.column > 1 ? name_at.column - 1 : 1}; // the '<' before the name
    }
    void fault(position at, std::string_view element, std::string why) {
        if (listed == max_listed) {
            ++not_listed;
            return;
        }
        ++listed;
        finding f;
        f.level = severity::error;
        f.what = check::xml;
        f.file = std::string(file);
        f.line = at.line;
        f.column = at.column;
        f.element = std::string(element);
        f.text = std::move(why);
        out.push_back(std::move(f));
    }

    /// Character references to U+0000 in the raw text of a value (from `from` to `end`).
    void nul_references(std::size_t from, std::size_t end, std::string_view element, std::string const& where) {
        std::string_view const raw = text.substr(from, end - from);
        for (std::size_t i = raw.find("&#"); i != std::string_view::npos; i = raw.find("&#", i + 1)) {
            std::size_t const n = nul_reference(raw.substr(i));
            if (n == 0) continue;
            fault(lines.at(from + i), element,
                  "not well-formed XML: '" + std::string(raw.substr(i, n)) + "' in " + where +
                      " is U+0000 (NUL), which XML does not allow, and the value would end there; remove it");
        }
    }

    void attributes(pugi::xml_node n) {
        std::vector<std::pair<std::string_view, std::size_t>> names; // name, offset of the name
        for (pugi::xml_attribute a : n.attributes()) {
            names.emplace_back(a.name(), offset_of(a.name()));
            std::size_t const value = offset_of(a.value());
            if (value == 0 || value > text.size()) continue;
            char const quote = text[value - 1];
            if (quote != '"' && quote != '\'') continue;
            std::size_t end = text.find(quote, value);
            if (end == std::string_view::npos) end = text.size();
            nul_references(value, end, n.name(), "attribute '" + std::string(a.name()) + "'");
        }
        if (names.size() < 2) return;
        // Given twice: sorted by name, then by place, every name equal to the one before is a repeat.
        std::sort(names.begin(), names.end());
        for (std::size_t i = 1; i < names.size(); ++i)
            if (names[i].first == names[i - 1].first) {
                std::size_t first = i - 1;
                while (first > 0 && names[first - 1].first == names[i].first) --first;
                position const was = lines.at(names[first].second);
                fault(lines.at(names[i].second), n.name(),
                      "not well-formed XML: attribute '" + std::string(names[i].first) + "' is given again (first at line " +
                          std::to_string(was.line) + ", column " + std::to_string(was.column) +
                          "); XML allows an attribute once on an element: remove one");
            }
    }

    /// True when nothing was found.
    bool check(pugi::xml_node root) {
        std::size_t deepest = 0;
        pugi::xml_node too_deep;
        walk(root, [&](pugi::xml_node n, std::size_t depth) {
            if (n.type() == pugi::node_element) {
                if (depth > deepest) deepest = depth;
                if (depth > max_nesting_depth && !too_deep) too_deep = n;
                attributes(n);
            } else if (n.type() == pugi::node_pcdata) {
                std::size_t const from = offset_of(n.value());
                std::size_t end = text.find('<', from);
                if (end == std::string_view::npos) end = text.size();
                nul_references(from, end, n.parent().name(), "the text of <" + std::string(n.parent().name()) + ">");
            }
        });
        if (not_listed != 0) {
            finding f;
            f.level = severity::error;
            f.what = check::xml;
            f.file = std::string(file);
            f.text = std::to_string(not_listed) + " more faults of the kinds above are not listed (the first " +
                     std::to_string(max_listed) + " are)";
            out.push_back(std::move(f));
        }
        if (too_deep) {
            // listed whatever the other faults: the one that says why nothing else was checked
            finding f;
            f.level = severity::error;
            f.what = check::xml;
            f.file = std::string(file);
            position const at = element_at(too_deep);
            f.line = at.line;
            f.column = at.column;
            f.element = too_deep.name();
            f.text = "elements nested " + std::to_string(deepest) + " deep (this one is the first past the limit): etwctl reads at most " +
                     std::to_string(max_nesting_depth) + " levels, and a profile of WPR's schema nests at most " +
                     std::to_string(schema_nesting_depth) + "; check that the file is a .wprp and that its elements are closed where they should be";
            out.push_back(std::move(f));
        }
        return listed == 0 && !too_deep;
    }
};

/// Builds the element tree from pugixml's, without recursion (its depth is checked first: screen).
struct tree_builder {
    line_index const& lines;
    char const* base; // the start of pugixml's parse buffer (names and values point into it)

    [[nodiscard]] position at(char const* p) const noexcept {
        return lines.at(static_cast<std::size_t>(p - base));
    }
    [[nodiscard]] xml_element head(pugi::xml_node n) const {
        xml_element e;
        e.name = n.name();
        position const name_at = at(n.name());
        e.at = {name_at.line, name_at.column > 1 ? name_at.column - 1 : 1}; // the '<' before the name
        for (pugi::xml_attribute a : n.attributes())
            e.attributes.push_back({a.name(), a.value(), at(a.name())});
        return e;
    }
    static void add_text(xml_element& e, std::string_view v) {
        for (char ch : v)
            if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n') {
                e.text += v;
                return;
            }
    }
    [[nodiscard]] xml_element build(pugi::xml_node root) const {
        xml_element top = head(root);
        std::vector<xml_element*> path{&top}; // path.back() is the element of n's parent
        pugi::xml_node n = root.first_child();
        while (n) {
            xml_element& parent = *path.back();
            if (n.type() == pugi::node_element) {
                parent.children.push_back(head(n));
                if (pugi::xml_node const c = n.first_child()) {
                    path.push_back(&parent.children.back()); // parent.children does not grow while below it
                    n = c;
                    continue;
                }
            } else if (n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata) {
                add_text(parent, n.value());
            }
            while (!n.next_sibling()) {
                n = n.parent();
                if (n == root) return top;
                path.pop_back();
            }
            n = n.next_sibling();
        }
        return top;
    }
};

} // namespace detail

/// Reads a .wprp's text. A text that is not well-formed XML gives a document without a root and
/// check::xml errors naming the reason, the line and column, and the text there: pugixml's reason, or
/// one pugixml lets through (a NUL, written or as &#0;; an attribute given twice; elements nested past
/// max_nesting_depth).
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
    // A NUL byte: pugixml stops there with a reason about what it was reading; say what it is.
    if (auto const nul = text.find('\0'); nul != std::string_view::npos) {
        auto const count = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\0'));
        fault("not well-formed XML: a NUL byte (U+0000), which XML does not allow; remove it" +
                  (count > 1 ? " (the file has " + std::to_string(count) + " NUL bytes: a UTF-16 file needs its byte-order mark)"
                             : std::string()),
              lines.at(nul));
        return d;
    }
    pugi::xml_document x;
    pugi::xml_parse_result const r = x.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
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
    if (roots > 1) {
        fault("more than one root element", {});
        return d;
    }
    char const* base = root.name() - root.offset_debug();
    detail::screen s{text, lines, base, d.file, d.findings};
    if (!s.check(root)) return d;
    detail::tree_builder const b{lines, base};
    d.root = b.build(root);
    return d;
}

} // namespace wpr
ETWCTL_END_NAMESPACE
