// Hostile traces: a trace file is untrusted input (issue 32, "Hostile input"). Each case takes a trace the
// test writer (support/trace_writer.hpp) wrote and damages bytes at offsets computed here from the format
// (Chappell's WMI_BUFFER_HEADER and trace headers, SDK evntcons.h, [MS-XCA] 2.4), then checks that the
// reader reports a fault naming the rule and the place (the buffer's file offset and the offset inside the
// buffer, both exact), goes on with the next buffer where it can, delivers every record outside the damage,
// and counts what it skipped in losses(). Nothing hangs, nothing is read outside the file (the tests run
// under ASan and UBSan too).
#include "etwctl_test.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/trace.hpp"
#include "trace_writer.hpp"

namespace hostile_tests {

namespace tr = etwctl::trace;
namespace tw = etwctl_test;
using etwctl::rule;
using byte_vector = std::vector<std::byte>;
using byte_view = std::span<std::byte const>;

/// WMI_BUFFER_HEADER (Chappell): its size and the fields the tests damage.
constexpr std::size_t ht_header = 0x48;
constexpr std::size_t ht_buffer_size_at = 0x00, ht_saved_offset_at = 0x04, ht_filled_at = 0x30, ht_flags_at = 0x34;
/// The tagged records of these tests: SYSTEM64 (0x20-byte header, Chappell "SYSTEM_TRACE_HEADER") of an
/// unnamed hook, payload {u32 id, u32 processor}: 0x28 bytes, already a multiple of 8.
constexpr std::uint16_t ht_hook = 0x4343;
constexpr std::size_t ht_record = 0x28;
/// The tests' buffers: 4 tagged records each, 2 processors, 3 buffers each, flushed alternately, so the
/// file holds the header buffer, then buffers 1..6 with processors 0 1 0 1 0 1 and sequence numbers 1..6.
constexpr std::size_t ht_buffer_size = 0x400;
constexpr std::size_t ht_per_buffer = 4;
constexpr std::size_t ht_buffers = 6;
/// The records a hostile record is written between (in buffer 3, processor 0's second): two before it.
constexpr std::size_t ht_victim_buffer = 3;
constexpr std::size_t ht_victim_at = ht_header + 2 * ht_record;

template <class T>
T ht_le(byte_view b, std::size_t off) {
    if (off > b.size() || b.size() - off < sizeof(T)) {
        FAIL_CHECK("the test read past the end, at " << off);
        return T{};
    }
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t{std::to_integer<std::uint8_t>(b[off + i])} << (8 * i);
    return static_cast<T>(v);
}
template <class T>
void ht_put(byte_vector& b, std::size_t off, T value) {
    if (off > b.size() || b.size() - off < sizeof(T)) {
        FAIL_CHECK("the test wrote past the end, at " << off);
        return;
    }
    auto const v = static_cast<std::uint64_t>(value);
    for (std::size_t i = 0; i < sizeof(T); ++i) b[off + i] = static_cast<std::byte>((v >> (8 * i)) & 0xFFU);
}
constexpr std::size_t ht_align8(std::size_t n) { return (n + 7) & ~std::size_t{7}; }

/// A trace of tagged records, and where everything is.
struct ht_trace {
    byte_vector file;
    std::vector<std::size_t> offsets;               // each buffer's file offset, file order; [0] the header buffer
    std::vector<std::vector<std::uint32_t>> ids;    // the tagged ids of each buffer, file order ([0] none)
    std::size_t victim_extra = 0;                   // the hostile record's bytes in the victim buffer (padded)
};

/// Writes the tests' trace: `hostile`, if given, is written as a raw record into the victim buffer after
/// its second record (so the victim's last two records follow it).
inline ht_trace ht_build(bool compress, byte_view hostile = {}) {
    tw::trace_options o;
    o.buffer_size = static_cast<std::uint32_t>(ht_buffer_size);
    o.compress = compress;
    tw::trace_writer w(o);
    ht_trace t;
    t.ids.resize(1 + ht_buffers);
    std::uint32_t id = 0;
    for (std::size_t b = 1; b <= ht_buffers; ++b) {
        auto const cpu = static_cast<std::uint16_t>((b - 1) % 2);
        for (std::size_t k = 0; k < ht_per_buffer; ++k) {
            if (b == ht_victim_buffer && k == 2 && !hostile.empty()) {
                w.raw(cpu, hostile);
                t.victim_extra = ht_align8(hostile.size());
            }
            ++id;
            byte_vector payload(8);
            for (std::size_t i = 0; i < 4; ++i) payload[i] = static_cast<std::byte>((id >> (8 * i)) & 0xFFU);
            payload[4] = static_cast<std::byte>(cpu);
            w.system(cpu, {.hook = ht_hook, .version = 1, .tid = 8, .pid = 4, .ts = 1'000'000 + 10ULL * id}, payload);
            t.ids[b].push_back(id);
        }
        w.flush(cpu);
    }
    t.file = w.finish();
    auto const& c = w.counts();
    t.offsets = c.buffer_offsets;
    return t;
}
/// Every id, in time order (ids grow with the timestamps), without those of the buffers named.
inline std::vector<std::uint32_t> ht_ids_but(ht_trace const& t, std::initializer_list<std::size_t> skipped_buffers,
                                             std::initializer_list<std::uint32_t> skipped_ids = {}) {
    std::vector<std::uint32_t> out;
    for (std::size_t b = 1; b < t.ids.size(); ++b) {
        if (std::find(skipped_buffers.begin(), skipped_buffers.end(), b) != skipped_buffers.end()) continue;
        for (auto id : t.ids[b])
            if (std::find(skipped_ids.begin(), skipped_ids.end(), id) == skipped_ids.end()) out.push_back(id);
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// What the reader made of a file.
struct ht_result {
    bool opened = false;
    tr::fault open_fault{};
    std::size_t storage = 0;
    std::vector<std::uint32_t> ids;  // tagged ids delivered, in order
    std::size_t records = 0;         // every record delivered
    std::vector<tr::fault> faults;   // as on_fault saw them
    tr::loss_report losses{};
    tr::fault first{};
};
inline void ht_collect(tr::fault const& f, void* context) noexcept { static_cast<std::vector<tr::fault>*>(context)->push_back(f); }

/// Reads a file whole. `storage_limit`: the test does not allocate storage above it (a hostile header
/// must not make the reader ask for gigabytes); storage_size() is reported either way.
inline ht_result ht_read(byte_view file, std::size_t storage_limit = std::size_t{64} << 20) {
    ht_result out;
    auto f = tr::trace_file::open(file, &out.open_fault);
    if (!f) return out;
    out.opened = true;
    out.storage = tr::reader::storage_size(*f);
    if (out.storage > storage_limit) return out;
    byte_vector storage(out.storage);
    tr::reader r(*f, storage, {.on_fault = ht_collect, .fault_context = &out.faults});
    tr::event_ref e;
    for (std::size_t guard = 0; r.next(e); ++guard) {
        if (guard > 1'000'000) {
            FAIL_CHECK("the reader does not end");
            break;
        }
        ++out.records;
        if (e.rec.has_hook() && e.rec.hook().value == ht_hook && e.rec.payload().size() >= 4)
            out.ids.push_back(ht_le<std::uint32_t>(e.rec.payload(), 0));
    }
    out.losses = r.losses();
    out.first = r.first_fault();
    return out;
}

/// The fault is exactly this one: rule, buffer's file offset, offset in the buffer, and (when given) the
/// value read and its limit.
struct ht_want {
    rule what;
    std::uint64_t file_offset;
    std::uint32_t offset;
    std::uint64_t value;
    std::uint64_t limit;
};
inline void ht_check_fault(tr::fault const& f, ht_want const& w, bool check_value = true, bool check_limit = true) {
    CHECK(f.what == w.what);
    CHECK(f.file_offset == w.file_offset);
    CHECK(f.offset == w.offset);
    if (check_value) CHECK(f.value == w.value);
    if (check_limit) CHECK(f.limit == w.limit);
}
/// One fault was met, reported to on_fault and as first_fault().
inline void ht_check_one_fault(ht_result const& r, ht_want const& w, bool check_value = true, bool check_limit = true) {
    CHECK(r.losses.faults == 1);
    REQUIRE(r.faults.size() == 1);
    ht_check_fault(r.faults[0], w, check_value, check_limit);
    ht_check_fault(r.first, w, check_value, check_limit);
}
inline std::string ht_ids_text(std::vector<std::uint32_t> const& v) {
    std::string s;
    for (auto id : v) s += std::to_string(id) + " ";
    return s;
}
#define HT_CHECK_IDS(got, want) CHECK_MESSAGE((got) == (want), "read " << ht_ids_text(got) << "\nwant " << ht_ids_text(want))

/// The bytes of one record as the writer writes it (a scratch trace's first data record).
inline byte_vector ht_record_bytes(std::function<std::size_t(tw::trace_writer&)> const& write) {
    tw::trace_writer w;
    std::size_t const size = write(w);
    auto const file = w.finish();
    auto const at = w.counts().buffer_offsets.at(1) + ht_header;
    return byte_vector(file.begin() + static_cast<std::ptrdiff_t>(at), file.begin() + static_cast<std::ptrdiff_t>(at + size));
}
/// A SYSTEM64 record of `size` bytes as written (size >= 0x20), to damage.
inline byte_vector ht_system_record(std::size_t payload_size) {
    return ht_record_bytes([&](tw::trace_writer& w) {
        return w.system(0, {.hook = 0x0501, .version = 3, .tid = 1, .pid = 2, .ts = 1'000'025}, byte_vector(payload_size, std::byte{0x5A}));
    });
}

// ---- the file and its header buffer --------------------------------------------------------------------

TEST_CASE("hostile: an empty file and files shorter than 72 bytes: trace_file_too_small at offset 0") {
    auto const good = ht_build(false);
    for (std::size_t size : {0U, 1U, 8U, 0x47U}) {
        INFO(size << " bytes");
        byte_view const file = byte_view(good.file).first(size);
        tr::fault why;
        auto f = tr::trace_file::open(file, &why);
        CHECK_FALSE(f.has_value());
        ht_check_fault(why, {rule::trace_file_too_small, 0, 0, size, ht_header});
        if (!f) CHECK(f.error() == why.code());
    }
}

TEST_CASE("hostile: a header buffer whose BufferSize is 0, below 72 or past the end of the file") {
    auto const good = ht_build(false);
    for (std::uint32_t size : {0U, 0x47U, 0x10U, static_cast<std::uint32_t>(good.file.size() + 1), 0xFFFFFFFFU}) {
        INFO("BufferSize " << size);
        auto file = good.file;
        ht_put<std::uint32_t>(file, ht_buffer_size_at, size);
        auto const r = ht_read(file);
        CHECK_FALSE(r.opened);
        ht_check_fault(r.open_fault, {rule::trace_buffer_size, 0, 0, size, file.size()});
    }
}

TEST_CASE("hostile: a header buffer not starting with the header event, or with a truncated TRACE_LOGFILE_HEADER") {
    auto const good = ht_build(false);
    std::size_t const event = ht_header; // the header event: the header buffer's first record
    SUBCASE("another hook") {
        auto file = good.file;
        ht_put<std::uint16_t>(file, event + 6, 0x0F2E); // SYSTEM_TRACE_HEADER.HookId
        auto const r = ht_read(file);
        CHECK_FALSE(r.opened);
        ht_check_fault(r.open_fault, {rule::trace_header_event, 0, 0x48, 0x0F2E, 0});
    }
    SUBCASE("a PERFINFO header") {
        auto file = good.file;
        ht_put<std::uint8_t>(file, event + 2, tr::header_type::perfinfo64); // HeaderType
        auto const r = ht_read(file);
        CHECK_FALSE(r.opened);
        CHECK(r.open_fault.what == rule::trace_header_event);
        CHECK(r.open_fault.file_offset == 0);
        CHECK(r.open_fault.offset == 0x48);
    }
    SUBCASE("TRACE_LOGFILE_HEADER cut before its last fields") {
        // the 64-bit form needs 0x118 bytes before its names (GC TRACE_LOGFILE_HEADER); the record says 0x100
        auto file = good.file;
        ht_put<std::uint16_t>(file, event + 4, 0x20 + 0x100);
        auto const r = ht_read(file);
        CHECK_FALSE(r.opened);
        ht_check_fault(r.open_fault, {rule::trace_header_event, 0, 0x48, 0x100, 0});
    }
    SUBCASE("the names without their NUL") {
        auto file = good.file;
        auto const size = ht_le<std::uint16_t>(file, event + 4);
        ht_put<std::uint16_t>(file, event + 4, static_cast<std::uint16_t>(size - 2)); // the last name's NUL outside the record
        auto const r = ht_read(file);
        CHECK_FALSE(r.opened);
        ht_check_fault(r.open_fault, {rule::trace_header_event, 0, 0x48, size - 2U - 0x20U, 0});
    }
    SUBCASE("the header event runs past the header buffer's data") {
        auto file = good.file;
        auto const filled = ht_le<std::uint32_t>(file, ht_filled_at);
        ht_put<std::uint16_t>(file, event + 4, 0xFFF0);
        auto const r = ht_read(file);
        CHECK_FALSE(r.opened);
        ht_check_fault(r.open_fault, {rule::trace_record_past_buffer, 0, 0x48, 0xFFF0, filled - ht_header});
    }
    SUBCASE("the header buffer's Offset past the buffer") {
        auto file = good.file;
        ht_put<std::uint32_t>(file, ht_filled_at, ht_buffer_size + 8);
        auto const r = ht_read(file);
        CHECK_FALSE(r.opened);
        ht_check_fault(r.open_fault, {rule::trace_buffer_filled, 0, 0x30, ht_buffer_size + 8, ht_buffer_size});
    }
    SUBCASE("a header buffer flagged compressed") {
        auto file = good.file;
        auto const flags = static_cast<std::uint16_t>(ht_le<std::uint16_t>(file, ht_flags_at) | tw::buffer_flag::compressed);
        ht_put<std::uint16_t>(file, ht_flags_at, flags);
        auto const r = ht_read(file);
        CHECK_FALSE(r.opened);
        ht_check_fault(r.open_fault, {rule::trace_header_event, 0, 0x34, flags, 0});
    }
}

// ---- buffers -------------------------------------------------------------------------------------------

TEST_CASE("hostile: a file cut in the middle of a data buffer: the cut buffer is reported, the earlier buffers' records all delivered") {
    for (bool compress : {false, true}) {
        INFO(std::string(compress ? "compressed" : "uncompressed"));
        auto const t = ht_build(compress);
        auto const last = t.offsets.at(ht_buffers);
        auto const stored = ht_le<std::uint32_t>(t.file, last + ht_buffer_size_at);
        REQUIRE(stored > ht_header + 8);
        SUBCASE("72 bytes or more of the last buffer left") {
            std::size_t const left = std::max<std::size_t>(ht_header + 1, stored / 2);
            byte_view const file = byte_view(t.file).first(last + left);
            auto const r = ht_read(file);
            REQUIRE(r.opened);
            ht_check_one_fault(r, {rule::trace_buffer_size, last, 0, stored, left});
            HT_CHECK_IDS(r.ids, ht_ids_but(t, {ht_buffers}));
            CHECK(r.losses.buffers_unreadable == 1);
            CHECK(r.losses.bytes_skipped == left);
            CHECK(r.losses.buffers_cut == 0);
        }
        SUBCASE("less than a buffer header left") {
            std::size_t const left = 40;
            byte_view const file = byte_view(t.file).first(last + left);
            auto const r = ht_read(file);
            REQUIRE(r.opened);
            ht_check_one_fault(r, {rule::trace_file_too_small, last, 0, left, ht_header});
            HT_CHECK_IDS(r.ids, ht_ids_but(t, {ht_buffers}));
            CHECK(r.losses.bytes_skipped == left);
        }
    }
}

TEST_CASE("hostile: a data buffer with BufferSize 0 or below 72 in an uncompressed file: the header's BufferSize resynchronises") {
    auto const t = ht_build(false);
    auto const at = t.offsets.at(ht_victim_buffer);
    for (std::uint32_t size : {0U, 0x20U}) {
        INFO("BufferSize " << size);
        auto file = t.file;
        ht_put<std::uint32_t>(file, at + ht_buffer_size_at, size);
        auto const r = ht_read(file);
        REQUIRE(r.opened);
        ht_check_one_fault(r, {rule::trace_buffer_size, at, 0, size, file.size() - at});
        // the buffers after it are still read: only the victim's records are missing
        HT_CHECK_IDS(r.ids, ht_ids_but(t, {ht_victim_buffer}));
        CHECK(r.losses.buffers_unreadable == 1);
        CHECK(r.losses.bytes_skipped == ht_buffer_size);
        // the buffer is in the file, counted as unreadable: not also a gap in the sequence numbers
        CHECK(r.losses.sequence_gaps == 0);
    }
}

TEST_CASE("hostile: a data buffer with BufferSize 0 in a compressed file: reported, the file's rest skipped and counted") {
    // Compressed buffers have no common size to resynchronise with (traces.md 1.1: each is 0x48 + its stream).
    auto const t = ht_build(true);
    auto const at = t.offsets.at(ht_victim_buffer);
    auto file = t.file;
    ht_put<std::uint32_t>(file, at + ht_buffer_size_at, 0);
    auto const r = ht_read(file);
    REQUIRE(r.opened);
    ht_check_one_fault(r, {rule::trace_buffer_size, at, 0, 0, file.size() - at});
    HT_CHECK_IDS(r.ids, ht_ids_but(t, {3, 4, 5, 6}));
    CHECK(r.losses.buffers_unreadable == 1);
    CHECK(r.losses.bytes_skipped == file.size() - at);
}

TEST_CASE("hostile: a buffer's end of data (Offset) past the buffer or inside its header") {
    auto const t = ht_build(false);
    for (std::size_t victim : {ht_victim_buffer, std::size_t{2}}) { // processor 0's second buffer; processor 1's first
        for (std::uint32_t filled : {static_cast<std::uint32_t>(ht_buffer_size + 8), 0x20U, 0xFFFFFFFFU}) {
            INFO("buffer " << victim << ", Offset " << filled);
            auto const at = t.offsets.at(victim);
            auto file = t.file;
            ht_put<std::uint32_t>(file, at + ht_filled_at, filled);
            auto const r = ht_read(file);
            REQUIRE(r.opened);
            ht_check_one_fault(r, {rule::trace_buffer_filled, at, 0x30, filled, ht_buffer_size});
            // the processor's other buffers are still read
            HT_CHECK_IDS(r.ids, ht_ids_but(t, {victim}));
            CHECK(r.losses.buffers_unreadable == 1);
            CHECK(r.losses.bytes_skipped == ht_buffer_size);
        }
    }
}

TEST_CASE("hostile: SavedOffset larger than any buffer") {
    SUBCASE("uncompressed: Offset is the end of data, SavedOffset is not read") {
        auto const t = ht_build(false);
        auto file = t.file;
        ht_put<std::uint32_t>(file, t.offsets.at(ht_victim_buffer) + ht_saved_offset_at, 0xFFFFFFF0U);
        auto const r = ht_read(file);
        REQUIRE(r.opened);
        HT_CHECK_IDS(r.ids, ht_ids_but(t, {}));
        CHECK_FALSE(r.losses.any());
    }
    SUBCASE("compressed: the buffer is refused, the storage stays what the real buffers need") {
        auto const t = ht_build(true);
        auto const good = ht_read(t.file);
        REQUIRE(good.opened);
        auto const at = t.offsets.at(ht_victim_buffer);
        auto file = t.file;
        std::uint32_t const saved = 0x7FFFFFF0U;
        ht_put<std::uint32_t>(file, at + ht_saved_offset_at, saved);
        auto const r = ht_read(file, good.storage + (std::size_t{1} << 20));
        REQUIRE(r.opened);
        // a decompressed buffer is never larger than the session's BufferSize (the header's): storage for
        // 4 slots per processor of 2 GB is not what a 3-kilobyte file needs
        CHECK(r.storage <= good.storage + 4 * 3 * ht_buffer_size);
        if (r.storage > good.storage + 4 * 3 * ht_buffer_size) return;
        ht_check_one_fault(r, {rule::trace_buffer_filled, at, 0x04, saved, ht_buffer_size}, true, false);
        CHECK(r.faults.at(0).limit <= ht_buffer_size);
        HT_CHECK_IDS(r.ids, ht_ids_but(t, {ht_victim_buffer}));
        CHECK(r.losses.buffers_unreadable == 1);
    }
}

// ---- records -------------------------------------------------------------------------------------------

/// Reads the trace with `hostile` in the victim buffer (both an uncompressed and a compressed file):
/// the walk of that buffer stops at the hostile record with `want` (its offset: ht_victim_at), the two
/// records after it are lost and counted, every other record is delivered.
inline void ht_check_bad_record(byte_view hostile, rule what, std::uint64_t value, std::uint64_t limit) {
    for (bool compress : {false, true}) {
        INFO(std::string(compress ? "compressed" : "uncompressed"));
        auto const t = ht_build(compress, hostile);
        auto const at = t.offsets.at(ht_victim_buffer);
        auto const r = ht_read(t.file);
        REQUIRE(r.opened);
        ht_check_one_fault(r, {what, at, static_cast<std::uint32_t>(ht_victim_at), value, limit});
        auto const& victim = t.ids[ht_victim_buffer];
        HT_CHECK_IDS(r.ids, ht_ids_but(t, {}, {victim[2], victim[3]}));
        CHECK(r.losses.buffers_cut == 1);
        CHECK(r.losses.buffers_unreadable == 0);
        // from the hostile record to the victim's end of data: it, and the two records after it
        CHECK(r.losses.bytes_skipped == t.victim_extra + 2 * ht_record);
    }
}

TEST_CASE("hostile: a record of size 0 is a fault, never a hang") {
    SUBCASE("SYSTEM64") {
        auto rec = ht_system_record(8);
        ht_put<std::uint16_t>(rec, 4, 0); // Packet.Size
        ht_check_bad_record(rec, rule::trace_record_size, 0, 0x20);
    }
    SUBCASE("PERFINFO64") {
        auto rec = ht_record_bytes([](tw::trace_writer& w) { return w.perfinfo(0, 0x0F2E, 2, 1'000'025, byte_vector(16)); });
        ht_put<std::uint16_t>(rec, 4, 0);
        ht_check_bad_record(rec, rule::trace_record_size, 0, 0x10);
    }
    SUBCASE("EVENT_HEADER64") {
        auto rec = ht_record_bytes([](tw::trace_writer& w) { return w.event(0, {.ts = 1'000'025}, {}, byte_vector(8)); });
        ht_put<std::uint16_t>(rec, 0, 0); // Size
        ht_check_bad_record(rec, rule::trace_record_size, 0, 0x50);
    }
    SUBCASE("MESSAGE") {
        auto rec = ht_record_bytes([](tw::trace_writer& w) { return w.message(0, {.message_number = 1}, byte_vector(8)); });
        ht_put<std::uint16_t>(rec, 0, 0);
        ht_check_bad_record(rec, rule::trace_record_size, 0, 8);
    }
    SUBCASE("a record of zeros") {
        ht_check_bad_record(byte_vector(0x28), rule::trace_record_kind, 0, 0); // marker byte 0: no header kind
    }
}

TEST_CASE("hostile: a record whose size runs past its buffer's data") {
    // the hostile record is 0x28 bytes and two records of 0x28 follow it: 0x78 bytes to the end of data
    auto rec = ht_system_record(8);
    ht_put<std::uint16_t>(rec, 4, 0x79);
    ht_check_bad_record(rec, rule::trace_record_past_buffer, 0x79, 0x78);
    ht_put<std::uint16_t>(rec, 4, 0xFFFF);
    ht_check_bad_record(rec, rule::trace_record_past_buffer, 0xFFFF, 0x78);
}

TEST_CASE("hostile: an unknown header type") {
    auto rec = ht_system_record(8);
    ht_put<std::uint8_t>(rec, 2, 0x0C); // TRACE_HEADER_TYPE_TIMED: not used in buffers (NTWMI)
    ht_check_bad_record(rec, rule::trace_record_kind, 0x0C, 0);
    ht_put<std::uint8_t>(rec, 2, 0xEE);
    ht_check_bad_record(rec, rule::trace_record_kind, 0xEE, 0);
    auto old = ht_system_record(8);
    ht_put<std::uint8_t>(old, 3, 0x80); // TRACE_HEADER_FLAG without TRACE_HEADER_EVENT_TRACE: an old WNODE header
    ht_check_bad_record(old, rule::trace_record_kind, 0x80, 0);
}

TEST_CASE("hostile: an EVENT_HEADER whose extended item runs past the record, or whose linkage chain never ends") {
    std::uint64_t const frames[] = {0xFFFFF80000001000ULL, 0x00007FF600001000ULL};
    std::vector<tw::ext_item> const items = {tw::related_activity_id_item(etwctl::guid(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)),
                                             tw::stack_trace_item(8, 0, frames)};
    auto const valid = ht_record_bytes([&](tw::trace_writer& w) { return w.event(0, {.ts = 1'000'025}, items, {}); });
    // items at 0x50 (EVENT_HEADER's size, SDK evntcons.h): {u16 item size, u16 type, u16 linkage, u16 data size}
    std::size_t const first = 0x50, second = first + 8 + 16; // a GUID, then the stack
    REQUIRE(valid.size() == second + 8 + 8 + 2 * 8);
    REQUIRE(ht_le<std::uint16_t>(valid, first + 4) == 1);
    REQUIRE(ht_le<std::uint16_t>(valid, second + 4) == 0);
    SUBCASE("an item size past the record") {
        auto rec = valid;
        ht_put<std::uint16_t>(rec, first, static_cast<std::uint16_t>(rec.size() - first + 8));
        ht_check_bad_record(rec, rule::trace_extended_item, rec.size() - first + 8, rec.size() - first);
    }
    SUBCASE("a data size past its item") {
        auto rec = valid;
        ht_put<std::uint16_t>(rec, second + 6, 8 + 16 + 1);
        ht_check_bad_record(rec, rule::trace_extended_item, 8 + 24, rec.size() - second);
    }
    SUBCASE("the last item says another follows") {
        auto rec = valid;
        ht_put<std::uint16_t>(rec, second + 4, 1);
        ht_check_bad_record(rec, rule::trace_extended_item, rec.size(), rec.size());
    }
}

TEST_CASE("hostile: a perfinfo record claiming 7 PMC values it does not have") {
    tw::cswitch_fields cs;
    auto rec = ht_record_bytes([&](tw::trace_writer& w) { return w.perfinfo(0, 0x0524, 4, 1'000'025, tw::cswitch_payload(cs)); });
    REQUIRE(rec.size() == 0x10 + 0x18);
    ht_put<std::uint8_t>(rec, 1, 7); // PERFINFO_TRACE_HEADER's counter count (GC): 7 x 8 bytes after the header
    ht_check_bad_record(rec, rule::trace_record_size, 0x28, 0x10 + 7 * 8);
}

// ---- compressed buffers --------------------------------------------------------------------------------

TEST_CASE("hostile: a compressed buffer with a corrupted stream, one that decompresses short and one that decompresses long") {
    auto const t = ht_build(true);
    auto const at = t.offsets.at(ht_victim_buffer);
    auto const saved = ht_le<std::uint32_t>(t.file, at + ht_saved_offset_at);
    auto const stored = ht_le<std::uint32_t>(t.file, at + ht_buffer_size_at);
    std::size_t const want = saved - ht_header;
    SUBCASE("corrupted: every item of the first group a match, the first one with nothing before it to copy") {
        // [MS-XCA] 2.4: a flag word of ones makes the first item a match; at output offset 0 its distance
        // reaches before the output's start. The match token follows the 4-byte flag word.
        auto file = t.file;
        ht_put<std::uint32_t>(file, at + ht_header, 0xFFFFFFFFU);
        auto const r = ht_read(file);
        REQUIRE(r.opened);
        ht_check_one_fault(r, {rule::trace_compressed_stream, at, static_cast<std::uint32_t>(ht_header + 4), 0, want});
        HT_CHECK_IDS(r.ids, ht_ids_but(t, {ht_victim_buffer}));
        CHECK(r.losses.buffers_unreadable == 1);
        CHECK(r.losses.bytes_skipped == stored);
    }
    SUBCASE("short: SavedOffset says 8 bytes more than the stream holds") {
        auto file = t.file;
        ht_put<std::uint32_t>(file, at + ht_saved_offset_at, saved + 8);
        auto const r = ht_read(file);
        REQUIRE(r.opened);
        ht_check_one_fault(r, {rule::trace_compressed_size, at, static_cast<std::uint32_t>(ht_header), want, want + 8});
        HT_CHECK_IDS(r.ids, ht_ids_but(t, {ht_victim_buffer}));
        CHECK(r.losses.buffers_unreadable == 1);
        CHECK(r.losses.bytes_skipped == stored);
    }
    SUBCASE("long: SavedOffset says 8 bytes less") {
        auto file = t.file;
        ht_put<std::uint32_t>(file, at + ht_saved_offset_at, saved - 8);
        auto const r = ht_read(file);
        REQUIRE(r.opened);
        CHECK(r.losses.faults == 1);
        REQUIRE(r.faults.size() == 1);
        CHECK(r.faults[0].what == rule::trace_compressed_size);
        CHECK(r.faults[0].file_offset == at);
        CHECK(r.faults[0].offset > ht_header); // the item that did not fit, inside the stream
        CHECK(r.faults[0].offset < stored);
        CHECK(r.faults[0].value == want - 8);  // the output filled
        CHECK(r.faults[0].limit == want - 8);
        HT_CHECK_IDS(r.ids, ht_ids_but(t, {ht_victim_buffer}));
        CHECK(r.losses.buffers_unreadable == 1);
    }
}

// ---- time ----------------------------------------------------------------------------------------------

TEST_CASE("hostile: a buffer whose records go back in time is read in file order, every record once") {
    tw::trace_writer w;
    std::uint32_t const ts0[] = {500, 400, 300, 200}, ts1[] = {350, 450};
    std::uint32_t id = 0;
    auto const tag = [&id] { return byte_vector{static_cast<std::byte>(++id), std::byte{0}, std::byte{0}, std::byte{0}}; };
    for (auto ts : ts0) w.system(0, {.hook = ht_hook, .ts = 2'000'000 + ts}, tag());
    for (auto ts : ts1) w.system(1, {.hook = ht_hook, .ts = 2'000'000 + ts}, tag());
    auto const file = w.finish();
    auto const r = ht_read(file);
    REQUIRE(r.opened);
    CHECK(r.ids.size() == 6);
    // each processor's records in their own order; the merge takes the earlier head first
    std::vector<std::uint32_t> cpu0, cpu1;
    for (auto x : r.ids) (x <= 4 ? cpu0 : cpu1).push_back(x);
    CHECK(cpu0 == std::vector<std::uint32_t>{1, 2, 3, 4});
    CHECK(cpu1 == std::vector<std::uint32_t>{5, 6});
    CHECK(r.ids == std::vector<std::uint32_t>{5, 6, 1, 2, 3, 4}); // the heads: 350 < 500, then 450 < 500
    CHECK(r.losses.faults == 0);
}

// ---- what a fault says ---------------------------------------------------------------------------------

TEST_CASE("hostile: every fault's describe() names its rule and its file offset") {
    rule const rules[] = {rule::trace_file_too_small, rule::trace_buffer_size, rule::trace_buffer_filled, rule::trace_record_size,
                          rule::trace_record_past_buffer, rule::trace_record_kind, rule::trace_extended_item, rule::trace_header_event,
                          rule::trace_compressed_stream, rule::trace_compressed_size, rule::trace_storage_too_small};
    for (auto r : rules) {
        std::string_view const name = etwctl::info(r).name;
        INFO(name);
        tr::fault const f{r, 0x10000, 0x1F48, 0x2A0, 0xB8};
        char text[512];
        std::fill(std::begin(text), std::end(text), '#');
        std::size_t const n = f.describe(text);
        REQUIRE(n < sizeof text);
        std::string_view const s(text, n);
        CHECK(s.find(name) != std::string_view::npos);
        CHECK(s.find("file offset 0x10000") != std::string_view::npos);
        CHECK(s.find("buffer offset 0x1F48") != std::string_view::npos);
        CHECK(s.find("0x2A0") != std::string_view::npos);
        CHECK(s.find("0xB8") != std::string_view::npos);
        CHECK(text[n] == '#'); // nothing written past the text
        // a short output: the length the whole text needs, nothing written past the span
        char tiny_out[12];
        std::fill(std::begin(tiny_out), std::end(tiny_out), '#');
        CHECK(f.describe(std::span<char>(tiny_out, 10)) == n);
        CHECK(tiny_out[10] == '#');
        CHECK(tiny_out[11] == '#');
        CHECK(std::string_view(tiny_out, 10) == s.substr(0, 10));
        CHECK(f.code() == etwctl::make_error_code(r));
    }
    // and the faults of real hostile files: each names its rule and the file offset of its buffer
    auto const t = ht_build(true);
    std::vector<tr::fault> met;
    for (std::size_t b = 1; b <= ht_buffers; ++b) {
        auto file = t.file;
        ht_put<std::uint32_t>(file, t.offsets[b] + ht_header, 0xFFFFFFFFU);
        auto const r = ht_read(file);
        met.insert(met.end(), r.faults.begin(), r.faults.end());
    }
    auto cut = ht_read(byte_view(t.file).first(t.offsets[2] + 50));
    met.insert(met.end(), cut.faults.begin(), cut.faults.end());
    CHECK(met.size() == ht_buffers + 1);
    for (auto const& f : met) {
        char text[512];
        std::size_t const n = f.describe(text);
        REQUIRE(n < sizeof text);
        std::string_view const s(text, n);
        char hex[32];
        std::snprintf(hex, sizeof hex, "file offset 0x%llX", static_cast<unsigned long long>(f.file_offset));
        CHECK_MESSAGE(s.find(etwctl::info(f.what).name) != std::string_view::npos, s);
        CHECK_MESSAGE(s.find(hex) != std::string_view::npos, s);
    }
}

} // namespace hostile_tests

#undef HT_CHECK_IDS

namespace hostile_tests {

TEST_CASE("hostile: a run of corrupt compressed buffers never overwrites the record next() just handed out") {
    // One processor: a good buffer, then five whose streams are corrupt, then a good one. Reading past the
    // corrupt ones happens inside next(), right after it hands out the good buffer's last record: that
    // record's bytes (its payload carries its id) must be what the writer wrote when next() returns, and
    // a corrupt buffer takes no decompression slot.
    tw::trace_options o;
    o.buffer_size = static_cast<std::uint32_t>(ht_buffer_size);
    o.compress = true;
    o.processors = 1;
    tw::trace_writer w(o);
    std::uint32_t id = 0;
    constexpr std::size_t buffers = 7;
    for (std::size_t b = 0; b < buffers; ++b) {
        for (std::size_t k = 0; k < ht_per_buffer; ++k) {
            ++id;
            byte_vector payload(8);
            for (std::size_t i = 0; i < 4; ++i) payload[i] = static_cast<std::byte>((id >> (8 * i)) & 0xFFU);
            w.system(0, {.hook = ht_hook, .version = 1, .tid = 8, .pid = 4, .ts = 1'000'000 + 10ULL * id}, payload);
        }
        w.flush(0);
    }
    byte_vector file = w.finish();
    auto const offsets = w.counts().buffer_offsets; // [0] the header buffer, then buffers 1..7
    REQUIRE(offsets.size() == buffers + 1);
    for (std::size_t b = 2; b <= 6; ++b) { // a match reaching before the output's start, first thing in the stream
        std::size_t const at = offsets[b] + ht_header;
        ht_put<std::uint32_t>(file, at, 0x80000000U); // flags: the first item is a match
        ht_put<std::uint16_t>(file, at + 4, 0xFFF8U);  // distance 8192, before any output
    }
    auto f = tr::trace_file::open(file);
    REQUIRE(f.has_value());
    std::vector<std::byte> storage(tr::reader::storage_size(*f));
    tr::reader r(*f, storage);
    tr::event_ref e;
    std::vector<std::uint32_t> seen;
    while (r.next(e)) {
        if (!e.rec.has_hook() || e.rec.hook().value != ht_hook) continue;
        auto const p = e.rec.payload();
        REQUIRE(p.size() >= 4);
        seen.push_back(ht_le<std::uint32_t>(p, 0)); // read after next() returned: the bytes must still be the record's
    }
    constexpr auto per = static_cast<std::uint32_t>(ht_per_buffer);
    std::vector<std::uint32_t> expected;
    for (std::uint32_t i = 1; i <= per; ++i) expected.push_back(i);               // buffer 1
    for (std::uint32_t i = 6 * per + 1; i <= 7 * per; ++i) expected.push_back(i); // buffer 7
    CHECK(ht_ids_text(seen) == ht_ids_text(expected));
    CHECK(r.losses().buffers_unreadable == 5);
    CHECK(r.losses().faults == 5);
}

// ---- record_reader::read: the in-line path for hook records and read_any give the same result ----------

/// Every header-type byte, with the marker bits of byte 3, PERFINFO's extension byte and the size field
/// set around each header's limits, in data cut at the header's limits: read() (whose hook records take
/// the in-line path) and read_any() (the full one) must return the same step and fill the same record.
TEST_CASE("hostile: record_reader::read agrees with read_any on every header type, size and cut") {
    std::size_t const sizes[] = {0, 4, 7, 8, 0x0F, 0x10, 0x17, 0x18, 0x1F, 0x20, 0x28, 0x2F, 0x30, 0x47, 0x48, 0x50, 0x58, 0x60, 0x68, 0x70, 0xFFFF};
    std::size_t const cuts[] = {4, 7, 8, 0x18, 0x20, 0x30, 0x60, 0x78};
    std::uint8_t const b3s[] = {0xC0, 0xC3, 0x80, 0x90, 0x40};
    std::uint8_t const exts[] = {0x00, 0x01, 0x03, 0x07, 0x80, 0x81, 0x87, 0x48};
    std::size_t checked = 0, ok = 0;
    // one buffer per length (exactly at + cut bytes, so ASan sees a read past it), its header bytes
    // rewritten for each case; one REQUIRE per case, on every field of the two steps and records
    for (std::size_t const at : {std::size_t{0}, std::size_t{8}})
        for (auto const cut : cuts) {
            byte_vector data(at + cut);
            for (std::size_t i = 0; i < data.size(); ++i) data[i] = std::byte(static_cast<std::uint8_t>(0x11 * i + 3));
            auto* const p = data.data() + at;
            for (unsigned b2 = 0; b2 < 256; ++b2)
                for (auto const b3 : b3s)
                    for (auto const ext : exts)
                        for (auto const size : sizes) {
                            p[0] = b3 == 0x90 ? std::byte{static_cast<std::uint8_t>(size)} : std::byte{0x02}; // a message's size is at 0
                            p[1] = std::byte{ext}, p[2] = std::byte{static_cast<std::uint8_t>(b2)}, p[3] = std::byte{b3};
                            if (cut >= 6) p[4] = std::byte{static_cast<std::uint8_t>(size)}, p[5] = std::byte{static_cast<std::uint8_t>(size >> 8)};
                            tr::record fast, full;
                            auto const a = tr::record_reader::read(byte_view(data), at, fast);
                            auto const b = tr::record_reader::read_any(byte_view(data), at, full);
                            ++checked;
                            bool same = a.what == b.what && a.next == b.next && a.value == b.value && a.limit == b.limit;
                            if (same && a.what == rule::ok) {
                                ++ok;
                                same = fast.kind() == full.kind() && fast.header_type() == full.header_type() &&
                                       fast.pointer_size() == full.pointer_size() && fast.bytes().data() == full.bytes().data() &&
                                       fast.bytes().size() == full.bytes().size() && fast.payload().data() == full.payload().data() &&
                                       fast.payload().size() == full.payload().size() && fast.timestamp() == full.timestamp() &&
                                       fast.thread_id() == full.thread_id() && fast.process_id() == full.process_id() &&
                                       fast.hook() == full.hook() && fast.version() == full.version() &&
                                       fast.pmc_count() == full.pmc_count() && fast.has_pebs() == full.has_pebs();
                            }
                            if (same) continue;
                            INFO("(decimal) type " << b2 << " byte3 " << unsigned{b3} << " ext " << unsigned{ext} << " size " << size
                                           << " cut " << cut << " at " << at << ": rule " << unsigned(a.what) << "/" << unsigned(b.what)
                                           << " next " << a.next << "/" << b.next << " value " << a.value << "/" << b.value);
                            REQUIRE(same);
                        }
        }
    CHECK(checked > 100'000);
    CHECK(ok > 1'000); // records of every hook kind read, not only faults
}

} // namespace hostile_tests
