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
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <span>
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

/// The longest Base chain resolved, in objects: the object and each base it names in turn. Longer is an
/// error naming the length (check::limit). Why 256: docs/choices.md, "WPR input limits".
inline constexpr std::size_t max_base_chain = 256;

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

inline void stamp(xml_element& root, std::size_t source) {
    std::vector<xml_element*> todo{&root}; // no recursion: a document built by hand may be of any depth
    while (!todo.empty()) {
        xml_element* const e = todo.back();
        todo.pop_back();
        e->source = source;
        for (auto& c : e->children) todo.push_back(&c);
    }
}

/// The elements of a tree (counted without recursion).
[[nodiscard]] inline std::size_t element_count(xml_element const& root) {
    std::size_t n = 0;
    std::vector<xml_element const*> todo{&root};
    while (!todo.empty()) {
        xml_element const* const e = todo.back();
        todo.pop_back();
        ++n;
        for (auto const& c : e->children) todo.push_back(&c);
    }
    return n;
}

[[nodiscard]] inline std::string_view item_key_view(xml_element const& e) noexcept {
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
        std::size_t elements = 0;
        for (std::size_t d = 0; d < docs.size(); ++d) {
            if (!docs[d].root) continue;
            elements += element_count(*docs[d].root);
            for (auto const& c : docs[d].root->children) {
                if (c.name != "Profiles") continue;
                for (auto const& o : c.children)
                    if (auto const* id = o.attribute("Id")) objects_.emplace(id->value, &o); // the first file wins
            }
        }
        cache_room_ = 4 * elements + 4096;
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

    /// The object `id` of element `kind` in the files, or nullptr when it is not there (a built-in: a
    /// warning; anything else: an error, with the nearest Id) or is another element (an error). `at` /
    /// `attr` locate the Base= or Value= that names it; is_base says which.
    xml_element const* find(std::string_view kind, std::string_view id, xml_element const& at, xml_attribute const* attr, bool is_base,
                            bool report = true) {
        auto const it = objects_.find(std::string(id));
        if (it == objects_.end()) {
            if (!report) return nullptr;
            std::string const what = is_base ? "Base '" + std::string(id) + "'" : "'" + std::string(id) + "'";
            if (is_builtin_id(id)) {
                warn(is_base ? check::base_builtin : check::reference_builtin, at,
                     what + " is one of WPR's built-in " + std::string(kind) +
                         "s and is not in the files given: export it with `wpr -exportprofile` and pass that file as a "
                         "base file; until then only what this file defines applies",
                     attr);
            } else {
                std::string const s = nearest_value(
                    id,
                    [&](auto f) {
                        for (auto const& [k, e] : objects_)
                            if (e->name == kind) f(k);
                    },
                    suggestions_);
                error(is_base ? check::base_unknown : check::reference_unknown, at,
                      what + " names no <" + std::string(kind) + "> in the files given, and it is not one of WPR's built-in names" +
                          suggestion_text(s),
                      attr);
            }
            return nullptr;
        }
        xml_element const& o = *it->second;
        if (o.name != kind) {
            if (!report) return nullptr;
            error(check::base_kind, at,
                  (is_base ? "Base '" : "'") + std::string(id) + "' is a <" + o.name + "> (line " + std::to_string(o.at.line) +
                      " of " + std::string(file_of(o)) + "), not a <" + std::string(kind) + ">",
                  attr);
            return nullptr;
        }
        return &o;
    }

    /// The object `id` of element `kind`, effective (its Base chain and operations applied); nullopt when
    /// find() has none.
    std::optional<xml_element> object(std::string_view kind, schema::type t, std::string_view id, xml_element const& at,
                                       xml_attribute const* attr, bool is_base) {
        xml_element const* const o = find(kind, id, at, attr, is_base);
        if (!o) return std::nullopt;
        return effective(*o, t);
    }

    /// An object element with its Base chain resolved and its operations applied. The chain is walked in
    /// a loop (the object, its base, the base's base, ...) and folded in one pass from its end: no
    /// recursion, and nothing kept of the links in between. The objects of the files that are asked for
    /// are kept once resolved, while the cache has room (4 elements for each element of the files, and
    /// 4,096), so that an object named again, or a chain through it, starts from it; past the room,
    /// memory stays in proportion to the files and an object is resolved again (in steps of its chain's
    /// size). An in-place object (an EventProvider inside EventProviders, ...) is resolved each time.
    xml_element effective(xml_element const& o, schema::type t) {
        bool const cacheable = is_file_object(o);
        if (cacheable)
            if (auto const c = cache_.find(&o); c != cache_.end()) return c->second.e;
        std::vector<xml_element const*> chain{&o};
        std::set<xml_element const*> in_chain{&o};
        xml_element r;          // what the chain's end gives: nothing, or a base resolved before
        std::size_t length = 1; // objects in the chain, a resolved base's own chain included
        for (;;) {
            xml_element const& last = *chain.back();
            std::string_view const base = last.value_of("Base");
            if (base.empty()) break;
            // What a Base names is said once, however many chains go through it.
            bool const first_time = looked_up_.insert(&last).second;
            xml_element const* const b = find(last.name, base, last, last.attribute("Base"), true, first_time);
            if (!b) break;
            if (in_chain.count(b)) { // the Base of the last object in the chain names one already in it
                if (!first_time) break;
                std::string loop;
                auto const from = std::find(chain.begin(), chain.end(), b);
                for (auto i = from; i != chain.end(); ++i) loop += std::string((*i)->value_of("Id")) + " -> ";
                loop += std::string(b->value_of("Id"));
                error(check::base_cycle, last, "Base chain loops: " + loop + "; a Base chain must end", last.attribute("Base"));
                break;
            }
            if (auto const c = cache_.find(b); c != cache_.end()) {
                if (length + c->second.length > max_base_chain) {
                    too_long(o, length + c->second.length, *b);
                } else {
                    r = c->second.e;
                    length += c->second.length;
                }
                break;
            }
            if (length == max_base_chain) {
                too_long(o, length + rest_of_chain(*b, in_chain), *b);
                break;
            }
            chain.push_back(b);
            in_chain.insert(b);
            ++length;
        }
        std::reverse(chain.begin(), chain.end()); // from the chain's end up to o
        r = fold(std::move(r), chain, t, false);
        if (cacheable) keep(o, r, length);
        return r;
    }

    /// derived over base, both of (or derived of) schema type t. A reference's Value is not an attribute of
    /// the result (is_reference). The base is taken by value: a caller that is done with it moves it in.
    xml_element merge(xml_element base, xml_element const& derived, schema::type t, bool is_reference) {
        xml_element const* const one[] = {&derived};
        return fold(std::move(base), one, t, is_reference);
    }

    /// links[0] over base, links[1] over that, ... in one pass: the same as merging them one after
    /// another, but each list is built once, with one index, whatever the number of links (a chain of n
    /// links each adding an item takes steps in n, not n^2/2).
    xml_element fold(xml_element base, std::span<xml_element const* const> links, schema::type t, bool is_reference) {
        xml_element const& top = *links.back();
        xml_element r;
        r.name = base.name.empty() || !is_reference ? top.name : std::move(base.name);
        r.attributes = std::move(base.attributes);
        r.at = top.at;
        r.source = top.source;
        r.text = std::move(base.text);
        for (auto const* l : links)
            for (auto const& a : l->attributes) {
                if (a.name == "Base" || (is_reference && a.name == "Value")) continue;
                bool replaced = false;
                for (auto& ra : r.attributes)
                    if (ra.name == a.name) ra = a, replaced = true;
                if (!replaced) r.attributes.push_back(a);
            }
        auto const& rule = schema::rule_for(t);
        auto matches = [](schema::particle const& part, xml_element const& c) {
            return c.name == part.name || (!part.alt_name.empty() && c.name == part.alt_name);
        };
        // A single setting: the last one given wins (a reference layered over another keeps both): the
        // settings each link gives, and the warnings, link by link as a merge after another would.
        auto given = [&](schema::particle const& part, xml_element const& l) {
            std::vector<xml_element const*> v;
            for (auto const& c : l.children)
                if (matches(part, c)) v.push_back(&c);
            if (part.max == 1 && v.size() > 1) v.erase(v.begin(), v.end() - 1);
            return v;
        };
        for (auto const* l : links)
            for (std::size_t p = 0; p < rule.content_count; ++p) {
                auto const& part = rule.content[p];
                if (is_list(part.of) || !is_single_with_operation(part.of)) continue;
                for (auto const* c : given(part, *l)) {
                    std::string_view const op = c->value_of("Operation");
                    if (op == "Add" || op == "Remove")
                        warn(check::reading, *c,
                             "Operation='" + std::string(op) + "' on a single setting: WPR does not publish what it means here; "
                             "etwctl uses the value as Operation='Set'",
                             c->attribute("Operation"));
                }
            }
        // children: per particle of the type; the base's children of other names stay
        std::vector<xml_element> children;
        std::vector<bool> taken(base.children.size(), false); // the base's children a particle has
        for (std::size_t p = 0; p < rule.content_count; ++p) {
            auto const& part = rule.content[p];
            std::vector<xml_element*> from_base;
            for (std::size_t i = 0; i < base.children.size(); ++i)
                if (!taken[i] && matches(part, base.children[i])) {
                    from_base.push_back(&base.children[i]);
                    taken[i] = true;
                }
            if (is_list(part.of)) {
                std::vector<xml_element const*> lists; // every link's lists, in order
                for (auto const* l : links)
                    for (auto const& c : l->children)
                        if (matches(part, c)) lists.push_back(&c);
                if (lists.empty()) {
                    for (auto* c : from_base) children.push_back(std::move(*c));
                } else {
                    children.push_back(merge_list(from_base, lists));
                }
                continue;
            }
            std::vector<xml_element const*> last; // of the last link that gives the setting
            for (auto const* l : links)
                if (auto v = given(part, *l); !v.empty()) last = std::move(v);
            if (last.empty()) {
                for (auto* c : from_base) children.push_back(std::move(*c));
                continue;
            }
            for (auto const* c : last) children.push_back(*c);
        }
        for (std::size_t i = 0; i < base.children.size(); ++i)
            if (!taken[i]) children.push_back(std::move(base.children[i]));
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

    /// The lists of one particle: the inherited items (moved out of the base), then each of the derived's
    /// lists by its Operation. An item is found by its name and key through an index of the keys the
    /// derived's lists name, not by a search of the list for each item: a merge takes steps in the items
    /// of both, not in their product.
    static xml_element merge_list(std::vector<xml_element*> const& from_base, std::vector<xml_element const*> const& from_derived) {
        using key = std::pair<std::string_view, std::string_view>; // name and Value (or Id), in the derived's items
        std::vector<xml_element> items;
        std::vector<bool> removed;
        std::size_t live_from = 0; // a Set drops the items before it: those before live_from
        std::map<key, std::deque<std::size_t>> index; // the places of the items with the key, first first
        std::size_t count = 0;
        for (auto const* l : from_derived)
            for (auto const& i : l->children) {
                ++count;
                if (std::string_view const k = item_key_view(i); !k.empty()) index.try_emplace(key{i.name, k});
            }
        for (auto const* l : from_base) count += l->children.size();
        items.reserve(count);
        removed.reserve(count);
        auto place = [&](xml_element&& i, std::deque<std::size_t>* at) {
            if (at) at->push_back(items.size());
            items.push_back(std::move(i));
            removed.push_back(false);
        };
        // the first live item of a key, or nullptr
        auto first = [&](std::deque<std::size_t>& at) -> std::size_t const* {
            while (!at.empty() && (at.front() < live_from || removed[at.front()])) at.pop_front();
            return at.empty() ? nullptr : &at.front();
        };
        for (auto* l : from_base)
            for (auto& i : l->children) {
                std::string_view const k = item_key_view(i);
                auto const it = k.empty() ? index.end() : index.find(key{i.name, k});
                place(std::move(i), it == index.end() ? nullptr : &it->second);
            }
        for (auto const* l : from_derived) {
            std::string_view op = l->value_of("Operation");
            if (op.empty()) op = "Set";
            if (op == "Set") live_from = items.size();
            for (auto const& i : l->children) {
                std::string_view const k = item_key_view(i);
                auto const it = k.empty() ? index.end() : index.find(key{i.name, k});
                std::size_t const* const found = it == index.end() ? nullptr : first(it->second);
                if (op == "Remove") {
                    if (found) {
                        removed[*found] = true;
                        it->second.pop_front();
                    }
                    continue;
                }
                // Items stay as written (a reference's own lists keep their Operation until it is applied
                // over its object); an item given again is layered over the first.
                if (found) items[*found] = layer(std::move(items[*found]), i);
                else place(xml_element(i), it == index.end() ? nullptr : &it->second);
            }
        }
        xml_element result; // the last list's attributes (without Operation) and the items
        auto const& last = *from_derived.back();
        result.name = last.name;
        result.at = last.at;
        result.text = last.text;
        result.source = last.source;
        for (auto const& a : last.attributes)
            if (a.name != "Operation") result.attributes.push_back(a);
        result.children.reserve(items.size() - live_from);
        for (std::size_t i = live_from; i < items.size(); ++i)
            if (!removed[i]) result.children.push_back(std::move(items[i]));
        return result;
    }

private:
    struct cached {
        xml_element e;
        std::size_t length = 0; ///< of its Base chain, in objects
    };
    std::vector<document> const& docs_;
    std::vector<finding>& out_;
    std::map<std::string, xml_element const*> objects_;
    std::map<xml_element const*, cached> cache_;
    std::size_t cache_room_ = 0; ///< elements the cache may still keep
    std::set<xml_element const*> looked_up_; ///< objects whose Base was looked up (and reported)
    suggestion_budget suggestions_;

    /// Keeps an object's resolved form, if the cache has room for it.
    void keep(xml_element const& o, xml_element const& resolved, std::size_t length) {
        if (cache_.count(&o)) return;
        std::size_t const size = element_count(resolved);
        if (size > cache_room_) return;
        cache_room_ -= size;
        cache_.emplace(&o, cached{resolved, length});
    }

    [[nodiscard]] bool is_file_object(xml_element const& o) const {
        auto const top = objects_.find(std::string(o.value_of("Id")));
        return top != objects_.end() && top->second == &o;
    }

    /// The objects of a chain from `from` on, found without reporting (to say how long a chain past the
    /// limit is): it stops at a name not in the files, another element or a loop.
    [[nodiscard]] std::size_t rest_of_chain(xml_element const& from, std::set<xml_element const*> seen) const {
        std::size_t n = 0;
        for (xml_element const* e = &from; e && seen.insert(e).second;) {
            ++n;
            std::string_view const base = e->value_of("Base");
            if (base.empty()) break;
            auto const it = objects_.find(std::string(base));
            e = it != objects_.end() && it->second->name == e->name ? it->second : nullptr;
        }
        return n;
    }

    void too_long(xml_element const& o, std::size_t length, xml_element const& past) {
        error(check::limit, o,
              "Base chain of '" + std::string(o.value_of("Id")) + "' is " + std::to_string(length) + " objects long (it goes on through '" +
                  std::string(past.value_of("Id")) + "'): etwctl resolves at most " + std::to_string(max_base_chain) +
                  " objects in one chain; give the settings in fewer levels of Base",
              o.attribute("Base"));
    }
};

[[nodiscard]] inline xml_element const* child(xml_element const& e, std::string_view name) noexcept {
    for (auto const& c : e.children)
        if (c.name == name) return &c;
    return nullptr;
}

} // namespace detail
} // namespace wpr
ETWCTL_END_NAMESPACE
