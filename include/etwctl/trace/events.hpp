// SPDX-License-Identifier: MIT
// etwctl/trace/events.hpp - the events of a trace as a profiler reads them: each record with its
// processor, its time, the stack the kernel logged for it and the hardware counters it carries; and
// typed handlers selected by the same names that configure the session:
//
//     trace::dispatch(stream, trace::on<"SampledProfile">([](trace::sampled_profile const& e) {
//         count(e.instruction_pointer(), e.thread_id());
//         for (std::uint64_t frame : e.stack()) ...
//     }));
//
// A name is resolved at compile time in names/events.hpp (the stack-walk table and the table of records
// that are read, not configured): a misspelt name does not compile and names the nearest known one, as
// stack_walk<"..."> does. A record whose payload fits no known layout (an unknown version, too short) is
// never handed to a typed handler: it goes to on_raw with the reason.
//
// Stacks (Microsoft Learn, "StackWalk_Event"; phnt ntwmi.h STACK_WALK_EVENT_DATA and the stack-cache
// types): the kernel logs an event's stack as StackWalk records (hook 0x1820) on the same processor right
// after the event, whose EventTimeStamp is the event's own timestamp; a kernel part and a user part may
// come as two records. With stack caching on, it logs a key instead (StackKeyKernel 0x1825 / StackKeyUser
// 0x1826) and the frames later, when the key leaves the cache (StackKeyDelete 0x1823) or at the end
// (StackKeyRundown 0x1824). event_stream attaches the StackWalk records and key references that follow
// an event on its processor to that event; a stack_cache (built in a first pass) resolves the keys.
// (The attachment rule is inferred from Windows' own decoders and the committed real traces.)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/trace/format.hpp"
#include "etwctl/trace/kernel_events.hpp"
#include "etwctl/trace/reader.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

inline constexpr hook_id stack_walk_hook{0x1820};

// ---- stacks --------------------------------------------------------------------------------------------

/// An event's call stack: the deepest frame (the instruction pointer) first, a kernel part before a user
/// part when the kernel logged them apart. Frames are 4 or 8 bytes each in the trace, read as u64.
class stack_view {
public:
    struct part {
        bytes_view frames{};
        std::uint8_t pointer_size = 8;
        std::size_t size() const noexcept { return pointer_size == 8 ? frames.size() / 8 : pointer_size == 4 ? frames.size() / 4 : 0; }
        std::uint64_t operator[](std::size_t i) const noexcept {
            return pointer_size == 4 ? etwctl::detail::load<std::uint32_t>(frames.data(), 4 * i) : etwctl::detail::load<std::uint64_t>(frames.data(), 8 * i);
        }
    };
    static constexpr std::size_t max_parts = 2;

    constexpr stack_view() noexcept = default;

    std::size_t size() const noexcept {
        std::size_t n = 0;
        for (std::size_t i = 0; i < count_; ++i) n += parts_[i].size();
        return n;
    }
    bool empty() const noexcept { return size() == 0; }
    std::uint64_t operator[](std::size_t i) const noexcept {
        for (std::size_t p = 0; p < count_; ++p) {
            if (i < parts_[p].size()) return parts_[p][i];
            i -= parts_[p].size();
        }
        return 0;
    }
    /// The parts as logged (at most two).
    std::span<part const> parts() const noexcept { return {parts_, count_}; }
    /// Key references attached to the event that no stack_cache resolved (no cache given, or a key the
    /// trace never defined): the stack is then incomplete, and says so.
    std::uint8_t unresolved_keys() const noexcept { return unresolved_; }
    /// Whether a part came from the stack cache (a key reference resolved by a stack_cache).
    bool from_cache() const noexcept { return cached_; }

    class iterator {
    public:
        using value_type = std::uint64_t;
        using difference_type = std::ptrdiff_t;
        iterator() noexcept = default;
        std::uint64_t operator*() const noexcept { return (*s_)[i_]; }
        iterator& operator++() noexcept {
            ++i_;
            return *this;
        }
        iterator operator++(int) noexcept {
            auto t = *this;
            ++i_;
            return t;
        }
        friend bool operator==(iterator const& a, iterator const& b) noexcept { return a.i_ == b.i_; }

    private:
        friend class stack_view;
        iterator(stack_view const* s, std::size_t i) noexcept : s_(s), i_(i) {}
        stack_view const* s_ = nullptr;
        std::size_t i_ = 0;
    };
    iterator begin() const noexcept { return {this, 0}; }
    iterator end() const noexcept { return {this, size()}; }

    /// Adds a part (ignored past max_parts).
    void add(bytes_view frames, std::uint8_t pointer_size, bool from_cache = false) noexcept {
        if (count_ < max_parts) parts_[count_++] = {frames, pointer_size};
        cached_ = cached_ || from_cache;
    }
    void add_unresolved() noexcept { ++unresolved_; }
    /// No parts (the views the parts held are forgotten with them).
    void clear() noexcept { count_ = 0, unresolved_ = 0, cached_ = false; }

private:
    part parts_[max_parts]{};
    std::uint8_t count_ = 0;
    std::uint8_t unresolved_ = 0;
    bool cached_ = false;
};

/// The hardware counters an event carries, in the order the counters were configured (PERFINFO's PMC
/// extension, or an EVENT_HEADER's PMC_COUNTERS item).
class pmc_view {
public:
    constexpr pmc_view() noexcept = default;
    explicit pmc_view(bytes_view values) noexcept : values_(values) {}
    std::size_t size() const noexcept { return values_.size() / 8; }
    bool empty() const noexcept { return values_.empty(); }
    std::uint64_t operator[](std::size_t i) const noexcept { return etwctl::detail::load<std::uint64_t>(values_.data(), 8 * i); }

private:
    bytes_view values_{};
};

/// Stack caching resolved in a first pass over the trace, in the reader's order: each key reference
/// (StackKeyKernel / StackKeyUser) is filled by the next definition of its key and kind that the trace
/// logs after it (StackKeyDelete when the key leaves the cache, StackKeyRundown at the end; phnt ntwmi.h
/// names them). "After" is the read order, not the timestamp: an eviction and the reference that caused it
/// carry the same timestamp, and after a Delete the key names another stack. A definition's kind (kernel or
/// user stack) is that of its last frame. The frames are copied into the caller's storage (the buffers
/// they came from are gone by the time the references are read); the second pass finds a reference by
/// its position in the file.
class stack_cache {
public:
    struct definition {
        std::uint64_t key = 0;
        std::uint64_t ordinal = 0; ///< its place in the first pass's order
        std::uint32_t first = 0;   ///< byte offset of the frames in the frame storage
        std::uint32_t bytes = 0;
        std::uint8_t pointer_size = 8;
        bool kernel = false;
    };
    struct reference {
        std::uint64_t buffer_offset = 0; ///< where the reference is in the file (event_ref)
        std::uint32_t offset = 0;
        std::uint32_t definition = no_definition;
        std::uint64_t key = 0;
        std::uint64_t ordinal = 0;
        bool kernel = false;
        // the definition's frames, copied by finish(): a lookup reads this entry only
        std::uint8_t pointer_size = 8;
        std::uint32_t first = 0;
        std::uint32_t bytes = 0;
    };
    static constexpr std::uint32_t no_definition = 0xFFFFFFFFU;

    /// What a trace needs: counted by census() over every record (the first pass, or a pass of its own).
    struct needs {
        std::size_t definitions = 0;
        std::size_t references = 0;
        std::size_t frame_bytes = 0;
        void census(record const& r) noexcept {
            if (is_definition(r)) ++definitions, frame_bytes += r.payload().size();
            else if (is_reference(r)) ++references;
        }
    };

    stack_cache() noexcept = default;
    stack_cache(std::span<definition> definitions, std::span<reference> references, std::span<std::byte> frames) noexcept
        : defs_(definitions), refs_(references), frames_(frames) {}

    /// Takes every record of the first pass, in the reader's order (false when the storage is full:
    /// counted in dropped()).
    bool add(event_ref const& e) noexcept {
        auto const& r = e.rec;
        ++ordinal_;
        if (is_reference(r)) return add_reference(e);
        if (!is_definition(r)) return true;
        auto const p = r.pointer_size();
        auto const payload = r.payload();
        if (payload.size() < p) return true;
        auto const frames = payload.subspan(p, (payload.size() - p) / p * p);
        if (used_ == defs_.size() || frames.size() > frames_.size() - frame_used_) {
            ++dropped_;
            return false;
        }
        std::copy(frames.begin(), frames.end(), frames_.begin() + static_cast<std::ptrdiff_t>(frame_used_));
        std::size_t const n = frames.size() / p;
        std::uint64_t const last = n == 0 ? 0 : (p == 4 ? etwctl::detail::load<std::uint32_t>(frames.data(), 4 * (n - 1)) : etwctl::detail::load<std::uint64_t>(frames.data(), 8 * (n - 1)));
        defs_[used_++] = {load_pointer(payload, 0, p), ordinal_, static_cast<std::uint32_t>(frame_used_), static_cast<std::uint32_t>(n * p), p,
                          is_kernel_address(last, p)};
        frame_used_ += frames.size();
        return true;
    }
    /// Resolves every reference (call once, after the last add).
    void finish() noexcept {
        auto const defs = defs_.first(used_);
        std::sort(defs.begin(), defs.end(), [](definition const& a, definition const& b) {
            return a.key != b.key ? a.key < b.key : a.kernel != b.kernel ? a.kernel < b.kernel : a.ordinal < b.ordinal;
        });
        for (auto& ref : refs_.first(refs_used_)) {
            auto const it = std::upper_bound(defs.begin(), defs.end(), ref, [](reference const& x, definition const& d) {
                return x.key != d.key ? x.key < d.key : x.kernel != d.kernel ? x.kernel < d.kernel : x.ordinal < d.ordinal;
            });
            if (it != defs.end() && it->key == ref.key && it->kernel == ref.kernel) {
                ref.definition = static_cast<std::uint32_t>(it - defs.begin());
                ref.pointer_size = it->pointer_size, ref.first = it->first, ref.bytes = it->bytes;
            }
        }
        std::sort(refs_.begin(), refs_.begin() + static_cast<std::ptrdiff_t>(refs_used_), position_less);
    }
    /// The frames of the key reference at `e` (a StackKeyKernel / StackKeyUser record), if the trace
    /// defined its key after it.
    std::optional<stack_view::part> find(event_ref const& e) const noexcept {
        std::size_t hint = 0;
        return find(e.buffer_offset, e.offset, hint);
    }
    /// The same, by the reference's place (its buffer's file offset and its offset in that buffer),
    /// searching from `hint` (updated): a reader reads a processor's references in their order in the
    /// file, so a hint kept per processor finds the next one a few entries on, where a search of the whole
    /// table misses the cache at every step. Any hint gives the same answer.
    std::optional<stack_view::part> find(std::uint64_t buffer_offset, std::uint32_t offset, std::size_t& hint) const noexcept {
        reference const probe{buffer_offset, offset};
        auto const refs = refs_.first(refs_used_);
        // gallop from the hint to a range that holds the first entry not before the probe, then search it
        std::size_t lo = 0, hi = refs.size();
        if (hint < refs.size() && !position_less(probe, refs[hint])) {
            lo = hint;
            std::size_t step = 1;
            while (lo + step < refs.size() && position_less(refs[lo + step], probe)) lo += step, step *= 2;
            hi = (std::min)(refs.size(), lo + step + 1);
        }
        auto const it = std::lower_bound(refs.begin() + static_cast<std::ptrdiff_t>(lo), refs.begin() + static_cast<std::ptrdiff_t>(hi), probe, position_less);
        hint = static_cast<std::size_t>(it - refs.begin());
        if (it == refs.end() || it->buffer_offset != buffer_offset || it->offset != offset || it->definition == no_definition)
            return std::nullopt;
        return stack_view::part{bytes_view(frames_.data() + it->first, it->bytes), it->pointer_size};
    }
    std::size_t size() const noexcept { return used_; }
    std::size_t references() const noexcept { return refs_used_; }
    std::size_t dropped() const noexcept { return dropped_; }

    static bool is_definition(record const& r) noexcept {
        auto const h = r.hook().value;
        return r.has_hook() && (h == 0x1822 || h == 0x1823 || h == 0x1824);
    }
    static bool is_reference(record const& r) noexcept {
        auto const h = r.hook().value;
        return r.has_hook() && (h == 0x1825 || h == 0x1826);
    }
    /// A kernel-mode address: the upper half of the address space (0x8000_0000 and up on 32-bit Windows,
    /// 0xFFFF8000_00000000 and up on 64-bit; the kernel/user split is inferred from Windows' decoders).
    static bool is_kernel_address(std::uint64_t a, std::uint8_t pointer_size) noexcept {
        return pointer_size == 4 ? a >= 0x80000000U : a >= 0xFFFF800000000000ULL;
    }

private:
    static std::uint64_t load_pointer(bytes_view b, std::size_t at, std::uint8_t p) noexcept {
        return p == 4 ? etwctl::detail::load<std::uint32_t>(b.data(), at) : etwctl::detail::load<std::uint64_t>(b.data(), at);
    }
    static bool position_less(reference const& a, reference const& b) noexcept {
        return a.buffer_offset != b.buffer_offset ? a.buffer_offset < b.buffer_offset : a.offset < b.offset;
    }
    bool add_reference(event_ref const& e) noexcept {
        auto const p = e.rec.pointer_size();
        auto const payload = e.rec.payload();
        if (payload.size() < 0x10U + p) return true; // StackKey reference: EventTimeStamp, ProcessId, ThreadId, StackKey
        if (refs_used_ == refs_.size()) {
            ++dropped_;
            return false;
        }
        refs_[refs_used_++] = {e.buffer_offset, e.offset, no_definition, load_pointer(payload, 0x10, p), ordinal_, e.rec.hook() == hook_id{0x1825}};
        return true;
    }

    std::span<definition> defs_{};
    std::span<reference> refs_{};
    std::span<std::byte> frames_{};
    std::size_t used_ = 0, refs_used_ = 0, frame_used_ = 0, dropped_ = 0;
    std::uint64_t ordinal_ = 0;
};

// ---- the stack rule (event_stream's, and the live consumer's: trace/consume.hpp) ----------------------

/// The thread whose stack records name an event: the header's thread, or for a SampledProfile (a
/// perfinfo record, no thread in its header) the payload's ThreadId.
inline std::uint32_t stack_thread_of(hook_id hook, std::uint32_t header_thread_id, bytes_view payload, std::uint8_t pointer_size) noexcept {
    if (header_thread_id == no_id && hook == hook_id{0x0F2E} && payload.size() >= std::size_t{pointer_size} + 4U)
        return etwctl::detail::load<std::uint32_t>(payload.data(), pointer_size); // SampledProfile.ThreadId
    return header_thread_id;
}
inline std::uint32_t stack_thread_of(record const& rec) noexcept {
    return stack_thread_of(rec.hook(), rec.thread_id(), rec.payload(), rec.pointer_size());
}
/// Whether a record (hook `h`, payload `payload`) names the stack of the event logged at `ts` on thread
/// `tid` (no_id: any thread): a StackWalk or stack-key record whose EventTimeStamp is `ts` and whose
/// StackThread is `tid`.
inline bool names_stack_of(std::uint64_t ts, std::uint32_t tid, hook_id h, bytes_view payload) noexcept {
    return reader::names_stack_of(h, payload, ts, tid); // the reader's test, the one event_stream applies
}
/// Whether stack records following an event may be its stack: kernel (hook) and classic records, not the
/// stack records themselves, not EVENT_HEADER events (their stacks are extended items).
inline bool takes_stack_records(record const& rec) noexcept {
    return rec.kind() != record_kind::event && (!rec.has_hook() || rec.hook().group() != etwctl::detail::stackwalk_group);
}
/// An EVENT_HEADER event's stack from its extended items (event_stream's rule, and the live consumer's):
/// STACK_TRACE32 / STACK_TRACE64 items (u64 MatchId, then the frames; SDK EVENT_EXTENDED_ITEM_STACK_TRACE32/64)
/// are parts; a STACK_KEY32 / STACK_KEY64 item (unified stack caching) is counted as unresolved.
inline void add_stack_items(record const& rec, stack_view& out) noexcept {
    for (auto const item : rec.extended_items()) {
        if (item.type == ext_type::stack_trace32 || item.type == ext_type::stack_trace64) {
            std::uint8_t const p = item.type == ext_type::stack_trace32 ? 4 : 8;
            if (item.data.size() >= 8) out.add(item.data.subspan(8, (item.data.size() - 8) / p * p), p);
        } else if (item.type == ext_type::stack_key32 || item.type == ext_type::stack_key64) {
            out.add_unresolved();
        }
    }
}
/// A StackWalk payload's frames (after EventTimeStamp, StackProcess, StackThread), whole frames only.
inline bytes_view stack_walk_frames(bytes_view payload, std::uint8_t pointer_size) noexcept {
    if (payload.size() < 0x10 || pointer_size == 0) return {};
    return payload.subspan(0x10, (payload.size() - 0x10) / pointer_size * pointer_size);
}

/// A StackWalk / StackKeyKernel / StackKeyUser record that no event took (reader::is_stack_record): its
/// own frames as its stack, so a stack part that came too late for the rule above still reaches the
/// reader. A user-mode part is logged when the thread returns to user mode, which can be after the
/// look-ahead and on another processor (net.4.5.2.x86.etl: 605 user parts so, 31 of them for samples and
/// most of the others for DiskIO read-init events, three in four on another processor, 0.19 ms later at
/// the median and 286 ms at most); its EventTimeStamp and StackThread name the event it completes.
/// StackWalk: the frames after its 0x10-byte head; a key reference: the caller resolves it (`resolve`
/// returns the cached frames or nothing) or it is counted unresolved. Not a stack record: nothing.
/// (event_stream::attach applies the same two cases in line: one helper for both cost its dispatch 1.7
/// instructions per record, g++ -O3, 16 MiB generated trace; event_stream calls this out of line.)
template <class Resolve>
void add_own_stack(record const& rec, stack_view& out, Resolve&& resolve) noexcept {
    if (!rec.has_hook() || !reader::is_stack_record(rec.hook(), rec.payload())) return;
    auto const payload = rec.payload();
    auto const p = rec.pointer_size();
    if (rec.hook() == stack_walk_hook) {
        out.add(stack_walk_frames(payload, p), p);
        return;
    }
    if (payload.size() < 0x10U + p) return; // a key reference too short for its key (attach's rule)
    if (std::optional<stack_view::part> const found = resolve()) out.add(found->frames, found->pointer_size, true);
    else out.add_unresolved();
}

// ---- an event ------------------------------------------------------------------------------------------

/// One event as a profiler reads it: the record, where it came from, its time, its stack and counters.
/// A view: valid until the stream's next call to next().
class event {
public:
    event() noexcept = default;
    /// An event from its parts: the record as the reader reads it (a live consumer rebuilds it from an
    /// EVENT_RECORD: trace/consume.hpp), the session's clock (or null: time() is then 0) and its stack.
    event(event_ref const& ref, trace::clock const* clock, stack_view const& stack = {}) noexcept : ref_(ref), stack_(stack), clock_(clock) {}

    record const& rec() const noexcept { return ref_.rec; }
    std::uint16_t processor() const noexcept { return ref_.processor; }
    /// The raw timestamp (the session's clock) and the time since the session started.
    std::uint64_t timestamp() const noexcept { return ref_.rec.timestamp(); }
    trace_time time() const noexcept { return clock_ ? clock_->time(ref_.rec.timestamp()) : trace_time{}; }
    /// Thread and process from the header (no_id for perfinfo records: their payload names them).
    std::uint32_t header_thread_id() const noexcept { return ref_.rec.thread_id(); }
    std::uint32_t header_process_id() const noexcept { return ref_.rec.process_id(); }
    stack_view const& stack() const noexcept { return stack_; }
    /// The stack to add parts to (a live consumer attaches stack records as they arrive: trace/consume.hpp).
    stack_view& stack_parts() noexcept { return stack_; }
    pmc_view pmc() const noexcept {
        auto const& r = ref_.rec;
        if (r.kind() == record_kind::perfinfo) return pmc_view(r.bytes().subspan(r.pmc_offset(), 8U * r.pmc_count()));
        extended_item item;
        if (r.find_item(ext_type::pmc_counters, item)) return pmc_view(item.data.first(item.data.size() & ~std::size_t{7}));
        return {};
    }
    /// EVENT_HEADER events' extended data items, typed (SDK evntcons.h EVENT_HEADER_EXT_TYPE_*): each
    /// answers whether the event carries the item. The raw items: rec().extended_items().
    bool related_activity_id(guid& out) const noexcept {
        extended_item item;
        if (!ref_.rec.find_item(ext_type::related_activityid, item) || item.data.size() < 16) return false;
        out = guid{etwctl::detail::load<std::uint32_t>(item.data.data(), 0), etwctl::detail::load<std::uint16_t>(item.data.data(), 4),
                   etwctl::detail::load<std::uint16_t>(item.data.data(), 6), u8(item.data, 8), u8(item.data, 9), u8(item.data, 10),
                   u8(item.data, 11), u8(item.data, 12), u8(item.data, 13), u8(item.data, 14), u8(item.data, 15)};
        return true;
    }
    /// TS_ID: the Terminal Services session of the process that logged the event.
    bool session_id(std::uint32_t& out) const noexcept { return u32_item(ext_type::ts_id, out); }
    /// SID: the user's security identifier as bytes (8 + 4 x SubAuthorityCount).
    bool sid(bytes_view& out) const noexcept {
        extended_item item;
        if (!ref_.rec.find_item(ext_type::sid, item) || item.data.size() < 8) return false;
        std::size_t const n = 8U + 4U * u8(item.data, 1);
        if (n > item.data.size()) return false;
        out = item.data.first(n);
        return true;
    }
    bool event_key(std::uint64_t& out) const noexcept { return u64_item(ext_type::event_key, out); }
    bool process_start_key(std::uint64_t& out) const noexcept { return u64_item(ext_type::process_start_key, out); }
    bool pebs_index(std::uint64_t& out) const noexcept {
        if (ref_.rec.kind() == record_kind::perfinfo) {
            if (!ref_.rec.has_pebs()) return false;
            out = ref_.rec.pebs_index();
            return true;
        }
        return u64_item(ext_type::pebs_index, out);
    }
    /// The kernel name of a hook record ("SampledProfile", "CSwitch"), or "" (provider events, unnamed hooks).
    std::string_view kernel_name() const noexcept { return ref_.rec.has_hook() ? kernel_record_name(ref_.rec.hook()) : std::string_view{}; }
    event_ref const& ref() const noexcept { return ref_; }

private:
    friend class event_stream;
    friend class record_stream;
    friend class event_record_stream; // builds its held events in place (trace/consume.hpp)
    static std::uint8_t u8(bytes_view b, std::size_t i) noexcept { return std::to_integer<std::uint8_t>(b[i]); }
    bool u32_item(std::uint16_t type, std::uint32_t& out) const noexcept {
        extended_item item;
        if (!ref_.rec.find_item(type, item) || item.data.size() < 4) return false;
        out = etwctl::detail::load<std::uint32_t>(item.data.data(), 0);
        return true;
    }
    bool u64_item(std::uint16_t type, std::uint64_t& out) const noexcept {
        extended_item item;
        if (!ref_.rec.find_item(type, item) || item.data.size() < 8) return false;
        out = etwctl::detail::load<std::uint64_t>(item.data.data(), 0);
        return true;
    }
    event_ref ref_{};
    stack_view stack_{};
    trace::clock const* clock_ = nullptr;
};

/// The events of a reader, each with its stack attached: what on<"...">, the tool and the stack
/// folding read. A pull API: while (stream.next(e)) ...
class event_stream {
public:
    explicit event_stream(reader& r, stack_cache const* cache = nullptr) noexcept : reader_(&r), cache_(cache) {}

    bool next(event& out) noexcept {
        if (!reader_->next(out.ref_)) return false;
        out.clock_ = &reader_->file().clock();
        out.stack_.clear();
        auto const& r = out.ref_.rec;
        if (r.kind() == record_kind::event) attach_items(out);
        else if (takes_stack_records(r)) attach(out);
        else if (reader::is_stack_hook(r.hook())) own_stack(out); // a stack record no event took (rare: out of line)
        return true;
    }
    reader& source() noexcept { return *reader_; }

private:
    /// An EVENT_HEADER event's stack: its STACK_TRACE32 / STACK_TRACE64 items (u64 MatchId, then the
    /// frames; SDK EVENT_EXTENDED_ITEM_STACK_TRACE32/64). A STACK_KEY32 / STACK_KEY64 item (unified stack
    /// caching) names a cached stack whose definitions no public source ties to these keys: it is counted
    /// as unresolved, never guessed.
    static void attach_items(event& e) noexcept { add_stack_items(e.ref_.rec, e.stack_); }
    /// A stack record delivered as an event (no event took it): its own frames, a key resolved here.
    ETWCTL_COLD void own_stack(event& e) noexcept {
        add_own_stack(e.ref_.rec, e.stack_, [&]() noexcept -> std::optional<stack_view::part> {
            if (!cache_) return std::nullopt;
            return cache_->find(e.ref_.buffer_offset, e.ref_.offset, cache_hints_[e.ref_.stream % cache_hint_slots]);
        });
    }

    /// Takes the StackWalk records and key references that follow `e` on its processor and name its
    /// timestamp and thread (at most stack_view::max_parts, within reader::max_look_ahead records: a
    /// stack-cache eviction or another event may come between an event and its stack, or between its
    /// kernel and its user part). The reader finds them in its per-buffer stack index
    /// (reader::visit_stack_records): no record of the window is decoded unless it names the event.
    void attach(event& e) noexcept {
        auto const& rec = e.ref_.rec;
        auto const ts = rec.timestamp();
        std::uint32_t const tid = stack_thread_of(rec);
        std::size_t parts = 0;
        bool took_head = false;
        // the records taken after the head, taken once the window was read (taking one changes the window)
        std::size_t pending = 0;
        std::size_t pending_entry[stack_view::max_parts];
        std::uint32_t pending_offset[stack_view::max_parts], pending_ordinal[stack_view::max_parts];
        reader_->visit_stack_records(e.ref_.stream, ts, tid, [&](reader::stack_candidate const& c) noexcept {
            // the head (any record) or a record the reader found naming the event
            if (!c.has_hook || !reader::names_stack_of(c.hook, c.payload, ts, tid)) return true;
            auto const p = c.pointer_size;
            if (c.hook == stack_walk_hook) {
                e.stack_.add(c.payload.subspan(0x10, (c.payload.size() - 0x10) / p * p), p);
            } else {
                if (c.payload.size() < 0x10U + p) return true;
                std::optional<stack_view::part> found;
                if (cache_) found = cache_->find(c.buffer_offset, c.offset, cache_hints_[e.ref_.stream % cache_hint_slots]);
                if (found) e.stack_.add(found->frames, found->pointer_size, true);
                else e.stack_.add_unresolved();
            }
            ++parts;
            if (c.head) took_head = true;
            else pending_entry[pending] = c.entry, pending_offset[pending] = c.offset, pending_ordinal[pending] = c.ordinal, ++pending;
            return parts < stack_view::max_parts;
        });
        // records after the head are marked first: taking the head moves the stream (and its buffer)
        for (std::size_t i = 0; i < pending; ++i) reader_->take(e.ref_.stream, pending_entry[i], pending_offset[i], pending_ordinal[i], false);
        if (took_head) reader_->take(e.ref_.stream, 0, 0, 0, true);
    }

    static constexpr std::size_t cache_hint_slots = 16; // streams sharing a slot only search further
    reader* reader_;
    stack_cache const* cache_;
    std::size_t cache_hints_[cache_hint_slots] = {};
};

/// The records of a reader as events, each as it is, in timestamp order: no stack record is attached to
/// another event. A StackWalk record is an event of its own (on<"StackWalk">), its frames its stack; a
/// stack-key reference too, its stack one unresolved key (stack_cache::find(e.ref()) resolves it); an
/// EVENT_HEADER event's stack items are its stack. For a consumer that pairs stacks itself, or needs none:
/// it costs the walk and little more (docs/performance.md). event_stream gives each event the stack
/// records that name it.
class record_stream {
public:
    explicit record_stream(reader& r) noexcept : reader_(&r) {}

    bool next(event& out) noexcept {
        if (!reader_->next(out.ref_)) return false;
        out.clock_ = &reader_->file().clock();
        out.stack_.clear();
        auto const& r = out.ref_.rec;
        if (r.kind() == record_kind::event) add_stack_items(r, out.stack_);
        else if (reader::is_stack_hook(r.hook())) add_own_stack(r, out.stack_, []() noexcept { return std::optional<stack_view::part>{}; });
        return true;
    }
    reader& source() noexcept { return *reader_; }

private:
    reader* reader_;
};

// ---- typed events and handlers -------------------------------------------------------------------------

/// A kernel event whose payload has a typed view: the view's accessors (the MOF class's properties),
/// and the event's processor, time, stack and counters.
template <class View>
class kernel_event : public View {
public:
    kernel_event(View v, trace::event const& e) noexcept : View(v), e_(&e) {}
    std::uint16_t processor() const noexcept { return e_->processor(); }
    std::uint64_t timestamp() const noexcept { return e_->timestamp(); }
    trace_time time() const noexcept { return e_->time(); }
    stack_view const& stack() const noexcept { return e_->stack(); }
    pmc_view pmc() const noexcept { return e_->pmc(); }
    record const& rec() const noexcept { return e_->rec(); }
    trace::event const& event() const noexcept { return *e_; }

private:
    trace::event const* e_;
};

/// A record a typed handler could not take, with the reason: an unknown version, a payload shorter than
/// the layout, a pointer size no layout has. Never misread: its bytes are there to look at.
class raw_event {
public:
    raw_event(trace::event const& e, layout_fault why) noexcept : e_(&e), why_(why) {}
    layout_fault reason() const noexcept { return why_; }
    trace::event const& event() const noexcept { return *e_; }
    record const& rec() const noexcept { return e_->rec(); }
    bytes_view payload() const noexcept { return e_->rec().payload(); }

private:
    trace::event const* e_;
    layout_fault why_;
};

// The profiler's events, by their MOF class names.
using event_trace_header = kernel_event<layout::logfile_header>;
using header_extension = kernel_event<layout::header_extension>;
using rundown_complete = kernel_event<layout::rundown_complete>;
using sampled_profile = kernel_event<layout::sampled_profile>;
using pmc_counter_profile = kernel_event<layout::pmc_counter_profile>;
using pmc_counter_config = kernel_event<layout::pmc_counter_config>;
using sampled_profile_interval = kernel_event<layout::sampled_profile_interval>;
using thread_event = kernel_event<layout::thread_event>;
using cswitch = kernel_event<layout::cswitch>;
using ready_thread = kernel_event<layout::ready_thread>;
using process_event = kernel_event<layout::process_event>;
using image_event = kernel_event<layout::image_event>;
using stack_walk_event = kernel_event<layout::stack_walk_event>;
using stack_key_reference = kernel_event<layout::stack_key_reference>;
using stack_key_definition = kernel_event<layout::stack_key_definition>;

namespace diagnostic {
template <class Name, class Suggestion>
struct unknown_trace_event_name {
    static_assert(etwctl::diagnostic::always_false<Name, Suggestion>,
                  "etwctl::trace::on: unknown event name; the name<...> above is the unknown one, did_you_mean<...> "
                  "the nearest known name (all names: docs/reference.md and names/events.hpp's kernel_record_table)");
    static constexpr bool value = true;
};
} // namespace diagnostic

namespace detail {
template <fixed_string S>
struct trace_name {
    static constexpr auto hook = kernel_record_hook(S.view());
    static constexpr std::string_view suggestion = [] {
        if (hook) return std::string_view{};
        return etwctl::detail::nearest_name{S.view()}.in(kernel_event_table<>).in(kernel_record_table<>).result();
    }();
    using check = std::conditional_t<hook.has_value(), etwctl::detail::no_diagnosis,
                                     diagnostic::unknown_trace_event_name<etwctl::detail::token_t<S, 0, S.size()>,
                                                                          typename etwctl::detail::suggestion_type<etwctl::detail::to_fixed<suggestion.size()>(suggestion)>::type>>;
    static_assert(check::value);
    static constexpr hook_id value = hook.value_or(hook_id{});
};

template <std::uint16_t Hook>
using view_of_t = typename layout::view_for_hook<Hook>::type;

struct on_tag {};
} // namespace detail

/// A handler for the kernel events of one name: f(trace::sampled_profile const&) for a name with a typed
/// view, f(trace::raw_event const&) for a name without one.
template <std::uint16_t Hook, class F>
struct on_handler : detail::on_tag {
    static constexpr hook_id hook{Hook};
    using view = detail::view_of_t<Hook>;
    F f;
};
/// The handler of the records whose payload fits no layout (f(raw_event const&)).
template <class F>
struct on_raw_handler : detail::on_tag {
    F f;
};
/// The handler of every event (f(event const&)), called before the typed ones.
template <class F>
struct on_any_handler : detail::on_tag {
    F f;
};

template <fixed_string Name, class F>
constexpr auto on(F f) {
    return on_handler<detail::trace_name<Name>::value.value, F>{{}, std::move(f)};
}
template <class F>
constexpr auto on_raw(F f) {
    return on_raw_handler<F>{{}, std::move(f)};
}
template <class F>
constexpr auto on_any(F f) {
    return on_any_handler<F>{{}, std::move(f)};
}

/// What a dispatch did.
struct dispatch_report {
    std::uint64_t events = 0;  ///< events read (stack records attached to an event not counted apart)
    std::uint64_t typed = 0;   ///< delivered to a typed handler
    std::uint64_t raw = 0;     ///< refused by a layout (delivered to on_raw, if given)
};

namespace detail {
template <class H>
inline constexpr bool is_on = false;
template <std::uint16_t Hook, class F>
inline constexpr bool is_on<on_handler<Hook, F>> = true;
template <class H>
inline constexpr bool is_raw = false;
template <class F>
inline constexpr bool is_raw<on_raw_handler<F>> = true;
template <class H>
inline constexpr bool is_any = false;
template <class F>
inline constexpr bool is_any<on_any_handler<F>> = true;

template <class H>
bool deliver(H& h, trace::event const& e, dispatch_report& rep, bool& refused, layout_fault& why) {
    if constexpr (is_on<H>) {
        if (e.rec().hook() != H::hook) return false;
        using V = typename H::view;
        if constexpr (std::is_void_v<V>) {
            h.f(raw_event(e, layout_fault::none));
            ++rep.typed;
        } else {
            payload_ref const p{e.rec().payload(), static_cast<std::uint8_t>(e.rec().version()), e.rec().pointer_size()};
            auto const fault = V::check(p);
            if (fault != layout_fault::none) {
                refused = true, why = fault;
                return true;
            }
            h.f(kernel_event<V>(V(p), e));
            ++rep.typed;
        }
        return true;
    } else if constexpr (is_any<H>) {
        h.f(e);
        return false;
    } else {
        return false;
    }
}
} // namespace detail

/// Reads every event of `stream` and hands each to the handlers its name selects. No heap. The stream is
/// an event_stream (each event with the stack records that name it) or a record_stream (each record as it
/// is: a StackWalk record goes to on<"StackWalk">).
template <class Stream, class... H>
    requires(std::is_same_v<Stream, event_stream> || std::is_same_v<Stream, record_stream>)
dispatch_report dispatch(Stream& stream, H... handlers) {
    static_assert(sizeof...(H) > 0, "etwctl::trace::dispatch: give at least one handler (on<\"Name\">, on_raw, on_any)");
    static_assert((std::is_base_of_v<detail::on_tag, H> && ...),
                  "etwctl::trace::dispatch: a handler is made by on<\"Name\">(f), on_raw(f) or on_any(f)");
    dispatch_report rep;
    event e;
    while (stream.next(e)) {
        ++rep.events;
        bool refused = false;
        layout_fault why = layout_fault::none;
        (detail::deliver(handlers, e, rep, refused, why), ...);
        if (refused) {
            ++rep.raw;
            raw_event const r(e, why);
            (
                [&](auto& h) {
                    if constexpr (detail::is_raw<std::remove_cvref_t<decltype(h)>>) h.f(r);
                }(handlers),
                ...);
        }
    }
    return rep;
}

} // namespace trace
ETWCTL_END_NAMESPACE
