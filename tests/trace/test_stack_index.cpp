// The reader's stack index (etwctl/trace/reader.hpp reader::visit_stack_records, used by
// event_stream::attach in events.hpp): the StackWalk / StackKey records of each buffer are found once,
// when a window first reaches them, instead of reading the 8 records after every event again. It must
// attach exactly what the record-by-record look-ahead attaches: the same records, in the same order, to
// the same events, with the same faults. The reference here is that look-ahead, as the reader still
// offers it (reader::look_ahead with a filter), driven the way event_stream drove it before the index:
// both streams run side by side over the same trace and must agree on every event.
//
// The edge cases the index adds: a window that reaches into the processor's next buffer (its index is
// started there and carried on when that buffer becomes the current one), a window that holds more stack
// records than the index keeps (reader::stack_index_capacity: it falls back to the record-by-record
// reading, never drops a stack), records taken out of order inside a window, a window cut by a fault.
#include "etwctl_test.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etwctl/trace.hpp"
#include "lz77_compress.hpp"
#include "stack_cache_fixture.hpp"
#include "trace_writer.hpp"

namespace stack_index_tests {

namespace tr = etwctl::trace;
namespace tw = etwctl_test;
using byte_vector = std::vector<std::byte>;

/// What one delivered event is, as the comparison sees it: where its record is, and its stack's parts
/// (where their frames are: a part is a view into a buffer or into the stack cache's storage).
struct si_seen {
    std::uint64_t buffer_offset = 0;
    std::uint32_t offset = 0;
    std::uint64_t timestamp = 0;
    std::uint16_t hook = 0; ///< 0 for a record without a hook id
    std::vector<std::uint64_t> frames;
    std::vector<std::size_t> part_sizes;
    std::size_t unresolved = 0;
    bool from_cache = false;
    bool operator==(si_seen const&) const = default;
};

inline si_seen si_describe(tr::event_ref const& ref, tr::stack_view const& stack) {
    si_seen s{ref.buffer_offset, ref.offset, ref.rec.timestamp(), ref.rec.has_hook() ? ref.rec.hook().value : std::uint16_t{0}, {}, {},
              stack.unresolved_keys(), stack.from_cache()};
    for (auto const f : stack) s.frames.push_back(f);
    for (auto const& p : stack.parts()) s.part_sizes.push_back(p.size());
    return s;
}

/// The attachment as event_stream made it before the stack index: the filtered look-ahead (the head
/// and the 8 records after it not taken, into the next buffer), then the same tests, then the takes.
struct si_reference_stream {
    tr::reader* r;
    tr::stack_cache const* cache;

    bool next(tr::event_ref& ref, tr::stack_view& stack) {
        if (!r->next(ref)) return false;
        stack = tr::stack_view{};
        auto const& rec = ref.rec;
        if (rec.kind() == tr::record_kind::event) {
            for (auto const item : rec.extended_items()) {
                if (item.type == tr::ext_type::stack_trace32 || item.type == tr::ext_type::stack_trace64) {
                    std::uint8_t const p = item.type == tr::ext_type::stack_trace32 ? 4 : 8;
                    if (item.data.size() >= 8) stack.add(item.data.subspan(8, (item.data.size() - 8) / p * p), p);
                } else if (item.type == tr::ext_type::stack_key32 || item.type == tr::ext_type::stack_key64) {
                    stack.add_unresolved();
                }
            }
            return true;
        }
        if (rec.has_hook() && rec.hook().group() == 0x18) { // the stack-walk group rides on events
            // a StackWalk or key reference no event took carries its own frames (written out here, as the
            // rule for attached parts below is; tr::add_own_stack is event_stream's)
            auto const payload = rec.payload();
            auto const p = rec.pointer_size();
            bool const reference = rec.hook() == etwctl::hook_id{0x1825} || rec.hook() == etwctl::hook_id{0x1826};
            if (payload.size() < 0x10 || (rec.hook() != etwctl::hook_id{0x1820} && !reference)) return true;
            if (rec.hook() == etwctl::hook_id{0x1820}) {
                stack.add(payload.subspan(0x10, (payload.size() - 0x10) / p * p), p);
            } else if (payload.size() >= 0x10U + p) {
                std::optional<tr::stack_view::part> found;
                if (cache) found = cache->find(ref);
                if (found) stack.add(found->frames, found->pointer_size, true);
                else stack.add_unresolved();
            }
            return true;
        }
        auto const ts = rec.timestamp();
        std::uint32_t tid = rec.thread_id();
        if (tid == tr::no_id && rec.hook() == etwctl::hook_id{0x0F2E} && rec.payload().size() >= std::size_t{rec.pointer_size()} + 4U) {
            auto const pl = rec.payload();
            tid = 0;
            for (std::size_t i = 0; i < 4; ++i) tid |= std::uint32_t{std::to_integer<std::uint8_t>(pl[rec.pointer_size() + i])} << (8 * i);
        }
        auto const names = [&](etwctl::hook_id h, tr::bytes_view payload) noexcept { return tr::reader::names_stack_of(h, payload, ts, tid); };
        tr::reader::ahead window[tr::reader::max_look_ahead + 1];
        std::size_t const n = r->look_ahead(ref.stream, window, names);
        std::size_t parts = 0;
        bool took_head = false;
        for (std::size_t i = 0; i < n && parts < tr::stack_view::max_parts; ++i) {
            auto const& c = window[i].ref.rec;
            if (!c.has_hook() || !tr::reader::names_stack_of(c.hook(), c.payload(), ts, tid)) continue;
            auto const payload = c.payload();
            auto const p = c.pointer_size();
            if (c.hook() == etwctl::hook_id{0x1820}) {
                stack.add(payload.subspan(0x10, (payload.size() - 0x10) / p * p), p);
            } else {
                if (payload.size() < 0x10U + p) continue;
                std::optional<tr::stack_view::part> found;
                if (cache) found = cache->find(window[i].ref);
                if (found) stack.add(found->frames, found->pointer_size, true);
                else stack.add_unresolved();
            }
            ++parts;
            if (window[i].head) took_head = true;
            else r->take(ref.stream, window[i]);
        }
        if (took_head) r->take(ref.stream, window[0]);
        return true;
    }
};


/// Both streams side by side over `file`; every event must agree. Returns what the indexed stream saw
/// and how often it fell back.
struct si_outcome {
    std::vector<si_seen> events;
    std::uint64_t fallbacks = 0;
    std::uint64_t faults = 0;
    std::size_t mismatches = 0;
};
inline si_outcome si_compare(byte_vector const& file, bool with_cache) {
    si_outcome out;
    auto f = tr::trace_file::open(file);
    REQUIRE(f.has_value());
    if (!f) return out;
    byte_vector storage_a(tr::reader::storage_size(*f)), storage_b(tr::reader::storage_size(*f));
    etwctl_test::owned_stack_cache cache;
    if (with_cache) etwctl_test::build_stack_cache(*f, storage_a, cache);
    tr::stack_cache const* const c = with_cache ? &cache.cache : nullptr;
    tr::reader ra(*f, storage_a), rb(*f, storage_b);
    tr::event_stream indexed(ra, c);
    si_reference_stream reference{&rb, c};
    tr::event e;
    tr::event_ref ref;
    tr::stack_view stack;
    for (;;) {
        bool const a = indexed.next(e);
        bool const b = reference.next(ref, stack);
        CHECK(a == b);
        if (!a || !b) break;
        auto const x = si_describe(e.ref(), e.stack());
        auto const y = si_describe(ref, stack);
        if (!(x == y) && out.mismatches++ < 5)
            FAIL_CHECK("event " << out.events.size() << " at buffer 0x" << std::hex << x.buffer_offset << " + 0x" << x.offset
                                << ": indexed (0x" << x.buffer_offset << " + 0x" << x.offset << ", " << std::dec << x.frames.size()
                                << " frames) vs reference (0x" << std::hex << y.buffer_offset << " + 0x" << y.offset << ", " << std::dec
                                << y.frames.size() << " frames)");
        out.events.push_back(x);
    }
    CHECK(out.mismatches == 0);
    CHECK(ra.losses().faults == rb.losses().faults);
    CHECK(ra.losses().buffers_cut == rb.losses().buffers_cut);
    CHECK(ra.losses().bytes_skipped == rb.losses().bytes_skipped);
    out.fallbacks = ra.look_ahead_fallbacks();
    out.faults = ra.losses().faults;
    return out;
}

constexpr std::uint64_t si_frames_a[] = {0xFFFFF80000011000ULL, 0xFFFFF80000012000ULL};
constexpr std::uint64_t si_frames_b[] = {0xFFFFF80000021000ULL, 0x00007FF600022000ULL, 0x00007FF600023000ULL};
constexpr std::uint64_t si_frames_c[] = {0x00007FF600031000ULL};
constexpr std::uint64_t si_frames_o[] = {0xFFFFF80000099000ULL};

inline void si_sample(tw::trace_writer& w, std::uint16_t cpu, std::uint64_t ts, std::uint32_t tid) {
    w.perfinfo(cpu, tw::hook::sampled_profile, 2, ts, tw::sampled_profile_payload(8, 0xFFFFF80000001000ULL + ts, tid));
}
inline void si_walk(tw::trace_writer& w, std::uint16_t cpu, std::uint64_t event_ts, std::uint32_t tid, std::span<std::uint64_t const> frames,
                    std::uint64_t record_ts = 0) {
    w.perfinfo(cpu, tw::hook::stack_walk, 2, record_ts ? record_ts : event_ts, tw::stack_walk_payload(8, event_ts, 0x10, tid, frames));
}
inline std::vector<std::uint64_t> si_vec(std::span<std::uint64_t const> a) { return {a.begin(), a.end()}; }
inline std::vector<std::uint64_t> si_join(std::vector<std::uint64_t> a, std::vector<std::uint64_t> const& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}
inline si_seen const* si_find(si_outcome const& o, std::uint64_t ts) {
    for (auto const& e : o.events)
        if (e.timestamp == ts) return &e;
    return nullptr;
}

TEST_CASE("stack index: a stack record names its event by EventTimeStamp and StackThread; no other record names one") {
    // StackWalk / StackKeyKernel / StackKeyUser: EventTimeStamp u64 at 0, StackThread u32 at 0x0C
    std::vector<std::byte> payload(0x18);
    std::uint64_t const ts = 0x0102030405060708;
    std::uint32_t const tid = 0x4321;
    for (std::size_t i = 0; i < 8; ++i) payload[i] = static_cast<std::byte>(ts >> (8 * i));
    for (std::size_t i = 0; i < 4; ++i) payload[0x0C + i] = static_cast<std::byte>(tid >> (8 * i));
    for (std::uint16_t const hook : {std::uint16_t{0x1820}, std::uint16_t{0x1825}, std::uint16_t{0x1826}}) {
        CAPTURE(hook);
        tr::reader::stack_owner const o = tr::reader::stack_owner_of(etwctl::hook_id{hook}, payload);
        CHECK(static_cast<bool>(o));
        CHECK(o.timestamp == ts);
        CHECK(o.thread_id == tid);
        CHECK(tr::reader::names_stack_of(etwctl::hook_id{hook}, payload, ts, tid));
        CHECK(tr::reader::names_stack_of(etwctl::hook_id{hook}, payload, ts, tr::no_id));
        CHECK_FALSE(tr::reader::names_stack_of(etwctl::hook_id{hook}, payload, ts + 1, tid));
        CHECK_FALSE(tr::reader::names_stack_of(etwctl::hook_id{hook}, payload, ts, tid + 1));
        CHECK_FALSE(tr::reader::stack_owner_of(etwctl::hook_id{hook}, std::span(payload).first(0x0F))); // no room for the thread
    }
    for (std::uint16_t const hook : {std::uint16_t{0x0F2E}, std::uint16_t{0x1821}, std::uint16_t{0x0524}}) {
        CAPTURE(hook);
        CHECK_FALSE(tr::reader::stack_owner_of(etwctl::hook_id{hook}, payload));
        CHECK_FALSE(tr::reader::names_stack_of(etwctl::hook_id{hook}, payload, ts, tid));
    }
}

TEST_CASE("stack index: generated profiler traces attach exactly as the record-by-record look-ahead does") {
    // Small buffers put many windows across two buffers; stack keys with evictions put records taken out
    // of order into windows; compressed buffers take the read-ahead slots; 32-bit sessions other sizes.
    struct variant {
        std::uint32_t buffer_size;
        bool compress;
        std::uint8_t pointer_size;
        std::uint64_t seed;
    };
    for (auto const v : {variant{0x400, false, 8, 1}, variant{0x800, true, 8, 2}, variant{0x10000, false, 8, 3},
                         variant{0x600, false, 4, 4}, variant{0x1000, true, 4, 5}}) {
        CAPTURE(v.buffer_size);
        CAPTURE(v.compress);
        CAPTURE(v.pointer_size);
        tw::trace_options o;
        o.buffer_size = v.buffer_size;
        o.compress = v.compress;
        o.pointer_size = v.pointer_size;
        auto const t = tw::generate_profile_trace(std::size_t{1} << 20, o, v.seed);
        for (bool const with_cache : {true, false}) {
            auto const r = si_compare(t.file, with_cache);
            CHECK(r.events.size() > 1000);
            CHECK(r.faults == 0);
            std::size_t with_stack = 0;
            for (auto const& e : r.events) with_stack += e.frames.empty() ? 0U : 1U;
            CHECK(with_stack > r.events.size() / 4); // stacks were attached (and compared)
        }
    }
}

TEST_CASE("stack index: a window holding more stack records than the index keeps falls back and drops no stack") {
    // A, B, C, then A's stack (taken out of order while B is the head), seven stack records of no event
    // and B's stack as the 8th record of B's window: with A's taken record, B's window holds nine stack
    // records, one more than reader::stack_index_capacity (8). C's window then starts after them.
    static_assert(tr::reader::stack_index_capacity == 8, "the trace below is built for an index of 8");
    tw::trace_options o;
    tw::trace_writer w(o);
    si_sample(w, 0, 100, 0x20);
    si_sample(w, 0, 101, 0x21);
    si_sample(w, 0, 102, 0x22);
    si_walk(w, 0, 100, 0x20, si_frames_a, 103);
    for (std::uint64_t i = 0; i < 7; ++i) si_walk(w, 0, 10 + i, 0x30, si_frames_o, 103); // no event has these
    si_walk(w, 0, 101, 0x21, si_frames_b, 103);
    si_walk(w, 0, 102, 0x22, si_frames_c, 104);
    for (std::uint64_t i = 0; i < 20; ++i) si_walk(w, 0, 30 + i, 0x30, si_frames_o, 105); // a long run of them
    si_sample(w, 0, 200, 0x23);
    si_walk(w, 0, 200, 0x23, si_frames_a, 200);
    auto const file = w.finish();
    auto const r = si_compare(file, false);
    CHECK(r.fallbacks > 0); // the fallback ran (and agreed with the reference)
    auto const* a = si_find(r, 100);
    auto const* b = si_find(r, 101);
    auto const* c = si_find(r, 102);
    auto const* d = si_find(r, 200);
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(c);
    REQUIRE(d);
    CHECK(a->frames == si_vec(si_frames_a));
    CHECK(b->frames == si_vec(si_frames_b));
    CHECK(c->frames == si_vec(si_frames_c)); // the 7th record not taken after C's head (B's stack was taken)
    CHECK(d->frames == si_vec(si_frames_a));
}

TEST_CASE("stack index: windows that end in the next buffer, at its 8th record, or at a fault") {
    SUBCASE("the stack's two parts in the processor's next buffer, after records of other events") {
        tw::trace_options o;
        o.buffer_size = 0x400;
        tw::trace_writer w(o);
        si_sample(w, 0, 100, 0x20);
        si_sample(w, 0, 101, 0x21);
        w.flush(0);
        si_walk(w, 0, 101, 0x21, si_frames_b, 102);
        si_walk(w, 0, 100, 0x20, si_frames_a, 102);
        si_walk(w, 0, 100, 0x20, si_frames_c, 102);
        auto const file = w.finish();
        auto const r = si_compare(file, false);
        auto const* a = si_find(r, 100);
        auto const* b = si_find(r, 101);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(a->frames == si_join(si_vec(si_frames_a), si_vec(si_frames_c)));
        CHECK(a->part_sizes == std::vector<std::size_t>{2, 1});
        CHECK(b->frames == si_vec(si_frames_b));
        for (auto const& e : r.events) CHECK(e.hook != tw::hook::stack_walk); // every stack record attached
    }
    SUBCASE("the 8th record after the head is in the window, the 9th is not, across a buffer's end") {
        for (std::uint64_t split = 1; split < 9; ++split) {
            CAPTURE(split);
            tw::trace_options o;
            o.buffer_size = 0x1000;
            tw::trace_writer w(o);
            si_sample(w, 0, 100, 0x20); // the event
            si_sample(w, 0, 101, 0x21); // the head when the event is attached
            for (std::uint64_t i = 1; i <= 9; ++i) {
                if (i == split) w.flush(0);
                if (i == 8) si_walk(w, 0, 100, 0x20, si_frames_a, 102);      // the 8th after the head: attached
                else if (i == 9) si_walk(w, 0, 100, 0x20, si_frames_c, 102); // the 9th: not
                else si_walk(w, 0, 50 + i, 0x30, si_frames_o, 102);
            }
            auto const file = w.finish();
            auto const r = si_compare(file, false);
            auto const* a = si_find(r, 100);
            REQUIRE(a);
            CHECK(a->frames == si_vec(si_frames_a));
        }
    }
    SUBCASE("a record that does not read ends the window: the stack after it stays unattached") {
        tw::trace_options o;
        tw::trace_writer w(o);
        si_sample(w, 0, 100, 0x20);
        si_walk(w, 0, 100, 0x20, si_frames_a, 100);
        w.perfinfo(0, 0x4242, 2, 101, byte_vector(16, std::byte{7})); // corrupted below: a size past the buffer
        si_walk(w, 0, 100, 0x20, si_frames_c, 102);
        auto file = w.finish();
        // the record of hook 0x4242 in processor 0's buffer (the one after the header buffer): its size
        // field (u16 at 4) made to run past the buffer
        std::size_t at = std::size_t{o.buffer_size} + 0x48;
        bool corrupted = false;
        for (int i = 0; i < 3 && at + 8 <= file.size(); ++i) {
            std::size_t const size = std::to_integer<std::size_t>(file[at + 4]) | (std::to_integer<std::size_t>(file[at + 5]) << 8);
            bool const tagged = file[at + 6] == std::byte{0x42} && file[at + 7] == std::byte{0x42};
            if (tagged) {
                file[at + 4] = std::byte{0xF0}, file[at + 5] = std::byte{0xFF};
                corrupted = true;
                break;
            }
            at += (size + 7) & ~std::size_t{7};
        }
        REQUIRE(corrupted);
        auto const r = si_compare(file, false);
        CHECK(r.faults > 0);
        auto const* a = si_find(r, 100);
        REQUIRE(a);
        CHECK(a->frames == si_vec(si_frames_a));
    }
}

} // namespace stack_index_tests
