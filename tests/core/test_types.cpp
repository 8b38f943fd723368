// Strong types and tables: guid, hook ids, group masks, the kernel-group table, provider traits,
// the PROFILE_SOURCE_INFO chain checker, the rule and information-class tables.
#include <array>

#include "sim_fixture.hpp"

using namespace etwctl;
using namespace etwctl_test;
using namespace etwctl::literals;

TEST_CASE("guid: compile-time parsing, braces, formatting, SDK-shaped conversion") {
    constexpr guid g = "{3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c}"_guid;
    static_assert(g.data1 == 0x3d6fa8d4 && g.data2 == 0xfe05 && g.data3 == 0x11d0 && g.data4[0] == 0x9d && g.data4[7] == 0x7c);
    static_assert(g == guid::from_string("3D6FA8D4-FE05-11D0-9DDA-00C04FD7BA7C"));
    guid out;
    CHECK_FALSE(guid::try_parse("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7", out));  // short
    CHECK_FALSE(guid::try_parse("3d6fa8d4-fe05-11d0-9dda_00c04fd7ba7c", out)); // bad separator
    CHECK_FALSE(guid::try_parse("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7g", out)); // bad digit
    CHECK_FALSE(guid::try_parse("{3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c", out));
    char text[37];
    g.format(text);
    CHECK(std::string(text) == "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c");
    // Byte layout equals the SDK's GUID (little-endian Data1..3, then Data4 bytes).
    unsigned char bytes[16];
    std::memcpy(bytes, &g, 16);
    CHECK(bytes[0] == 0xd4);
    CHECK(bytes[3] == 0x3d);
    CHECK(bytes[4] == 0x05);
    CHECK(bytes[8] == 0x9d);
}

TEST_CASE("the kernel-group table: 31 groups, each GUID finds its group, others find none") {
    for (auto const& g : kernel_group_table) {
        CAPTURE(g.name);
        CHECK(group_of(g.event_guid) == std::optional<std::uint8_t>{g.group});
        auto const e = classic_event_id_of(hook_id(g.group, 0x42));
        REQUIRE(e.has_value());
        CHECK(hook_id_of(*e) == std::optional<hook_id>{hook_id(g.group, 0x42)});
    }
    // Neighbours of real GUIDs (one bit off in each part) are not groups.
    for (auto const& g : kernel_group_table) {
        guid a = g.event_guid;
        a.data1 ^= 0x00100000; // (low bits would turn ProcessGuid into ThreadGuid: they differ by one)
        guid b = g.event_guid;
        b.data4[7] ^= 0x80;
        guid c = g.event_guid;
        c.data3 ^= 0x100;
        CHECK_FALSE(group_of(a).has_value());
        CHECK_FALSE(group_of(b).has_value());
        CHECK_FALSE(group_of(c).has_value());
    }
    static_assert(group_of(guid::from_string("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c")) == std::optional<std::uint8_t>{0x05});
    static_assert(!group_of(guid{}).has_value());
    static_assert(!classic_event_id_of(hook_id{0x1F00}).has_value());
    static_assert(hook_id(0x05, 0x24).value == 0x0524 && hook_id{0x0F2E}.group() == 0x0F && hook_id{0x0F2E}.type() == 0x2E);
}

TEST_CASE("the GUID -> hook-slot table: no empty-slot test is needed, any GUID layout reads the same") {
    using detail::hook_slot_of;
    using detail::hook_slots;
    using detail::words_of;
    // A slot holds its own group's GUID, or (empty) a GUID that hashes to another slot: a GUID that
    // selects an empty slot can never equal what it holds, so "known" is the compare alone.
    std::size_t groups = 0;
    for (std::uint32_t h = 0; h < 64; ++h) {
        auto const& slot = hook_slots<>.s[h];
        CAPTURE(h);
        bool const own = detail::group_hash(static_cast<std::uint32_t>(slot.guid.lo), detail::group_hash_multiplier) == h;
        CHECK(own == (slot.group != detail::group_hash_empty));
        if (own) {
            ++groups;
            CHECK(slot.hook_high == slot.group << 8);
        }
    }
    CHECK(groups == kernel_group_count);
    // Every Data1 value that selects an empty slot, with the rest of the GUID copied from what that slot
    // holds: still unknown.
    for (std::uint32_t d1 = 0; d1 < 4096; ++d1) {
        auto const& slot = hook_slot_of(detail::guid_words{d1, 0});
        guid g = guid::from_string("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c");
        g.data1 = d1;
        std::uint64_t hi = slot.guid.hi;
        std::memcpy(g.data4, &hi, 8);
        if (slot.group == detail::group_hash_empty) CHECK_FALSE(slot.holds(words_of(g)));
    }
    // The SDK's GUID layout is read with the same two loads as etwctl::guid and gives the same words.
    struct sdk_guid {
        std::uint32_t Data1;
        std::uint16_t Data2;
        std::uint16_t Data3;
        std::uint8_t Data4[8];
    };
    for (auto const& k : kernel_group_table) {
        sdk_guid s{};
        std::memcpy(&s, &k.event_guid, sizeof s);
        auto const a = words_of(k.event_guid);
        auto const b = words_of(s);
        auto const c = detail::words_of_value(k.event_guid);
        CHECK((a.lo == b.lo && a.hi == b.hi && a.lo == c.lo && a.hi == c.hi));
        CHECK(hook_slot_of(b).holds(b));
        CHECK(hook_slot_of(b).hook_high == std::uint32_t{k.group} << 8);
    }
    CHECK_FALSE(hook_slot_of(words_of(guid{})).holds(words_of(guid{})));
}

TEST_CASE("group_mask: set operations per mask, aliases normalized both ways") {
    constexpr perf_flag profile{0x20000002};
    constexpr perf_flag syscall{0x40000040};
    static_assert(profile.index() == 1 && profile.bits() == 2 && syscall.index() == 2 && syscall.bits() == 0x40);
    constexpr group_mask a = group_mask{profile} | syscall;
    static_assert(a.masks[1] == 2 && a.masks[2] == 0x40 && a.masks[0] == 0);
    static_assert(a.contains(profile) && !a.contains(perf_flag{0x20000004}));
    static_assert((a - group_mask{profile}) == group_mask{syscall});
    static_assert((a & group_mask{syscall}) == group_mask{syscall});
    constexpr group_mask legacy = group_mask::from_enable_flags(0x01000000 | 0x80); // PROFILE | SYSTEMCALL
    static_assert(!legacy.contains(profile) && legacy.enables(profile) && legacy.enables(syscall));
    static_assert(a.normalized().masks[0] == (0x01000000U | 0x80U));
    static_assert(a.normalized().canonical() == a);           // canonical() undoes the alias repeats
    static_assert(legacy.canonical() == a && legacy.canonical().masks[0] == 0);
    group_mask pooltrace{perf_flag{0x20000041}}; // a multi-bit flag: contains() needs every bit
    CHECK(pooltrace.contains(perf_flag{0x20000001}));
    CHECK_FALSE(group_mask{perf_flag{0x20000001}}.contains(perf_flag{0x20000041}));
    static_assert(sizeof(group_mask) == 32);
}

TEST_CASE("provider traits: builder, checker and parser agree") {
    constexpr auto t = make_provider_traits("Name", guid::from_string("11223344-5566-7788-99aa-bbccddeeff00"));
    static_assert(t.size() == 2 + 5 + 19);
    static_assert(check_provider_traits(t.span()) == rule::ok);
    static_assert(std::to_integer<int>(t.bytes[0]) == 26 && std::to_integer<int>(t.bytes[1]) == 0);
    static_assert(std::to_integer<int>(t.bytes[7]) == 0x13 && std::to_integer<int>(t.bytes[9]) == 1); // TraitSize, Type
    static_assert(std::to_integer<int>(t.bytes[10]) == 0x44);                                          // GUID, little-endian
    provider_traits_info info;
    REQUIRE(parse_provider_traits(t.span(), info) == rule::ok);
    CHECK(info.name == "Name");
    CHECK(info.has_group);
    CHECK(info.group == guid::from_string("11223344-5566-7788-99aa-bbccddeeff00"));

    std::array<std::byte, 64> buf{};
    std::size_t size = 0;
    REQUIRE(build_provider_traits("Engine", nullptr, buf, size) == rule::ok);
    CHECK(size == 9);
    CHECK(check_provider_traits(std::span<std::byte const>(buf.data(), size)) == rule::ok);
    CHECK(build_provider_traits(std::string_view("a\0b", 3), nullptr, buf, size) == rule::traits_malformed);
    std::array<std::byte, 4> tiny{};
    CHECK(build_provider_traits("Engine", nullptr, tiny, size) == rule::traits_length);

    std::byte blob[8] = {std::byte{8}, std::byte{0}, std::byte{'x'}, std::byte{0}, std::byte{4}, std::byte{0}, std::byte{200}, std::byte{7}};
    CHECK(check_provider_traits(blob) == rule::ok); // a private trait type (128-255) of 4 bytes
    blob[4] = std::byte{5};
    CHECK(check_provider_traits(blob) == rule::traits_malformed); // trait runs past the blob
    blob[4] = std::byte{4};
    CHECK(check_provider_traits(std::span<std::byte const>(blob, 7)) == rule::traits_malformed); // size field 8 != 7
    CHECK(check_provider_traits(std::span<std::byte const>(blob, 2)) == rule::traits_length);
}

TEST_CASE("PROFILE_SOURCE_INFO chain checker") {
    auto record = [](std::vector<std::byte>& out, std::uint32_t next, std::uint32_t source, char const* name, std::size_t size) {
        std::size_t const off = out.size();
        out.resize(off + size);
        profile_source_info_header h;
        h.next_entry_offset = next;
        h.source = source;
        h.min_interval = 1;
        h.max_interval = 2;
        std::memcpy(out.data() + off, &h, sizeof h);
        for (std::size_t i = 0; name[i]; ++i) out[off + 0x18 + 2 * i] = static_cast<std::byte>(name[i]);
    };
    std::vector<std::byte> good;
    record(good, 0x28, 0, "Timer", 0x28); // 0x18 + 2 * 6 = 0x24, padded to 8
    record(good, 0, 19, "Cycles", 0x28);
    CHECK(check_profile_source_chain(good) == rule::ok);
    profile_source_list_view v;
    REQUIRE(profile_source_list_view::parse(good, v) == rule::ok);
    CHECK(v.size() == 2);
    profile_source_entry e;
    REQUIRE(v.find(19, e));
    CHECK(e.description_size() == 6);
    CHECK(check_profile_source_chain({}) == rule::ok);

    auto with_next = [&](std::uint32_t next) {
        std::vector<std::byte> b = good;
        std::memcpy(b.data(), &next, 4);
        return check_profile_source_chain(b);
    };
    CHECK(with_next(0x24) == rule::kernel_reply_malformed);  // misaligned
    CHECK(with_next(0x48) == rule::kernel_reply_malformed);  // leaves no room for a record
    CHECK(with_next(0x50) == rule::kernel_reply_malformed);  // a link to the very end
    CHECK(with_next(0x58) == rule::kernel_reply_malformed);  // past the end
    CHECK(with_next(0x10) == rule::kernel_reply_malformed);  // shorter than a record head
    std::vector<std::byte> unterminated;
    record(unterminated, 0, 0, "ABCD", 0x20); // 4 chars fill the record: no room for the NUL
    CHECK(check_profile_source_chain(unterminated) == rule::kernel_reply_malformed);
    CHECK(check_profile_source_chain(std::span<std::byte const>(good.data(), 0x10)) == rule::kernel_reply_malformed);
}

TEST_CASE("the rule table: one row per rule, readable messages, Win32 codes as documented") {
    for (std::size_t i = 1; i < static_cast<std::size_t>(rule::count_); ++i) {
        auto const r = static_cast<rule>(i);
        CAPTURE(info(r).name);
        CHECK_FALSE(info(r).text.empty());
        CHECK(info(r).win32_error != 0);
        CHECK(make_error_code(r).message().find(std::string(info(r).name)) != std::string::npos);
    }
    CHECK(win32_error_of(rule::stack_tracing_size) == 1462);
    CHECK(win32_error_of(rule::enable_flags_query_length) == 24);
    CHECK(win32_error_of(rule::set_class_not_supported) == 50);
    CHECK(make_error_code(rule::ok).message() == "success");
}

TEST_CASE("the information-class table drives support and matches the SDK values") {
    static_assert(static_cast<int>(trace_info_class::stack_tracing) == 3 && static_cast<int>(trace_info_class::version) == 11);
    static_assert(static_cast<int>(trace_info_class::context_register) == 28);
    static_assert(static_cast<int>(event_info_class::provider_set_traits) == 2);
    int set_count = 0;
    int query_count = 0;
    int later_set = 0;
    int later_query = 0;
    for (auto const& t : trace_info_class_table) {
        bool const rtm = t.release == windows_release::windows_10_rtm;
        (rtm ? set_count : later_set) += t.set ? 1 : 0;
        (rtm ? query_count : later_query) += t.query ? 1 : 0;
        if (t.session == session_rule::must_be_zero)
            CHECK((t.id == trace_info_class::sampled_profile_interval || t.id == trace_info_class::profile_source_list ||
                   t.id == trace_info_class::version || t.id == trace_info_class::pmc_counter_owners ||
                   t.id == trace_info_class::pmc_session_information));
        // the classes later releases added are exactly 16-28
        CHECK((t.release == windows_release::windows_10_later) == (static_cast<int>(t.id) >= 16));
    }
    CHECK(set_count == 7);
    CHECK(query_count == 5);
    CHECK(later_set == 7);   // 16, 18, 20, 21, 24, 26, 28
    CHECK(later_query == 6); // 17, 19, 22, 23, 25, 27
    CHECK(set_supported(3));
    CHECK_FALSE(set_supported(7));
    CHECK(query_supported(14));
    CHECK_FALSE(query_supported(200));
    // Windows 10 RTM (the drop-in default) refuses 16-28; a later release accepts them all (17: a query).
    for (std::uint32_t c = 16; c <= 28; ++c) {
        CHECK_FALSE(set_supported(c));
        CHECK_FALSE(query_supported(c));
        CHECK((set_supported(c, windows_release::windows_10_later) || query_supported(c, windows_release::windows_10_later)));
    }
    CHECK(set_supported(3, windows_release::windows_10_later)); // a later release keeps the older classes
    static_assert(stack_tracing::settable && !stack_tracing::queryable && version::queryable && !version::settable);
}
