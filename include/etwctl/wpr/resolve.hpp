// SPDX-License-Identifier: MIT
// etwctl/wpr/resolve.hpp - the inheritance half of etwctl/wpr/profiles.hpp: resolves Base= chains and
// Operation="Set|Add|Remove" across the file and the base files the caller passes, and names WPR's
// built-in objects. Also the profile request, wpr -start's FILE!Profile form and the profile list.
//
// Inheritance (learn.microsoft.com wpt/inheritance, 1-collector-definitions; WPRControlProfiles.xsd):
//   - Base= names an object of the same element in the file or a base file; the derived object has all
//     of its base's attributes unless it sets them again.
//   - Lists with an Operation (Keywords, Stacks, PoolTags, Collectors, EventProviders, ...) are combined
//     item by item, an item being known by its Value (or Id): Set (the default) replaces the inherited
//     list, Add unions into it (an item already there is merged with the new one), Remove takes items out.
//   - Single settings (BufferSize, Buffers, StackCaching, SystemProviderId, ...) are replaced. Add or
//     Remove on a single setting has no published meaning: etwctl uses it as Set and says so (reading).
//   - A reference (SystemCollectorId Value="X") is the object X with the reference's children applied
//     over it, as a derived object over its base.
//   - A Base or reference that names one of WPR's built-in objects (GeneralProfile.*, SystemProvider_Base,
//     SystemCollector_WPR..., EventCollector_WPR..., HeapCollector_WPR...) and is not in any file passed is
//     a warning naming it, with the hint to export it (wpr -exportprofile); what the file defines itself
//     still applies. A name that is neither is an error (with the nearest Id); a Base chain that loops is
//     an error naming the chain.
//
// Opt-in and allocating, as all of etwctl/wpr/.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "etwctl/config.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/names/wpr.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/wpr/document.hpp"
#include "etwctl/wpr/plan.hpp"
#include "etwctl/wpr/schema.hpp"
#include "etwctl/wpr/validate.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {

/// Which profile of a file to lower, and how to name its sessions.
struct profile_request {
    std::string profile;               ///< a Profile's Name (with level and mode below) or its Id
    std::optional<detail_level> level; ///< nullopt: Verbose, WPR's default (learn.microsoft.com wpt/detail-level)
    logging_mode mode = logging_mode::memory; ///< WPR's default; wpr -filemode asks for File (wpt/logging-mode)
    /// Sessions are named prefix + the collector's Name ("WPR System Collector" for the system logger).
    /// The default is WPR's own convention for its default instance (devblogs.microsoft.com,
    /// performance-diagnostics, "Controlling the event session name with the instance name").
    std::string session_prefix = "WPR_initiated_WprApp_";
};

/// WPR's name for the system logger session, whatever the SystemCollector's Name (same source).
inline constexpr std::string_view system_collector_session_name = "WPR System Collector";

/// "CPU.wprp!CPU-Dispatch.Light" -> {file "CPU.wprp", profile "CPU-Dispatch", level Light}: wpr -start's
/// FILE!Profile[.Light|.Verbose] form. Without '!', the whole text is the file and the profile is "".
struct profile_spec {
    std::string file;
    std::string profile;
    std::optional<detail_level> level;
};
[[nodiscard]] inline profile_spec parse_profile_spec(std::string_view text) {
    profile_spec s;
    auto const bang = text.rfind('!');
    if (bang == std::string_view::npos) {
        s.file = std::string(text);
        return s;
    }
    s.file = std::string(text.substr(0, bang));
    std::string_view p = text.substr(bang + 1);
    auto ends_with = [&](std::string_view suffix) {
        return p.size() > suffix.size() && etwctl::detail::iequals(p.substr(p.size() - suffix.size()), suffix);
    };
    if (ends_with(".Light")) {
        s.level = detail_level::light;
        p.remove_suffix(6);
    } else if (ends_with(".Verbose")) {
        s.level = detail_level::verbose;
        p.remove_suffix(8);
    }
    s.profile = std::string(p);
    return s;
}

/// One Profile of a file, as wpr -profiles lists them.
struct profile_entry {
    std::string id;
    std::string name;
    std::string description;
    std::string base;
    detail_level level = detail_level::verbose;
    logging_mode mode = logging_mode::memory;
    bool is_default = false;
};
[[nodiscard]] inline std::vector<profile_entry> list_profiles(document const& d) {
    std::vector<profile_entry> out;
    if (!d.root) return out;
    for (auto const& c : d.root->children) {
        if (c.name != "Profiles") continue;
        for (auto const& p : c.children) {
            if (p.name != "Profile") continue;
            profile_entry e;
            e.id = std::string(p.value_of("Id"));
            e.name = std::string(p.value_of("Name"));
            e.description = std::string(p.value_of("Description"));
            e.base = std::string(p.value_of("Base"));
            e.level = p.value_of("DetailLevel") == "Light" ? detail_level::light : detail_level::verbose;
            e.mode = p.value_of("LoggingMode") == "File" ? logging_mode::file : logging_mode::memory;
            e.is_default = detail::parse_boolean(p.value_of("Default")).value_or(false);
            out.push_back(std::move(e));
        }
    }
    return out;
}

/// WPR's built-in objects, which public profiles name as Base or reference without defining them
/// (wpr -exportprofile writes them to a file: learn.microsoft.com wpt/wpr-command-line-options). The
/// names are those public profiles use: GeneralProfile.* and SystemCollector_WPRSystemCollectorInFile /
/// EventCollector_WPREventCollectorInFile (microsoft/terminal src/ConsolePerf.wprp), SystemProvider_Base
/// (the Windows Performance Toolkit's SampleGeneralProfileForLargeServers.wprp, in github.com/ktjjang/WPA),
/// and the ...InFileLarge / ...InMemory... / HeapCollector_WPRHeapCollector variants named in the comments
/// of Microsoft Defender for Endpoint's public performance-recording script. The prefixes are etwctl's
/// reading of that naming.
inline constexpr std::string_view builtin_id_prefixes[] = {"GeneralProfile.", "SystemCollector_WPR", "EventCollector_WPR",
                                                           "HeapCollector_WPR"};
inline constexpr std::string_view builtin_ids[] = {"SystemProvider_Base"};
[[nodiscard]] constexpr bool is_builtin_id(std::string_view id) noexcept {
    for (auto p : builtin_id_prefixes)
        if (id.size() > p.size() && id.substr(0, p.size()) == p) return true;
    for (auto b : builtin_ids)
        if (id == b) return true;
    return false;
}

namespace detail {

inline void stamp(xml_element& e, std::size_t source) {
    e.source = source;
    for (auto& c : e.children) stamp(c, source);
}

[[nodiscard]] inline std::string item_key(xml_element const& e) {
    if (auto const* v = e.attribute("Value")) return v->value;
    if (auto const* i = e.attribute("Id")) return i->value;
    return {};
}

/// A list element: it has an Operation and items (Keywords, Stacks, Collectors, EventProviders, ...).
[[nodiscard]] inline bool is_list(schema::type t) noexcept {
    auto const& r = schema::rule_for(t);
    if (r.content_count == 0) return false;
    for (std::size_t i = 0; i < r.attribute_count; ++i)
        if (r.attributes[i].name == "Operation") return true;
    return false;
}
/// A single setting with an Operation (BufferSize, Buffers, MaximumFileSize, FileMax, FlushTimer, ...).
[[nodiscard]] inline bool is_single_with_operation(schema::type t) noexcept {
    auto const& r = schema::rule_for(t);
    if (r.content_count != 0) return false;
    for (std::size_t i = 0; i < r.attribute_count; ++i)
        if (r.attributes[i].name == "Operation") return true;
    return false;
}

class resolver {
public:
    resolver(std::vector<document> const& docs, std::vector<finding>& out) : docs_(docs), out_(out) {
        for (std::size_t d = 0; d < docs.size(); ++d) {
            if (!docs[d].root) continue;
            for (auto const& c : docs[d].root->children) {
                if (c.name != "Profiles") continue;
                for (auto const& o : c.children)
                    if (auto const* id = o.attribute("Id")) objects_.emplace(id->value, &o); // the first file wins
            }
        }
    }

    void warn(check what, xml_element const& at, std::string text, xml_attribute const* a = nullptr) {
        out_.push_back(finding_at(severity::warning, what, file_of(at), at, std::move(text), a));
    }
    void error(check what, xml_element const& at, std::string text, xml_attribute const* a = nullptr) {
        out_.push_back(finding_at(severity::error, what, file_of(at), at, std::move(text), a));
    }
    [[nodiscard]] std::string_view file_of(xml_element const& e) const noexcept {
        return e.source < docs_.size() ? std::string_view(docs_[e.source].file) : std::string_view{};
    }

    /// The object `id` of element `kind`, effective (its Base chain and operations applied); nullopt when
    /// it is not in the files (a built-in: a warning; anything else: an error), or is another element.
    /// `at` / `attr` locate the Base= or Value= that names it; `role` says which ("Base", "reference").
    std::optional<xml_element> object(std::string_view kind, schema::type t, std::string_view id, xml_element const& at,
                                       xml_attribute const* attr, bool is_base) {
        auto const it = objects_.find(std::string(id));
        if (it == objects_.end()) {
            std::string const what = is_base ? "Base '" + std::string(id) + "'" : "'" + std::string(id) + "'";
            if (is_builtin_id(id)) {
                warn(is_base ? check::base_builtin : check::reference_builtin, at,
                     what + " is one of WPR's built-in " + std::string(kind) +
                         "s and is not in the files given: export it with `wpr -exportprofile` and pass that file as a "
                         "base file; until then only what this file defines applies",
                     attr);
            } else {
                std::string const s = nearest_value(id, [&](auto f) {
                    for (auto const& [k, e] : objects_)
                        if (e->name == kind) f(k);
                });
                error(is_base ? check::base_unknown : check::reference_unknown, at,
                      what + " names no <" + std::string(kind) + "> in the files given, and it is not one of WPR's built-in names" +
                          suggestion_text(s),
                      attr);
            }
            return std::nullopt;
        }
        xml_element const& o = *it->second;
        if (o.name != kind) {
            error(check::base_kind, at,
                  (is_base ? "Base '" : "'") + std::string(id) + "' is a <" + o.name + "> (line " + std::to_string(o.at.line) +
                      " of " + std::string(file_of(o)) + "), not a <" + std::string(kind) + ">",
                  attr);
            return std::nullopt;
        }
        return effective(o, t);
    }

    /// An object element with its Base chain resolved and its operations applied. The objects of the files
    /// are resolved once (cached); an in-place object (an EventProvider inside EventProviders, ...) each time.
    xml_element effective(xml_element const& o, schema::type t) {
        auto const top = objects_.find(std::string(o.value_of("Id")));
        bool const cacheable = top != objects_.end() && top->second == &o;
        if (cacheable)
            if (auto const c = cache_.find(&o); c != cache_.end()) return c->second;
        for (std::size_t i = 0; i < chain_.size(); ++i)
            if (chain_[i] == &o) { // the Base of the last object in the chain names one already in it
                std::string loop;
                for (std::size_t j = i; j < chain_.size(); ++j) loop += std::string(chain_[j]->value_of("Id")) + " -> ";
                loop += std::string(o.value_of("Id"));
                xml_element const& last = *chain_.back();
                error(check::base_cycle, last, "Base chain loops: " + loop + "; a Base chain must end", last.attribute("Base"));
                return normalize(o, t);
            }
        chain_.push_back(&o);
        std::string_view const base = o.value_of("Base");
        std::optional<xml_element> b;
        if (!base.empty()) b = object(o.name, t, base, o, o.attribute("Base"), true);
        xml_element r = merge(b ? *b : xml_element{}, o, t, false);
        chain_.pop_back();
        if (cacheable) cache_.emplace(&o, r);
        return r;
    }

    /// derived over base, both of (or derived of) schema type t. A reference's Value is not an attribute of
    /// the result (is_reference).
    xml_element merge(xml_element const& base, xml_element const& derived, schema::type t, bool is_reference) {
        xml_element r = base;
        if (r.name.empty() || !is_reference) r.name = derived.name;
        r.at = derived.at;
        r.source = derived.source;
        for (auto const& a : derived.attributes) {
            if (a.name == "Base" || (is_reference && a.name == "Value")) continue;
            bool replaced = false;
            for (auto& ra : r.attributes)
                if (ra.name == a.name) ra = a, replaced = true;
            if (!replaced) r.attributes.push_back(a);
        }
        // children: per particle of the derived's type; the base's children of other names stay
        auto const& rule = schema::rule_for(t);
        std::vector<xml_element> children;
        std::set<std::string> handled;
        for (std::size_t p = 0; p < rule.content_count; ++p) {
            auto const& part = rule.content[p];
            auto matches = [&](xml_element const& c) { return c.name == part.name || (!part.alt_name.empty() && c.name == part.alt_name); };
            handled.insert(std::string(part.name));
            if (!part.alt_name.empty()) handled.insert(std::string(part.alt_name));
            std::vector<xml_element const*> from_base;
            std::vector<xml_element const*> from_derived;
            for (auto const& c : base.children)
                if (matches(c)) from_base.push_back(&c);
            for (auto const& c : derived.children)
                if (matches(c)) from_derived.push_back(&c);
            if (from_derived.empty()) {
                for (auto const* c : from_base) children.push_back(*c);
                continue;
            }
            if (is_list(part.of)) {
                children.push_back(merge_list(from_base, from_derived));
                continue;
            }
            // A single setting: the last one given wins (a reference layered over another keeps both).
            if (part.max == 1 && from_derived.size() > 1) from_derived.erase(from_derived.begin(), from_derived.end() - 1);
            for (auto const* c : from_derived) {
                if (is_single_with_operation(part.of)) {
                    std::string_view const op = c->value_of("Operation");
                    if (op == "Add" || op == "Remove")
                        warn(check::reading, *c,
                             "Operation='" + std::string(op) + "' on a single setting: WPR does not publish what it means here; "
                             "etwctl uses the value as Operation='Set'",
                             c->attribute("Operation"));
                }
                children.push_back(*c);
            }
        }
        for (auto const& c : base.children)
            if (!handled.count(c.name)) children.push_back(c);
        r.children = std::move(children);
        return r;
    }

    /// One element with its lists' operations applied (an object without Base).
    xml_element normalize(xml_element const& e, schema::type t) { return merge(xml_element{}, e, t, false); }

    /// Two references to one object (a Collectors or EventProviders item given again by a derived
    /// profile): the later one's attributes over the earlier's, and both one's children in order, so that
    /// applying the result over the object applies each in turn (lists by their Operation, single
    /// settings the last).
    static xml_element layer(xml_element under, xml_element const& over) {
        for (auto const& a : over.attributes) {
            bool replaced = false;
            for (auto& u : under.attributes)
                if (u.name == a.name) u = a, replaced = true;
            if (!replaced) under.attributes.push_back(a);
        }
        for (auto const& c : over.children) under.children.push_back(c);
        under.at = over.at;
        under.source = over.source;
        return under;
    }

    /// The lists of one particle: the inherited items, then each of the derived's lists by its Operation.
    static xml_element merge_list(std::vector<xml_element const*> const& from_base,
                                  std::vector<xml_element const*> const& from_derived) {
        std::vector<xml_element> items;
        for (auto const* l : from_base)
            for (auto const& i : l->children) items.push_back(i);
        xml_element result = *from_derived.back();
        for (auto const* l : from_derived) {
            std::string_view op = l->value_of("Operation");
            if (op.empty()) op = "Set";
            if (op == "Set") items.clear();
            for (auto const& i : l->children) {
                std::string const k = item_key(i);
                auto const found = std::find_if(items.begin(), items.end(), [&](xml_element const& x) {
                    return !k.empty() && item_key(x) == k && x.name == i.name;
                });
                if (op == "Remove") {
                    if (found != items.end()) items.erase(found);
                    continue;
                }
                // Items stay as written (a reference's own lists keep their Operation until it is applied
                // over its object); an item given again is layered over the first.
                if (found != items.end()) *found = layer(*found, i);
                else items.push_back(i);
            }
        }
        result.attributes.erase(std::remove_if(result.attributes.begin(), result.attributes.end(),
                                               [](xml_attribute const& a) { return a.name == "Operation"; }),
                                result.attributes.end());
        result.children = std::move(items);
        return result;
    }

private:
    std::vector<document> const& docs_;
    std::vector<finding>& out_;
    std::map<std::string, xml_element const*> objects_;
    std::map<xml_element const*, xml_element> cache_;
    std::vector<xml_element const*> chain_;
};

[[nodiscard]] inline xml_element const* child(xml_element const& e, std::string_view name) noexcept {
    for (auto const& c : e.children)
        if (c.name == name) return &c;
    return nullptr;
}

} // namespace detail
} // namespace wpr
ETWCTL_END_NAMESPACE
