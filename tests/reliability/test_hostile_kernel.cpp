// A kernel that lies (sim::hostile_kernel): every malformed reply must become a precise error -
// rule::kernel_reply_malformed (ERROR_INVALID_DATA) or the status the kernel returned, mapped - or a
// correctly truncated result (a prefix of the true answer), with the caller's buffer ending at a guard
// page so that any read or write past it faults.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "etwctl/testing/hostile_kernel.hpp"
#include "etwctl_test.hpp"
#include "guard_page.hpp"

using namespace etwctl;
using etwctl_test::guard_page_buffer;
using sim::reply_fault;

namespace {

std::unique_ptr<sim::hostile_kernel> hostile_machine() {
    auto k = std::make_unique<sim::hostile_kernel>();
    k->inner().start_logger(1);
    return k;
}

constexpr guid disallowed[3] = {guid(0x11111111, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), guid(0x22222222, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
                                guid(0x33333333, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)};

/// The records in out[0, ret) are a prefix of the machine's list, field for field.
void check_prefix_of_machine(sim::kernel const& k, unsigned char const* out, std::uint32_t ret) {
    profile_source_list_view v;
    REQUIRE(profile_source_list_view::parse({reinterpret_cast<std::byte const*>(out), ret}, v) == rule::ok);
    auto const truth = k.profile_sources();
    std::size_t i = 0;
    for (auto e : v) {
        REQUIRE(i < truth.size());
        CHECK(e.source_id() == truth[i].id);
        CHECK(e.min_interval() == truth[i].min_interval);
        CHECK(e.max_interval() == truth[i].max_interval);
        char name[64];
        std::size_t const n = e.description_ascii(name);
        CHECK(std::string_view(name, n) == truth[i].name);
        ++i;
    }
}

} // namespace

TEST_CASE("hostile kernel: the profile-source list") {
    guard_page_buffer page(8192);
    auto k = hostile_machine();
    std::uint32_t needed = 0;
    REQUIRE(compat::trace_query_information(*k, 0, 7, nullptr, 0, &needed) == win32::bad_length);
    std::uint32_t const len = needed + 40; // room to spare: only the reply's own lies matter

    struct expectation {
        reply_fault fault;
        std::uint32_t win32; ///< what the compat call returns
    };
    constexpr std::uint32_t malformed = win32::invalid_data;
    expectation const cases[] = {
        {reply_fault::none, 0},
        {reply_fault::length_beyond_buffer, malformed},
        {reply_fault::length_short, malformed}, // cuts the last description's NUL off
        {reply_fault::length_zero, malformed},
        {reply_fault::success_short_data, malformed},
        {reply_fault::too_small_needs_less, malformed},
        {reply_fault::chain_cycle, malformed},
        {reply_fault::chain_past_end, malformed},
        {reply_fault::chain_misaligned, malformed},
        {reply_fault::chain_zero_length_record, malformed},
        {reply_fault::chain_zero_not_last, 0}, // a list of one: the first record
        {reply_fault::chain_links_to_nothing, malformed},
        {reply_fault::description_unterminated, malformed},
        {reply_fault::disallow_not_multiple_of_16, 0}, // not a fault of this reply
    };
    static_assert(std::size(cases) == static_cast<std::size_t>(reply_fault::count_));
    for (auto const& c : cases) {
        CAPTURE(static_cast<int>(c.fault));
        k->set_fault(c.fault);
        unsigned char* out = page.tail_filled(len, 0xCC);
        std::uint32_t ret = 0xDEADBEEFU;
        std::uint32_t const r = compat::trace_query_information(*k, 0, 7, out, len, &ret);
        CHECK(r == c.win32);
        if (r == malformed) CHECK(ret == 0);
        if (r == 0) {
            CHECK(ret <= len);
            check_prefix_of_machine(k->inner(), out, ret);
        }
        if (c.fault == reply_fault::chain_zero_not_last) {
            profile_source_list_view v;
            REQUIRE(profile_source_list_view::parse({reinterpret_cast<std::byte const*>(out), ret}, v) == rule::ok);
            CHECK(v.size() == 1);
        }
        if (c.fault == reply_fault::none) {
            profile_source_list_view v;
            REQUIRE(profile_source_list_view::parse({reinterpret_cast<std::byte const*>(out), ret}, v) == rule::ok);
            CHECK(v.size() == k->inner().profile_sources().size());
        }

        // The typed query gives the same answer, as a rule where the library refused the reply.
        std::span<std::byte> storage(reinterpret_cast<std::byte*>(page.tail_filled(len, 0xCC)), len);
        auto const t = query<profile_source_list>(*k, storage);
        CHECK(to_win32(t.error()) == c.win32);
        if (c.win32 == malformed) CHECK(t.error() == make_error_code(rule::kernel_reply_malformed));
    }

    SUBCASE("a size probe answered with a size that is not bigger") {
        k->set_fault(reply_fault::too_small_needs_less);
        std::uint32_t ret = 0xDEADBEEFU;
        CHECK(compat::trace_query_information(*k, 0, 7, nullptr, 0, &ret) == malformed);
        CHECK(ret == 0);
        unsigned char* tail = page.tail_filled(4, 0xCC); // not `small`: rpcndr.h defines it
        CHECK(compat::trace_query_information(*k, 0, 7, tail, 4, &ret) == malformed);
        for (int i = 0; i < 4; ++i) CHECK(tail[i] == 0xCC);
    }
    SUBCASE("the kernel's own failure is returned as RtlNtStatusToDosError maps it") {
        k->inner().inject(ntstatus::access_denied);
        std::uint32_t ret = 0;
        CHECK(compat::trace_query_information(*k, 0, 7, page.tail(len), len, &ret) == win32::access_denied);
    }
}

TEST_CASE("hostile kernel: the disallow list") {
    guard_page_buffer page(4096);
    auto k = hostile_machine();
    REQUIRE(!set<disallow_list>(*k, session_handle{1}, disallowed));
    constexpr std::uint32_t malformed = win32::invalid_data;

    struct expectation {
        reply_fault fault;
        std::uint32_t win32;
        std::uint32_t guids; ///< on success: how many GUIDs the (truncated) result holds
    };
    expectation const cases[] = {
        {reply_fault::none, 0, 3},
        {reply_fault::length_beyond_buffer, malformed, 0},
        {reply_fault::length_short, 0, 2}, // a shorter whole list: truncated, never beyond
        {reply_fault::length_zero, 0, 0},
        {reply_fault::success_short_data, malformed, 0}, // 8 bytes: not whole GUIDs
        {reply_fault::too_small_needs_less, malformed, 0},
        {reply_fault::disallow_not_multiple_of_16, malformed, 0},
    };
    for (auto const& c : cases) {
        for (std::uint32_t room : {3U, 5U}) {
            CAPTURE(static_cast<int>(c.fault));
            CAPTURE(room);
            k->set_fault(c.fault);
            std::uint32_t const len = 16 * room;
            unsigned char* out = page.tail_filled(len, 0xCC);
            std::uint32_t ret = 0xDEADBEEFU;
            std::uint32_t const r = compat::trace_query_information(*k, 1, 14, out, len, &ret);
            CHECK(r == c.win32);
            if (r == 0) {
                CHECK(ret == 16 * c.guids);
                CHECK(std::memcmp(out, disallowed, ret) == 0);
            }
            auto* storage = reinterpret_cast<guid*>(page.tail_filled(len, 0xCC));
            auto const t = query<disallow_list_query>(*k, session_handle{1}, std::span<guid>(storage, room));
            CHECK(to_win32(t.error()) == c.win32);
            if (c.win32 == malformed) CHECK(t.error() == make_error_code(rule::kernel_reply_malformed));
            if (t) CHECK(t->size() == c.guids);
        }
    }
    SUBCASE("an honest 'too small' names the size needed") {
        k->set_fault(reply_fault::none);
        unsigned char* out = page.tail_filled(16, 0xCC);
        std::uint32_t ret = 0;
        CHECK(compat::trace_query_information(*k, 1, 14, out, 16, &ret) == win32::insufficient_buffer);
        CHECK(ret == 48);
    }
}

TEST_CASE("hostile kernel: fixed-size replies (group masks, the timer's interval)") {
    guard_page_buffer page(4096);
    auto k = hostile_machine();
    group_mask m;
    m.masks[0] = 0x00000001; // PROCESS
    m.masks[2] = 0x00000100;
    REQUIRE(!set<system_trace_enable_flags>(*k, session_handle{1}, m));
    group_mask const truth = k->inner().group_masks(1);

    for (auto f : {reply_fault::none, reply_fault::length_beyond_buffer, reply_fault::length_short,
                   reply_fault::length_zero, reply_fault::success_short_data, reply_fault::too_small_needs_less}) {
        CAPTURE(static_cast<int>(f));
        k->set_fault(f);
        unsigned char* out = page.tail_filled(32, 0xCC);
        std::uint32_t ret = 0;
        std::uint32_t const r = compat::trace_query_information(*k, 1, 4, out, 32, &ret);
        if (f == reply_fault::too_small_needs_less) {
            CHECK(r == win32::insufficient_buffer); // the kernel's status, mapped
            for (int i = 0; i < 32; ++i) CHECK(out[i] == 0xCC); // nothing copied
            continue;
        }
        REQUIRE(r == 0);
        CHECK(ret == 32);
        group_mask got;
        std::memcpy(got.masks, out, 32);
        if (f == reply_fault::success_short_data) {
            // The masks the kernel did not write are zero (never stale bytes, never the caller's).
            CHECK(got.empty());
        } else {
            CHECK(got == truth); // the length is not used for a fixed-size reply
        }
        auto const t = query<system_trace_enable_flags>(*k, session_handle{1});
        REQUIRE(t);
        CHECK((f == reply_fault::success_short_data ? t->empty() : *t == truth));

        unsigned char* iv = page.tail_filled(8, 0);
        std::uint32_t const ri = compat::trace_query_information(*k, 0, 5, iv, 8, &ret);
        CHECK(ri == 0);
        std::uint32_t interval = 0;
        std::memcpy(&interval, iv + 4, 4);
        CHECK(interval == k->inner().interval(0)); // an 8-byte reply has nothing to leave out
    }
}
