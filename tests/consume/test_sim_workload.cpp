// The workload changes while it is recorded: processes, threads and images start and end at seeded
// times; the PROCESS / THREAD / LOADER groups decide which of those changes are logged, the stack list
// which carry stacks; samples and context switches name only threads that exist at their time; the
// rundown at stop (DCEnd) is the state at stop. Read back with the trace reader, 64- and 32-bit.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "etwctl/testing/sim_live.hpp"
#include "etwctl/testing/sim_recorder.hpp"
#include "etwctl/trace.hpp"
#include "etwctl/trace/consume.hpp"
#include "etwctl_test.hpp"
#include "stack_cache_fixture.hpp" // tests/trace/support

using namespace etwctl;

namespace {

struct wl_setup {
    std::uint32_t enable_flags = 0x00000007U; // PROC_THREAD + LOADER
    group_mask extra{};
    std::vector<hook_id> stacks{};
    std::uint8_t pointer_size = 8;
    std::uint32_t milliseconds = 30;
    sim::workload_options work{.seed = 11, .processors = 2, .processes = 3, .threads_per_process = 3, .images_per_process = 3,
                               .switch_interval = 2500, .lifecycle_interval = 2000};
};

struct wl_run {
    std::unique_ptr<sim::kernel> k = std::make_unique<sim::kernel>();
    std::unique_ptr<sim::workload> w;
    std::vector<std::byte> file_bytes = std::vector<std::byte>(std::size_t{16} << 20);
    std::span<std::byte const> file{};
    sim::recorded_counts counts{};
};

std::unique_ptr<wl_run> wl_record(wl_setup const& s) {
    auto r = std::make_unique<wl_run>();
    sim::kernel& k = *r->k;
    auto session = start_session(k, session_config::nt_kernel_logger()
                                        .file_sequential("w.etl")
                                        .buffer(buffer_size::kilobytes(64))
                                        .buffers(minimum_buffers{16}, maximum_buffers{64})
                                        .enable_flags(s.enable_flags));
    REQUIRE(session);
    session_handle const h = session->handle();
    if (!s.extra.empty()) REQUIRE_FALSE(set<system_trace_enable_flags>(k, h, s.extra | group_mask::from_enable_flags(s.enable_flags)));
    if (!s.stacks.empty()) REQUIRE_FALSE(set<stack_tracing>(k, h, std::span<hook_id const>(s.stacks)));
    REQUIRE_FALSE(set<sampled_profile_interval>(k, profile_interval{2500}));
    r->w = std::make_unique<sim::workload>(s.work);
    std::vector<std::byte> buffers(sim::recorder::storage_size(k, limits::kernel_logger_id, *r->w));
    sim::memory_file file(r->file_bytes);
    sim::recorder rec(k, limits::kernel_logger_id, *r->w, buffers, file.sink(), {.pointer_size = s.pointer_size});
    REQUIRE(rec.valid());
    rec.start();
    rec.advance(s.milliseconds);
    rec.stop();
    REQUIRE_FALSE(file.overflowed());
    r->counts = rec.counts();
    r->file = file.bytes();
    (void)session->stop();
    return r;
}

/// Records per hook, read back.
std::map<std::uint16_t, std::uint64_t> wl_records(std::span<std::byte const> bytes, std::uint64_t& total, std::uint64_t& faults) {
    std::map<std::uint16_t, std::uint64_t> m;
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f);
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    trace::reader rd(*f, storage);
    trace::event_ref e;
    total = 0;
    while (rd.next(e)) {
        ++m[e.rec.hook().value];
        ++total;
    }
    faults = rd.losses().faults;
    return m;
}

/// The trace replayed in time order against the sets it implies: who is alive when each event names
/// them. Every count of a violation must stay 0.
struct wl_replay {
    std::map<std::uint32_t, std::uint32_t> threads;             // live thread -> process
    std::set<std::uint32_t> processes;                          // live processes
    std::set<std::pair<std::uint32_t, std::uint64_t>> images;   // loaded (process, base)
    std::map<std::uint64_t, std::uint64_t> image_size;          // base -> size
    std::set<std::uint32_t> end_processes, end_threads;         // the DCEnd rundown
    std::set<std::pair<std::uint32_t, std::uint64_t>> end_images;
    std::uint64_t starts = 0, ends = 0, loads = 0, unloads = 0, thread_starts = 0, thread_ends = 0;
    std::uint64_t samples = 0, switches = 0, readies = 0;
    std::uint64_t dead_thread_named = 0;   // a sample / switch / ready naming a thread not alive
    std::uint64_t bad_start = 0, bad_end = 0, bad_image = 0;
    std::uint64_t frames_not_loaded = 0;   // a sample frame outside its process's images loaded then
    std::uint64_t stacked_samples = 0;

    bool loaded_in(std::uint32_t pid, std::uint64_t a) const {
        for (auto const& [p, base] : images)
            if (p == pid && a >= base && a < base + image_size.at(base)) return true;
        return false;
    }
    std::size_t threads_of(std::uint32_t pid) const {
        std::size_t n = 0;
        for (auto const& kv : threads) n += kv.second == pid ? 1U : 0U;
        return n;
    }
    std::size_t images_of(std::uint32_t pid) const {
        std::size_t n = 0;
        for (auto const& kv : images) n += kv.first == pid ? 1U : 0U;
        return n;
    }
};

wl_replay wl_replay_trace(std::span<std::byte const> bytes) {
    wl_replay r;
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f);
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    trace::reader rd(*f, storage);
    trace::event_stream stream(rd);
    auto live = [&](std::uint32_t tid) {
        if (r.threads.count(tid) == 0) ++r.dead_thread_named;
    };
    auto load = [&](trace::image_event const& e) {
        r.image_size[e.image_base()] = e.image_size();
        if (r.processes.count(e.process_id()) == 0 || !r.images.insert({e.process_id(), e.image_base()}).second) ++r.bad_image;
    };
    trace::dispatch(
        stream, trace::on<"ProcessDCStart">([&](trace::process_event const& e) { r.processes.insert(e.process_id()); }),
        trace::on<"ThreadDCStart">([&](trace::thread_event const& e) { r.threads[e.thread_id()] = e.process_id(); }),
        trace::on<"ImageDCStart">([&](trace::image_event const& e) { load(e); }),
        trace::on<"ProcessCreate">([&](trace::process_event const& e) {
            ++r.starts;
            // new, its parent alive, logged by a thread of the parent
            bool const ok = r.processes.count(e.process_id()) == 0 && r.processes.count(e.parent_id()) == 1 &&
                            r.threads.count(e.rec().thread_id()) == 1 && r.threads.at(e.rec().thread_id()) == e.parent_id();
            if (!ok) ++r.bad_start;
            r.processes.insert(e.process_id());
        }),
        trace::on<"ProcessDelete">([&](trace::process_event const& e) {
            ++r.ends;
            // alive, with no thread and no image left, exit code given
            if (r.processes.erase(e.process_id()) != 1 || r.threads_of(e.process_id()) != 0 || r.images_of(e.process_id()) != 0 ||
                e.exit_status() == 259)
                ++r.bad_end;
        }),
        trace::on<"ThreadCreate">([&](trace::thread_event const& e) {
            ++r.thread_starts;
            if (r.processes.count(e.process_id()) == 0 || r.threads.count(e.thread_id()) == 1) ++r.bad_start;
            r.threads[e.thread_id()] = e.process_id();
        }),
        trace::on<"ThreadDelete">([&](trace::thread_event const& e) {
            ++r.thread_ends;
            auto it = r.threads.find(e.thread_id());
            if (it == r.threads.end() || it->second != e.process_id()) ++r.bad_end;
            else r.threads.erase(it);
        }),
        trace::on<"ImageLoad">([&](trace::image_event const& e) {
            ++r.loads;
            load(e);
        }),
        trace::on<"ImageUnload">([&](trace::image_event const& e) {
            ++r.unloads;
            if (r.images.erase({e.process_id(), e.image_base()}) != 1) ++r.bad_image;
        }),
        trace::on<"SampledProfile">([&](trace::sampled_profile const& e) {
            ++r.samples;
            live(e.thread_id());
            if (!e.stack().empty()) ++r.stacked_samples;
            auto const it = r.threads.find(e.thread_id());
            if (it != r.threads.end())
                for (std::uint64_t a : e.stack()) r.frames_not_loaded += r.loaded_in(it->second, a) ? 0U : 1U;
        }),
        trace::on<"CSwitch">([&](trace::cswitch const& e) {
            ++r.switches;
            live(e.new_thread_id());
            live(e.old_thread_id());
        }),
        trace::on<"ReadyThread">([&](trace::ready_thread const& e) {
            ++r.readies;
            live(e.thread_id());
        }),
        trace::on<"ProcessDCEnd">([&](trace::process_event const& e) { r.end_processes.insert(e.process_id()); }),
        trace::on<"ThreadDCEnd">([&](trace::thread_event const& e) { r.end_threads.insert(e.thread_id()); }),
        trace::on<"ImageDCEnd">([&](trace::image_event const& e) { r.end_images.insert({e.process_id(), e.image_base()}); }));
    return r;
}

template <class L>
std::vector<hook_id> wl_hooks(L const& l) {
    return std::vector<hook_id>(l.begin(), l.end());
}

} // namespace

TEST_CASE("sim workload: processes, threads and images start and end while recording; the file decodes to what the recorder wrote, 64- and 32-bit") {
    for (std::uint8_t ptr : {std::uint8_t{8}, std::uint8_t{4}}) {
        CAPTURE(int{ptr});
        wl_setup s;
        s.pointer_size = ptr;
        s.extra = kernel_flags<"PROFILE+CSWITCH+DISPATCHER">;
        s.stacks = wl_hooks(stack_walk<"Profile">);
        auto const r = wl_record(s);
        std::uint64_t total = 0, faults = 0;
        auto const records = wl_records(r->file, total, faults);
        CHECK(faults == 0);
        CHECK(total == r->counts.events);
        CHECK(records.size() == r->counts.kinds);
        for (auto const& kv : records) {
            std::uint16_t const hook = kv.first;
            CAPTURE(hook);
            CHECK(kv.second == r->counts.of(hook_id{hook}));
        }
        // every kind of change happened, and was logged
        for (std::uint16_t h : std::initializer_list<std::uint16_t>{0x0301, 0x0302, 0x0501, 0x0502, 0x030A, 0x1402}) {
            CAPTURE(h);
            CHECK(records.count(h) == 1);
        }

        wl_replay const p = wl_replay_trace(r->file);
        CHECK(p.starts == records.at(0x0301));
        CHECK(p.ends == records.at(0x0302));
        CHECK(p.loads == records.at(0x030A));
        CHECK(p.samples > 0);
        CHECK(p.switches > 0);
        CHECK(p.readies > 0);
        CHECK(p.dead_thread_named == 0); // samples, switches, readies: only threads alive at their time
        CHECK(p.bad_start == 0);
        CHECK(p.bad_end == 0);
        CHECK(p.bad_image == 0);
        CHECK(p.stacked_samples == p.samples);
        CHECK(p.frames_not_loaded == 0); // every frame inside an image its process has loaded then
        // the rundown at stop is the state at stop: what the replay arrived at, and what the workload runs
        CHECK(p.end_processes == p.processes);
        std::set<std::uint32_t> replay_threads;
        for (auto const& kv : p.threads) replay_threads.insert(kv.first);
        CHECK(p.end_threads == replay_threads);
        CHECK(p.end_images == p.images);
        std::set<std::uint32_t> alive_processes, alive_threads;
        std::set<std::pair<std::uint32_t, std::uint64_t>> loaded;
        for (auto const& pr : r->w->processes())
            if (pr.alive) alive_processes.insert(pr.process_id);
        for (auto const& th : r->w->threads())
            if (th.alive) alive_threads.insert(th.thread_id);
        for (auto const& im : r->w->images())
            if (im.loaded) loaded.insert({r->w->processes()[im.process].process_id, im.base_for(ptr)});
        CHECK(p.end_processes == alive_processes);
        CHECK(p.end_threads == alive_threads);
        CHECK(p.end_images == loaded);
        CHECK(r->w->processes().size() > s.work.processes); // the workload did change
    }
}

TEST_CASE("sim workload: the PROCESS, THREAD and LOADER groups decide which changes are logged, and none outside them") {
    struct wl_case {
        std::uint32_t flags;
        std::set<std::uint16_t> present, absent;
    };
    std::vector<wl_case> const cases = {
        {0x00000001U, {0x0301, 0x0302, 0x0303, 0x0304}, {0x0501, 0x0502, 0x0503, 0x0504, 0x030A, 0x1402, 0x1403, 0x1404}}, // PROCESS
        {0x00000002U, {0x0501, 0x0502, 0x0503, 0x0504}, {0x0301, 0x0302, 0x0303, 0x0304, 0x030A, 0x1402, 0x1403, 0x1404}}, // THREAD
        {0x00000004U, {0x030A, 0x1402, 0x1403, 0x1404}, {0x0301, 0x0302, 0x0303, 0x0304, 0x0501, 0x0502, 0x0503, 0x0504}}, // IMAGE_LOAD
    };
    for (auto const& c : cases) {
        CAPTURE(c.flags);
        wl_setup s;
        s.enable_flags = c.flags;
        auto const r = wl_record(s);
        std::uint64_t total = 0, faults = 0;
        auto const records = wl_records(r->file, total, faults);
        CHECK(faults == 0);
        for (std::uint16_t h : c.present) {
            CAPTURE(h);
            CHECK(records.count(h) == 1);
        }
        for (std::uint16_t h : c.absent) {
            CAPTURE(h);
            CHECK(records.count(h) == 0);
        }
        for (auto const& kv : records) { // the header, its extension, and the group's events only
            std::uint16_t const hook = kv.first;
            CAPTURE(hook);
            CHECK((hook == 0x0000 || hook == 0x0005 || c.present.count(hook) == 1));
        }
    }
}

TEST_CASE("sim workload: the stack list decides which changes carry stacks, the causing thread's, and no others") {
    for (std::uint8_t ptr : {std::uint8_t{8}, std::uint8_t{4}}) {
        CAPTURE(int{ptr});
        wl_setup s;
        s.pointer_size = ptr;
        s.stacks = wl_hooks(stack_walk<"ProcessCreate+ThreadDelete+ImageLoad">);
        auto const r = wl_record(s);
        auto f = trace::trace_file::open(r->file);
        REQUIRE(f);
        std::vector<std::byte> storage(trace::reader::storage_size(*f));
        trace::reader rd(*f, storage);
        trace::event_stream stream(rd);
        std::map<std::uint16_t, std::uint64_t> events, stacked;
        std::uint64_t loose_stack_records = 0, frames_outside = 0;
        // every frame lies in an image of the process whose thread logged (or, for image events, loaded) it
        auto inside_process = [&](std::uint32_t pid, std::uint64_t a) {
            for (auto const& im : r->w->images())
                if (r->w->processes()[im.process].process_id == pid && a >= im.base_for(ptr) && a < im.base_for(ptr) + im.size) return true;
            return false;
        };
        trace::dispatch(stream, trace::on_any([&](trace::event const& e) {
                            auto const h = e.rec().hook().value;
                            ++events[h];
                            if (h == 0x1820) ++loose_stack_records;
                            if (e.stack().empty()) return;
                            ++stacked[h];
                            std::uint32_t pid = e.header_process_id();
                            if (h == 0x030A) // Image_Load's ProcessId, at 2 pointers
                                pid = etwctl::detail::load<std::uint32_t>(e.rec().payload().data(), 2U * e.rec().pointer_size());
                            for (std::uint64_t a : e.stack()) frames_outside += inside_process(pid, a) ? 0U : 1U;
                        }));
        CHECK(loose_stack_records == 0); // every stack record attached to its event
        for (std::uint16_t h : std::initializer_list<std::uint16_t>{0x0301, 0x0502, 0x030A}) {
            CAPTURE(h);
            REQUIRE(events.count(h) == 1);
            CHECK(stacked[h] == events.at(h));
        }
        std::set<std::uint16_t> const stacked_kinds = [&] {
            std::set<std::uint16_t> k;
            for (auto const& kv : stacked) k.insert(kv.first);
            return k;
        }();
        CHECK(stacked_kinds == std::set<std::uint16_t>{0x0301, 0x0502, 0x030A}); // not End, Start, Unload, rundown
        CHECK(frames_outside == 0);
        CHECK(r->counts.stacks == stacked[0x0301] + stacked[0x0502] + stacked[0x030A]);
    }
}

TEST_CASE("sim workload: the changes are drawn from the seed: same seed, same bytes; no lifecycle_interval, no change") {
    wl_setup s;
    auto const a = wl_record(s);
    auto const b = wl_record(s);
    REQUIRE(a->file.size() == b->file.size());
    CHECK(std::equal(a->file.begin(), a->file.end(), b->file.begin()));
    s.work.seed = 12;
    auto const c = wl_record(s);
    CHECK_FALSE((c->file.size() == a->file.size() && std::equal(a->file.begin(), a->file.end(), c->file.begin())));

    s.work.lifecycle_interval = 0;
    auto const still = wl_record(s);
    std::uint64_t total = 0, faults = 0;
    auto const records = wl_records(still->file, total, faults);
    for (std::uint16_t h : std::initializer_list<std::uint16_t>{0x0301, 0x0302, 0x0501, 0x0502, 0x030A, 0x1402}) {
        CAPTURE(h);
        CHECK(records.count(h) == 0);
    }
    CHECK(records.at(0x0304) == still->w->processes().size());
}

TEST_CASE("sim workload: consumed live (trace::consume), the changes arrive as the recorder wrote them") {
    auto k = std::make_unique<sim::kernel>();
    auto session = start_session(*k, session_config::nt_kernel_logger().real_time().buffer(buffer_size::kilobytes(64)).enable_flags(0x00000007U));
    REQUIRE(session);
    REQUIRE_FALSE(set<system_trace_enable_flags>(*k, session->handle(), kernel_flags<"PROC_THREAD+LOADER+CSWITCH">));
    REQUIRE_FALSE(set<stack_tracing>(*k, session->handle(), stack_walk<"ThreadCreate+ImageUnload">));
    sim::workload w(wl_setup{}.work);
    std::vector<std::byte> rec_storage(sim::recorder::storage_size(*k, limits::kernel_logger_id, w)),
        channel_storage(std::size_t{256} * 64 * 1024), batch(std::size_t{4} << 20), index(std::size_t{64} << 10);
    sim::realtime_channel channel(*k, limits::kernel_logger_id, channel_storage);
    sim::recorder rec(*k, limits::kernel_logger_id, w, rec_storage, channel.sink());
    REQUIRE(rec.valid());
    sim::live_session live(*k, rec, channel, {.run_ms = 20});
    trace::consume_control control;
    std::map<std::uint16_t, std::uint64_t> seen, stacked;
    auto const report = trace::consume(live, u"NT Kernel Logger", trace::consume_storage{batch, index}, control,
                                       trace::on_any([&](trace::event const& e) noexcept {
                                           ++seen[e.rec().hook().value];
                                           if (!e.stack().empty()) ++stacked[e.rec().hook().value];
                                       }));
    CHECK(report.reason == trace::consume_end::session_ended);
    CHECK_FALSE(report.lost());
    for (std::uint16_t h : std::initializer_list<std::uint16_t>{0x0301, 0x0302, 0x0501, 0x0502, 0x030A, 0x1402, 0x0524}) {
        CAPTURE(h);
        CHECK(seen[h] > 0);
        CHECK(seen[h] == rec.counts().of(hook_id{h}));
    }
    CHECK(stacked[0x0501] == seen[0x0501]);
    CHECK(stacked[0x1402] == seen[0x1402]);
    CHECK(stacked.size() == 2);
    CHECK(report.events == rec.counts().events - rec.counts().stacks);
}

TEST_CASE("sim workload: with stack caching, the changes' stacks are key references that the rundown's definitions resolve") {
    auto k = std::make_unique<sim::kernel>();
    std::vector<std::byte> bytes(std::size_t{16} << 20);
    auto session = start_session(*k, session_config::nt_kernel_logger().file_sequential("c.etl").buffer(buffer_size::kilobytes(64)).enable_flags(0x00000007U));
    REQUIRE(session);
    REQUIRE_FALSE(set<stack_tracing>(*k, session->handle(), stack_walk<"ProcessCreate+ThreadCreate+ImageUnload">));
    REQUIRE_FALSE(set<stack_caching>(*k, session->handle(), stack_cache_size::mebibytes(4), stack_cache_buckets{1024}));
    sim::workload w(wl_setup{}.work);
    std::vector<std::byte> storage(sim::recorder::storage_size(*k, limits::kernel_logger_id, w));
    sim::memory_file file(bytes);
    sim::recorder rec(*k, limits::kernel_logger_id, w, storage, file.sink());
    REQUIRE(rec.valid());
    rec.start();
    rec.advance(30);
    rec.stop();
    auto f = trace::trace_file::open(file.bytes());
    REQUIRE(f);
    std::vector<std::byte> rs(trace::reader::storage_size(*f));
    etwctl_test::owned_stack_cache keys;
    etwctl_test::build_stack_cache(*f, rs, keys);
    trace::reader rd(*f, rs);
    trace::event_stream stream(rd, &keys.cache);
    std::map<std::uint16_t, std::uint64_t> events, stacked;
    std::uint64_t unresolved = 0;
    trace::dispatch(stream, trace::on_any([&](trace::event const& e) {
                        ++events[e.rec().hook().value];
                        if (!e.stack().empty()) ++stacked[e.rec().hook().value];
                        unresolved += e.stack().unresolved_keys();
                    }));
    CHECK(events.count(0x1820) == 0); // no StackWalk records: references instead
    CHECK(events.count(0x1826) == 0); // every reference attached to its event
    CHECK(unresolved == 0);
    for (std::uint16_t h : std::initializer_list<std::uint16_t>{0x0301, 0x0501, 0x1402}) {
        CAPTURE(h);
        REQUIRE(events.count(h) == 1);
        CHECK(stacked[h] == events.at(h));
    }
    CHECK(stacked.size() == 3);
    CHECK(events.at(0x1824) > 0); // the definitions at stop
    CHECK(rec.counts().of(hook_id{0x1826}) == stacked[0x0301] + stacked[0x0501] + stacked[0x1402]);
}
