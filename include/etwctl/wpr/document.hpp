// SPDX-License-Identifier: MIT
// etwctl/wpr/document.hpp - a .wprp file as a plain element tree with positions: what etwctl/wpr/read.hpp
// makes of pugixml's parse, and what validation, inheritance and lowering read. No XML library here: a
// document can also be built by hand (tests do), and everything after reading is independent of pugixml.
// Opt-in and allocating, as all of etwctl/wpr/ (see plan.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/config.hpp"
#include "etwctl/wpr/plan.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {

/// Where in a file: 1-based line and column (columns count characters, not bytes).
struct position {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
};

struct xml_attribute {
    std::string name;
    std::string value;
    position at; ///< of the attribute's name
};

struct xml_element {
    std::string name;
    position at; ///< of the '<'
    std::vector<xml_attribute> attributes;
    std::vector<xml_element> children;
    std::string text; ///< character data that is not white space (none in a valid .wprp)
    std::size_t source = 0; ///< which document it comes from (its index in a profile set; 0 = the main file)

    [[nodiscard]] xml_attribute const* attribute(std::string_view n) const noexcept {
        for (auto const& a : attributes)
            if (a.name == n) return &a;
        return nullptr;
    }
    /// The attribute's value, or "" when absent.
    [[nodiscard]] std::string_view value_of(std::string_view n) const noexcept {
        auto const* a = attribute(n);
        return a ? std::string_view(a->value) : std::string_view{};
    }
    [[nodiscard]] bool has(std::string_view n) const noexcept { return attribute(n) != nullptr; }
};

/// One .wprp: its name (as given by the caller, for messages), the root element when the text is
/// well-formed XML, and what reading found.
struct document {
    std::string file;
    std::optional<xml_element> root;
    std::vector<finding> findings;
};

/// How deep elements may nest (the root is level 1). A .wprp of WPR's schema nests at most
/// schema_nesting_depth levels; a deeper file is refused when it is read (check::xml), before anything is
/// built from it. (Validation follows the schema's content models, so it never walks deeper than
/// schema_nesting_depth, whatever a document built by hand holds.) Why 64: docs/choices.md, "WPR input
/// limits".
inline constexpr std::size_t max_nesting_depth = 64;
/// The deepest nesting WPR's schema allows, the root being level 1 (tests/wpr computes it from
/// schema.hpp's tables).
inline constexpr std::size_t schema_nesting_depth = 9;

namespace detail {
/// The work reading and resolving did on this thread, counted so that tests can check that it grows
/// linearly with the input (two input sizes compared in one run, not a time limit). Not an interface:
/// what is counted may change with the code.
struct work_counters {
    std::uint64_t column_bytes = 0;    ///< bytes read to turn offsets into columns (read.hpp)
    std::uint64_t suggestion_work = 0; ///< characters compared to find a "did you mean" (validate.hpp)
};
inline thread_local work_counters work{};
} // namespace detail

/// A finding located at an element (or at one of its attributes).
[[nodiscard]] inline finding finding_at(severity level, check what, std::string_view file, xml_element const& e,
                                        std::string text, xml_attribute const* a = nullptr) {
    finding f;
    f.level = level;
    f.what = what;
    f.file = std::string(file);
    f.line = a ? a->at.line : e.at.line;
    f.column = a ? a->at.column : e.at.column;
    f.element = e.name;
    f.text = std::move(text);
    return f;
}

} // namespace wpr
ETWCTL_END_NAMESPACE
