// Run-time parse/format of stack-walk and kernel-flag lists: round trips over every table row, and
// each error with its location and suggestion.
#include <cstdio>
#include <string>
#include <string_view>

#include "etwctl_test.hpp"

using namespace etwctl;

namespace {
std::string_view format(std::span<hook_id const> ids, char (&buf)[4096]) {
    std::size_t const n = format_stack_walk(ids, buf);
    REQUIRE(n < sizeof buf);
    return {buf, n};
}
std::string_view format(group_mask const& m, char (&buf)[4096]) {
    std::size_t const n = format_kernel_flags(m, buf);
    REQUIRE(n < sizeof buf);
    return {buf, n};
}
} // namespace

TEST_CASE("parse_stack_walk: names, aliases, hex ids, blanks, case") {
    hook_id ids[8];
    std::size_t n = 99;
    parse_error e;
    REQUIRE(parse_stack_walk("CSwitch+ReadyThread+SampledProfile", ids, n, &e) == rule::ok);
    CHECK(e.why == rule::ok);
    REQUIRE(n == 3);
    CHECK(ids[0] == hook_id{0x0524});
    CHECK(ids[1] == hook_id{0x0532});
    CHECK(ids[2] == hook_id{0x0F2E});

    REQUIRE(parse_stack_walk("  imageload +\t0x1234 + PMCINTERRUPT ", ids, n) == rule::ok);
    REQUIRE(n == 3);
    CHECK(ids[0] == hook_id{0x030A});
    CHECK(ids[1] == hook_id{0x1234});
    CHECK(ids[2] == hook_id{0x0F2F});

    CHECK(parse_stack_walk("", ids, n) == rule::ok);
    CHECK(n == 0);
    CHECK(parse_stack_walk("   ", ids, n) == rule::ok);
    CHECK(n == 0);
}

TEST_CASE("parse_stack_walk: errors locate the offending name") {
    hook_id ids[4];
    std::size_t n = 0;
    parse_error e;

    SUBCASE("unknown, with a suggestion") {
        CHECK(parse_stack_walk("CSwitch+ReadyThred", ids, n, &e) == rule::parse_unknown_name);
        CHECK(e.why == rule::parse_unknown_name);
        CHECK(e.offset == 8);
        CHECK(e.length == 10);
        CHECK(e.suggestion == "ReadyThread");
        CHECK(n == 1); // what came before the offending name
        CHECK(info(e.why).win32_error != 0);
    }
    SUBCASE("unknown, nothing close") {
        CHECK(parse_stack_walk("Zebra", ids, n, &e) == rule::parse_unknown_name);
        CHECK(e.suggestion.empty());
        CHECK(parse_stack_walk("0x12345", ids, n, &e) == rule::parse_unknown_name); // hook ids are 16-bit
        CHECK(parse_stack_walk("0x", ids, n, &e) == rule::parse_unknown_name);
    }
    SUBCASE("duplicate: same name, alias or hex form") {
        CHECK(parse_stack_walk("Profile+SampledProfile", ids, n, &e) == rule::parse_duplicate_name);
        CHECK(e.offset == 8);
        CHECK(e.length == 14);
        CHECK(parse_stack_walk("CSwitch + 0x0524", ids, n, &e) == rule::parse_duplicate_name);
        CHECK(e.offset == 10);
        CHECK(parse_stack_walk("cswitch+CSWITCH", ids, n, &e) == rule::parse_duplicate_name);
    }
    SUBCASE("empty names") {
        CHECK(parse_stack_walk("+CSwitch", ids, n, &e) == rule::parse_empty_name);
        CHECK(e.offset == 0);
        CHECK(e.length == 0);
        CHECK(parse_stack_walk("CSwitch++Profile", ids, n, &e) == rule::parse_empty_name);
        CHECK(e.offset == 8);
        CHECK(parse_stack_walk("CSwitch+  ", ids, n, &e) == rule::parse_empty_name);
        CHECK(e.offset == 10);
    }
    SUBCASE("too many for the output") {
        CHECK(parse_stack_walk("CSwitch+ReadyThread+Profile+PmcInterrupt+ImageLoad", ids, n, &e) ==
              rule::parse_too_many_names);
        CHECK(e.offset == 41);
        CHECK(e.length == 9);
        CHECK(n == 4);
    }
    SUBCASE("too many for the kernel, however large the output") {
        hook_id big[300];
        char text[300 * 7] = {};
        std::size_t len = 0;
        for (std::uint32_t i = 0; i < 257; ++i) {
            hook_id const h{static_cast<std::uint16_t>(0x2000 + i)};
            len += format_stack_walk(std::span<hook_id const>(&h, 1), std::span<char>(text + len, sizeof text - len));
            text[len++] = '+';
        }
        --len;
        CHECK(parse_stack_walk(std::string_view(text, len), big, n, &e) == rule::parse_too_many_names);
        CHECK(n == 256);
        CHECK(e.offset == 256 * 7);
        CHECK(parse_stack_walk(std::string_view(text, len - 7), big, n, &e) == rule::ok);
        CHECK(n == 256);
    }
}

TEST_CASE("format_stack_walk: canonical names, hex for unknown ids, snprintf-like truncation") {
    char buf[4096];
    hook_id const ids[] = {hook_id{0x0524}, hook_id{0x0F2E}, hook_id{0x140A}, hook_id{0x0001}};
    CHECK(format(ids, buf) == "CSwitch+Profile+0x140A+0x0001");
    CHECK(format(std::span<hook_id const>{}, buf).empty());

    char short_buf[8];
    std::size_t const n = format_stack_walk(ids, short_buf);
    CHECK(n == 29);
    CHECK(std::string_view(short_buf, sizeof short_buf) == "CSwitch+");

    char exact[8];
    hook_id const one[] = {hook_id{0x0524}};
    CHECK(format_stack_walk(one, exact) == 7);
    CHECK(exact[7] == '\0');
}

TEST_CASE("every kernel event name parses to its hook and formats back to the canonical name") {
    char buf[4096];
    for (auto const& ev : kernel_event_table<>) {
        CAPTURE(ev.name);
        hook_id id;
        std::size_t n = 0;
        REQUIRE(parse_stack_walk(ev.name, std::span<hook_id>(&id, 1), n) == rule::ok);
        REQUIRE(n == 1);
        CHECK(id == ev.hook());
        CHECK(format(std::span<hook_id const>(&id, 1), buf) == kernel_event_name(ev.hook()));
        if (!ev.alias) CHECK(kernel_event_name(ev.hook()) == ev.name);
    }
}

TEST_CASE("parse_kernel_flags: xperf names, PERF names, PERF values, raw mask bits") {
    group_mask m;
    parse_error e;
    REQUIRE(parse_kernel_flags("PROC_THREAD+LOADER+PROFILE+CSWITCH", m, &e) == rule::ok);
    CHECK(m.masks[0] == 0x7U);
    CHECK(m.masks[1] == 0x6U);
    for (std::size_t i = 2; i < 8; ++i) CHECK(m.masks[i] == 0);

    REQUIRE(parse_kernel_flags("perf_pool + 0x40000040 + mask4:0xC0000000", m) == rule::ok);
    CHECK(m == (mask_of(perf::pool, perf::syscall) | [] {
              group_mask r;
              r.masks[4] = 0xC0000000U;
              return r;
          }()));

    REQUIRE(parse_kernel_flags("", m) == rule::ok);
    CHECK(m.empty());
}

TEST_CASE("parse_kernel_flags: errors, and out untouched on failure") {
    group_mask m = mask_of(perf::job);
    group_mask const before = m;
    parse_error e;
    SUBCASE("unknown") {
        CHECK(parse_kernel_flags("PROC_THREAD+LOADR", m, &e) == rule::parse_unknown_name);
        CHECK(e.offset == 12);
        CHECK(e.length == 5);
        CHECK(e.suggestion == "LOADER");
        CHECK(parse_kernel_flags("0x20000000", m, &e) == rule::parse_unknown_name); // index without bits
        CHECK(parse_kernel_flags("mask8:0x1", m, &e) == rule::parse_unknown_name);
    }
    SUBCASE("duplicate: the same bits named twice") {
        CHECK(parse_kernel_flags("PROFILE+LOADER+PERF_PROFILE", m, &e) == rule::parse_duplicate_name);
        CHECK(e.offset == 15);
        CHECK(parse_kernel_flags("CSWITCH+0x20000004", m, &e) == rule::parse_duplicate_name);
    }
    SUBCASE("overlap is not duplication") {
        CHECK(parse_kernel_flags("DISK_IO+FILENAME", m, &e) == rule::ok);
        CHECK(m.masks[0] == 0x300U);
        return;
    }
    SUBCASE("empty") {
        CHECK(parse_kernel_flags("LOADER+", m, &e) == rule::parse_empty_name);
        CHECK(e.offset == 7);
    }
    CHECK(m == before);
}

TEST_CASE("format_kernel_flags: xperf names first, leftovers as PERF values, round trip") {
    char buf[4096];
    CHECK(format(kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH">, buf) == "PROC_THREAD+LOADER+PROFILE+CSWITCH");
    CHECK(format(mask_of(perf::filename, perf::disk_io), buf) == "DISK_IO");
    CHECK(format(mask_of(perf::filename), buf) == "FILENAME");
    CHECK(format(mask_of(perf::job, perf::debugger), buf) == "0x00080000+0x80000800");
    CHECK(format(group_mask::from_enable_flags(0x80000010U), buf) == "0x00000010+mask0:0x80000000");
    CHECK(format(group_mask{}, buf).empty());

    auto round_trip = [&](group_mask const& m) {
        group_mask back;
        parse_error e;
        std::string_view const text = format(m, buf);
        CAPTURE(text);
        REQUIRE(parse_kernel_flags(text, back, &e) == rule::ok);
        CHECK(back == m);
    };
    for (auto const& f : xperf_kernel_flag_table<>) round_trip(f.mask);
    for (auto const& f : perf_flag_table<>) round_trip(group_mask(f.flag));
    std::uint32_t x = 0x12345678U; // fixed-seed LCG: arbitrary masks, every bit pattern class
    for (int i = 0; i < 500; ++i) {
        group_mask m;
        for (auto& w : m.masks) {
            x = x * 1664525U + 1013904223U;
            w = x & (i % 3 == 0 ? 0xFFFFFFFFU : 0x0F0F0F0FU);
        }
        round_trip(m);
    }
}

TEST_CASE("profile sources: names both ways") {
    for (auto const& s : profile_source_table) {
        CAPTURE(s.name);
        CHECK(profile_source_by_name(s.name) == s.source);
        if (!s.kprofile_name.empty()) CHECK(profile_source_by_name(s.kprofile_name) == s.source);
        CHECK(name_of(s.source) == s.name);
    }
    CHECK(profile_source_by_name("timer") == profile_source::time);
    CHECK(!profile_source_by_name("Tim"));
    CHECK(!profile_source_by_name(""));
    CHECK(name_of(profile_source{0x1000}).empty());
}

TEST_CASE("stack_walk<> and kernel_flags<> feed the typed setters") {
    sim::kernel k;
    auto const h = k.start_logger(limits::kernel_logger_id);
    REQUIRE(h != 0);
    session_handle const s{h};
    CHECK(!set<system_trace_enable_flags>(k, s, kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH+DISPATCHER">));
    CHECK(!set<stack_tracing>(k, s, stack_walk<"CSwitch+ReadyThread+Profile">));
    auto const hooks = k.stack_tracing_hooks(limits::kernel_logger_id);
    REQUIRE(hooks.size() == 3);
    CHECK(hooks[0] == 0x0524U);
    CHECK(hooks[1] == 0x0532U);
    CHECK(hooks[2] == 0x0F2EU);
    CHECK(!set<sampled_profile_interval>(k, profile_source::time, timer_interval<5000>));
}

// ---- issue 12: linear time, and the caps on length and name count --------------------------------

namespace {
/// "0x<hex>+0x<hex>+..." for values first, first+1, ...: distinct names, no two denoting the same thing.
std::string hex_names(std::size_t count, std::uint32_t first) {
    std::string s;
    char buf[16];
    for (std::size_t i = 0; i < count; ++i) {
        if (i) s += '+';
        std::uint32_t const v = first + static_cast<std::uint32_t>(i);
        std::size_t const n = static_cast<std::size_t>(std::snprintf(buf, sizeof buf, "0x%X", v));
        s.append(buf, n);
    }
    return s;
}
/// Where the i-th name (0-based) of a '+'-separated text starts.
std::size_t name_start(std::string const& s, std::size_t i) {
    std::size_t pos = 0;
    for (std::size_t k = 0; k < i; ++k) pos = s.find('+', pos) + 1;
    return pos;
}
} // namespace

TEST_CASE("parse caps: 100,000 names are refused in one pass, before any name is parsed") {
    // Before the caps, parse_kernel_flags re-parsed every earlier name for each name: 100,000 names
    // would take many minutes. Now the length cap refuses the text up front.
    std::string const text = hex_names(100000, 0x1);
    REQUIRE(text.size() > limits::max_parse_length);
    group_mask m;
    m.masks[2] = 0x77U;
    parse_error e;
    CHECK(parse_kernel_flags(text, m, &e) == rule::parse_input_too_long);
    CHECK(e.why == rule::parse_input_too_long);
    CHECK(e.offset == limits::max_parse_length);
    CHECK(e.length == text.size() - limits::max_parse_length);
    CHECK(m.masks[2] == 0x77U); // untouched on failure

    hook_id ids[256];
    std::size_t n = 99;
    CHECK(parse_stack_walk(text, ids, n, &e) == rule::parse_input_too_long);
    CHECK(n == 0);
    CHECK(e.offset == limits::max_parse_length);

    // Exactly at the length cap is accepted (all blanks: an empty list).
    std::string const blanks(limits::max_parse_length, ' ');
    CHECK(parse_kernel_flags(blanks, m, &e) == rule::ok);
    CHECK(m.empty());
    CHECK(parse_stack_walk(blanks, ids, n, &e) == rule::ok);
    CHECK(n == 0);
    CHECK(parse_kernel_flags(blanks + " ", m, &e) == rule::parse_input_too_long);
}

TEST_CASE("parse caps: more than max_parse_names names -> parse_too_many_names at the first name beyond") {
    // 5,000 distinct hex flags fit in 64 KiB. Before the fix they parsed (quadratically) to success.
    std::string const text = hex_names(5000, 0x1);
    REQUIRE(text.size() <= limits::max_parse_length);
    group_mask m;
    parse_error e;
    CHECK(parse_kernel_flags(text, m, &e) == rule::parse_too_many_names);
    std::size_t const beyond = name_start(text, limits::max_parse_names);
    CHECK(e.offset == beyond);
    CHECK(e.length == text.size() - beyond);
    CHECK(m.empty());

    hook_id ids[256];
    std::size_t n = 99;
    CHECK(parse_stack_walk(text, ids, n, &e) == rule::parse_too_many_names);
    CHECK(n == 0); // refused before any name was parsed
    CHECK(e.offset == beyond);

    // Empty names count as names too: 1025 stray '+'.
    std::string const pluses(limits::max_parse_names, '+');
    CHECK(parse_kernel_flags(pluses, m, &e) == rule::parse_too_many_names);
    CHECK(e.offset == limits::max_parse_names);
    CHECK(e.length == 0);
    CHECK(parse_kernel_flags(pluses.substr(1), m, &e) == rule::parse_empty_name); // 1024 names: parsed
    CHECK(e.offset == 0);
}

TEST_CASE("parse_kernel_flags: max_parse_names distinct flags parse, duplicates found at any distance") {
    // Within one mask: 0x1 .. 0x400 (1024 values, many subsets of the union so far: not duplicates).
    std::string text = hex_names(limits::max_parse_names, 0x1);
    group_mask m;
    parse_error e;
    REQUIRE(parse_kernel_flags(text, m, &e) == rule::ok);
    CHECK(m.masks[0] == 0x7FFU);
    for (std::size_t i = 1; i < limits::max_group_masks; ++i) CHECK(m.masks[i] == 0U);

    // The last name repeats the first (hex forms differ only in leading zeros and case).
    std::string dup = hex_names(limits::max_parse_names - 1, 0x1) + "+0x00000001";
    CHECK(parse_kernel_flags(dup, m, &e) == rule::parse_duplicate_name);
    CHECK(e.offset == dup.size() - 10);
    CHECK(e.length == 10);
    // A PERF value and the xperf / PERF name of the same bits are duplicates; mask<0>: too.
    CHECK(parse_kernel_flags("0x20000004+" + hex_names(500, 0x20000100) + "+PERF_CONTEXT_SWITCH", m, &e) ==
          rule::parse_duplicate_name);
    CHECK(parse_kernel_flags("mask0:0x3+" + hex_names(500, 0x20000100) + "+0x3", m, &e) == rule::parse_duplicate_name);
    // Same bits in different masks are different values.
    CHECK(parse_kernel_flags("mask0:0x3+mask1:0x3+mask7:0x3+0x40000003", m, &e) == rule::ok);
    CHECK(m.masks[0] == 3U);
    CHECK(m.masks[1] == 3U);
    CHECK(m.masks[2] == 3U);
    CHECK(m.masks[7] == 3U);
    // ... and mask1:0x3 is the PERF value 0x20000003 (mask index 1 in bits 29-31).
    CHECK(parse_kernel_flags("mask1:0x3+0x20000003", m, &e) == rule::parse_duplicate_name);
}

TEST_CASE("parse_kernel_flags: xperf names spanning several masks are duplicates only of themselves") {
    // Every xperf row, each once: no duplicate; each row again at the end (another case): a duplicate.
    std::string all;
    for (auto const& f : xperf_kernel_flag_table<>) {
        if (!all.empty()) all += '+';
        all += f.name;
    }
    group_mask m;
    parse_error e;
    REQUIRE(parse_kernel_flags(all, m, &e) == rule::ok);
    for (auto const& f : xperf_kernel_flag_table<>) {
        CAPTURE(f.name);
        std::string lower(f.name);
        for (char& c : lower) c = detail::ascii_lower(c);
        CHECK(parse_kernel_flags(all + "+" + lower, m, &e) == rule::parse_duplicate_name);
        CHECK(e.offset == all.size() + 1);
    }
}

TEST_CASE("parse_stack_walk: duplicates found at any distance; capacity errors as before") {
    std::string text;
    char buf[16];
    for (std::uint32_t i = 0; i < 256; ++i) {
        if (i) text += '+';
        text.append(buf, static_cast<std::size_t>(std::snprintf(buf, sizeof buf, "0x%04X", 0x3000 + i)));
    }
    hook_id ids[256];
    std::size_t n = 0;
    parse_error e;
    REQUIRE(parse_stack_walk(text, ids, n, &e) == rule::ok);
    CHECK(n == 256);
    // A 257th name that repeats the first is a duplicate, not an overflow; a new one overflows.
    CHECK(parse_stack_walk(text + "+0x3000", ids, n, &e) == rule::parse_duplicate_name);
    CHECK(e.offset == text.size() + 1);
    CHECK(parse_stack_walk(text + "+CSwitch", ids, n, &e) == rule::parse_too_many_names);
    CHECK(e.offset == text.size() + 1);
    CHECK(e.length == 7);
    // In the middle of a smaller list.
    CHECK(parse_stack_walk("0x3000+CSwitch+0x0524", ids, n, &e) == rule::parse_duplicate_name);
    CHECK(e.offset == 15);
}

TEST_CASE("parse: usable at compile time after the rewrite") {
    constexpr auto r = [] {
        group_mask m;
        parse_error e;
        rule const why = parse_kernel_flags("PROC_THREAD+LOADER+0x20000004+proc_thread", m, &e);
        return why == rule::parse_duplicate_name && e.offset == 30;
    }();
    static_assert(r);
    CHECK(r);
}
