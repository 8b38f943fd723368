// group_mask equality by meaning (docs/api.md, etwctl/group_mask.hpp): the mask read back from the
// kernel equals the mask that was set, however either spells its Masks[0] aliases; identical() is the
// bit-for-bit comparison.
#include <memory>

#include "etwctl_test.hpp"

using namespace etwctl;

namespace {
constexpr perf_flag context_switch{0x20000004}; // PERF_CONTEXT_SWITCH, alias EVENT_TRACE_FLAG_CSWITCH 0x10
constexpr perf_flag system_call{0x40000040};        // PERF_SYSCALL, alias EVENT_TRACE_FLAG_SYSTEMCALL 0x80
constexpr perf_flag profile{0x20000002};        // PERF_PROFILE, alias EVENT_TRACE_FLAG_PROFILE 0x01000000
constexpr std::uint32_t process = 0x1, thread = 0x2, cswitch_alias = 0x10;
} // namespace

TEST_CASE("group_mask: query after set compares equal to what was set, without canonical()") {
    auto const owner = std::make_unique<sim::kernel>(); // ~160 KB: on the heap, not on the test's stack
    sim::kernel& k = *owner;
    session_handle const session{k.start_logger(0x21)};
    REQUIRE(session.value != 0);

    SUBCASE("set with extended flags: the kernel adds the Masks[0] aliases") {
        group_mask const wanted = group_mask::from_enable_flags(process | thread) | context_switch | system_call;
        REQUIRE_FALSE(set<system_trace_enable_flags>(k, session, wanted));
        auto const got = query<system_trace_enable_flags>(k, session);
        REQUIRE(got.has_value());
        CHECK_FALSE(identical(*got, wanted)); // the bits differ: the kernel repeats the aliases
        CHECK(*got == wanted);                // the meaning does not
        CHECK(wanted == *got);
    }
    SUBCASE("set with the documented EnableFlags aliases") {
        group_mask const wanted = group_mask::from_enable_flags(process | cswitch_alias | 0x01000000U);
        REQUIRE_FALSE(set<system_trace_enable_flags>(k, session, wanted));
        auto const got = query<system_trace_enable_flags>(k, session);
        REQUIRE(got.has_value());
        CHECK(*got == wanted);
        CHECK(*got == (group_mask::from_enable_flags(process) | context_switch | profile));
    }
}

TEST_CASE("group_mask: equality is by meaning, and still tells different flags apart") {
    constexpr group_mask extended = group_mask{context_switch} | system_call;
    constexpr group_mask legacy = group_mask::from_enable_flags(cswitch_alias | 0x80U);
    static_assert(extended == legacy && legacy == extended);
    static_assert(extended == extended.normalized() && legacy == legacy.normalized());
    static_assert(!identical(extended, legacy) && identical(extended, extended));
    static_assert(extended != (extended | profile));
    static_assert(extended != group_mask{context_switch});
    static_assert(group_mask::from_enable_flags(process) != group_mask::from_enable_flags(thread));
    static_assert(group_mask{} == group_mask{} && group_mask{} != legacy);
    // the bits sent to the kernel are kept as given: equality does not rewrite them
    static_assert(legacy.masks[0] == (cswitch_alias | 0x80U) && legacy.masks[1] == 0);
    CHECK(extended == legacy);
}
