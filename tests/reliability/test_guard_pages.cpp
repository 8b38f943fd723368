// Guard-page tests: for every information class 0..31, set inputs that end exactly at an inaccessible
// page and query outputs that end at one, at every length that matters for the class (valid sizes and
// one either side). An over-read or over-write faults, which fails the run. Each call is repeated on a
// twin kernel with an ordinary buffer: the guard page must not change any result.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "etwctl_test.hpp"
#include "guard_page.hpp"

using namespace etwctl;
using etwctl_test::guard_page_buffer;

namespace {

std::unique_ptr<sim::kernel> kernel_with_loggers() {
    auto k = std::make_unique<sim::kernel>();
    k->start_logger(1);
    k->start_kernel_logger();
    return k;
}

/// Lengths worth trying for every class: around each element size and each limit.
std::vector<std::uint32_t> lengths() {
    std::vector<std::uint32_t> v;
    for (std::uint32_t n = 0; n <= 40; ++n) v.push_back(n);
    for (std::uint32_t base : {48U, 64U, 96U, 120U, 128U, 256U, 24U * 256U, 16U * 256U, 4096U}) {
        v.push_back(base - 1);
        v.push_back(base);
        v.push_back(base + 1);
    }
    v.push_back(24U * 257U);
    v.push_back(16U * 257U);
    return v;
}

/// Fills n bytes with CLASSIC_EVENT_IDs of known groups (so list classes reach the kernel) or a pattern.
void fill_input(unsigned char* p, std::size_t n, std::uint32_t cls) {
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(0x11 + i);
    if (cls == 3 || cls == 8) {
        for (std::size_t i = 0; i + 24 <= n; i += 24) {
            auto const& g = kernel_group_table[(i / 24) % kernel_group_count].event_guid;
            std::memcpy(p + i, &g, 16);
            p[i + 16] = static_cast<unsigned char>(i / 24);
        }
    }
    if (cls == 5 && n >= 8) std::memset(p, 0, 4); // the timer source
    if ((cls == 6 || cls == 9) && n >= 4)
        for (std::size_t i = 0; i + 4 <= n; i += 4) {
            std::uint32_t const src = 2;
            std::memcpy(p + i, &src, 4);
        }
}

} // namespace

TEST_CASE("guard pages: every set class reads no byte past its input") {
    guard_page_buffer page(24U * 257U);
    auto k = kernel_with_loggers();
    auto twin = kernel_with_loggers();
    for (std::uint32_t cls = 0; cls < 32; ++cls) {
        for (std::uint64_t session : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{0xFFFF}}) {
            for (std::uint32_t len : lengths()) {
                CAPTURE(cls);
                CAPTURE(session);
                CAPTURE(len);
                unsigned char* in = page.tail(len);
                fill_input(in, len, cls);
                std::vector<unsigned char> copy(in, in + len);
                copy.push_back(0); // never empty, so data() is not NULL
                std::uint32_t const r = compat::trace_set_information(*k, session, cls, len ? in : page.tail(0), len);
                std::uint32_t const r2 = compat::trace_set_information(*twin, session, cls, copy.data(), len);
                CHECK(r == r2);
                CHECK(std::memcmp(in, copy.data(), len) == 0);
            }
        }
    }
}

TEST_CASE("guard pages: every query class writes no byte past its output") {
    guard_page_buffer page(8192);
    auto k = kernel_with_loggers();
    auto twin = kernel_with_loggers();
    guid const g[3] = {guid::from_string("11111111-2222-3333-4444-555555555555"),
                       guid::from_string("aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"),
                       guid::from_string("01234567-89ab-cdef-0123-456789abcdef")};
    REQUIRE(!set<disallow_list>(*k, session_handle{1}, g));
    REQUIRE(!set<disallow_list>(*twin, session_handle{1}, g));
    std::uint32_t needed = 0;
    REQUIRE(compat::trace_query_information(*k, 0, 7, nullptr, 0, &needed) == win32::bad_length);
    std::vector<std::uint32_t> lens = lengths();
    for (std::uint32_t d : {needed - 9, needed - 8, needed - 1, needed, needed + 1}) lens.push_back(d);
    for (std::uint32_t cls = 0; cls < 32; ++cls) {
        for (std::uint64_t session : {std::uint64_t{0}, std::uint64_t{1}}) {
            for (std::uint32_t len : lens) {
                CAPTURE(cls);
                CAPTURE(session);
                CAPTURE(len);
                unsigned char* out = page.tail_filled(len, 0xCC);
                std::vector<unsigned char> copy(len + 1, 0xCC);
                std::uint32_t ret = 0, ret2 = 0;
                std::uint32_t const r = compat::trace_query_information(*k, session, cls, out, len, &ret);
                std::uint32_t const r2 = compat::trace_query_information(*twin, session, cls, copy.data(), len, &ret2);
                CHECK(r == r2);
                CHECK(ret == ret2);
                CHECK(std::memcmp(out, copy.data(), len) == 0);
                if (r == 0 && (cls == 7 || cls == 14)) CHECK(ret <= len);
            }
        }
    }
}

TEST_CASE("guard pages: typed sets and queries stay inside spans that end at the page") {
    guard_page_buffer page(8192);
    auto k = kernel_with_loggers();

    SUBCASE("event lists, sources, GUIDs") {
        for (std::size_t n : {std::size_t{1}, std::size_t{4}, std::size_t{256}}) {
            auto* ev = reinterpret_cast<classic_event_id*>(page.tail(n * sizeof(classic_event_id)));
            for (std::size_t i = 0; i < n; ++i) {
                ev[i] = classic_event_id{};
                ev[i].event_guid = kernel_group_table[i % kernel_group_count].event_guid;
                ev[i].type = static_cast<std::uint8_t>(i);
            }
            std::span<classic_event_id const> events(ev, n);
            CHECK(!set<stack_tracing>(*k, session_handle{1}, events));
            if (n <= 4) CHECK(to_win32(set<pmc_event_list>(*k, session_handle{1}, events)) != win32::incorrect_size);
            else CHECK(set<pmc_event_list>(*k, session_handle{1}, events) == make_error_code(rule::pmc_events_size));

            auto* hooks = reinterpret_cast<hook_id*>(page.tail(n * sizeof(hook_id)));
            for (std::size_t i = 0; i < n; ++i) hooks[i] = hook_id{static_cast<std::uint16_t>(0x0500 + i)};
            CHECK(!set<stack_tracing>(*k, session_handle{1}, std::span<hook_id const>(hooks, n)));

            auto* guids = reinterpret_cast<guid*>(page.tail(n * sizeof(guid)));
            for (std::size_t i = 0; i < n; ++i) guids[i] = guid(static_cast<std::uint32_t>(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
            CHECK(!set<disallow_list>(*k, session_handle{1}, std::span<guid const>(guids, n)));
        }
        auto* src = reinterpret_cast<profile_source*>(page.tail(2 * sizeof(profile_source)));
        src[0] = profile_source::total_issues;
        src[1] = profile_source::branch_instructions;
        CHECK(!set<profile_source_config>(*k, session_handle{1}, std::span<profile_source const>(src, 2)));
        CHECK(!set<pmc_counter_list>(*k, session_handle{1}, std::span<profile_source const>(src, 2)));
    }

    SUBCASE("profile-source list into storage that ends at the page") {
        std::uint32_t needed = 0;
        auto probe = query<profile_source_list>(*k, std::span<std::byte>{}, &needed);
        REQUIRE(probe.error() == make_error_code(rule::source_list_buffer_too_small));
        for (std::uint32_t len : {needed - 1, needed, needed + 7}) {
            CAPTURE(len);
            std::span<std::byte> storage(reinterpret_cast<std::byte*>(page.tail_filled(len, 0xCC)), len);
            auto r = query<profile_source_list>(*k, storage, &needed);
            if (len < needed) {
                CHECK(r.error() == make_error_code(rule::source_list_buffer_too_small));
                continue;
            }
            REQUIRE(r);
            std::size_t n = 0;
            for (auto e : *r) {
                char name[40];
                CHECK(e.description_ascii(name) == k->profile_sources()[n].name.size());
                ++n;
            }
            CHECK(n == k->profile_sources().size());
        }
    }

    SUBCASE("disallow list into storage that ends at the page") {
        guid const g[2] = {guid(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), guid(2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)};
        REQUIRE(!set<disallow_list>(*k, session_handle{1}, g));
        for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
            auto* out = reinterpret_cast<guid*>(page.tail_filled(n * sizeof(guid), 0xCC));
            std::uint32_t needed = 0;
            auto r = query<disallow_list_query>(*k, session_handle{1}, std::span<guid>(out, n), &needed);
            CHECK(needed == 32);
            if (n < 2) CHECK(to_win32(r.error()) == win32::insufficient_buffer);
            else CHECK((r && r->size() == 2 && (*r)[1] == g[1]));
        }
    }

    SUBCASE("enable flags and version through compat at exact sizes") {
        unsigned char* masks = page.tail_filled(32, 0xCC);
        CHECK(compat::trace_query_information(*k, 1, 4, masks, 32, nullptr) == 0);
        unsigned char* ver = page.tail_filled(8, 0xCC);
        CHECK(compat::trace_query_information(*k, 0, 11, ver, 8, nullptr) == 0);
        unsigned char* iv = page.tail_filled(8, 0);
        CHECK(compat::trace_query_information(*k, 0, 5, iv, 8, nullptr) == 0);
    }
}

TEST_CASE("guard pages: parsers read nothing past their input") {
    guard_page_buffer page(8192);
    SUBCASE("provider traits") {
        auto const blob = make_provider_traits("Guarded.Provider", guid(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
        for (std::size_t cut = 0; cut <= blob.size(); ++cut) {
            auto* p = reinterpret_cast<std::byte*>(page.tail(cut));
            std::memcpy(p, blob.bytes, cut);
            provider_traits_info info;
            rule const r = parse_provider_traits({p, cut}, info);
            CHECK((r == rule::ok) == (cut == blob.size()));
        }
    }
    SUBCASE("profile-source chain, every prefix") {
        auto k = kernel_with_loggers();
        std::uint32_t needed = 0;
        (void)compat::trace_query_information(*k, 0, 7, nullptr, 0, &needed);
        std::vector<unsigned char> full(needed);
        std::uint32_t ret = 0;
        REQUIRE(compat::trace_query_information(*k, 0, 7, full.data(), needed, &ret) == 0);
        for (std::uint32_t cut = 0; cut <= ret; ++cut) {
            auto* p = reinterpret_cast<std::byte*>(page.tail(cut));
            std::memcpy(p, full.data(), cut);
            profile_source_list_view v;
            if (profile_source_list_view::parse({p, cut}, v) == rule::ok)
                for (auto e : v) (void)e.description_size();
        }
    }
}
