// Hostile profiles (issue 34, items 2, 3 and 7): a .wprp is untrusted input (profiles are downloaded
// and shared, and the tool runs elevated). Nesting and Base chains have limits that name themselves,
// and the code that walks them does not recurse without bound (the tests run on a 256 KB stack); the
// work grows linearly with the file (each growth test compares two input sizes in one run: the work at
// 4n is about 4 times the work at n, not 16 times); a NUL, written or as a character reference, is an
// XML error at its line and column, never a value cut there.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#if __has_include(<pthread.h>)
#include <pthread.h>
#endif

#include <doctest/doctest.h>

#include "wpr_support.hpp"

using namespace wpr_test;

// ---- allocations: every operator new of this executable is counted (live bytes, peak, calls) -------

namespace hostile {
struct allocation_counts {
    std::size_t live = 0;
    std::size_t peak = 0;
    std::size_t calls = 0;
};
allocation_counts g_allocations;
constexpr std::size_t header = 16; // keeps malloc's 16-byte alignment

void* counted_new(std::size_t n) {
    void* p = std::malloc(n + header);
    if (!p) {
#if defined(__cpp_exceptions)
        throw std::bad_alloc();
#else
        std::abort(); // the no-exception build: out of memory ends the test
#endif
    }
    *static_cast<std::size_t*>(p) = n;
    g_allocations.live += n;
    if (g_allocations.live > g_allocations.peak) g_allocations.peak = g_allocations.live;
    ++g_allocations.calls;
    return static_cast<unsigned char*>(p) + header;
}
void counted_delete(void* p) noexcept {
    if (!p) return;
    void* const raw = static_cast<unsigned char*>(p) - header;
    g_allocations.live -= *static_cast<std::size_t*>(raw);
    std::free(raw);
}
} // namespace hostile

void* operator new(std::size_t n) { return hostile::counted_new(n); }
void* operator new[](std::size_t n) { return hostile::counted_new(n); }
void operator delete(void* p) noexcept { hostile::counted_delete(p); }
void operator delete[](void* p) noexcept { hostile::counted_delete(p); }
void operator delete(void* p, std::size_t) noexcept { hostile::counted_delete(p); }
void operator delete[](void* p, std::size_t) noexcept { hostile::counted_delete(p); }

namespace hostile {

/// What one call allocated: the peak of live bytes above those live before it, and the calls.
struct allocation_use {
    std::size_t peak_bytes = 0;
    std::size_t calls = 0;
};
template <class F>
allocation_use allocations_of(F&& f) {
    std::size_t const live_before = g_allocations.live;
    std::size_t const calls_before = g_allocations.calls;
    g_allocations.peak = live_before;
    f();
    return {g_allocations.peak - live_before, g_allocations.calls - calls_before};
}

/// Runs f on a thread with a stack of `bytes` (where pthreads exist; elsewhere on this thread).
template <class F>
void on_stack_of(std::size_t bytes, F f) {
#if __has_include(<pthread.h>)
    pthread_attr_t attr;
    REQUIRE(pthread_attr_init(&attr) == 0);
    REQUIRE(pthread_attr_setstacksize(&attr, bytes) == 0);
    pthread_t t;
    REQUIRE(pthread_create(&t, &attr, [](void* p) -> void* { (*static_cast<F*>(p))(); return nullptr; }, &f) == 0);
    REQUIRE(pthread_join(t, nullptr) == 0);
    pthread_attr_destroy(&attr);
#else
    (void)bytes;
    f();
#endif
}
constexpr std::size_t small_stack = 256 * 1024;

/// The plain facts of findings (made on the small stack, looked at on this one).
struct outcome {
    bool has_root = false;
    bool has_plan = false;
    std::vector<wpr::finding> findings;
};

std::string const collector = "<SystemCollector Id=\"SC\" Name=\"sc\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></SystemCollector>\n";
std::string profile(std::string const& id, std::string const& base, std::string const& body) {
    return "<Profile Id=\"" + id + "\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\"" +
           (base.empty() ? std::string() : " Base=\"" + base + "\"") + ">" + body + "</Profile>\n";
}
std::string const system_collectors =
    "<Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"SP\"/></SystemCollectorId></Collectors>";
std::string const system_provider = "<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"CSwitch\"/></Keywords></SystemProvider>\n";

/// A Base chain of `links` profiles: P.Verbose.Memory -> L<links-2> -> ... -> L0 (L0 names the collectors).
std::string link(std::size_t i) {
    std::string s(1, 'L');
    s += std::to_string(i); // (not "L" + std::to_string(i): g++ 12 warns of a memcpy that cannot happen, -Wrestrict)
    return s;
}
std::string profile_chain(std::size_t links) {
    std::string body = collector + system_provider + profile("L0", "", system_collectors);
    for (std::size_t i = 1; i + 1 < links; ++i) body += profile(link(i), link(i - 1), "");
    body += profile("P.Verbose.Memory", link(links - 2), "");
    return wprp(body);
}

/// `depth` elements nested in one another under the root (the root is depth 1).
std::string nested(std::size_t depth) {
    std::string t = "<WindowsPerformanceRecorder Version=\"1\">";
    for (std::size_t i = 1; i < depth; ++i) t += "<a>";
    for (std::size_t i = 1; i < depth; ++i) t += "</a>";
    return t + "</WindowsPerformanceRecorder>\n";
}

double ratio(std::uint64_t at_4n, std::uint64_t at_n) { return static_cast<double>(at_4n) / static_cast<double>(at_n ? at_n : 1); }


// ---- item 2: nesting and Base chains -----------------------------------------------------------------

TEST_CASE("XML nested 200,000 deep is refused naming the depth and the limit, on a 256 KB stack") {
    std::string const text = nested(200000); // 1.4 MB
    outcome o;
    on_stack_of(small_stack, [&] {
        wpr::document const d = wpr::read_document(text, "deep.wprp");
        o.has_root = d.root.has_value();
        o.findings = d.findings;
    });
    CHECK_FALSE(o.has_root);
    REQUIRE(o.findings.size() == 1);
    auto const& f = o.findings[0];
    INFO(wpr::format(f));
    CHECK(f.what == wpr::check::xml);
    CHECK(f.level == wpr::severity::error);
    CHECK(f.element == "a");
    CHECK(f.line == 1);
    // the first element past the limit: the root's '<' is column 1, then 3 characters per <a>
    CHECK(f.column == 41 + 3 * (wpr::max_nesting_depth - 1));
    CHECK(contains(f.text, "200000"));
    CHECK(contains(f.text, std::to_string(wpr::max_nesting_depth)));
    // the tool's path: the same through load_plan
    outcome l;
    on_stack_of(small_stack, [&] {
        auto const r = wpr::load_plan({"deep.wprp", text}, {}, request("P"));
        l.has_plan = r.plan.has_value();
        l.findings = r.findings;
    });
    CHECK_FALSE(l.has_plan);
    CHECK(of(l.findings, wpr::check::xml).size() == 1);
}

TEST_CASE("the nesting limit: max_nesting_depth levels are read, one more is refused") {
    static_assert(wpr::max_nesting_depth >= 16, "a .wprp of WPR's schema nests about 10 levels");
    auto const at_limit = wpr::read_document(nested(wpr::max_nesting_depth), "deep.wprp");
    CHECK(at_limit.root.has_value());
    CHECK(at_limit.findings.empty());
    auto const past = wpr::read_document(nested(wpr::max_nesting_depth + 1), "deep.wprp");
    CHECK_FALSE(past.root.has_value());
    REQUIRE(past.findings.size() == 1);
    CHECK(contains(past.findings[0].text, "elements nested " + std::to_string(wpr::max_nesting_depth + 1) + " deep"));
}

std::size_t schema_depth(wpr::schema::type t, std::size_t guard = 0) {
    REQUIRE(guard < 64); // the schema's content models do not nest themselves
    if (t == wpr::schema::type::none) return 0;
    auto const& r = wpr::schema::rule_for(t);
    std::size_t deepest = 0;
    for (std::size_t i = 0; i < r.content_count; ++i)
        deepest = (std::max)({deepest, schema_depth(r.content[i].of, guard + 1), schema_depth(r.content[i].alt, guard + 1)});
    return 1 + deepest;
}

TEST_CASE("the nesting limit is far above what WPR's schema nests") {
    CHECK(schema_depth(wpr::schema::type::root) == wpr::schema_nesting_depth);
    CHECK(wpr::max_nesting_depth >= 4 * wpr::schema_nesting_depth);
}

TEST_CASE("a Base chain of 20,000 profiles is refused naming its length and the limit, on a 256 KB stack") {
    std::string const text = profile_chain(20000);
    outcome o;
    on_stack_of(small_stack, [&] {
        auto const r = load_text(text, request("P.Verbose.Memory"));
        o.has_plan = r.plan.has_value();
        o.findings = r.findings;
    });
    INFO(all(o.findings));
    CHECK_FALSE(o.has_plan);
    auto const e = of(o.findings, wpr::check::limit);
    REQUIRE(e.size() == 1);
    CHECK(e[0].element == "Profile");
    CHECK(e[0].line == line_of(text, "Id=\"P.Verbose.Memory\""));
    CHECK(contains(e[0].text, "20000"));
    CHECK(contains(e[0].text, std::to_string(wpr::max_base_chain)));
    // 4,000 too
    outcome four;
    on_stack_of(small_stack, [&] {
        auto const r = load_text(profile_chain(4000), request("P.Verbose.Memory"));
        four.has_plan = r.plan.has_value();
        four.findings = r.findings;
    });
    CHECK_FALSE(four.has_plan);
    CHECK(of(four.findings, wpr::check::limit).size() == 1);
}

TEST_CASE("the Base chain limit: max_base_chain objects resolve, one more is refused, whatever was resolved first") {
    auto const at_limit = load_text(profile_chain(wpr::max_base_chain), request("P.Verbose.Memory"));
    INFO(all(at_limit.findings));
    REQUIRE(at_limit.plan);
    REQUIRE(at_limit.plan->system);
    CHECK(at_limit.plan->system->keywords == std::vector<std::string>{"CSwitch"});
    auto const past = load_text(profile_chain(wpr::max_base_chain + 1), request("P.Verbose.Memory"));
    CHECK_FALSE(past.plan);
    REQUIRE(of(past.findings, wpr::check::limit).size() == 1);
    CHECK(contains(of(past.findings, wpr::check::limit)[0].text, std::to_string(wpr::max_base_chain + 1)));
    // An event provider chain whose middle is named first (and so resolved and kept first): the longer
    // chain through it is still counted whole.
    std::size_t const n = wpr::max_base_chain + 20;
    std::string providers = "<EventProvider Id=\"E0\" Name=\"Provider\"/>\n";
    for (std::size_t i = 1; i < n; ++i)
        providers += "<EventProvider Id=\"E" + std::to_string(i) + "\" Name=\"Provider\" Base=\"E" + std::to_string(i - 1) + "\"/>\n";
    std::string const text =
        wprp("<EventCollector Id=\"EC\" Name=\"ec\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></EventCollector>\n" + providers +
             profile("P.Verbose.Memory", "",
                     "<Collectors><EventCollectorId Value=\"EC\"><EventProviders><EventProviderId Value=\"E100\"/><EventProviderId Value=\"E" +
                         std::to_string(n - 1) + "\"/></EventProviders></EventCollectorId></Collectors>"));
    auto const r = load_text(text, request("P"));
    INFO(all(r.findings));
    CHECK_FALSE(r.plan);
    REQUIRE(of(r.findings, wpr::check::limit).size() == 1);
    CHECK(contains(of(r.findings, wpr::check::limit)[0].text, "is " + std::to_string(n) + " objects long"));
}

// ---- item 3: linear time and memory --------------------------------------------------------------------

/// A SystemProvider Base chain of n links, each adding one keyword; the profile uses the last.
std::string keyword_chain(std::size_t n) {
    std::string providers = "<SystemProvider Id=\"SP0\"><Keywords><Keyword Value=\"CSwitch\"/></Keywords></SystemProvider>\n";
    for (std::size_t i = 1; i < n; ++i) {
        char value[24];
        std::snprintf(value, sizeof value, "0x%zx", i);
        providers += "<SystemProvider Id=\"SP" + std::to_string(i) + "\" Base=\"SP" + std::to_string(i - 1) +
                     "\"><Keywords Operation=\"Add\"><Keyword Value=\"CSwitch\"/><CustomKeyword Value=\"" + value +
                     "\"/></Keywords></SystemProvider>\n";
    }
    return wprp(collector + providers +
                profile("P.Verbose.Memory", "",
                        "<Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"SP" + std::to_string(n - 1) +
                            "\"/></SystemCollectorId></Collectors>"));
}

TEST_CASE("growth: a Base chain where each link adds one keyword keeps memory linear in its length") {
    std::size_t const n = 60;
    std::string const text_n = keyword_chain(n);
    std::string const text_4n = keyword_chain(4 * n);
    std::size_t keywords_small = 0;
    std::size_t keywords_big = 0;
    auto const a = allocations_of([&] {
        auto const r = load_text(text_n, request("P"));
        REQUIRE(r.plan);
        keywords_small = r.plan->system->keywords.size();
    });
    auto const b = allocations_of([&] {
        auto const r = load_text(text_4n, request("P"));
        REQUIRE(r.plan);
        keywords_big = r.plan->system->keywords.size();
    });
    CHECK(keywords_small == n);
    CHECK(keywords_big == 4 * n);
    INFO("peak bytes " << a.peak_bytes << " -> " << b.peak_bytes << ", allocations " << a.calls << " -> " << b.calls);
    CHECK(ratio(b.peak_bytes, a.peak_bytes) < 6.0); // n^2/2 elements kept: about 16
    CHECK(ratio(b.calls, a.calls) < 6.0);
}

/// One EventProvider with n keywords (18-character values: each key held by the heap).
std::string long_list(std::size_t n, bool one_line) {
    std::string keywords;
    for (std::size_t i = 0; i < n; ++i) {
        char value[24];
        std::snprintf(value, sizeof value, "0x%016zx", i + 1);
        keywords += std::string("<Keyword Value=\"") + value + "\"/>" + (one_line ? "" : "\n");
    }
    std::string const text = "<WindowsPerformanceRecorder Version=\"1\"><Profiles>"
                             "<EventCollector Id=\"EC\" Name=\"ec\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></EventCollector>"
                             "<EventProvider Id=\"EP\" Name=\"Provider\"><Keywords>" +
                             keywords +
                             "</Keywords></EventProvider>"
                             "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">"
                             "<Collectors><EventCollectorId Value=\"EC\"><EventProviders><EventProviderId Value=\"EP\"/>"
                             "</EventProviders></EventCollectorId></Collectors></Profile></Profiles></WindowsPerformanceRecorder>\n";
    return text;
}

TEST_CASE("growth: columns on a one-line profile are not counted from the start of the line") {
    std::size_t const n = 2000; // about 48 KB and 192 KB on one line
    std::string const text_n = long_list(n, true);
    std::string const text_4n = long_list(4 * n, true);
    wpr::detail::work = {};
    auto const a = wpr::read_document(text_n, "one.wprp");
    std::uint64_t const work_small = wpr::detail::work.column_bytes;
    wpr::detail::work = {};
    auto const b = wpr::read_document(text_4n, "one.wprp");
    std::uint64_t const work_big = wpr::detail::work.column_bytes;
    REQUIRE(a.root);
    REQUIRE(b.root);
    INFO("bytes read for columns: " << work_small << " -> " << work_big);
    CHECK(ratio(work_big, work_small) < 6.0); // from the line's start: about 16
    // the columns are still the characters before, counted in UTF-8 characters
    std::string const utf8 = "<WindowsPerformanceRecorder Version=\"1\"><!-- \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80 --><Profiles/>"
                             "</WindowsPerformanceRecorder>";
    auto const u = wpr::read_document(utf8, "u.wprp");
    REQUIRE(u.root);
    REQUIRE(u.root->children.size() == 1);
    CHECK(u.root->children[0].at.line == 1);
    CHECK(u.root->children[0].at.column == 40 + 12 + 1); // 3 characters in 9 bytes
    std::string long_line = "<WindowsPerformanceRecorder Version=\"1\"><!-- ";
    for (int i = 0; i < 2000; ++i) long_line += "\xC3\xA9"; // across many of the reader's 64-byte steps
    long_line += " --><Profiles/></WindowsPerformanceRecorder>";
    auto const v = wpr::read_document(long_line, "long.wprp");
    REQUIRE(v.root);
    REQUIRE(v.root->children.size() == 1);
    CHECK(v.root->children[0].at.column == 40 + 5 + 2000 + 4 + 1);
}

TEST_CASE("growth: a list of n items is merged in about n steps, not n^2") {
    std::size_t const n = 1000;
    std::string const text_n = long_list(n, false);
    std::string const text_4n = long_list(4 * n, false);
    auto const a = allocations_of([&] {
        auto const r = load_text(text_n, request("P"));
        REQUIRE(r.plan);
    });
    auto const b = allocations_of([&] {
        auto const r = load_text(text_4n, request("P"));
        REQUIRE(r.plan);
    });
    INFO("allocations " << a.calls << " -> " << b.calls);
    CHECK(ratio(b.calls, a.calls) < 6.0); // each item compared with every earlier one: about 16
}

/// n EventProviders and a collector referencing n names no file defines, all of one length.
std::string unknown_references(std::size_t n) {
    std::string providers;
    std::string refs;
    for (std::size_t i = 0; i < n; ++i) {
        char id[32];
        std::snprintf(id, sizeof id, "%06zu", i);
        providers += std::string("<EventProvider Id=\"EP-Provider-") + id + "\" Name=\"N" + id + "\"/>\n";
        refs += std::string("<EventProviderId Value=\"XX-Provider-") + id + "\"/>";
    }
    return wprp("<EventCollector Id=\"EC\" Name=\"ec\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></EventCollector>\n" + providers +
                profile("P.Verbose.Memory", "",
                        "<Collectors><EventCollectorId Value=\"EC\"><EventProviders>" + refs + "</EventProviders></EventCollectorId></Collectors>"));
}

TEST_CASE("growth: unknown references are not each compared with every Id") {
    // At n the suggestions' work already reaches its bound; at 4n it stays there.
    std::size_t const n = 300;
    wpr::detail::work = {};
    auto const a = load_text(unknown_references(n), request("P"));
    std::uint64_t const work_small = wpr::detail::work.suggestion_work;
    wpr::detail::work = {};
    auto const b = load_text(unknown_references(4 * n), request("P"));
    std::uint64_t const work_big = wpr::detail::work.suggestion_work;
    CHECK(of(a.findings, wpr::check::reference_unknown).size() == n);
    CHECK(of(b.findings, wpr::check::reference_unknown).size() == 4 * n);
    INFO("suggestion work: " << work_small << " -> " << work_big);
    CHECK(ratio(work_big, work_small) < 6.0); // every reference with every Id: about 16
    // a suggestion is still made while the work is small
    auto const one = load_text(wprp(collector + "<SystemProvider Id=\"SP_Main\"/>\n" +
                                    profile("P.Verbose.Memory", "",
                                            "<Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"SP_Mian\"/>"
                                            "</SystemCollectorId></Collectors>")),
                               request("P"));
    REQUIRE(of(one.findings, wpr::check::reference_unknown).size() == 1);
    CHECK(contains(of(one.findings, wpr::check::reference_unknown)[0].text, "did you mean 'SP_Main'?"));
}

/// n event collectors of distinct Names, each with n / 8 providers of 24-character names, all in one profile.
std::string many_providers(std::size_t n) {
    std::string event_collectors; // the schema's order: collectors before providers
    std::string objects;
    std::string collectors;
    for (std::size_t c = 0; c < 8; ++c) {
        std::string refs;
        for (std::size_t i = c * n / 8; i < (c + 1) * n / 8; ++i) {
            char id[48];
            std::snprintf(id, sizeof id, "Provider-Name-Number-%06zu", i);
            objects += std::string("<EventProvider Id=\"E") + id + "\" Name=\"" + id + "\"/>\n";
            refs += std::string("<EventProviderId Value=\"E") + id + "\"/>";
        }
        std::string const cid = "EC" + std::to_string(c);
        event_collectors += "<EventCollector Id=\"" + cid + "\" Name=\"ec" + std::to_string(c) + "\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></EventCollector>\n";
        collectors += "<EventCollectorId Value=\"" + cid + "\"><EventProviders>" + refs + "</EventProviders></EventCollectorId>";
    }
    return wprp(event_collectors + objects + profile("P.Verbose.Memory", "", "<Collectors>" + collectors + "</Collectors>"));
}

TEST_CASE("growth: a session of n providers is lowered in about n steps, not n^2") {
    std::size_t const n = 800;
    std::string const text_n = many_providers(n);
    std::string const text_4n = many_providers(4 * n);
    auto const a = allocations_of([&] {
        auto const r = load_text(text_n, request("P"));
        INFO(all(r.findings).substr(0, 2000));
        REQUIRE(r.plan);
        CHECK(r.plan->event_sessions.size() == 8);
    });
    auto const b = allocations_of([&] {
        auto const r = load_text(text_4n, request("P"));
        REQUIRE(r.plan);
        REQUIRE(r.plan->event_sessions.size() == 8);
        CHECK(r.plan->event_sessions[0].providers.size() == n / 2);
    });
    INFO("allocations " << a.calls << " -> " << b.calls);
    CHECK(ratio(b.calls, a.calls) < 6.0); // each provider's key made again for every provider before it: about 16
}

// ---- item 7: NUL --------------------------------------------------------------------------------------

std::string nul_profile(std::string const& name) {
    return wprp("<EventCollector Id=\"EC\" Name=\"" + name + "\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></EventCollector>\n" +
                profile("P.Verbose.Memory", "", "<Collectors><EventCollectorId Value=\"EC\"/></Collectors>"));
}

TEST_CASE("&#0; in a value is an XML error at its line and column, never a value cut there") {
    for (std::string const ref : {"&#0;", "&#x0;", "&#000;", "&#x00000000;", "&#x100000000;", "&#4294967296;"}) {
        CAPTURE(ref);
        std::string const text = nul_profile("Tool" + ref + "Events");
        auto const d = wpr::read_document(text, "test.wprp");
        CHECK_FALSE(d.root);
        REQUIRE(d.findings.size() == 1);
        auto const& f = d.findings[0];
        INFO(wpr::format(f));
        CHECK(f.what == wpr::check::xml);
        CHECK(f.level == wpr::severity::error);
        CHECK(f.element == "EventCollector");
        CHECK(f.line == line_of(text, ref));
        CHECK(f.column == column_of(text, ref));
        CHECK(contains(f.text, ref));
        CHECK(contains(f.text, "Name"));
        auto const r = load_text(text, request("P"));
        CHECK_FALSE(r.plan);
        for (auto const& x : r.findings) CHECK_FALSE(contains(x.text, "_Tool\"")); // no session named ..._Tool
    }
    // in character data too
    std::string const text = wprp("<EventCollector Id=\"EC\" Name=\"e\">ab&#0;cd</EventCollector>\n");
    auto const d = wpr::read_document(text, "test.wprp");
    CHECK_FALSE(d.root);
    REQUIRE(d.findings.size() == 1);
    CHECK(d.findings[0].line == line_of(text, "&#0;"));
    CHECK(d.findings[0].column == column_of(text, "&#0;"));
    // other references are read, and &#0; where it is no reference (a comment, CDATA) is text
    auto const fine = wpr::read_document(wprp("<!-- &#0; --><EventCollector Id=\"E&#67;\" Name=\"e\"><![CDATA[&#0;]]></EventCollector>\n"),
                                         "test.wprp");
    REQUIRE(fine.root);
    CHECK(fine.findings.empty());
    CHECK(fine.root->children[0].children[0].value_of("Id") == "EC");
}

TEST_CASE("the references pugixml decodes to U+0000, read as pugixml reads them") {
    using wpr::detail::nul_reference;
    static_assert(nul_reference("&#0;") == 4);
    static_assert(nul_reference("&#x0;") == 5);
    static_assert(nul_reference("&#0000;x") == 7);
    static_assert(nul_reference("&#x100000000;") == 13); // 2^32: pugixml's 32 bits wrap to 0
    static_assert(nul_reference("&#4294967296;") == 13);
    static_assert(nul_reference("&#65;") == 0);
    static_assert(nul_reference("&#x41;") == 0);
    static_assert(nul_reference("&#;") == 0);     // no digits: kept as written
    static_assert(nul_reference("&#x;") == 0);
    static_assert(nul_reference("&#0") == 0);     // no ';': kept as written
    static_assert(nul_reference("&#X0;") == 0);   // 'X' is not pugixml's hex mark: kept as written
    static_assert(nul_reference("&#0a;") == 0);   // a decimal reference with a letter: kept as written
    static_assert(nul_reference("&amp;") == 0);
    // and pugixml agrees: what it keeps as written is not cut
    for (std::string const kept : {"&#;", "&#X0;", "&#0a;"}) {
        auto const d = wpr::read_document(nul_profile("To" + kept + "ol"), "test.wprp");
        if (!d.root) continue; // pugixml may refuse the text itself
        CHECK(d.root->children[0].children[0].value_of("Name").size() > 4);
    }
}

TEST_CASE("columns from 64-byte steps are the characters before, as counted from the line's start") {
    std::string text;
    char const* const pieces[] = {"a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\n", "<b/>", "  "};
    std::uint32_t x = 12345;
    for (int i = 0; i < 3000; ++i) {
        x = x * 1103515245U + 12345U;
        text += pieces[(x >> 16) % 7];
    }
    wpr::detail::line_index const lines(text);
    std::uint32_t line = 1;
    std::uint32_t column = 1;
    for (std::size_t offset = 0; offset <= text.size(); ++offset) {
        bool const starts_character = offset == text.size() || (static_cast<unsigned char>(text[offset]) & 0xC0) != 0x80;
        if (starts_character) {
            auto const at = lines.at(offset);
            CHECK(at.line == line);
            CHECK(at.column == column);
        }
        if (offset == text.size()) break;
        if (text[offset] == '\n') {
            ++line;
            column = 1;
        } else if (starts_character) {
            ++column;
        }
    }
}

TEST_CASE("a NUL byte is an XML error at its line and column") {
    std::string text = nul_profile("Tool");
    auto const at = text.find("Tool");
    text[at + 2] = '\0'; // "To\0l"
    auto const d = wpr::read_document(text, "test.wprp");
    CHECK_FALSE(d.root);
    REQUIRE(d.findings.size() == 1);
    auto const& f = d.findings[0];
    INFO(wpr::format(f));
    CHECK(f.what == wpr::check::xml);
    CHECK(f.line == line_of(text, "To"));
    CHECK(f.column == column_of(text, "To") + 2);
    CHECK(contains(f.text, "NUL"));
}

TEST_CASE("an attribute given twice is an XML error, at the second") {
    std::string const text = nul_profile("ec\" Name=\"again");
    auto const d = wpr::read_document(text, "test.wprp");
    CHECK_FALSE(d.root);
    REQUIRE(d.findings.size() == 1);
    CHECK(d.findings[0].what == wpr::check::xml);
    CHECK(d.findings[0].column == column_of(text, "Name=\"again"));
    CHECK(contains(d.findings[0].text, "'Name'"));
    // many: still one check per attribute
    std::string many = "<WindowsPerformanceRecorder Version=\"1\"";
    for (int i = 0; i < 3000; ++i) many += " a" + std::to_string(i) + "=\"1\"";
    many += " a5=\"2\"/>";
    auto const m = wpr::read_document(many, "many.wprp");
    CHECK_FALSE(m.root);
    REQUIRE(m.findings.size() == 1);
    CHECK(contains(m.findings[0].text, "'a5'"));
}

} // namespace hostile
