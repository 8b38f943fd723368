// find_profile_source (docs/api.md, etwctl/profiler/pmc.hpp): counter ids come from the machine's
// profile-source list, by name, at run time - two machines with different lists give different ids.
#include <memory>

#include "etwctl_test.hpp"

using namespace etwctl;

TEST_CASE("find_profile_source: the id this machine's list gives the name, case-insensitively") {
    auto const owner = std::make_unique<sim::kernel>();
    sim::kernel& k = *owner;
    auto const cycles = find_profile_source(k, "TotalCycles");
    REQUIRE(cycles.has_value());
    CHECK(static_cast<std::uint32_t>(*cycles) == 0x13); // the simulated Intel machine's id
    auto const lower = find_profile_source(k, "totalcycles");
    REQUIRE(lower.has_value());
    CHECK(*lower == *cycles);
    auto const timer = find_profile_source(k, "Timer");
    REQUIRE(timer.has_value());
    CHECK(*timer == profile_source::time);

    // another machine, another id for the same name: resolved from its own list
    sim::profile_source_desc const other[] = {{0, "Timer", 10000, 1221, 1000000},
                                              {30, "TotalCycles", 65536, 4096, 2147483647}};
    REQUIRE(k.set_profile_sources(other));
    auto const there = find_profile_source(k, "TotalCycles");
    REQUIRE(there.has_value());
    CHECK(static_cast<std::uint32_t>(*there) == 30);
}

TEST_CASE("find_profile_source: an absent name is profile_source_absent; a failed query keeps its error") {
    auto const owner = std::make_unique<sim::kernel>();
    sim::kernel& k = *owner;
    auto const missing = find_profile_source(k, "NoSuchCounter");
    REQUIRE_FALSE(missing.has_value());
    CHECK(rule_of(missing.error()) == rule::profile_source_absent);
    CHECK(missing.error() == win32_condition(win32_error_of(rule::profile_source_absent)));

    std::byte tiny[8];
    auto const too_small = find_profile_source(k, "TotalCycles", tiny);
    REQUIRE_FALSE(too_small.has_value());
    CHECK(rule_of(too_small.error()) != rule::profile_source_absent); // the query's own error, not "absent"
}
