// Custom hardware counters (kernel classes 0x15 add / 0x16 remove): the request bytes, the counter forms
// and their Version, add_profile_source / remove_profile_source / the guard against the simulated
// kernel's model (privilege, limits, malformed requests, duplicates, an older Windows), and setup_pmc
// finding an added source by name.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "etwctl/profiler/custom_counters.hpp"
#include "etwctl/profiler/pmc.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "sim_fixture.hpp"

using namespace etwctl;
using etwctl_test::machine;
using etwctl_test::bytes_of;

namespace {

/// The expected add request, written out field by field from the layout (not through the struct).
std::vector<std::byte> expected_add(std::uint8_t version, std::array<std::uint8_t, 8> counter, std::uint32_t interval,
                                    std::string const& description, std::uint8_t persist = 0,
                                    std::uint32_t cpu = 0xFFFFFFFFU) {
    std::vector<std::byte> b(0x120, std::byte{0});
    auto put32 = [&](std::size_t off, std::uint32_t v) {
        for (int i = 0; i < 4; ++i) b[off + static_cast<std::size_t>(i)] = static_cast<std::byte>(v >> (8 * i));
    };
    put32(0, 0x15);
    b[4] = static_cast<std::byte>(version);
    for (std::size_t i = 0; i < 8; ++i) b[8 + i] = static_cast<std::byte>(counter[i]);
    put32(0x10, cpu);
    put32(0x14, cpu);
    put32(0x18, cpu);
    put32(0x1C, interval);
    b[0x20] = static_cast<std::byte>(persist);
    for (std::size_t i = 0; i < description.size(); ++i) b[0x22 + 2 * i] = static_cast<std::byte>(description[i]);
    return b;
}

/// The last NtSetSystemInformation request the sim saw.
sim::recorded_request const* last_set(sim::kernel const& k) {
    for (std::size_t i = k.request_count(); i-- > 0;)
        if (k.request(i).function == kernel_function::nt_set_system_information) return &k.request(i);
    return nullptr;
}

bool listed(sim::kernel const& k, std::string_view name, std::uint32_t* id = nullptr) {
    for (auto const& s : k.profile_sources())
        if (s.name == name) {
            if (id) *id = s.id;
            return true;
        }
    return false;
}

std::size_t set_calls(sim::kernel const& k) {
    std::size_t n = 0;
    for (auto const& r : k.requests()) n += r.function == kernel_function::nt_set_system_information ? 1 : 0;
    return n;
}

/// A kernel that accepts the add request and does nothing (a lying kernel, for custom_counter_not_listed).
struct add_ignoring_kernel {
    sim::kernel& inner;
    std::int32_t nt_set_system_information(std::uint32_t c, void const* in, std::uint32_t n) noexcept {
        if (n >= 4 && in && detail::load<std::uint32_t>(in) == 0x15) return ntstatus::success;
        return inner.nt_set_system_information(c, in, n);
    }
    std::int32_t nt_query_system_information(std::uint32_t c, void* out, std::uint32_t n, std::uint32_t* r) noexcept {
        return inner.nt_query_system_information(c, out, n, r);
    }
    std::int32_t nt_set_interval_profile(std::uint32_t i, std::uint32_t s) noexcept { return inner.nt_set_interval_profile(i, s); }
    std::int32_t nt_query_interval_profile(std::uint32_t s, std::uint32_t* i) noexcept { return inner.nt_query_interval_profile(s, i); }
    std::int32_t nt_trace_control(std::uint32_t f, void const* in, std::uint32_t il, void* out, std::uint32_t ol,
                                  std::uint32_t* r) noexcept {
        return inner.nt_trace_control(f, in, il, out, ol, r);
    }
    std::uint32_t event_set_information(std::uint64_t h, std::uint32_t c, void const* in, std::uint32_t n) noexcept {
        return inner.event_set_information(h, c, in, n);
    }
};
static_assert(etwctl::kernel<add_ignoring_kernel>);

constexpr intel_counter l2_miss{.event_select = 0x24, .unit_mask = 0x3F, .cmask = 2, .inv = true, .any_thread = false, .edge = true};

} // namespace

// ---- the counter forms (constexpr) -----------------------------------------------------------------

static_assert(custom_counter{intel_counter{.event_select = 0xC0}}.version() == 2);
static_assert(custom_counter{arm_counter{.event_type = 0x11}}.version() == 2);
static_assert(custom_counter{amd_counter{.event_select = 0x76}}.version() == 2);
static_assert(custom_counter{amd_counter{.event_select = 0x1C0}}.version() == 3, "an EventSelect above 0xFF needs V3");
static_assert(custom_counter{amd_counter{.event_select = 0x76, .cmask = 1}}.version() == 3);
static_assert(custom_counter{amd_counter{.event_select = 0x76, .host_guest = 1}}.version() == 3);
static_assert(custom_counter{amd_counter{.event_select = 0xFFF}}.check() == rule::ok);
static_assert(custom_counter{amd_counter{.event_select = 0x1000}}.check() == rule::custom_counter_field_range);
static_assert(custom_counter{amd_counter{.host_guest = 4}}.check() == rule::custom_counter_field_range);
static_assert(check_counter_description("L2Misses") == rule::ok);
static_assert(check_counter_description("") == rule::custom_counter_description);
static_assert(encode_profile_add(l2_miss, "X", profile_interval{4096}).counter[0] == 0x24);

TEST_CASE("custom counters: the union bytes of each form") {
    CHECK(custom_counter{l2_miss}.union_bytes() == std::array<std::uint8_t, 8>{0x24, 0x3F, 2, 1, 0, 1, 0, 0});
    CHECK(custom_counter{intel_counter{.event_select = 0x3C, .any_thread = true}}.union_bytes() ==
          std::array<std::uint8_t, 8>{0x3C, 0, 0, 0, 1, 0, 0, 0});
    // AMD V2: {UCHAR EventSelect; UCHAR UnitSelect}
    CHECK(custom_counter{amd_counter{.event_select = 0x76, .unit_mask = 0x5}}.union_bytes() ==
          std::array<std::uint8_t, 8>{0x76, 0x05, 0, 0, 0, 0, 0, 0});
    // AMD V3: {USHORT EventSelect; UnitSelect, CMask, CInv, EdgeDetect, HostGuest, PmuType}
    CHECK(custom_counter{amd_counter{.event_select = 0x1C0, .unit_mask = 0x3, .cmask = 4, .inv = true, .edge = true,
                                     .host_guest = 2, .pmu_type = 1}}
              .union_bytes() == std::array<std::uint8_t, 8>{0xC0, 0x01, 0x03, 4, 1, 1, 2, 1});
    // ARM: {ULONG PerfEvtType; UCHAR AllowsHalt}
    CHECK(custom_counter{arm_counter{.event_type = 0x01020304, .allows_halt = true}}.union_bytes() ==
          std::array<std::uint8_t, 8>{4, 3, 2, 1, 1, 0, 0, 0});
    CHECK(check_counter_description(std::string(126, 'a')) == rule::ok);
    CHECK(check_counter_description(std::string(127, 'a')) == rule::custom_counter_description);
    CHECK(check_counter_description("caf\xC3\xA9") == rule::custom_counter_description);
    CHECK(check_counter_description(std::string_view("a\0b", 3)) == rule::custom_counter_description);
}

// ---- add --------------------------------------------------------------------------------------------

TEST_CASE("add_profile_source: the request byte for byte, and the id found by description") {
    machine m;
    std::size_t const before = m.k.profile_sources().size();
    auto const id = add_profile_source(m.k, l2_miss, "MyApp_L2Misses", profile_interval{65536});
    REQUIRE(id);
    auto const* r = last_set(m.k);
    REQUIRE(r);
    CHECK(r->code == system_performance_trace_information);
    CHECK(r->length == 0x120);
    CHECK(bytes_of(*r) == expected_add(2, {0x24, 0x3F, 2, 1, 0, 1, 0, 0}, 65536, "MyApp_L2Misses"));
    // the list grew by one, under the description, and the returned id is the sim's
    CHECK(m.k.profile_sources().size() == before + 1);
    std::uint32_t listed_id = 0;
    REQUIRE(listed(m.k, "MyApp_L2Misses", &listed_id));
    CHECK(*id == listed_id);
    CHECK(*id == 37); // the typical Intel list ends at 36; the model takes the highest + 1
    CHECK(m.k.interval(*id) == 65536);
    std::uint8_t version = 0;
    std::array<std::uint8_t, 8> u{};
    REQUIRE(m.k.custom_source_request(*id, version, u));
    CHECK(version == 2);
    CHECK(u == std::array<std::uint8_t, 8>{0x24, 0x3F, 2, 1, 0, 1, 0, 0});
    // a second source gets the next id
    auto const id2 = add_profile_source(m.k, arm_counter{.event_type = 0x11}, "Cycles_ARM", profile_interval{4096});
    REQUIRE(id2);
    CHECK(*id2 == *id + 1);
    CHECK(m.k.custom_source_count() == 2);
}

TEST_CASE("add_profile_source: an AMD V3 counter, persist and a processor subset are encoded as given") {
    machine m;
    custom_counter_options o;
    o.persist = true;
    o.cpu_info_hierarchy = {1, 2, 3};
    amd_counter const c{.event_select = 0x1C0, .unit_mask = 1, .host_guest = 1};
    auto const id = add_profile_source(m.k, c, "AmdWide", profile_interval{100000}, o);
    REQUIRE(id);
    auto expected = expected_add(3, {0xC0, 0x01, 0x01, 0, 0, 0, 1, 0}, 100000, "AmdWide", 1);
    for (std::size_t i = 0; i < 3; ++i) {
        std::uint32_t const v = static_cast<std::uint32_t>(i + 1);
        std::memcpy(expected.data() + 0x10 + 4 * i, &v, 4);
    }
    CHECK(bytes_of(*last_set(m.k)) == expected);
}

TEST_CASE("add_profile_source: refusals before the call send nothing") {
    machine m;
    std::size_t const before = m.k.profile_sources().size();
    CHECK(add_profile_source(m.k, amd_counter{.event_select = 0x1000}, "Wide", profile_interval{4096}).error() ==
          make_error_code(rule::custom_counter_field_range));
    CHECK(add_profile_source(m.k, l2_miss, "", profile_interval{4096}).error() == make_error_code(rule::custom_counter_description));
    CHECK(add_profile_source(m.k, l2_miss, std::string(127, 'x'), profile_interval{4096}).error() ==
          make_error_code(rule::custom_counter_description));
    CHECK(m.k.request_count() == 0);
    // a description the list already has: the built-in "TotalCycles", then one of ours
    auto const taken = add_profile_source(m.k, l2_miss, "TotalCycles", profile_interval{4096});
    CHECK(taken.error() == make_error_code(rule::custom_counter_description_taken));
    CHECK(to_win32(taken.error()) == win32::already_exists);
    REQUIRE(add_profile_source(m.k, l2_miss, "Mine", profile_interval{4096}));
    std::size_t const sets = set_calls(m.k);
    CHECK(add_profile_source(m.k, l2_miss, "Mine", profile_interval{4096}).error() ==
          make_error_code(rule::custom_counter_description_taken));
    CHECK(set_calls(m.k) == sets);
    CHECK(m.k.profile_sources().size() == before + 1);
}

TEST_CASE("add_profile_source: the kernel's refusals arrive as its status") {
    machine m;
    std::size_t const before = m.k.profile_sources().size();
    SUBCASE("the caller is in neither Administrators nor Performance Log Users") {
        // issue 21 item 6: the kernel checks the group, not SeSystemProfilePrivilege
        m.k.set_admin_or_log_users(false);
        auto const r = add_profile_source(m.k, l2_miss, "NoGroup", profile_interval{4096});
        CHECK(r.error() == std::error_code(ntstatus::access_denied, ntstatus_category()));
        CHECK(to_win32(r.error()) == win32::access_denied);
    }
    SUBCASE("SeSystemProfilePrivilege is not what adding needs") {
        m.k.set_privilege(false);
        CHECK(add_profile_source(m.k, l2_miss, "NoPriv", profile_interval{4096}));
    }
    SUBCASE("Windows before 1803: the class is missing") {
        m.k.set_kernel_class_available(0x15, false);
        auto const r = add_profile_source(m.k, l2_miss, "Old", profile_interval{4096});
        CHECK(r.error() == std::error_code(ntstatus::not_implemented, ntstatus_category()));
        CHECK(to_win32(r.error()) == win32::invalid_function);
    }
    SUBCASE("the kernel's limit on custom sources") {
        for (std::size_t i = 0; i < sim::kernel::max_custom_sources; ++i) {
            char name[3] = {'C', static_cast<char>('A' + i), '\0'};
            REQUIRE(add_profile_source(m.k, l2_miss, name, profile_interval{4096}));
        }
        auto const r = add_profile_source(m.k, l2_miss, "OneTooMany", profile_interval{4096});
        CHECK(r.error() == std::error_code(ntstatus::insufficient_resources, ntstatus_category()));
        CHECK(m.k.custom_source_count() == sim::kernel::max_custom_sources);
    }
    CHECK(m.k.profile_sources().size() <= before + sim::kernel::max_custom_sources);
}

TEST_CASE("add_profile_source: a kernel that says yes but lists nothing") {
    machine m;
    add_ignoring_kernel k{m.k};
    CHECK(add_profile_source(k, l2_miss, "Ghost", profile_interval{4096}).error() ==
          make_error_code(rule::custom_counter_not_listed));
}

TEST_CASE("the simulated kernel's rules for malformed add and remove requests") {
    machine m;
    auto req = encode_profile_add(l2_miss, "Raw", profile_interval{4096});
    auto set = [&](void const* p, std::uint32_t n) { return m.k.nt_set_system_information(0x1F, p, n); };
    CHECK(set(&req, 0x23) == ntstatus::info_length_mismatch); // the kernel takes 36..544 bytes
    std::byte long_request[545] = {};
    auto const longer = encode_profile_add(l2_miss, "Long", profile_interval{4096});
    std::memcpy(long_request, &longer, sizeof longer);
    CHECK(set(long_request, 545) == ntstatus::info_length_mismatch);
    CHECK(set(long_request, 544) == ntstatus::success); // the longest the kernel takes ("Long" + zeros)
    CHECK(set(long_request, 544) == ntstatus::object_name_collision);
    req.version = 4;
    CHECK(set(&req, sizeof req) == ntstatus::revision_mismatch);
    CHECK(nt_status_to_win32(ntstatus::revision_mismatch) == win32::revision_mismatch);
    req.version = 1;
    CHECK(set(&req, sizeof req) == ntstatus::revision_mismatch);
    m.k.set_admin_or_log_users(false); // checked before the length and the version
    CHECK(set(&req, 0x23) == ntstatus::access_denied);
    m.k.set_admin_or_log_users(true);
    req.version = 3;
    req.description[0] = 0; // empty description
    CHECK(set(&req, sizeof req) == ntstatus::invalid_parameter);
    req.description[0] = u'R';
    req.description[1] = 0;
    CHECK(set(&req, 0x24) == ntstatus::invalid_parameter); // "R" with no NUL inside the request
    CHECK(set(&req, 0x26) == ntstatus::success);           // "R" + NUL: the shortest well-formed request
    CHECK(listed(m.k, "R"));
    req.description[1] = u'a';
    CHECK(set(&req, sizeof req) == ntstatus::success);     // "Raw"
    CHECK(set(&req, sizeof req) == ntstatus::object_name_collision);
    std::uint32_t id = 0;
    REQUIRE(listed(m.k, "Raw", &id));

    auto rm = encode_profile_remove(id);
    CHECK(set(&rm, 16) == ntstatus::info_length_mismatch);
    rm.profile_source = 19; // TotalCycles: built in
    CHECK(set(&rm, sizeof rm) == ntstatus::access_denied);
    rm.profile_source = 999;
    CHECK(set(&rm, sizeof rm) == ntstatus::not_supported);
    m.k.set_admin_or_log_users(false);
    rm.profile_source = id;
    CHECK(set(&rm, sizeof rm) == ntstatus::access_denied);
    m.k.set_admin_or_log_users(true);
    m.k.set_privilege(false); // not what removal needs
    CHECK(set(&rm, sizeof rm) == ntstatus::success);
    CHECK_FALSE(listed(m.k, "Raw"));
}

// ---- remove -----------------------------------------------------------------------------------------

TEST_CASE("remove_profile_source: the request byte for byte, and the list shrinks") {
    machine m;
    std::size_t const before = m.k.profile_sources().size();
    auto const id = add_profile_source(m.k, l2_miss, "Temp", profile_interval{4096});
    REQUIRE(id);
    CHECK_FALSE(remove_profile_source(m.k, *id));
    auto const* r = last_set(m.k);
    REQUIRE(r);
    std::vector<std::byte> expected(20, std::byte{0xFF});
    std::uint32_t const head[2] = {0x16, *id};
    std::memcpy(expected.data(), head, 8);
    CHECK(bytes_of(*r) == expected);
    CHECK(m.k.profile_sources().size() == before);
    CHECK_FALSE(listed(m.k, "Temp"));
    // twice: the source is gone
    CHECK(remove_profile_source(m.k, *id) == std::error_code(ntstatus::not_supported, ntstatus_category()));
    // the description is free again
    CHECK(add_profile_source(m.k, l2_miss, "Temp", profile_interval{4096}));
}

TEST_CASE("remove_profile_sources_with_prefix removes exactly the prefixed sources") {
    machine m;
    REQUIRE(add_profile_source(m.k, l2_miss, "GAME_A", profile_interval{4096}));
    REQUIRE(add_profile_source(m.k, l2_miss, "GAME_B", profile_interval{4096}));
    REQUIRE(add_profile_source(m.k, l2_miss, "OTHER_GAME_C", profile_interval{4096}));
    auto const n = remove_profile_sources_with_prefix(m.k, "GAME_");
    REQUIRE(n);
    CHECK(*n == 2);
    CHECK_FALSE(listed(m.k, "GAME_A"));
    CHECK_FALSE(listed(m.k, "GAME_B"));
    CHECK(listed(m.k, "OTHER_GAME_C"));
    CHECK(remove_profile_sources_with_prefix(m.k, "").error() == make_error_code(rule::custom_counter_description));
    m.k.set_admin_or_log_users(false);
    CHECK(remove_profile_sources_with_prefix(m.k, "OTHER").error() ==
          std::error_code(ntstatus::access_denied, ntstatus_category()));
}

// ---- the guard ----------------------------------------------------------------------------------------

static_assert(!std::is_copy_constructible_v<basic_custom_counter_guard<sim::kernel>>);
static_assert(!std::is_copy_assignable_v<basic_custom_counter_guard<sim::kernel>>);
static_assert(std::is_nothrow_move_constructible_v<basic_custom_counter_guard<sim::kernel>>);
static_assert(std::is_nothrow_move_assignable_v<basic_custom_counter_guard<sim::kernel>>);
static_assert(std::is_nothrow_destructible_v<basic_custom_counter_guard<sim::kernel>>);

TEST_CASE("custom_counter_guard adds for a scope and removes on exit") {
    machine m;
    std::size_t const before = m.k.profile_sources().size();
    {
        custom_counter_guard g(m.k, l2_miss, "Scoped", profile_interval{4096});
        REQUIRE(g);
        CHECK(g.active());
        std::uint32_t id = 0;
        REQUIRE(listed(m.k, "Scoped", &id));
        CHECK(g.source_id() == id);
        // moving keeps one owner
        custom_counter_guard moved(std::move(g));
        CHECK_FALSE(g.active());
        CHECK(moved.active());
        CHECK(m.k.profile_sources().size() == before + 1);
    }
    CHECK(m.k.profile_sources().size() == before);
    CHECK_FALSE(listed(m.k, "Scoped"));
}

TEST_CASE("custom_counter_guard: a failed add leaves nothing to remove; release keeps the source") {
    machine m;
    {
        custom_counter_guard g(m.k, l2_miss, "TotalCycles", profile_interval{4096});
        CHECK(g.error() == make_error_code(rule::custom_counter_description_taken));
        CHECK_FALSE(g.active());
    }
    CHECK(listed(m.k, "TotalCycles")); // the built-in source was not touched
    {
        custom_counter_guard g(m.k, l2_miss, "Kept", profile_interval{4096});
        REQUIRE(g);
        g.release();
    }
    CHECK(listed(m.k, "Kept"));
}

TEST_CASE("custom_counter_guard reports a removal that fails in its destructor") {
    machine m;
    std::error_code sink = no_error();
    {
        custom_counter_guard g(m.k, l2_miss, "Sticky", profile_interval{4096}, report_to(sink));
        REQUIRE(g);
        m.k.set_admin_or_log_users(false); // the removal will be refused
    }
    CHECK(sink == std::error_code(ntstatus::access_denied, ntstatus_category()));
    CHECK(listed(m.k, "Sticky"));
    // restore() reports once, and keeps the error
    m.k.set_admin_or_log_users(true);
    custom_counter_guard g(m.k, l2_miss, "Again", profile_interval{4096});
    REQUIRE(g);
    m.k.set_admin_or_log_users(false);
    CHECK(g.restore() == std::error_code(ntstatus::access_denied, ntstatus_category()));
    CHECK_FALSE(g.active());
    CHECK(g.restore_error() == std::error_code(ntstatus::access_denied, ntstatus_category()));
}

// ---- setup_pmc ------------------------------------------------------------------------------------------

TEST_CASE("setup_pmc accepts an added source by its description") {
    machine m;
    custom_counter_guard g(m.k, l2_miss, "MyApp_L2Misses", profile_interval{65536});
    REQUIRE(g);
    pmc_counter const counters[] = {pmc_counter::named("MyApp_L2Misses"), pmc_counter::named("TotalCycles")};
    auto const r = setup_pmc(m.k, session_handle{m.kernel_session}, counters, std::span<hook_id const>{});
    REQUIRE_MESSAGE(r.ok(), r.error.message());
    auto const set = m.k.pmc_counters(limits::kernel_logger_id);
    REQUIRE(set.size() == 2);
    CHECK(set[0] == g.source_id());
    CHECK(set[1] == 19);
}

// ---- issue 21 items 9 and 16: a list past the storage, names in any case --------------------------------

TEST_CASE("add_profile_source: a name the list has in another case is taken (lookups ignore case)") {
    machine m;
    std::size_t const sets = set_calls(m.k);
    auto const taken = add_profile_source(m.k, l2_miss, "totalcycles", profile_interval{4096});
    CHECK(taken.error() == make_error_code(rule::custom_counter_description_taken));
    CHECK(set_calls(m.k) == sets);
    REQUIRE(add_profile_source(m.k, l2_miss, "MyL2", profile_interval{4096}));
    CHECK(add_profile_source(m.k, l2_miss, "MYL2", profile_interval{4096}).error() ==
          make_error_code(rule::custom_counter_description_taken));
    CHECK(set_calls(m.k) == sets + 1);
}

TEST_CASE("add_profile_source: a source that would push the list past the storage is refused before the add") {
    machine m;
    // 126-character names: 280 bytes each in the list. Add until the 4 KiB default storage is nearly full.
    std::string name(126, 'a');
    std::size_t added = 0;
    for (char c = 'a'; c <= 'z'; ++c) {
        name[0] = c;
        auto const id = add_profile_source(m.k, l2_miss, name, profile_interval{4096});
        if (!id) {
            CHECK(id.error() == make_error_code(rule::source_list_buffer_too_small));
            std::string const d = describe(id.error());
            CHECK(d.find("add_profile_source: the profile-source list takes ") != std::string::npos);
            CHECK(d.find("the storage holds 4096; nothing was sent") != std::string::npos);
            break;
        }
        ++added;
    }
    REQUIRE(added > 0);
    REQUIRE(added < 26);
    std::size_t const custom = m.k.custom_source_count();
    CHECK(custom == added); // the refused one was not sent: the kernel keeps nothing nobody owns
    CHECK_FALSE(listed(m.k, name));
    // every 4 KiB read still works
    CHECK(find_profile_source(m.k, "TotalCycles"));
    profile_source_list_buffer<> four_k;
    CHECK(query<profile_source_list>(m.k, four_k.span()));

    // with storage of the size describe() named, the same add succeeds and the guard owns the source
    std::vector<std::byte> big(8192);
    custom_counter_options o;
    o.source_list_storage = big;
    {
        custom_counter_guard g(m.k, l2_miss, name, profile_interval{4096}, {}, o);
        REQUIRE(g);
        CHECK(g.active());
        std::uint32_t id = 0;
        REQUIRE(listed(m.k, name, &id));
        CHECK(g.source_id() == id);
        // now the list is past 4 KiB: a 4 KiB read fails and says how many bytes suffice
        std::uint32_t required = 0;
        auto const list = query<profile_source_list>(m.k, four_k.span(), &required);
        REQUIRE_FALSE(list);
        CHECK(list.error() == make_error_code(rule::source_list_buffer_too_small));
        CHECK(required > 4096);
        CHECK(describe(list.error()).find("query<profile_source_list>: the list takes " + std::to_string(required) +
                                          " bytes, the storage holds 4096") != std::string::npos);
        std::vector<std::byte> sized(required);
        CHECK(query<profile_source_list>(m.k, std::span<std::byte>(sized)));
    }
    CHECK_FALSE(listed(m.k, name)); // the guard removed it
}

TEST_CASE("query<pmc_counter_owners>: a machine with more counters than the storage holds says how many bytes") {
    machine m;
    m.k.set_max_pmc_counters(20);
    pmc_owner_buffer<> sixteen;
    std::uint32_t required = 0;
    auto const too_small = query<pmc_counter_owners>(m.k, sixteen, 0U, &required);
    REQUIRE_FALSE(too_small);
    CHECK(required == pmc_owner_storage_size(20));
    CHECK(describe(too_small.error()).find("counter owners take 248 bytes, the storage holds 200") != std::string::npos);
    auto const counters = query<max_pmc_counters>(m.k);
    REQUIRE(counters);
    std::vector<std::byte> storage(pmc_owner_storage_size(*counters));
    auto const owners = query<pmc_counter_owners>(m.k, std::span<std::byte>(storage));
    REQUIRE(owners);
    CHECK(owners->size() == 20);
    static_assert(pmc_owner_storage_size(0xFFFFFFFFU) == 8 + 12ULL * 0xFFFFFFFFULL); // no 32-bit wrap
}

TEST_CASE("add_profile_source and the guard take a counter_interval (65536_events)") {
    using namespace etwctl::literals;
    machine m;
    auto const id = add_profile_source(m.k, l2_miss, "Events", 65536_events);
    REQUIRE(id);
    CHECK(m.k.interval(*id) == 65536);
    CHECK(bytes_of(*last_set(m.k)) == expected_add(2, {0x24, 0x3F, 2, 1, 0, 1, 0, 0}, 65536, "Events"));
    {
        custom_counter_guard g(m.k, l2_miss, "Scoped", counter_interval{4096});
        REQUIRE(g);
        CHECK(m.k.interval(g.source_id()) == 4096);
    }
    static_assert(encode_profile_add(l2_miss, "X", 8192_events).initial_interval == 8192);
    static_assert(encode_profile_add(l2_miss, "X", profile_interval{8192}).initial_interval == 8192);
}
