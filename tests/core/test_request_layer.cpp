// The request layer both ways: every request kind the class table names is built by the encoders
// (through the typed face and the drop-in face) and read back by request/decode.hpp, field by field.
#include "etwctl/request/decode.hpp"

#include "etwctl/compat_current.hpp"
#include "etwctl/typed/set.hpp"

#include <vector>

#include "sim_fixture.hpp"

using namespace etwctl;
using namespace etwctl_test;

namespace {
decoded_request decode(sim::recorded_request const& r) { return decode_request(r.function, r.code, r.bytes); }

std::vector<request_field> fields(decoded_request const& r) {
    std::vector<request_field> out;
    for_each_field(r, [&](request_field const& f) { out.push_back(f); });
    return out;
}
} // namespace

TEST_CASE("every request kind the class table uses has an encoder and a decoder") {
    for (auto const& row : trace_info_class_table)
        for (direction_rules const* d : {&row.set, &row.query}) {
            if (!sends_kernel_request(d->request) || d->request == request_kind::interval) continue;
            CAPTURE(row.sdk_name);
            // the decoder finds the row's kind from the kernel code alone (a class or an NtTraceControl code)
            CHECK(detail::kind_of_kernel_code(d->kernel_code, detail::is_trace_control(d->request)) == d->request);
        }
}

TEST_CASE("the requests of classes 16-28 decode field by field (typed face)") {
    machine m;
    session_handle const s{m.kernel_session};
    auto last = [&] { return decode(m.k.last_request()); };
    auto field_values = [](decoded_request const& r, field_kind k) {
        std::vector<std::uint64_t> v;
        for_each_field(r, [&](request_field const& f) {
            if (f.kind == k) v.push_back(f.value);
        });
        return v;
    };
    using v64 = std::vector<std::uint64_t>;

    REQUIRE_FALSE(set<stack_caching>(m.k, s, stack_cache_size::mebibytes(16), stack_cache_buckets{1024}));
    auto r = last();
    CHECK(r.kind == request_kind::stack_caching);
    CHECK(r.well_formed);
    CHECK(r.kernel_class == 0x10);
    CHECK(r.logger() == limits::kernel_logger_id);
    CHECK(field_values(r, field_kind::flag) == v64{1});
    CHECK(field_values(r, field_kind::cache_size) == v64{16U << 20});
    CHECK(field_values(r, field_kind::bucket_count) == v64{1024});

    REQUIRE_FALSE(set<lbr_configuration>(m.k, s, lbr_options{lbr::exclude_kernel | lbr::callstack_enable}));
    r = last();
    CHECK(r.kind == request_kind::lbr_configuration);
    CHECK(r.well_formed);
    CHECK(field_values(r, field_kind::options) == v64{lbr::exclude_kernel | lbr::callstack_enable});

    hook_id const hooks[] = {hook_id{0x0524}, hook_id{0x0F2E}};
    REQUIRE_FALSE(set<lbr_event_list>(m.k, s, hooks));
    r = last();
    CHECK(r.kind == request_kind::ulong_list);
    CHECK(r.kernel_class == 0x14);
    CHECK(field_values(r, field_kind::hook) == v64{0x0524, 0x0F2E}); // hook ids, not profile sources

    REQUIRE_FALSE(set<context_register>(m.k, s, hooks));
    r = last();
    CHECK(r.kind == request_kind::context_register);
    CHECK(r.well_formed);
    CHECK(field_values(r, field_kind::register_types) == v64{3});
    CHECK(field_values(r, field_kind::hook) == v64{0x0524, 0x0F2E});

    REQUIRE_FALSE(set<session_binary_tracking>(m.k, s, true));
    r = last();
    CHECK(r.kind == request_kind::binary_tracking);
    CHECK(r.well_formed);
    CHECK(field_values(r, field_kind::logger) == v64{limits::kernel_logger_id});
    CHECK(field_values(r, field_kind::flag) == v64{1});

    guid const providers[] = {guid::from_string("11111111-2222-3333-4444-555555555555")};
    REQUIRE_FALSE(set<periodic_capture_state_list>(m.k, s, capture_frequency{60}, providers));
    r = last();
    CHECK(r.kind == request_kind::periodic_capture);
    CHECK(r.well_formed);
    CHECK(r.count == 1);
    CHECK(field_values(r, field_kind::frequency) == v64{60});
    CHECK(field_values(r, field_kind::element_count) == v64{1});
    CHECK(r.guid_at(0) == providers[0]);

    REQUIRE(query<max_loggers>(m.k));
    r = last();
    CHECK(r.kind == request_kind::control_ulong);
    CHECK(r.query);
    CHECK(r.well_formed);
    REQUIRE(query<stream_count>(m.k, s));
    r = last();
    CHECK(r.kind == request_kind::stream_count);
    CHECK(r.well_formed);
    CHECK(field_values(r, field_kind::logger) == v64{limits::kernel_logger_id});
}

TEST_CASE("a request of classes 16-28 that does not fit its layout is reported, not misread") {
    std::byte bytes[0x20] = {};
    bytes[0] = std::byte{0x10}; // stack caching, one byte short
    auto r = decode_request(kernel_function::nt_set_system_information, 0x1F, std::span<std::byte const>(bytes, 0x1F));
    CHECK(r.kind == request_kind::stack_caching);
    CHECK_FALSE(r.well_formed);
    bytes[8] = std::byte{2}; // periodic capture: Count 2 but room for one GUID
    r = decode_request(kernel_function::nt_trace_control, trace_control::periodic_capture_state,
                       std::span<std::byte const>(bytes, 12 + 16));
    CHECK(r.kind == request_kind::periodic_capture);
    CHECK_FALSE(r.well_formed);
    std::size_t visited_past = 0;
    for_each_field(r, [&](request_field const& f) { visited_past += f.offset + f.size > 28 ? 1 : 0; });
    CHECK(visited_past == 0);
}

TEST_CASE("hook lists: typed events, typed hook ids and raw CLASSIC_EVENT_IDs decode to the same hook ids") {
    machine m;
    classic_event_id const events[] = {event(0x05, 0x24), event(0x0F, 0x2E), event(0x05, 0x32)};
    std::uint32_t const expected[] = {0x0524, 0x0F2E, 0x0532};

    REQUIRE_FALSE(set<stack_tracing>(m.k, m.kernel_session, events));
    auto const typed = decode(m.k.last_request());
    REQUIRE(compat::trace_set_information(m.k, m.kernel_session, 3, events, sizeof events) == 0);
    auto const raw = decode(m.k.last_request());
    hook_id const ids[] = {hook_id{0x0524}, hook_id{0x0F2E}, hook_id{0x0532}};
    REQUIRE_FALSE(set<stack_tracing>(m.k, m.kernel_session, std::span<hook_id const>(ids)));
    auto const hooks = decode(m.k.last_request());

    for (auto const* r : {&typed, &raw, &hooks}) {
        CHECK(r->kind == request_kind::hook_list);
        CHECK(r->well_formed);
        CHECK(r->kernel_class == static_cast<std::uint32_t>(event_trace_information_class::stack_tracing));
        CHECK(r->trace_handle == m.kernel_session);
        REQUIRE(r->count == 3);
        for (std::size_t i = 0; i < 3; ++i) CHECK(r->element(i) == expected[i]);
        auto const f = fields(*r);
        REQUIRE(f.size() == 6);
        CHECK((f[0].kind == field_kind::kernel_class && f[0].offset == 0 && f[0].value == 6));
        CHECK((f[2].kind == field_kind::trace_handle && f[2].offset == 8 && f[2].size == 8));
        CHECK((f[5].kind == field_kind::hook && f[5].offset == 0x18 && f[5].index == 2 && f[5].value == 0x0532));
    }
}

TEST_CASE("profile-source lists, group masks, intervals and disallow lists decode field by field") {
    machine m;
    SUBCASE("pmc counters: a ULONG list") {
        profile_source const counters[] = {profile_source::total_cycles, profile_source::branch_mispredictions};
        REQUIRE_FALSE(set<pmc_counter_list>(m.k, m.kernel_session, counters));
        auto const r = decode(m.k.last_request());
        CHECK(r.kind == request_kind::ulong_list);
        REQUIRE(r.count == 2);
        CHECK(r.element(0) == 0x13);
        CHECK(r.element(1) == 0x0B);
        CHECK(fields(r).back().kind == field_kind::source);
    }
    SUBCASE("group mask: all eight masks") {
        group_mask g;
        g.masks[0] = 0x10;
        g.masks[1] = 0x2;
        REQUIRE_FALSE(set<system_trace_enable_flags>(m.k, m.kernel_session, g));
        auto const r = decode(m.k.last_request());
        CHECK(r.kind == request_kind::group_mask);
        CHECK(r.well_formed);
        REQUIRE(r.count == 8);
        CHECK(r.element(0) == 0x10);
        CHECK(r.element(1) == 0x2);
        CHECK(fields(r).size() == 3 + 8);
    }
    SUBCASE("the timer interval: EVENT_TRACE_TIME_PROFILE_INFORMATION") {
        REQUIRE_FALSE(set<sampled_profile_interval>(m.k, profile_source::time, profile_interval{5000}));
        auto const r = decode(m.k.last_request());
        CHECK(r.kind == request_kind::interval);
        CHECK(r.well_formed);
        auto const f = fields(r);
        REQUIRE(f.size() == 2);
        CHECK((f[1].kind == field_kind::interval && f[1].value == 5000));
    }
    SUBCASE("disallow list: {logger id, count, GUIDs}") {
        guid const g[] = {guid::from_string("3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c"),
                          guid::from_string("90cbdc39-4a3e-11d1-84f4-0000f80464e3")};
        REQUIRE_FALSE(set<disallow_list>(m.k, m.kernel_session, g));
        auto const r = decode(m.k.last_request());
        CHECK(r.kind == request_kind::disallow_list);
        CHECK(r.well_formed);
        REQUIRE(r.count == 2);
        CHECK(r.guid_at(1) == g[1]);
        CHECK(r.logger() == 0xFFFF);
        auto const f = fields(r);
        REQUIRE(f.size() == 4);
        CHECK((f[1].kind == field_kind::element_count && f[1].value == 2));
    }
}

TEST_CASE("decoding reads nothing past the bytes and says when a layout does not fit") {
    std::byte bytes[0x13] = {};
    bytes[0] = std::byte{6}; // stack tracing, but a ragged length
    auto const r = decode_request(kernel_function::nt_set_system_information, system_performance_trace_information,
                                  std::span<std::byte const>(bytes));
    CHECK(r.kind == request_kind::hook_list);
    CHECK_FALSE(r.well_formed);
    std::uint32_t end = 0;
    for_each_field(r, [&](request_field const& f) { end = f.offset + f.size; });
    CHECK(end == sizeof bytes);
    auto const tiny = decode_request(kernel_function::nt_set_system_information, system_performance_trace_information,
                                     std::span<std::byte const>(bytes, 2));
    CHECK(tiny.kind == request_kind::none);
}
