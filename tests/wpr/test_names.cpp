// Issue 34 items 4 and 8 on the simulated kernel: a collector's Name is a file name (wpr::check_file_name:
// no separator, "..", drive, NUL, trailing dot or space, device name), refused by apply before any call
// and skipped by stop_profile (the others still saved). (A stack cache outside the kernel's bounds, refused
// here by issue 34, is applied clamped since issue 35: test_stack_cache_and_file.cpp.)
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/testing/sim_kernel.hpp"
#include "wpr_support.hpp"

using namespace wpr_test;
namespace sim = etwctl::sim;

namespace {

/// A profile with one system collector and one event collector named `event_name`, with a stack cache.
std::string profile(std::string const& event_name, std::string const& cache = "3072", std::string const& buckets = "256") {
    return wprp("<SystemCollector Id=\"S\" Name=\"NT Kernel Logger\"><BufferSize Value=\"64\"/><Buffers Value=\"8\"/>"
                "<StackCaching BucketCount=\"" + buckets + "\" CacheSize=\"" + cache + "\"/></SystemCollector>\n"
                "<EventCollector Id=\"E\" Name=\"" + event_name + "\"><BufferSize Value=\"64\"/><Buffers Value=\"8\"/></EventCollector>\n"
                "<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"ProcessThread\"/></Keywords></SystemProvider>\n"
                "<EventProvider Id=\"P\" Name=\"3f1c9a2e-5b7d-4c11-9e0a-2d4b6f8a1c35\"/>\n"
                "<Profile Id=\"T.Verbose.File\" Name=\"T\" Description=\"t\" DetailLevel=\"Verbose\" LoggingMode=\"File\"><Collectors>"
                "<SystemCollectorId Value=\"S\"><SystemProviderId Value=\"SP\"/></SystemCollectorId>"
                "<EventCollectorId Value=\"E\"><EventProviders><EventProviderId Value=\"P\"/></EventProviders></EventCollectorId>"
                "</Collectors></Profile>\n"
                "<Profile Id=\"T.Verbose.Memory\" Name=\"T\" Description=\"t\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\" Base=\"T.Verbose.File\"/>\n");
}

} // namespace

TEST_CASE("check_file_name: each rule refused naming the part; ordinary names pass") {
    CHECK(wpr::check_file_name("WPR_initiated_WprApp_Test Event Collector").empty());
    CHECK(wpr::check_file_name("NT Kernel Logger").empty());
    CHECK(wpr::check_file_name("a.b").empty());
    CHECK(wpr::check_file_name("CONSOLE").empty());
    CHECK(wpr::check_file_name("COM10").empty());
    CHECK(contains(wpr::check_file_name("x\\..\\..\\hosts"), "path separator '\\' at offset 1"));
    CHECK(contains(wpr::check_file_name("x/y"), "path separator '/' at offset 1"));
    CHECK(contains(wpr::check_file_name("a..b"), "\"..\" at offset 1"));
    CHECK(contains(wpr::check_file_name("C:x"), "':' at offset 1"));
    CHECK(contains(wpr::check_file_name(std::string("a\0b", 3)), "NUL at offset 1"));
    CHECK(contains(wpr::check_file_name("name."), "ends with a dot"));
    CHECK(contains(wpr::check_file_name("name "), "ends with a space"));
    CHECK(contains(wpr::check_file_name(""), "is empty"));
    for (char const* d : {"CON", "prn", "Aux", "NUL", "COM1", "com9", "LPT1", "LPT9", "NUL.txt", "con.etl", "COM1 .x"}) {
        INFO(d);
        CHECK(contains(wpr::check_file_name(d), "is the device name"));
    }
}

TEST_CASE("apply: a collector Name that is a path is refused before any call, naming it") {
    auto const loaded = load_text(profile("x\\..\\..\\..\\Windows\\System32\\drivers\\etc\\hosts"), request("T", wpr::logging_mode::file));
    INFO(all(loaded.findings));
    REQUIRE(loaded.plan);
    auto k = std::make_unique<sim::kernel>();
    std::size_t const mark = k->requests().size();
    wpr::apply_options o;
    o.log_directory = "out";
    auto const r = wpr::apply(*k, *loaded.plan, o);
    REQUIRE_FALSE(r);
    REQUIRE(r.failed);
    CHECK(r.failed->call == wpr::apply_call::check);
    CHECK(r.error == etwctl::make_error_code(etwctl::rule::session_name_invalid));
    CHECK(contains(r.message, "'WPR_initiated_WprApp_x\\..\\..\\..\\Windows\\System32\\drivers\\etc\\hosts' holds a path separator '\\'"));
    CHECK(contains(r.message, "rename the collector"));
    CHECK(k->requests().size() == mark);
}

TEST_CASE("apply: a device name, a drive, a trailing dot: refused in Memory mode too (the name is a file at stop)") {
    for (char const* name : {"C:evil", "trailing.", "a/b"}) {
        INFO(name);
        auto const loaded = load_text(profile(name), request("T", wpr::logging_mode::memory));
        INFO(all(loaded.findings));
        REQUIRE(loaded.plan);
        auto k = std::make_unique<sim::kernel>();
        std::size_t const mark = k->requests().size();
        auto const r = wpr::apply(*k, *loaded.plan);
        REQUIRE_FALSE(r);
        CHECK(r.failed->call == wpr::apply_call::check);
        CHECK(k->requests().size() == mark);
    }
}

TEST_CASE("stop_profile: a running session whose name is a path is skipped, naming it; the others are saved") {
    auto const loaded = load_text(profile("Fine"), request("T", wpr::logging_mode::memory));
    INFO(all(loaded.findings));
    REQUIRE(loaded.plan);
    auto k = std::make_unique<sim::kernel>();
    auto r = wpr::apply(*k, *loaded.plan);
    REQUIRE(r);
    r.profile.release();
    auto found = wpr::find_profile_sessions(*k, wpr::default_session_prefix());
    REQUIRE_FALSE(found.sessions.empty());
    found.sessions.resize(1);
    found.sessions[0].name = "WPR_initiated_WprApp_..\\..\\evil"; // as another tool could have named it
    auto const stopped = wpr::stop_profile(*k, found.sessions, "out");
    REQUIRE(stopped.size() == 1);
    CHECK(contains(stopped[0].skipped, "'WPR_initiated_WprApp_..\\..\\evil' holds a path separator"));
    CHECK(stopped[0].log_file.empty());
    CHECK_FALSE(stopped[0].report.stopped);
}
