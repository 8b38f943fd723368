// Zero heap allocations per event when reading a trace: the reader, event_stream (stacks attached),
// record_stream and the typed dispatch read the whole real trace (tests/trace/data/net.4.5.2.x86.etl,
// compressed) and generated profiler traces (uncompressed and compressed, with stack keys) after setup,
// and nothing is allocated.
// The storage the reader and the stack cache use is allocated before counting starts; building the stack
// cache (its census and its definitions) is counted too.
//
// Its own program: global operator new/delete are replaced by counting versions (as test_alloc.cpp does
// for the session paths), and a program has one operator new. Only the region between start() and stop()
// is counted: doctest's reporting allocates, so results are kept in plain variables and checked after.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "etwctl/trace.hpp"
#include "etwctl_test.hpp"
#include "trace_files.hpp"
#include "trace_writer.hpp"

namespace {

struct trace_alloc_counter {
    bool on = false;
    std::size_t news = 0;
    std::size_t deletes = 0;
};
trace_alloc_counter g_trace_count;

void* trace_counted_alloc(std::size_t n) noexcept {
    if (g_trace_count.on) ++g_trace_count.news;
    return std::malloc(n == 0 ? 1 : n);
}
// Over-aligned blocks by hand (std::aligned_alloc is missing on mingw): the malloc'd address is kept in
// the word before the block.
void* trace_counted_aligned_alloc(std::size_t n, std::align_val_t a) noexcept {
    if (g_trace_count.on) ++g_trace_count.news;
    auto const align = static_cast<std::size_t>(a);
    void* const raw = std::malloc(n + align + sizeof(void*));
    if (raw == nullptr) return nullptr;
    auto const start = reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*);
    auto* const block = reinterpret_cast<void**>((start + align - 1) / align * align);
    block[-1] = raw;
    return block;
}
void trace_counted_free(void* p) noexcept {
    if (p == nullptr) return;
    if (g_trace_count.on) ++g_trace_count.deletes;
    std::free(p);
}
void trace_counted_aligned_free(void* p) noexcept {
    if (p == nullptr) return;
    if (g_trace_count.on) ++g_trace_count.deletes;
    std::free(static_cast<void**>(p)[-1]);
}
void* trace_or_throw(void* p) {
#if defined(__cpp_exceptions)
    if (p == nullptr) throw std::bad_alloc();
#else
    if (p == nullptr) std::abort(); // -fno-exceptions: what the default operator new does too
#endif
    return p;
}

} // namespace

void* operator new(std::size_t n) { return trace_or_throw(trace_counted_alloc(n)); }
void* operator new[](std::size_t n) { return trace_or_throw(trace_counted_alloc(n)); }
void* operator new(std::size_t n, std::nothrow_t const&) noexcept { return trace_counted_alloc(n); }
void* operator new[](std::size_t n, std::nothrow_t const&) noexcept { return trace_counted_alloc(n); }
void* operator new(std::size_t n, std::align_val_t a) { return trace_or_throw(trace_counted_aligned_alloc(n, a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return trace_or_throw(trace_counted_aligned_alloc(n, a)); }
void* operator new(std::size_t n, std::align_val_t a, std::nothrow_t const&) noexcept { return trace_counted_aligned_alloc(n, a); }
void* operator new[](std::size_t n, std::align_val_t a, std::nothrow_t const&) noexcept { return trace_counted_aligned_alloc(n, a); }
void operator delete(void* p) noexcept { trace_counted_free(p); }
void operator delete[](void* p) noexcept { trace_counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { trace_counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { trace_counted_free(p); }
void operator delete(void* p, std::nothrow_t const&) noexcept { trace_counted_free(p); }
void operator delete[](void* p, std::nothrow_t const&) noexcept { trace_counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { trace_counted_aligned_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { trace_counted_aligned_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { trace_counted_aligned_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { trace_counted_aligned_free(p); }
void operator delete(void* p, std::align_val_t, std::nothrow_t const&) noexcept { trace_counted_aligned_free(p); }
void operator delete[](void* p, std::align_val_t, std::nothrow_t const&) noexcept { trace_counted_aligned_free(p); }

namespace {

namespace tr = etwctl::trace;

void trace_start() {
    g_trace_count = {};
    g_trace_count.on = true;
}
void trace_stop() { g_trace_count.on = false; }

/// What one counted read saw (plain numbers: nothing in the counted region may allocate).
struct trace_read_counts {
    std::size_t news = 0, deletes = 0;   // in the whole counted region
    std::size_t setup_news = 0;          // of those, in the readers' constructors (the index of the buffers)
    std::uint64_t records = 0, events = 0, samples = 0, sample_frames = 0, switches = 0, pmc_values = 0, images = 0, raw = 0, any = 0;
    std::uint64_t definitions = 0, unresolved = 0;
    std::uint64_t faults = 0;
    std::uint64_t record_events = 0, record_samples = 0, record_frames = 0; // record_stream
};

/// Opens `file` and allocates the storage (not counted), then counts a whole read: a plain pass over the
/// records, the stack cache's census and build, and the typed dispatch with stacks attached.
trace_read_counts trace_read_counted(std::span<std::byte const> file) {
    trace_read_counts c;
    auto f = tr::trace_file::open(file);
    REQUIRE(f.has_value());
    if (!f) return c;
    std::vector<std::byte> storage(tr::reader::storage_size(*f));
    // the stack cache's storage: sized by a census before counting (the census itself is counted below)
    tr::stack_cache::needs sizing;
    {
        tr::reader r(*f, storage);
        tr::event_ref e;
        while (r.next(e)) sizing.census(e.rec);
    }
    std::vector<tr::stack_cache::definition> definitions(sizing.definitions);
    std::vector<tr::stack_cache::reference> references(sizing.references);
    std::vector<std::byte> frames(sizing.frame_bytes);

    trace_start();
    {
        auto news_before = g_trace_count.news;
        tr::reader r(*f, storage);
        c.setup_news += g_trace_count.news - news_before;
        tr::event_ref e;
        tr::stack_cache::needs need;
        while (r.next(e)) {
            ++c.records;
            need.census(e.rec);
        }
        tr::stack_cache cache{std::span<tr::stack_cache::definition>(definitions).first(need.definitions),
                             std::span<tr::stack_cache::reference>(references).first(need.references),
                             std::span<std::byte>(frames).first(need.frame_bytes)};
        news_before = g_trace_count.news;
        tr::reader r2(*f, storage);
        c.setup_news += g_trace_count.news - news_before;
        while (r2.next(e)) cache.add(e);
        cache.finish();
        c.definitions = cache.size();

        news_before = g_trace_count.news;
        tr::reader r3(*f, storage);
        c.setup_news += g_trace_count.news - news_before;
        tr::event_stream s(r3, &cache);
        auto const rep = tr::dispatch(
            s, tr::on_any([&](tr::event const&) { ++c.any; }),
            tr::on<"SampledProfile">([&](tr::sampled_profile const& ev) {
                ++c.samples;
                for (auto frame : ev.stack()) c.sample_frames += frame != 0 ? 1U : 0U;
                c.unresolved += ev.stack().unresolved_keys();
            }),
            tr::on<"CSwitch">([&](tr::cswitch const& ev) {
                ++c.switches;
                c.pmc_values += ev.pmc().size();
                c.unresolved += ev.stack().unresolved_keys();
            }),
            tr::on<"ImageDCStart">([&](tr::image_event const& ev) { c.images += ev.file_name().empty() ? 0U : 1U; }),
            tr::on_raw([&](tr::raw_event const&) { ++c.raw; }));
        c.events = rep.events;

        // the same records as they are (record_stream): a StackWalk record an event of its own
        news_before = g_trace_count.news;
        tr::reader r4(*f, storage);
        c.setup_news += g_trace_count.news - news_before;
        tr::record_stream rs(r4);
        auto const rep4 = tr::dispatch(
            rs, tr::on<"SampledProfile">([&](tr::sampled_profile const&) { ++c.record_samples; }),
            tr::on<"StackWalk">([&](tr::stack_walk_event const& ev) { c.record_frames += ev.stack().size(); }));
        c.record_events = rep4.events;
        c.faults = r.losses().faults + r2.losses().faults + r3.losses().faults + r4.losses().faults;
    }
    trace_stop();
    c.news = g_trace_count.news;
    c.deletes = g_trace_count.deletes;
    return c;
}

} // namespace

TEST_CASE("trace alloc: reading the real trace (compressed) allocates nothing: reader, stack cache, event_stream, dispatch") {
    auto const bytes = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    if (bytes.empty()) {
        MESSAGE("tests/trace/data/net.4.5.2.x86.etl is absent: skipped");
        return;
    }
    auto const c = trace_read_counted(bytes);
    CHECK(c.news - c.setup_news == 0); // per record, per event: nothing
    CHECK(c.setup_news == 0);          // and nothing when a reader starts (it indexes into the caller's storage)
    CHECK(c.deletes == 0);
    CHECK(c.records > 100'000); // the whole file was read
    CHECK(c.samples > 0);
    CHECK(c.record_events == c.records); // record_stream: every record an event
    CHECK(c.record_samples == c.samples);
    CHECK(c.record_frames > 0);
    CHECK(c.any == c.events);
    CHECK(c.faults == 0);
}

TEST_CASE("trace alloc: reading generated profiler traces allocates nothing (uncompressed and compressed, stack keys)") {
    for (bool compress : {false, true}) {
        INFO(std::string(compress ? "compressed" : "uncompressed"));
        etwctl_test::trace_options o;
        o.compress = compress;
        auto const g = etwctl_test::generate_profile_trace(1'000'000, o, 5);
        auto const c = trace_read_counted(g.file);
        CHECK(c.news - c.setup_news == 0);
        CHECK(c.setup_news == 0);
        CHECK(c.deletes == 0);
        CHECK(c.records == g.counts.records);
        CHECK(c.samples == g.counts.hook_count(etwctl_test::hook::sampled_profile));
        CHECK(c.switches == g.counts.hook_count(etwctl_test::hook::cswitch));
        CHECK(c.sample_frames > 5 * c.samples); // stacks were attached (5 to 40 frames each)
        CHECK(c.pmc_values == 2 * c.switches);
        CHECK(c.images > 0);
        CHECK(c.definitions == g.counts.hook_count(etwctl_test::hook::stack_key_delete) + g.counts.hook_count(etwctl_test::hook::stack_key_rundown));
        CHECK(c.unresolved == 0); // every key reference found its definition in the cache
        CHECK(c.raw == 0);
        CHECK(c.record_events == c.records);
        CHECK(c.record_samples == c.samples);
        CHECK(c.record_frames > 5 * c.samples); // each StackWalk record's own frames
        CHECK(c.faults == 0);
    }
}

TEST_CASE("trace alloc: the counter sees an allocation in the counted region (the tests above could fail)") {
    trace_start();
    auto* volatile p = new int(7);
    delete p;
    trace_stop();
    CHECK(g_trace_count.news == 1);
    CHECK(g_trace_count.deletes == 1);
}
