// The trace reader (etwctl/trace/format.hpp, reader.hpp, events.hpp) on traces the test writer
// (support/trace_writer.hpp) writes in Windows' byte layout: what the real files in tests/trace/data do not
// hold. 32-bit sessions and 32-bit records in 64-bit ones, every record header kind and every extended
// data item, WPP messages, lost data, the four clock types, the merge in time order (4 processors,
// interleaved buffers, equal timestamps, circular files, processors above 255), compressed traces, and
// the typed dispatch with stacks (StackWalk records and stack-cache keys) and PMC counters.
//
// Every expectation comes from what the test wrote: values it passed to the writer, offsets it computes
// from the published layouts (Chappell's WMI_BUFFER_HEADER and trace headers, SDK evntcons.h), times it
// computes from the header's clock parameters with its own arithmetic, and, for the generated profile
// traces, frames and counters read back here from the file's bytes with fixed offsets. The code under test
// never computes an expected value.
#include "etwctl_test.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "etwctl/trace.hpp"
#include "lz77_compress.hpp"
#include "stack_cache_fixture.hpp"
#include "trace_writer.hpp"

namespace reader_tests {

namespace tr = etwctl::trace;
namespace tw = etwctl_test;
using byte_vector = std::vector<std::byte>;
using byte_view = std::span<std::byte const>;

/// WMI_BUFFER_HEADER's size (Chappell, "WMI_BUFFER_HEADER"): the first record of a buffer starts here.
constexpr std::size_t rt_buffer_header = 0x48;
/// The hook the tagged records of these tests carry: a group no kernel table names, so nothing types it.
constexpr std::uint16_t rt_tag_hook = 0x4242;

constexpr std::size_t rt_align8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }

/// A little-endian value at `off` (the test's own reading: fixed offsets only).
template <class T>
T rt_le(byte_view b, std::size_t off) {
    if (off > b.size() || b.size() - off < sizeof(T)) {
        FAIL_CHECK("the test read past the end, at " << off);
        return T{};
    }
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t{std::to_integer<std::uint8_t>(b[off + i])} << (8 * i);
    return static_cast<T>(v);
}
/// A pointer-size value (4 or 8 bytes) at `off`.
inline std::uint64_t rt_ptr(byte_view b, std::size_t off, std::uint8_t p) {
    return p == 4 ? rt_le<std::uint32_t>(b, off) : rt_le<std::uint64_t>(b, off);
}

/// `n` bytes first, first + 1, ... (never all zero: padding and fill stand out).
inline byte_vector rt_pattern(std::size_t n, unsigned first) {
    byte_vector out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>((first + i) % 251 + 1);
    return out;
}
/// A payload of little-endian u32 values.
inline byte_vector rt_u32s(std::initializer_list<std::uint32_t> values) {
    byte_vector out;
    for (auto v : values)
        for (std::size_t i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xFFU));
    return out;
}
inline bool rt_same(byte_view a, byte_view b) { return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin()); }

inline etwctl::guid rt_guid(std::uint32_t n) {
    return {n, 0xA1B2, 0xC3D4, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, static_cast<std::uint8_t>(n & 0xFF)};
}
inline bool rt_guid_is(etwctl::guid const& a, etwctl::guid const& b) {
    return a.data1 == b.data1 && a.data2 == b.data2 && a.data3 == b.data3 && std::equal(std::begin(a.data4), std::end(a.data4), std::begin(b.data4));
}

/// A finished trace and what the writer says it wrote.
struct rt_trace {
    byte_vector file;
    tw::trace_counts counts;
};
inline rt_trace rt_finish(tw::trace_writer& w) {
    rt_trace t;
    t.file = w.finish();
    t.counts = w.counts();
    return t;
}

/// Every record of a file as the reader delivers it. The record views point into `file` for an uncompressed
/// trace (the file must outlive them); for a compressed one only the copies in `bytes` stay valid.
struct rt_read {
    bool opened = false;
    std::vector<tr::event_ref> refs;
    std::vector<byte_vector> bytes;
    tr::loss_report losses{};
    tr::fault first{};
    std::size_t buffers = 0, streams = 0;
};
inline rt_read rt_read_all(byte_view file) {
    rt_read out;
    auto f = tr::trace_file::open(file);
    if (!f) return out;
    out.opened = true;
    byte_vector storage(tr::reader::storage_size(*f));
    tr::reader r(*f, storage);
    tr::event_ref e;
    while (r.next(e)) {
        out.refs.push_back(e);
        out.bytes.emplace_back(e.rec.bytes().begin(), e.rec.bytes().end());
    }
    out.losses = r.losses();
    out.first = r.first_fault();
    out.buffers = r.buffer_count();
    out.streams = r.stream_count();
    return out;
}

/// Where a record starts in the file: the file offset of the buffer, 0x48, then the records before it in
/// that buffer, each rounded up to 8 bytes (Chappell, "Trace Headers": 8-byte alignment).
inline std::size_t rt_record_offset(std::size_t buffer_offset, std::span<std::size_t const> sizes_before) {
    std::size_t at = buffer_offset + rt_buffer_header;
    for (auto s : sizes_before) at += rt_align8(s);
    return at;
}

/// The record is the file's bytes at `offset`, `size` long: a view, not a copy, and byte for byte what was written.
inline void rt_check_place(tr::record const& r, byte_view file, std::size_t offset, std::size_t size) {
    CHECK(r.bytes().data() == file.data() + offset);
    CHECK(r.bytes().size() == size);
}

/// The id a tagged record carries (its payload's first u32): tagged records are SYSTEM64 records of
/// rt_tag_hook, so the payload starts at 0x20.
inline std::uint32_t rt_tag_of(byte_view rec) { return rt_le<std::uint32_t>(rec, 0x20); }

/// One tagged record as written: its processor, timestamp and id.
struct rt_tagged {
    std::uint16_t cpu = 0;
    std::uint64_t ts = 0;
    std::uint32_t id = 0;
};
inline void rt_put_tagged(tw::trace_writer& w, std::vector<rt_tagged>& log, std::uint16_t cpu, std::uint64_t ts) {
    auto const id = static_cast<std::uint32_t>(log.size() + 1);
    w.system(cpu, {.hook = rt_tag_hook, .version = 1, .tid = 100U + cpu, .pid = 4, .ts = ts}, rt_u32s({id, cpu}));
    log.push_back({cpu, ts, id});
}
/// The order the reader must deliver tagged records in: by timestamp, then by processor (the lower first),
/// then as written on that processor.
inline std::vector<rt_tagged> rt_time_order(std::vector<rt_tagged> log) {
    std::stable_sort(log.begin(), log.end(), [](rt_tagged const& a, rt_tagged const& b) {
        return a.ts != b.ts ? a.ts < b.ts : a.cpu < b.cpu;
    });
    return log;
}
/// The tagged records a reading delivered, in order, after the header buffer's records.
inline std::vector<rt_tagged> rt_tags_read(rt_read const& got) {
    std::vector<rt_tagged> out;
    for (std::size_t i = 0; i < got.refs.size(); ++i) {
        if (got.refs[i].rec.hook().value != rt_tag_hook) continue;
        out.push_back({got.refs[i].processor, got.refs[i].rec.timestamp(), rt_tag_of(got.bytes[i])});
    }
    return out;
}
inline bool rt_same_tags(std::vector<rt_tagged> const& a, std::vector<rt_tagged> const& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].cpu != b[i].cpu || a[i].ts != b[i].ts || a[i].id != b[i].id) return false;
    return true;
}
inline std::string rt_tags_text(std::vector<rt_tagged> const& v) {
    std::string s;
    for (auto const& t : v) { // appended piece by piece: "(" + std::string&& trips g++ 12's -Wrestrict at -O3
        s += '(';
        s += std::to_string(t.cpu);
        s += ',';
        s += std::to_string(t.ts);
        s += ",#";
        s += std::to_string(t.id);
        s += ')';
    }
    return s;
}

/// floor(a * b / d) in exact 128-bit arithmetic built from 32-bit limbs and a bitwise long division:
/// the test's own conversion of clock ticks, independent of the reader's.
inline std::uint64_t rt_mul_div(std::uint64_t a, std::uint64_t b, std::uint64_t d) {
    std::uint64_t const a_lo = a & 0xFFFFFFFFU, a_hi = a >> 32, b_lo = b & 0xFFFFFFFFU, b_hi = b >> 32;
    std::uint64_t const ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
    std::uint64_t const mid = (ll >> 32) + (lh & 0xFFFFFFFFU) + (hl & 0xFFFFFFFFU);
    std::uint64_t const lo = (ll & 0xFFFFFFFFU) | (mid << 32);
    std::uint64_t const hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    std::uint64_t q = 0, rem = 0;
    for (int bit = 127; bit >= 0; --bit) {
        bool const carry = (rem >> 63) != 0;
        std::uint64_t const next = bit >= 64 ? (hi >> (bit - 64)) & 1U : (lo >> bit) & 1U;
        rem = (rem << 1) | next;
        if (carry || rem >= d) {
            rem -= d;
            if (bit < 64) q |= std::uint64_t{1} << bit;
        }
    }
    return q;
}

// ---- pointer sizes -------------------------------------------------------------------------------------

TEST_CASE("reader: a 32-bit session: the header event's 32-bit form, SYSTEM32 and PERFINFO32 records, 4-byte frames") {
    tw::trace_options o;
    o.pointer_size = 4;
    o.processors = 2;
    o.perf_freq = 3'579'545;
    o.cpu_mhz = 2808;
    o.events_lost = 0;
    o.logger_name = u"NT Kernel Logger";
    o.log_file_name = u"C:\\x86.etl";
    tw::trace_writer w(o);
    tw::thread_fields tf;
    tf.pid = 0x1F0, tf.tid = 0x2A4, tf.stack_base = 0x8F001000, tf.stack_limit = 0x8EFFB000, tf.user_stack_base = 0x00230000;
    tf.user_stack_limit = 0x00220000, tf.affinity = 3, tf.win32_start_addr = 0x00401234, tf.teb_base = 0x7FFDF000;
    w.system(0, {.hook = tw::hook::thread_dc_start, .version = 3, .tid = 0x2A4, .pid = 0x1F0, .ts = 1'000'100}, tw::thread_payload(4, tf), true);
    std::uint64_t const frames[] = {0x80401234, 0x80402345, 0x8BADF00D, 0x00401000, 0x7C801234};
    w.perfinfo(1, tw::hook::sampled_profile, 2, 1'000'200, tw::sampled_profile_payload(4, frames[0], 0x2A4, 1, 8 << 3), {}, {}, true);
    w.perfinfo(1, tw::hook::stack_walk, 2, 1'000'201, tw::stack_walk_payload(4, 1'000'200, 0x1F0, 0x2A4, frames), {}, {}, true);
    auto const t = rt_finish(w);

    auto f = tr::trace_file::open(t.file);
    REQUIRE(f.has_value());
    if (!f) return;
    CHECK(f->pointer_size() == 4);
    auto const& hr = f->header_record();
    CHECK(hr.header_type() == tr::header_type::system32);
    CHECK(hr.kind() == tr::record_kind::system);
    CHECK(hr.pointer_size() == 4);
    CHECK(hr.version() == 2);
    CHECK(hr.hook().value == 0);
    CHECK(hr.thread_id() == o.header_tid);
    CHECK(hr.process_id() == o.header_pid);
    CHECK(hr.timestamp() == o.header_timestamp);
    // the 32-bit TRACE_LOGFILE_HEADER: 0x110 bytes before the names (GC), then the two UTF-16 names
    CHECK(hr.payload().size() == 0x110 + 2 * (o.logger_name.size() + 1) + 2 * (o.log_file_name.size() + 1));
    auto const& h = f->header();
    CHECK(h.pointer_size() == 4);
    CHECK(h.buffer_size() == o.buffer_size);
    CHECK(h.number_of_processors() == 2);
    CHECK(h.perf_freq() == o.perf_freq);
    CHECK(h.cpu_speed_mhz() == o.cpu_mhz);
    CHECK(h.start_time() == o.start_time);
    CHECK(h.boot_time() == o.boot_time);
    CHECK(h.time_zone_bias() == o.time_zone_bias);
    CHECK(h.reserved_flags() == o.clock_type);
    CHECK(h.log_file_mode() == o.log_file_mode);
    CHECK(h.provider_version() == o.provider_version);
    CHECK(h.buffers_written() == t.counts.buffers);
    CHECK(h.logger_name().equals_ascii("NT Kernel Logger"));
    CHECK(h.log_file_name().equals_ascii("C:\\x86.etl"));
    // EndTime: StartTime + (last timestamp - header timestamp) x 10^7 / PerfFreq, computed here
    CHECK(h.end_time() == o.start_time + rt_mul_div(1'000'201 - o.header_timestamp, 10'000'000, o.perf_freq));

    byte_vector storage(tr::reader::storage_size(*f));
    tr::reader r(*f, storage);
    tr::event_stream s(r);
    std::uint64_t threads = 0, samples = 0, others = 0;
    auto const rep = tr::dispatch(
        s,
        tr::on<"ThreadDCStart">([&](tr::thread_event const& e) {
            ++threads;
            CHECK(e.rec().header_type() == tr::header_type::system32);
            CHECK(e.rec().pointer_size() == 4);
            CHECK(e.process_id() == 0x1F0);
            CHECK(e.thread_id() == 0x2A4);
            CHECK(e.stack_base() == 0x8F001000);
            CHECK(e.stack_limit() == 0x8EFFB000);
            CHECK(e.user_stack_base() == 0x00230000);
            CHECK(e.user_stack_limit() == 0x00220000);
            CHECK(e.win32_start_addr() == 0x00401234);
            CHECK(e.teb_base() == 0x7FFDF000);
            CHECK(e.base_priority() == 8);
        }),
        tr::on<"SampledProfile">([&](tr::sampled_profile const& e) {
            ++samples;
            CHECK(e.rec().header_type() == tr::header_type::perfinfo32);
            CHECK(e.processor() == 1);
            CHECK(e.instruction_pointer() == frames[0]);
            CHECK(e.thread_id() == 0x2A4);
            CHECK(e.priority() == 8);
            REQUIRE(e.stack().size() == std::size(frames));
            for (std::size_t i = 0; i < std::size(frames); ++i) CHECK(e.stack()[i] == frames[i]);
            REQUIRE(e.stack().parts().size() == 1);
            CHECK(e.stack().parts()[0].pointer_size == 4);
            CHECK(e.stack().parts()[0].frames.size() == 4 * std::size(frames));
        }),
        tr::on_any([&](tr::event const& e) {
            auto const hook = e.rec().hook().value;
            if (hook != tw::hook::thread_dc_start && hook != tw::hook::sampled_profile) ++others;
        }));
    CHECK(threads == 1);
    CHECK(samples == 1);
    CHECK(others == 2); // the header event and the HeaderExtension; the StackWalk went with its sample
    CHECK(rep.events == 4);
    CHECK(rep.raw == 0);
    CHECK_FALSE(r.losses().any());
}

TEST_CASE("reader: 32-bit records inside a 64-bit trace keep their own pointer size") {
    tw::trace_writer w; // a 64-bit session
    tw::thread_fields tf;
    tf.pid = 0x10, tf.tid = 0x20, tf.stack_base = 0x8F001000, tf.win32_start_addr = 0x77001000, tf.teb_base = 0x7EFDD000;
    tw::thread_fields tf64 = tf;
    tf64.stack_base = 0xFFFFF68000001000ULL, tf64.win32_start_addr = 0x00007FF712340000ULL, tf64.teb_base = 0x000000A000001000ULL;
    w.system(0, {.hook = tw::hook::thread_dc_start, .version = 3, .tid = 0x20, .pid = 0x10, .ts = 1'000'010}, tw::thread_payload(4, tf), true);
    w.system(0, {.hook = tw::hook::thread_dc_start, .version = 3, .tid = 0x20, .pid = 0x10, .ts = 1'000'020}, tw::thread_payload(8, tf64), false);
    std::uint64_t const frames32[] = {0x77001234, 0x77005678, 0x00401000};
    w.perfinfo(0, tw::hook::sampled_profile, 2, 1'000'030, tw::sampled_profile_payload(4, frames32[0], 0x20), {}, {}, true);
    w.perfinfo(0, tw::hook::stack_walk, 2, 1'000'031, tw::stack_walk_payload(4, 1'000'030, 0x10, 0x20, frames32), {}, {}, true);
    w.full(0, {.event_guid = rt_guid(1), .type = 10, .level = 4, .version = 2, .tid = 0x20, .pid = 0x10, .ts = 1'000'040}, rt_pattern(12, 1), true);
    w.event(0, {.provider = rt_guid(2), .id = 7, .tid = 0x20, .pid = 0x10, .ts = 1'000'050}, {}, rt_pattern(9, 2), true);
    w.instance(0, {.event_guid = rt_guid(3), .ts = 1'000'060}, 1, 2, rt_guid(4), rt_pattern(3, 3), true);
    w.compact(0, {.hook = 0x0B0A, .ts = 1'000'070}, rt_pattern(5, 4), true);
    auto const t = rt_finish(w);

    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    REQUIRE(got.refs.size() == 2 + 8);
    std::uint8_t const types[] = {tr::header_type::system32,      tr::header_type::system64,       tr::header_type::perfinfo32,
                                  tr::header_type::perfinfo32,    tr::header_type::full_header32,  tr::header_type::event_header32,
                                  tr::header_type::instance32,    tr::header_type::compact32};
    std::uint8_t const sizes[] = {4, 8, 4, 4, 4, 4, 4, 4};
    for (std::size_t i = 0; i < std::size(types); ++i) {
        auto const& r = got.refs[2 + i].rec;
        INFO("record " << i);
        CHECK(r.header_type() == types[i]);
        CHECK(r.pointer_size() == sizes[i]);
    }

    auto f = tr::trace_file::open(t.file);
    REQUIRE(f.has_value());
    if (!f) return;
    CHECK(f->pointer_size() == 8);
    byte_vector storage(tr::reader::storage_size(*f));
    tr::reader r(*f, storage);
    tr::event_stream s(r);
    std::vector<std::uint64_t> starts;
    std::uint64_t samples = 0;
    tr::dispatch(s,
                 tr::on<"ThreadDCStart">([&](tr::thread_event const& e) {
                     starts.push_back(e.win32_start_addr());
                     CHECK(e.teb_base() == (e.rec().pointer_size() == 4 ? tf.teb_base : tf64.teb_base));
                     CHECK(e.stack_base() == (e.rec().pointer_size() == 4 ? tf.stack_base : tf64.stack_base));
                 }),
                 tr::on<"SampledProfile">([&](tr::sampled_profile const& e) {
                     ++samples;
                     CHECK(e.instruction_pointer() == frames32[0]);
                     REQUIRE(e.stack().size() == std::size(frames32));
                     for (std::size_t i = 0; i < std::size(frames32); ++i) CHECK(e.stack()[i] == frames32[i]);
                     CHECK(e.stack().parts()[0].pointer_size == 4);
                 }));
    REQUIRE(starts.size() == 2);
    CHECK(starts[0] == tf.win32_start_addr);
    CHECK(starts[1] == tf64.win32_start_addr);
    CHECK(samples == 1);
}

// ---- every header kind, read back field by field -------------------------------------------------------

TEST_CASE("reader: system and compact records in both pointer sizes, every accessor") {
    tw::trace_writer w;
    std::vector<std::size_t> sizes;
    auto const p0 = rt_pattern(0x1D, 10), p1 = rt_pattern(8, 20), p2 = rt_pattern(0, 0), p3 = rt_pattern(0x33, 30);
    sizes.push_back(w.system(
        0, {.hook = 0x0501, .version = 3, .tid = 0x11, .pid = 0x22, .ts = 2'000'000, .kernel_time = 0x33, .user_time = 0x44}, p0));
    sizes.push_back(w.system(0,
                             {.hook = 0x0F2E, .version = 0xFF, .tid = 0xFFFFFFFE, .pid = 0x7FFFFFFF, .ts = 2'000'001,
                              .kernel_time = 1, .user_time = 0xFFFFFFFF},
                             p1, true));
    sizes.push_back(w.compact(0, {.hook = 0x0524, .version = 2, .tid = 0x55, .pid = 0x66, .ts = 2'000'002}, p2));
    sizes.push_back(w.compact(0, {.hook = 0x1402, .version = 4, .tid = 0x77, .pid = 0x88, .ts = 2'000'003}, p3, true));
    auto const t = rt_finish(w);
    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    REQUIRE(got.refs.size() == 2 + 4);
    struct want {
        tr::record_kind kind;
        std::uint8_t type, p;
        std::uint16_t hook, version;
        std::uint32_t tid, pid, kt, ut;
        std::uint64_t ts;
        byte_view payload;
    } const wants[] = {
        {tr::record_kind::system, tr::header_type::system64, 8, 0x0501, 3, 0x11, 0x22, 0x33, 0x44, 2'000'000, p0},
        {tr::record_kind::system, tr::header_type::system32, 4, 0x0F2E, 0xFF, 0xFFFFFFFE, 0x7FFFFFFF, 1, 0xFFFFFFFF, 2'000'001, p1},
        {tr::record_kind::compact, tr::header_type::compact64, 8, 0x0524, 2, 0x55, 0x66, 0, 0, 2'000'002, p2},
        {tr::record_kind::compact, tr::header_type::compact32, 4, 0x1402, 4, 0x77, 0x88, 0, 0, 2'000'003, p3},
    };
    for (std::size_t i = 0; i < std::size(wants); ++i) {
        INFO("record " << i);
        auto const& r = got.refs[2 + i].rec;
        auto const& x = wants[i];
        rt_check_place(r, t.file, rt_record_offset(t.counts.buffer_offsets.at(1), std::span(sizes).first(i)), sizes[i]);
        CHECK(r.kind() == x.kind);
        CHECK(r.header_type() == x.type);
        CHECK(r.pointer_size() == x.p);
        CHECK(r.has_hook());
        CHECK(r.hook().value == x.hook);
        CHECK(r.version() == x.version);
        CHECK(r.thread_id() == x.tid);
        CHECK(r.process_id() == x.pid);
        CHECK(r.timestamp() == x.ts);
        CHECK(r.kernel_time() == x.kt);
        CHECK(r.user_time() == x.ut);
        CHECK(rt_same(r.payload(), x.payload));
        CHECK(r.pmc_count() == 0);
        CHECK_FALSE(r.has_pebs());
        CHECK(r.extended_items().empty());
        CHECK(got.refs[2 + i].processor == 0);
        CHECK(got.refs[2 + i].buffer_offset == t.counts.buffer_offsets.at(1));
    }
    // the header buffer's own records: the header event and the HeaderExtension, from the buffer at 0
    CHECK(got.refs[0].rec.hook().value == 0x0000);
    CHECK(got.refs[1].rec.hook().value == 0x0005);
    CHECK(got.refs[0].stream == 0);
    CHECK(got.refs[0].buffer_offset == 0);
    // SYSTEM64 header + the 64-bit TRACE_LOGFILE_HEADER (0x118 bytes, GC) + the two names with their NULs
    tw::trace_options const defaults;
    rt_check_place(got.refs[0].rec, t.file, rt_buffer_header,
                   0x20 + 0x118 + 2 * (defaults.logger_name.size() + 1) + 2 * (defaults.log_file_name.size() + 1));
}

TEST_CASE("reader: perfinfo records with 0 to 4 PMC values, and the event's pmc()") {
    tw::trace_writer w;
    tw::cswitch_fields cs;
    cs.new_thread_id = 0x10, cs.old_thread_id = 0x20;
    auto const payload = tw::cswitch_payload(cs);
    std::vector<std::size_t> sizes;
    std::vector<std::vector<std::uint64_t>> pmcs;
    for (std::size_t n = 0; n <= 4; ++n) {
        std::vector<std::uint64_t> v;
        for (std::size_t i = 0; i < n; ++i) v.push_back(0x1000000000ULL * (n + 1) + 0x111 * (i + 1));
        sizes.push_back(w.perfinfo(0, tw::hook::cswitch, 4, 3'000'000 + n, payload, v, {}, n % 2 == 1));
        pmcs.push_back(std::move(v));
    }
    auto const t = rt_finish(w);
    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    REQUIRE(got.refs.size() == 2 + 5);
    for (std::size_t n = 0; n <= 4; ++n) {
        INFO(n << " PMC values");
        auto const& r = got.refs[2 + n].rec;
        rt_check_place(r, t.file, rt_record_offset(t.counts.buffer_offsets.at(1), std::span(sizes).first(n)), sizes[n]);
        CHECK(r.kind() == tr::record_kind::perfinfo);
        CHECK(r.header_type() == (n % 2 == 1 ? tr::header_type::perfinfo32 : tr::header_type::perfinfo64));
        CHECK(r.hook().value == tw::hook::cswitch);
        CHECK(r.version() == 4);
        CHECK(r.timestamp() == 3'000'000 + n);
        CHECK(r.thread_id() == tr::no_id); // a PERFINFO header names no thread or process
        CHECK(r.process_id() == tr::no_id);
        CHECK(r.pmc_count() == n);
        for (std::size_t i = 0; i < n; ++i) CHECK(r.pmc(i) == pmcs[n][i]);
        CHECK_FALSE(r.has_pebs());
        CHECK(r.pebs_index() == 0);
        CHECK(rt_same(r.payload(), payload)); // after the counters
    }
    // the same counters through trace::event::pmc(), in the order written
    auto f = tr::trace_file::open(t.file);
    REQUIRE(f.has_value());
    if (!f) return;
    byte_vector storage(tr::reader::storage_size(*f));
    tr::reader r(*f, storage);
    tr::event_stream s(r);
    std::size_t n = 0;
    tr::dispatch(s, tr::on<"CSwitch">([&](tr::cswitch const& e) {
        INFO(n << " PMC values");
        REQUIRE(n < pmcs.size());
        CHECK(e.new_thread_id() == 0x10);
        CHECK(e.old_thread_id() == 0x20);
        REQUIRE(e.pmc().size() == pmcs[n].size());
        CHECK(e.pmc().empty() == pmcs[n].empty());
        for (std::size_t i = 0; i < pmcs[n].size(); ++i) CHECK(e.pmc()[i] == pmcs[n][i]);
        ++n;
    }));
    CHECK(n == 5);
}

TEST_CASE("reader: a perfinfo PEBS index alone and after PMC values") {
    // PERFINFO_TRACE_HEADER: 0x80 in byte 1 says a PEBS index is there (GC, NTWMI TRACE_HEADER_PEBS_INDEX_FLAG).
    // With counters too, the order of the two is not published (traces.md 2.3: U); the test writer puts the
    // index first, as snail-server reads it. The reader and the writer must agree on one order.
    tw::trace_writer w;
    tw::cswitch_fields cs;
    cs.new_thread_id = 0x31;
    auto const payload = tw::cswitch_payload(cs);
    std::uint64_t const two[] = {0xF38, 0x24B8};
    w.perfinfo(0, tw::hook::cswitch, 4, 4'000'000, payload, {}, 0xABCDEF01ULL);
    w.perfinfo(0, tw::hook::cswitch, 4, 4'000'001, payload, two, 0x77ULL);
    auto const t = rt_finish(w);
    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    REQUIRE(got.refs.size() == 2 + 2);
    {
        auto const& r = got.refs[2].rec;
        CHECK(r.has_pebs());
        CHECK(r.pmc_count() == 0);
        CHECK(r.pebs_index() == 0xABCDEF01ULL);
        CHECK(rt_same(r.payload(), payload));
    }
    {
        auto const& r = got.refs[3].rec;
        CHECK(r.has_pebs());
        CHECK(r.pmc_count() == 2);
        CHECK(r.pebs_index() == 0x77ULL);
        CHECK(r.pmc(0) == 0xF38);
        CHECK(r.pmc(1) == 0x24B8);
        CHECK(rt_same(r.payload(), payload));
    }
}

TEST_CASE("reader: full and instance records in both pointer sizes, every accessor") {
    tw::trace_writer w;
    std::vector<std::size_t> sizes;
    auto const p0 = rt_pattern(17, 1), p1 = rt_pattern(0, 0), p2 = rt_pattern(40, 3), p3 = rt_pattern(1, 4);
    tw::trace_writer::classic_fields const c0{.event_guid = rt_guid(0xB3E675D7), .type = 0x24, .level = 5, .version = 2, .tid = 1,
                                              .pid = 2, .ts = 5'000'000, .kernel_time = 3, .user_time = 4};
    tw::trace_writer::classic_fields const c1{.event_guid = rt_guid(0x11), .type = 0xFF, .level = 0, .version = 0xFFFF, .tid = 5,
                                              .pid = 6, .ts = 5'000'001, .kernel_time = 7, .user_time = 8};
    tw::trace_writer::classic_fields const c2{.event_guid = rt_guid(0x22), .type = 1, .level = 2, .version = 3, .tid = 9,
                                              .pid = 10, .ts = 5'000'002, .kernel_time = 11, .user_time = 12};
    tw::trace_writer::classic_fields const c3{.event_guid = rt_guid(0x33), .type = 2, .level = 3, .version = 4, .tid = 13,
                                              .pid = 14, .ts = 5'000'003, .kernel_time = 15, .user_time = 16};
    sizes.push_back(w.full(0, c0, p0));
    sizes.push_back(w.full(0, c1, p1, true));
    sizes.push_back(w.instance(0, c2, 0x1234, 0x5678, rt_guid(0x99), p2));
    sizes.push_back(w.instance(0, c3, 0xFFFFFFFF, 0, rt_guid(0x98), p3, true));
    auto const t = rt_finish(w);
    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    REQUIRE(got.refs.size() == 2 + 4);
    struct want {
        tr::record_kind kind;
        std::uint8_t type, p;
        etwctl::guid g;
        std::uint8_t opcode, level;
        std::uint16_t version;
        std::uint32_t tid, pid, kt, ut;
        std::uint64_t ts;
        byte_view payload;
        std::uint32_t instance, parent;
        etwctl::guid parent_guid;
    } const wants[] = {
        {tr::record_kind::full, tr::header_type::full_header64, 8, rt_guid(0xB3E675D7), 0x24, 5, 2, 1, 2, 3, 4, 5'000'000, p0, 0, 0, {}},
        {tr::record_kind::full, tr::header_type::full_header32, 4, rt_guid(0x11), 0xFF, 0, 0xFFFF, 5, 6, 7, 8, 5'000'001, p1, 0, 0, {}},
        {tr::record_kind::instance, tr::header_type::instance64, 8, rt_guid(0x22), 1, 2, 3, 9, 10, 11, 12, 5'000'002, p2, 0x1234,
         0x5678, rt_guid(0x99)},
        {tr::record_kind::instance, tr::header_type::instance32, 4, rt_guid(0x33), 2, 3, 4, 13, 14, 15, 16, 5'000'003, p3,
         0xFFFFFFFF, 0, rt_guid(0x98)},
    };
    for (std::size_t i = 0; i < std::size(wants); ++i) {
        INFO("record " << i);
        auto const& r = got.refs[2 + i].rec;
        auto const& x = wants[i];
        rt_check_place(r, t.file, rt_record_offset(t.counts.buffer_offsets.at(1), std::span(sizes).first(i)), sizes[i]);
        CHECK(r.kind() == x.kind);
        CHECK(r.header_type() == x.type);
        CHECK(r.pointer_size() == x.p);
        CHECK_FALSE(r.has_hook());
        CHECK(rt_guid_is(r.event_guid(), x.g));
        CHECK(r.opcode() == x.opcode);
        CHECK(r.level() == x.level);
        CHECK(r.version() == x.version);
        CHECK(r.thread_id() == x.tid);
        CHECK(r.process_id() == x.pid);
        CHECK(r.kernel_time() == x.kt);
        CHECK(r.user_time() == x.ut);
        CHECK(r.timestamp() == x.ts);
        CHECK(rt_same(r.payload(), x.payload));
        CHECK(r.instance_id() == x.instance);
        CHECK(r.parent_instance_id() == x.parent);
        CHECK(rt_guid_is(r.parent_guid(), x.parent_guid));
    }
}

TEST_CASE("reader: event records with every extended data item type, read back byte for byte") {
    // Every EVENT_HEADER_EXT_TYPE_* of the SDK (evntcons.h), the unpublished ones as opaque bytes, an
    // unknown type, data sizes that need padding to 8, in 64- and 32-bit EVENT_HEADERs.
    std::uint32_t const subs[] = {21, 1004336348, 1177238915, 682003330, 1001};
    std::uint64_t const frames64[] = {0xFFFFF80012345678ULL, 0x00007FF612340000ULL, 0x00007FF612345678ULL};
    std::uint64_t const frames32[] = {0x80401000, 0x00401000};
    std::uint64_t const counters[] = {0x1111111111ULL, 0x2222222222ULL, 0x3333333333ULL};
    std::vector<tw::ext_item> items;
    items.push_back(tw::related_activity_id_item(rt_guid(0xAC71)));
    items.push_back(tw::blob_item(tw::ext_type::sid, tw::sid_bytes(5, subs)));
    items.push_back(tw::ts_id_item(3));
    items.push_back(tw::instance_info_item(7, 8, rt_guid(0x1A)));
    items.push_back(tw::stack_trace_item(4, 0, frames32));
    items.push_back(tw::stack_trace_item(8, 0x55, frames64));
    items.push_back(tw::u64_item(tw::ext_type::pebs_index, 0x0123456789ABCDEFULL));
    items.push_back(tw::pmc_counters_item(counters));
    items.push_back(tw::blob_item(tw::ext_type::psm_key, rt_pattern(13, 50)));
    items.push_back(tw::u64_item(tw::ext_type::event_key, 0xFEDCBA9876543210ULL));
    items.push_back(tw::blob_item(tw::ext_type::event_schema_tl, rt_pattern(29, 60)));
    items.push_back(tw::blob_item(tw::ext_type::prov_traits, rt_pattern(15, 70)));
    items.push_back(tw::u64_item(tw::ext_type::process_start_key, 0x0004000000000123ULL));
    items.push_back(tw::blob_item(tw::ext_type::control_guid, rt_pattern(16, 80)));
    items.push_back(tw::blob_item(tw::ext_type::qpc_delta, rt_pattern(8, 90)));
    items.push_back(tw::blob_item(tw::ext_type::container_id, rt_pattern(16, 100)));
    items.push_back(tw::stack_key_item(4, 0x66, 0x86000040));
    items.push_back(tw::stack_key_item(8, 0x77, 0xFFFFC08000000040ULL));
    items.push_back(tw::blob_item(0x00AB, rt_pattern(1, 110))); // a type the SDK does not define
    items.push_back(tw::blob_item(tw::ext_type::ts_id, rt_pattern(0, 0))); // an empty item, a second of its type

    auto const user_data = rt_pattern(21, 120);
    tw::trace_writer w;
    tw::trace_writer::event_fields ef{.provider = rt_guid(0x5EED), .id = 0x1234, .version = 3, .channel = 0x10, .level = 4,
                                      .opcode = 0xF1, .task = 0xBEEF, .keyword = 0x8000000000000F0FULL, .tid = 0x123,
                                      .pid = 0x456, .ts = 6'000'000, .activity = rt_guid(0xAC7), .flags = 0x0200,
                                      .event_property = 0x0008, .kernel_time = 0x31, .user_time = 0x32};
    std::vector<std::size_t> sizes;
    sizes.push_back(w.event(0, ef, items, user_data));
    ef.ts += 1;
    sizes.push_back(w.event(0, ef, items, user_data, true));
    ef.ts += 1;
    ef.flags = 0;
    sizes.push_back(w.event(0, ef, {}, user_data)); // no items: no EXTENDED_INFO flag
    auto const t = rt_finish(w);
    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    REQUIRE(got.refs.size() == 2 + 3);
    CHECK(got.losses.faults == 0);

    for (std::size_t k = 0; k < 3; ++k) {
        INFO("event " << k);
        auto const& r = got.refs[2 + k].rec;
        rt_check_place(r, t.file, rt_record_offset(t.counts.buffer_offsets.at(1), std::span(sizes).first(k)), sizes[k]);
        CHECK(r.kind() == tr::record_kind::event);
        CHECK(r.header_type() == (k == 1 ? tr::header_type::event_header32 : tr::header_type::event_header64));
        CHECK(r.pointer_size() == (k == 1 ? 4 : 8));
        CHECK_FALSE(r.has_hook());
        CHECK(rt_guid_is(r.provider_id(), rt_guid(0x5EED)));
        CHECK(r.descriptor().id == 0x1234);
        CHECK(r.descriptor().version == 3);
        CHECK(r.descriptor().channel == 0x10);
        CHECK(r.descriptor().level == 4);
        CHECK(r.descriptor().opcode == 0xF1);
        CHECK(r.descriptor().task == 0xBEEF);
        CHECK(r.descriptor().keyword == 0x8000000000000F0FULL);
        CHECK(r.version() == 3);
        CHECK(r.opcode() == 0xF1);
        CHECK(r.level() == 4);
        CHECK(r.thread_id() == 0x123);
        CHECK(r.process_id() == 0x456);
        CHECK(r.timestamp() == 6'000'000 + k);
        CHECK(rt_guid_is(r.activity_id(), rt_guid(0xAC7)));
        CHECK(r.event_property() == 0x0008);
        CHECK(r.event_flags() == (k < 2 ? 0x0201 : 0x0000));
        CHECK(r.kernel_time() == 0x31);
        CHECK(r.user_time() == 0x32);
        CHECK(rt_same(r.payload(), user_data));
        if (k == 2) {
            CHECK(r.extended_items().empty());
            tr::extended_item none;
            CHECK_FALSE(r.find_item(tw::ext_type::ts_id, none));
            continue;
        }
        // each item where the format puts it: 8-aligned from 0x50, {size, type, linkage, data size, data}
        std::size_t at = 0x50;
        std::size_t i = 0;
        for (auto const item : r.extended_items()) {
            INFO("item " << i);
            REQUIRE(i < items.size());
            CHECK(item.type == items[i].type);
            CHECK(rt_same(item.data, items[i].data));
            CHECK(item.data.data() == r.bytes().data() + at + 8);
            at += 8 + rt_align8(items[i].data.size());
            ++i;
        }
        CHECK(i == items.size());
        CHECK(r.payload().data() == r.bytes().data() + at);
        // find_item: the first item of each type
        for (std::size_t j = 0; j < items.size(); ++j) {
            tr::extended_item found;
            REQUIRE(r.find_item(items[j].type, found));
            auto const first = std::find_if(items.begin(), items.end(), [&](tw::ext_item const& x) { return x.type == items[j].type; });
            CHECK(rt_same(found.data, first->data));
        }
        tr::extended_item absent;
        CHECK_FALSE(r.find_item(0x0099, absent));
    }
    CHECK(tr::ext_type_name(tr::ext_type::stack_trace64) == "STACK_TRACE64");
    CHECK(tr::ext_type_name(tr::ext_type::stack_key32) == "STACK_KEY32");
    CHECK(tr::ext_type_name(0x00AB).empty());

    // The same items through trace::event: pmc() reads PMC_COUNTERS in order, stack() the STACK_TRACE32 and
    // STACK_TRACE64 items' frames after their MatchId (a STACK_KEY item names a cached stack no public source
    // ties to definitions: unresolved), and the typed accessors the first item of their type.
    auto f = tr::trace_file::open(t.file);
    REQUIRE(f.has_value());
    if (!f) return;
    byte_vector storage(tr::reader::storage_size(*f));
    // event_stream and record_stream alike: an EVENT_HEADER event's stack is its own items
    auto const check_events = [&](auto& s) {
        tr::event e;
        std::size_t k = 0;
        while (s.next(e)) {
            if (e.rec().kind() != tr::record_kind::event) continue;
            INFO("event " << k);
            bool const has = k++ < 2;
            REQUIRE(e.pmc().size() == (has ? std::size(counters) : 0U));
            for (std::size_t i = 0; i < e.pmc().size(); ++i) CHECK(e.pmc()[i] == counters[i]);
            etwctl::guid related{};
            std::uint32_t session = 0;
            tr::bytes_view sid{};
            std::uint64_t event_key = 0, start_key = 0, pebs = 0;
            CHECK(e.related_activity_id(related) == has);
            CHECK(e.session_id(session) == has);
            CHECK(e.sid(sid) == has);
            CHECK(e.event_key(event_key) == has);
            CHECK(e.process_start_key(start_key) == has);
            CHECK(e.pebs_index(pebs) == has);
            if (!has) {
                CHECK(e.stack().empty());
                CHECK(e.stack().unresolved_keys() == 0);
                continue;
            }
            CHECK(rt_guid_is(related, rt_guid(0xAC71)));
            CHECK(session == 3); // the first TS_ID item, not the empty second one
            CHECK(rt_same(sid, tw::sid_bytes(5, subs)));
            CHECK(event_key == 0xFEDCBA9876543210ULL);
            CHECK(start_key == 0x0004000000000123ULL);
            CHECK(pebs == 0x0123456789ABCDEFULL);
            std::vector<std::uint64_t> frames;
            for (auto x : e.stack()) frames.push_back(x);
            std::vector<std::uint64_t> want(std::begin(frames32), std::end(frames32));
            want.insert(want.end(), std::begin(frames64), std::end(frames64));
            CHECK(frames == want);
            REQUIRE(e.stack().parts().size() == 2);
            CHECK(e.stack().parts()[0].pointer_size == 4);
            CHECK(e.stack().parts()[1].pointer_size == 8);
            CHECK(e.stack().unresolved_keys() == 2); // STACK_KEY32 and STACK_KEY64
        }
        CHECK(k == 3);
    };
    {
        tr::reader rd(*f, storage);
        tr::event_stream s(rd);
        check_events(s);
    }
    {
        INFO("record_stream");
        tr::reader rd(*f, storage);
        tr::record_stream s(rd);
        check_events(s);
    }
}

TEST_CASE("reader: message (WPP) records with each option flag") {
    // MESSAGE_TRACE_HEADER (GC; SDK TRACE_MESSAGE_*): the optional fields in order, only when flagged;
    // the component id wins over the GUID; PERFORMANCE_TIMESTAMP has no field.
    namespace mf = tw::message_flag;
    std::uint16_t const flag_sets[] = {
        0,
        mf::sequence,
        mf::guid,
        mf::component_id,
        static_cast<std::uint16_t>(mf::component_id | mf::guid),
        mf::timestamp,
        mf::performance_timestamp,
        mf::system_info,
        mf::pointer32,
        mf::pointer64,
        static_cast<std::uint16_t>(mf::sequence | mf::guid | mf::timestamp | mf::system_info | mf::pointer64),
        static_cast<std::uint16_t>(mf::sequence | mf::component_id | mf::timestamp | mf::system_info | mf::pointer32),
    };
    tw::trace_writer w;
    std::vector<std::size_t> sizes;
    std::vector<byte_vector> args;
    for (std::size_t i = 0; i < std::size(flag_sets); ++i) {
        auto const n = static_cast<std::uint32_t>(i);
        tw::trace_writer::message_fields const mfs{.message_number = static_cast<std::uint16_t>(100 + n),
                                                   .option_flags = flag_sets[i],
                                                   .sequence = 0x5000U + n,
                                                   .component_id = 0x600U + n,
                                                   .message_guid = rt_guid(0x700U + n),
                                                   .ts = 7'000'000 + i,
                                                   .tid = 0x80U + n,
                                                   .pid = 0x90U + n};
        args.push_back(rt_pattern(i * 3, static_cast<unsigned>(i)));
        sizes.push_back(w.message(0, mfs, args.back()));
    }
    auto const t = rt_finish(w);
    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    REQUIRE(got.refs.size() == 2 + std::size(flag_sets));
    CHECK(got.losses.faults == 0);
    for (std::size_t i = 0; i < std::size(flag_sets); ++i) {
        auto const fl = flag_sets[i];
        INFO("option flags " << fl);
        auto const& r = got.refs[2 + i].rec;
        auto const n = static_cast<std::uint32_t>(i);
        rt_check_place(r, t.file, rt_record_offset(t.counts.buffer_offsets.at(1), std::span(sizes).first(i)), sizes[i]);
        CHECK(r.kind() == tr::record_kind::message);
        CHECK(r.header_type() == tr::header_type::message);
        CHECK_FALSE(r.has_hook());
        CHECK(r.message_number() == 100 + i);
        CHECK(r.message_flags() == fl);
        CHECK(r.message_sequence() == ((fl & mf::sequence) ? 0x5000U + n : 0U));
        CHECK(r.message_component_id() == ((fl & mf::component_id) ? 0x600U + n : 0U));
        bool const has_guid = (fl & mf::guid) && !(fl & mf::component_id);
        CHECK(rt_guid_is(r.event_guid(), has_guid ? rt_guid(0x700U + n) : etwctl::guid{}));
        CHECK(r.timestamp() == ((fl & mf::timestamp) ? 7'000'000 + i : 0U));
        CHECK(r.thread_id() == ((fl & mf::system_info) ? 0x80U + n : tr::no_id));
        CHECK(r.process_id() == ((fl & mf::system_info) ? 0x90U + n : tr::no_id));
        CHECK(r.pointer_size() == ((fl & mf::pointer32) ? 4 : 8));
        CHECK(rt_same(r.payload(), args[i]));
    }
}

// ---- lost data -----------------------------------------------------------------------------------------

TEST_CASE("reader: lost data: the header's counts, buffers flagged EVENTS_LOST / BUFFER_LOST, sequence gaps") {
    tw::trace_options o;
    o.buffer_size = 0x200;
    o.header_buffer_size = 0x400; // the header event and the HeaderExtension need more than 0x200
    o.events_lost = 17;
    o.buffers_lost = 3;
    tw::trace_writer w(o);
    std::vector<rt_tagged> log;
    std::uint64_t ts = 1'000'100;
    auto fill = [&](std::uint16_t cpu) {
        for (int i = 0; i < 3; ++i) rt_put_tagged(w, log, cpu, ts++);
    };
    fill(0), w.flush(0);                                    // sequence 1
    fill(1), w.flush(1, tw::buffer_flag::events_lost);      // 2, flagged
    fill(0), w.skip_sequence(), w.flush(0);                 // 4: one buffer missing
    fill(1), w.flush(1, tw::buffer_flag::buffer_lost);      // 5, flagged
    fill(0), w.skip_sequence(), w.skip_sequence();
    w.flush(0, tw::buffer_flag::events_lost | tw::buffer_flag::buffer_lost); // 8: two missing, both flags
    fill(1), w.flush(1, tw::buffer_flag::flush_marker);     // 9: a flag that is no loss
    auto const t = rt_finish(w);
    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    auto const& l = got.losses;
    CHECK(l.header_events_lost == 17);
    CHECK(l.header_buffers_lost == 3);
    CHECK(l.buffers_events_lost == 2);
    CHECK(l.buffers_buffer_lost == 2);
    CHECK(l.sequence_gaps == 3);
    CHECK(l.buffers_unreadable == 0);
    CHECK(l.buffers_cut == 0);
    CHECK(l.bytes_skipped == 0);
    CHECK(l.faults == 0);
    CHECK(l.any());
    CHECK(got.first.what == etwctl::rule::ok);
    // losses are reported, the records that are there are all read
    CHECK(rt_same_tags(rt_tags_read(got), rt_time_order(log)));

    // a trace without losses says so
    tw::trace_writer clean(tw::trace_options{.buffer_size = 0x200, .header_buffer_size = 0x400});
    std::vector<rt_tagged> log2;
    for (std::uint64_t i = 0; i < 30; ++i) rt_put_tagged(clean, log2, static_cast<std::uint16_t>(i % 3), 1'000'000 + i);
    auto const t2 = rt_finish(clean);
    auto const got2 = rt_read_all(t2.file);
    REQUIRE(got2.opened);
    CHECK_FALSE(got2.losses.any());
    CHECK(rt_same_tags(rt_tags_read(got2), rt_time_order(log2)));
}

// ---- clocks --------------------------------------------------------------------------------------------

/// A clock the header describes, and the tick rate the test derives from it (MSL WNODE_HEADER: 1 QPC at
/// PerfFreq, 2 system time in 100 ns, 3 CPU cycles at CpuSpeedInMHz; 0 raw, no rate).
struct rt_clock_case {
    std::uint32_t type;
    std::uint64_t perf_freq;
    std::uint32_t cpu_mhz;
    std::uint64_t rate; // ticks per second; 0: not convertible
};

TEST_CASE("reader: clock types 1 (QPC, several PerfFreq), 2 (system time), 3 (CPU cycles) and 0 (raw): times computed from the header") {
    rt_clock_case const cases[] = {
        {1, 10'000'000, 3000, 10'000'000},
        {1, 3'579'545, 2808, 3'579'545},
        {1, 2'343'750, 2808, 2'343'750},
        {1, 14'318'180, 3592, 14'318'180},
        {1, 1'000'000'000, 3592, 1'000'000'000},
        {2, 3'579'545, 2808, 10'000'000},     // PerfFreq is not system time's rate
        {3, 10'000'000, 2808, 2'808'000'000}, // nor CPU cycles'
        {3, 10'000'000, 3592, 3'592'000'000},
        {0, 10'000'000, 3000, 0},
    };
    std::uint64_t const origin = 5'000'000'000ULL;
    // offsets from the header event's timestamp, before it (a rundown stamped earlier) and after
    std::int64_t const deltas[] = {-4'999'999'999LL, -12'345'678, -1, 0, 1, 99, 12'345, 9'999'999, 10'000'000,
                                   10'000'001, 987'654'321, 5'000'000'000'000LL, (std::int64_t{1} << 40) + 17};
    for (auto const& c : cases) {
        INFO("clock " << c.type << ", PerfFreq " << c.perf_freq << ", " << c.cpu_mhz << " MHz");
        tw::trace_options o;
        o.clock_type = c.type;
        o.perf_freq = c.perf_freq;
        o.cpu_mhz = c.cpu_mhz;
        o.header_timestamp = origin;
        tw::trace_writer w(o);
        std::vector<rt_tagged> log;
        for (auto d : deltas) rt_put_tagged(w, log, 0, d < 0 ? origin - static_cast<std::uint64_t>(-d) : origin + static_cast<std::uint64_t>(d));
        auto const t = rt_finish(w);
        auto f = tr::trace_file::open(t.file);
        REQUIRE(f.has_value());
        if (!f) continue;
        auto const& clk = f->clock();
        CHECK(static_cast<std::uint32_t>(clk.type()) == c.type);
        CHECK(clk.convertible() == (c.rate != 0));
        CHECK(clk.origin() == origin);
        CHECK(clk.start_filetime() == o.start_time);
        byte_vector storage(tr::reader::storage_size(*f));
        tr::reader r(*f, storage);
        tr::event_stream s(r);
        tr::event e;
        std::size_t n = 0;
        while (s.next(e)) {
            if (e.rec().hook().value != rt_tag_hook) continue;
            REQUIRE(n < std::size(deltas));
            auto const d = deltas[n++];
            INFO("delta " << d);
            auto const magnitude = d < 0 ? static_cast<std::uint64_t>(-d) : static_cast<std::uint64_t>(d);
            if (c.rate == 0) {
                // raw: no unit, so the time is the tick difference and there is no FILETIME
                CHECK(e.time().time_since_epoch().count() == d);
                CHECK(clk.to_filetime(e.timestamp()) == 0);
                continue;
            }
            auto const ns = static_cast<std::int64_t>(rt_mul_div(magnitude, 1'000'000'000, c.rate));
            CHECK(e.time().time_since_epoch().count() == (d < 0 ? -ns : ns));
            auto const hundreds = rt_mul_div(magnitude, 10'000'000, c.rate);
            CHECK(clk.to_filetime(e.timestamp()) == (d < 0 ? o.start_time - hundreds : o.start_time + hundreds));
        }
        CHECK(n == std::size(deltas));
    }
}

TEST_CASE("reader: timestamps before the header's are negative times, and still follow the header buffer's records") {
    tw::trace_options o;
    o.perf_freq = 10'000'000;
    o.header_timestamp = 50'000;
    tw::trace_writer w(o);
    std::vector<rt_tagged> log;
    rt_put_tagged(w, log, 1, 10'000); // 4 ms before the start: the first record of the data
    rt_put_tagged(w, log, 0, 49'999);
    rt_put_tagged(w, log, 0, 50'000);
    rt_put_tagged(w, log, 1, 60'000);
    auto const t = rt_finish(w);
    auto f = tr::trace_file::open(t.file);
    REQUIRE(f.has_value());
    if (!f) return;
    byte_vector storage(tr::reader::storage_size(*f));
    tr::reader r(*f, storage);
    tr::event_stream s(r);
    tr::event e;
    std::vector<std::int64_t> times;
    std::vector<std::uint64_t> filetimes;
    std::vector<std::uint16_t> hooks;
    while (s.next(e)) {
        hooks.push_back(e.rec().hook().value);
        if (e.rec().hook().value != rt_tag_hook) continue;
        times.push_back(e.time().time_since_epoch().count());
        filetimes.push_back(f->clock().to_filetime(e.timestamp()));
    }
    // the header event and the HeaderExtension first, though a record is stamped before them
    CHECK(hooks == std::vector<std::uint16_t>{0x0000, 0x0005, rt_tag_hook, rt_tag_hook, rt_tag_hook, rt_tag_hook});
    CHECK(times == std::vector<std::int64_t>{-4'000'000, -100, 0, 1'000'000});
    CHECK(filetimes == std::vector<std::uint64_t>{o.start_time - 40'000, o.start_time - 1, o.start_time, o.start_time + 10'000});
}

// ---- the merge in time order ---------------------------------------------------------------------------

TEST_CASE("reader: merge order across 4 processors, interleaved buffers flushed out of time order, equal timestamps") {
    for (std::uint16_t flags : {tw::buffer_flag::proc_index, std::uint16_t{0}}) {
        INFO("BufferFlag " << flags);
        tw::trace_options o;
        o.buffer_size = 0x200;
        o.header_buffer_size = 0x400;
        o.processors = 4;
        o.buffer_flags = flags;
        o.header_timestamp = 1'000'000;
        tw::trace_writer w(o);
        std::vector<rt_tagged> log;
        // Each round writes the same timestamps on every processor (equal timestamps across processors),
        // and flushes the processors in a different order, so the file's order is neither processor nor
        // time order. Round 0 is stamped before the header event.
        std::uint16_t const flush_orders[][4] = {{3, 1, 0, 2}, {0, 2, 3, 1}, {2, 3, 1, 0}, {1, 0, 2, 3}, {3, 2, 1, 0}};
        for (std::uint64_t round = 0; round < std::size(flush_orders); ++round) {
            std::uint64_t const base = 999'900 + round * 100;
            for (auto cpu : flush_orders[round]) {
                // a different count per processor: buffers of unequal fullness
                for (std::uint64_t j = 0; j < 2U + cpu; ++j) rt_put_tagged(w, log, cpu, base + j * 10);
                if (cpu != 2 || round % 2 == 0) w.flush(cpu); // processor 2 also has buffers spanning two rounds
            }
        }
        auto const t = rt_finish(w);
        auto const got = rt_read_all(t.file);
        REQUIRE(got.opened);
        CHECK(got.streams == 5);
        REQUIRE(got.refs.size() >= 2);
        CHECK(got.refs[0].rec.hook().value == 0x0000);
        CHECK(got.refs[1].rec.hook().value == 0x0005);
        CHECK(got.refs[0].stream == 0);
        CHECK(got.refs[1].stream == 0);
        auto const expected = rt_time_order(log);
        auto const tags = rt_tags_read(got);
        CHECK_MESSAGE(rt_same_tags(tags, expected), "read " << rt_tags_text(tags) << "\nwant " << rt_tags_text(expected));
        CHECK_FALSE(got.losses.any());
    }
}

TEST_CASE("reader: a circular file: sequence numbers wrap in file order") {
    // A circular log overwrites its oldest buffers: the file holds them in ring order, e.g. sequence
    // 5 6 7 3 4 (traces.md 1.1: gcevents' 2 3 4 1). Built here by rotating the writer's data buffers.
    tw::trace_options o;
    o.buffer_size = 0x200;
    o.header_buffer_size = 0x400;
    tw::trace_writer w(o);
    std::vector<rt_tagged> log;
    std::uint64_t ts = 1'000'100;
    for (int b = 0; b < 7; ++b) {
        for (int i = 0; i < 4; ++i) rt_put_tagged(w, log, static_cast<std::uint16_t>(b % 2), ts++);
        w.flush(static_cast<std::uint16_t>(b % 2));
    }
    auto const t = rt_finish(w);
    REQUIRE(t.counts.buffers == 8);
    std::size_t const bs = o.buffer_size, hs = o.header_buffer_size;
    REQUIRE(t.file.size() == hs + 7 * bs);
    auto const data_buffer = [&](std::size_t i) { return byte_view(t.file).subspan(hs + bs * i, bs); }; // sequence i + 1

    SUBCASE("all buffers there, rotated") {
        byte_vector ring(t.file.begin(), t.file.begin() + static_cast<std::ptrdiff_t>(hs));
        for (std::size_t i : {4U, 5U, 6U, 0U, 1U, 2U, 3U}) ring.insert(ring.end(), data_buffer(i).begin(), data_buffer(i).end());
        CHECK(rt_le<std::uint64_t>(ring, hs + 0x18) == 5); // the first data buffer in the file is sequence 5
        auto const got = rt_read_all(ring);
        REQUIRE(got.opened);
        auto const tags = rt_tags_read(got);
        CHECK_MESSAGE(rt_same_tags(tags, log), "read " << rt_tags_text(tags));
        CHECK(got.losses.sequence_gaps == 0);
        CHECK_FALSE(got.losses.any());
    }
    SUBCASE("the two oldest overwritten") {
        byte_vector ring(t.file.begin(), t.file.begin() + static_cast<std::ptrdiff_t>(hs));
        for (std::size_t i : {4U, 5U, 6U, 2U, 3U}) ring.insert(ring.end(), data_buffer(i).begin(), data_buffer(i).end());
        auto const got = rt_read_all(ring);
        REQUIRE(got.opened);
        std::vector<rt_tagged> const kept(log.begin() + 8, log.end()); // buffers 1 and 2 held 4 records each
        auto const tags = rt_tags_read(got);
        CHECK_MESSAGE(rt_same_tags(tags, kept), "read " << rt_tags_text(tags));
        CHECK(got.losses.sequence_gaps == 0); // nothing missing between the buffers that are there
    }
}

TEST_CASE("reader: processors above 255 (PROC_INDEX) keep their full index and merge in processor order") {
    tw::trace_options o;
    o.buffer_size = 0x200;
    o.header_buffer_size = 0x400;
    o.processors = 2048;
    tw::trace_writer w(o);
    std::vector<rt_tagged> log;
    std::uint16_t const cpus[] = {2047, 256, 0, 1024, 255, 511, 7};
    for (std::uint64_t k = 0; k < 3; ++k)
        for (auto cpu : cpus) rt_put_tagged(w, log, cpu, 1'000'500 + 10 * k); // equal timestamps on all of them
    auto const t = rt_finish(w);
    // the writer stored the full index (ClientContext.ProcessorIndex) with PROC_INDEX set
    for (std::size_t i = 1; i < t.counts.buffer_offsets.size(); ++i) {
        auto const at = t.counts.buffer_offsets[i];
        CHECK((rt_le<std::uint16_t>(t.file, at + 0x34) & tw::buffer_flag::proc_index) != 0);
    }
    auto const got = rt_read_all(t.file);
    REQUIRE(got.opened);
    CHECK(got.streams == 1 + std::size(cpus));
    auto const tags = rt_tags_read(got);
    auto const expected = rt_time_order(log);
    CHECK_MESSAGE(rt_same_tags(tags, expected), "read " << rt_tags_text(tags));
    CHECK(expected.front().cpu == 0);
    CHECK(expected[3].cpu == 256); // 255 before 256: processor order, not the low byte's
    CHECK(expected[6].cpu == 2047);
    // the records' own processor is the buffer's
    for (std::size_t i = 0; i < got.refs.size(); ++i)
        if (got.refs[i].rec.hook().value == rt_tag_hook) CHECK(got.refs[i].processor == rt_le<std::uint32_t>(got.bytes[i], 0x24));
    CHECK(got.refs.front().rec.hook().value == 0x0000);
}

// ---- compressed traces ---------------------------------------------------------------------------------

/// The same records, every header kind on three processors over many buffers, into a writer.
inline rt_trace rt_write_mixed(tw::trace_options o) {
    o.buffer_size = 0x400;
    tw::trace_writer w(o);
    std::uint64_t const pmc[] = {0x10, 0x20, 0x30};
    std::uint64_t const frames[] = {0xFFFFF80000001000ULL, 0x00007FF600001000ULL, 0x00007FF600002000ULL};
    std::vector<tw::ext_item> items;
    items.push_back(tw::related_activity_id_item(rt_guid(9)));
    items.push_back(tw::stack_trace_item(8, 0, frames));
    items.push_back(tw::blob_item(tw::ext_type::prov_traits, rt_pattern(15, 9)));
    for (std::uint32_t i = 0; i < 300; ++i) {
        auto const cpu = static_cast<std::uint16_t>(i % 3);
        std::uint64_t const ts = 1'000'000 + 7ULL * i;
        switch (i % 7) {
        case 0: w.system(cpu, {.hook = rt_tag_hook, .version = 1, .tid = i, .pid = 4, .ts = ts}, rt_u32s({i, cpu})); break;
        case 1: w.compact(cpu, {.hook = 0x0524, .version = 2, .tid = i, .pid = 4, .ts = ts}, rt_pattern(i % 40, i), i % 2 == 0); break;
        case 2: w.perfinfo(cpu, 0x0524, 4, ts, rt_pattern(24, i), std::span(pmc).first(i % 4), {}, i % 2 == 0); break;
        case 3: w.full(cpu, {.event_guid = rt_guid(i), .type = 3, .ts = ts}, rt_pattern(i % 50, i)); break;
        case 4: w.instance(cpu, {.event_guid = rt_guid(i), .ts = ts}, i, i + 1, rt_guid(i + 1), rt_pattern(5, i), true); break;
        case 5: w.event(cpu, {.provider = rt_guid(i), .id = 3, .ts = ts}, items, rt_pattern(i % 60, i)); break;
        default:
            w.message(cpu, {.message_number = 1, .option_flags = tw::message_flag::timestamp | tw::message_flag::sequence, .sequence = i, .ts = ts},
                      rt_pattern(i % 20, i));
            break;
        }
    }
    return rt_finish(w);
}

TEST_CASE("reader: a compressed trace decodes to the same records as the uncompressed writer output of the same input") {
    auto const plain = rt_write_mixed({});
    auto const packed = rt_write_mixed({.compress = true});
    REQUIRE(plain.counts.buffers == packed.counts.buffers);
    CHECK(plain.counts.buffers > 10);
    CHECK(packed.file.size() < plain.file.size());
    auto f = tr::trace_file::open(packed.file);
    REQUIRE(f.has_value());
    if (!f) return;
    CHECK(f->compressed_mode());
    auto const a = rt_read_all(plain.file);
    auto const b = rt_read_all(packed.file);
    REQUIRE(a.opened);
    REQUIRE(b.opened);
    CHECK(a.refs.size() == 2 + 300);
    REQUIRE(a.refs.size() == b.refs.size());
    // the header buffer is never compressed, and its header event differs (LogFileMode, log-file layout
    // version): compare the data buffers' records
    std::size_t same = 2;
    for (std::size_t i = 2; i < a.refs.size(); ++i) {
        bool const eq = a.refs[i].processor == b.refs[i].processor && a.refs[i].rec.timestamp() == b.refs[i].rec.timestamp() &&
                        a.refs[i].rec.kind() == b.refs[i].rec.kind() && a.refs[i].rec.header_type() == b.refs[i].rec.header_type() &&
                        rt_same(a.bytes[i], b.bytes[i]);
        if (eq) ++same;
        else FAIL_CHECK("record " << i << " differs");
    }
    CHECK(same == a.refs.size());
    CHECK_FALSE(a.losses.any());
    CHECK_FALSE(b.losses.any());
    CHECK(a.buffers == b.buffers);
}

// ---- typed dispatch on generated profiler traces -------------------------------------------------------

/// One record found by the test's own walk of a file: the buffer's processor, the record's bytes.
struct rt_raw_record {
    std::uint16_t cpu = 0;
    std::uint8_t type = 0;
    std::uint16_t hook = 0;
    std::uint64_t ts = 0;
    byte_vector bytes;
};
/// The system / compact / perfinfo records of every buffer in file order, found with fixed offsets only
/// (Chappell's WMI_BUFFER_HEADER and trace headers), compressed buffers through the test compressor's
/// reference decoder ([MS-XCA] 2.4.4 followed literally): what the generator wrote, read without etwctl.
inline std::vector<rt_raw_record> rt_raw_walk(byte_view file) {
    std::vector<rt_raw_record> out;
    for (std::size_t off = 0; file.size() - off >= rt_buffer_header;) {
        auto const size = rt_le<std::uint32_t>(file, off);
        if (size < rt_buffer_header || size > file.size() - off) {
            FAIL_CHECK("bad buffer size at " << off);
            break;
        }
        auto const stored = file.subspan(off, size);
        auto const flags = rt_le<std::uint16_t>(stored, 0x34);
        auto const context = rt_le<std::uint16_t>(stored, 0x28);
        auto const cpu = static_cast<std::uint16_t>((flags & 0x20U) != 0 ? (context & 0x7FFU) : (context & 0xFFU));
        byte_vector data;
        if ((flags & 0x40U) != 0) {
            data.resize(rt_le<std::uint32_t>(stored, 0x04) - rt_buffer_header);
            auto const r = tw::lz77_reference_decompress(stored.subspan(rt_buffer_header), data);
            CHECK(r.error == etwctl::rule::ok);
            CHECK(r.written == data.size());
        } else {
            data.assign(stored.begin() + rt_buffer_header, stored.begin() + rt_le<std::uint32_t>(stored, 0x30));
        }
        byte_view const d = data;
        for (std::size_t at = 0; d.size() - at >= 8 && rt_le<std::uint32_t>(d, at) != 0xFFFFFFFFU;) {
            rt_raw_record r;
            r.cpu = cpu;
            r.type = rt_le<std::uint8_t>(d, at + 2);
            bool const perfinfo = r.type == 0x10 || r.type == 0x11;
            if (rt_le<std::uint8_t>(d, at + 3) != 0xC0 || !(perfinfo || (r.type >= 0x01 && r.type <= 0x04))) {
                FAIL_CHECK("unexpected record header at " << off << "+" << at);
                break;
            }
            std::size_t const rsize = rt_le<std::uint16_t>(d, at + 4);
            if (rsize < 0x10 || rsize > d.size() - at) {
                FAIL_CHECK("bad record size at " << off << "+" << at);
                break;
            }
            r.hook = rt_le<std::uint16_t>(d, at + 6);
            r.ts = rt_le<std::uint64_t>(d, at + (perfinfo ? 0x08 : 0x10));
            r.bytes.assign(d.begin() + static_cast<std::ptrdiff_t>(at), d.begin() + static_cast<std::ptrdiff_t>(at + rsize));
            out.push_back(std::move(r));
            at += rt_align8(rsize);
        }
        off += size;
    }
    return out;
}
inline std::uint8_t rt_pointer_size(rt_raw_record const& r) { return (r.type == 0x01 || r.type == 0x03 || r.type == 0x10) ? 4 : 8; }
inline std::size_t rt_payload_at(rt_raw_record const& r) {
    if (r.type == 0x10 || r.type == 0x11) {
        auto const ext = rt_le<std::uint8_t>(r.bytes, 1);
        return 0x10 + 8 * ((ext & 7U) + ((ext & 0x80U) != 0 ? 1U : 0U));
    }
    return (r.type == 0x03 || r.type == 0x04) ? 0x18 : 0x20;
}
inline std::vector<std::uint64_t> rt_pointers(byte_view b, std::size_t from, std::uint8_t p) {
    std::vector<std::uint64_t> out;
    for (std::size_t at = from; b.size() - at >= p; at += p) out.push_back(rt_ptr(b, at, p));
    return out;
}
inline bool rt_kernel_address(std::uint64_t a, std::uint8_t p) { return p == 4 ? a >= 0x80000000U : a >= 0xFFFF800000000000ULL; }
inline std::vector<std::uint64_t> rt_frames_of(tr::stack_view const& s) {
    std::vector<std::uint64_t> out;
    for (auto f : s) out.push_back(f);
    return out;
}
inline std::vector<std::uint64_t> rt_frames_of(tr::stack_view::part const& part) {
    std::vector<std::uint64_t> out;
    for (std::size_t i = 0; i < part.size(); ++i) out.push_back(part[i]);
    return out;
}

/// What the generator wrote, from the test's own walk: each StackWalk's frames by (processor, the
/// sampled event's timestamp, thread), each CSwitch's counters, the key references that follow an event,
/// and every definition of each stack key.
struct rt_truth {
    std::map<std::tuple<std::uint16_t, std::uint64_t, std::uint32_t>, std::vector<std::uint64_t>> stacks;
    std::map<std::pair<std::uint16_t, std::uint64_t>, std::vector<std::uint64_t>> cswitch_pmc;
    std::map<std::pair<std::uint16_t, std::uint64_t>, std::vector<std::pair<bool, std::uint64_t>>> references; // (kernel?, key)
    std::map<std::pair<std::uint64_t, bool>, std::vector<std::vector<std::uint64_t>>> definitions;
    std::uint64_t key_references = 0;
};
inline rt_truth rt_truth_of(byte_view file) {
    rt_truth t;
    for (auto const& r : rt_raw_walk(file)) {
        auto const p = rt_pointer_size(r);
        byte_view const payload = byte_view(r.bytes).subspan(rt_payload_at(r));
        switch (r.hook) {
        case tw::hook::stack_walk:
            t.stacks[{r.cpu, rt_le<std::uint64_t>(payload, 0), rt_le<std::uint32_t>(payload, 0x0C)}] = rt_pointers(payload, 0x10, p);
            break;
        case tw::hook::cswitch: {
            std::vector<std::uint64_t> v;
            for (std::size_t i = 0; i < (rt_le<std::uint8_t>(r.bytes, 1) & 7U); ++i) v.push_back(rt_le<std::uint64_t>(r.bytes, 0x10 + 8 * i));
            t.cswitch_pmc[{r.cpu, r.ts}] = v;
            break;
        }
        case tw::hook::stack_key_kernel:
        case tw::hook::stack_key_user:
            t.references[{r.cpu, rt_le<std::uint64_t>(payload, 0)}].push_back({r.hook == tw::hook::stack_key_kernel, rt_ptr(payload, 0x10, p)});
            ++t.key_references;
            break;
        case tw::hook::stack_key_delete:
        case tw::hook::stack_key_rundown: {
            auto frames = rt_pointers(payload, p, p);
            bool const kernel = !frames.empty() && rt_kernel_address(frames.back(), p);
            t.definitions[{rt_ptr(payload, 0, p), kernel}].push_back(std::move(frames));
            break;
        }
        default: break;
        }
    }
    return t;
}


/// The typed dispatch of a generated trace against what the generator wrote.
inline void rt_check_generated(tw::generated_trace const& g, std::uint32_t pmc_counters) {
    auto const truth = rt_truth_of(g.file);
    REQUIRE(truth.stacks.size() == g.counts.hook_count(tw::hook::stack_walk));
    auto f = tr::trace_file::open(g.file);
    REQUIRE(f.has_value());
    if (!f) return;
    byte_vector storage(tr::reader::storage_size(*f));

    etwctl_test::owned_stack_cache cache;
    etwctl_test::build_stack_cache(*f, storage, cache);
    CHECK(cache.cache.size() == g.counts.hook_count(tw::hook::stack_key_delete) + g.counts.hook_count(tw::hook::stack_key_rundown));
    CHECK(cache.cache.dropped() == 0);

    for (bool with_cache : {true, false}) {
        INFO(std::string(with_cache ? "with a stack cache" : "without a stack cache"));
        tr::reader r(*f, storage);
        tr::event_stream s(r, with_cache ? &cache.cache : nullptr);
        std::uint64_t samples = 0, bad_samples = 0, switches = 0, bad_switches = 0, configs = 0, loose_stacks = 0, loose_keys = 0;
        std::uint64_t resolved = 0, unresolved = 0;
        std::string first_bad;
        auto const rep = tr::dispatch(
            s,
            tr::on<"SampledProfile">([&](tr::sampled_profile const& e) {
                ++samples;
                auto const it = truth.stacks.find({e.processor(), e.timestamp(), e.thread_id()});
                auto const got = rt_frames_of(e.stack());
                bool const ok = it != truth.stacks.end() && got == it->second && !got.empty() && got.front() == e.instruction_pointer() &&
                                e.stack().unresolved_keys() == 0;
                if (!ok && bad_samples++ == 0)
                    first_bad = "SampledProfile on processor " + std::to_string(e.processor()) + " at " + std::to_string(e.timestamp()) + ": " +
                                std::to_string(got.size()) + " frames, want " + std::to_string(it == truth.stacks.end() ? 0 : it->second.size());
            }),
            tr::on<"CSwitch">([&](tr::cswitch const& e) {
                ++switches;
                bool ok = true;
                auto const pmc = truth.cswitch_pmc.find({e.processor(), e.timestamp()});
                ok = ok && pmc != truth.cswitch_pmc.end() && e.pmc().size() == pmc->second.size() && e.pmc().size() == pmc_counters;
                for (std::size_t i = 0; ok && i < e.pmc().size(); ++i) ok = e.pmc()[i] == pmc->second[i];
                auto const refs = truth.references.find({e.processor(), e.timestamp()});
                std::size_t const want = refs == truth.references.end() ? 0 : refs->second.size();
                if (with_cache) {
                    ok = ok && e.stack().parts().size() == want && e.stack().unresolved_keys() == 0 && e.stack().from_cache() == (want != 0);
                    for (std::size_t i = 0; ok && i < want; ++i) {
                        // the frames of one of the definitions of this key and kind
                        auto const defs = truth.definitions.find({refs->second[i].second, refs->second[i].first});
                        auto const frames = rt_frames_of(e.stack().parts()[i]);
                        ok = defs != truth.definitions.end() && std::find(defs->second.begin(), defs->second.end(), frames) != defs->second.end();
                    }
                    resolved += e.stack().parts().size();
                } else {
                    ok = ok && e.stack().empty() && e.stack().unresolved_keys() == want;
                    unresolved += e.stack().unresolved_keys();
                }
                if (!ok && bad_switches++ == 0)
                    first_bad += " | CSwitch on processor " + std::to_string(e.processor()) + " at " + std::to_string(e.timestamp()) + ": " +
                                 std::to_string(e.stack().parts().size()) + " parts, " + std::to_string(e.stack().unresolved_keys()) +
                                 " unresolved, want " + std::to_string(want) + " references";
            }),
            tr::on<"PmcCounterConfig">([&](tr::pmc_counter_config const& e) {
                ++configs;
                CHECK(e.counter_count() == pmc_counters);
                if (pmc_counters >= 2) {
                    CHECK(e.name(0).equals_ascii("TotalCycles"));
                    CHECK(e.name(1).equals_ascii("InstructionRetired"));
                }
            }),
            tr::on<"StackWalk">([&](tr::stack_walk_event const&) { ++loose_stacks; }),
            tr::on<"StackKeyKernel">([&](tr::stack_key_reference const&) { ++loose_keys; }),
            tr::on<"StackKeyUser">([&](tr::stack_key_reference const&) { ++loose_keys; }));
        INFO(first_bad);
        CHECK(samples == g.counts.hook_count(tw::hook::sampled_profile));
        CHECK(bad_samples == 0);
        CHECK(switches == g.counts.hook_count(tw::hook::cswitch));
        CHECK(bad_switches == 0);
        CHECK(configs == (pmc_counters != 0 ? 1U : 0U));
        CHECK(loose_stacks == 0); // every StackWalk went with its sample
        CHECK(loose_keys == 0);   // every key reference went with its CSwitch
        if (with_cache) CHECK(resolved == truth.key_references);
        else CHECK(unresolved == truth.key_references);
        CHECK(rep.raw == 0);
        CHECK(rep.events + g.counts.hook_count(tw::hook::stack_walk) + truth.key_references == g.counts.records);
        CHECK_FALSE(r.losses().any());
    }
}

TEST_CASE("reader: typed dispatch of a generated 64-bit profile trace: samples, their stacks, CSwitch counters and stack keys") {
    tw::trace_options o;
    auto const g = tw::generate_profile_trace(1'500'000, o, 21);
    CHECK(g.counts.hook_count(tw::hook::stack_key_delete) > 0);
    rt_check_generated(g, 2);
}

TEST_CASE("reader: typed dispatch of a generated 32-bit profile trace (4 processors, system-time clock)") {
    tw::trace_options o;
    o.pointer_size = 4;
    o.processors = 4;
    o.clock_type = 2;
    o.buffer_size = 0x4000;
    auto const g = tw::generate_profile_trace(1'000'000, o, 22, {.pmc_counters = 3});
    rt_check_generated(g, 3);
}

TEST_CASE("reader: typed dispatch of a generated compressed profile trace") {
    tw::trace_options o;
    o.compress = true;
    auto const g = tw::generate_profile_trace(700'000, o, 23);
    rt_check_generated(g, 2);
}

// ---- record_stream: every record as it is ---------------------------------------------------------------

/// record_stream against the reader it reads: the same records in the same order, none attached to
/// another; a StackWalk record's stack its own frames, a key reference's one unresolved key, every other
/// hook record's stack empty; dispatch hands each StackWalk record to on<"StackWalk">.
inline void rt_check_record_stream(tw::generated_trace const& g) {
    auto f = tr::trace_file::open(g.file);
    REQUIRE(f.has_value());
    if (!f) return;
    byte_vector storage(tr::reader::storage_size(*f)), storage2(tr::reader::storage_size(*f));
    tr::reader plain(*f, storage), r(*f, storage2);
    tr::record_stream s(r);
    CHECK(&s.source() == &r);
    tr::event_ref want;
    tr::event e;
    std::uint64_t n = 0, bad = 0, own = 0, keys = 0;
    while (plain.next(want)) {
        REQUIRE(s.next(e));
        ++n;
        auto const& rec = e.rec();
        // (the same bytes: in the file, or decompressed by each reader into its own storage)
        bool ok = std::ranges::equal(rec.bytes(), want.rec.bytes()) && rec.hook() == want.rec.hook() &&
                  e.timestamp() == want.rec.timestamp() && e.processor() == want.processor && e.ref().offset == want.offset &&
                  e.ref().buffer_offset == want.buffer_offset;
        auto const h = rec.hook().value;
        if (rec.has_hook() && h == tw::hook::stack_walk) {
            auto const frames = tr::stack_walk_frames(rec.payload(), rec.pointer_size());
            ok = ok && e.stack().parts().size() == 1 && e.stack().parts()[0].frames.data() == frames.data() &&
                 e.stack().size() == frames.size() / rec.pointer_size() && e.stack().size() > 0 && e.stack().unresolved_keys() == 0;
            ++own;
        } else if (rec.has_hook() && (h == tw::hook::stack_key_kernel || h == tw::hook::stack_key_user)) {
            ok = ok && e.stack().empty() && e.stack().unresolved_keys() == 1;
            ++keys;
        } else {
            ok = ok && e.stack().parts().empty() && e.stack().unresolved_keys() == 0;
        }
        if (!ok && bad++ == 0) FAIL_CHECK("record " << n << " (hook " << h << ") differs");
    }
    CHECK_FALSE(s.next(e));
    CHECK(n == g.counts.records);
    CHECK(bad == 0);
    CHECK(own == g.counts.hook_count(tw::hook::stack_walk));
    CHECK(keys == g.counts.hook_count(tw::hook::stack_key_kernel) + g.counts.hook_count(tw::hook::stack_key_user));

    // the typed dispatch of the same records: StackWalk records to their own handler, samples without a stack
    tr::reader r2(*f, storage2);
    tr::record_stream s2(r2);
    std::uint64_t samples = 0, stacks = 0, frames = 0, stack_frames = 0, switches = 0, sample_stacks = 0;
    auto const rep = tr::dispatch(
        s2, tr::on<"SampledProfile">([&](tr::sampled_profile const& x) { ++samples, sample_stacks += x.stack().size(); }),
        tr::on<"StackWalk">([&](tr::stack_walk_event const& x) { ++stacks, frames += x.frame_count(), stack_frames += x.stack().size(); }),
        tr::on<"CSwitch">([&](tr::cswitch const& x) { switches += x.pmc().size() == 2 ? 1U : 0U; }));
    CHECK(rep.events == g.counts.records);
    CHECK(rep.raw == 0);
    CHECK(samples == g.counts.hook_count(tw::hook::sampled_profile));
    CHECK(sample_stacks == 0);
    CHECK(stacks == g.counts.hook_count(tw::hook::stack_walk));
    CHECK(frames == stack_frames);
    CHECK(frames > stacks);
    CHECK(switches == g.counts.hook_count(tw::hook::cswitch));
    CHECK(rep.typed == samples + stacks + g.counts.hook_count(tw::hook::cswitch));
}

TEST_CASE("reader: record_stream hands out every record as it is, a StackWalk record with its own frames (64-bit, 32-bit compressed)") {
    tw::trace_options o;
    rt_check_record_stream(tw::generate_profile_trace(400'000, o, 24));
    o.pointer_size = 4, o.compress = true, o.processors = 4;
    rt_check_record_stream(tw::generate_profile_trace(300'000, o, 25));
}

// ---- stacks and counters, written by hand --------------------------------------------------------------

constexpr std::uint64_t rt_key1 = 0xFFFFC08000000040ULL, rt_key3 = 0xFFFFC08000000FC0ULL;
inline std::vector<std::uint64_t> const rt_frames_a = {0xFFFFF80000011000ULL, 0xFFFFF80000012000ULL, 0xFFFFF80000013000ULL};
inline std::vector<std::uint64_t> const rt_frames_b = {0x00007FF600021000ULL, 0x00007FF600022000ULL};
inline std::vector<std::uint64_t> const rt_frames_c = {0xFFFFF80000031000ULL, 0xFFFFF80000032000ULL, 0xFFFFF80000033000ULL, 0xFFFFF80000034000ULL};
inline std::vector<std::uint64_t> const rt_frames_s = {0xFFFFF80000041000ULL, 0xFFFFF80000042000ULL};
inline std::vector<std::uint64_t> const rt_frames_u = {0x00007FF600051000ULL};
inline std::vector<std::uint64_t> const rt_frames_s2 = {0xFFFFF80000061000ULL};

inline std::vector<std::uint64_t> rt_join(std::vector<std::uint64_t> a, std::vector<std::uint64_t> const& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}
inline void rt_key_reference(tw::trace_writer& w, std::uint16_t cpu, bool kernel, std::uint64_t event_ts, std::uint32_t tid, std::uint64_t key) {
    w.perfinfo(cpu, kernel ? tw::hook::stack_key_kernel : tw::hook::stack_key_user, 2, event_ts,
               tw::stack_key_reference_payload(8, event_ts, 0x10, tid, key));
}
inline void rt_key_definition(tw::trace_writer& w, std::uint16_t cpu, std::uint16_t hook, std::uint64_t ts, std::uint64_t key,
                              std::vector<std::uint64_t> const& frames) {
    w.perfinfo(cpu, hook, 2, ts, tw::stack_key_definition_payload(8, key, frames));
}
inline void rt_sample(tw::trace_writer& w, std::uint16_t cpu, std::uint64_t ts, std::uint32_t tid, std::uint64_t ip) {
    w.perfinfo(cpu, tw::hook::sampled_profile, 2, ts, tw::sampled_profile_payload(8, ip, tid));
}

/// What one event of the hand-written traces got: its stack's frames and parts, its unresolved keys.
struct rt_stack_seen {
    std::uint64_t ts = 0;
    std::vector<std::uint64_t> frames;
    std::size_t parts = 0;
    std::size_t unresolved = 0;
    bool from_cache = false;
};
inline std::vector<rt_stack_seen> rt_stacks_seen(byte_view file, bool with_cache) {
    std::vector<rt_stack_seen> out;
    auto f = tr::trace_file::open(file);
    REQUIRE(f.has_value());
    if (!f) return out;
    byte_vector storage(tr::reader::storage_size(*f));
    etwctl_test::owned_stack_cache cache;
    etwctl_test::build_stack_cache(*f, storage, cache);
    tr::reader r(*f, storage);
    tr::event_stream s(r, with_cache ? &cache.cache : nullptr);
    tr::event e;
    while (s.next(e)) {
        auto const h = e.rec().hook().value;
        if (h != tw::hook::sampled_profile && h != tw::hook::cswitch) continue;
        out.push_back({e.timestamp(), rt_frames_of(e.stack()), e.stack().parts().size(), e.stack().unresolved_keys(), e.stack().from_cache()});
    }
    return out;
}

TEST_CASE("reader: StackWalk parts and stack-key references resolve through a stack cache built in a first pass") {
    tw::trace_writer w;
    std::u16string const names[] = {u"BranchMispredictions", u"TotalCycles", u"LLCMisses"};
    w.perfinfo(0, tw::hook::pmc_counter_config, 2, 50, tw::pmc_counter_config_payload(names));
    tw::cswitch_fields cs;
    cs.new_thread_id = 0x20, cs.old_thread_id = 0x21;
    std::uint64_t const pmc[] = {300, 100, 200};
    w.perfinfo(0, tw::hook::cswitch, 4, 100, tw::cswitch_payload(cs), pmc);
    rt_key_reference(w, 0, true, 100, 0x21, rt_key1);
    rt_key_reference(w, 0, false, 100, 0x21, rt_key1); // the same key value names a user stack too
    rt_sample(w, 1, 150, 0x30, rt_frames_s[0]);
    w.perfinfo(1, tw::hook::stack_walk, 2, 150, tw::stack_walk_payload(8, 150, 0x10, 0x30, rt_frames_s));
    w.perfinfo(1, tw::hook::stack_walk, 2, 151, tw::stack_walk_payload(8, 150, 0x10, 0x30, rt_frames_u)); // its user part
    rt_sample(w, 0, 200, 0x20, rt_frames_a[0]);
    rt_key_reference(w, 0, true, 200, 0x20, rt_key1);
    rt_sample(w, 1, 250, 0x30, rt_frames_s2[0]);
    w.perfinfo(1, tw::hook::stack_walk, 2, 250, tw::stack_walk_payload(8, 250, 0x10, 0x30, rt_frames_s2));
    rt_key_reference(w, 1, false, 250, 0x30, rt_key1);
    rt_key_definition(w, 0, tw::hook::stack_key_delete, 300, rt_key1, rt_frames_a); // evicted: key 1 was stack A
    rt_sample(w, 0, 310, 0x20, rt_frames_c[0]);
    rt_key_reference(w, 0, true, 310, 0x20, rt_key1); // the entry reused for stack C
    rt_sample(w, 0, 400, 0x20, 0xFFFFF80000099000ULL);
    rt_key_reference(w, 0, true, 400, 0x20, rt_key3); // a key the trace never defines
    rt_key_definition(w, 0, tw::hook::stack_key_rundown, 1000, rt_key1, rt_frames_c);
    rt_key_definition(w, 0, tw::hook::stack_key_rundown, 1001, rt_key1, rt_frames_b);
    auto const t = rt_finish(w);

    SUBCASE("with the cache") {
        auto const seen = rt_stacks_seen(t.file, true);
        REQUIRE(seen.size() == 6);
        CHECK(seen[0].ts == 100); // CSwitch: kernel part A (the Delete at 300), user part B (the Rundown)
        CHECK(seen[0].frames == rt_join(rt_frames_a, rt_frames_b));
        CHECK(seen[0].parts == 2);
        CHECK(seen[0].from_cache);
        CHECK(seen[1].ts == 150); // two StackWalk records: kernel part, then user part
        CHECK(seen[1].frames == rt_join(rt_frames_s, rt_frames_u));
        CHECK(seen[1].parts == 2);
        CHECK_FALSE(seen[1].from_cache);
        CHECK(seen[2].ts == 200);
        CHECK(seen[2].frames == rt_frames_a);
        CHECK(seen[3].ts == 250); // a StackWalk kernel part and a cached user part
        CHECK(seen[3].frames == rt_join(rt_frames_s2, rt_frames_b));
        CHECK(seen[3].from_cache);
        CHECK(seen[4].ts == 310); // after the Delete: the key's next definition
        CHECK(seen[4].frames == rt_frames_c);
        CHECK(seen[5].ts == 400);
        CHECK(seen[5].frames.empty());
        CHECK(seen[5].unresolved == 1);
        for (std::size_t i = 0; i < 5; ++i) CHECK(seen[i].unresolved == 0);
    }
    SUBCASE("without a cache, the references are counted as unresolved") {
        auto const seen = rt_stacks_seen(t.file, false);
        REQUIRE(seen.size() == 6);
        std::size_t const unresolved[] = {2, 0, 1, 1, 1, 1};
        for (std::size_t i = 0; i < seen.size(); ++i) CHECK(seen[i].unresolved == unresolved[i]);
        CHECK(seen[0].frames.empty());
        CHECK(seen[1].frames == rt_join(rt_frames_s, rt_frames_u));
        CHECK(seen[3].frames == rt_frames_s2);
    }
    SUBCASE("CSwitch counters in the configured order") {
        auto f = tr::trace_file::open(t.file);
        REQUIRE(f.has_value());
        if (!f) return;
        byte_vector storage(tr::reader::storage_size(*f));
        tr::reader r(*f, storage);
        tr::event_stream s(r);
        std::vector<std::string> configured;
        std::vector<std::uint64_t> values;
        tr::dispatch(s,
                     tr::on<"PmcCounterConfig">([&](tr::pmc_counter_config const& e) {
                         for (std::size_t i = 0; i < e.counter_count(); ++i) {
                             char text[64] = {};
                             auto const n = e.name(i).to_utf8(text);
                             configured.emplace_back(text, (std::min)(n, sizeof text));
                         }
                     }),
                     tr::on<"CSwitch">([&](tr::cswitch const& e) {
                         for (std::size_t i = 0; i < e.pmc().size(); ++i) values.push_back(e.pmc()[i]);
                     }));
        CHECK(configured == std::vector<std::string>{"BranchMispredictions", "TotalCycles", "LLCMisses"});
        CHECK(values == std::vector<std::uint64_t>{300, 100, 200}); // BranchMispredictions, TotalCycles, LLCMisses
    }
}

TEST_CASE("reader: a key reference logged right after the Delete that evicted its key resolves to the key's next definition") {
    // The kernel logs the event, evicts a cache entry for its stack (StackKeyDelete: the old stack's frames),
    // then the reference to the reused entry (traces.md 4.6: after a Delete the key may name another stack;
    // pending references are filled by the definition that follows them in the stream). At QPC resolution
    // the Delete and the reference can carry the same timestamp, as the generator writes them.
    tw::trace_writer w;
    rt_sample(w, 0, 200, 0x20, rt_frames_a[0]);
    rt_key_reference(w, 0, true, 200, 0x20, rt_key1); // key 1 = stack A
    rt_sample(w, 0, 300, 0x20, rt_frames_c[0]);
    rt_key_definition(w, 0, tw::hook::stack_key_delete, 300, rt_key1, rt_frames_a); // A leaves the cache
    rt_key_reference(w, 0, true, 300, 0x20, rt_key1);                               // key 1 = stack C now
    rt_key_definition(w, 0, tw::hook::stack_key_rundown, 1000, rt_key1, rt_frames_c);
    auto const t = rt_finish(w);
    auto const seen = rt_stacks_seen(t.file, true);
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].frames == rt_frames_a);
    CHECK(seen[1].frames == rt_frames_c);
}

TEST_CASE("reader: a stack record in the processor's next buffer still attaches to its event") {
    // A record never spans two buffers, but an event and the stack records logged right after it can: the
    // buffer fills between them (traces.md 4.6: the stack follows its event on the same processor). The
    // look-ahead on a processor reaches across its buffers, within reader::max_look_ahead records.
    tw::trace_options o;
    o.buffer_size = 0x400;
    tw::trace_writer w(o);
    rt_sample(w, 0, 100, 0x20, rt_frames_s[0]);
    w.flush(0); // the sample ends its buffer
    w.perfinfo(0, tw::hook::stack_walk, 2, 101, tw::stack_walk_payload(8, 100, 0x10, 0x20, rt_frames_s));
    tw::cswitch_fields cs;
    w.perfinfo(0, tw::hook::cswitch, 4, 200, tw::cswitch_payload(cs));
    rt_key_reference(w, 0, true, 200, 0x21, rt_key1);
    w.flush(0); // between the kernel and the user reference
    rt_key_reference(w, 0, false, 200, 0x21, rt_key1);
    rt_key_definition(w, 0, tw::hook::stack_key_rundown, 1000, rt_key1, rt_frames_a);
    rt_key_definition(w, 0, tw::hook::stack_key_rundown, 1001, rt_key1, rt_frames_b);
    auto const t = rt_finish(w);
    REQUIRE(t.counts.buffers == 4);
    auto const seen = rt_stacks_seen(t.file, true);
    REQUIRE(seen.size() == 2);
    CHECK(seen[0].frames == rt_frames_s);
    CHECK(seen[1].frames == rt_join(rt_frames_a, rt_frames_b));
    CHECK(seen[1].parts == 2);
}

// ---- raw events, storage -------------------------------------------------------------------------------

TEST_CASE("reader: a record whose version or size fits no layout goes to on_raw with the reason, never to the typed handler") {
    tw::trace_writer w;
    auto const sample = tw::sampled_profile_payload(8, 0xFFFFF80000001234ULL, 0x44);
    w.perfinfo(0, tw::hook::sampled_profile, 9, 1'000'010, sample);                  // version 9: no layout
    w.perfinfo(0, tw::hook::sampled_profile, 2, 1'000'020, rt_pattern(4, 1));        // 4 bytes: too short
    w.perfinfo(0, tw::hook::sampled_profile, 2, 1'000'030, sample);                  // the one that fits
    tw::cswitch_fields cs;
    w.perfinfo(0, tw::hook::cswitch, 1, 1'000'040, tw::cswitch_payload(cs));          // CSwitch v1: not documented
    tw::thread_fields tf;
    auto thread = tw::thread_payload(8, tf);
    thread.resize(0x20);
    w.system(0, {.hook = tw::hook::thread_dc_start, .version = 3, .ts = 1'000'050}, thread); // cut short
    auto const t = rt_finish(w);
    auto f = tr::trace_file::open(t.file);
    REQUIRE(f.has_value());
    if (!f) return;
    byte_vector storage(tr::reader::storage_size(*f));
    tr::reader r(*f, storage);
    tr::event_stream s(r);
    std::vector<std::uint64_t> typed;
    std::vector<std::pair<std::uint64_t, tr::layout_fault>> raw;
    std::uint64_t any = 0;
    auto const rep = tr::dispatch(
        s, tr::on_any([&](tr::event const&) { ++any; }),
        tr::on<"SampledProfile">([&](tr::sampled_profile const& e) { typed.push_back(e.timestamp()); }),
        tr::on<"CSwitch">([&](tr::cswitch const& e) { typed.push_back(e.timestamp()); }),
        tr::on<"ThreadDCStart">([&](tr::thread_event const& e) { typed.push_back(e.timestamp()); }),
        tr::on_raw([&](tr::raw_event const& e) {
            raw.push_back({e.rec().timestamp(), e.reason()});
            if (e.rec().timestamp() == 1'000'010) {
                CHECK(e.rec().version() == 9);
                CHECK(rt_same(e.payload(), sample));
            }
        }));
    CHECK(typed == std::vector<std::uint64_t>{1'000'030});
    REQUIRE(raw.size() == 4);
    CHECK(raw[0] == std::pair<std::uint64_t, tr::layout_fault>{1'000'010, tr::layout_fault::unknown_version});
    CHECK(raw[1] == std::pair<std::uint64_t, tr::layout_fault>{1'000'020, tr::layout_fault::too_short});
    CHECK(raw[2] == std::pair<std::uint64_t, tr::layout_fault>{1'000'040, tr::layout_fault::unknown_version});
    CHECK(raw[3] == std::pair<std::uint64_t, tr::layout_fault>{1'000'050, tr::layout_fault::too_short});
    CHECK(rep.events == 2 + 5);
    CHECK(any == rep.events);
    CHECK(rep.typed == 1);
    CHECK(rep.raw == 4);
}

inline void rt_count_fault(tr::fault const& f, void* context) noexcept { static_cast<std::vector<tr::fault>*>(context)->push_back(f); }

TEST_CASE("reader: storage too small is init_fault() trace_storage_too_small with the size needed; enough storage at any alignment reads") {
    tw::trace_options o;
    o.compress = true; // decompression slots count in the storage too
    tw::trace_writer w(o);
    std::vector<rt_tagged> log;
    for (std::uint64_t i = 0; i < 40; ++i) rt_put_tagged(w, log, static_cast<std::uint16_t>(i % 3), 1'000'000 + i);
    auto const t = rt_finish(w);
    auto f = tr::trace_file::open(t.file);
    REQUIRE(f.has_value());
    if (!f) return;
    std::size_t const need = tr::reader::storage_size(*f);
    CHECK(need > 3 * 0x48);
    byte_vector block(need + 128);
    auto const base = reinterpret_cast<std::uintptr_t>(block.data());
    std::size_t const aligned = (64 - base % 64) % 64; // a 64-aligned start inside the block

    for (std::size_t size : {need - 1, std::size_t{0}, need / 2}) {
        INFO("storage " << size << " of " << need);
        std::vector<tr::fault> seen;
        tr::reader r(*f, std::span<std::byte>(block.data() + aligned, size), {.on_fault = rt_count_fault, .fault_context = &seen});
        CHECK(r.init_fault().what == etwctl::rule::trace_storage_too_small);
        CHECK(r.init_fault().value == size);
        CHECK(r.init_fault().limit == need);
        CHECK(r.first_fault().what == etwctl::rule::trace_storage_too_small);
        CHECK(r.losses().faults == 1);
        REQUIRE(seen.size() == 1);
        CHECK(seen[0].limit == need);
        tr::event_ref e;
        CHECK_FALSE(r.next(e));
    }
    for (std::size_t misalign = 0; misalign < 16; ++misalign) {
        INFO("storage of exactly storage_size() bytes, " << misalign << " bytes past a 64-byte boundary");
        tr::reader r(*f, std::span<std::byte>(block.data() + aligned + misalign, need));
        CHECK(r.init_fault().what == etwctl::rule::ok);
        tr::event_ref e;
        std::size_t n = 0;
        while (r.next(e)) ++n;
        CHECK(n == 2 + log.size());
    }
}

} // namespace reader_tests
