// SPDX-License-Identifier: MIT
// etwctl/wpr/validate.hpp - checks a wpr::document against WPR's schema (etwctl/wpr/schema.hpp): the
// elements' order and counts, the attributes (known, required, of their type: enumerations, patterns,
// ranges), the values unique within a list (xs:key), and each Id unique across the file (IdKey). Each
// fault is one finding naming the line, the element and the rule. Also the rules WPR's docs state but
// Microsoft's own files break (at most four profiles, one Name, each File profile with its Memory twin),
// as warnings. Opt-in and allocating, as all of etwctl/wpr/.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "etwctl/config.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/names/wpr.hpp"
#include "etwctl/wpr/document.hpp"
#include "etwctl/wpr/plan.hpp"
#include "etwctl/wpr/schema.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {
namespace detail {

/// XML Schema's whiteSpace="collapse" for the value types that have it (numbers, booleans).
[[nodiscard]] inline std::string_view collapse(std::string_view v) noexcept {
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t' || v.front() == '\r' || v.front() == '\n')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r' || v.back() == '\n')) v.remove_suffix(1);
    return v;
}

/// An xs:unsignedX-style number: optional '+', decimal digits; nullopt if malformed or above max.
[[nodiscard]] inline std::optional<std::uint64_t> parse_unsigned(std::string_view v, std::uint64_t max) noexcept {
    v = collapse(v);
    if (!v.empty() && v.front() == '+') v.remove_prefix(1);
    if (v.empty()) return std::nullopt;
    std::uint64_t n = 0;
    for (char c : v) {
        if (c < '0' || c > '9') return std::nullopt;
        std::uint64_t const d = static_cast<std::uint64_t>(c - '0');
        if (n > (max - d) / 10) return std::nullopt;
        n = n * 10 + d;
    }
    return n;
}

/// xs:decimal: [+-]? digits with an optional fraction (no exponent).
[[nodiscard]] inline std::optional<double> parse_decimal(std::string_view v) noexcept {
    v = collapse(v);
    std::string_view digits = v;
    if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) digits.remove_prefix(1);
    bool any = false;
    bool dot = false;
    for (char c : digits) {
        if (c == '.' && !dot) dot = true;
        else if (c >= '0' && c <= '9') any = true;
        else return std::nullopt;
    }
    if (!any) return std::nullopt;
    if (!v.empty() && v.front() == '+') v.remove_prefix(1);
    double d = 0;
    auto const r = std::from_chars(v.data(), v.data() + v.size(), d, std::chars_format::fixed);
    if (r.ec != std::errc{} || r.ptr != v.data() + v.size()) return std::nullopt;
    return d;
}

/// xs:float: a decimal with an optional exponent, or INF, -INF, NaN.
[[nodiscard]] inline bool is_float(std::string_view v) noexcept {
    v = collapse(v);
    if (v == "INF" || v == "-INF" || v == "+INF" || v == "NaN") return true;
    if (!v.empty() && v.front() == '+') v.remove_prefix(1);
    if (v.empty()) return false;
    for (char c : v)
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) return false;
    double d = 0;
    auto const r = std::from_chars(v.data(), v.data() + v.size(), d, std::chars_format::general);
    return r.ec == std::errc{} && r.ptr == v.data() + v.size();
}

[[nodiscard]] inline bool is_integer(std::string_view v) noexcept {
    v = collapse(v);
    if (!v.empty() && (v.front() == '+' || v.front() == '-')) v.remove_prefix(1);
    if (v.empty()) return false;
    for (char c : v)
        if (c < '0' || c > '9') return false;
    return true;
}

[[nodiscard]] inline std::optional<bool> parse_boolean(std::string_view v) noexcept {
    v = collapse(v);
    if (v == "true" || v == "1") return true;
    if (v == "false" || v == "0") return false;
    return std::nullopt;
}

[[nodiscard]] constexpr bool is_hex_digit(char c) noexcept {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// HexOrDecValue, (0[xX])?[a-fA-F0-9]+, as a number: hexadecimal with the prefix, decimal without (a
/// decimal number with hex letters is refused by the caller's read). nullopt if malformed or above max.
[[nodiscard]] inline std::optional<std::uint64_t> parse_hex_or_dec(std::string_view v, std::uint64_t max) noexcept {
    if (v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
        std::uint64_t n = 0;
        for (char c : v.substr(2)) {
            if (!is_hex_digit(c)) return std::nullopt;
            unsigned const d = c <= '9' ? static_cast<unsigned>(c - '0') : static_cast<unsigned>((c | 0x20) - 'a' + 10);
            if (n > (max - d) / 16) return std::nullopt;
            n = n * 16 + d;
        }
        return n;
    }
    return parse_unsigned(v, max);
}

[[nodiscard]] inline bool matches_hex_or_dec(std::string_view v) noexcept {
    if (v.size() >= 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) v.remove_prefix(2);
    if (v.empty()) return false;
    for (char c : v)
        if (!is_hex_digit(c)) return false;
    return true;
}

[[nodiscard]] inline bool is_keyword_name(std::string_view v) noexcept {
    for (auto const& k : wpr_keyword_table)
        if (k.name == v) return true;
    for (auto const& k : wpr_keyword_without_value)
        if (k.name == v) return true;
    return false;
}
[[nodiscard]] inline bool is_stack_name(std::string_view v) noexcept {
    for (auto n : wpr_stack_names)
        if (n == v) return true;
    for (auto n : wpr_stack_names_without_hook)
        if (n == v) return true;
    return false;
}

/// How much work "did you mean" suggestions may take in one validation or one resolution: each name
/// looked at costs its length plus, when its length is near enough to be suggested, the cells of its edit
/// distance (edit_distance is capped at 64 characters). 2^22 is about 10,000 comparisons of 20-character
/// names (a few typos against a few hundred Ids many times over), some milliseconds; a file with thousands
/// of unknown names against thousands of Ids would otherwise take time in the product of the two. Once
/// spent, errors come without a suggestion (docs/choices.md, "WPR input limits").
inline constexpr std::uint64_t suggestion_work_limit = std::uint64_t{1} << 22;
struct suggestion_budget {
    std::uint64_t left = suggestion_work_limit;
};

/// The schema's spelling of a value that differs only in case, else the nearest close value, else "".
/// Within the budget: when it runs out (here or before), "".
template <class Names>
[[nodiscard]] std::string nearest_value(std::string_view v, Names const& each_name, suggestion_budget& budget) {
    if (budget.left == 0) return {};
    std::string exact_but_case;
    etwctl::detail::nearest_name n{v};
    each_name([&](std::string_view name) {
        if (budget.left == 0) return;
        bool const close = etwctl::detail::may_be_suggested(v, name); // (not `near`: a Windows SDK macro)
        std::uint64_t const cost = 1 + name.size() + (close ? std::uint64_t{v.size()} * name.size() : 0);
        if (cost >= budget.left) {
            budget.left = 0;
            return;
        }
        budget.left -= cost;
        work.suggestion_work += cost;
        if (exact_but_case.empty() && etwctl::detail::iequals(name, v)) exact_but_case = std::string(name);
        if (close) n.consider(name);
    });
    if (budget.left == 0) return {}; // ran out before every name was seen: no suggestion rather than a poor one
    if (!exact_but_case.empty()) return exact_but_case;
    return std::string(n.result());
}
/// The same with a budget of its own (a single question, as wpr -start's profile name).
template <class Names>
[[nodiscard]] std::string nearest_value(std::string_view v, Names const& each_name) {
    suggestion_budget budget;
    return nearest_value(v, each_name, budget);
}

inline std::string suggestion_text(std::string const& s) { return s.empty() ? std::string() : "; did you mean '" + s + "'?"; }

/// Checks one attribute value against its rule: "" if it is valid, else what is wrong (a sentence).
[[nodiscard]] inline std::string value_fault(schema::attribute_rule const& r, std::string_view v, suggestion_budget& budget) {
    using schema::value_kind;
    std::string const quoted = "'" + std::string(v) + "'";
    switch (r.kind) {
    case value_kind::text: return {};
    case value_kind::id:
        if (v.empty()) return "an Id (IdType) needs at least one character";
        for (char c : v)
            if (c == ':' || c == ' ' || c == '\t' || c == '\r' || c == '\n')
                return quoted + " is not an IdType: an Id has no ':' and no white space";
        return {};
    case value_kind::boolean:
        return parse_boolean(v) ? std::string() : quoted + " is not a boolean (true, false, 1 or 0)";
    case value_kind::float_number: return is_float(v) ? std::string() : quoted + " is not a number (xs:float)";
    case value_kind::decimal: return parse_decimal(v) ? std::string() : quoted + " is not a decimal number";
    case value_kind::integer: return is_integer(v) ? std::string() : quoted + " is not an integer";
    case value_kind::u8: return parse_unsigned(v, 255) ? std::string() : quoted + " is not a number in 0..255 (xs:unsignedByte)";
    case value_kind::u16_min1: {
        auto const n = parse_unsigned(v, 65535);
        return n && *n >= 1 ? std::string() : quoted + " is not a number in 1..65535";
    }
    case value_kind::u32:
        return parse_unsigned(v, 0xFFFFFFFFULL) ? std::string() : quoted + " is not a number in 0..4294967295 (xs:unsignedInt)";
    case value_kind::u32_min1: {
        auto const n = parse_unsigned(v, 0xFFFFFFFFULL);
        return n && *n >= 1 ? std::string() : quoted + " is not a number in 1..4294967295";
    }
    case value_kind::file_max: return parse_unsigned(v, 16) ? std::string() : quoted + " is not a number in 0..16";
    case value_kind::counter_interval: {
        auto const n = parse_unsigned(v, 2147483647);
        return n && *n >= 1221 ? std::string() : quoted + " is not an interval in 1221..2147483647";
    }
    case value_kind::timeout:
        return v == "infinite" || parse_unsigned(v, 4294967) ? std::string()
                                                             : quoted + " is not a timeout (0..4294967 seconds, or 'infinite')";
    case value_kind::delay: {
        auto const n = parse_unsigned(v, 3600);
        return n && *n >= 1 ? std::string() : quoted + " is not a delay in 1..3600";
    }
    case value_kind::hex_or_dec:
        return matches_hex_or_dec(v) ? std::string() : quoted + " is not a number in hexadecimal (0x...) or decimal";
    case value_kind::custom_keyword: {
        bool ok = v.size() >= 3 && v.size() <= 10 && v[0] == '0' && v[1] == 'x';
        for (std::size_t i = 2; ok && i < v.size(); ++i) ok = is_hex_digit(v[i]);
        return ok ? std::string() : quoted + " is not a custom keyword: 0x and 1 to 8 hex digits (a group-mask value)";
    }
    case value_kind::pool_tag:
        return !v.empty() && v.size() <= 4 ? std::string() : quoted + " is not a pool tag (1 to 4 characters)";
    case value_kind::transition_tag:
        if (v.empty()) return "a transition tag needs at least one character";
        for (char c : v)
            if (c == '\\' || c == '/' || c == ':' || c == '*' || c == '?' || c == '|' || c == '\f' || c == '>' || c == '"')
                return quoted + " is not a transition tag (none of \\ / : * ? | > \" )";
        return {};
    case value_kind::choice: {
        for (std::size_t i = 0; i < r.values.count; ++i)
            if (r.values.values[i] == v) return {};
        std::string allowed;
        for (std::size_t i = 0; i < r.values.count; ++i) allowed += (i ? ", " : "") + std::string(r.values.values[i]);
        std::string const s = nearest_value(
            v, [&](auto f) {
                for (std::size_t i = 0; i < r.values.count; ++i) f(r.values.values[i]);
            },
            budget);
        return quoted + " is not one of " + allowed + suggestion_text(s);
    }
    case value_kind::keyword_name: {
        if (is_keyword_name(v)) return {};
        std::string const s = nearest_value(
            v, [](auto f) {
                for (auto const& k : wpr_keyword_table) f(k.name);
                for (auto const& k : wpr_keyword_without_value) f(k.name);
            },
            budget);
        return quoted + " is not a SystemProvider keyword of WPR's schema" + suggestion_text(s);
    }
    case value_kind::stack_name: {
        if (is_stack_name(v)) return {};
        std::string const s = nearest_value(
            v, [](auto f) {
                for (auto n : wpr_stack_names) f(n);
                for (auto n : wpr_stack_names_without_hook) f(n);
            },
            budget);
        std::string t = quoted + " is not a Stack name of WPR's schema" + suggestion_text(s);
        if (s.empty()) {
            if (auto const* e = find_kernel_event(v); e && e->xperf_name) // xperf's spelling of a WPR name
                for (auto n : wpr_stack_names)
                    if (find_kernel_event(n) && find_kernel_event(n)->hook() == e->hook()) {
                        t += "; '" + std::string(v) + "' is xperf's name, WPR's is '" + std::string(n) + "'";
                        break;
                    }
        }
        return t;
    }
    }
    return {};
}

[[nodiscard]] inline bool infrastructure_attribute(std::string_view n) noexcept {
    return n == "xmlns" || n.substr(0, 6) == "xmlns:" || n.substr(0, 4) == "xsi:" || n.substr(0, 4) == "xml:";
}

struct validator {
    std::string_view file;
    std::vector<finding>& out;
    suggestion_budget budget{};

    void error(check what, xml_element const& e, std::string text, xml_attribute const* a = nullptr) {
        out.push_back(finding_at(severity::error, what, file, e, std::move(text), a));
    }
    void warning(check what, xml_element const& e, std::string text, xml_attribute const* a = nullptr) {
        out.push_back(finding_at(severity::warning, what, file, e, std::move(text), a));
    }

    void attributes(xml_element const& e, schema::type_rule const& r) {
        std::vector<std::string> suggested; // a misspelt required attribute is one fault, not two
        for (auto const& a : e.attributes) {
            if (infrastructure_attribute(a.name)) continue;
            schema::attribute_rule const* rule = nullptr;
            for (std::size_t i = 0; i < r.attribute_count; ++i)
                if (r.attributes[i].name == a.name) rule = &r.attributes[i];
            if (!rule) {
                bool documented = false;
                for (auto const& d : schema::documented_only) documented = documented || (d.element == e.name && d.attribute == a.name);
                if (documented) {
                    warning(check::attribute, e,
                            "attribute '" + a.name + "' is in WPR's docs but not in its schema (WPRControlProfiles.xsd); "
                            "etwctl does not carry it", &a);
                    continue;
                }
                std::string allowed;
                for (std::size_t i = 0; i < r.attribute_count; ++i) allowed += (i ? ", " : "") + std::string(r.attributes[i].name);
                std::string const s = nearest_value(
                    a.name, [&](auto f) {
                        for (std::size_t i = 0; i < r.attribute_count; ++i) f(r.attributes[i].name);
                    },
                    budget);
                suggested.push_back(s);
                error(check::attribute, e,
                      "unknown attribute '" + a.name + "'" + suggestion_text(s) +
                          (allowed.empty() ? std::string(" (this element has no attributes)") : " (the schema allows: " + allowed + ")"),
                      &a);
                continue;
            }
            if (std::string const fault = value_fault(*rule, a.value, budget); !fault.empty())
                error(check::value, e, a.name + ": " + fault, &a);
        }
        for (std::size_t i = 0; i < r.attribute_count; ++i) {
            std::string const name(r.attributes[i].name);
            if (r.attributes[i].required && !e.has(name) &&
                std::find(suggested.begin(), suggested.end(), name) == suggested.end())
                error(check::attribute, e, "missing required attribute '" + name + "'");
        }
    }

    static std::string order_text(schema::type_rule const& r) {
        std::string s;
        for (std::size_t i = 0; i < r.content_count; ++i) {
            s += (i ? ", " : "") + std::string(r.content[i].name);
            if (!r.content[i].alt_name.empty()) s += " or " + std::string(r.content[i].alt_name);
        }
        return s;
    }

    void content(xml_element const& e, schema::type_rule const& r) {
        std::size_t p = 0;     // the current particle
        std::size_t count = 0; // elements matched to it so far
        xml_element const* first_of_particle = nullptr;
        auto particle_has = [&](std::size_t i, std::string_view n) {
            return r.content[i].name == n || (!r.content[i].alt_name.empty() && r.content[i].alt_name == n);
        };
        for (auto const& c : e.children) {
            std::size_t q = p;
            while (q < r.content_count && !particle_has(q, c.name)) ++q;
            if (q == r.content_count) {
                bool earlier = false;
                for (std::size_t i = 0; i < p; ++i) earlier = earlier || particle_has(i, c.name);
                if (earlier) {
                    error(check::element, c,
                          "element order: <" + c.name + "> comes after <" + std::string(r.content[p].name) + "> here, but the schema's order in <" +
                              e.name + "> is: " + order_text(r));
                } else if (r.content_count == 0) {
                    error(check::element, c, "<" + e.name + "> has no child elements in WPR's schema");
                } else {
                    std::string const s = nearest_value(
                        c.name, [&](auto f) {
                            for (std::size_t i = 0; i < r.content_count; ++i) {
                                f(r.content[i].name);
                                if (!r.content[i].alt_name.empty()) f(r.content[i].alt_name);
                            }
                        },
                        budget);
                    error(check::element, c,
                          "<" + c.name + "> is not allowed in <" + e.name + ">" + suggestion_text(s) + " (the schema allows, in this order: " +
                              order_text(r) + ")");
                }
                continue; // stay at the current particle
            }
            // Particles skipped on the way must have been optional.
            for (std::size_t i = p; i < q; ++i) {
                std::size_t const seen = i == p ? count : 0;
                if (seen < r.content[i].min)
                    error(check::element, c,
                          "<" + e.name + "> needs " + std::to_string(r.content[i].min) + " <" + std::string(r.content[i].name) +
                              "> before <" + c.name + "> (the schema's order: " + order_text(r) + ")");
            }
            if (q != p) {
                p = q;
                count = 0;
                first_of_particle = nullptr;
            }
            ++count;
            if (!first_of_particle) first_of_particle = &c;
            if (count > r.content[p].max)
                error(check::element, c,
                      "at most " + std::to_string(r.content[p].max) + " <" + std::string(r.content[p].name) + "> in <" + e.name +
                          "> (the schema's limit)");
            element(c, c.name == r.content[p].name ? r.content[p].of : r.content[p].alt);
        }
        for (std::size_t i = p; i < r.content_count; ++i) {
            std::size_t const seen = i == p ? count : 0;
            if (seen < r.content[i].min)
                error(check::element, e,
                      "<" + e.name + "> needs at least " + std::to_string(r.content[i].min) + " <" + std::string(r.content[i].name) + ">");
        }
        if (r.value_key) {
            std::map<std::string, xml_element const*> seen;
            for (auto const& c : e.children) {
                auto const* v = c.attribute("Value");
                if (!v) continue;
                auto const [it, fresh] = seen.emplace(v->value, &c);
                if (!fresh)
                    error(check::unique_value, c,
                          "'" + v->value + "' is given twice in this <" + e.name + "> (first at line " + std::to_string(it->second->at.line) +
                              "); each value once",
                          v);
            }
        }
    }

    void element(xml_element const& e, schema::type t) {
        schema::type_rule const& r = schema::rule_for(t);
        attributes(e, r);
        if (!e.text.empty())
            error(check::element, e, "character data '" + e.text.substr(0, 40) + "' is not allowed here (WPR's elements have only attributes and elements)");
        content(e, r);
    }
};

} // namespace detail

/// The schema's checks, and the Id uniqueness across the file. Findings are appended to out.
inline void validate(document const& d, std::vector<finding>& out) {
    if (!d.root) return;
    xml_element const& root = *d.root;
    detail::validator v{d.file, out};
    if (root.name != "WindowsPerformanceRecorder") {
        v.error(check::element, root, "the root element of a .wprp is <WindowsPerformanceRecorder>, not <" + root.name + ">");
        return;
    }
    v.element(root, schema::type::root);
    // IdKey: every grandchild of the root has an Id unique across the file, whatever its element.
    std::map<std::string, xml_element const*> ids;
    for (auto const& child : root.children)
        for (auto const& g : child.children) {
            auto const* id = g.attribute("Id");
            if (!id) continue; // a required attribute: reported above
            auto const [it, fresh] = ids.emplace(id->value, &g);
            if (!fresh)
                v.error(check::unique_id, g,
                        "Id '" + id->value + "' is given twice in this file (first on <" + it->second->name + "> at line " +
                            std::to_string(it->second->at.line) + "); an Id is unique across the file, whatever the element",
                        id);
        }
    // OnOffTransitionKey: each transition type once.
    for (auto const& child : root.children) {
        if (child.name != "OnOffTransitionConfigurations") continue;
        std::map<std::string, xml_element const*> types;
        for (auto const& g : child.children)
            if (auto const* t = g.attribute("Type"); t && !types.emplace(t->value, &g).second)
                v.error(check::unique_value, g, "transition Type '" + t->value + "' is given twice; each type once", t);
    }
}

/// The rules WPR's docs state (learn.microsoft.com wpt/3-profile-definitions, detail-level,
/// logging-mode) but Microsoft's own published profiles break: at most four profiles in a file, one
/// profile Name per file, and each File profile with its Memory twin. Warnings only.
inline void check_doc_rules(document const& d, std::vector<finding>& out) {
    if (!d.root) return;
    std::vector<xml_element const*> profiles;
    xml_element const* container = nullptr;
    for (auto const& c : d.root->children)
        if (c.name == "Profiles") {
            container = &c;
            for (auto const& p : c.children)
                if (p.name == "Profile") profiles.push_back(&p);
        }
    if (!container) return;
    auto warn = [&](xml_element const& e, std::string text) {
        out.push_back(finding_at(severity::warning, check::doc_rule, d.file, e, std::move(text)));
    };
    if (profiles.size() > 4)
        warn(*container, std::to_string(profiles.size()) +
                             " profiles: WPR's docs allow at most four per file (one per detail level and logging mode); "
                             "WPR itself accepts more");
    std::set<std::string> names;
    for (auto const* p : profiles) names.insert(std::string(p->value_of("Name")));
    if (names.size() > 1) {
        std::string list;
        for (auto const& n : names) list += (list.empty() ? "" : ", ") + n;
        warn(*container, "several profile Names (" + list + "): WPR's docs ask for one Name per file; WPR itself accepts several");
    }
    std::set<std::pair<std::string_view, std::string_view>> memory; // Name and DetailLevel of each Memory profile
    for (auto const* p : profiles)
        if (p->value_of("LoggingMode") == "Memory") memory.emplace(p->value_of("Name"), p->value_of("DetailLevel"));
    for (auto const* p : profiles) {
        if (p->value_of("LoggingMode") != "File") continue;
        if (!memory.count({p->value_of("Name"), p->value_of("DetailLevel")}))
            warn(*p, "profile '" + std::string(p->value_of("Id")) +
                         "' has no Memory twin: WPR's docs ask for each profile in both logging modes; WPR itself accepts it");
    }
}

} // namespace wpr
ETWCTL_END_NAMESPACE
