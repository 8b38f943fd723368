// A session's configuration changed while it records (sim::recorder::reconfigure()): the sampling
// interval, the group mask, the stack list and the PMC lists apply from the change on, as Windows applies
// them to a running session; the change of interval is logged as ProfileSetInterval (0x0F48), PROFILE
// turned on or off as the interval rundown. Read back with the trace reader: each test counts the events
// before and after the change and fails when one phase has the other's configuration.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "etwctl/detail/bytes.hpp"
#include "etwctl/testing/sim_recorder.hpp"
#include "etwctl/trace.hpp"
#include "etwctl_test.hpp"

using namespace etwctl;

namespace {

constexpr std::uint64_t rc_ticks_per_ms = 10000; // the recorder's clock: QPC at 10 MHz
constexpr std::uint16_t rc_sample = 0x0F2E, rc_cswitch = 0x0524, rc_ready = 0x0532, rc_stack_walk = 0x1820, rc_set_interval = 0x0F48,
                        rc_collection_start = 0x0F49, rc_collection_end = 0x0F4A, rc_pmc_config = 0x0F30, rc_extension = 0x0005;

/// One record of the file: what the phase checks need.
struct rc_record {
    std::uint16_t hook = 0;
    std::uint16_t processor = 0;
    std::uint64_t time = 0; ///< 100 ns ticks since the recording started
    std::uint8_t pmc = 0;
    std::vector<std::uint32_t> words; ///< the payload's first u32 values (up to 8)
};

struct rc_file {
    std::vector<rc_record> records;
    std::uint64_t faults = 0;
    bool lost = false;
};

/// The machine, its NT Kernel Logger (a file; PROC_THREAD in EnableFlags), a workload and a recorder.
struct rc_machine {
    std::unique_ptr<sim::kernel> k = std::make_unique<sim::kernel>();
    std::optional<trace_session> s;
    sim::workload w{};
    std::vector<std::byte> buffers;
    std::vector<std::byte> file_bytes = std::vector<std::byte>(std::size_t{16} << 20);
    sim::memory_file file{file_bytes};
    std::unique_ptr<sim::recorder> rec;

    explicit rc_machine(sim::workload_options o = {}) : w(o) {
        auto started = start_session(*k, session_config::nt_kernel_logger()
                                              .file_sequential("k.etl")
                                              .buffer(buffer_size::kilobytes(64))
                                              .buffers(minimum_buffers{16}, maximum_buffers{64})
                                              .enable_flags(0x00000003U));
        REQUIRE(started);
        s.emplace(std::move(*started));
    }
    session_handle handle() const { return s->handle(); }
    void masks(group_mask m) { REQUIRE_FALSE(set<system_trace_enable_flags>(*k, handle(), m | group_mask::from_enable_flags(0x00000003U))); }
    void interval(std::uint32_t v) { REQUIRE_FALSE(set<sampled_profile_interval>(*k, profile_interval{v})); }
    void stacks(std::vector<hook_id> const& h) { REQUIRE_FALSE(set<stack_tracing>(*k, handle(), std::span<hook_id const>(h))); }
    void recorder() {
        buffers.resize(sim::recorder::storage_size(*k, limits::kernel_logger_id, w));
        rec = std::make_unique<sim::recorder>(*k, limits::kernel_logger_id, w, buffers, file.sink());
        REQUIRE(rec->valid());
    }
};

rc_file rc_read(std::span<std::byte const> bytes) {
    rc_file out;
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f);
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    trace::reader rd(*f, storage);
    trace::event_ref e;
    std::uint64_t const start = sim::recorder_options{}.start_qpc;
    while (rd.next(e)) {
        rc_record r;
        r.hook = e.rec.hook().value;
        r.processor = e.processor;
        r.time = e.rec.timestamp() - start;
        r.pmc = e.rec.pmc_count();
        auto const p = e.rec.payload();
        for (std::size_t o = 0; o + 4 <= p.size() && r.words.size() < 8; o += 4) r.words.push_back(detail::load<std::uint32_t>(p.data(), o));
        out.records.push_back(std::move(r));
    }
    out.faults = rd.losses().faults;
    out.lost = rd.losses().any();
    return out;
}

/// How many records of `hook` lie in [from, to) ticks (on `processor`, or any when it is 0xFFFF).
std::uint64_t rc_count(rc_file const& f, std::uint16_t hook, std::uint64_t from, std::uint64_t to, std::uint16_t processor = 0xFFFF) {
    std::uint64_t n = 0;
    for (auto const& r : f.records)
        n += r.hook == hook && r.time >= from && r.time < to && (processor == 0xFFFF || r.processor == processor) ? 1U : 0U;
    return n;
}
std::vector<rc_record> rc_of(rc_file const& f, std::uint16_t hook) {
    std::vector<rc_record> v;
    for (auto const& r : f.records)
        if (r.hook == hook) v.push_back(r);
    return v;
}

template <class L>
std::vector<hook_id> rc_hooks(L const& l) {
    return std::vector<hook_id>(l.begin(), l.end());
}

} // namespace

TEST_CASE("sim reconfigure: a new interval and group mask apply from the change on; ProfileSetInterval marks it") {
    rc_machine m;
    m.masks(kernel_flags<"PROFILE">);
    m.interval(10000); // 1 kHz
    m.stacks(rc_hooks(stack_walk<"Profile">));
    m.recorder();
    m.rec->start();
    group_mask const at_start = m.rec->masks();
    CHECK_FALSE(at_start.enables(perf::context_switch));
    m.rec->advance(10);
    // phase B: 8 kHz, context switches and ready threads on
    m.interval(1250);
    m.masks(kernel_flags<"PROFILE+CSWITCH+DISPATCHER">);
    m.rec->reconfigure();
    CHECK(m.rec->masks().enables(perf::context_switch));
    m.rec->advance(10);
    // phase C: PROFILE and DISPATCHER off, stacks on the switches instead
    m.masks(kernel_flags<"CSWITCH">);
    m.stacks(rc_hooks(stack_walk<"CSwitch">));
    m.rec->reconfigure();
    m.rec->advance(10);
    m.rec->stop();
    REQUIRE_FALSE(m.file.overflowed());
    rc_file const f = rc_read(m.file.bytes());
    CHECK(f.faults == 0);
    CHECK_FALSE(f.lost);

    std::uint64_t const t1 = 10 * rc_ticks_per_ms, t2 = 20 * rc_ticks_per_ms, end = 30 * rc_ticks_per_ms + 1;
    // the sample rate on every processor: 1 kHz, then 8 kHz, then none
    for (std::uint16_t c = 0; c < m.w.options().processors; ++c) {
        CAPTURE(c);
        CHECK(rc_count(f, rc_sample, 0, t1, c) == 10);
        CHECK(rc_count(f, rc_sample, t1, t2, c) == 80);
        CHECK(rc_count(f, rc_sample, t2, end, c) == 0);
    }
    // context switches from the change on; ready threads while DISPATCHER is on only
    CHECK(rc_count(f, rc_cswitch, 0, t1) == 0);
    CHECK(rc_count(f, rc_cswitch, t1, t2) > 0);
    CHECK(rc_count(f, rc_cswitch, t2, end) > 0);
    CHECK(rc_count(f, rc_ready, 0, t1) == 0);
    CHECK(rc_count(f, rc_ready, t1, t2) > 0);
    CHECK(rc_count(f, rc_ready, t2, end) == 0);
    // the stacks follow the stack list: the samples' until t2, the switches' after (each stack record has
    // its event's timestamp)
    CHECK(rc_count(f, rc_stack_walk, 0, t2) == rc_count(f, rc_sample, 0, t2));
    CHECK(rc_count(f, rc_stack_walk, t2, end) == rc_count(f, rc_cswitch, t2, end));
    CHECK(rc_count(f, rc_stack_walk, t2, end) > 0);

    // the interval events: the rundown at the start (1 ms), the change at t1 (old 10000, new 1250), the
    // end of sampling at t2 (PROFILE turned off): Source 0 (Timer), NewInterval, OldInterval
    auto const starts = rc_of(f, rc_collection_start);
    auto const sets = rc_of(f, rc_set_interval);
    auto const ends = rc_of(f, rc_collection_end);
    REQUIRE(starts.size() == 1);
    REQUIRE(sets.size() == 1);
    REQUIRE(ends.size() == 1);
    REQUIRE(sets[0].words.size() >= 3);
    CHECK(starts[0].time == 0);
    CHECK(starts[0].words[1] == 10000);
    CHECK(starts[0].words[2] == 10000);
    CHECK(sets[0].time == t1);
    CHECK(sets[0].words[0] == 0);
    CHECK(sets[0].words[1] == 1250);
    CHECK(sets[0].words[2] == 10000);
    CHECK(ends[0].time == t2);
    CHECK(ends[0].words[1] == 1250);
    // the header's group-mask extension describes the start (no CSWITCH), also as rewritten at stop
    auto const ext = rc_of(f, rc_extension);
    REQUIRE(ext.size() == 1);
    REQUIRE(ext[0].words.size() == 8);
    for (std::size_t i = 0; i < 8; ++i) {
        CAPTURE(i);
        CHECK(ext[0].words[i] == at_start.masks[i]);
    }
    // the file holds what the recorder says it wrote
    std::map<std::uint16_t, std::uint64_t> by_hook;
    for (auto const& r : f.records) ++by_hook[r.hook];
    for (auto const& kv : by_hook) {
        CAPTURE(kv.first);
        CHECK(kv.second == m.rec->counts().of(hook_id{kv.first}));
    }
}

TEST_CASE("sim reconfigure: PROFILE turned on mid-recording samples from then on, after the interval rundown") {
    rc_machine m;
    m.interval(2500); // 4 per ms per processor
    m.recorder();
    m.rec->start();
    m.rec->advance(5);
    m.masks(kernel_flags<"PROFILE">);
    m.rec->reconfigure();
    m.rec->advance(5);
    m.rec->stop();
    rc_file const f = rc_read(m.file.bytes());
    CHECK(f.faults == 0);
    std::uint64_t const t = 5 * rc_ticks_per_ms;
    for (std::uint16_t c = 0; c < m.w.options().processors; ++c) {
        CAPTURE(c);
        CHECK(rc_count(f, rc_sample, 0, t, c) == 0);
        CHECK(rc_count(f, rc_sample, t, 2 * t + 1, c) == 20);
    }
    auto const starts = rc_of(f, rc_collection_start);
    REQUIRE(starts.size() == 1);
    CHECK(starts[0].time == t);
    CHECK(starts[0].words[1] == 2500);
    CHECK(rc_of(f, rc_set_interval).empty()); // the interval did not change while sampling
    CHECK(rc_of(f, rc_collection_end).size() == 1);
}

TEST_CASE("sim reconfigure: PMC counters configured while recording are on the listed events from then on") {
    rc_machine m;
    m.masks(kernel_flags<"CSWITCH">);
    m.recorder();
    m.rec->start();
    m.rec->advance(5);
    std::vector<profile_source> const counters{profile_source::total_cycles, profile_source::cache_misses};
    std::vector<hook_id> const events{hook_id{rc_cswitch}};
    REQUIRE_FALSE(set<pmc_counter_list>(*m.k, m.handle(), std::span<profile_source const>(counters)));
    REQUIRE_FALSE(set<pmc_event_list>(*m.k, m.handle(), std::span<hook_id const>(events)));
    m.rec->reconfigure();
    m.rec->advance(5);
    m.rec->stop();
    rc_file const f = rc_read(m.file.bytes());
    CHECK(f.faults == 0);
    std::uint64_t const t = 5 * rc_ticks_per_ms;
    std::uint64_t before = 0, before_pmc = 0, after = 0, after_pmc = 0;
    for (auto const& r : f.records) {
        if (r.hook != rc_cswitch) continue;
        (r.time < t ? before : after) += 1;
        (r.time < t ? before_pmc : after_pmc) += r.pmc == 2 ? 1U : 0U;
    }
    CHECK(before > 0);
    CHECK(before_pmc == 0);
    CHECK(after > 0);
    CHECK(after_pmc == after);
    auto const configs = rc_of(f, rc_pmc_config);
    REQUIRE(configs.size() == 1);
    CHECK(configs[0].time == t);
    CHECK(configs[0].words[0] == 2); // CounterCount
}

TEST_CASE("sim reconfigure: stack caching turned on while recording: key references from then on, defined at stop") {
    rc_machine m;
    m.masks(kernel_flags<"PROFILE">);
    m.interval(2500);
    m.stacks(rc_hooks(stack_walk<"Profile">));
    m.recorder();
    m.rec->start();
    m.rec->advance(5);
    REQUIRE_FALSE(set<stack_caching>(*m.k, m.handle(), stack_cache_size::mebibytes(4), stack_cache_buckets{1024}));
    m.rec->reconfigure();
    m.rec->advance(5);
    m.rec->stop();
    rc_file const f = rc_read(m.file.bytes());
    CHECK(f.faults == 0);
    std::uint64_t const t = 5 * rc_ticks_per_ms, end = 10 * rc_ticks_per_ms + 1;
    CHECK(rc_count(f, rc_stack_walk, 0, t) == rc_count(f, rc_sample, 0, t));
    CHECK(rc_count(f, rc_stack_walk, t, end) == 0);
    CHECK(rc_count(f, 0x1826, 0, t) == 0); // StackKeyUser
    CHECK(rc_count(f, 0x1826, t, end) == rc_count(f, rc_sample, t, end));
    CHECK(rc_count(f, rc_sample, t, end) > 0);
    CHECK(!rc_of(f, 0x1824).empty()); // StackKeyRundown: the keys' definitions
}

TEST_CASE("sim reconfigure: nothing changed, nothing happens; before start() and after stop() it does nothing") {
    auto const run = [](bool reconfigure_each_ms) {
        rc_machine m({.seed = 5, .lifecycle_interval = 3000});
        m.masks(kernel_flags<"PROFILE+CSWITCH+DISPATCHER+LOADER">);
        m.interval(1250);
        m.stacks(rc_hooks(stack_walk<"Profile+CSwitch">));
        m.recorder();
        if (reconfigure_each_ms) m.rec->reconfigure(); // before start(): nothing
        m.rec->start();
        for (int ms = 0; ms < 12; ++ms) {
            m.rec->advance(1);
            if (reconfigure_each_ms) m.rec->reconfigure();
        }
        m.rec->stop();
        if (reconfigure_each_ms) {
            m.interval(2500);
            m.rec->reconfigure(); // after stop(): nothing
        }
        REQUIRE_FALSE(m.file.overflowed());
        auto const b = m.file.bytes();
        return std::vector<std::byte>(b.begin(), b.end());
    };
    std::vector<std::byte> const plain = run(false);
    std::vector<std::byte> const called = run(true);
    CHECK(plain.size() > 0);
    CHECK(plain == called);
    rc_file const f = rc_read(called);
    CHECK(f.faults == 0);
    CHECK(rc_of(f, rc_set_interval).empty());
}
