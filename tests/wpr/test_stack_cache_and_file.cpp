// Issue 35 items 4 and 5 on the simulated kernel. Item 4: a StackCaching outside the kernel's bounds
// (Microsoft's MSO-Scripts profiles write CacheSize 1024 and 2048, below the 3 MiB minimum) is applied
// as the kernel would clamp it (CacheSize 3..50 MiB, BucketCount 256..4096: public decompiled listings of
// ntoskrnl's EtwpEnableStackCaching), and the clamp is said in the plan (a check::clamped warning naming
// the profile's value and the value sent) and in apply_result::clamped: a success with a clamp is never
// silent. Item 5: make_plans / load_plans check every Profile of a file, each with its plan (or its own
// errors) and its warnings; the files' own findings once.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/testing/sim_kernel.hpp"
#include "wpr_support.hpp"

using namespace wpr_test;
namespace sim = etwctl::sim;

namespace {

/// A profile "T" (Memory) whose system collector has <StackCaching BucketCount=buckets CacheSize=cache>.
std::string cachefile_profile(std::string const& cache, std::string const& buckets) {
    return wprp("<SystemCollector Id=\"S\" Name=\"NT Kernel Logger\"><BufferSize Value=\"64\"/><Buffers Value=\"8\"/>\n"
                "<StackCaching BucketCount=\"" + buckets + "\" CacheSize=\"" + cache + "\"/></SystemCollector>\n"
                "<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"ProcessThread\"/></Keywords></SystemProvider>\n"
                "<Profile Id=\"T.Verbose.Memory\" Name=\"T\" Description=\"t\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\"><Collectors>"
                "<SystemCollectorId Value=\"S\"><SystemProviderId Value=\"SP\"/></SystemCollectorId>"
                "</Collectors></Profile>\n");
}

std::uint32_t cachefile_dword(std::vector<std::byte> const& b, std::size_t at) {
    std::uint32_t v = 0;
    REQUIRE(at + 4 <= b.size());
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

/// The bytes of the one stack-caching request (SystemPerformanceTraceInformation class 0x10) sent.
std::vector<std::byte> cachefile_request(sim::kernel const& k) {
    std::vector<std::byte> found;
    std::size_t n = 0;
    for (auto const& r : k.requests())
        if (!r.is_session_call && r.kernel_class == static_cast<std::uint32_t>(etwctl::event_trace_information_class::stack_caching)) {
            found.assign(r.bytes.begin(), r.bytes.end());
            ++n;
        }
    REQUIRE(n == 1);
    return found;
}

struct cachefile_case {
    char const* cache;           // CacheSize as written (read as KB)
    char const* buckets;         // BucketCount as written
    std::uint32_t sent_bytes;    // what the kernel would use: the clamp's bound, in bytes
    std::uint32_t sent_buckets;
    char const* text;            // the warning's words
};

} // namespace

TEST_CASE("wpr stack cache: a CacheSize below the kernel's minimum is applied as 3 MiB, the clamp named in the plan and the result") {
    // MSO-Scripts' FileDiskIO writes CacheSize="1024": 1 MiB read as KB, below the kernel's 3 MiB.
    std::string const text = cachefile_profile("1024", "256");
    auto const loaded = load_text(text, request("T"));
    INFO(all(loaded.findings));
    REQUIRE(loaded.plan);
    auto const clamps = of(loaded.plan->warnings, wpr::check::clamped);
    REQUIRE(clamps.size() == 1);
    CHECK(clamps[0].level == wpr::severity::warning);
    CHECK(clamps[0].element == "StackCaching");
    CHECK(clamps[0].line == line_of(text, "<StackCaching"));
    CHECK(contains(clamps[0].text, "CacheSize=1024 (KB) is below the kernel's minimum of 3072 KB (3 MiB)"));
    CHECK(contains(clamps[0].text, "applied as 3072 KB (3145728 bytes)"));
    CHECK_FALSE(wpr::has_errors(loaded.findings));

    auto k = std::make_unique<sim::kernel>();
    auto r = wpr::apply(*k, *loaded.plan);
    INFO(r.message);
    REQUIRE(r); // today's refusal (rule stack_cache_out_of_bounds) is gone: WPR applies such profiles
    REQUIRE(r.clamped.size() == 1);
    CHECK(r.clamped[0].session == "WPR_initiated_WprApp_WPR System Collector");
    CHECK(r.clamped[0].setting == "StackCaching CacheSize");
    CHECK(r.clamped[0].written == 1024U * 1024U);
    CHECK(r.clamped[0].applied == 3U * 1024U * 1024U);
    auto const sent = cachefile_request(*k); // EVENT_TRACE_STACK_CACHING_INFORMATION
    CHECK(std::to_integer<unsigned>(sent[0x10]) == 1U);        // Enabled
    CHECK(cachefile_dword(sent, 0x14) == 3U * 1024U * 1024U);  // CacheSize: the kernel's minimum
    CHECK(cachefile_dword(sent, 0x18) == 256U);                // BucketCount as written
}

TEST_CASE("wpr stack cache: each bound is clamped to as the kernel clamps, and values inside are sent as written") {
    cachefile_case const cases[] = {
        {"2048", "256", 3U << 20, 256, "CacheSize=2048 (KB) is below the kernel's minimum"}, // MSO-Scripts' Memory, Heap
        {"1", "256", 3U << 20, 256, "CacheSize=1 (KB) is below"},
        {"999999", "256", 50U << 20, 256, "CacheSize=999999 (KB) is above the kernel's maximum of 51200 KB (50 MiB)"},
        {"3072", "100", 3U << 20, 256, "BucketCount=100 is below the kernel's minimum of 256"},
        {"3072", "99999999", 3U << 20, 4096, "BucketCount=99999999 is above the kernel's maximum of 4096"},
        {"4194304", "5000", 50U << 20, 4096, "CacheSize=4194304 (KB) is above"}, // 4 GiB as KB: no 32-bit wrap
        {"3072", "256", 3U << 20, 256, nullptr},   // Microsoft's own files: inside, nothing clamped
        {"51200", "4096", 50U << 20, 4096, nullptr},
        {"0", "0", 0, 0, nullptr},                 // 0: the kernel's default, sent as 0
    };
    for (auto const& c : cases) {
        INFO(c.cache << " KB, " << c.buckets << " buckets");
        auto const loaded = load_text(cachefile_profile(c.cache, c.buckets), request("T"));
        INFO(all(loaded.findings));
        REQUIRE(loaded.plan);
        auto const clamps = of(loaded.plan->warnings, wpr::check::clamped);
        auto k = std::make_unique<sim::kernel>();
        auto const r = wpr::apply(*k, *loaded.plan);
        INFO(r.message);
        REQUIRE(r);
        auto const sent = cachefile_request(*k);
        CHECK(cachefile_dword(sent, 0x14) == c.sent_bytes);
        CHECK(cachefile_dword(sent, 0x18) == c.sent_buckets);
        if (c.text) {
            REQUIRE(clamps.size() == 1);
            CHECK(contains(clamps[0].text, c.text));
            CHECK_FALSE(r.clamped.empty());
        } else {
            CHECK(clamps.empty());
            CHECK(r.clamped.empty());
        }
    }
}

TEST_CASE("wpr stack cache: set<stack_caching> itself still refuses an unclamped value") {
    // The clamp is the WPR layer's, made explicit; the typed call keeps its check.
    auto k = std::make_unique<sim::kernel>();
    auto const h = k->start_kernel_logger();
    REQUIRE(h == 0xFFFFU);
    CHECK(etwctl::set<etwctl::stack_caching>(*k, etwctl::session_handle{h}, etwctl::stack_cache_size{1024U * 1024U},
                                             etwctl::stack_cache_buckets{256}) ==
          etwctl::make_error_code(etwctl::rule::stack_cache_out_of_bounds));
}

namespace {
/// Three profiles: A (File) and B (Memory) can be applied, C names an EventProvider the file lacks.
std::string const cachefile_many = wprp(
    "<SystemCollector Id=\"S\" Name=\"NT Kernel Logger\"><BufferSize Value=\"64\"/><Buffers Value=\"8\"/></SystemCollector>\n"
    "<EventCollector Id=\"E\" Name=\"Ev\"><BufferSize Value=\"64\"/><Buffers Value=\"8\"/></EventCollector>\n"
    "<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"ProcessThread\"/></Keywords></SystemProvider>\n"
    "<EventProvider Id=\"P\" Name=\"3f1c9a2e-5b7d-4c11-9e0a-2d4b6f8a1c35\"/>\n"
    "<Profile Id=\"A.Verbose.File\" Name=\"A\" Description=\"a\" DetailLevel=\"Verbose\" LoggingMode=\"File\"><Collectors>"
    "<SystemCollectorId Value=\"S\"><SystemProviderId Value=\"SP\"/></SystemCollectorId></Collectors></Profile>\n"
    "<Profile Id=\"B.Light.Memory\" Name=\"B\" Description=\"b\" DetailLevel=\"Light\" LoggingMode=\"Memory\"><Collectors>"
    "<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"P\"/></EventProviders></EventCollectorId></Collectors></Profile>\n"
    "<Profile Id=\"C.Verbose.Memory\" Name=\"C\" Description=\"c\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\"><Collectors>"
    "<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"Missing\"/></EventProviders></EventCollectorId></Collectors></Profile>\n");
} // namespace

TEST_CASE("wpr load_plans: every profile of a file, each with its plan or its own errors") {
    wpr::file_check const r = wpr::load_plans({"many.wprp", cachefile_many}, {});
    INFO(all(r.findings));
    CHECK_FALSE(wpr::has_errors(r.findings));
    // the files' own findings (doc rules: several Names; A without a Memory twin), once, not in each
    // profile's findings
    REQUIRE(of(r.findings, wpr::check::doc_rule).size() == 2);
    REQUIRE(r.profiles.size() == 3);
    CHECK_FALSE(r.ok());
    CHECK(r.failing() == std::vector<std::string>{"C.Verbose.Memory"});

    auto const& a = r.profiles[0];
    CHECK(a.profile.id == "A.Verbose.File");
    REQUIRE(a.ok());
    CHECK(a.plan->profile_id == "A.Verbose.File");
    CHECK(a.plan->mode == wpr::logging_mode::file); // each profile with its own LoggingMode
    REQUIRE(a.plan->system);
    CHECK((a.plan->system->session.log_file_mode & etwctl::log_file_mode::sequential) != 0);
    CHECK(a.plan->event_sessions.empty());
    CHECK(a.findings.empty());
    CHECK(of(a.plan->warnings, wpr::check::doc_rule).size() == 2); // the plan carries every warning, as make_plan's

    auto const& b = r.profiles[1];
    CHECK(b.profile.id == "B.Light.Memory");
    REQUIRE(b.ok());
    CHECK(b.plan->level == wpr::detail_level::light);
    CHECK_FALSE(b.plan->system);
    REQUIRE(b.plan->event_sessions.size() == 1);
    CHECK((b.plan->event_sessions[0].log_file_mode & etwctl::log_file_mode::buffering) != 0);

    auto const& c = r.profiles[2];
    CHECK_FALSE(c.ok());
    REQUIRE(of(c.findings, wpr::check::reference_unknown).size() == 1);
    CHECK(contains(c.findings[0].text, "'Missing'"));
    CHECK(c.findings[0].line == line_of(cachefile_many, "Value=\"Missing\""));

    // each plan is the one make_plan gives for that profile's Id
    for (auto const& p : r.profiles) {
        if (!p.ok()) continue;
        auto const one = load_text(cachefile_many, request(p.profile.id, p.profile.mode, p.profile.level));
        REQUIRE(one.plan);
        CHECK(one.plan->profile_id == p.plan->profile_id);
        CHECK(one.plan->warnings.size() == p.plan->warnings.size());
        CHECK(one.plan->event_sessions.size() == p.plan->event_sessions.size());
    }
}

TEST_CASE("wpr load_plans: ok when every profile can be applied; none checked when the file itself is broken") {
    std::string const two = wprp(
        "<SystemCollector Id=\"S\" Name=\"NT Kernel Logger\"><BufferSize Value=\"64\"/><Buffers Value=\"8\"/></SystemCollector>\n"
        "<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"ProcessThread\"/></Keywords></SystemProvider>\n"
        "<Profile Id=\"A.Verbose.File\" Name=\"A\" Description=\"a\" DetailLevel=\"Verbose\" LoggingMode=\"File\"><Collectors>"
        "<SystemCollectorId Value=\"S\"><SystemProviderId Value=\"SP\"/></SystemCollectorId></Collectors></Profile>\n"
        "<Profile Id=\"A.Verbose.Memory\" Name=\"A\" Description=\"a\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\" Base=\"A.Verbose.File\"/>\n");
    wpr::file_check const good = wpr::load_plans({"two.wprp", two}, {});
    INFO(all(good.findings));
    REQUIRE(good.profiles.size() == 2);
    CHECK(good.ok());
    CHECK(good.failing().empty());
    CHECK(good.profiles[1].plan->mode == wpr::logging_mode::memory);

    std::string broken = two;
    broken.replace(broken.find("ProcessThread"), 13, "ProcessThred");
    wpr::file_check const bad = wpr::load_plans({"two.wprp", broken}, {});
    CHECK(wpr::has_errors(bad.findings));
    CHECK(bad.profiles.empty());
    CHECK_FALSE(bad.ok());

    // a file without a Profile is not "every profile can be applied"
    std::string const none = wprp("<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"ProcessThread\"/></Keywords></SystemProvider>\n");
    wpr::file_check const empty = wpr::load_plans({"none.wprp", none}, {});
    CHECK(empty.profiles.empty());
    CHECK_FALSE(empty.ok());
}
