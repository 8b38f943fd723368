#include "etwctl/profiler/stack_walk_set.hpp"

#include "sim_fixture.hpp"

using namespace etwctl;
using etwctl_test::ids_of;
using etwctl_test::machine;

using etwctl_test::cswitch;
using etwctl_test::ready_thread;

namespace {
constexpr hook_id sampled_profile{0x0F2E};
constexpr hook_id image_load{0x030A};

// Compile time: built from hook_lists, deduplicated, sorted, unions are set unions.
constexpr stack_walk_set<> app{hook_list{ready_thread, cswitch, cswitch}};
static_assert(app.size() == 2 && app[0] == cswitch && app[1] == ready_thread);
static_assert(app.contains(cswitch) && !app.contains(sampled_profile));

constexpr auto both = [] {
    stack_walk_set<> lib{hook_list{sampled_profile, cswitch}};
    rule const r = lib.merge(app);
    return r == rule::ok ? lib : stack_walk_set<>{};
}();
static_assert(both.size() == 3);

constexpr bool overflow_is_all_or_nothing() {
    stack_walk_set<2> s;
    if (s.add(cswitch) != rule::ok) return false;
    if (s.add(hook_list{ready_thread, sampled_profile}) != rule::stack_walk_overflow) return false;
    if (s.size() != 1) return false; // nothing of the failed range went in
    if (s.add(ready_thread) != rule::ok || !s.full()) return false;
    if (s.add(sampled_profile) != rule::stack_walk_overflow) return false;
    return s.add(cswitch) == rule::ok; // already a member: no growth, no error
}
static_assert(overflow_is_all_or_nothing());
} // namespace

TEST_CASE("stack_walk_set: add, remove, dedup, order") {
    stack_walk_set<> s;
    CHECK(s.empty());
    CHECK(s.add(ready_thread) == rule::ok);
    CHECK(s.add(cswitch) == rule::ok);
    CHECK(s.add(cswitch) == rule::ok);
    CHECK(s.size() == 2);
    CHECK(s[0] == cswitch);
    CHECK(s.remove(cswitch));
    CHECK_FALSE(s.remove(cswitch));
    CHECK(s.size() == 1);
    hook_id const dupes[] = {image_load, image_load, sampled_profile};
    CHECK(s.add(dupes) == rule::ok);
    CHECK(s.size() == 3);
    CHECK(s.remove(std::span<hook_id const>(dupes)) == 2);
    CHECK(s.size() == 1);
    s.clear();
    CHECK(s.empty());
}

TEST_CASE("stack_walk_set: a full set of 256, then overflow is an error, never a drop") {
    stack_walk_set<> s;
    for (std::uint16_t i = 0; i < 256; ++i) REQUIRE(s.add(hook_id{static_cast<std::uint16_t>(0x0500 + i)}) == rule::ok);
    CHECK(s.full());
    std::error_code const ec = s.add(hook_id{0x0F2E});
    CHECK(ec == make_error_code(rule::stack_walk_overflow));
    CHECK(ec == win32_condition(win32::incorrect_size));
    CHECK(s.size() == 256);
    CHECK_FALSE(s.contains(hook_id{0x0F2E}));

    stack_walk_set<> other{hook_list{hook_id{0x0F2E}}};
    CHECK(s.merge(other) == rule::stack_walk_overflow);
    rule r = rule::ok;
    auto const u = unite(s, other, &r);
    CHECK(r == rule::stack_walk_overflow);
    CHECK(u.empty());
}

TEST_CASE("stack_walk_set: apply sends the union in one request, and the kernel list is replaced") {
    machine m;
    stack_walk_set<> library{hook_list{sampled_profile}};
    stack_walk_set<> application{hook_list{cswitch, ready_thread}};
    rule r = rule::ok;
    auto const wanted = unite(library, application, &r);
    REQUIRE(r == rule::ok);

    m.k.clear_requests();
    CHECK_FALSE(wanted.apply(m.k, m.kernel_session));
    REQUIRE(m.k.request_count() == 1);
    auto const& req = m.k.last_request();
    CHECK(req.kernel_class == static_cast<std::uint32_t>(event_trace_information_class::stack_tracing));
    CHECK(ids_of(req) == std::vector<std::uint32_t>{0x0524, 0x0532, 0x0F2E});
    auto const hooks = m.k.stack_tracing_hooks(limits::kernel_logger_id);
    CHECK(std::vector<std::uint32_t>(hooks.begin(), hooks.end()) == std::vector<std::uint32_t>{0x0524, 0x0532, 0x0F2E});

    // Same members in another insertion order: byte-identical request.
    stack_walk_set<> again;
    CHECK(again.add(hook_list{sampled_profile, ready_thread, cswitch}) == rule::ok);
    CHECK(again == wanted);
    CHECK_FALSE(again.apply(m.k, m.kernel_session));
    auto const& second = m.k.last_request();
    CHECK(std::equal(req.bytes.begin(), req.bytes.end(), second.bytes.begin(), second.bytes.end()));

    // An empty set turns stack tracing off.
    stack_walk_set<> none;
    CHECK_FALSE(none.apply(m.k, m.kernel_session));
    CHECK(m.k.stack_tracing_hooks(limits::kernel_logger_id).empty());
}

TEST_CASE("stack_walk_set: kernel refusals come back as the kernel's status") {
    machine m;
    stack_walk_set<> s{hook_list{cswitch}};
    SUBCASE("unknown session") {
        auto const ec = s.apply(m.k, session_handle{7});
        CHECK(ec.category() == ntstatus_category());
        CHECK(ec.value() == ntstatus::wmi_instance_not_found);
    }
    SUBCASE("session not in system-logger mode") {
        auto const h = m.k.start_logger(3, sim::logger_options{false, false});
        auto const ec = s.apply(m.k, session_handle{h});
        CHECK(ec.value() == ntstatus::invalid_parameter);
    }
    SUBCASE("injected kernel failure") {
        m.k.inject(ntstatus::no_memory);
        CHECK(s.apply(m.k, m.kernel_session) == win32_condition(win32::not_enough_memory));
    }
}

// ---- issue 12: aliasing. Every member that takes another set or a span, given the set itself ------

namespace {
stack_walk_set<> three() { return stack_walk_set<>{hook_list{cswitch, ready_thread, sampled_profile}}; }

// The same checks at compile time: the alias-safe paths are constexpr too.
constexpr bool self_removal_empties() {
    stack_walk_set<> s{hook_list{cswitch, ready_thread, sampled_profile, image_load}};
    return s.remove(s) == 4 && s.empty();
}
static_assert(self_removal_empties());
constexpr bool self_merge_is_identity() {
    stack_walk_set<> s{hook_list{cswitch, ready_thread, sampled_profile, image_load}};
    stack_walk_set<> const before = s;
    return s.merge(s) == rule::ok && s == before;
}
static_assert(self_merge_is_identity());
} // namespace

TEST_CASE("stack_walk_set aliasing: remove(self) and remove(self.span()) empty the set") {
    // Before the fix remove(span) iterated the span it was shrinking: every other member survived.
    auto s = three();
    CHECK(s.remove(s) == 3);
    CHECK(s.empty());

    s = three();
    CHECK(s.remove(s.span()) == 3);
    CHECK(s.empty());

    // A full set of 256 removing itself.
    stack_walk_set<> full;
    for (std::uint16_t i = 0; i < 256; ++i) REQUIRE(full.add(hook_id{static_cast<std::uint16_t>(0x4000 + i)}) == rule::ok);
    CHECK(full.remove(full) == 256);
    CHECK(full.empty());
}

TEST_CASE("stack_walk_set aliasing: removing a part of itself removes exactly that part") {
    auto s = three(); // sorted: cswitch 0x0524, ready_thread 0x0532, sampled_profile 0x0F2E
    CHECK(s.remove(s.span().subspan(0, 2)) == 2);
    REQUIRE(s.size() == 1);
    CHECK(s[0] == sampled_profile);

    s = three();
    CHECK(s.remove(s.span().subspan(1)) == 2);
    REQUIRE(s.size() == 1);
    CHECK(s[0] == cswitch);

    s = three();
    CHECK(s.remove(s.span().subspan(1, 1)) == 1);
    REQUIRE(s.size() == 2);
    CHECK(s[0] == cswitch);
    CHECK(s[1] == sampled_profile);
}

TEST_CASE("stack_walk_set aliasing: merge(self), add(self.span()), add of a part are the identity") {
    auto s = three();
    auto const before = s;
    CHECK(s.merge(s) == rule::ok);
    CHECK(s == before);
    CHECK(s.add(s.span()) == rule::ok);
    CHECK(s == before);
    CHECK(s.add(s.span().subspan(1)) == rule::ok);
    CHECK(s == before);

    // A full set: merging itself is still no overflow (nothing new).
    stack_walk_set<4> full{hook_list{cswitch, ready_thread, sampled_profile, image_load}};
    REQUIRE(full.full());
    auto const full_before = full;
    CHECK(full.merge(full) == rule::ok);
    CHECK(full == full_before);
    CHECK(full.add(full.span()) == rule::ok);
    CHECK(full == full_before);
}

TEST_CASE("stack_walk_set aliasing: unite(a, a) == a; remove(other) with other == self via a reference") {
    auto const a = three();
    rule r = rule::stack_walk_overflow;
    auto const u = unite(a, a, &r);
    CHECK(r == rule::ok);
    CHECK(u == a);

    stack_walk_set<4> const full{hook_list{cswitch, ready_thread, sampled_profile, image_load}};
    auto const uf = unite(full, full, &r);
    CHECK(r == rule::ok);
    CHECK(uf == full);

    auto s = three();
    stack_walk_set<> const& alias = s;
    CHECK(s.remove(alias) == 3);
    CHECK(s.empty());
    CHECK(alias.empty());
}

TEST_CASE("stack_walk_set: add(span) with many repeated ids is all-or-nothing and linear") {
    // 100,000 ids, 300 distinct: overflows a 256-set and changes nothing; 200 distinct fit.
    std::vector<hook_id> many;
    for (std::size_t i = 0; i < 100000; ++i) many.push_back(hook_id{static_cast<std::uint16_t>(0x5000 + i % 300)});
    stack_walk_set<> s{hook_list{cswitch}};
    CHECK(s.add(many) == rule::stack_walk_overflow);
    REQUIRE(s.size() == 1);
    CHECK(s[0] == cswitch);
    many.clear();
    for (std::size_t i = 0; i < 100000; ++i) many.push_back(hook_id{static_cast<std::uint16_t>(0x5000 + i % 200)});
    CHECK(s.add(many) == rule::ok);
    CHECK(s.size() == 201);
    CHECK(s.remove(many) == 200);
    REQUIRE(s.size() == 1);
    CHECK(s[0] == cswitch);
}

TEST_CASE("the group-mask check of a stack-walk list: no call with the mask at hand, one query on request") {
    // Issue 21 item 22: set<stack_tracing> with events whose groups the session does not enable succeeds
    // and nothing is ever recorded (xperf -on PROC_THREAD+LOADER+PROFILE -stackwalk Profile+CSwitch).
    constexpr auto flags = kernel_flags<"PROC_THREAD+LOADER+PROFILE">;
    constexpr auto events = stack_walk<"Profile+CSwitch">;
    auto const ec = check_event_groups(flags, events.span());
    CHECK(ec == rule::stack_walk_group_not_enabled);
    CHECK(to_win32(ec) == win32::invalid_parameter);
    CHECK(describe(ec) == "stack-walk event 0x524 is never recorded: the session's group mask does not enable "
                          "PERF_CONTEXT_SWITCH, the flag it needs (set it with set<system_trace_enable_flags>, xperf: -on "
                          "...+its group)");
    auto const off = first_event_not_enabled(flags, events.span());
    REQUIRE(off);
    CHECK(off->index == 1);
    CHECK(off->event == hook_id{0x0524});
    CHECK_FALSE(check_event_groups(kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH">, events.span()));

    machine m;
    session_handle const s{m.kernel_session};
    REQUIRE_FALSE(set<system_trace_enable_flags>(m.k, s, flags));
    CHECK(check_event_groups(m.k, s, events.span()) == rule::stack_walk_group_not_enabled); // on request: one query
    stack_walk_set<> walk;
    REQUIRE(walk.add(events.span()) == rule::ok);
    std::size_t const before = m.k.request_count();
    CHECK(walk.apply(m.k, s, flags) == rule::stack_walk_group_not_enabled); // the mask at hand: nothing sent
    CHECK(m.k.request_count() == before);
    CHECK_FALSE(walk.apply(m.k, s, flags | kernel_flags<"CSWITCH">));
    CHECK(m.k.stack_tracing_hooks(limits::kernel_logger_id).size() == 2);
    // a session that is not a system logger: the query's own error
    auto const user = m.k.start_logger(9, {.system_logger_mode = false});
    CHECK(check_event_groups(m.k, session_handle{user}, events.span()) == ntstatus_error_code(ntstatus::invalid_parameter));
}
