#include "etwctl_test.hpp"

// The test-side trace writer (support/trace_writer.hpp) checked byte by byte against the published
// layouts, independently of etwctl's reader: a buffer is read here with fixed offsets only (GC
// WMI_BUFFER_HEADER, Trace Headers, TRACE_LOGFILE_HEADER; SDK evntcons.h / evntrace.h), compressed
// buffers with the test compressor's reference decoder ([MS-XCA] 2.4.4 followed literally).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "lz77_compress.hpp"
#include "trace_writer.hpp"

namespace writer_tests {

using etwctl_test::trace_options;
using etwctl_test::trace_writer;
using byte_span = std::span<std::byte const>;

/// A little-endian value at `off`; out of range throws (doctest reports it as a failure), or without
/// exceptions fails the check and reads 0.
template <class T>
T le(byte_span b, std::size_t off) {
#if defined(__cpp_exceptions)
    if (off + sizeof(T) > b.size()) throw std::out_of_range("read past the end");
#else
    if (off + sizeof(T) > b.size()) {
        FAIL_CHECK("read past the end");
        return T{};
    }
#endif
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t{std::to_integer<std::uint8_t>(b[off + i])} << (8 * i);
    return static_cast<T>(v);
}
inline std::uint8_t u8(byte_span b, std::size_t off) { return le<std::uint8_t>(b, off); }
inline std::uint16_t u16(byte_span b, std::size_t off) { return le<std::uint16_t>(b, off); }
inline std::uint32_t u32(byte_span b, std::size_t off) { return le<std::uint32_t>(b, off); }
inline std::uint64_t u64(byte_span b, std::size_t off) { return le<std::uint64_t>(b, off); }

inline std::vector<std::byte> make_bytes(std::initializer_list<int> values) {
    std::vector<std::byte> out;
    for (int v : values) out.push_back(static_cast<std::byte>(v));
    return out;
}
/// `n` bytes 1, 2, 3, ... (never zero, so padding and fill stand out).
inline std::vector<std::byte> counting(std::size_t n, int first = 1) {
    std::vector<std::byte> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::byte>((first + static_cast<int>(i)) % 255 + 1);
    return out;
}
inline bool all_equal(byte_span b, std::byte value) {
    return std::all_of(b.begin(), b.end(), [&](std::byte x) { return x == value; });
}
inline std::u16string utf16_at(byte_span b, std::size_t off) {
    std::u16string s;
    for (;; off += 2) {
        auto const c = u16(b, off);
        if (c == 0) return s;
        s.push_back(static_cast<char16_t>(c));
    }
}
inline etwctl::guid test_guid(std::uint32_t d1) {
    return {d1, 0x1122, 0x3344, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC};
}
inline bool guid_at(byte_span b, std::size_t off, etwctl::guid const& g) {
    if (u32(b, off) != g.data1 || u16(b, off + 4) != g.data2 || u16(b, off + 6) != g.data3) return false;
    for (std::size_t i = 0; i < 8; ++i)
        if (u8(b, off + 8 + i) != g.data4[i]) return false;
    return true;
}

/// One buffer of a file: where it starts, its 0x48-byte header, and its records' bytes [0x48, end of
/// data) (decompressed when the buffer is).
struct file_buffer {
    std::size_t offset = 0;
    byte_span header;
    std::vector<std::byte> records;
    byte_span stored; // the whole buffer as stored in the file
};
inline std::vector<file_buffer> split_buffers(byte_span file) {
    std::vector<file_buffer> out;
    for (std::size_t off = 0; off < file.size();) {
        REQUIRE(file.size() - off >= 0x48);
        auto const size = u32(file, off);
        REQUIRE(size >= 0x48);
        REQUIRE(size <= file.size() - off);
        file_buffer b;
        b.offset = off;
        b.stored = file.subspan(off, size);
        b.header = b.stored.first(0x48);
        auto const end = u32(b.header, 0x30);
        if ((u16(b.header, 0x34) & 0x40) != 0) {
            b.records.resize(end - 0x48);
            auto const r = etwctl_test::lz77_reference_decompress(b.stored.subspan(0x48), b.records);
            REQUIRE(r.error == etwctl::rule::ok);
            REQUIRE(r.written == b.records.size());
        } else {
            REQUIRE(end <= size);
            b.records.assign(b.stored.begin() + 0x48, b.stored.begin() + static_cast<std::ptrdiff_t>(end));
        }
        out.push_back(std::move(b));
        off += size;
    }
    return out;
}

/// One record found by the dispatch on its first 4 bytes (GC Trace Headers; NTWMI).
struct record {
    std::size_t at = 0;    // offset in the records' bytes (add 0x48 for the buffer offset)
    std::uint8_t type = 0; // HeaderType byte, 0x0F for MESSAGE
    std::size_t size = 0;
    std::uint16_t hook = 0; // SYSTEM / COMPACT / PERFINFO
    byte_span bytes;
};
inline std::vector<record> walk(byte_span recs) {
    std::vector<record> out;
    std::size_t at = 0;
    while (at < recs.size()) {
        REQUIRE(recs.size() - at >= 8);
        record r;
        r.at = at;
        auto const marker = u8(recs, at + 3);
        if (marker == 0x90) {
            r.type = 0x0F;
            r.size = u16(recs, at);
        } else {
            REQUIRE(marker == 0xC0);
            r.type = u8(recs, at + 2);
            bool const size_at_4 = r.type <= 0x04 || r.type == 0x10 || r.type == 0x11;
            r.size = size_at_4 ? u16(recs, at + 4) : u16(recs, at);
            if (size_at_4) r.hook = u16(recs, at + 6);
        }
        REQUIRE(r.size >= 8);
        REQUIRE(r.size <= recs.size() - at);
        r.bytes = recs.subspan(at, r.size);
        // every record zero-padded to the next multiple of 8 (observed in the real files)
        std::size_t const next = (at + r.size + 7) & ~std::size_t{7};
        REQUIRE(next <= recs.size());
        CHECK(all_equal(recs.subspan(at + r.size, next - at - r.size), std::byte{0}));
        out.push_back(r);
        at = next;
    }
    CHECK(at == recs.size());
    return out;
}

inline std::size_t align8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }


TEST_CASE("writer: header buffer of a 64-bit trace, every TRACE_LOGFILE_HEADER field at its offset") {
    trace_options o;
    o.buffer_size = 0x2000;
    o.processors = 3;
    o.clock_type = 2;
    o.perf_freq = 0x0011223344556677;
    o.cpu_mhz = 2808;
    o.start_time = 0x01D7A58B51B4C6A1;
    o.boot_time = 0x01D7A32D1A8CA640;
    o.time_zone_bias = -120;
    o.header_timestamp = 5'000'000;
    o.header_tid = 0x72C0;
    o.header_pid = 0x98B8;
    o.log_file_mode = 0x00010001;
    o.events_lost = 7;
    o.buffers_lost = 5;
    o.provider_version = 22621;
    o.os_major = 10;
    o.os_minor = 0;
    o.group_masks = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
    o.kernel_event_version = 85;
    o.logger_name = u"Relogger";
    o.log_file_name = u"[multiple files]";
    trace_writer w(o);
    w.system(1, {.hook = 0x0501, .version = 3, .tid = 1, .pid = 2, .ts = 5'000'123}, counting(0x48));
    auto const file = w.finish();
    REQUIRE(file.size() == 2 * 0x2000);
    byte_span const f = file;

    // WMI_BUFFER_HEADER of the header buffer
    CHECK(u32(f, 0x00) == 0x2000);              // BufferSize
    CHECK(u64(f, 0x10) == 0);                   // TimeStamp
    CHECK(u64(f, 0x18) == 0);                   // SequenceNumber
    CHECK(u16(f, 0x28) == 0);                   // ProcessorIndex
    CHECK(u16(f, 0x2A) == 61);                  // LoggerId
    CHECK(u32(f, 0x2C) == 3);                   // State
    CHECK(u16(f, 0x34) == 0x21);                // BufferFlag: PROC_INDEX | FLUSH_MARKER
    CHECK(u16(f, 0x36) == 4);                   // BufferType HEADER
    CHECK(all_equal(f.subspan(0x38, 0x10), std::byte{0}));

    // The header event: the first 8 bytes of the real header event of a relogged 64-bit file
    // (snail-server's test vector: version 2, SYSTEM64, size 0x16C = 0x20 + 0x118 + 18 + 34, hook 0).
    auto const expected_start = make_bytes({0x02, 0x00, 0x02, 0xC0, 0x6C, 0x01, 0x00, 0x00});
    CHECK(std::equal(expected_start.begin(), expected_start.end(), f.begin() + 0x48));
    CHECK(u32(f, 0x50) == 0x72C0);
    CHECK(u32(f, 0x54) == 0x98B8);
    CHECK(u64(f, 0x58) == 5'000'000);
    CHECK(u64(f, 0x60) == 0); // KernelTime, UserTime

    byte_span const p = f.subspan(0x68, 0x16C - 0x20);
    CHECK(u32(p, 0x00) == 0x2000); // BufferSize
    CHECK(u8(p, 0x04) == 10);      // MajorVersion
    CHECK(u8(p, 0x05) == 0);       // MinorVersion
    CHECK(u8(p, 0x06) == 1);       // SubVersion: layout 1.5
    CHECK(u8(p, 0x07) == 5);
    CHECK(u32(p, 0x08) == 22621);  // ProviderVersion
    CHECK(u32(p, 0x0C) == 3);      // NumberOfProcessors
    CHECK(u64(p, 0x10) == o.start_time + 123); // EndTime: clock 2 counts 100 ns already
    CHECK(u32(p, 0x18) == 156250); // TimerResolution
    CHECK(u32(p, 0x20) == 0x00010001); // LogFileMode
    CHECK(u32(p, 0x24) == 2);      // BuffersWritten, the header buffer included
    CHECK(u32(p, 0x2C) == 8);      // PointerSize
    CHECK(u32(p, 0x30) == 7);      // EventsLost
    CHECK(u32(p, 0x34) == 2808);   // CpuSpeedInMHz
    CHECK(u64(p, 0x38) == 0);      // LoggerName slot
    CHECK(u64(p, 0x40) == 0);      // LogFileName slot
    CHECK(le<std::int32_t>(p, 0x48) == -120); // TimeZone.Bias
    CHECK(all_equal(p.subspan(0x4C, 0xF8 - 0x4C), std::byte{0}));
    CHECK(u64(p, 0xF8) == o.boot_time);
    CHECK(u64(p, 0x100) == 0x0011223344556677); // PerfFreq
    CHECK(u64(p, 0x108) == o.start_time);
    CHECK(u32(p, 0x110) == 2);     // ReservedFlags = clock type
    CHECK(u32(p, 0x114) == 5);     // BuffersLost
    CHECK(utf16_at(p, 0x118) == u"Relogger");
    CHECK(utf16_at(p, 0x118 + 18) == u"[multiple files]");

    // The HeaderExtension follows at the next 8-byte boundary: SYSTEM64, hook 0x0005, 0x24 bytes.
    std::size_t const ext = 0x48 + align8(0x16C);
    CHECK(u16(f, ext) == 2);
    CHECK(u8(f, ext + 2) == 0x02);
    CHECK(u8(f, ext + 3) == 0xC0);
    CHECK(u16(f, ext + 4) == 0x20 + 0x24);
    CHECK(u16(f, ext + 6) == 0x0005);
    for (std::size_t i = 0; i < 8; ++i) CHECK(u32(f, ext + 0x20 + 4 * i) == 0x11 * (i + 1));
    CHECK(u32(f, ext + 0x40) == 85);

    std::size_t const end = ext + align8(0x44);
    CHECK(u32(f, 0x04) == end); // SavedOffset
    CHECK(u32(f, 0x08) == end); // CurrentOffset (header buffer: = SavedOffset, observed)
    CHECK(u32(f, 0x30) == end); // Offset
    CHECK(all_equal(f.subspan(end, 0x2000 - end), std::byte{0xFF}));
}

TEST_CASE("writer: header buffer of a 32-bit trace, the 32-bit TRACE_LOGFILE_HEADER") {
    trace_options o;
    o.pointer_size = 4;
    o.buffer_size = 0x1000;
    o.clock_type = 3;
    o.cpu_mhz = 2000;
    o.perf_freq = 3'579'545;
    o.header_timestamp = 1'000'000;
    o.time_zone_bias = 300;
    o.buffers_lost = 9;
    o.logger_name = u"NT Kernel Logger";
    o.log_file_name = u"C:\\k.etl";
    trace_writer w(o);
    w.perfinfo(0, 0x0F2E, 2, 3'000'000, etwctl_test::sampled_profile_payload(4, 0x80401234, 8), {}, {}, true);
    auto const file = w.finish();
    byte_span const f = file;
    std::size_t const size = 0x20 + 0x110 + 2 * 17 + 2 * 9;
    auto const expected_start = make_bytes({0x02, 0x00, 0x01, 0xC0, static_cast<int>(size & 0xFF), static_cast<int>(size >> 8), 0x00, 0x00});
    CHECK(std::equal(expected_start.begin(), expected_start.end(), f.begin() + 0x48));
    byte_span const p = f.subspan(0x68, size - 0x20);
    CHECK(u32(p, 0x24) == 2);         // BuffersWritten
    CHECK(u32(p, 0x2C) == 4);         // PointerSize
    CHECK(u32(p, 0x38) == 0);         // LoggerName slot (4 bytes)
    CHECK(u32(p, 0x3C) == 0);         // LogFileName slot
    CHECK(le<std::int32_t>(p, 0x40) == 300); // TimeZone.Bias
    CHECK(all_equal(p.subspan(0x44, 0xF0 - 0x44), std::byte{0}));
    CHECK(u64(p, 0xF0) == o.boot_time);
    CHECK(u64(p, 0xF8) == 3'579'545); // PerfFreq
    CHECK(u64(p, 0x100) == o.start_time);
    CHECK(u32(p, 0x108) == 3);        // ReservedFlags: CPU cycle counter
    CHECK(u32(p, 0x10C) == 9);        // BuffersLost
    CHECK(utf16_at(p, 0x110) == u"NT Kernel Logger");
    CHECK(utf16_at(p, 0x110 + 34) == u"C:\\k.etl");
    // EndTime for the cycle counter: 2,000,000 cycles at 2000 MHz = 1 ms = 10,000 x 100 ns
    CHECK(u64(p, 0x10) == o.start_time + 10'000);
    // The HeaderExtension is SYSTEM32 too.
    std::size_t const ext = 0x48 + align8(size);
    CHECK(u8(f, ext + 2) == 0x01);
    CHECK(u16(f, ext + 6) == 0x0005);
}

TEST_CASE("writer: the header buffer's variants (no extension, PERFINFO extension, small header buffer, EndTime)") {
    SUBCASE("not a system logger: the header event only") {
        trace_options o;
        o.system_logger = false;
        o.end_time = 0; // not finalized
        trace_writer w(o);
        auto const file = w.finish();
        byte_span const f = file;
        std::size_t const size = u16(f, 0x4C);
        CHECK(u32(f, 0x30) == 0x48 + align8(size));
        CHECK(u64(f, 0x68 + 0x10) == 0);
        CHECK(file.size() == 0x10000); // the header buffer only
        CHECK(u32(f, 0x68 + 0x24) == 1);
        CHECK(w.counts().by_hook.count(0x0005) == 0);
    }
    SUBCASE("the HeaderExtension with a PERFINFO header") {
        trace_options o;
        o.header_extension_perfinfo = true;
        o.header_buffer_size = 0x400; // as in relogged files
        trace_writer w(o);
        w.system(0, {.hook = 0x0502, .ts = 2'000'000}, {});
        auto const file = w.finish();
        byte_span const f = file;
        CHECK(u32(f, 0) == 0x400);
        CHECK(u32(f, 0x400) == 0x10000); // the next buffer has the session's size
        std::size_t const ext = 0x48 + align8(u16(f, 0x4C));
        CHECK(u8(f, ext + 2) == 0x11);
        CHECK(u16(f, ext + 4) == 0x10 + 0x24);
        CHECK(u16(f, ext + 6) == 0x0005);
        CHECK(u32(f, ext + 0x10 + 0x20) == 85);
        // QPC: (2,000,000 - 1,000,000) ticks at 10 MHz = 0.1 s = 1,000,000 x 100 ns
        CHECK(u64(f, 0x68 + 0x10) == trace_options{}.start_time + 1'000'000);
    }
    SUBCASE("layout 2.0 with buffers above 1 MB") {
        trace_options o;
        o.buffer_size = 0x200000;
        trace_writer w(o);
        auto const file = w.finish();
        CHECK(u8(file, 0x68 + 6) == 2);
        CHECK(u8(file, 0x68 + 7) == 0);
    }
    SUBCASE("layout 2.0 with more than 256 processors") {
        trace_options o;
        o.processors = 320;
        trace_writer w(o);
        auto const file = w.finish();
        CHECK(u8(file, 0x68 + 6) == 2);
        CHECK(u32(file, 0x68 + 0x0C) == 320);
    }
}

TEST_CASE("writer: records are 8-aligned, zero-padded, and the rest of a buffer is 0xFF") {
    trace_options o;
    o.buffer_size = 0x1000;
    trace_writer w(o);
    std::uint64_t ts = 2'000'000;
    for (std::size_t n = 0; n < 10; ++n) w.system(0, {.hook = 0x0F33, .version = 2, .tid = 3, .pid = 4, .ts = ts++}, counting(n));
    auto const file = w.finish();
    auto const buffers = split_buffers(file);
    REQUIRE(buffers.size() == 2);
    auto const& b = buffers[1];
    auto const recs = walk(b.records);
    REQUIRE(recs.size() == 10);
    for (std::size_t i = 0; i < recs.size(); ++i) {
        CHECK(recs[i].at % 8 == 0);
        CHECK(recs[i].size == 0x20 + i);
        CHECK(recs[i].type == 0x02);
        CHECK(std::equal(recs[i].bytes.begin() + 0x20, recs[i].bytes.end(), counting(i).begin()));
    }
    std::size_t const end = 0x48 + b.records.size();
    CHECK(end % 8 == 0);
    CHECK(u32(b.header, 0x00) == 0x1000);
    CHECK(u32(b.header, 0x04) == end);           // SavedOffset
    CHECK(u32(b.header, 0x30) == end);           // Offset
    CHECK(u32(b.header, 0x08) == 0x1000 + end);  // CurrentOffset: larger than BufferSize, as in live files
    CHECK(u64(b.header, 0x10) == ts - 1);        // TimeStamp = the last event's
    CHECK(u16(b.header, 0x34) == 0x20);
    CHECK(u16(b.header, 0x36) == 0);
    CHECK(u32(b.header, 0x2C) == 3);
    CHECK(u64(b.header, 0x38) != 0); // stale pointers, as live files have them
    CHECK(all_equal(b.stored.subspan(end), std::byte{0xFF}));
    CHECK(w.counts().records_per_buffer == std::vector<std::uint32_t>{2, 10});
}

TEST_CASE("writer: full buffers split, sequence numbers increase in flush order, skip_sequence leaves a gap") {
    trace_options o;
    o.buffer_size = 0x100; // room for 0xB8 bytes: two records of 0x48
    o.header_buffer_size = 0x400;
    o.system_logger = false;
    trace_writer w(o);
    auto const payload = counting(0x28);
    auto put = [&](std::uint16_t cpu, std::uint64_t ts) {
        w.system(cpu, {.hook = 0x0524, .version = 2, .tid = cpu, .pid = 0, .ts = ts}, payload);
    };
    put(0, 10);
    put(0, 11);
    put(1, 12);
    put(0, 13); // cpu 0's buffer is full: written with sequence 1
    w.skip_sequence();
    put(1, 14);
    put(1, 15); // cpu 1's buffer is full: written with sequence 3 (2 was "lost")
    auto const file = w.finish(); // then cpu 0 (sequence 4) and cpu 1 (sequence 5)
    auto const buffers = split_buffers(file);
    REQUIRE(buffers.size() == 5);
    std::vector<std::uint64_t> sequences;
    std::vector<std::uint16_t> cpus;
    std::vector<std::uint64_t> stamps;
    std::vector<std::size_t> offsets;
    for (auto const& b : buffers) {
        sequences.push_back(u64(b.header, 0x18));
        cpus.push_back(u16(b.header, 0x28));
        stamps.push_back(u64(b.header, 0x10));
        offsets.push_back(b.offset);
        CHECK(u32(b.header, 0) == (b.offset == 0 ? 0x400U : 0x100U));
    }
    CHECK(sequences == std::vector<std::uint64_t>{0, 1, 3, 4, 5});
    CHECK(cpus == std::vector<std::uint16_t>{0, 0, 1, 0, 1});
    CHECK(stamps == std::vector<std::uint64_t>{0, 11, 14, 13, 15});
    auto const& c = w.counts();
    CHECK(c.buffer_offsets == offsets);
    CHECK(c.records_per_buffer == std::vector<std::uint32_t>{1, 2, 2, 1, 1});
    CHECK(c.buffers == 5);
    CHECK(u32(file, 0x68 + 0x24) == 5); // BuffersWritten
    CHECK(c.by_cpu.at(0) == 4);         // 3 + the header event
    CHECK(c.by_cpu.at(1) == 3);
    CHECK(c.hook_count(0x0524) == 6);
}

TEST_CASE("writer: explicit flush, extra flags, ProcessorNumber without PROC_INDEX and the full index above 255") {
    trace_options o;
    o.buffer_flags = 0; // an older writer: ProcessorNumber only
    o.buffer_size = 0x200;
    o.header_buffer_size = 0x400;
    trace_writer w(o);
    w.flush(5); // an empty buffer, written because it was asked for
    w.perfinfo(3, 0x0F2E, 2, 2'000'000, etwctl_test::sampled_profile_payload(8, 1, 2));
    w.flush(3, etwctl_test::buffer_flag::events_lost);
    w.perfinfo(300, 0x0F2E, 2, 2'000'001, etwctl_test::sampled_profile_payload(8, 1, 2));
    auto const file = w.finish();
    auto const buffers = split_buffers(file);
    REQUIRE(buffers.size() == 4);
    CHECK(u16(buffers[0].header, 0x34) == 0x01); // header buffer: FLUSH_MARKER only
    // the empty buffer: no records, all 0xFF after the header
    CHECK(u32(buffers[1].header, 0x30) == 0x48);
    CHECK(buffers[1].records.empty());
    CHECK(all_equal(buffers[1].stored.subspan(0x48), std::byte{0xFF}));
    CHECK(u8(buffers[1].header, 0x28) == 5);
    // ProcessorNumber in the low byte, Alignment byte 0, no PROC_INDEX; the extra flag
    CHECK(u8(buffers[2].header, 0x28) == 3);
    CHECK(u8(buffers[2].header, 0x29) == 0);
    CHECK(u16(buffers[2].header, 0x34) == 0x02);
    // processor 300 needs the 16-bit ProcessorIndex and the PROC_INDEX flag
    CHECK(u16(buffers[3].header, 0x28) == 300);
    CHECK(u16(buffers[3].header, 0x34) == 0x20);
}

TEST_CASE("writer: SYSTEM and COMPACT headers in both pointer sizes") {
    trace_writer w;
    auto const payload = counting(5);
    w.system(0, {.hook = 0x0501, .version = 3, .tid = 0x11, .pid = 0x22, .ts = 0x0102030405060708, .kernel_time = 0x33, .user_time = 0x44}, payload);
    w.system(0, {.hook = 0x0502, .version = 2, .tid = 0x55, .pid = 0x66, .ts = 0x0102030405060709}, payload, true);
    w.compact(0, {.hook = 0x0503, .version = 1, .tid = 0x77, .pid = 0x88, .ts = 0x010203040506070A}, payload);
    w.compact(0, {.hook = 0x0504, .version = 4, .tid = 0x99, .pid = 0xAA, .ts = 0x010203040506070B}, payload, true);
    auto const file = w.finish();
    auto const buffers = split_buffers(file);
    auto const recs = walk(buffers.at(1).records);
    REQUIRE(recs.size() == 4);
    byte_span const s64 = recs[0].bytes;
    CHECK(u16(s64, 0) == 3);
    CHECK(u8(s64, 2) == 0x02);
    CHECK(u8(s64, 3) == 0xC0);
    CHECK(u16(s64, 4) == 0x25);
    CHECK(u16(s64, 6) == 0x0501);
    CHECK(u32(s64, 8) == 0x11);
    CHECK(u32(s64, 0xC) == 0x22);
    CHECK(u64(s64, 0x10) == 0x0102030405060708);
    CHECK(u32(s64, 0x18) == 0x33);
    CHECK(u32(s64, 0x1C) == 0x44);
    CHECK(std::equal(payload.begin(), payload.end(), s64.begin() + 0x20));
    CHECK(u8(recs[1].bytes, 2) == 0x01);
    CHECK(u16(recs[1].bytes, 6) == 0x0502);
    byte_span const c64 = recs[2].bytes;
    CHECK(u8(c64, 2) == 0x04);
    CHECK(u16(c64, 4) == 0x18 + 5);
    CHECK(u16(c64, 6) == 0x0503);
    CHECK(u32(c64, 8) == 0x77);
    CHECK(u32(c64, 0xC) == 0x88);
    CHECK(u64(c64, 0x10) == 0x010203040506070A);
    CHECK(std::equal(payload.begin(), payload.end(), c64.begin() + 0x18));
    CHECK(u8(recs[3].bytes, 2) == 0x03);
    auto const& c = w.counts();
    CHECK(c.by_header_type.at(0x01) == 1);
    CHECK(c.by_header_type.at(0x02) == 3); // + the header event and the HeaderExtension
    CHECK(c.by_header_type.at(0x03) == 1);
    CHECK(c.by_header_type.at(0x04) == 1);
}

TEST_CASE("writer: PERFINFO header with PMC counters and a PEBS index") {
    trace_writer w;
    etwctl_test::cswitch_fields cs;
    cs.new_thread_id = 0x10;
    cs.old_thread_id = 0x20;
    auto const cswitch = etwctl_test::cswitch_payload(cs);
    REQUIRE(cswitch.size() == 0x18);
    std::uint64_t const two[] = {0xF38, 0x24B8};
    std::uint64_t const three[] = {1, 2, 3};
    w.perfinfo(0, 0x0524, 4, 0x1111, cswitch, two);
    w.perfinfo(0, 0x0524, 4, 0x2222, cswitch, three, 0xABCDEF);
    w.perfinfo(0, 0x0F2E, 2, 0x3333, etwctl_test::sampled_profile_payload(4, 0x401000, 7), {}, {}, true);
    w.perfinfo(0, 0x0524, 4, 0x4444, cswitch, {}, 0x77);
    auto const file = w.finish();
    auto const buffers = split_buffers(file);
    auto const recs = walk(buffers.at(1).records);
    REQUIRE(recs.size() == 4);
    // The real bytes of a CSwitch v4 with two counters (snail-server's test vector):
    // 04 02 11 C0 38 00 24 05 <ts> <u64 0xF38> <u64 0x24B8> <24-byte CSwitch>
    auto const expected = make_bytes({0x04, 0x02, 0x11, 0xC0, 0x38, 0x00, 0x24, 0x05});
    CHECK(std::equal(expected.begin(), expected.end(), recs[0].bytes.begin()));
    CHECK(u64(recs[0].bytes, 8) == 0x1111);
    CHECK(u64(recs[0].bytes, 0x10) == 0xF38);
    CHECK(u64(recs[0].bytes, 0x18) == 0x24B8);
    CHECK(u32(recs[0].bytes, 0x20) == 0x10);
    // three counters + PEBS: byte 1 = 0x83; the PEBS index first (as snail-server reads it), then counters
    byte_span const r1 = recs[1].bytes;
    CHECK(u8(r1, 1) == 0x83);
    CHECK(u16(r1, 4) == 0x10 + 4 * 8 + 0x18);
    CHECK(u64(r1, 0x10) == 0xABCDEF);
    CHECK(u64(r1, 0x18) == 1);
    CHECK(u64(r1, 0x28) == 3);
    CHECK(u32(r1, 0x30) == 0x10);
    // PERFINFO32, no extensions: SampledProfile of 12 bytes right after the 16-byte header
    byte_span const r2 = recs[2].bytes;
    CHECK(u8(r2, 1) == 0);
    CHECK(u8(r2, 2) == 0x10);
    CHECK(u16(r2, 4) == 0x10 + 0x0C);
    CHECK(u16(r2, 6) == 0x0F2E);
    CHECK(u32(r2, 0x10) == 0x401000);
    CHECK(u32(r2, 0x14) == 7);
    // PEBS without counters: 0x80
    CHECK(u8(recs[3].bytes, 1) == 0x80);
    CHECK(u64(recs[3].bytes, 0x10) == 0x77);
#if defined(__cpp_exceptions) // without exceptions the writer aborts on a refusal
    std::uint64_t const eight[8] = {};
    CHECK_THROWS_AS(trace_writer{}.perfinfo(0, 0x0524, 4, 1, cswitch, eight), std::invalid_argument);
#endif
}

TEST_CASE("writer: FULL_HEADER and INSTANCE headers") {
    trace_writer w;
    trace_writer::classic_fields f;
    f.event_guid = test_guid(0xB3E675D7);
    f.type = 0x24;
    f.level = 4;
    f.version = 0x0102;
    f.tid = 0x10;
    f.pid = 0x20;
    f.ts = 0x123456789;
    f.kernel_time = 0x30;
    f.user_time = 0x40;
    auto const payload = counting(9);
    w.full(0, f, payload);
    w.full(0, f, payload, true);
    w.instance(0, f, 0x51, 0x52, test_guid(0xCAFE), payload);
    w.instance(0, f, 0x61, 0x62, test_guid(0xBEEF), payload, true);
    auto const file = w.finish();
    auto const buffers = split_buffers(file);
    auto const recs = walk(buffers.at(1).records);
    REQUIRE(recs.size() == 4);
    byte_span const r = recs[0].bytes;
    CHECK(u16(r, 0) == 0x30 + 9);
    CHECK(u8(r, 2) == 0x14);
    CHECK(u8(r, 3) == 0xC0);
    CHECK(u8(r, 4) == 0x24);
    CHECK(u8(r, 5) == 4);
    CHECK(u16(r, 6) == 0x0102);
    CHECK(u32(r, 8) == 0x10);
    CHECK(u32(r, 0xC) == 0x20);
    CHECK(u64(r, 0x10) == 0x123456789);
    CHECK(guid_at(r, 0x18, f.event_guid));
    CHECK(u32(r, 0x28) == 0x30);
    CHECK(u32(r, 0x2C) == 0x40);
    CHECK(std::equal(payload.begin(), payload.end(), r.begin() + 0x30));
    CHECK(u8(recs[1].bytes, 2) == 0x0A);
    byte_span const i = recs[2].bytes;
    CHECK(u16(i, 0) == 0x48 + 9);
    CHECK(u8(i, 2) == 0x15);
    CHECK(u32(i, 0x30) == 0x51);
    CHECK(u32(i, 0x34) == 0x52);
    CHECK(guid_at(i, 0x38, test_guid(0xCAFE)));
    CHECK(std::equal(payload.begin(), payload.end(), i.begin() + 0x48));
    CHECK(u8(recs[3].bytes, 2) == 0x0B);
    CHECK(w.counts().by_hook.size() == 2); // FULL / INSTANCE records have no hook: header + extension only
}

TEST_CASE("writer: EVENT_HEADER records and their extended items") {
    trace_writer w;
    trace_writer::event_fields f;
    f.provider = test_guid(0x1);
    f.id = 0x0102;
    f.version = 3;
    f.channel = 11;
    f.level = 4;
    f.opcode = 9;
    f.task = 0x0506;
    f.keyword = 0x8000000000000010;
    f.tid = 0x70;
    f.pid = 0x80;
    f.ts = 0x99999;
    f.activity = test_guid(0x2);
    f.event_property = 0x8;
    f.kernel_time = 0xA;
    f.user_time = 0xB;
    std::uint64_t const frames[] = {0x7FF612340000, 0x7FF612350000, 0x7FF612360000};
    std::vector<etwctl_test::ext_item> const items = {
        etwctl_test::related_activity_id_item(test_guid(0x3)),
        etwctl_test::blob_item(etwctl_test::ext_type::prov_traits, counting(15)),
        etwctl_test::stack_trace_item(8, 0, frames),
        etwctl_test::stack_key_item(4, 0x42, 0x1234),
    };
    auto const user_data = counting(7, 50);
    // a buffer of 0xEE bytes first: the items' padding must be zero in a reused buffer too
    w.raw(0, std::vector<std::byte>(0x400, std::byte{0xEE}));
    w.flush(0);
    w.event(0, f, items, user_data);
    w.event(0, f, {}, user_data, true);
    auto const file = w.finish();
    auto const buffers = split_buffers(file);
    auto const recs = walk(buffers.at(2).records);
    REQUIRE(recs.size() == 2);
    byte_span const r = recs[0].bytes;
    std::size_t const items_size = (8 + 16) + (8 + 16) + (8 + 32) + (8 + 16);
    CHECK(u16(r, 0) == 0x50 + items_size + 7);
    CHECK(u16(r, 2) == 0xC013);
    CHECK(u16(r, 4) == 0x0001); // EXTENDED_INFO
    CHECK(u16(r, 6) == 0x8);
    CHECK(u32(r, 8) == 0x70);
    CHECK(u32(r, 0xC) == 0x80);
    CHECK(u64(r, 0x10) == 0x99999);
    CHECK(guid_at(r, 0x18, f.provider));
    CHECK(u16(r, 0x28) == 0x0102);
    CHECK(u8(r, 0x2A) == 3);
    CHECK(u8(r, 0x2B) == 11);
    CHECK(u8(r, 0x2C) == 4);
    CHECK(u8(r, 0x2D) == 9);
    CHECK(u16(r, 0x2E) == 0x0506);
    CHECK(u64(r, 0x30) == 0x8000000000000010);
    CHECK(u32(r, 0x38) == 0xA);
    CHECK(u32(r, 0x3C) == 0xB);
    CHECK(guid_at(r, 0x40, f.activity));
    // the items: each 8-aligned; size field = 8 + DataSize rounded up to 8 (24 for the 15-byte
    // PROV_TRAITS, as in the real file primitive-types.etl); linkage 1 but on the last
    struct expect { std::uint16_t type, item_size, data_size, linkage; };
    expect const want[] = {{0x0001, 24, 16, 1}, {0x000C, 24, 15, 1}, {0x0006, 40, 32, 1}, {0x0011, 24, 16, 0}};
    std::size_t at = 0x50;
    for (auto const& e : want) {
        CAPTURE(e.type);
        CHECK(at % 8 == 0);
        CHECK(u16(r, at) == e.item_size);
        CHECK(u16(r, at + 2) == e.type);
        CHECK(u16(r, at + 4) == e.linkage);
        CHECK(u16(r, at + 6) == e.data_size);
        CHECK(all_equal(r.subspan(at + 8 + e.data_size, e.item_size - 8u - e.data_size), std::byte{0}));
        at += e.item_size;
    }
    CHECK(guid_at(r, 0x50 + 8, test_guid(0x3)));
    CHECK(std::equal(r.begin() + 0x68 + 8, r.begin() + 0x68 + 8 + 15, counting(15).begin()));
    CHECK(u64(r, 0x80 + 8) == 0);              // MatchId
    CHECK(u64(r, 0x80 + 16) == frames[0]);
    CHECK(u64(r, 0x80 + 32) == frames[2]);
    CHECK(u64(r, 0xA8 + 8) == 0x42);           // STACK_KEY32: MatchId, StackKey u32, Padding
    CHECK(u32(r, 0xA8 + 16) == 0x1234);
    CHECK(u32(r, 0xA8 + 20) == 0);
    CHECK(at == 0x50 + items_size);
    CHECK(std::equal(user_data.begin(), user_data.end(), r.begin() + static_cast<std::ptrdiff_t>(at)));
    // no items: no EXTENDED_INFO, user data right after the header; EVENT_HEADER32
    byte_span const r2 = recs[1].bytes;
    CHECK(u16(r2, 0) == 0x50 + 7);
    CHECK(u16(r2, 2) == 0xC012);
    CHECK(u16(r2, 4) == 0);
    CHECK(std::equal(user_data.begin(), user_data.end(), r2.begin() + 0x50));
}

TEST_CASE("writer: MESSAGE records and their optional fields") {
    trace_writer w;
    namespace mf = etwctl_test::message_flag;
    trace_writer::message_fields m;
    m.message_number = 0x0A;
    m.sequence = 0x5EC;
    m.component_id = 0xC0C0;
    m.message_guid = test_guid(0x9);
    m.ts = 0x7777;
    m.tid = 0x31;
    m.pid = 0x32;
    auto const args = counting(6);
    m.option_flags = 0;
    w.message(0, m, args);
    m.option_flags = mf::sequence | mf::guid | mf::component_id | mf::timestamp | mf::system_info;
    w.message(0, m, args);
    m.option_flags = mf::sequence | mf::guid | mf::timestamp | mf::pointer64;
    w.message(0, m, args);
    auto const file = w.finish();
    auto const buffers = split_buffers(file);
    auto const recs = walk(buffers.at(1).records);
    REQUIRE(recs.size() == 3);
    byte_span const a = recs[0].bytes;
    CHECK(u16(a, 0) == 8 + 6);
    CHECK(u8(a, 2) == 0);
    CHECK(u8(a, 3) == 0x90);
    CHECK(u16(a, 4) == 0x0A);
    CHECK(u16(a, 6) == 0);
    CHECK(std::equal(args.begin(), args.end(), a.begin() + 8));
    // the component id wins over the GUID
    byte_span const b = recs[1].bytes;
    CHECK(u16(b, 0) == 8 + 4 + 4 + 8 + 8 + 6);
    CHECK(u32(b, 8) == 0x5EC);
    CHECK(u32(b, 0xC) == 0xC0C0);
    CHECK(u64(b, 0x10) == 0x7777);
    CHECK(u32(b, 0x18) == 0x31);
    CHECK(u32(b, 0x1C) == 0x32);
    CHECK(std::equal(args.begin(), args.end(), b.begin() + 0x20));
    // sequence + GUID put the timestamp at 0x1C: unaligned
    byte_span const c = recs[2].bytes;
    CHECK(u16(c, 0) == 8 + 4 + 16 + 8 + 6);
    CHECK(u16(c, 6) == (mf::sequence | mf::guid | mf::timestamp | mf::pointer64));
    CHECK(guid_at(c, 0xC, test_guid(0x9)));
    CHECK(u64(c, 0x1C) == 0x7777);
    CHECK(w.counts().by_header_type.at(0x0F) == 3);
    // the buffer's TimeStamp comes from the last message with a timestamp
    CHECK(u64(buffers.at(1).header, 0x10) == 0x7777);
}

TEST_CASE("writer: raw records are copied as given and zero-padded") {
    trace_writer w;
    auto const junk = make_bytes({0xFF, 0xFF, 0xFF, 0xFF, 0x01});
    w.system(0, {.hook = 0x0501, .ts = 42}, {});
    CHECK(w.raw(0, junk) == 5);
    auto const file = w.finish();
    auto const b = split_buffers(file).at(1);
    REQUIRE(b.records.size() == 0x20 + 8);
    CHECK(std::equal(junk.begin(), junk.end(), b.records.begin() + 0x20));
    CHECK(all_equal(byte_span(b.records).subspan(0x25), std::byte{0}));
    CHECK(u64(b.header, 0x10) == 42); // a raw record leaves the TimeStamp alone
    auto const& c = w.counts();
    CHECK(c.raw_records == 1);
    CHECK(c.records == 4); // header event, extension, SYSTEM, raw
}

TEST_CASE("writer: compressed buffers are Plain LZ77 after an uncompressed header") {
    // The same records into an uncompressed and a compressed writer: the compressed buffers must
    // decompress to exactly the uncompressed ones' records.
    auto fill = [](trace_writer& w) {
        for (std::uint32_t i = 0; i < 200; ++i) {
            auto const cpu = static_cast<std::uint16_t>(i % 2);
            w.perfinfo(cpu, 0x0F2E, 2, 2'000'000 + i, etwctl_test::sampled_profile_payload(8, 0xFFFFF80000001000 + i * 16, 100 + i % 3));
            std::uint64_t const frames[] = {0xFFFFF80000001000 + i, 0x7FF600001000, 0x7FF600002000};
            w.perfinfo(cpu, 0x1820, 2, 2'000'000 + i, etwctl_test::stack_walk_payload(8, 2'000'000 + i, 4, 100, frames));
        }
    };
    trace_options o;
    o.buffer_size = 0x800;
    trace_writer plain(o);
    fill(plain);
    auto const plain_file = plain.finish();
    o.compress = true;
    trace_writer packed(o);
    fill(packed);
    auto const packed_file = packed.finish();
    CHECK(packed_file.size() < plain_file.size());

    auto const plain_buffers = split_buffers(plain_file);
    auto const packed_buffers = split_buffers(packed_file);
    REQUIRE(packed_buffers.size() == plain_buffers.size());
    REQUIRE(packed_buffers.size() > 4);
    // the header buffer is never compressed; the header says compressed mode and layout 2.0
    byte_span const h = packed_buffers[0].stored;
    CHECK(u32(h, 0) == 0x800);
    CHECK((u16(h, 0x34) & 0x40) == 0);
    CHECK(u32(h, 0x68 + 0x20) == (0x00000001 | 0x04000000));
    CHECK(u8(h, 0x68 + 6) == 2);
    CHECK(u8(h, 0x68 + 7) == 0);
    bool odd_offset = false;
    for (std::size_t i = 1; i < packed_buffers.size(); ++i) {
        auto const& pb = packed_buffers[i];
        auto const& ub = plain_buffers[i];
        CAPTURE(i);
        CHECK(u16(pb.header, 0x34) == 0x60); // PROC_INDEX | COMPRESSED
        CHECK(u32(pb.header, 0) == pb.stored.size());
        CHECK(u32(pb.header, 0) < 0x800);
        CHECK(u32(pb.header, 4) == 0x48 + pb.records.size()); // SavedOffset: uncompressed
        CHECK(u32(pb.header, 0x30) == u32(pb.header, 4));
        CHECK(pb.records == ub.records);
        // the rest of the header is the uncompressed buffer's
        CHECK(u64(pb.header, 0x10) == u64(ub.header, 0x10));
        CHECK(u64(pb.header, 0x18) == u64(ub.header, 0x18));
        CHECK(u16(pb.header, 0x28) == u16(ub.header, 0x28));
        odd_offset = odd_offset || pb.offset % 8 != 0;
    }
    CHECK(odd_offset); // buffers follow each other without alignment
    CHECK(packed.counts().buffer_offsets.size() == packed_buffers.size());
    CHECK(packed.counts().buffer_offsets.back() == packed_buffers.back().offset);
}

TEST_CASE("writer: kernel payload builders in both pointer sizes") {
    using namespace etwctl_test;
    SUBCASE("SampledProfile") {
        auto const p8 = sampled_profile_payload(8, 0xFFFFF80012345678, 0x44, 3, 0x41, 2);
        REQUIRE(p8.size() == 0x10);
        CHECK(u64(p8, 0) == 0xFFFFF80012345678);
        CHECK(u32(p8, 8) == 0x44);
        CHECK(u16(p8, 0xC) == 3);
        CHECK(u8(p8, 0xE) == 0x41);
        CHECK(u8(p8, 0xF) == 2);
        auto const p4 = sampled_profile_payload(4, 0x80401000, 0x44);
        REQUIRE(p4.size() == 0x0C);
        CHECK(u32(p4, 0) == 0x80401000);
        CHECK(u32(p4, 4) == 0x44);
        CHECK(u16(p4, 8) == 1);
    }
    SUBCASE("Thread_TypeGroup1 v3") {
        thread_fields t;
        t.pid = 4;
        t.tid = 8;
        t.stack_base = 0x1111;
        t.teb_base = 0x7777;
        t.sub_process_tag = 0x99;
        t.base_priority = 13;
        auto const x64 = thread_payload(8, t);
        REQUIRE(x64.size() == 0x48);
        CHECK(u32(x64, 0) == 4);
        CHECK(u32(x64, 4) == 8);
        CHECK(u64(x64, 8) == 0x1111);
        CHECK(u64(x64, 8 + 6 * 8) == 0x7777);
        CHECK(u32(x64, 8 + 7 * 8) == 0x99);
        CHECK(u8(x64, 0xC + 7 * 8) == 13);
        auto const x86 = thread_payload(4, t);
        REQUIRE(x86.size() == 0x2C);
        CHECK(u32(x86, 8 + 6 * 4) == 0x7777);
        t.name = u"worker";
        auto const named = thread_payload(8, t);
        CHECK(utf16_at(named, 0x48) == u"worker");
    }
    SUBCASE("Process_TypeGroup1 v3 / v4, with and without a SID") {
        process_fields pf;
        pf.unique_process_key = 0xFFFFA00000001000;
        pf.pid = 0x1234;
        pf.parent_id = 4;
        pf.session_id = 1;
        pf.directory_table_base = 0x1AA000;
        pf.flags = 0x5;
        pf.image_file_name = "app.exe";
        pf.command_line = u"app.exe -x";
        auto const no_sid = process_payload(8, 4, pf);
        CHECK(u32(no_sid, 8) == 0x1234);
        CHECK(u32(no_sid, 8 + 0xC) == 259);
        CHECK(u64(no_sid, 8 + 0x10) == 0x1AA000);
        CHECK(u32(no_sid, 2 * 8 + 0x10) == 0x5); // Flags (v4)
        CHECK(u32(no_sid, 2 * 8 + 0x14) == 0);   // no SID: 4 zero bytes
        CHECK(std::string(reinterpret_cast<char const*>(no_sid.data()) + 2 * 8 + 0x18) == "app.exe");
        CHECK(utf16_at(no_sid, 2 * 8 + 0x18 + 8) == u"app.exe -x");
        std::uint32_t const subs[] = {21, 1, 2, 3, 1001};
        pf.sid = sid_bytes(5, subs);
        REQUIRE(pf.sid.size() == 8 + 4 * 5);
        auto const v3 = process_payload(4, 3, pf); // x86, no Flags: SID at 2p + 0x10
        std::size_t const sid_at = 2 * 4 + 0x10;
        CHECK(u32(v3, sid_at) != 0);           // TOKEN_USER.Sid pointer
        CHECK(u8(v3, sid_at + 8) == 1);        // SID revision after the 2p-byte TOKEN_USER
        CHECK(u8(v3, sid_at + 9) == 5);        // SubAuthorityCount
        CHECK(u32(v3, sid_at + 8 + 8 + 16) == 1001);
        CHECK(std::string(reinterpret_cast<char const*>(v3.data()) + sid_at + 8 + 28) == "app.exe");
        auto const v4x64 = process_payload(8, 4, pf); // TOKEN_USER is 16 bytes on x64
        CHECK(u8(v4x64, 2 * 8 + 0x14 + 16) == 1);
    }
    SUBCASE("Image_Load") {
        image_fields im{0xFFFFF80000000000, 0xA00000, 0, 0xC5C5, 0x5F5F5F5F, 0x0C, 1, 0x140000000, u"\\SystemRoot\\system32\\ntoskrnl.exe"};
        auto const x64 = image_payload(8, im);
        CHECK(u64(x64, 0) == 0xFFFFF80000000000);
        CHECK(u64(x64, 8) == 0xA00000);
        CHECK(u32(x64, 0x14) == 0xC5C5);
        CHECK(u32(x64, 0x18) == 0x5F5F5F5F);
        CHECK(u8(x64, 0x1C) == 0x0C);
        CHECK(u64(x64, 0x20) == 0x140000000);
        CHECK(utf16_at(x64, 0x38) == im.file_name);
        auto const x86 = image_payload(4, im);
        CHECK(utf16_at(x86, 0x2C) == im.file_name);
    }
    SUBCASE("StackWalk and the stack-cache events") {
        std::uint64_t const frames[] = {0x80401000, 0x80402000, 0x00401000};
        auto const s4 = stack_walk_payload(4, 0xABC, 4, 8, frames);
        REQUIRE(s4.size() == 0x10 + 3 * 4);
        CHECK(u64(s4, 0) == 0xABC);
        CHECK(u32(s4, 8) == 4);
        CHECK(u32(s4, 0xC) == 8);
        CHECK(u32(s4, 0x18) == 0x00401000);
        CHECK(stack_walk_payload(8, 0xABC, 4, 8, frames).size() == 0x10 + 3 * 8);
        auto const ref = stack_key_reference_payload(8, 0xABC, 4, 8, 0xFFFFC08000000040);
        REQUIRE(ref.size() == 24); // observed size on x64
        CHECK(u64(ref, 0x10) == 0xFFFFC08000000040);
        CHECK(stack_key_reference_payload(4, 0xABC, 4, 8, 0x86000040).size() == 20);
        auto const def = stack_key_definition_payload(4, 0x86000040, frames);
        REQUIRE(def.size() == 4 + 3 * 4);
        CHECK(u32(def, 0) == 0x86000040);
        CHECK(u32(def, 4) == 0x80401000);
    }
    SUBCASE("ReadyThread, CSwitch, interval and PMC configuration events") {
        auto const rt = ready_thread_payload(0x99, 2, -1, 0x8);
        REQUIRE(rt.size() == 8);
        CHECK(u32(rt, 0) == 0x99);
        CHECK(u8(rt, 4) == 2);
        CHECK(u8(rt, 5) == 0xFF);
        CHECK(u8(rt, 6) == 0x8);
        cswitch_fields cs;
        cs.new_thread_id = 1;
        cs.old_thread_id = 2;
        cs.new_thread_priority = 9;
        cs.old_thread_wait_reason = 6;
        cs.old_thread_state = 5;
        cs.new_thread_wait_time = 0x77;
        cs.old_thread_remaining_quantum = -3;
        auto const c = cswitch_payload(cs);
        REQUIRE(c.size() == 0x18);
        CHECK(u8(c, 8) == 9);
        CHECK(u8(c, 0xC) == 6);
        CHECK(u8(c, 0xE) == 5);
        CHECK(u32(c, 0x10) == 0x77);
        CHECK(le<std::int32_t>(c, 0x14) == -3);
        auto const iv = sampled_profile_interval_payload(3, 0, 10000, 5000, u"Timer");
        CHECK(u32(iv, 4) == 10000);
        CHECK(u32(iv, 8) == 5000);
        CHECK(utf16_at(iv, 12) == u"Timer");
        CHECK(sampled_profile_interval_payload(2, 0, 1, 1).size() == 12);
        std::vector<std::u16string> const names = {u"BranchInstructions", u"LLCReference"};
        auto const cfg = pmc_counter_config_payload(names);
        CHECK(u32(cfg, 0) == 2);
        CHECK(utf16_at(cfg, 4) == u"BranchInstructions");
        CHECK(utf16_at(cfg, 4 + 2 * 19) == u"LLCReference");
    }
}

/// Walks a generated file on its own (fixed offsets only) and checks what a profiler relies on.
struct profile_walk {
    std::map<std::uint16_t, std::uint64_t> hooks;
    std::uint64_t stacks_checked = 0;
};
inline profile_walk check_profile_trace(byte_span file, std::uint8_t p) {
    profile_walk out;
    struct range { std::uint64_t lo, hi; };
    std::vector<range> images;
    std::set<std::uint64_t> defined, referenced;
    std::uint8_t const perfinfo = p == 8 ? 0x11 : 0x10;
    auto ptr = [p](byte_span b, std::size_t off) { return p == 8 ? u64(b, off) : u32(b, off); };
    auto inside = [&](std::uint64_t a) {
        return std::any_of(images.begin(), images.end(), [a](range const& r) { return a >= r.lo && a < r.hi; });
    };
    // the last SampledProfile per processor: its Stack follows it, maybe in the processor's next buffer
    struct sample { std::uint64_t ts = 0, ip = 0; std::uint32_t tid = 0; bool pending = false; };
    std::map<std::uint16_t, sample> samples;
    for (auto const& b : split_buffers(file)) {
        auto const recs = walk(b.records);
        auto& last = samples[u16(b.header, 0x28)];
        for (std::size_t i = 0; i < recs.size(); ++i) {
            auto const& r = recs[i];
            ++out.hooks[r.hook];
            if (r.hook == 0x1403) { // Image DCStart (the rundown comes first, on processor 0)
                images.push_back({ptr(r.bytes, 0x10), ptr(r.bytes, 0x10) + ptr(r.bytes, 0x10 + p)});
            } else if (r.hook == 0x1820) {
                REQUIRE(r.type == perfinfo);
                REQUIRE(last.pending); // the sample it belongs to came just before it
                last.pending = false;
                CHECK(u64(r.bytes, 0x10) == last.ts);  // EventTimeStamp = the sample's timestamp
                CHECK(u32(r.bytes, 0x1C) == last.tid); // StackThread = the sample's ThreadId
                std::size_t const depth = (r.size - 0x20) / p;
                CHECK(depth >= 5);
                CHECK(depth <= 40);
                CHECK(ptr(r.bytes, 0x20) == last.ip);  // frame 0 = the IP
                for (std::size_t k = 0; k < depth; ++k) CHECK(inside(ptr(r.bytes, 0x20 + k * p)));
                ++out.stacks_checked;
            } else if (r.hook == 0x0F2E) {
                CHECK_FALSE(last.pending);
                last = {u64(r.bytes, 8), ptr(r.bytes, 0x10), u32(r.bytes, 0x10 + p), true};
            } else if (r.hook == 0x1825 || r.hook == 0x1826) {
                REQUIRE(r.size == 0x10 + 0x10 + p);
                referenced.insert(ptr(r.bytes, 0x20));
            } else if (r.hook == 0x1823 || r.hook == 0x1824) {
                defined.insert(ptr(r.bytes, 0x10));
                std::size_t const depth = (r.size - 0x10 - p) / p;
                CHECK(depth >= 3);
                for (std::size_t k = 0; k < depth; ++k) CHECK(inside(ptr(r.bytes, 0x10 + p + k * p)));
            } else if (r.hook == 0x0524) {
                CHECK(u8(r.bytes, 1) == 2); // two PMC counters on every CSwitch
                CHECK(r.size == 0x10 + 16 + 0x18);
            }
        }
    }
    CHECK(!images.empty());
    // every referenced key is defined somewhere (on eviction or in the rundown at the end)
    for (auto k : referenced) CHECK(defined.count(k) == 1);
    return out;
}

TEST_CASE("writer: generated profile trace, 64-bit") {
    trace_options o;
    std::size_t const target = 3'000'000;
    auto const g = etwctl_test::generate_profile_trace(target, o, 7);
    CHECK(g.file.size() >= target);
    CHECK(g.file.size() < target + 4 * o.buffer_size);
    auto const walked = check_profile_trace(g.file, 8);
    std::map<std::uint16_t, std::uint64_t> expected_hooks(g.counts.by_hook.begin(), g.counts.by_hook.end());
    CHECK(walked.hooks == expected_hooks);
    CHECK(walked.stacks_checked == g.counts.hook_count(0x0F2E));
    CHECK(g.counts.hook_count(0x0524) > 0);
    CHECK(g.counts.hook_count(0x0532) == g.counts.hook_count(0x0524));
    CHECK(g.counts.hook_count(0x1823) > 0); // evictions happened
    CHECK(g.counts.hook_count(0x1824) > 0);
    CHECK(g.counts.hook_count(0x1826) > 0);
    CHECK(g.counts.by_cpu.size() == 2);
    CHECK(u32(g.file, 0x68 + 0x24) == g.counts.buffers);
    // deterministic for a seed, different for another
    CHECK(etwctl_test::generate_profile_trace(target, o, 7).file == g.file);
    CHECK(etwctl_test::generate_profile_trace(target, o, 8).file != g.file);
}

TEST_CASE("writer: generated profile trace, 32-bit, system-time clock, 4 processors") {
    trace_options o;
    o.pointer_size = 4;
    o.clock_type = 2;
    o.processors = 4;
    o.buffer_size = 0x4000;
    auto const g = etwctl_test::generate_profile_trace(1'000'000, o, 3);
    CHECK(u8(g.file, 0x48 + 2) == 0x01); // SYSTEM32 header event
    auto const walked = check_profile_trace(g.file, 4);
    CHECK(walked.hooks.at(0x0F2E) == g.counts.hook_count(0x0F2E));
    CHECK(g.counts.by_cpu.size() == 4);
    // clock 2: samples 1 ms = 10,000 x 100 ns apart on a processor (the sample lands in the first
    // quarter of its tick)
    std::vector<std::uint64_t> cpu1;
    for (auto const& b : split_buffers(g.file)) {
        if (u16(b.header, 0x28) != 1 || u16(b.header, 0x36) != 0) continue;
        for (auto const& r : walk(b.records))
            if (r.hook == 0x0F2E) cpu1.push_back(u64(r.bytes, 8));
    }
    REQUIRE(cpu1.size() > 10);
    for (std::size_t i = 1; i < cpu1.size(); ++i) {
        CHECK(cpu1[i] - cpu1[i - 1] >= 10'000 - 2'600);
        CHECK(cpu1[i] - cpu1[i - 1] <= 10'000 + 2'600);
    }
}

TEST_CASE("writer: generated profile trace, compressed") {
    trace_options o;
    o.compress = true;
    auto const g = etwctl_test::generate_profile_trace(600'000, o, 11);
    CHECK(g.file.size() >= 600'000);
    auto const walked = check_profile_trace(g.file, 8);
    std::map<std::uint16_t, std::uint64_t> expected_hooks(g.counts.by_hook.begin(), g.counts.by_hook.end());
    CHECK(walked.hooks == expected_hooks);
}

#if defined(__cpp_exceptions) // without exceptions the writer aborts on a refusal
TEST_CASE("writer: refuses what it cannot write") {
    CHECK_THROWS_AS(trace_writer(trace_options{.pointer_size = 6}), std::invalid_argument);
    CHECK_THROWS_AS(trace_writer(trace_options{.buffer_size = 0x80}), std::invalid_argument);
    CHECK_THROWS_AS(trace_writer(trace_options{.buffer_size = 0x1001}), std::invalid_argument);
    trace_writer w(trace_options{.buffer_size = 0x100, .header_buffer_size = 0x400});
    CHECK_THROWS_AS(w.system(0, {}, counting(0x100 - 0x48 - 0x20 + 1)), std::length_error);
    CHECK_NOTHROW(w.system(0, {}, counting(0x100 - 0x48 - 0x20)));
    (void)w.finish();
    CHECK_THROWS_AS(w.finish(), std::logic_error);
    CHECK_THROWS_AS(w.system(0, {}, {}), std::logic_error);
}
#endif

} // namespace writer_tests
