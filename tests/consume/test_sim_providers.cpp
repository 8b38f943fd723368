// Provider events on the simulated machine: providers registered with the recorder write their events
// while a session enables them, and EnableTraceEx2's level, MatchAnyKeyword / MatchAllKeyword, process-id
// and event-id filters and enable properties (stack, SID, terminal session id) decide which reach the
// session and what they carry. Each configuration is recorded, read back with the trace reader, and
// compared with the same seed's unfiltered recording filtered as the documentation says: exactly the
// events that should arrive, and none else.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "etwctl/testing/sim_live.hpp"
#include "etwctl/testing/sim_recorder.hpp"
#include "etwctl/trace.hpp"
#include "etwctl/trace/consume.hpp"
#include "etwctl/trace/tracelogging.hpp"
#include "etwctl_test.hpp"

using namespace etwctl;

namespace {

constexpr guid pv_provider = guid::from_string("5e5e0001-0000-4000-8000-00000000000a");
constexpr guid pv_tl_provider = guid::from_string("5e5e0001-0000-4000-8000-00000000000b");
constexpr guid pv_silent_provider = guid::from_string("5e5e0001-0000-4000-8000-00000000000c");

std::byte const pv_payload[] = {std::byte{0x11}, std::byte{0x22}, std::byte{0x33}};
// id, version, channel, level, opcode, task, keyword, payload
sim::provider_event_definition const pv_events[] = {
    {.id = 1, .version = 0, .level = 4, .opcode = 1, .task = 10, .keyword = 0x1, .payload = pv_payload},
    {.id = 2, .version = 1, .level = 2, .task = 20, .keyword = 0x2},
    {.id = 3, .version = 0, .level = 5, .task = 30, .keyword = 0x3, .payload = pv_payload},
    {.id = 4, .version = 0, .level = 0, .task = 40, .keyword = 0x0},
    {.id = 5, .version = 2, .level = 4, .task = 50, .keyword = 0x5},
};

// A TraceLogging provider "Sim.TraceLogging" with one event "Tick" { UInt32 n } (TraceLoggingDynamic.h's
// blob formats: u16 size, name; u16 size, tag byte, event name, field name, InType 8 = UInt32).
std::vector<std::byte> pv_blob(std::initializer_list<int> bytes) {
    std::vector<std::byte> b;
    for (int v : bytes) b.push_back(static_cast<std::byte>(v));
    return b;
}
std::vector<std::byte> const pv_traits = pv_blob({19, 0, 'S', 'i', 'm', '.', 'T', 'r', 'a', 'c', 'e', 'L', 'o', 'g', 'g', 'i', 'n', 'g', 0});
std::vector<std::byte> const pv_metadata = pv_blob({11, 0, 0, 'T', 'i', 'c', 'k', 0, 'n', 0, 8});
std::vector<std::byte> const pv_tick = pv_blob({42, 0, 0, 0});

/// One provider event read back.
struct pv_event {
    guid provider{};
    std::uint16_t id = 0;
    std::uint64_t timestamp = 0;
    std::uint16_t processor = 0;
    std::uint32_t process_id = 0, thread_id = 0;
    std::size_t frames = 0;
    std::uint64_t frame0 = 0;
    bool in_images = true;
    std::vector<std::byte> sid{};
    std::optional<std::uint32_t> session{};
    std::vector<std::byte> payload{};
    event_descriptor descriptor{};
    std::uint8_t header_type = 0;
    std::string provider_name{}, event_name{};
    /// Identity of an emission: the same in every recording of one seed.
    auto key() const { return std::make_tuple(timestamp, processor, id, process_id, thread_id); }
};

struct pv_setup {
    std::optional<enable_options> enable{};    // the provider's enablement (none: not enabled)
    std::optional<enable_options> enable_tl{}; // the TraceLogging provider's
    std::uint32_t enable_after_ms = 0;         // enable only after this much recording
    std::uint8_t pointer_size = 8;
    std::uint32_t milliseconds = 10;
};

struct pv_result {
    std::vector<pv_event> events;   // provider events, in the reader's order
    std::uint64_t kernel_records = 0, faults = 0, records = 0;
    sim::recorded_counts counts{};
    std::vector<std::uint32_t> process_ids; // the workload's
};

pv_result pv_record(pv_setup const& s) {
    auto k = std::make_unique<sim::kernel>();
    auto session = start_session(*k, session_config::user(u"sim providers")
                                         .file_sequential("p.etl")
                                         .buffer(buffer_size::kilobytes(64))
                                         .buffers(minimum_buffers{16}, maximum_buffers{64}));
    REQUIRE(session);
    std::uint16_t const logger = session->id().value;
    if (s.enable && s.enable_after_ms == 0) REQUIRE_FALSE(enable_provider(*session, pv_provider, *s.enable));
    if (s.enable_tl) REQUIRE_FALSE(enable_provider(*session, pv_tl_provider, *s.enable_tl));
    sim::workload w({.seed = 5, .processors = 2, .processes = 3, .threads_per_process = 2, .switch_interval = 3000});
    std::vector<std::byte> buffers(sim::recorder::storage_size(*k, logger, w));
    std::vector<std::byte> bytes(std::size_t{8} << 20);
    sim::memory_file file(bytes);
    sim::recorder rec(*k, logger, w, buffers, file.sink(), {.pointer_size = s.pointer_size});
    REQUIRE(rec.valid());
    REQUIRE(rec.add_provider({.id = pv_provider, .events = pv_events, .events_per_ms = 20}));
    sim::provider_event_definition const tick{.id = 0, .channel = 11, .level = 4, .keyword = 0x10, .payload = pv_tick, .metadata = pv_metadata};
    REQUIRE(rec.add_provider({.id = pv_tl_provider, .events = {&tick, 1}, .events_per_ms = 3, .traits = pv_traits}));
    REQUIRE(rec.add_provider({.id = pv_silent_provider, .events = pv_events, .events_per_ms = 5}));
    rec.start();
    if (s.enable_after_ms != 0) {
        rec.advance(s.enable_after_ms);
        REQUIRE_FALSE(enable_provider(*session, pv_provider, *s.enable));
    }
    rec.advance(s.milliseconds - s.enable_after_ms);
    rec.stop();
    REQUIRE_FALSE(file.overflowed());

    pv_result r;
    r.counts = rec.counts();
    for (auto const& p : w.processes()) r.process_ids.push_back(p.process_id);
    auto f = trace::trace_file::open(file.bytes());
    REQUIRE(f);
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    trace::reader rd(*f, storage);
    trace::event_stream stream(rd);
    auto in_images = [&](std::uint32_t pid, std::uint64_t a) {
        for (auto const& im : w.images())
            if (w.processes()[im.process].process_id == pid && a >= im.base_for(s.pointer_size) && a < im.base_for(s.pointer_size) + im.size) return true;
        return false;
    };
    trace::dispatch(stream, trace::on_any([&](trace::event const& e) {
                        ++r.records;
                        if (e.rec().kind() != trace::record_kind::event) {
                            ++r.kernel_records;
                            return;
                        }
                        pv_event g;
                        g.provider = e.rec().provider_id();
                        g.descriptor = e.rec().descriptor();
                        g.id = g.descriptor.id;
                        g.timestamp = e.timestamp();
                        g.processor = e.processor();
                        g.process_id = e.header_process_id();
                        g.thread_id = e.header_thread_id();
                        g.header_type = e.rec().header_type();
                        g.frames = e.stack().size();
                        if (g.frames != 0) g.frame0 = e.stack()[0];
                        for (std::uint64_t a : e.stack()) g.in_images = g.in_images && in_images(g.process_id, a);
                        trace::bytes_view sid;
                        if (e.sid(sid)) g.sid.assign(sid.begin(), sid.end());
                        std::uint32_t ts_id = 0;
                        if (e.session_id(ts_id)) g.session = ts_id;
                        g.payload.assign(e.rec().payload().begin(), e.rec().payload().end());
                        trace::extended_item item;
                        if (e.rec().find_item(trace::ext_type::prov_traits, item)) {
                            auto const t = trace::parse_provider_traits(item.data);
                            if (t.ok()) g.provider_name = std::string(t.value.provider_name);
                        }
                        if (e.rec().find_item(trace::ext_type::event_schema_tl, item)) {
                            auto const m = trace::parse_event_metadata(item.data);
                            if (m.ok()) g.event_name = std::string(m.metadata.name());
                        }
                        r.events.push_back(std::move(g));
                    }));
    r.faults = rd.losses().faults;
    return r;
}

/// The events of `all` from the provider that `keep` selects, in order.
template <class Keep>
std::vector<pv_event> pv_expected(pv_result const& all, Keep keep) {
    std::vector<pv_event> out;
    for (auto const& e : all.events)
        if (e.provider == pv_provider && keep(e)) out.push_back(e);
    return out;
}
std::vector<pv_event> pv_of(pv_result const& r, guid const& provider) {
    std::vector<pv_event> out;
    for (auto const& e : r.events)
        if (e.provider == provider) out.push_back(e);
    return out;
}
/// Same emissions (time, processor, id, process, thread), in the same order.
bool pv_same(std::vector<pv_event> const& a, std::vector<pv_event> const& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].key() != b[i].key()) return false;
    return true;
}

/// Every provider event read back is what the recorder says it wrote, per provider and id.
void pv_check_counts(pv_result const& r) {
    CHECK(r.faults == 0);
    CHECK(r.records == r.counts.events); // no kernel stack records in a user session: every record is an event
    CHECK(r.events.size() == r.counts.provider_events);
    std::map<std::pair<std::uint32_t, std::uint16_t>, std::uint64_t> seen;
    for (auto const& e : r.events) ++seen[{e.provider.data4[7], e.id}];
    std::size_t kinds = 0;
    for (auto const& kv : seen) {
        guid g = pv_provider;
        g.data4[7] = static_cast<std::uint8_t>(kv.first.first);
        CHECK(kv.second == r.counts.of(g, kv.first.second));
        ++kinds;
    }
    CHECK(kinds == r.counts.provider_kinds);
}

enable_options pv_all() { return enable_options{}.level(std::uint8_t{255}).match_any(~std::uint64_t{0}); }

} // namespace

TEST_CASE("sim providers: each EnableTraceEx2 level / keyword / filter brings exactly the events it selects, and none else") {
    pv_setup base;
    base.enable = pv_all();
    pv_result const all = pv_record(base);
    pv_check_counts(all);
    auto const every = pv_of(all, pv_provider);
    REQUIRE(every.size() > 100);
    std::set<std::uint16_t> ids;
    std::set<std::uint32_t> pids;
    for (auto const& e : every) ids.insert(e.id), pids.insert(e.process_id);
    CHECK(ids == std::set<std::uint16_t>{1, 2, 3, 4, 5}); // every event of the provider was drawn
    CHECK(pids.size() > 1);                               // from more than one process
    CHECK(pv_of(all, pv_silent_provider).empty());        // never enabled: nothing
    CHECK(pv_of(all, pv_tl_provider).empty());

    std::uint32_t const second_pid = all.process_ids.at(1);
    std::uint32_t const chosen_pids[] = {all.process_ids.at(0), all.process_ids.at(2)};
    std::uint16_t const one_three[] = {1, 3};
    std::uint16_t const five[] = {5};

    struct pv_case {
        char const* what;
        enable_options options;
        bool (*keep)(pv_event const&, std::uint32_t);
    };
    // event table: id 1 level 4 kw 0x1 | id 2 level 2 kw 0x2 | id 3 level 5 kw 0x3 | id 4 level 0 kw 0 | id 5 level 4 kw 0x5
    std::vector<pv_case> const cases = {
        {"level warning", enable_options{}.level(trace_level::warning).match_any(~std::uint64_t{0}),
         [](pv_event const& e, std::uint32_t) { return e.id == 2 || e.id == 4; }}, // level <= 3, and level 0
        {"MatchAnyKeyword 0x1", enable_options{}.level(trace_level::verbose).match_any(0x1),
         [](pv_event const& e, std::uint32_t) { return e.id == 1 || e.id == 3 || e.id == 5 || e.id == 4; }}, // a bit of 0x1, or keyword 0
        {"MatchAny 0x3 + MatchAll 0x3", enable_options{}.level(trace_level::verbose).match_any(0x3).match_all(0x3),
         [](pv_event const& e, std::uint32_t) { return e.id == 3 || e.id == 4; }},
        {"IGNORE_KEYWORD_0", enable_options{}.level(trace_level::verbose).match_any(~std::uint64_t{0}).ignore_keyword_0(),
         [](pv_event const& e, std::uint32_t) { return e.id != 4; }},
        {"MatchAnyKeyword 0 (every keyword)", enable_options{}.level(trace_level::verbose), [](pv_event const&, std::uint32_t) { return true; }},
        {"PID filter", pv_all().process_ids(std::span<std::uint32_t const>(&second_pid, 1)),
         [](pv_event const& e, std::uint32_t pid) { return e.process_id == pid; }},
        {"event ids, filter in", pv_all().event_ids(filter_in, one_three), [](pv_event const& e, std::uint32_t) { return e.id == 1 || e.id == 3; }},
        {"event ids, filter out", pv_all().event_ids(filter_out, one_three), [](pv_event const& e, std::uint32_t) { return e.id != 1 && e.id != 3; }},
    };
    for (auto const& c : cases) {
        std::string_view const what = c.what;
        CAPTURE(what);
        pv_setup s;
        s.enable = c.options;
        pv_result const r = pv_record(s);
        pv_check_counts(r);
        auto const got = pv_of(r, pv_provider);
        auto const want = pv_expected(all, [&](pv_event const& e) { return c.keep(e, second_pid); });
        CHECK(!want.empty());
        CHECK(got.size() == want.size());
        CHECK(pv_same(got, want));
        // the same emissions happened; the enablement only decided which were written
        CHECK(r.counts.provider_events + r.counts.provider_dropped == all.counts.provider_events + all.counts.provider_dropped);
        CHECK(r.counts.with_sid == 0);
        CHECK(r.counts.provider_stacks == 0);
    }

    // filters combine: level 4, two processes, and not event 5
    pv_setup s;
    s.enable = enable_options{}.level(trace_level::information).match_any(~std::uint64_t{0}).process_ids(chosen_pids).event_ids(filter_out, five);
    pv_result const r = pv_record(s);
    auto const want = pv_expected(all, [&](pv_event const& e) {
        return (e.id == 1 || e.id == 2 || e.id == 4) && (e.process_id == chosen_pids[0] || e.process_id == chosen_pids[1]);
    });
    CHECK(!want.empty());
    CHECK(pv_same(pv_of(r, pv_provider), want));
}

TEST_CASE("sim providers: the events carry the descriptor and the user data the provider gave, in EVENT_HEADER32 / 64 records") {
    for (std::uint8_t ptr : {std::uint8_t{8}, std::uint8_t{4}}) {
        CAPTURE(int{ptr});
        pv_setup s;
        s.enable = pv_all();
        s.pointer_size = ptr;
        pv_result const r = pv_record(s);
        pv_check_counts(r);
        REQUIRE_FALSE(r.events.empty());
        CHECK(r.kernel_records == 2); // the header event and its extension: a user session logs no kernel events
        for (auto const& e : r.events) {
            CAPTURE(e.id);
            REQUIRE(e.id >= 1);
            REQUIRE(e.id <= 5);
            auto const& d = pv_events[e.id - 1];
            CHECK(e.header_type == (ptr == 8 ? trace::header_type::event_header64 : trace::header_type::event_header32));
            CHECK(e.descriptor.version == d.version);
            CHECK(e.descriptor.level == d.level);
            CHECK(e.descriptor.opcode == d.opcode);
            CHECK(e.descriptor.task == d.task);
            CHECK(e.descriptor.keyword == d.keyword);
            CHECK(e.payload.size() == d.payload.size());
            CHECK(std::equal(e.payload.begin(), e.payload.end(), d.payload.begin(), d.payload.end()));
            CHECK(e.frames == 0);
            CHECK(e.sid.empty());
            CHECK_FALSE(e.session.has_value());
        }
    }
}

TEST_CASE("sim providers: enable properties STACK_TRACE, SID and TS_ID add their extended items to every event, 64- and 32-bit") {
    for (std::uint8_t ptr : {std::uint8_t{8}, std::uint8_t{4}}) {
        CAPTURE(int{ptr});
        pv_setup s;
        s.enable = pv_all().stack_trace().sid().ts_id();
        s.pointer_size = ptr;
        pv_result const r = pv_record(s);
        pv_check_counts(r);
        auto const got = pv_of(r, pv_provider);
        REQUIRE_FALSE(got.empty());
        CHECK(r.counts.provider_stacks == got.size());
        CHECK(r.counts.with_sid == got.size());
        CHECK(r.counts.with_ts_id == got.size());
        std::uint32_t const system_pid = r.process_ids.at(0);
        for (auto const& e : got) {
            CHECK(e.frames >= 2);
            CHECK(e.in_images); // the writing thread's stack: inside its process's images
            REQUIRE(e.sid.size() >= 12);
            CHECK(std::to_integer<int>(e.sid[0]) == 1); // SID revision 1, NT authority
            CHECK(std::to_integer<int>(e.sid[7]) == 5);
            CHECK(e.sid.size() == 8 + 4 * std::size_t{std::to_integer<std::uint8_t>(e.sid[1])});
            REQUIRE(e.session.has_value());
            if (e.process_id == system_pid) { // S-1-5-18 in session 0
                CHECK(e.sid.size() == 12);
                CHECK(std::to_integer<int>(e.sid[8]) == 18);
                CHECK(*e.session == 0);
            } else {
                CHECK(e.sid.size() == 28);
                CHECK(*e.session == 1);
            }
        }
        // only what is asked: the stack alone
        pv_setup only_stack;
        only_stack.enable = pv_all().stack_trace();
        only_stack.pointer_size = ptr;
        pv_result const r2 = pv_record(only_stack);
        for (auto const& e : pv_of(r2, pv_provider)) {
            CHECK(e.frames >= 2);
            CHECK(e.sid.empty());
            CHECK_FALSE(e.session.has_value());
        }
        // EVENT_FILTER_TYPE_STACKWALK: stacks only for the ids it lets in, every event still written
        std::uint16_t const two[] = {2};
        pv_setup some;
        some.enable = pv_all().stack_trace().stack_walk_event_ids(filter_in, two);
        some.pointer_size = ptr;
        pv_result const r3 = pv_record(some);
        auto const got3 = pv_of(r3, pv_provider);
        CHECK(got3.size() == got.size());
        std::size_t stacked = 0;
        for (auto const& e : got3) {
            CHECK((e.frames != 0) == (e.id == 2));
            stacked += e.frames != 0 ? 1U : 0U;
        }
        CHECK(stacked > 0);
        CHECK(r3.counts.provider_stacks == stacked);
    }
}

TEST_CASE("sim providers: a TraceLogging provider's events carry its traits and metadata, decoded by the reader") {
    pv_setup s;
    s.enable_tl = enable_options{}.level(trace_level::information).match_any(0x10);
    pv_result const r = pv_record(s);
    pv_check_counts(r);
    auto const got = pv_of(r, pv_tl_provider);
    REQUIRE_FALSE(got.empty());
    CHECK(pv_of(r, pv_provider).empty());
    for (auto const& e : got) {
        CHECK(e.provider_name == "Sim.TraceLogging");
        CHECK(e.event_name == "Tick");
        CHECK(e.descriptor.channel == 11);
        REQUIRE(e.payload.size() == 4);
        CHECK(std::to_integer<int>(e.payload[0]) == 42);
    }
    // a keyword the event does not have: none
    s.enable_tl = enable_options{}.level(trace_level::information).match_any(0x20);
    CHECK(pv_of(pv_record(s), pv_tl_provider).empty());
}

TEST_CASE("sim providers: enabling while recording brings the events from then on, exactly") {
    pv_setup base;
    base.enable = pv_all();
    pv_result const all = pv_record(base);
    pv_setup late;
    late.enable = pv_all();
    late.enable_after_ms = 4;
    pv_result const r = pv_record(late);
    pv_check_counts(r);
    std::uint64_t const from = sim::recorder_options{}.start_qpc + 4U * 10000U; // 4 ms of 100 ns ticks
    auto const want = pv_expected(all, [&](pv_event const& e) { return e.timestamp >= from; });
    CHECK(!want.empty());
    CHECK(want.size() < pv_of(all, pv_provider).size());
    CHECK(pv_same(pv_of(r, pv_provider), want));
}

TEST_CASE("sim providers: consumed live (trace::consume), provider events arrive as the recorder wrote them") {
    auto k = std::make_unique<sim::kernel>();
    auto session = start_session(*k, session_config::user(u"sim live providers").real_time().buffer(buffer_size::kilobytes(64)));
    REQUIRE(session);
    std::uint16_t const logger = session->id().value;
    std::uint16_t const drop_two[] = {2};
    REQUIRE_FALSE(enable_provider(*session, pv_provider, pv_all().stack_trace().event_ids(filter_out, drop_two)));
    sim::workload w({.seed = 5, .processors = 2});
    std::vector<std::byte> rec_storage(sim::recorder::storage_size(*k, logger, w)), channel_storage(std::size_t{256} * 64 * 1024);
    std::vector<std::byte> batch(std::size_t{4} << 20), index(std::size_t{64} << 10);
    sim::realtime_channel channel(*k, logger, channel_storage);
    sim::recorder rec(*k, logger, w, rec_storage, channel.sink());
    REQUIRE(rec.valid());
    REQUIRE(rec.add_provider({.id = pv_provider, .events = pv_events, .events_per_ms = 20}));
    sim::live_session live(*k, rec, channel, {.run_ms = 10});
    trace::consume_control control;
    std::uint64_t provider_events = 0, stacked = 0, headers = 0, id2 = 0;
    auto const report = trace::consume(live, u"sim live providers", trace::consume_storage{batch, index}, control,
                                       trace::on_any([&](trace::event const& e) noexcept {
                                           if (e.rec().kind() != trace::record_kind::event) return;
                                           ++provider_events;
                                           if (!e.stack().empty()) ++stacked;
                                           if (e.rec().descriptor().id == 2) ++id2;
                                       }),
                                       trace::on<"EventTraceHeader">([&](trace::event_trace_header const&) noexcept { ++headers; }));
    CHECK(report.reason == trace::consume_end::session_ended);
    CHECK_FALSE(report.lost());
    REQUIRE(provider_events > 0);
    CHECK(provider_events == rec.counts().provider_events);
    CHECK(provider_events == rec.counts().of(pv_provider, 1) + rec.counts().of(pv_provider, 3) + rec.counts().of(pv_provider, 4) +
                                 rec.counts().of(pv_provider, 5));
    CHECK(id2 == 0);
    CHECK(stacked == provider_events);
    CHECK(report.events == rec.counts().events);
    CHECK(headers == 1); // the header event only: a provider event is not the EventTrace header
}
