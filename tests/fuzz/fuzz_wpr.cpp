// Fuzz harness: the WPR profile reader (etwctl/wpr/read.hpp) and what follows it (validation,
// inheritance, lowering: wpr::make_plan), on a .wprp made of the input's bytes. A profile is untrusted
// input (issue 34): whatever the bytes,
//  - reading ends: a document with a root, or none and at least one xml error; the tree it builds is
//    never nested deeper than max_nesting_depth, and no name, value or text has a NUL in it;
//  - every finding has its file, a line and column inside the text (or 0 for the file as a whole), a
//    text without NUL, and formats;
//  - make_plan on each profile the file lists (and on a name it does not have) gives a plan exactly when
//    no finding is an error, and the plan's sessions have names;
//  - resolving a Base chain in one pass (resolver::fold) gives what merging its links one after another
//    gives;
//  - the stack stays small (libFuzzer's thread) and the time linear: the seeds hold XML nested 1,000
//    deep, Base chains of 300 objects, a chain adding a keyword at each link, and &#0; in values.
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"

#include "etwctl/wpr/wpr.hpp"

namespace {

namespace wpr = etwctl::wpr;

bool has_nul(std::string_view s) { return s.find('\0') != std::string_view::npos; }

/// The tree: depth within the limit, no NUL anywhere (walked without recursion).
void check_tree(wpr::xml_element const& root) {
    struct at {
        wpr::xml_element const* e;
        std::size_t depth;
    };
    std::vector<at> todo{{&root, 1}};
    while (!todo.empty()) {
        at const a = todo.back();
        todo.pop_back();
        FUZZ_CHECK(a.depth <= wpr::max_nesting_depth);
        FUZZ_CHECK(!a.e->name.empty());
        FUZZ_CHECK(!has_nul(a.e->name) && !has_nul(a.e->text));
        FUZZ_CHECK(a.e->at.line >= 1 && a.e->at.column >= 1);
        for (auto const& x : a.e->attributes) FUZZ_CHECK(!has_nul(x.name) && !has_nul(x.value));
        for (auto const& c : a.e->children) todo.push_back({&c, a.depth + 1});
    }
}

void check_findings(std::vector<wpr::finding> const& findings, std::size_t lines) {
    for (auto const& f : findings) {
        FUZZ_CHECK(!f.file.empty());
        FUZZ_CHECK(f.line <= lines);
        FUZZ_CHECK(f.line != 0 || f.column == 0);
        FUZZ_CHECK(!f.text.empty() && !has_nul(f.text));
        FUZZ_CHECK(!wpr::format(f).empty());
    }
}

/// A tree as text, to compare two trees (without recursion).
std::string dump(wpr::xml_element const& root) {
    std::string s;
    std::vector<wpr::xml_element const*> todo{&root};
    while (!todo.empty()) {
        wpr::xml_element const* const e = todo.back();
        todo.pop_back();
        if (!e) {
            s += ')';
            continue;
        }
        s += '(' + e->name + '[' + e->text + ']';
        for (auto const& a : e->attributes) s += ' ' + a.name + '=' + a.value;
        todo.push_back(nullptr);
        for (auto i = e->children.rbegin(); i != e->children.rend(); ++i) todo.push_back(&*i);
    }
    return s;
}

/// For a few objects with a Base chain that ends: the resolver's one-pass fold gives what merging the
/// links one after another gives.
void fold_matches_merges(wpr::document const& d) {
    namespace schema = wpr::schema;
    std::vector<wpr::document> docs{d};
    wpr::detail::stamp(*docs[0].root, 0);
    std::vector<wpr::finding> sink;
    wpr::detail::resolver res(docs, sink);
    std::map<std::string_view, wpr::xml_element const*> objects; // as the resolver finds them: the first wins
    std::vector<wpr::xml_element const*> chained;
    for (auto const& c : docs[0].root->children) {
        if (c.name != "Profiles") continue;
        for (auto const& o : c.children) {
            if (auto const* id = o.attribute("Id")) objects.emplace(id->value, &o);
            if (o.has("Base")) chained.push_back(&o);
        }
    }
    auto const& profiles = schema::rule_for(schema::type::profiles);
    std::size_t checked = 0;
    for (auto i = chained.rbegin(); i != chained.rend() && checked < 4; ++i) {
        wpr::xml_element const& o = **i;
        schema::type t = schema::type::none;
        for (std::size_t p = 0; p < profiles.content_count; ++p)
            if (profiles.content[p].name == o.name) t = profiles.content[p].of;
        if (t == schema::type::none) continue;
        std::vector<wpr::xml_element const*> chain{&o};
        std::set<wpr::xml_element const*> seen{&o};
        bool ends = true;
        while (ends && chain.back()->has("Base")) {
            auto const it = objects.find(chain.back()->value_of("Base"));
            ends = it != objects.end() && it->second->name == o.name && seen.insert(it->second).second && chain.size() < 32;
            if (ends) chain.push_back(it->second);
        }
        if (!ends) continue;
        ++checked;
        wpr::xml_element one_by_one;
        for (auto l = chain.rbegin(); l != chain.rend(); ++l) one_by_one = res.merge(std::move(one_by_one), **l, t, false);
        FUZZ_CHECK(dump(res.effective(o, t)) == dump(one_by_one));
    }
}

void plan_of(wpr::document const& d, wpr::profile_request const& request, std::size_t lines) {
    std::vector<wpr::document> docs{d};
    wpr::load_result const r = wpr::make_plan(std::move(docs), request);
    check_findings(r.findings, lines);
    FUZZ_CHECK(r.ok() == !wpr::has_errors(r.findings));
    if (!r.plan) return;
    if (r.plan->system) FUZZ_CHECK(!r.plan->system->session.name.empty());
    for (auto const& s : r.plan->event_sessions) FUZZ_CHECK(!s.name.empty());
    (void)wpr::compare(*r.plan, {}); // nothing running: every session missing
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    std::string_view const text(reinterpret_cast<char const*>(data), size);
    wpr::document const d = wpr::read_document(text, "fuzz.wprp");
    // Lines of the text read (UTF-16 is converted first: at most one line per two bytes then).
    std::size_t lines = 1;
    for (char c : text) lines += c == '\n' ? 1 : 0;
    if (size >= 2 && (static_cast<unsigned char>(text[0]) == 0xFF || static_cast<unsigned char>(text[0]) == 0xFE)) lines += size / 2;
    check_findings(d.findings, lines);
    if (!d.root) {
        FUZZ_CHECK(wpr::has_errors(d.findings));
        return 0;
    }
    FUZZ_CHECK(d.findings.empty());
    check_tree(*d.root);
    std::vector<wpr::finding> checked;
    wpr::validate(d, checked);
    wpr::check_doc_rules(d, checked);
    check_findings(checked, lines);
    fold_matches_merges(d);
    // Each profile the file lists (at most a few: each lowering reads the whole file), and one it lacks.
    std::vector<wpr::profile_entry> const profiles = wpr::list_profiles(d);
    std::size_t tried = 0;
    for (auto const& p : profiles) {
        if (tried++ == 4) break;
        wpr::profile_request q;
        q.profile = p.id;
        q.mode = p.mode;
        plan_of(d, q, lines);
    }
    wpr::profile_request missing;
    missing.profile = "no such profile";
    plan_of(d, missing, lines);
    return 0;
}
