// Windows Performance Recorder's names against its schema's lists (tests/data/wpr_schema_keywords.txt and
// tests/data/wpr_schema_stacks.txt, each with its public sources): every SystemProvider keyword's group-mask
// value and every Stack name's hook id, data-driven; the names no public source gives a value for are
// known and refused by name (rule::parse_name_without_value), never guessed; WPR's spellings of xperf's
// names resolve to the same hook ids; did-you-mean; the compile-time forms.
#include <cstddef>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/names/events.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/names/wpr.hpp"

namespace {
using namespace etwctl;

#include "xperf_data.inc" // the data files, embedded at configure time (tests/tables/CMakeLists.txt)

std::vector<std::vector<std::string>> rows_of(std::string_view text) {
    std::vector<std::vector<std::string>> v;
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        std::vector<std::string> row;
        for (std::string f; fields >> f;) row.push_back(f);
        v.push_back(row);
    }
    return v;
}

std::uint32_t hex_of(std::string const& s) { return static_cast<std::uint32_t>(std::stoul(s, nullptr, 16)); }
} // namespace

TEST_CASE("every WPR SystemProvider keyword: its group-mask value, or refused by name when no source gives one") {
    auto const rows = rows_of(wpr_schema_keywords);
    REQUIRE(rows.size() == 68);
    std::size_t with_value = 0;
    for (auto const& r : rows) {
        REQUIRE(r.size() == 3);
        std::string const& name = r[0];
        CAPTURE(name);
        group_mask m;
        parse_error err;
        if (r[1] == "-") {
            CHECK(find_wpr_keyword(name) == nullptr);
            auto const* known = find_wpr_keyword_without_value(name);
            REQUIRE(known != nullptr);
            CHECK(known->name == name);
            CHECK(parse_wpr_keywords("Loader+" + name, m, &err) == rule::parse_name_without_value);
            CHECK(err.offset == 7);
            CHECK(err.length == name.size());
            CHECK(err.note == known->seen_in);
            CHECK(err.suggestion.empty());
            continue;
        }
        auto const* k = find_wpr_keyword(name);
        REQUIRE(k != nullptr);
        CHECK(k->name == name); // WPR's exact spelling
        CHECK(k == &wpr_keyword_table[with_value]); // the schema's order
        ++with_value;
        CHECK(k->value.value == hex_of(r[1]));
        CHECK(k->source == (r[2] == "name" ? wpr_value_source::name_match : wpr_value_source::decoded_table));
        REQUIRE(parse_wpr_keywords(name, m, &err) == rule::ok);
        CHECK(identical(m, group_mask(perf_flag{hex_of(r[1])})));
        CHECK(find_wpr_keyword_without_value(name) == nullptr);
    }
    CHECK(with_value == std::size(wpr_keyword_table));
    CHECK(rows.size() - with_value == std::size(wpr_keyword_without_value));
}

TEST_CASE("every WPR Stack name: its hook id, the same as xperf's name's, or refused by name") {
    auto const rows = rows_of(wpr_schema_stacks);
    REQUIRE(rows.size() == 179);
    std::size_t with_hook = 0;
    for (auto const& r : rows) {
        REQUIRE(r.size() == 3);
        std::string const& name = r[0];
        CAPTURE(name);
        hook_id ids[2];
        std::size_t n = 0;
        parse_error err;
        if (r[1] == "-") {
            CHECK(find_kernel_event(name) == nullptr);
            CHECK(find_wpr_stack(name) == nullptr);
            auto const* known = find_kernel_event_without_hook(name);
            REQUIRE(known != nullptr);
            CHECK(parse_stack_walk("CSwitch+" + name, ids, n, &err) == rule::parse_name_without_value);
            CHECK(n == 1);
            CHECK(err.offset == 8);
            CHECK(err.length == name.size());
            CHECK(err.note == known->seen_in);
            if (r[2] != "-") CHECK(r[2] == name); // xperf publishes the same name without a hook either
            continue;
        }
        CHECK(wpr_stack_names[with_hook] == name); // the schema's order and spelling
        ++with_hook;
        auto const* e = find_wpr_stack(name);
        REQUIRE(e != nullptr);
        CHECK(e->hook().value == hex_of(r[1]));
        REQUIRE(parse_stack_walk(name, ids, n, &err) == rule::ok);
        REQUIRE(n == 1);
        CHECK(ids[0].value == hex_of(r[1]));
        if (r[2] != "-") { // xperf's name for the same event: the same hook
            auto const* x = find_kernel_event(r[2]);
            REQUIRE(x != nullptr);
            CHECK(x->xperf_name);
            CHECK(x->hook() == e->hook());
            if (r[2] != name) CHECK(e->alias); // WPR's spelling is an alias of xperf's row
        } else {
            CHECK_FALSE(e->xperf_name);
            CHECK_FALSE(e->inferred); // WPR gives the name: not etwctl's invention
        }
    }
    CHECK(with_hook == std::size(wpr_stack_names));
    // the schema's whole enumeration: the names with a hook and the four without
    CHECK(rows.size() - with_hook == std::size(wpr_stack_names_without_hook));
    for (auto n : wpr_stack_names_without_hook) {
        CAPTURE(n);
        bool listed = false;
        for (auto const& r : rows) listed = listed || (r[0] == n && r[1] == "-");
        CHECK(listed);
    }
}

TEST_CASE("WPR's spellings of xperf's names: one hook, both names accepted, xperf's stays canonical") {
    struct pair { std::string_view wpr, xperf; };
    constexpr pair pairs[] = {{"SampledProfile", "Profile"},       {"VirtualAllocation", "VirtualAlloc"},
                              {"SystemCallEnter", "SyscallEnter"}, {"PoolAllocation", "PoolAlloc"},
                              {"TimerPeriodic", "TimerSetPeriodic"}, {"RegistryOpenKey", "RegOpenKey"},
                              {"HeapReallocation", "HeapRealloc"}};
    for (auto const& p : pairs) {
        CAPTURE(p.wpr);
        CHECK(kernel_event_hook(p.wpr) == kernel_event_hook(p.xperf));
        CHECK(kernel_event_name(*kernel_event_hook(p.wpr)) == p.xperf);
        CHECK(wpr_stack_name(p.xperf).empty()); // xperf's short names are not WPR's
    }
    CHECK(wpr_stack_name("sampledprofile") == "SampledProfile"); // matched case-insensitively, WPR's spelling back
    // A list mixing both tools' names for one event is a duplicate.
    hook_id ids[4];
    std::size_t n = 0;
    parse_error err;
    CHECK(parse_stack_walk("Profile+SampledProfile", ids, n, &err) == rule::parse_duplicate_name);
    CHECK(err.offset == 8);
}

TEST_CASE("did you mean: WPR keywords and Stack names") {
    group_mask m;
    parse_error err;
    CHECK(parse_wpr_keywords("ProcessThread+CSwich", m, &err) == rule::parse_unknown_name);
    CHECK(err.offset == 14);
    CHECK(err.suggestion == "CSwitch");
    CHECK(parse_wpr_keywords("VirtualAlocation", m, &err) == rule::parse_unknown_name);
    CHECK(err.suggestion == "VirtualAllocation");
    // xperf's spelling is not a WPR keyword: refused, with WPR's name when it is close
    CHECK(parse_wpr_keywords("PROC_THREAD", m, &err) == rule::parse_unknown_name);
    CHECK(parse_wpr_keywords("ProcesThread", m, &err) == rule::parse_unknown_name);
    CHECK(err.suggestion == "ProcessThread");
    hook_id ids[4];
    std::size_t n = 0;
    CHECK(parse_stack_walk("SampledProfle", ids, n, &err) == rule::parse_unknown_name);
    CHECK(err.suggestion == "SampledProfile");
    CHECK(detail::nearest_wpr_stack_name("VirtualAllocaton") == "VirtualAllocation");
    CHECK(detail::nearest_wpr_stack_name("RegistryOpenKy") == "RegistryOpenKey");
    // The docs' spelling of a keyword the schema spells otherwise
    CHECK(parse_wpr_keywords("DiskIOInitialization", m, &err) == rule::parse_unknown_name);
    char text[256] = {};
    std::size_t const len = format(err, "DiskIOInitialization", text);
    CHECK(std::string_view(text, len).find("unknown name") != std::string_view::npos);
    // a name without a value is formatted with where it is published
    CHECK(parse_wpr_keywords("IdealProcessor", m, &err) == rule::parse_name_without_value);
    std::size_t const len2 = format(err, "IdealProcessor", text);
    CHECK(std::string_view(text, len2).find("PERF_IDEAL_PROCESSOR without a value") != std::string_view::npos);
}

TEST_CASE("WPR keywords: the plain aliased keywords are the Masks[0] bits; the raw forms of CustomKeyword") {
    // CSwitch is EVENT_TRACE_FLAG_CSWITCH in Masks[0]: the same groups as xperf's CSWITCH (PERF_CONTEXT_SWITCH),
    // written in the other form
    CHECK(wpr_keywords<"CSwitch"> == kernel_flags<"CSWITCH">);
    CHECK_FALSE(identical(wpr_keywords<"CSwitch">, kernel_flags<"CSWITCH">));
    CHECK(wpr_keywords<"CSwitch">.masks[0] == 0x10U);
    group_mask m;
    REQUIRE(parse_wpr_keywords("ProcessThread+0x20000004", m) == rule::ok); // CustomKeyword's form
    CHECK(m.masks[0] == 0x3U);
    CHECK(m.masks[1] == 0x4U);
    // CSwitch and PERF_CONTEXT_SWITCH are different bits, so both may be listed
    CHECK(parse_wpr_keywords("CSwitch+0x20000004", m) == rule::ok);
    CHECK(parse_wpr_keywords("Loader+loader", m) == rule::parse_duplicate_name);
    CHECK(parse_wpr_keywords("Loader+0x4", m) == rule::parse_duplicate_name);
    CHECK(parse_wpr_keywords("Loader+", m) == rule::parse_empty_name);
    // A real profile's list (MSO-Scripts' CPU profile shape): each keyword into its own mask
    constexpr group_mask cpu = wpr_keywords<"ProcessThread+Loader+CSwitch+ReadyThread+SampledProfile+DPC+Interrupt+IdleStates">;
    static_assert(cpu.masks[0] == (0x3U | 0x4U | 0x10U | 0x800U | 0x01000000U | 0x20U | 0x40U));
    static_assert(cpu.masks[2] == 0x8000U); // IdleStates = PERF_PROCESSOR_IDLE in Masks[2]
    CHECK(identical(cpu, [] {
        group_mask g;
        REQUIRE(parse_wpr_keywords("ProcessThread+Loader+CSwitch+ReadyThread+SampledProfile+DPC+Interrupt+IdleStates", g) == rule::ok);
        return g;
    }()));
}

TEST_CASE("compile time: WPR Stack names in stack_walk<>") {
    constexpr auto ids = stack_walk<"SampledProfile+CSwitch+ReadyThread+VirtualAllocation+RegistryOpenKey+ThreadPoolTimerSet">;
    static_assert(ids.size() == 6);
    static_assert(ids[0].value == 0x0F2E && ids[3].value == 0x0262 && ids[4].value == 0x090B && ids[5].value == 0x1C2A);
    CHECK(ids[1].value == 0x0524);
}
