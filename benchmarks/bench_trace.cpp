// Google Benchmark: reading traces (issue 32 item 6). Per input, in one run:
//   touch       the physical limit: a plain loop adding every byte of the decompressed buffers (8 bytes at
//               a time, four accumulators), over the same buffers the reader walks, held in memory
//   decompress  decompress_plain_lz77 over every compressed buffer (compressed inputs only)
//   hand_walk   the best hand-written walk for the walk's job: every record in timestamp order, each
//               header checked against its buffer, compressed buffers decompressed (the walk's baseline)
//   walk        reader::next over every record, in timestamp order (decompression included)
//   dispatch_records  dispatch(record_stream, on<"SampledProfile">, on<"StackWalk">, on<"CSwitch">), each
//               a trivial sum: every record as it is, a StackWalk record to its own handler
//   stream      event_stream over the reader, stacks attached (resolved by a stack_cache built beforehand)
//   dispatch    the same dispatch over event_stream: each event with its stack
// Inputs: the real trace (tests/trace/data/net.4.5.2.x86.etl, compressed), a generated profiler trace of
// 212 MiB (uncompressed) and one of 48 MiB of compressed buffers (tests/trace/support/trace_writer.hpp,
// deterministic). Every row reports the same byte count (the decompressed record data: each buffer from
// its first byte to its end of data, header included) and the same event count (the records the walk
// reads), so ratios of rates are ratios of times:
//   bytes_per_second   decompressed bytes / s (decompress: bytes of output)
//   events_per_second  records / s
//   time_per_event     s per record (shown as ns)
// Rates are per CPU second (Google Benchmark's default), which a shared machine disturbs least.
//
//   etwctl_bench_trace --benchmark_repetitions=5 --benchmark_counters_tabular=true   (scripts/bench_trace.sh)
//   valgrind --tool=callgrind --collect-atstart=no etwctl_bench_trace --ir CASE INPUT
// The --ir mode builds INPUT (real, small, small_compressed, plain, compressed), runs CASE once uncounted,
// then once between callgrind's collection toggles, and prints "records N bytes B ... sum S fallbacks F":
// instructions per event = the dump's total / N, deterministic beside the noisy times; S, the case's
// checksum, is the same before and after a library change that keeps behaviour; F, for stream and dispatch,
// the windows the reader's stack index could not hold (read record by record instead).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench_cli.hpp"
#include "etwctl/trace.hpp"
#include "trace_writer.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define ETWCTL_BENCH_HAVE_CALLGRIND 1
#else
#define ETWCTL_BENCH_HAVE_CALLGRIND 0
#endif

namespace {

namespace trace = etwctl::trace;

/// One trace, in memory, with everything the benchmarks need prepared outside the timed loops.
struct input {
    std::string name;
    std::vector<std::byte> file;
    trace::trace_file tf;
    std::vector<std::byte> storage;                  // the reader's storage (reader::storage_size)
    std::vector<std::uint64_t> order;                // the hand-written walk's buffers by processor
    std::vector<std::byte> hand_scratch;             // its decompression scratch, one per cursor
    std::vector<std::byte> decompressed;             // every compressed buffer, decompressed once
    std::vector<trace::bytes_view> buffers;          // each buffer's data, as the reader reads it
    struct compressed_buffer {
        trace::bytes_view stream;                    // the buffer's bytes after its 72-byte header
        std::size_t size = 0;                        // SavedOffset - 72: the decompressed size
    };
    std::vector<compressed_buffer> compressed;
    std::size_t max_decompressed = 0;
    std::uint64_t data_bytes = 0;                    // sum of buffers' sizes
    std::uint64_t output_bytes = 0;                  // sum of compressed buffers' decompressed sizes
    std::uint64_t records = 0;                       // what the walk reads
    std::uint64_t events = 0;                        // what event_stream delivers
    std::uint64_t typed = 0;                         // what the three typed handlers receive
    std::uint64_t typed_records = 0;                 // the same, each record as it is (record_stream)
    std::vector<trace::stack_cache::definition> definitions;
    std::vector<trace::stack_cache::reference> references;
    std::vector<std::byte> frames;
    trace::stack_cache cache;
    bool ok = false;
    std::string why;
};

std::vector<std::byte> read_file(char const* path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return {};
    std::vector<char> chars((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<std::byte> out(chars.size());
    if (!chars.empty()) std::memcpy(out.data(), chars.data(), chars.size());
    return out;
}

// ---- the measured loops (not inlined: one function per case for callgrind and for reading the code) ----

struct outcome {
    std::uint64_t count = 0;
    std::uint64_t sum = 0;
    std::uint64_t fallbacks = 0; // windows the reader's stack index could not hold (stream, dispatch)
};

std::uint64_t load_u64(std::byte const* p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

/// The physical limit: adds every byte of every buffer, 8 bytes at a time into four independent
/// accumulators (the compiler may keep them in vector registers), the tail of each buffer byte by byte.
[[gnu::noinline]] outcome touch_every_byte(std::span<trace::bytes_view const> buffers) noexcept {
    std::uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    std::uint64_t bytes = 0;
    for (auto const b : buffers) {
        auto const* p = b.data();
        std::size_t const n = b.size();
        std::size_t i = 0;
        for (; n - i >= 32; i += 32) {
            a0 += load_u64(p + i);
            a1 += load_u64(p + i + 8);
            a2 += load_u64(p + i + 16);
            a3 += load_u64(p + i + 24);
        }
        for (; i < n; ++i) a0 += std::to_integer<std::uint8_t>(p[i]);
        bytes += n;
    }
    return {bytes, a0 + a1 + a2 + a3};
}

/// Every compressed buffer into one scratch buffer (the reader decompresses into a few slots per processor).
[[gnu::noinline]] outcome decompress_all(input const& in, std::span<std::byte> scratch) noexcept {
    outcome o;
    for (auto const& c : in.compressed) {
        auto const r = trace::decompress_plain_lz77(c.stream, scratch.first(c.size));
        o.count += r.written;
        o.sum += r ? 0U : 1U;
    }
    return o;
}

/// reader::next over every record.
[[gnu::noinline]] outcome walk(input& in) noexcept {
    trace::reader r(in.tf, in.storage);
    trace::event_ref e;
    outcome o;
    while (r.next(e)) {
        ++o.count;
        o.sum += e.rec.timestamp() + e.rec.payload().size();
    }
    return o;
}

/// The best hand-written walk for the same job: the buffers of each processor in file order, merged by
/// the head record's timestamp (a linear minimum over at most a few processors), each record's header
/// type, size and timestamp read and checked against its buffer (a record that breaks a rule ends its
/// buffer), no decoded record handed out.
/// Per header-type byte: the header's fixed size (0: not a record type), the timestamp's offset, and
/// where the size field is (SYSTEM / PERFINFO headers at 4, the others at 0).
struct hand_type {
    std::uint8_t fixed = 0, ts_at = 0, size_shift = 0;
    bool perfinfo = false;
};
struct hand_types {
    hand_type at[256];
};
constexpr hand_types make_hand_types() {
    hand_types t{};
    for (unsigned b : {0x01U, 0x02U}) t.at[b] = {0x20, 0x10, 32, false};
    for (unsigned b : {0x03U, 0x04U}) t.at[b] = {0x18, 0x10, 32, false};
    for (unsigned b : {0x10U, 0x11U}) t.at[b] = {0x10, 0x08, 32, true};
    for (unsigned b : {0x0AU, 0x14U, 0x0BU, 0x15U, 0x12U, 0x13U}) t.at[b] = {0x18, 0x10, 0, false};
    return t;
}
constexpr hand_types hand_type_table = make_hand_types();

struct hand_cursor {
    std::byte const* p = nullptr;
    std::byte const* end = nullptr;
    std::byte* scratch = nullptr; // where its compressed buffers are decompressed
    std::uint32_t size = 0;
    std::uint32_t buffer = 0; // the index of its next buffer in `order`
    std::uint32_t last = 0;
};
/// Reads the record at c.p (its size into c.size, its timestamp into ts); false at the end of the buffer's
/// records or at a record that breaks a rule (the buffer's rest is skipped).
inline bool hand_read(hand_cursor& c, std::uint64_t& ts) noexcept {
    std::size_t const left = static_cast<std::size_t>(c.end - c.p);
    if (left >= 8) {
        std::uint64_t const w = load_u64(c.p);
        auto const& t = hand_type_table.at[(w >> 16) & 0xFF];
        std::uint32_t const size = static_cast<std::uint32_t>((w >> t.size_shift) & 0xFFFF);
        std::uint32_t const fixed = t.fixed + (t.perfinfo ? 8U * static_cast<std::uint32_t>(((w >> 8) & 7) + ((w >> 15) & 1)) : 0U);
        if ((w & 0xC0000000U) == 0xC0000000U && (w & 0xFFFFFFFFU) != 0xFFFFFFFFU && t.fixed != 0 && size >= fixed && size <= left) {
            ts = load_u64(c.p + t.ts_at);
            c.size = size;
            return true;
        }
    }
    c.p = c.end;
    return false;
}
/// Moves the cursor to its next readable record in its next buffers (each checked, a compressed one
/// decompressed into the cursor's scratch); false when it has none. Out of line: once per buffer.
[[gnu::noinline]] bool hand_refill(trace::bytes_view file, std::span<std::uint64_t const> order, std::size_t slot, hand_cursor& c, std::uint64_t& ts) noexcept {
    for (;;) {
        if (c.buffer == c.last) return false;
        auto const o = order[c.buffer++];
        trace::buffer_header const h(file.subspan(o));
        std::size_t const end = h.data_end();
        if (end < trace::buffer_header_size) continue;
        if (!h.compressed()) {
            if (end > h.buffer_size()) continue;
            c.p = file.data() + o + trace::buffer_header_size, c.end = file.data() + o + end;
            if (hand_read(c, ts)) return true;
            continue;
        }
        std::size_t const want = end - trace::buffer_header_size;
        if (want > slot) continue;
        auto const r = trace::decompress_plain_lz77(file.subspan(o + trace::buffer_header_size, h.buffer_size() - trace::buffer_header_size),
                                                    std::span<std::byte>(c.scratch, want));
        if (!r || r.written != want) continue;
        c.p = c.scratch, c.end = c.scratch + want;
        if (hand_read(c, ts)) return true;
    }
}
/// The cursor's next record: in its buffer, in line; else in its next buffers.
inline bool hand_fetch(trace::bytes_view file, std::span<std::uint64_t const> order, std::size_t slot, hand_cursor& c, std::uint64_t& ts) noexcept {
    if (c.p != c.end && hand_read(c, ts)) return true;
    return hand_refill(file, order, slot, c, ts);
}
/// The best hand-written walk for the same job: the file's buffers indexed by processor (one pass over
/// their headers), each processor's buffers in file order (a compressed one decompressed as it is
/// reached), merged by the head record's timestamp (the earliest of a few processors found without a
/// branch; a processor runs on while its records come first); each record's header type, size and
/// timestamp read and checked against its buffer. No record decoded further, no fault reported.
[[gnu::noinline]] outcome hand_walk(input& in) noexcept {
    constexpr std::size_t max_cursors = 8; // the header buffer's, then the processors' (modulo 7)
    auto const file = trace::bytes_view(in.file);
    std::uint32_t counts[max_cursors] = {};
    std::size_t n = 0;
    auto const cursor_of = [&](trace::buffer_header const& h) { return n == 0 ? 0 : h.processor() % (max_cursors - 1) + 1; };
    for (std::uint64_t o = 0; trace::buffer_header::fits(file, o); ++n) {
        trace::buffer_header const h(file.subspan(o));
        if (h.buffer_size() < trace::buffer_header_size || h.buffer_size() > file.size() - o) break;
        ++counts[cursor_of(h)];
        o += h.buffer_size();
    }
    std::uint32_t start[max_cursors + 1] = {};
    for (std::size_t k = 0; k < max_cursors; ++k) start[k + 1] = start[k] + counts[k];
    std::uint32_t fill[max_cursors];
    std::copy(start, start + max_cursors, fill);
    std::size_t const buffers = n;
    n = 0;
    for (std::uint64_t o = 0; n < buffers; ++n) {
        trace::buffer_header const h(file.subspan(o));
        in.order[fill[cursor_of(h)]++] = o;
        o += h.buffer_size();
    }
    hand_cursor cur[max_cursors];
    std::uint64_t ts[max_cursors];
    std::size_t live = 0;
    std::size_t const slot = in.max_decompressed;
    for (std::size_t k = 0; k < max_cursors; ++k) {
        hand_cursor c;
        c.buffer = start[k], c.last = start[k + 1];
        c.scratch = in.hand_scratch.data() + k * slot;
        if (hand_fetch(file, in.order, slot, c, ts[live])) {
            if (k == 0) ts[live] = 0; // the header buffer first
            cur[live++] = c;
        }
    }
    outcome o;
    while (live != 0) {
        std::size_t best = 0;
        for (std::size_t k = 1; k < live; ++k) best = ts[k] < ts[best] ? k : best;
        // the others' earliest: the chosen cursor runs on while its records come before it
        std::uint64_t other = ~std::uint64_t{0};
        for (std::size_t k = 0; k < live; ++k) other = k != best && ts[k] < other ? ts[k] : other;
        auto& c = cur[best];
        std::uint64_t t = ts[best];
        bool more = true;
        do {
            ++o.count;
            o.sum += t + c.size;
            c.p += (c.size + 7U) & ~7U;
            if (c.p > c.end) c.p = c.end;
            more = hand_fetch(file, in.order, slot, c, t);
        } while (more && t < other);
        if (more) ts[best] = t;
        else --live, cur[best] = cur[live], ts[best] = ts[live];
    }
    return o;
}

/// event_stream over the reader: every event with its stack attached.
[[gnu::noinline]] outcome stream(input& in) noexcept {
    trace::reader r(in.tf, in.storage);
    trace::event_stream s(r, &in.cache);
    trace::event e;
    outcome o;
    while (s.next(e)) {
        ++o.count;
        o.sum += e.timestamp() + e.stack().size();
    }
    o.fallbacks = r.look_ahead_fallbacks();
    return o;
}

/// The typed dispatch of the profiler's three events, each handler a trivial sum.
[[gnu::noinline]] outcome typed_dispatch(input& in) noexcept {
    trace::reader r(in.tf, in.storage);
    trace::event_stream s(r, &in.cache);
    std::uint64_t sum = 0;
    auto const rep = trace::dispatch(
        s, trace::on<"SampledProfile">([&](trace::sampled_profile const& e) { sum += e.instruction_pointer() + e.stack().size(); }),
        trace::on<"StackWalk">([&](trace::stack_walk_event const& e) { sum += e.frame_count(); }),
        trace::on<"CSwitch">([&](trace::cswitch const& e) { sum += e.new_thread_id() + e.pmc().size(); }));
    return {rep.typed, sum, r.look_ahead_fallbacks()};
}

/// The same typed dispatch over record_stream: each record as it is (StackWalk records to their own
/// handler), no stack attached to another event.
[[gnu::noinline]] outcome typed_dispatch_records(input& in) noexcept {
    trace::reader r(in.tf, in.storage);
    trace::record_stream s(r);
    std::uint64_t sum = 0;
    auto const rep = trace::dispatch(
        s, trace::on<"SampledProfile">([&](trace::sampled_profile const& e) { sum += e.instruction_pointer() + e.stack().size(); }),
        trace::on<"StackWalk">([&](trace::stack_walk_event const& e) { sum += e.frame_count(); }),
        trace::on<"CSwitch">([&](trace::cswitch const& e) { sum += e.new_thread_id() + e.pmc().size(); }));
    return {rep.typed, sum, 0};
}

// ---- inputs ------------------------------------------------------------------------------------------

/// Indexes the buffers, decompresses the compressed ones once, builds the stack cache (a first pass, as
/// a profiler does) and counts what every case must find.
void prepare(input& in) {
    auto const file = trace::bytes_view(in.file);
    trace::fault why;
    auto opened = trace::trace_file::open(file, &why);
    if (!opened) {
        in.why = "the trace does not open";
        return;
    }
    in.tf = *opened;
    // the buffers, in file order; each one's data as the reader sees it
    std::size_t total_decompressed = 0;
    for (std::uint64_t o = 0; trace::buffer_header::fits(file, o);) {
        trace::buffer_header const b(file.subspan(o));
        if (b.buffer_size() < trace::buffer_header_size || b.buffer_size() > file.size() - o) break;
        if (b.compressed()) total_decompressed += b.data_end();
        o += b.buffer_size();
    }
    in.decompressed.resize(total_decompressed);
    std::size_t at = 0;
    for (std::uint64_t o = 0; trace::buffer_header::fits(file, o);) {
        trace::buffer_header const b(file.subspan(o));
        if (b.buffer_size() < trace::buffer_header_size || b.buffer_size() > file.size() - o) break;
        auto const raw = file.subspan(o, b.buffer_size());
        std::size_t const end = b.data_end();
        if (b.compressed()) {
            std::size_t const size = end - trace::buffer_header_size;
            in.compressed.push_back({raw.subspan(trace::buffer_header_size), size});
            in.max_decompressed = (std::max)(in.max_decompressed, size);
            in.output_bytes += size;
            auto const out = std::span<std::byte>(in.decompressed).subspan(at, end);
            std::memcpy(out.data(), raw.data(), trace::buffer_header_size);
            auto const r = trace::decompress_plain_lz77(raw.subspan(trace::buffer_header_size), out.subspan(trace::buffer_header_size));
            if (!r || r.written != size) {
                in.why = "a compressed buffer does not decompress";
                return;
            }
            in.buffers.push_back(out);
            at += end;
        } else {
            in.buffers.push_back(raw.first((std::min)(end, raw.size())));
        }
        in.data_bytes += in.buffers.back().size();
        o += b.buffer_size();
    }
    in.storage.resize(trace::reader::storage_size(in.tf));
    in.order.resize(in.buffers.size());
    in.hand_scratch.resize(8 * in.max_decompressed);

    // the stack cache: count the definitions, then copy them (two passes, outside every timed loop)
    trace::stack_cache::needs needs;
    {
        trace::reader r(in.tf, in.storage);
        trace::event_ref e;
        while (r.next(e)) {
            needs.census(e.rec);
            ++in.records;
        }
        if (r.losses().any()) {
            in.why = "the reader reports lost data or faults";
            return;
        }
    }
    in.definitions.resize(needs.definitions);
    in.references.resize(needs.references);
    in.frames.resize(needs.frame_bytes);
    in.cache = trace::stack_cache(in.definitions, in.references, in.frames);
    {
        trace::reader r(in.tf, in.storage);
        trace::event_ref e;
        while (r.next(e)) in.cache.add(e);
        in.cache.finish();
    }
    in.events = stream(in).count;
    in.typed = typed_dispatch(in).count;
    in.typed_records = typed_dispatch_records(in).count;
    in.ok = true;
}

/// Fills `in` in place (its spans point into its own vectors: it is never moved).
void make_input(input& in, std::string const& name) {
    in.name = name;
    etwctl_test::trace_options o;
    if (name == "real") {
        in.file = read_file(ETWCTL_TRACE_DATA "/net.4.5.2.x86.etl");
        if (in.file.empty()) {
            in.why = "cannot read " ETWCTL_TRACE_DATA "/net.4.5.2.x86.etl";
            return;
        }
    } else if (name == "plain") {
        in.file = etwctl_test::generate_profile_trace(std::size_t{212} << 20, o, 1).file;
    } else if (name == "compressed") {
        o.compress = true;
        in.file = etwctl_test::generate_profile_trace(std::size_t{48} << 20, o, 2).file;
    } else if (name == "small") { // for callgrind: the generated trace's shape, small enough to run under it
        in.file = etwctl_test::generate_profile_trace(std::size_t{16} << 20, o, 1).file;
    } else if (name == "small_compressed") {
        o.compress = true;
        in.file = etwctl_test::generate_profile_trace(std::size_t{4} << 20, o, 2).file;
    } else {
        in.why = "unknown input " + name;
        return;
    }
    prepare(in);
}

/// Each input is built once, when a benchmark first needs it (a filter that skips it never pays for it).
input& get(std::string const& name) {
    static std::map<std::string, std::unique_ptr<input>> inputs;
    auto& slot = inputs[name];
    if (!slot) {
        slot = std::make_unique<input>();
        make_input(*slot, name);
    }
    return *slot;
}

// ---- the benchmarks ----------------------------------------------------------------------------------

enum class kind { touch, decompress, hand_walk, walk, dispatch_records, stream, dispatch };
constexpr std::string_view kind_name(kind k) {
    switch (k) {
    case kind::touch: return "touch";
    case kind::decompress: return "decompress";
    case kind::hand_walk: return "hand_walk";
    case kind::walk: return "walk";
    case kind::dispatch_records: return "dispatch_records";
    case kind::stream: return "stream";
    case kind::dispatch: return "dispatch";
    }
    return "?";
}

/// Runs one case once; false (with the reason) when it did not read what the preparation counted. `sum`
/// gets the case's checksum (what its loop added up: the same for a library change that keeps behaviour).
bool run_case(kind k, input& in, std::vector<std::byte>& scratch, std::string& why, std::uint64_t& sum, std::uint64_t* fallbacks = nullptr) {
    outcome o;
    std::uint64_t expected = 0;
    switch (k) {
    case kind::touch: o = touch_every_byte(in.buffers), expected = in.data_bytes; break;
    case kind::decompress: o = decompress_all(in, scratch), expected = in.output_bytes; break;
    case kind::hand_walk: o = hand_walk(in), expected = in.records; break;
    case kind::walk: o = walk(in), expected = in.records; break;
    case kind::dispatch_records: o = typed_dispatch_records(in), expected = in.typed_records; break;
    case kind::stream: o = stream(in), expected = in.events; break;
    case kind::dispatch: o = typed_dispatch(in), expected = in.typed; break;
    }
    benchmark::DoNotOptimize(o.sum);
    sum = o.sum;
    if (fallbacks) *fallbacks = o.fallbacks;
    if (o.count != expected || (k == kind::decompress && o.sum != 0))
        why = std::string(kind_name(k)) + ": read " + std::to_string(o.count) + ", expected " + std::to_string(expected);
    return why.empty();
}

void bench(benchmark::State& state, kind k, std::string const& name) {
    input& in = get(name);
    if (!in.ok) {
        state.SkipWithError(in.why.c_str());
        return;
    }
    std::vector<std::byte> scratch(k == kind::decompress ? in.max_decompressed : 0);
    std::string why;
    std::uint64_t sum = 0;
    for (auto _ : state)
        if (!run_case(k, in, scratch, why, sum)) {
            state.SkipWithError(why.c_str());
            break;
        }
    double const bytes = static_cast<double>(k == kind::decompress ? in.output_bytes : in.data_bytes);
    double const records = static_cast<double>(in.records);
    using C = benchmark::Counter;
    state.counters["bytes_per_second"] = C(bytes, C::kIsIterationInvariantRate);
    state.counters["events_per_second"] = C(records, C::kIsIterationInvariantRate);
    state.counters["time_per_event"] = C(records, C::kIsIterationInvariantRate | C::kInvert);
    state.counters["bytes"] = bytes;
    state.counters["events"] = records;
    state.counters["stream_events"] = static_cast<double>(in.events);
    state.counters["typed_events"] = static_cast<double>(in.typed);
    state.counters["file_bytes"] = static_cast<double>(in.file.size());
}

void register_all() {
    struct row {
        char const* input;
        bool compressed;
    };
    constexpr row inputs[] = {{"real", true}, {"plain", false}, {"compressed", true}};
    for (auto const& r : inputs)
        for (kind k : {kind::touch, kind::decompress, kind::hand_walk, kind::walk, kind::dispatch_records, kind::stream, kind::dispatch}) {
            if (k == kind::decompress && !r.compressed) continue;
            std::string const name = std::string(kind_name(k)) + "/" + r.input;
            benchmark::RegisterBenchmark(name.c_str(), [k, in = std::string(r.input)](benchmark::State& s) { bench(s, k, in); })
                ->Unit(benchmark::kMillisecond);
        }
}

/// --ir CASE INPUT: one uncounted run, then one between callgrind's collection toggles.
int instructions(std::string_view case_name, std::string const& input_name) {
    kind k{};
    bool found = false;
    for (kind c : {kind::touch, kind::decompress, kind::hand_walk, kind::walk, kind::dispatch_records, kind::stream, kind::dispatch})
        if (kind_name(c) == case_name) k = c, found = true;
    if (!found) {
        std::fprintf(stderr, "unknown case %.*s\n", static_cast<int>(case_name.size()), case_name.data());
        return 2;
    }
    input& in = get(input_name);
    if (!in.ok) {
        std::fprintf(stderr, "%s: %s\n", input_name.c_str(), in.why.c_str());
        return 1;
    }
    std::vector<std::byte> scratch(in.max_decompressed);
    std::string why;
    std::uint64_t sum = 0;
    bool ok = run_case(k, in, scratch, why, sum); // warm-up, not counted
#if ETWCTL_BENCH_HAVE_CALLGRIND
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
#endif
    std::uint64_t fallbacks = 0;
    ok = run_case(k, in, scratch, why, sum, &fallbacks) && ok;
#if ETWCTL_BENCH_HAVE_CALLGRIND
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT((std::string(case_name) + "/" + input_name).c_str());
#endif
    if (!ok) {
        std::fprintf(stderr, "%s\n", why.c_str());
        return 1;
    }
    std::printf("records %llu bytes %llu output_bytes %llu events %llu typed %llu sum %llu fallbacks %llu\n",
                static_cast<unsigned long long>(in.records), static_cast<unsigned long long>(in.data_bytes),
                static_cast<unsigned long long>(in.output_bytes), static_cast<unsigned long long>(in.events),
                static_cast<unsigned long long>(in.typed), static_cast<unsigned long long>(sum), static_cast<unsigned long long>(fallbacks));
    return 0;
}

} // namespace

int main(int argc, char** argv) { return etwctl_bench::trace_bench_main(argc, argv, &instructions, &register_all); }
