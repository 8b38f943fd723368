// Google Benchmark: consuming live (issue 33 item 7). The same EVENT_RECORDs, as ProcessTrace presents
// a trace's records (trace::event_record_of, prepared outside the timed loops), handed one by one to an
// EventRecordCallback through its pointer by one replay loop, ProcessTrace's part, the same in every case
// (consume's kernel double runs it with what OpenTraceW was given). The work: each
// SampledProfile's InstructionPointer ^ ThreadId and its stack's size and first frame, each CSwitch's
// NewThreadId, summed. The cases, from the least the callback does to all consume does:
//   raw         a switch on ProviderId (PerfInfo, Thread, StackWalk) and Opcode, the fields read straight
//               from UserData; every StackWalk's frame count and first frame, whoever it belongs to (it
//               pairs no stack: not the same sum)
//   paired      the same switch; each stack record paired on arrival with the sample it names (consume's
//               rule) and its size and first frame added then: the same sum, nothing held
//   held        consume's contract by hand: each event held until complete, then delivered with its
//               whole stack, in arrival order (the held engine below, the handlers' fields kept)
//   held_typed  the same engine keeping the library's record and delivering through its typed dispatch
//   consume     trace::consume through the same callback, on<"SampledProfile"> and on<"CSwitch">
// paired, held, held_typed and consume compute the same checksum (printed by --ir; a difference means
// they did not do the same work).
// Inputs: the real trace (tests/trace/data/net.4.5.2.x86.etl, 32-bit) and a generated 64-bit profiler
// trace of 16 MiB (tests/trace/support/trace_writer.hpp, deterministic, 4 processors).
// Counters per row: events_per_second (records / CPU s), time_per_event, and instructions_per_event from
// the CPU's instruction counter (Linux perf_event_open, user mode, this thread; 0 when unavailable),
// counted in the same run as the time.
//
//   etwctl_bench_consume --benchmark_repetitions=5 --benchmark_counters_tabular=true   (scripts/bench_consume.sh)
//   valgrind --tool=callgrind --collect-atstart=no etwctl_bench_consume --ir CASE INPUT
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "bench_cli.hpp"
#include "etwctl/trace.hpp"
#include "etwctl/trace/consume.hpp"
#include "trace_files.hpp"
#include "trace_writer.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define ETWCTL_BENCH_HAVE_CALLGRIND 1
#else
#define ETWCTL_BENCH_HAVE_CALLGRIND 0
#endif

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

namespace trace = etwctl::trace;
using etwctl::event_record_layout;
using etwctl::event_header_extended_data_item_layout;
using etwctl::guid;

/// A trace's records as EVENT_RECORDs (their items in one array, their data in the trace's bytes).
struct input {
    std::string name;
    std::vector<std::byte> file;
    std::vector<event_record_layout> records;
    std::vector<event_header_extended_data_item_layout> items;
    std::vector<std::byte> data; // the payloads and items' data the records point at
    std::uint64_t events = 0; // what consume delivers (stack records attached are not events)
    bool ok = false;
    std::string why;
};

input make_input(std::string const& name) {
    input in;
    in.name = name;
    if (name == "real") {
        in.file = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    } else {
        etwctl_test::trace_options o;
        o.processors = 4;
        in.file = etwctl_test::generate_profile_trace(std::size_t{16} << 20, o, 3).file;
    }
    auto f = trace::trace_file::open(in.file);
    if (!f) {
        in.why = "cannot open the trace";
        return in;
    }
    std::vector<std::byte> index(trace::reader::storage_size(*f));
    trace::reader r(*f, index);
    trace::event_ref ref;
    trace::event_record_parts parts;
    // A record's bytes may be in the reader's decompression storage, reused for the next buffer: the
    // payloads and items' data are copied (as offsets into `data` first, pointers once it stops growing).
    std::vector<std::size_t> first_item, payload_at, item_at;
    auto const keep = [&](void const* p, std::size_t n) {
        std::size_t const at = in.data.size();
        in.data.insert(in.data.end(), static_cast<std::byte const*>(p), static_cast<std::byte const*>(p) + n);
        in.data.resize((in.data.size() + 7) & ~std::size_t{7});
        return at;
    };
    while (r.next(ref)) {
        if (!trace::event_record_of(ref, parts)) continue;
        first_item.push_back(in.items.size());
        payload_at.push_back(keep(parts.record.user_data, parts.record.user_data_length));
        for (std::size_t i = 0; i < parts.record.extended_data_count; ++i) {
            auto const& it = parts.items[i];
            item_at.push_back(keep(reinterpret_cast<void const*>(static_cast<std::uintptr_t>(it.data_ptr)), it.data_size));
            in.items.push_back(it);
        }
        in.records.push_back(parts.record);
    }
    for (std::size_t i = 0; i < in.items.size(); ++i)
        in.items[i].data_ptr = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(in.data.data() + item_at[i]));
    for (std::size_t i = 0; i < in.records.size(); ++i) {
        in.records[i].user_data = in.data.data() + payload_at[i];
        if (in.records[i].extended_data_count != 0) in.records[i].extended_data = in.items.data() + first_item[i];
    }
    in.ok = true;
    return in;
}

input& get(std::string const& name) {
    static std::map<std::string, std::unique_ptr<input>> cache;
    auto& slot = cache[name];
    if (!slot) slot = std::make_unique<input>(make_input(name));
    return *slot;
}

/// ProcessTrace without the OS: every prepared EVENT_RECORD, its UserContext set, to an EventRecordCallback
/// called through its pointer, as the OS calls it. Every case runs this loop: the pointer is hidden from
/// the optimizer, so no case's callback is inlined into it.
using record_callback = void (*)(event_record_layout*) noexcept;
[[gnu::noinline]] void replay(input& in, record_callback callback, void* context) noexcept {
    asm volatile("" : "+r"(callback));
    for (auto& r : in.records) {
        r.user_context = context;
        callback(&r);
    }
}

/// A kernel double whose ProcessTrace is replay with what OpenTraceW was given (consume's kernel).
struct replay_kernel {
    input* in = nullptr;
    etwctl::event_trace_logfilew_layout logfile{};
    std::uint32_t open_trace_w(void* lf, std::uint64_t* h) noexcept {
        logfile = *static_cast<etwctl::event_trace_logfilew_layout*>(lf);
        *h = 1;
        return 0;
    }
    std::uint32_t process_trace(std::uint64_t const*, std::uint32_t, std::uint64_t const*, std::uint64_t const*) noexcept {
        replay(*in, reinterpret_cast<record_callback>(logfile.event_record_callback), logfile.context);
        return 0;
    }
    std::uint32_t close_trace(std::uint64_t) noexcept { return 0; }
    template <etwctl::event_record_handler F>
    void* event_record_callback() noexcept {
        return reinterpret_cast<void*>(&etwctl::event_record_entry<F>);
    }
};

// ---- the raw callback: the best hand-written consumer -------------------------------------------------

// PerfInfo {ce1dbfb4-137e-4da6-87b0-3f59aa102cbc}, Thread {3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c},
// StackWalk {def2fe46-7bd6-4b80-bd94-f57fe20d0ce3} (Microsoft Learn's MOF class pages), compared as
// two 64-bit words each, as a hand-written consumer would.
struct raw_guid {
    std::uint64_t lo, hi;
};
inline raw_guid words(guid const& g) noexcept {
    raw_guid w;
    std::memcpy(&w, &g, 16);
    return w;
}
raw_guid const perfinfo_words = words(guid{0xce1dbfb4, 0x137e, 0x4da6, 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc});
raw_guid const thread_words = words(guid{0x3d6fa8d1, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c});
raw_guid const stackwalk_words = words(guid{0xdef2fe46, 0x7bd6, 0x4b80, 0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3});

struct raw_state {
    std::uint64_t sum = 0, events = 0;
};

template <class T>
inline T raw_load(void const* base, std::size_t offset) noexcept {
    T v;
    std::memcpy(&v, static_cast<std::byte const*>(base) + offset, sizeof v);
    return v;
}

/// What both hand-written callbacks read first: the provider as two words, the pointer size, the opcode.
struct raw_record {
    explicit raw_record(event_record_layout const& rec) noexcept
        : r(rec), p((rec.event_header.flags & 0x0020) != 0 ? 4 : 8), op(rec.event_header.event_descriptor.opcode) { // EVENT_HEADER_FLAG_32_BIT_HEADER
        std::memcpy(&g, &rec.event_header.provider_id, 16);
    }
    std::uint64_t ptr(std::size_t offset) const noexcept {
        return p == 4 ? std::uint64_t{raw_load<std::uint32_t>(r.user_data, offset)} : raw_load<std::uint64_t>(r.user_data, offset);
    }
    bool is(raw_guid const& w) const noexcept { return g.lo == w.lo && g.hi == w.hi; }
    event_record_layout const& r;
    raw_guid g;
    std::size_t p;
    std::uint8_t op;
};

void raw_callback(event_record_layout* record) noexcept {
    auto const& r = *record;
    auto& st = *static_cast<raw_state*>(r.user_context);
    ++st.events;
    raw_record const x(r);
    if (x.is(perfinfo_words)) {
        if (x.op == 46 && r.user_data_length >= x.p + 4) st.sum += x.ptr(0) ^ raw_load<std::uint32_t>(r.user_data, x.p); // SampledProfile
    } else if (x.is(stackwalk_words)) {
        if (x.op == 32 && r.user_data_length >= 0x10 + x.p) st.sum += (r.user_data_length - 0x10U) / x.p + x.ptr(0x10); // StackWalk
    } else if (x.is(thread_words)) {
        if (x.op == 36 && r.user_data_length >= 4) st.sum += raw_load<std::uint32_t>(r.user_data, 0); // CSwitch.NewThreadId
    }
}

// ---- the paired callback: the best hand-written consumer that gives each sample its stack ------------
//
// What consume does for on<"SampledProfile"> with e.stack(): a StackWalk (0x1820) or stack-key reference
// (0x1825 / 0x1826) record whose EventTimeStamp and StackThread name a sample of its processor, logged
// within the 9 records after it there, is that sample's stack (at most two parts; a key reference is a
// part without frames). Hand-written as a profiler would: per processor, the latest samples in a tiny
// ring (the record ordinal they came at, their timestamp and thread, the frames seen so far), matched on
// arrival of each stack record; a sample's contribution is added when its stack arrives, so nothing is
// held back and nothing is ordered. Its checksum equals consume's on both inputs (the same work).
struct paired_sample {
    std::uint64_t timestamp = 0;
    std::uint32_t thread_id = 0, ordinal = 0, size = 0;
    std::uint8_t parts = 0;
};
struct paired_processor {
    static constexpr std::size_t ring = 4;
    paired_sample samples[ring]{};
    std::uint32_t ordinal = 0;
    std::uint8_t next = 0;
};
struct paired_state {
    std::uint64_t sum = 0;
    paired_processor processors[64]{};
};

void paired_callback(event_record_layout* record) noexcept {
    auto const& r = *record;
    auto& st = *static_cast<paired_state*>(r.user_context);
    auto const& h = r.event_header;
    auto& proc = st.processors[r.buffer_context.processor_index % 64];
    std::uint32_t const ordinal = ++proc.ordinal;
    raw_record const x(r);
    if (x.is(perfinfo_words)) {
        if (x.op == 46 && r.user_data_length >= x.p + 4) { // SampledProfile: InstructionPointer, ThreadId
            std::uint32_t const tid = raw_load<std::uint32_t>(r.user_data, x.p);
            st.sum += x.ptr(0) ^ tid;
            proc.samples[proc.next] = {static_cast<std::uint64_t>(h.time_stamp), tid, ordinal, 0, 0};
            proc.next = static_cast<std::uint8_t>((proc.next + 1) % paired_processor::ring);
        }
    } else if (x.is(stackwalk_words)) {
        if ((x.op == 32 || x.op == 37 || x.op == 38) && r.user_data_length >= 0x10) { // StackWalk, StackKeyKernel, StackKeyUser
            auto const ts = raw_load<std::uint64_t>(r.user_data, 0);
            auto const tid = raw_load<std::uint32_t>(r.user_data, 0x0C);
            for (std::size_t i = 0; i < paired_processor::ring; ++i) { // oldest first
                auto& s = proc.samples[(proc.next + i) % paired_processor::ring];
                if (s.timestamp != ts || s.thread_id != tid || s.parts >= 2 || ordinal - s.ordinal > 9) continue;
                if (x.op != 32 && r.user_data_length < 0x10 + x.p) continue; // a key reference too short for its key
                ++s.parts;
                if (x.op != 32) break; // a key: a part without frames
                auto const n = static_cast<std::uint32_t>((r.user_data_length - 0x10U) / x.p);
                if (s.size == 0 && n != 0) st.sum += n + x.ptr(0x10); // the stack's size and first frame, once
                else st.sum += n;
                s.size += n;
                break;
            }
        }
    } else if (x.is(thread_words)) {
        if (x.op == 36 && r.user_data_length >= 4) st.sum += raw_load<std::uint32_t>(r.user_data, 0); // CSwitch.NewThreadId
    }
}

// ---- the held callbacks: hand-written consumers that deliver what consume delivers -------------------------
//
// consume's contract: each event delivered once, complete (its fields and its whole stack visible at once,
// so a handler can key a map by the stack or print it), in the order the events arrived. One hand-written
// engine with that contract for these two handlers: each SampledProfile and CSwitch is held in a FIFO and
// in its processor's ring of its latest 4 held events; a StackWalk or stack-key record is matched on
// arrival by consume's rule (EventTimeStamp and StackThread, the oldest one within the 9 records after
// it on its processor with fewer than two parts) and its frames are copied into that event's own fixed
// frame area (a key reference is a part without frames); the oldest held event is delivered once
// complete (two parts, or its processor has logged 9 records since: its processor and deadline are kept
// so each record tests it with one compare), and every held event at the end. What an event keeps and
// how it is delivered is the policy:
//   held        the fields its handler reads, taken at arrival (InstructionPointer ^ ThreadId; NewThreadId),
//               summed at delivery: the best hand-written consumer for the contract
//   held_typed  the library's event, in place in its slot (its record rebuilt at arrival by
//               trace::detail::rebuild_hook_record, its processor and stack set at delivery) and typed
//               dispatch (trace::detail::deliver to the same on<"Name"> handlers as consume): the
//               hand-written engine with etwctl's events, so held_typed / held is what
//               the events cost by themselves and consume / held_typed what consume's own engine adds
//               (it also keeps what this one leaves out: stacks naming events no handler wants, the
//               time span, Lost_Event notices, other providers' records, a storage ring of any size)
// Both compute the checksum consume and paired compute.
struct held_processor {
    static constexpr std::size_t ring = 4;
    std::uint32_t takers[ring]{}; // FIFO sequence numbers of its latest held events
    std::uint32_t ordinal = 0;
    std::uint8_t next = 0, count = 0;
};
/// A held event: what the policy keeps, where its stack names it, and its frames.
template <class Kept>
struct held_slot {
    Kept kept{};
    std::uint64_t timestamp = 0;
    std::uint32_t thread_id = 0, ordinal = 0;
    std::uint16_t processor = 0;
    std::uint8_t parts = 0, pointer_size = 8;
    std::uint32_t frames = 0, first_part = 0; // bytes copied into `area`, of them the first part's
    static constexpr std::size_t capacity = 2 * 256 * 8; // two parts of up to 256 frames
    std::byte area[capacity];
};
template <class Policy>
struct held_engine {
    using slot = held_slot<typename Policy::kept>;
    static constexpr std::size_t window = 256; // a power of two
    Policy policy;
    std::uint32_t pushed = 0, delivered = 0;
    // the oldest held event's processor and the ordinal past which it is complete (no stack can follow)
    std::uint32_t head_processor = ~0U, head_deadline = 0;
    held_processor processors[64]{};
    std::unique_ptr<slot[]> storage{new slot[window]};
    slot* events = storage.get(); // storage's, read without the unique_ptr

    explicit held_engine(Policy p) noexcept : policy(std::move(p)) {}
    void new_head() noexcept {
        if (delivered == pushed) {
            head_processor = ~0U;
            return;
        }
        auto const& e = events[delivered % window];
        head_processor = e.processor % 64;
        head_deadline = e.ordinal + 9;
    }
    /// Delivers the oldest held events while they are complete.
    void deliver_complete() noexcept {
        while (delivered != pushed) {
            auto& e = events[delivered % window];
            if (e.parts < 2 && processors[e.processor % 64].ordinal <= e.ordinal + 9) break;
            policy.deliver(e);
            ++delivered;
        }
        new_head();
    }
    void finish() noexcept {
        while (delivered != pushed) policy.deliver(events[delivered++ % window]);
    }
    /// A stack record on arrival: to the oldest held event it names.
    void attach(event_record_layout const& r, raw_record const& x, held_processor& proc, std::uint32_t ordinal) noexcept {
        auto const ts = raw_load<std::uint64_t>(r.user_data, 0);
        auto const stack_tid = raw_load<std::uint32_t>(r.user_data, 0x0C);
        for (std::size_t i = proc.count; i != 0; --i) { // the ring oldest first
            std::uint32_t const seq = proc.takers[(proc.next - i) % held_processor::ring];
            if (seq - delivered >= pushed - delivered) continue; // delivered already
            auto& e = events[seq % window];
            if (ordinal - e.ordinal > 9 || e.timestamp != ts || e.thread_id != stack_tid || e.parts >= 2) continue;
            ++e.parts;
            if (x.op == 32) {
                std::size_t const n = (std::min)((r.user_data_length - 0x10U) / x.p * x.p, slot::capacity - e.frames);
                std::memcpy(e.area + e.frames, static_cast<std::byte const*>(r.user_data) + 0x10, n);
                e.frames += static_cast<std::uint32_t>(n);
                if (e.parts == 1) e.first_part = e.frames;
            }
            if (e.parts == 2 && seq == delivered) deliver_complete();
            return;
        }
    }
    static void callback(event_record_layout* record) noexcept {
        auto const& r = *record;
        auto& st = *static_cast<held_engine*>(r.user_context);
        std::uint16_t const processor = r.buffer_context.processor_index;
        auto& proc = st.processors[processor % 64];
        std::uint32_t const ordinal = ++proc.ordinal;
        bool const head_due = processor % 64 == st.head_processor && ordinal > st.head_deadline;
        raw_record const x(r);
        std::uint32_t tid = r.event_header.thread_id;
        typename Policy::kept kept;
        if (!st.policy.take(r, x, tid, kept)) {
            if (x.is(stackwalk_words) && (x.op == 32 || x.op == 37 || x.op == 38) && r.user_data_length >= 0x10 &&
                (x.op == 32 || r.user_data_length >= 0x10 + x.p)) // StackWalk, StackKeyKernel, StackKeyUser (with its key)
                st.attach(r, x, proc, ordinal);
            if (head_due) st.deliver_complete();
            return;
        }
        if (head_due) st.deliver_complete();
        if (st.pushed - st.delivered == window) {
            st.policy.deliver(st.events[st.delivered++ % window]);
            st.deliver_complete();
        }
        auto& e = st.events[st.pushed % window];
        if (!st.policy.keep(r, kept, e)) return;
        e.timestamp = static_cast<std::uint64_t>(r.event_header.time_stamp);
        e.thread_id = tid;
        e.ordinal = ordinal;
        e.processor = processor;
        e.parts = 0;
        e.pointer_size = static_cast<std::uint8_t>(x.p);
        e.frames = e.first_part = 0;
        proc.takers[proc.next] = st.pushed++;
        proc.next = static_cast<std::uint8_t>((proc.next + 1) % held_processor::ring);
        if (proc.count < held_processor::ring) ++proc.count;
        if (st.head_processor == ~0U) st.new_head();
    }
};

/// held: the fields the handlers read, summed at delivery.
struct held_fields {
    struct kept {
        std::uint64_t value = 0; // SampledProfile: InstructionPointer ^ ThreadId; CSwitch: NewThreadId
        bool sample = false;
    };
    std::uint64_t sum = 0;
    static bool take(event_record_layout const& r, raw_record const& x, std::uint32_t& tid, kept& k) noexcept {
        if (x.is(perfinfo_words) && x.op == 46 && r.user_data_length >= x.p + 4) {
            tid = raw_load<std::uint32_t>(r.user_data, x.p); // SampledProfile: InstructionPointer, ThreadId
            k = {x.ptr(0) ^ tid, true};
            return true;
        }
        if (x.is(thread_words) && x.op == 36 && r.user_data_length >= 4) {
            k = {raw_load<std::uint32_t>(r.user_data, 0), false}; // CSwitch.NewThreadId
            return true;
        }
        return false;
    }
    template <class Slot>
    static bool keep(event_record_layout const&, kept const& k, Slot& e) noexcept {
        e.kept = k;
        return true;
    }
    template <class Slot>
    void deliver(Slot const& e) noexcept {
        sum += e.kept.value;
        if (e.kept.sample && e.frames != 0) { // the stack's size and first frame
            std::uint64_t first = 0;
            std::memcpy(&first, e.area, e.pointer_size);
            sum += e.frames / e.pointer_size + first;
        }
    }
};

/// held_typed: the library's record, rebuilt at arrival, and its typed dispatch at delivery.
template <class... H>
struct held_events {
    struct kept {
        etwctl::hook_id hook{};
        trace::event ev{};           // the event, in place: its record rebuilt at arrival, its stack set at delivery
        std::byte bytes[0x50 + 256]; // the rebuilt record (these inputs' kernel records are smaller)
    };
    std::tuple<H...> handlers;
    static bool take(event_record_layout const& r, raw_record const& x, std::uint32_t& tid, kept& k) noexcept {
        if (x.is(perfinfo_words) && x.op == 46 && r.user_data_length >= x.p + 4) {
            tid = raw_load<std::uint32_t>(r.user_data, x.p);
            k.hook = etwctl::hook_id{0x0F2E};
            return true;
        }
        if (x.is(thread_words) && x.op == 36 && r.user_data_length >= 4) {
            k.hook = etwctl::hook_id{0x0524};
            return true;
        }
        return false;
    }
    template <class Slot>
    static bool keep(event_record_layout const& r, kept const& k, Slot& e) noexcept {
        e.kept.hook = k.hook;
        if (r.user_data_length > 256) return false;
        // the event's own record (the event is not const: only its accessors are)
        auto& rec = const_cast<trace::record&>(e.kept.ev.rec());
        return trace::detail::rebuild_hook_record(r, k.hook, std::span<std::byte>(e.kept.bytes, 0x50U + r.user_data_length), rec) != 0;
    }
    template <class Slot>
    void deliver(Slot& x) noexcept {
        trace::event& e = x.kept.ev;
        const_cast<trace::event_ref&>(e.ref()).processor = x.processor;
        auto& st = e.stack_parts();
        st.clear();
        if (x.first_part != 0) st.add(trace::bytes_view(x.area, x.first_part), x.pointer_size); // a key reference: no frames, no part
        if (x.frames != x.first_part) st.add(trace::bytes_view(x.area + x.first_part, x.frames - x.first_part), x.pointer_size);
        trace::dispatch_report d;
        bool refused = false;
        trace::layout_fault why{};
        std::apply([&](auto&... h) { (trace::detail::deliver(h, e, d, refused, why), ...); }, handlers);
    }
};

/// The two handlers consume and held_typed run, made once for both.
template <class Run>
auto with_handlers(std::uint64_t& sum, Run&& run) {
    return run(trace::on<"SampledProfile">([&sum](trace::sampled_profile const& e) noexcept {
                   sum += e.instruction_pointer() ^ e.thread_id();
                   auto const& s = e.stack();
                   if (!s.empty()) sum += s.size() + s[0];
               }),
               trace::on<"CSwitch">([&sum](trace::cswitch const& e) noexcept { sum += e.new_thread_id(); }));
}

/// A held engine over every record, as ProcessTrace calls it.
template <class Policy>
void run_engine(input& in, Policy policy, std::uint64_t& sum) {
    held_engine<Policy> st(std::move(policy));
    replay(in, &held_engine<Policy>::callback, &st);
    st.finish(); // ProcessTrace returned
    if constexpr (std::is_same_v<Policy, held_fields>) sum = st.policy.sum;
}

/// A hand-written callback over every record, as ProcessTrace calls it; its checksum.
template <class State>
std::uint64_t run_callback(input& in, record_callback callback) {
    State st;
    replay(in, callback, &st);
    benchmark::DoNotOptimize(st.sum);
    return st.sum;
}
std::uint64_t run_raw(input& in) { return run_callback<raw_state>(in, &raw_callback); }
std::uint64_t run_paired(input& in) { return run_callback<paired_state>(in, &paired_callback); }
std::uint64_t run_held(input& in) {
    std::uint64_t sum = 0;
    run_engine(in, held_fields{}, sum);
    benchmark::DoNotOptimize(sum);
    return sum;
}
std::uint64_t run_held_typed(input& in) {
    std::uint64_t sum = 0;
    with_handlers(sum, [&](auto... h) { run_engine(in, held_events<decltype(h)...>{{std::move(h)...}}, sum); });
    benchmark::DoNotOptimize(sum);
    return sum;
}
std::uint64_t run_consume(input& in, std::vector<std::byte>& storage, std::uint64_t& events) {
    replay_kernel k{&in};
    trace::consume_control control;
    std::uint64_t sum = 0;
    events = with_handlers(sum, [&](auto... h) { return trace::consume(k, "NT Kernel Logger", trace::consume_storage{storage, {}}, control, std::move(h)...); }).events;
    benchmark::DoNotOptimize(sum);
    return sum;
}

// ---- instructions per event (Linux: the CPU's counter for this thread, user mode) ---------------------

class instruction_counter {
public:
    instruction_counter() noexcept {
#if defined(__linux__)
        perf_event_attr a{};
        a.type = PERF_TYPE_HARDWARE;
        a.size = sizeof a;
        a.config = PERF_COUNT_HW_INSTRUCTIONS;
        a.disabled = 1;
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        fd_ = static_cast<int>(syscall(SYS_perf_event_open, &a, 0, -1, -1, 0));
#endif
    }
    ~instruction_counter() {
#if defined(__linux__)
        if (fd_ >= 0) close(fd_);
#endif
    }
    instruction_counter(instruction_counter const&) = delete;
    instruction_counter& operator=(instruction_counter const&) = delete;
    void start() noexcept {
#if defined(__linux__)
        if (fd_ < 0) return;
        ioctl(fd_, PERF_EVENT_IOC_RESET, 0);
        ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0);
#endif
    }
    std::uint64_t stop() noexcept {
#if defined(__linux__)
        if (fd_ < 0) return 0;
        ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
        std::uint64_t v = 0;
        if (read(fd_, &v, sizeof v) != static_cast<ssize_t>(sizeof v)) return 0;
        return v;
#else
        return 0;
#endif
    }

private:
    int fd_ = -1;
};

enum class kind { raw, paired, held, held_typed, consume };
constexpr kind kinds[] = {kind::raw, kind::paired, kind::held, kind::held_typed, kind::consume};
char const* kind_name(kind k) {
    switch (k) {
    case kind::raw: return "raw";
    case kind::paired: return "paired";
    case kind::held: return "held";
    case kind::held_typed: return "held_typed";
    case kind::consume: return "consume";
    }
    return "";
}
/// One run of a case over an input; its checksum (and consume's events delivered).
std::uint64_t run_case(kind k, input& in, std::vector<std::byte>& storage, std::uint64_t& events) {
    switch (k) {
    case kind::raw: return run_raw(in);
    case kind::paired: return run_paired(in);
    case kind::held: return run_held(in);
    case kind::held_typed: return run_held_typed(in);
    case kind::consume: return run_consume(in, storage, events);
    }
    return 0;
}

void bench(benchmark::State& state, kind k, std::string const& input_name) {
    input& in = get(input_name);
    if (!in.ok) {
        state.SkipWithError(in.why.c_str());
        return;
    }
    std::vector<std::byte> storage(trace::event_record_stream::storage_size());
    instruction_counter counter;
    std::uint64_t instructions = 0, runs = 0, events = 0;
    for (auto _ : state) {
        counter.start();
        run_case(k, in, storage, events);
        instructions += counter.stop();
        ++runs;
    }
    auto const records = static_cast<double>(in.records.size());
    state.counters["events_per_second"] = benchmark::Counter(records, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["time_per_event"] =
        benchmark::Counter(records, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["instructions_per_event"] = runs == 0 ? 0.0 : static_cast<double>(instructions) / static_cast<double>(runs) / records;
    state.counters["records"] = records;
}

void register_all() {
    for (char const* input_name : {"real", "generated"})
        for (kind k : kinds)
            benchmark::RegisterBenchmark((std::string(kind_name(k)) + "/" + input_name).c_str(),
                                         [k, n = std::string(input_name)](benchmark::State& s) { bench(s, k, n); })
                ->Unit(benchmark::kMillisecond);
}

/// --ir CASE INPUT: one uncounted run, then one between callgrind's collection toggles.
int instructions(std::string_view case_name, std::string const& input_name) {
    kind const* k = std::find_if(std::begin(kinds), std::end(kinds), [&](kind x) { return case_name == kind_name(x); });
    if (k == std::end(kinds)) {
        std::fprintf(stderr, "unknown case %.*s\n", static_cast<int>(case_name.size()), case_name.data());
        return 2;
    }
    input& in = get(input_name);
    if (!in.ok) {
        std::fprintf(stderr, "%s: %s\n", input_name.c_str(), in.why.c_str());
        return 1;
    }
    std::vector<std::byte> storage(trace::event_record_stream::storage_size());
    std::uint64_t events = 0;
    auto const run = [&] { return run_case(*k, in, storage, events); };
    std::uint64_t sum = run(); // warm-up
#if ETWCTL_BENCH_HAVE_CALLGRIND
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
#endif
    sum = run();
#if ETWCTL_BENCH_HAVE_CALLGRIND
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT((std::string(case_name) + "/" + input_name).c_str());
#endif
    std::printf("records %llu events %llu sum %llu\n", static_cast<unsigned long long>(in.records.size()),
                static_cast<unsigned long long>(events), static_cast<unsigned long long>(sum));
    return 0;
}

} // namespace

int main(int argc, char** argv) { return etwctl_bench::trace_bench_main(argc, argv, &instructions, &register_all); }
