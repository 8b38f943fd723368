// SPDX-License-Identifier: MIT
// etwctl/trace/reader.hpp - an .etl file (or any run of ETW buffers) read in timestamp order, over the
// caller's bytes and the caller's storage: no heap, no copy of an uncompressed buffer, no exceptions.
//
//   trace::trace_file   the file: its header buffer, the header event (TRACE_LOGFILE_HEADER), its clock
//   trace::reader       the records of every buffer in timestamp order across processors, compressed
//                       buffers decompressed into the caller's storage, lost data and faults reported
//
// How Windows lays a file out (Chappell, "WMI_BUFFER_HEADER", "TRACE_LOGFILE_HEADER"; Microsoft Learn,
// "ProcessTrace" and "TRACE_LOGFILE_HEADER"): the file is a run of buffers, each BufferSize bytes from its
// start; the first is the header buffer, whose first record is the header event. Every other buffer
// belongs to one processor; SequenceNumber orders the buffers of a processor and is unique in the file,
// so a missing number is a lost buffer. Records in a buffer are in timestamp order, so the trace in time
// order is a k-way merge of the processors' streams, which is what ProcessTrace does ("attempts" time
// order: equal timestamps on different processors have no defined order; here the lower processor
// index goes first). File order is not time order (buffers of processors interleave as they were
// flushed, and circular files wrap): the reader indexes the buffers first (72 bytes read per buffer),
// then reads each processor's buffers in sequence order, one at a time.
//
// Stacks: an event's StackWalk / StackKey records follow it on its processor, within a few records
// (events.hpp). visit_stack_records finds them through a small index per buffer of a stream, filled as the
// windows move through the buffer (each record's header looked at once, a run of records at a time), so
// attaching a stack compares the 0 to 3 indexed records of the window instead of reading the 8 records
// after every event again; a window the index cannot hold is read record by record, as look_ahead does.
//
// Clock (TRACE_LOGFILE_HEADER.ReservedFlags, Microsoft Learn "WNODE_HEADER" ClientContext): 1 QPC
// (ticks of PerfFreq), 2 system time (100 ns), 3 CPU cycles (CpuSpeedInMHz per microsecond); every
// timestamp of a file is the session's raw clock, and the header event's own timestamp is the session's
// start (StartTime as a FILETIME): time = StartTime + (timestamp - header timestamp) x scale. (Inferred
// from the readers that reproduce Windows' decoders to the microsecond on the committed real traces.)
// Clock 0 ("raw") has no documented unit: its times are given as raw ticks (trace::clock::convertible()
// is false), never guessed.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/error.hpp"
#include "etwctl/trace/format.hpp"
#include "etwctl/trace/kernel_events.hpp"
#include "etwctl/trace/lz77.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

// ---- time ----------------------------------------------------------------------------------------------

/// The trace's own clock: a time point is the time since the session started (the header event), in
/// nanoseconds. trace::clock::to_filetime gives UTC.
struct trace_clock {
    using rep = std::int64_t;
    using period = std::nano;
    using duration = std::chrono::duration<rep, period>;
    using time_point = std::chrono::time_point<trace_clock, duration>;
    static constexpr bool is_steady = true;
};
using trace_time = trace_clock::time_point;

/// Converts a file's raw timestamps (what record::timestamp() returns) to trace_time and to FILETIME.
class clock {
public:
    constexpr clock() noexcept = default;
    /// From the header event: its clock type, PerfFreq, CpuSpeedInMHz, StartTime and its own timestamp.
    constexpr clock(trace::clock_type type, std::uint64_t perf_freq, std::uint32_t cpu_mhz, std::uint64_t start_filetime,
                    std::uint64_t header_timestamp) noexcept
        : type_(type), start_filetime_(start_filetime), origin_(header_timestamp) {
        switch (type) {
        case trace::clock_type::qpc: ticks_per_second_ = perf_freq; break;
        case trace::clock_type::system_time: ticks_per_second_ = 10'000'000; break;
        case trace::clock_type::cpu_cycle: ticks_per_second_ = std::uint64_t{cpu_mhz} * 1'000'000U; break;
        default: ticks_per_second_ = 0; break;
        }
    }
    constexpr trace::clock_type type() const noexcept { return type_; }
    /// Whether raw timestamps convert to time: a known clock with a non-zero rate.
    constexpr bool convertible() const noexcept { return ticks_per_second_ != 0; }
    constexpr std::uint64_t ticks_per_second() const noexcept { return ticks_per_second_; }
    /// The raw timestamp of the session's start (the header event's).
    constexpr std::uint64_t origin() const noexcept { return origin_; }
    constexpr std::uint64_t start_filetime() const noexcept { return start_filetime_; }

    /// Time since the start; before the start (a rundown event stamped earlier) it is negative. For a clock
    /// that does not convert, the raw tick difference (as nanoseconds: say so where it is shown).
    constexpr trace_time time(std::uint64_t raw) const noexcept {
        bool const before = raw < origin_;
        std::uint64_t const delta = before ? origin_ - raw : raw - origin_;
        std::uint64_t const ns = to_ns(delta);
        auto const v = static_cast<std::int64_t>((std::min)(ns, std::uint64_t{INT64_MAX}));
        return trace_time(trace_clock::duration(before ? -v : v));
    }
    /// FILETIME (100 ns since 1601, UTC) of a raw timestamp; 0 when the clock does not convert.
    constexpr std::uint64_t to_filetime(std::uint64_t raw) const noexcept {
        if (!convertible()) return 0;
        auto const t = time(raw).time_since_epoch().count();
        auto const hundreds = t / 100;
        return hundreds < 0 ? start_filetime_ - static_cast<std::uint64_t>(-hundreds) : start_filetime_ + static_cast<std::uint64_t>(hundreds);
    }

private:
    /// ticks -> ns without overflow for any tick count below 2^64 and rates up to 1.8e10 per second.
    constexpr std::uint64_t to_ns(std::uint64_t ticks) const noexcept {
        if (ticks_per_second_ == 0) return ticks;
        std::uint64_t const whole = ticks / ticks_per_second_;
        std::uint64_t const part = ticks % ticks_per_second_;
        if (whole > UINT64_MAX / 1'000'000'000U) return UINT64_MAX;
        return whole * 1'000'000'000U + part * 1'000'000'000U / ticks_per_second_;
    }
    trace::clock_type type_ = trace::clock_type::raw;
    std::uint64_t ticks_per_second_ = 0;
    std::uint64_t start_filetime_ = 0;
    std::uint64_t origin_ = 0;
};

// ---- the file ------------------------------------------------------------------------------------------

/// An .etl file (or a run of buffers that starts with a header buffer), over the caller's bytes.
class trace_file {
public:
    trace_file() noexcept = default;

    /// Checks the header buffer and the header event. A failure names its rule and offset in `why`, and
    /// the error code's describe() text.
    static result<trace_file> open(bytes_view file, fault* why = nullptr) noexcept {
        trace_file f;
        fault const bad = f.init(file);
        if (why) *why = bad;
        if (bad) {
            char const* const text = "trace: {name}, at file offset {hex}";
            return etwctl::detail::fail(bad.code(), text, info(bad.what).text, bad.file_offset + bad.offset);
        }
        return f;
    }

    bytes_view bytes() const noexcept { return file_; }
    /// The header event's payload (TRACE_LOGFILE_HEADER in the session's pointer size + the two names).
    logfile_header const& header() const noexcept { return header_; }
    /// The header event's record (its thread, process and raw timestamp).
    record const& header_record() const noexcept { return header_record_; }
    trace::clock const& clock() const noexcept { return clock_; }
    /// The session's pointer size (the header's PointerSize); each record has its own (record::pointer_size).
    std::uint8_t pointer_size() const noexcept { return static_cast<std::uint8_t>(header_.pointer_size()); }
    /// EVENT_TRACE_COMPRESSED_MODE (0x04000000) in the header's LogFileMode.
    bool compressed_mode() const noexcept { return (header_.log_file_mode() & 0x04000000U) != 0; }

private:
    fault init(bytes_view file) noexcept {
        file_ = file;
        if (!buffer_header::fits(file, 0)) return {rule::trace_file_too_small, 0, 0, file.size(), buffer_header_size};
        buffer_header const b(file);
        if (b.buffer_size() < buffer_header_size || b.buffer_size() > file.size())
            return {rule::trace_buffer_size, 0, 0, b.buffer_size(), file.size()};
        if (b.compressed()) return {rule::trace_header_event, 0, 0x34, b.flags(), 0}; // never compressed (inferred)
        auto const end = b.data_end();
        if (end < buffer_header_size || end > b.buffer_size()) return {rule::trace_buffer_filled, 0, 0x30, end, b.buffer_size()};
        auto const data = file.first(end);
        auto const step = record_reader::read(data, buffer_header_size, header_record_);
        if (step.what != rule::ok) return {step.what, 0, static_cast<std::uint32_t>(buffer_header_size), step.value, step.limit};
        if (header_record_.kind() != record_kind::system || header_record_.hook().value != 0)
            return {rule::trace_header_event, 0, static_cast<std::uint32_t>(buffer_header_size), header_record_.hook().value, 0};
        payload_ref const payload{header_record_.payload(), static_cast<std::uint8_t>(header_record_.version()),
                                  header_record_.pointer_size()};
        if (logfile_header::check(payload) != layout_fault::none)
            return {rule::trace_header_event, 0, static_cast<std::uint32_t>(buffer_header_size), header_record_.payload().size(), 0};
        header_ = logfile_header(payload);
        clock_ = trace::clock(header_.clock_type(), header_.perf_freq(), header_.cpu_speed_mhz(), header_.start_time(),
                              header_record_.timestamp());
        return {};
    }

    bytes_view file_{};
    record header_record_{};
    logfile_header header_{};
    trace::clock clock_{};
};

// ---- what was lost -------------------------------------------------------------------------------------

/// Lost data, never silent: what the session recorded as lost and what the reader found missing or could
/// not read.
struct loss_report {
    std::uint32_t header_events_lost = 0;   ///< TRACE_LOGFILE_HEADER.EventsLost
    std::uint32_t header_buffers_lost = 0;  ///< TRACE_LOGFILE_HEADER.BuffersLost
    std::uint32_t buffers_events_lost = 0;  ///< buffers flagged EVENTS_LOST (0x0002)
    std::uint32_t buffers_buffer_lost = 0;  ///< buffers flagged BUFFER_LOST (0x0004)
    std::uint64_t sequence_gaps = 0;        ///< sequence numbers missing between a file's buffers
    std::uint32_t buffers_unreadable = 0;   ///< buffers skipped whole (bad size, bad compressed stream)
    std::uint32_t buffers_cut = 0;          ///< buffers whose records ended at a fault (the rest skipped)
    std::uint64_t bytes_skipped = 0;        ///< bytes not read because of faults (file tail included)
    std::uint64_t faults = 0;               ///< faults met (the reader's first_fault() is the first)

    /// Whether anything was lost or skipped.
    constexpr bool any() const noexcept {
        return header_events_lost || header_buffers_lost || buffers_events_lost || buffers_buffer_lost || sequence_gaps ||
               buffers_unreadable || buffers_cut || bytes_skipped || faults;
    }
};

// ---- the reader ----------------------------------------------------------------------------------------

/// One record as the reader delivers it: the record, the processor whose buffer held it, and where.
struct event_ref {
    record rec{};
    std::uint16_t processor = 0;
    std::uint32_t stream = 0;        ///< the reader's stream (0: the header buffer)
    std::uint64_t buffer_offset = 0; ///< file offset of the buffer that held it
    std::uint32_t offset = 0;        ///< the record's offset in that buffer (decompressed, header included)
};

/// What the reader does with faults besides counting them: a function called with each (optional).
struct reader_options {
    void (*on_fault)(fault const&, void* context) noexcept = nullptr;
    void* fault_context = nullptr;
};

/// The records of a trace_file in timestamp order. Storage: reader::storage_size(file) bytes, given by the
/// caller (any alignment; suitably aligned inside). A record's bytes stay valid until the next call to
/// next(): a compressed buffer is decompressed into one of its processor's stream_slots, never into the slot
/// of the record next() handed out last, nor into the current or the read-ahead buffer's (so the stack
/// records a dispatcher attaches from the current and the next buffer stay valid with their event), and a
/// buffer that fails to decompress takes no slot.
class reader {
public:
    /// Decompression slots per processor stream (the current buffer and the ones a look-ahead reaches).
    static constexpr std::size_t stream_slots = 4;
    /// How many records after a stream's head look_ahead reaches.
    static constexpr std::size_t max_look_ahead = 8;

    /// Bytes of storage the reader needs for `file` (one pass over the buffers' headers).
    static std::size_t storage_size(trace_file const& file) noexcept {
        auto const c = census(file);
        return layout(c).total;
    }

    reader(trace_file const& file, std::span<std::byte> storage, reader_options options = {}) noexcept
        : file_(file), options_(options) {
        losses_.header_events_lost = file.header().events_lost();
        losses_.header_buffers_lost = file.header().buffers_lost();
        auto const c = census(file);
        auto const l = layout(c);
        // align the storage's start for the index entries
        auto const base = reinterpret_cast<std::uintptr_t>(storage.data());
        std::size_t const pad = (alignof(std::max_align_t) - base % alignof(std::max_align_t)) % alignof(std::max_align_t);
        if (storage.size() < l.total) { // l.total holds the alignment padding's worst case
            init_fault_ = {rule::trace_storage_too_small, 0, 0, storage.size(), l.total};
            report(init_fault_);
            return;
        }
        auto* const at = storage.data() + pad;
        entries_ = {construct<entry>(at + l.entries, c.buffers), c.buffers};
        streams_ = {construct<stream>(at + l.streams, c.streams), c.streams};
        heap_ = {construct<merge_key>(at + l.heap, c.streams), c.streams};
        slots_ = std::span<std::byte>(at + l.slots, c.streams * stream_slots * c.max_decompressed);
        slot_size_ = c.max_decompressed;
        index();
        start();
    }

    /// Why the reader could not start (storage too small), or rule::ok.
    fault const& init_fault() const noexcept { return init_fault_; }
    /// The next record in timestamp order (the header buffer's records first); false at the end.
    ETWCTL_INLINE_ALWAYS bool next(event_ref& out) noexcept {
        if (heap_size_ == 0) return false;
        auto const s = heap_[0].stream;
        auto& st = streams_[s];
        out = st.head;
        st.delivered = st.slot; // its bytes (in the current buffer: in this slot, or in the file) must outlive the reading that follows
        advance_top(st);
        return true;
    }
    /// A record of the look-ahead: the record, and which of its stream's buffers holds it.
    struct ahead {
        event_ref ref{};
        std::size_t entry = 0;     ///< the buffer's index entry
        std::uint32_t ordinal = 0; ///< the record's place among its buffer's records (0: the first)
        bool head = false;         ///< the stream's head (take() consumes it at once)
    };
    /// A record visit_stack_records hands out: what attaching a stack reads of it (its hook, payload and
    /// pointer size; where it is, for a stack_cache), and what take() needs to consume it.
    struct stack_candidate {
        bool has_hook = false;       ///< a system / compact / perfinfo record (the head may be any record)
        hook_id hook{};
        bytes_view payload{};
        std::uint8_t pointer_size = 8;
        std::uint64_t buffer_offset = 0; ///< as event_ref::buffer_offset and event_ref::offset
        std::uint32_t offset = 0;
        std::size_t entry = 0;       ///< as ahead::entry, ahead::ordinal and ahead::head
        std::uint32_t ordinal = 0;
        bool head = false;
    };
    /// How many of a buffer's stack records (stack_index) the reader keeps at once: those after the
    /// stream's head, found once per record, a run of records at a time, as the windows move through the
    /// buffer. A window that holds more falls back to reading its records one by one
    /// (look_ahead_fallbacks() counts it). A power of two (a ring).
    static constexpr std::size_t stack_index_capacity = 8;
    /// The records that come next on `stream` (the same processor) without consuming them: the head, then
    /// the records after it, up to out.size() and at most max_look_ahead after the head, reaching into the
    /// processor's next buffer (decompressed into the stream's next slot, which its reading then uses). A
    /// dispatcher attaches to an event the stack records that follow it on its processor: the kernel may
    /// log a stack-cache eviction or another event between an event and its stack, and a buffer may end
    /// between them.
    std::size_t look_ahead(std::uint32_t stream_index, std::span<ahead> out) noexcept {
        return look_ahead(stream_index, out, [](hook_id, bytes_view) noexcept { return true; }, true);
    }
    /// The same window, but only the records after the head that `accept(hook, payload)` takes (hook
    /// records; the others go through when `others` is true): a hook record it refuses is skipped on its
    /// header's first 8 bytes, never decoded or copied. The head is out[0] whatever it is.
    template <class Accept>
    std::size_t look_ahead(std::uint32_t stream_index, std::span<ahead> out, Accept&& accept, bool others = false) noexcept {
        if (stream_index >= streams_.size() || !streams_[stream_index].live || out.empty()) return 0;
        auto& st = streams_[stream_index];
        out[0] = {st.head, st.current, st.head_ordinal, true};
        std::size_t n = 1; // records given
        if (n < out.size())
            walk_window(stream_index, accept, others, [&](ahead const& a) noexcept {
                out[n++] = a;
                return n < out.size();
            });
        return n;
    }
    /// What event_stream attaches stacks with: the same records look_ahead(stream, out, accept) gives for
    /// an `accept` that takes the StackWalk / StackKeyKernel / StackKeyUser records (is_stack_record) whose
    /// EventTimeStamp is `timestamp` and whose ThreadId is `thread_id` (any thread for no_id), handed to
    /// `visit(stack_candidate const&)` in the same order, the head first whatever it is, until visit returns
    /// false.
    /// The same window, the same reading ahead into the next buffer; but the records after the head are
    /// found in the stream's stack index (each record of a buffer is looked at once, when a window first
    /// reaches it), not by reading the window's records again for every event.
    template <class Visit>
    void visit_stack_records(std::uint32_t stream_index, std::uint64_t timestamp, std::uint32_t thread_id, Visit&& visit) noexcept {
        if (stream_index >= streams_.size() || !streams_[stream_index].live) return;
        auto& st = streams_[stream_index];
        auto const& first = st.head.rec;
        if (!visit(stack_candidate{first.has_hook(), first.hook(), first.payload(), first.pointer_size(), st.head.buffer_offset, st.head.offset,
                                   st.current, st.head_ordinal, true}))
            return;
        if (!visit_indexed(stream_index, timestamp, thread_id, visit)) {
            ++look_ahead_fallbacks_; // more stack records in the window than the index holds: read them
            walk_window(stream_index, [&](hook_id h, bytes_view payload) noexcept {
                return names_stack_of(h, payload, timestamp, thread_id);
            }, false, [&](ahead const& a) noexcept {
                auto const& r = a.ref.rec;
                return visit(stack_candidate{r.has_hook(), r.hook(), r.payload(), r.pointer_size(), a.ref.buffer_offset, a.ref.offset, a.entry,
                                             a.ordinal, false});
            });
        }
    }
    /// Whether a record may carry an event's stack: a StackWalk (0x1820), StackKeyKernel (0x1825) or
    /// StackKeyUser (0x1826) record with its EventTimeStamp and ThreadId (at 0 and 0x0C: Microsoft Learn
    /// "StackWalk_Event"; phnt ntwmi.h STACK_WALK_EVENT_DATA, and the stack-key reference after them).
    static bool is_stack_record(hook_id h, bytes_view payload) noexcept { return is_stack_hook(h) && payload.size() >= 0x10; }
    /// The hooks of those records: StackWalk, StackKeyKernel, StackKeyUser.
    static constexpr bool is_stack_hook(hook_id h) noexcept { return h.value == 0x1820 || h.value == 0x1825 || h.value == 0x1826; }
    /// The event a stack record names: its EventTimeStamp and ThreadId (StackThread); false (and zeros)
    /// for a record that is not one (is_stack_record).
    struct stack_owner {
        bool valid = false;
        std::uint64_t timestamp = 0;
        std::uint32_t thread_id = 0;
        explicit operator bool() const noexcept { return valid; }
    };
    static stack_owner stack_owner_of(hook_id h, bytes_view payload) noexcept {
        if (!is_stack_record(h, payload)) return {};
        return {true, etwctl::detail::load<std::uint64_t>(payload.data(), 0), etwctl::detail::load<std::uint32_t>(payload.data(), 0x0C)};
    }
    /// Whether a record names the stack of the event with `timestamp` and `thread_id` (no_id: any thread).
    static bool names_stack_of(hook_id h, bytes_view payload, std::uint64_t timestamp, std::uint32_t thread_id) noexcept {
        stack_owner const o = stack_owner_of(h, payload);
        return o && o.timestamp == timestamp && (thread_id == no_id || thread_id == o.thread_id);
    }
    /// Windows the stack index could not hold (visit_stack_records read them record by record).
    std::uint64_t look_ahead_fallbacks() const noexcept { return look_ahead_fallbacks_; }
    /// Consumes a record look_ahead returned: the head at once (the stream moves on), any other when the
    /// stream reaches it (it is skipped then), keeping the merge in order. Take the records after the head
    /// before the head.
    void take(std::uint32_t stream_index, ahead const& a) noexcept { take(stream_index, a.entry, a.ref.offset, a.ordinal, a.head); }
    /// The same, from the fields of an `ahead` (what visit_stack_records hands out).
    void take(std::uint32_t stream_index, std::size_t buffer_entry, std::uint32_t offset, std::uint32_t ordinal, bool head) noexcept {
        if (stream_index >= streams_.size() || !streams_[stream_index].live) return;
        auto& st = streams_[stream_index];
        if (!head) {
            if (st.taken_count < max_look_ahead) st.taken[st.taken_count++] = {buffer_entry, offset, ordinal};
            return;
        }
        for (std::size_t i = 0; i < heap_size_; ++i)
            if (heap_[i].stream == stream_index) {
                advance(i, st);
                refresh_runner_up();
                return;
            }
    }

    trace_file const& file() const noexcept { return file_; }
    loss_report const& losses() const noexcept { return losses_; }
    fault const& first_fault() const noexcept { return first_fault_; }
    /// Buffers indexed (the header buffer included) and processor streams.
    std::size_t buffer_count() const noexcept { return entries_.size(); }
    std::size_t stream_count() const noexcept { return streams_.size(); }
    /// The processor of a stream.
    std::uint16_t stream_processor(std::uint32_t s) const noexcept { return s < streams_.size() ? streams_[s].processor : 0; }

private:
    struct entry {
        std::uint64_t offset = 0;
        std::uint64_t sequence = 0;
        std::uint32_t size = 0;
        std::uint16_t processor = 0;
        bool readable = true; ///< false: its BufferSize is not a buffer's (reported when indexed)
    };
    struct taken_record {
        std::size_t entry = 0;
        std::size_t offset = 0;
        std::uint32_t ordinal = 0;
    };
    /// A record of a buffer that may carry an event's stack (is_stack_record), as the stack index keeps it.
    struct stack_mark {
        std::uint32_t ordinal = 0;
        std::uint32_t offset = 0;
        std::uint64_t timestamp = 0;   ///< EventTimeStamp
        std::uint32_t thread_id = 0;   ///< ThreadId
        std::uint16_t hook = 0;
        std::uint16_t payload_size = 0;
        std::uint8_t payload_at = 0;   ///< the payload's offset in the record (its header's size)
        std::uint8_t pointer_size = 8; ///< 4 for the *32 header types
    };
    /// The stack records of one buffer of a stream, found as the windows move through it: every record
    /// up to `scanned` was looked at once (its header's first bytes; read() only for a record that is not
    /// a hook record), and the marks kept are those after the stream's head, in the buffer's order: a ring
    /// of stack_index_capacity, marks[first % capacity] the first.
    struct stack_index {
        std::size_t entry = no_entry; ///< the buffer (no_entry: none)
        std::size_t at = 0;           ///< the next record to look at
        std::uint32_t scanned = 0;    ///< records looked at: ordinals [0, scanned)
        bool ended = false;           ///< every record was looked at (or a fault ends them)
        bool faulted = false;         ///< the records end at a fault (the window ends there too)
        std::uint32_t first = 0, count = 0;
        stack_mark marks[stack_index_capacity]{};
        stack_mark const& mark(std::uint32_t i) const noexcept { return marks[(first + i) % stack_index_capacity]; }
    };
    struct stream {
        event_ref head{};
        bytes_view data{};        // the current buffer from its start to its end of data
        std::size_t at = 0;        // the next record's offset in data
        std::size_t first = 0, last = 0, current = 0; // its entries [first, last), the one being read
        std::size_t slot = 0;      // the decompression slot in use
        std::size_t prefetch_entry = no_entry; // the next buffer, read ahead by look_ahead
        std::size_t prefetch_slot = 0;
        std::size_t delivered = no_slot; // the slot of the record next() handed out last
        bytes_view prefetch_data{};
        taken_record taken[max_look_ahead] = {}; // records taken out of order (look_ahead)
        std::uint8_t taken_count = 0;
        std::uint32_t ordinal = 0;      // records read from the current buffer (taken ones included)
        std::uint32_t head_ordinal = 0; // the head's place in its buffer
        stack_index index[2]{};         // the current buffer's and the read-ahead one's
        std::uint16_t processor = 0;
        std::uint64_t key_mask = 0; // its merge key is its head's timestamp & key_mask: 0 for the header buffer's stream (first)
        bool loaded = false;       // data holds the current buffer
        bool live = false;
    };
    /// A stream's place in the merge: its head's timestamp (0 for the header buffer's stream) and index.
    struct merge_key {
        std::uint64_t timestamp = 0;
        std::uint32_t stream = 0;
    };
    static constexpr std::size_t no_entry = static_cast<std::size_t>(-1);
    static constexpr std::size_t no_slot = static_cast<std::size_t>(-1);
    struct counts {
        std::size_t buffers = 0;
        std::size_t streams = 1; // the header buffer's own
        std::size_t max_decompressed = 0;
    };
    struct offsets {
        std::size_t entries = 0, streams = 0, heap = 0, slots = 0, total = 0;
    };

    /// The next buffer's offset after the one at `offset`, or the end (the chain cannot be followed past a
    /// size that is not a buffer's: for an uncompressed file the header's BufferSize resynchronises).
    static std::uint64_t next_buffer(trace_file const& f, std::uint64_t offset, bool& ok) noexcept {
        auto const file = f.bytes();
        buffer_header const b(file.subspan(offset));
        ok = b.buffer_size() >= buffer_header_size && b.buffer_size() <= file.size() - offset;
        if (ok) return offset + b.buffer_size();
        auto const fixed = f.header().buffer_size();
        if (!f.compressed_mode() && fixed >= buffer_header_size && fixed <= file.size() - offset) return offset + fixed;
        return file.size();
    }

    static counts census(trace_file const& f) noexcept {
        counts c;
        auto const file = f.bytes();
        std::uint32_t seen[2048 / 32] = {};
        for (std::uint64_t o = 0; buffer_header::fits(file, o);) {
            bool ok = false;
            auto const next = next_buffer(f, o, ok);
            buffer_header const b(file.subspan(o));
            ++c.buffers; // an unreadable buffer keeps its entry: its sequence number is not a gap
            if (ok && o != 0) {
                auto const p = b.processor();
                if ((seen[p / 32] & (1U << (p % 32))) == 0) seen[p / 32] |= 1U << (p % 32), ++c.streams;
                // a compressed buffer decompresses to at most the session's buffer size: a larger
                // SavedOffset is a fault (load), not a reason to ask for more storage
                if (b.compressed() && b.saved_offset() <= f.header().buffer_size())
                    c.max_decompressed = (std::max)(c.max_decompressed, std::size_t{b.saved_offset()});
            }
            o = next;
        }
        return c;
    }
    static offsets layout(counts const& c) noexcept {
        offsets l;
        auto align = [](std::size_t v) { return (v + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) * alignof(std::max_align_t); };
        l.entries = 0;
        l.streams = align(l.entries + c.buffers * sizeof(entry));
        l.heap = align(l.streams + c.streams * sizeof(stream));
        l.slots = align(l.heap + c.streams * sizeof(merge_key));
        l.total = l.slots + c.streams * stream_slots * c.max_decompressed + alignof(std::max_align_t);
        return l;
    }

    /// Starts the lifetime of n value-initialised T at `at` (suitably aligned storage) and returns the first.
    template <class T>
    static T* construct(std::byte* at, std::size_t n) noexcept {
        if (n == 0) return nullptr;
        T* const first = ::new (static_cast<void*>(at)) T{};
        for (std::size_t i = 1; i < n; ++i) ::new (static_cast<void*>(at + i * sizeof(T))) T{};
        return first;
    }

    void report(fault const& f) noexcept {
        if (losses_.faults++ == 0) first_fault_ = f;
        if (options_.on_fault) options_.on_fault(f, options_.fault_context);
    }

    /// Fills the index, checks every buffer's header, counts the flagged and the missing buffers, and
    /// orders the entries by (stream, sequence).
    void index() noexcept {
        auto const file = file_.bytes();
        std::size_t n = 0;
        std::uint64_t o = 0;
        for (; buffer_header::fits(file, o) && n < entries_.size();) {
            bool ok = false;
            auto const next = next_buffer(file_, o, ok);
            buffer_header const b(file.subspan(o));
            entries_[n++] = {o, b.sequence_number(), ok ? b.buffer_size() : 0U, b.processor(), ok};
            if (!ok) {
                report({rule::trace_buffer_size, o, 0, b.buffer_size(), file.size() - o});
                ++losses_.buffers_unreadable;
                losses_.bytes_skipped += next - o;
            } else {
                if (b.flags() & buffer_flag::events_lost) ++losses_.buffers_events_lost;
                if (b.flags() & buffer_flag::buffer_lost) ++losses_.buffers_buffer_lost;
            }
            o = next;
        }
        if (o < file.size()) { // a truncated last buffer: less than a header left
            report({rule::trace_file_too_small, o, 0, file.size() - o, buffer_header_size});
            losses_.bytes_skipped += file.size() - o;
        }
        entries_ = entries_.first(n);
        // sequence gaps: over every buffer of the file but the header buffer (relogged files number theirs apart)
        auto const rest = n > 0 ? entries_.subspan(1) : entries_;
        std::sort(rest.begin(), rest.end(), [](entry const& a, entry const& b) { return a.sequence < b.sequence; });
        for (std::size_t i = 1; i < rest.size(); ++i)
            if (rest[i].sequence > rest[i - 1].sequence + 1) losses_.sequence_gaps += rest[i].sequence - rest[i - 1].sequence - 1;
        // (std::sort, not stable_sort: stable_sort may allocate; the sequence makes the order total)
        std::sort(rest.begin(), rest.end(), [](entry const& a, entry const& b) {
            return a.processor != b.processor ? a.processor < b.processor : a.sequence < b.sequence;
        });
        // streams: 0 = the header buffer, then one per processor
        std::size_t s = 0;
        if (n > 0) streams_[s++] = make_stream(0, 1, 0);
        for (std::size_t i = 1; i < n;) {
            std::size_t j = i;
            while (j < n && entries_[j].processor == entries_[i].processor) ++j;
            if (s < streams_.size()) streams_[s++] = make_stream(i, j, entries_[i].processor);
            i = j;
        }
        streams_ = streams_.first(s);
    }
    stream make_stream(std::size_t first, std::size_t last, std::uint16_t processor) const noexcept {
        stream st;
        st.first = first, st.last = last, st.current = first, st.processor = processor;
        return st;
    }

    void start() noexcept {
        heap_size_ = 0;
        for (std::uint32_t s = 0; s < streams_.size(); ++s) {
            auto& st = streams_[s];
            st.current = st.first;
            st.head.processor = st.processor, st.head.stream = s;
            st.key_mask = s == 0 ? 0 : ~std::uint64_t{0};
            st.live = fetch(s); // its first readable buffer: an unreadable first buffer does not end the stream
            if (st.live) heap_[heap_size_++] = {key_of(s), s};
        }
        for (std::size_t i = heap_size_; i-- > 0;) sift_down(i);
        refresh_runner_up();
    }

    /// The bytes of entry `e` from its start to its end of data: in the file, or decompressed into `slot`
    /// (the header kept in front, so offsets read as in a plain buffer). Reports only when `report_fault`.
    bytes_view map_buffer(std::uint32_t s, std::size_t e, std::size_t slot_index, bool report_fault) noexcept {
        auto const& en = entries_[e];
        if (!en.readable) return {}; // reported when indexed
        auto const raw = file_.bytes().subspan(en.offset, en.size);
        buffer_header const b(raw);
        auto const end = b.data_end();
        auto const fail = [&](fault const& f) noexcept {
            if (report_fault) {
                report(f);
                ++losses_.buffers_unreadable;
                losses_.bytes_skipped += en.size;
            }
            return bytes_view{};
        };
        if (!b.compressed()) {
            if (end < buffer_header_size || end > en.size) return fail({rule::trace_buffer_filled, en.offset, 0x30, end, en.size});
            return raw.first(end);
        }
        auto const bound = (std::min)(std::size_t{file_.header().buffer_size()}, slot_size_);
        if (end < buffer_header_size || end > bound) return fail({rule::trace_buffer_filled, en.offset, 0x04, end, file_.header().buffer_size()});
        auto const slot = slots_.subspan((std::size_t{s} * stream_slots + slot_index) * slot_size_, slot_size_);
        std::copy_n(raw.data(), buffer_header_size, slot.data());
        auto const want = std::size_t{end} - buffer_header_size;
        auto const r = decompress_plain_lz77(raw.subspan(buffer_header_size), slot.subspan(buffer_header_size, want));
        if (!r || r.written != want)
            return fail({!r ? r.error : rule::trace_compressed_size, en.offset, static_cast<std::uint32_t>(buffer_header_size + r.input_offset),
                         r.written, want});
        return slot.first(end);
    }

    /// Makes entry `e` the current buffer of stream `s` (the read-ahead one if look_ahead prepared it).
    /// False (after reporting) when the buffer cannot be read.
    bool load(std::uint32_t s, std::size_t e) noexcept {
        auto& st = streams_[s];
        st.current = e;
        st.at = buffer_header_size;
        st.ordinal = 0;
        st.head.buffer_offset = entries_[e].offset; // (the head's processor and stream are set by start)
        // records taken from an earlier buffer were all passed
        std::size_t kept = 0;
        for (std::size_t i = 0; i < st.taken_count; ++i)
            if (st.taken[i].entry >= e) st.taken[kept++] = st.taken[i];
        st.taken_count = static_cast<std::uint8_t>(kept);
        if (st.prefetch_entry == e) {
            st.data = st.prefetch_data, st.slot = st.prefetch_slot;
            st.prefetch_entry = no_entry;
            return true;
        }
        st.prefetch_entry = no_entry;
        std::size_t const slot = free_slot(st);
        st.data = map_buffer(s, e, slot, true);
        if (st.data.empty()) return false; // a buffer that failed takes no slot
        st.slot = slot;
        return true;
    }

    /// The slot the next decompression of a stream uses: neither the current buffer's, nor the one holding
    /// the record next() handed out last, nor a buffer read ahead.
    static std::size_t free_slot(stream const& st) noexcept {
        for (std::size_t k = 1; k < stream_slots; ++k) {
            std::size_t const c = (st.slot + k) % stream_slots;
            if (c == st.delivered || (st.prefetch_entry != no_entry && c == st.prefetch_slot)) continue;
            return c;
        }
        return (st.slot + 1) % stream_slots; // not reached: four slots, at most three in use
    }

    /// Reads the stream's next buffer ahead of time (look_ahead), into the slot its reading will use.
    bool prefetch(std::uint32_t s) noexcept {
        auto& st = streams_[s];
        if (st.prefetch_entry == st.current + 1) return true;
        if (st.current + 1 >= st.last) return false;
        std::size_t const slot = free_slot(st);
        bytes_view const data = map_buffer(s, st.current + 1, slot, false); // a fault is reported when the stream gets there
        if (data.empty()) return false;
        st.prefetch_entry = st.current + 1, st.prefetch_slot = slot, st.prefetch_data = data;
        return true;
    }

    /// Reads the stream's next record into its head, moving to its next readable buffer as needed.
    /// False when the stream has no more records.
    ETWCTL_INLINE_ALWAYS bool fetch(stream& st) noexcept {
        // the common case in line: the next record of the current buffer, a hook record read_hook reads,
        // none taken out of order. The end of the buffer's records (its 0xFF fill has no hook type), any
        // other record, a fault: fetch_any. (st.at <= st.data.size() for a loaded stream: every st.at set
        // is a buffer's first record or a next record's offset, which read and peek_hook bound by the data.)
        auto const at = st.at;
        auto const left = st.data.size() - at;
        if (st.loaded && st.taken_count == 0 && left >= 8) {
            if (std::size_t const advance = record_reader::read_hook(st.data.data() + at, left, st.head.rec)) {
                auto const ordinal = st.ordinal;
                st.head_ordinal = ordinal, st.ordinal = ordinal + 1;
                st.head.offset = static_cast<std::uint32_t>(at);
                st.at = at + advance;
                return true;
            }
        }
        return fetch_any(st.head.stream);
    }
    bool fetch(std::uint32_t s) noexcept { return fetch(streams_[s]); }
    /// fetch in full: records taken out of order, the end of a buffer, faults (reported here).
    bool fetch_any(std::uint32_t s) noexcept {
        auto& st = streams_[s];
        for (;;) {
            if (st.loaded && !at_end_of_records(st.data, st.at)) {
                if (st.taken_count != 0) { // handed out already, with the event it belongs to: read() passed it then
                    auto const peek = record_reader::peek_hook(st.data, st.at);
                    if (peek.next != 0 && take_if_taken(st, st.current, st.at)) {
                        ++st.ordinal;
                        st.at = peek.next;
                        continue;
                    }
                }
                auto const step = record_reader::read(st.data, st.at, st.head.rec);
                if (step.what == rule::ok) {
                    st.head_ordinal = st.ordinal++;
                    if (take_if_taken(st, st.current, st.at)) { // handed out already, with the event it belongs to
                        st.at = step.next;
                        continue;
                    }
                    st.head.offset = static_cast<std::uint32_t>(st.at);
                    st.at = step.next;
                    return true;
                }
                report({step.what, entries_[st.current].offset, static_cast<std::uint32_t>(st.at), step.value, step.limit});
                ++losses_.buffers_cut;
                losses_.bytes_skipped += st.data.size() - st.at;
            }
            // the next buffer of this stream that can be read
            std::size_t e = st.loaded ? st.current + 1 : st.current;
            st.loaded = false;
            for (; e < st.last && !st.loaded; ++e) st.loaded = load(s, e);
            if (!st.loaded) return false;
        }
    }

    /// The window of look_ahead after the head: the records of stream `s` after its head, up to
    /// max_look_ahead of them not taken, reaching into the processor's next buffer (read ahead), ending at
    /// a record that does not read. Hands `visit` each record after the head that is not taken and that
    /// `accept(hook, payload)` takes (hook records; the others when `others`), until visit returns false.
    template <class Accept, class Visit>
    void walk_window(std::uint32_t s, Accept&& accept, bool others, Visit&& visit) noexcept {
        auto& st = streams_[s];
        std::size_t seen = 1; // records of the window (the head and the records after it not taken)
        bytes_view data = st.data;
        std::size_t e = st.current;
        std::size_t at = st.at;
        std::uint32_t ordinal = st.head_ordinal + 1;
        while (seen <= max_look_ahead) {
            if (at_end_of_records(data, at)) {
                if (e != st.current || !prefetch(s)) break; // one buffer ahead at most
                data = st.prefetch_data, e = st.prefetch_entry, at = buffer_header_size, ordinal = 0;
                continue;
            }
            auto const peek = record_reader::peek_hook(data, at);
            if (peek.next != 0 && !accept(peek.hook, peek.payload)) {
                seen += is_taken(st, e, at) ? 0U : 1U;
                at = peek.next, ++ordinal;
                continue;
            }
            record rec;
            auto const step = record_reader::read(data, at, rec);
            if (step.what != rule::ok) break; // the fault is reported when the stream gets there
            if (!is_taken(st, e, at)) {
                ++seen;
                if ((peek.next != 0 || others) &&
                    !visit(ahead{{rec, st.processor, s, entries_[e].offset, static_cast<std::uint32_t>(at)}, e, ordinal, false}))
                    return;
            }
            at = step.next, ++ordinal;
        }
    }

    /// The stack index of buffer `e` of a stream (the current or the read-ahead one), started if the
    /// stream has none for it: it takes the place of the one that indexes neither of the two.
    static stack_index& index_of(stream& st, std::size_t e) noexcept {
        for (auto& x : st.index)
            if (x.entry == e) return x;
        auto& x = st.index[0].entry == st.current || st.index[0].entry == st.prefetch_entry ? st.index[1] : st.index[0];
        x.entry = e, x.at = buffer_header_size, x.scanned = 0, x.ended = false, x.faulted = false, x.first = 0, x.count = 0;
        return x;
    }
    /// Looks at the records of `data` (the index's buffer) at least until the one at ordinal `last` was
    /// looked at or the records end, and on while the ring has room (a run of records per call, not one);
    /// a stack record after ordinal `after` (the head) is marked. False when a mark up to `last` does not
    /// fit: the window holds more stack records than the ring (the record is looked at again next time).
    static bool scan(stack_index& x, bytes_view data, std::int64_t after, std::uint32_t last) noexcept {
        // what at_end_of_records and record_reader::peek_hook decide, in one pass over the header's first
        // 8 bytes, with the position kept in registers: this loop runs once per record of the trace
        auto const* const base = data.data();
        std::size_t const end = data.size();
        std::size_t at = x.at;
        std::uint32_t scanned = x.scanned;
        std::uint32_t count = x.count; // (locals: the marks' stores could alias the index's fields)
        bool fits = true;
        bool ended = x.ended, faulted = x.faulted;
        while (!ended) {
            if (at >= end) {
                ended = true;
                break;
            }
            std::size_t const left = end - at;
            std::size_t next = 0;
            if (left >= 4 && etwctl::detail::load<std::uint32_t>(base, at) == 0xFFFFFFFFU) { // the fill after the last record
                ended = true;
                break;
            }
            if (left >= 8) {
                auto const word = etwctl::detail::load<std::uint64_t>(base, at);
                auto const type = static_cast<std::uint8_t>(word >> 16);
                std::size_t fixed = 0;
                if ((word & 0xC0000000U) == 0xC0000000U) {
                    switch (type) {
                    case header_type::system32: case header_type::system64: fixed = 0x20; break;
                    case header_type::compact32: case header_type::compact64: fixed = 0x18; break;
                    case header_type::perfinfo32: case header_type::perfinfo64: {
                        std::size_t const ext = static_cast<unsigned>((word >> 8) & 0xFFU); // (unsigned: a size_t cast is useless on LP64)
                        fixed = 0x10 + 8U * ((ext & 0x07U) + (ext >> 7));
                        break;
                    }
                    default: break;
                    }
                }
                std::size_t const size = static_cast<unsigned>((word >> 32) & 0xFFFFU);
                if (fixed != 0 && size >= fixed && size <= left) { // a hook record read() takes (peek_hook's test)
                    next = (std::min)(at + ((size + 7U) & ~std::size_t{7}), end);
                    auto const hook = static_cast<std::uint16_t>(word >> 48);
                    if (scanned > after && (hook == 0x1820 || hook == 0x1825 || hook == 0x1826) && size - fixed >= 0x10) {
                        if (count == stack_index_capacity) { // full: enough if the window was looked at
                            fits = scanned > last;
                            break;
                        }
                        bool const p32 = type == header_type::system32 || type == header_type::compact32 || type == header_type::perfinfo32;
                        x.marks[(x.first + count++) % stack_index_capacity] = {
                            scanned, static_cast<std::uint32_t>(at), etwctl::detail::load<std::uint64_t>(base, at + fixed),
                            etwctl::detail::load<std::uint32_t>(base, at + fixed + 0x0C), hook, static_cast<std::uint16_t>(size - fixed),
                            static_cast<std::uint8_t>(fixed), static_cast<std::uint8_t>(p32 ? 4 : 8)};
                    }
                }
            }
            if (next == 0) { // not a hook record (or one read() refuses): its size and faults as read() sees them
                record rec;
                auto const step = record_reader::read(data, at, rec);
                if (step.what != rule::ok) {
                    ended = faulted = true;
                    break;
                }
                next = step.next;
            }
            at = next, ++scanned;
        }
        x.at = at, x.scanned = scanned, x.count = count, x.ended = ended, x.faulted = faulted;
        return fits;
    }
    /// Records of buffer `e` taken out of order with an ordinal in (after, upto].
    static std::uint32_t taken_between(stream const& st, std::size_t e, std::int64_t after, std::int64_t upto) noexcept {
        std::uint32_t n = 0;
        for (std::size_t i = 0; i < st.taken_count; ++i)
            n += st.taken[i].entry == e && st.taken[i].ordinal > after && st.taken[i].ordinal <= upto ? 1U : 0U;
        return n;
    }
    /// The ordinal of the `count`th record not taken after ordinal `after` of buffer `e` (as if the
    /// buffer had that many records).
    static std::int64_t window_end(stream const& st, std::size_t e, std::int64_t after, std::uint32_t count) noexcept {
        std::int64_t end = after + count;
        if (st.taken_count == 0) return end;
        for (;;) { // the taken records in the range push its end further: at most taken_count rounds
            std::int64_t const next = after + count + taken_between(st, e, after, end);
            if (next == end) return end;
            end = next;
        }
    }
    /// visit_stack_records after the head, from the index: the window of walk_window (the same records,
    /// the same read-ahead) with the stack records of each buffer found in its index. False, before
    /// visiting anything, when a buffer's window holds more stack records than the index keeps.
    template <class Visit>
    bool visit_indexed(std::uint32_t s, std::uint64_t timestamp, std::uint32_t thread_id, Visit&& visit) noexcept {
        auto& st = streams_[s];
        // the current buffer: drop the marks at or before the head, look as far as the window reaches
        auto& cur = index_of(st, st.current);
        while (cur.count != 0 && cur.mark(0).ordinal <= st.head_ordinal) ++cur.first, --cur.count;
        std::int64_t const head = st.head_ordinal;
        std::int64_t const cur_end = window_end(st, st.current, head, max_look_ahead);
        if (!cur.ended && cur.scanned <= cur_end && !scan(cur, st.data, head, static_cast<std::uint32_t>(cur_end))) return false;
        // the records of the current buffer after the head that are not taken: the window takes the rest
        // from the next buffer when the current one ends cleanly before max_look_ahead of them
        stack_index* next = nullptr;
        std::int64_t next_end = -1;
        if (cur.ended && static_cast<std::int64_t>(cur.scanned) - 1 < cur_end) {
            std::int64_t const last = static_cast<std::int64_t>(cur.scanned) - 1;
            auto const in_current = static_cast<std::uint32_t>(last - head) - taken_between(st, st.current, head, last);
            if (!cur.faulted && in_current < max_look_ahead && prefetch(s)) {
                next = &index_of(st, st.prefetch_entry);
                next_end = window_end(st, st.prefetch_entry, -1, static_cast<std::uint32_t>(max_look_ahead - in_current));
                if (!next->ended && next->scanned <= next_end && !scan(*next, st.prefetch_data, -1, static_cast<std::uint32_t>(next_end)))
                    return false;
            }
        }
        // hand out the marks of the window that name the event
        auto const give = [&](stack_index const& x, bytes_view data, std::int64_t end) noexcept {
            for (std::uint32_t i = 0; i < x.count; ++i) {
                auto const& m = x.mark(i);
                if (m.ordinal > end) break;
                if (m.timestamp != timestamp || (thread_id != no_id && m.thread_id != thread_id) || is_taken(st, x.entry, m.offset)) continue;
                if (!visit(stack_candidate{true, hook_id(m.hook), data.subspan(std::size_t{m.offset} + m.payload_at, m.payload_size), m.pointer_size,
                                           entries_[x.entry].offset, m.offset, x.entry, m.ordinal, false}))
                    return false;
            }
            return true;
        };
        if (give(cur, st.data, cur_end) && next) give(*next, st.prefetch_data, next_end);
        return true;
    }

    static bool is_taken(stream const& st, std::size_t e, std::size_t at) noexcept {
        for (std::size_t i = 0; i < st.taken_count; ++i)
            if (st.taken[i].entry == e && st.taken[i].offset == at) return true;
        return false;
    }
    static bool take_if_taken(stream& st, std::size_t e, std::size_t at) noexcept {
        for (std::size_t i = 0; i < st.taken_count; ++i)
            if (st.taken[i].entry == e && st.taken[i].offset == at) {
                st.taken[i] = st.taken[--st.taken_count];
                return true;
            }
        return false;
    }

    /// Moves the stream at heap position `i` to its next record and restores the merge's order (its key
    /// only grows), or drops the stream from the heap when it has no more records.
    ETWCTL_INLINE_ALWAYS void advance(std::size_t i, stream& st) noexcept {
        bool const live = fetch(st);
        st.live = live;
        if (!live) return drop(i);
        heap_[i].timestamp = st.head.rec.timestamp() & st.key_mask; // key_of
        sift_down(i);
    }
    /// advance() for the stream at the top of the heap (next()): while its key stays before the runner-up's
    /// (the earliest of the others), the heap is in order as it is, so a stream whose records come first
    /// runs on with one comparison per record; otherwise it sinks and the runner-up is found again.
    ETWCTL_INLINE_ALWAYS void advance_top(stream& st) noexcept {
        bool const live = fetch(st);
        st.live = live;
        if (!live) {
            drop(0);
            refresh_runner_up();
            return;
        }
        auto& top = heap_[0];
        top.timestamp = st.head.rec.timestamp() & st.key_mask; // key_of
        if (before(top, runner_up_)) return;
        sift_down(0);
        refresh_runner_up();
    }
    /// The earliest key below the top of the heap: one of the top's two children (none: a key after every other).
    void refresh_runner_up() noexcept {
        std::size_t const n = heap_size_;
        runner_up_ = n < 2 ? merge_key{~std::uint64_t{0}, ~std::uint32_t{0}} : n < 3 || before(heap_[1], heap_[2]) ? heap_[1] : heap_[2];
    }
    void drop(std::size_t i) noexcept { // swap with the last
        heap_[i] = heap_[--heap_size_];
        if (i < heap_size_) {
            sift_down(i);
            sift_up(i);
        }
    }

    /// Merge order: the header buffer's stream first, then the earliest timestamp, then the lower stream.
    /// The heap keeps each stream's key beside its index (no look into the stream to compare), the header
    /// buffer's stream with key 0, which no other stream's (key, index) precedes.
    std::uint64_t key_of(std::uint32_t s) const noexcept { return streams_[s].head.rec.timestamp() & streams_[s].key_mask; }
    static bool before(merge_key const& a, merge_key const& b) noexcept {
        return a.timestamp != b.timestamp ? a.timestamp < b.timestamp : a.stream < b.stream;
    }
    ETWCTL_INLINE_ALWAYS void sift_down(std::size_t i) noexcept {
        auto* const h = heap_.data(); // (locals: the swaps' stores could alias the members)
        std::size_t const n = heap_size_;
        for (;;) {
            std::size_t best = i;
            std::size_t const l = 2 * i + 1, r = l + 1;
            if (l < n && before(h[l], h[best])) best = l;
            if (r < n && before(h[r], h[best])) best = r;
            if (best == i) return;
            std::swap(h[i], h[best]);
            i = best;
        }
    }
    void sift_up(std::size_t i) noexcept {
        while (i > 0) {
            std::size_t const parent = (i - 1) / 2;
            if (!before(heap_[i], heap_[parent])) return;
            std::swap(heap_[i], heap_[parent]);
            i = parent;
        }
    }

    trace_file file_;
    std::uint64_t look_ahead_fallbacks_ = 0;
    reader_options options_{};
    std::span<entry> entries_{};
    std::span<stream> streams_{};
    std::span<merge_key> heap_{};
    std::size_t heap_size_ = 0;
    merge_key runner_up_{~std::uint64_t{0}, ~std::uint32_t{0}}; // the earliest key below the heap's top (refresh_runner_up)
    std::span<std::byte> slots_{};
    std::size_t slot_size_ = 0;
    loss_report losses_{};
    fault first_fault_{};
    fault init_fault_{};
};

} // namespace trace
ETWCTL_END_NAMESPACE
