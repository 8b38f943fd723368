// Configuration in, events out: a session configured on sim::kernel as for Windows (group mask, stack
// list, sampling interval, PMC counters and events, stack caching, buffers), the workload run for a
// while by sim::recorder, and the .etl it wrote read back with the trace reader. Each test fails when the
// events disagree with the configuration, or the file with what the recorder says it wrote.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "etwctl/testing/sim_recorder.hpp"
#include "etwctl/trace.hpp"
#include "etwctl_test.hpp"

using namespace etwctl;

namespace {

/// What a configuration is: the session's buffers, groups, stacks, interval, counters.
struct setup {
    std::uint32_t enable_flags = 0x00000007U; // PROC_THREAD + LOADER (EnableFlags)
    group_mask extra{};                        // set<system_trace_enable_flags> (Masks[1..7] groups)
    std::vector<hook_id> stacks{};
    std::uint32_t interval = 1250;
    std::vector<profile_source> counters{};
    std::vector<hook_id> pmc_events{};
    bool caching = false;
    std::uint32_t buffer_kb = 64;
    std::uint32_t max_buffers = 64;
    std::uint32_t write_rate = 0;
    std::uint8_t pointer_size = 8;
    std::uint32_t milliseconds = 10;
    sim::workload_options work{};
};

/// One recording: the machine, its session, the recorder's counts, the file, the stop report.
struct recording {
    std::unique_ptr<sim::kernel> k = std::make_unique<sim::kernel>();
    std::vector<std::byte> file_bytes = std::vector<std::byte>(std::size_t{16} << 20);
    sim::recorded_counts counts{};
    std::span<std::byte const> file{};
    stop_report stopped{};
    group_mask masks{};
    bool overflowed = false;
};

std::unique_ptr<recording> record(setup const& s) {
    auto r = std::make_unique<recording>();
    sim::kernel& k = *r->k;
    auto session = start_session(k, session_config::nt_kernel_logger()
                                        .file_sequential("k.etl")
                                        .buffer(buffer_size::kilobytes(s.buffer_kb))
                                        .buffers(minimum_buffers{16}, maximum_buffers{s.max_buffers})
                                        .enable_flags(s.enable_flags));
    REQUIRE(session);
    session_handle const h = session->handle();
    if (!s.extra.empty()) REQUIRE_FALSE(set<system_trace_enable_flags>(k, h, s.extra | group_mask::from_enable_flags(s.enable_flags)));
    if (!s.stacks.empty()) REQUIRE_FALSE(set<stack_tracing>(k, h, std::span<hook_id const>(s.stacks)));
    REQUIRE_FALSE(set<sampled_profile_interval>(k, profile_interval{s.interval}));
    if (!s.counters.empty()) REQUIRE_FALSE(set<pmc_counter_list>(k, h, std::span<profile_source const>(s.counters)));
    if (!s.pmc_events.empty()) REQUIRE_FALSE(set<pmc_event_list>(k, h, std::span<hook_id const>(s.pmc_events)));
    if (s.caching) REQUIRE_FALSE(set<stack_caching>(k, h, stack_cache_size::mebibytes(4), stack_cache_buckets{1024}));

    sim::workload w(s.work);
    std::vector<std::byte> buffers(sim::recorder::storage_size(k, limits::kernel_logger_id, w));
    sim::memory_file file(r->file_bytes);
    sim::recorder rec(k, limits::kernel_logger_id, w, buffers, file.sink(), {.pointer_size = s.pointer_size, .write_buffers_per_ms = s.write_rate});
    REQUIRE(rec.valid());
    rec.start();
    rec.advance(s.milliseconds);
    rec.stop();
    r->counts = rec.counts();
    r->masks = rec.masks();
    r->file = file.bytes();
    r->overflowed = file.overflowed();
    r->stopped = session->stop();
    return r;
}

/// The file read back: records per hook (every record, stack records included), and per event (stacks
/// attached) what a profiler sees.
struct decoded {
    std::map<std::uint16_t, std::uint64_t> records;
    std::uint64_t record_total = 0;
    std::map<std::uint16_t, std::uint64_t> events;
    std::map<std::uint16_t, std::uint64_t> with_stack;
    std::map<std::uint16_t, std::uint64_t> with_pmc;
    std::map<std::pair<std::uint16_t, std::uint16_t>, std::uint64_t> samples; // (processor, hook) -> count
    std::vector<std::vector<std::uint64_t>> pmc_values;                       // each CSwitch's counters
    std::uint64_t ip_is_frame0 = 0, ip_not_frame0 = 0, frames_outside = 0, unresolved = 0;
    trace::loss_report losses{};
    std::uint64_t faults = 0;
    std::size_t buffers = 0;
    std::uint32_t header_buffers_written = 0, header_events_lost = 0, header_processors = 0, header_pointer_size = 0;
};

decoded decode(recording const& r, sim::workload const& w) {
    decoded d;
    auto f = trace::trace_file::open(r.file);
    REQUIRE(f);
    d.header_buffers_written = f->header().buffers_written();
    d.header_events_lost = f->header().events_lost();
    d.header_processors = f->header().number_of_processors();
    d.header_pointer_size = f->header().pointer_size();
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    // pass 1: every record, and the stack-cache definitions
    trace::stack_cache::needs needs;
    {
        trace::reader rd(*f, storage);
        trace::event_ref e;
        while (rd.next(e)) {
            ++d.records[e.rec.hook().value];
            ++d.record_total;
            needs.census(e.rec);
        }
        d.losses = rd.losses();
        d.faults = rd.losses().faults;
        d.buffers = rd.buffer_count();
    }
    std::vector<trace::stack_cache::definition> defs(needs.definitions);
    std::vector<trace::stack_cache::reference> refs(needs.references);
    std::vector<std::byte> frames(needs.frame_bytes);
    trace::stack_cache cache(defs, refs, frames);
    {
        trace::reader rd(*f, storage);
        trace::event_ref e;
        while (rd.next(e)) cache.add(e);
        cache.finish();
    }
    auto inside = [&](std::uint64_t a) {
        for (auto const& im : w.images())
            if (a >= im.base_for(static_cast<std::uint8_t>(d.header_pointer_size)) &&
                a < im.base_for(static_cast<std::uint8_t>(d.header_pointer_size)) + im.size)
                return true;
        return false;
    };
    trace::reader rd(*f, storage);
    trace::event_stream stream(rd, &cache);
    trace::dispatch(stream,
                    trace::on_any([&](trace::event const& e) {
                        auto const h = e.rec().hook().value;
                        ++d.events[h];
                        if (!e.stack().empty()) ++d.with_stack[h];
                        d.unresolved += e.stack().unresolved_keys();
                        for (std::uint64_t a : e.stack()) d.frames_outside += inside(a) ? 0U : 1U;
                        if (!e.pmc().empty()) ++d.with_pmc[h];
                        ++d.samples[{e.processor(), h}];
                    }),
                    trace::on<"SampledProfile">([&](trace::sampled_profile const& e) {
                        if (e.stack().empty()) return;
                        (e.stack()[0] == e.instruction_pointer() ? d.ip_is_frame0 : d.ip_not_frame0) += 1;
                    }),
                    trace::on<"CSwitch">([&](trace::cswitch const& e) {
                        std::vector<std::uint64_t> v;
                        for (std::size_t i = 0; i < e.pmc().size(); ++i) v.push_back(e.pmc()[i]);
                        d.pmc_values.push_back(v);
                    }));
    return d;
}

constexpr hook_id sampled_profile{0x0F2E}, cswitch{0x0524}, ready_thread{0x0532}, stack_walk_hook{0x1820};

template <class L>
std::vector<hook_id> hooks(L const& l) {
    return std::vector<hook_id>(l.begin(), l.end());
}

setup profiler_setup() {
    setup s;
    s.extra = kernel_flags<"PROFILE+CSWITCH+DISPATCHER">;
    s.stacks = hooks(stack_walk<"Profile+CSwitch">);
    s.counters = {profile_source::total_cycles, profile_source::cache_misses};
    s.pmc_events = {cswitch};
    return s;
}

} // namespace

TEST_CASE("sim recording: the .etl decodes to exactly what the recorder says it wrote, 64- and 32-bit") {
    for (std::uint8_t ptr : {std::uint8_t{8}, std::uint8_t{4}}) {
        CAPTURE(int{ptr});
        setup s = profiler_setup();
        s.pointer_size = ptr;
        auto const r = record(s);
        sim::workload const w(s.work);
        REQUIRE_FALSE(r->overflowed);
        decoded const d = decode(*r, w);
        CHECK(d.faults == 0);
        CHECK_FALSE(d.losses.any());
        CHECK(d.header_pointer_size == ptr);
        CHECK(d.header_processors == w.options().processors);
        CHECK(d.buffers == r->counts.buffers);
        CHECK(d.header_buffers_written == r->counts.buffers);
        CHECK(d.record_total == r->counts.events);
        CHECK(d.records.size() == r->counts.kinds);
        for (auto const& kv : d.records) {
            std::uint16_t const hook = kv.first;
            CAPTURE(hook);
            CHECK(kv.second == r->counts.of(hook_id{hook}));
        }
        // every kind the configuration implies is there
        for (std::uint16_t h : std::initializer_list<std::uint16_t>{0x0000, 0x0005, 0x0303, 0x0503, 0x1403, 0x0304, 0x0504, 0x1404, 0x0F2E, 0x0F49, 0x0F4A, 0x0F30,
                                0x0524, 0x0532, 0x1820}) {
            CAPTURE(h);
            CHECK(d.records.count(h) == 1);
        }
        CHECK(d.records.at(0x0303) == w.processes().size());
        CHECK(d.records.at(0x0503) == w.threads().size());
        CHECK(d.records.at(0x1403) == w.images().size());
        CHECK(d.records.at(0x0304) == w.processes().size());
    }
}

TEST_CASE("sim recording: the stack list decides which events carry stacks, and no others") {
    setup s = profiler_setup();
    s.stacks = hooks(stack_walk<"Profile">);
    auto const r = record(s);
    sim::workload const w(s.work);
    decoded const d = decode(*r, w);
    CHECK(d.events.at(sampled_profile.value) > 0);
    CHECK(d.with_stack.at(sampled_profile.value) == d.events.at(sampled_profile.value)); // every sample
    CHECK(d.with_stack.count(cswitch.value) == 0);                                         // nothing else
    CHECK(d.with_stack.count(ready_thread.value) == 0);
    CHECK(d.with_stack.size() == 1);
    CHECK(d.events.count(stack_walk_hook.value) == 0); // every stack record attached to its event
    CHECK(d.ip_is_frame0 == d.events.at(sampled_profile.value));
    CHECK(d.ip_not_frame0 == 0);
    CHECK(d.frames_outside == 0); // every frame inside the workload's images

    s.stacks = hooks(stack_walk<"CSwitch+ReadyThread">);
    auto const r2 = record(s);
    decoded const d2 = decode(*r2, w);
    CHECK(d2.with_stack.count(sampled_profile.value) == 0);
    CHECK(d2.with_stack.at(cswitch.value) == d2.events.at(cswitch.value));
    CHECK(d2.with_stack.at(ready_thread.value) == d2.events.at(ready_thread.value));
}

TEST_CASE("sim recording: stack caching gives key references, resolved by the rundown's definitions") {
    setup s = profiler_setup();
    s.stacks = hooks(stack_walk<"Profile">);
    s.caching = true;
    auto const r = record(s);
    sim::workload const w(s.work);
    decoded const d = decode(*r, w);
    CHECK(d.records.count(stack_walk_hook.value) == 0);
    CHECK(d.records.at(0x1826) == d.events.at(sampled_profile.value)); // one key reference per sample
    CHECK(d.records.at(0x1824) > 0);
    CHECK(d.records.at(0x1824) <= w.threads().size() * sim::workload::stack_variants);
    CHECK(d.with_stack.at(sampled_profile.value) == d.events.at(sampled_profile.value));
    CHECK(d.unresolved == 0);
    CHECK(d.ip_is_frame0 == d.events.at(sampled_profile.value));
    CHECK(d.frames_outside == 0);
}

TEST_CASE("sim recording: the group mask decides which events appear, and none outside it") {
    setup s;
    s.enable_flags = 0x00000003U; // PROC_THREAD only
    s.extra = kernel_flags<"PROFILE">;
    auto const r = record(s);
    sim::workload const w(s.work);
    decoded const d = decode(*r, w);
    CHECK(d.records.count(sampled_profile.value) == 1);
    CHECK(d.records.count(0x0303) == 1);
    CHECK(d.records.count(0x0503) == 1);
    for (std::uint16_t h : std::initializer_list<std::uint16_t>{0x1403, 0x1404, 0x0524, 0x0532}) {
        CAPTURE(h);
        CHECK(d.records.count(h) == 0);
    }
    // nothing outside what PROC_THREAD + PROFILE imply (the header, the extension, rundown, samples and
    // their interval events)
    std::set<std::uint16_t> const allowed{0x0000, 0x0005, 0x0303, 0x0304, 0x0503, 0x0504, 0x0F2E, 0x0F49, 0x0F4A};
    for (auto const& kv : d.records) {
        std::uint16_t const hook = kv.first;
        CAPTURE(hook);
        CHECK(allowed.count(hook) == 1);
    }

    setup c;
    c.enable_flags = 0x00000004U; // LOADER only
    c.extra = kernel_flags<"CSWITCH">;
    auto const r2 = record(c);
    decoded const d2 = decode(*r2, w);
    CHECK(d2.records.count(0x0524) == 1);
    CHECK(d2.records.count(0x1403) == 1);
    for (std::uint16_t h : std::initializer_list<std::uint16_t>{0x0F2E, 0x0F49, 0x0303, 0x0503, 0x0532}) {
        CAPTURE(h);
        CHECK(d2.records.count(h) == 0);
    }
    // the header extension carries the masks in force
    CHECK(r2->masks.enables(perf::context_switch));
    CHECK_FALSE(r2->masks.enables(perf::profile));
}

TEST_CASE("sim recording: the sampling interval is the sample rate on every processor") {
    for (std::uint32_t interval : {1250U, 10000U, 2500U}) {
        CAPTURE(interval);
        setup s;
        s.extra = kernel_flags<"PROFILE">;
        s.interval = interval;
        s.milliseconds = 20;
        auto const r = record(s);
        sim::workload const w(s.work);
        decoded const d = decode(*r, w);
        std::uint64_t const per_ms = 10000U / interval; // the interval is in 100 ns units
        for (std::uint16_t c = 0; c < w.options().processors; ++c) {
            CAPTURE(c);
            CHECK(d.samples.at(std::pair<std::uint16_t, std::uint16_t>{c, sampled_profile.value}) == per_ms * s.milliseconds);
        }
    }
}

TEST_CASE("sim recording: the PMC counters are on the events of the PMC list, in the configured order") {
    setup s = profiler_setup();
    s.counters = {profile_source::cache_misses, profile_source::total_cycles, profile_source::branch_instructions};
    s.pmc_events = {cswitch};
    auto const r = record(s);
    sim::workload const w(s.work);
    decoded const d = decode(*r, w);
    REQUIRE(!d.pmc_values.empty());
    CHECK(d.with_pmc.at(cswitch.value) == d.events.at(cswitch.value));
    CHECK(d.with_pmc.size() == 1); // samples and ready-thread events carry none
    for (auto const& v : d.pmc_values) {
        REQUIRE(v.size() == 3);
        CHECK((v[0] >> 48) == static_cast<std::uint32_t>(profile_source::cache_misses));
        CHECK((v[1] >> 48) == static_cast<std::uint32_t>(profile_source::total_cycles));
        CHECK((v[2] >> 48) == static_cast<std::uint32_t>(profile_source::branch_instructions));
    }
    CHECK(r->counts.with_pmc == d.events.at(cswitch.value));
}

TEST_CASE("sim recording: too few buffers lose events, reported by stop() and in the file's header") {
    setup s = profiler_setup();
    s.buffer_kb = 4;
    s.max_buffers = 16;
    s.write_rate = 1; // the logger writes one buffer per millisecond
    s.milliseconds = 50;
    auto const r = record(s);
    sim::workload const w(s.work);
    REQUIRE(r->counts.lost > 0);
    CHECK(r->stopped.lost());
    CHECK(r->stopped.statistics.events_lost == r->counts.lost);
    decoded const d = decode(*r, w);
    CHECK(d.header_events_lost == r->counts.lost);
    CHECK(d.losses.header_events_lost == r->counts.lost);
    CHECK(d.record_total == r->counts.events); // what was not lost is all there
    CHECK(d.faults == 0);

    setup enough = s;
    enough.write_rate = 0;
    auto const r2 = record(enough);
    CHECK(r2->counts.lost == 0);
    CHECK_FALSE(r2->stopped.lost());
}

TEST_CASE("sim recording: the same seed records the same bytes; another seed another workload") {
    setup s = profiler_setup();
    auto const a = record(s);
    auto const b = record(s);
    REQUIRE(a->file.size() == b->file.size());
    CHECK(std::equal(a->file.begin(), a->file.end(), b->file.begin()));
    s.work.seed = 2;
    auto const c = record(s);
    bool const same = c->file.size() == a->file.size() && std::equal(a->file.begin(), a->file.end(), c->file.begin());
    CHECK_FALSE(same);
}

TEST_CASE("sim recording: the workload runs a thread on one processor at a time, and every thread switched to is in the rundown") {
    setup s = profiler_setup();
    s.milliseconds = 30;
    auto const r = record(s);
    sim::workload const w(s.work); // as the recording started: processor c runs thread c
    auto f = trace::trace_file::open(r->file);
    REQUIRE(f);
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    trace::reader rd(*f, storage);
    trace::event_stream stream(rd);
    std::map<std::uint16_t, std::uint32_t> running;
    for (std::uint16_t c = 0; c < w.options().processors; ++c) running[c] = w.threads()[w.running(c)].thread_id;
    std::map<std::uint32_t, std::uint32_t> rundown_threads; // thread -> process
    std::uint64_t switches = 0, doubly_run = 0, unknown = 0, wrong_old = 0;
    trace::dispatch(stream,
                    trace::on<"ThreadDCStart">([&](trace::thread_event const& e) { rundown_threads[e.thread_id()] = e.process_id(); }),
                    trace::on<"CSwitch">([&](trace::cswitch const& e) {
                        ++switches;
                        if (running[e.processor()] != e.old_thread_id()) ++wrong_old;
                        for (auto const& [c, t] : running)
                            if (c != e.processor() && t == e.new_thread_id()) ++doubly_run;
                        if (rundown_threads.count(e.new_thread_id()) == 0) ++unknown;
                        running[e.processor()] = e.new_thread_id();
                    }));
    CHECK(switches > 0);
    CHECK(rundown_threads.size() == w.threads().size());
    CHECK(wrong_old == 0);  // OldThreadId is the thread the processor ran
    CHECK(doubly_run == 0); // never a thread already running on another processor
    CHECK(unknown == 0);
}
