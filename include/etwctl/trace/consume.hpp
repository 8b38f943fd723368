// SPDX-License-Identifier: MIT
// etwctl/trace/consume.hpp - consuming a running session: trace::consume(k, name, storage, control,
// handlers...) opens the real-time session (OpenTraceW: PROCESS_TRACE_MODE_REAL_TIME | EVENT_RECORD |
// RAW_TIMESTAMP), runs ProcessTrace on the caller's thread and delivers the same typed events, through the
// same on<"Name"> handlers, as reading a file; consume_control::stop (CloseTrace) from another thread or
// from a handler ends it; it returns a report (events delivered, buffers and events lost, time span, why
// it ended).
//
//     trace::consume_control control;          // control.stop(k) from another thread ends it
//     auto report = trace::consume(k, u"NT Kernel Logger", storage, control,
//         trace::on<"SampledProfile">([&](trace::sampled_profile const& e) noexcept { count(e.instruction_pointer()); }));
//
// Two kernel lines, one set of events. A buffer_consumer_kernel (kernel/consumer_concept.hpp: the
// simulated machine; Windows 11's buffer callback is the native equivalent, not used yet) hands over the
// session's buffers: consume collects them (the header buffer first) into the caller's storage and reads
// each batch with the trace reader (trace/reader.hpp, trace/events.hpp), the code that reads a file, in
// time order across processors, stacks attached. An event_record_consumer_kernel (native_kernel: the
// EventRecordCallback of OpenTraceW / ProcessTrace) hands over EVENT_RECORDs: an event_record_stream
// rebuilds each as the record the reader would have read (rebuild_record, below) and attaches the
// StackWalk records that follow an event to it by event_stream's rule (names_stack_of), so handlers get
// the same trace::event either way. consume_file opens an .etl file through OpenTraceW the same way (the
// portable reader reads one without Windows). Handlers run inside the OS callback, so they must be
// noexcept (checked at compile time): nothing can throw through ProcessTrace. No heap: the caller's
// storage holds the batch and the reader's index, or consume's own state and the held EVENT_RECORD
// events (nothing large on the caller's stack: a consumer thread may have a small one).
//
// Loss (Microsoft Learn, "ProcessTrace", "TRACE_LOGFILE_HEADER"; the reader's rule for SequenceNumber):
// a buffer's SequenceNumber is unique and increasing in a session's stream, so a number skipped between
// delivered buffers is a buffer lost on the way to the consumer; a header buffer delivered again (the
// session's final header) gives the session's EventsLost and BuffersLost.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/consumer_concept.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/trace/events.hpp"
#include "etwctl/trace/format.hpp"
#include "etwctl/trace/reader.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

// ---- EVENT_RECORDs: what ProcessTrace hands a consumer, as the reader's records ------------------------
//
// ProcessTrace presents every record of a buffer as an EVENT_RECORD (Microsoft Learn, "EVENT_RECORD",
// "EVENT_HEADER"; Geoff Chappell, "EVENT_HEADER" and the hook-id page): a kernel record (SYSTEM / PERFINFO
// header) gets ProviderId = its group's GUID (names/groups.hpp), Opcode = the hook's type, Version = the
// header's version, EVENT_HEADER_FLAG_CLASSIC_HEADER, UserData = the MOF payload, and PERFINFO's PMC / PEBS
// values as PMC_COUNTERS / PEBS_INDEX items; a perfinfo record has no thread or process (both 0xFFFFFFFF);
// the kernel's image load (hook 0x030A) is shown as {ImageLoadGuid, 10} (names/events.hpp explains why);
// a classic provider's EVENT_TRACE_HEADER record keeps its class GUID, type, level and version (an
// EVENT_INSTANCE_GUID_HEADER's instance ids come as an INSTANCE_INFO item); an EVENT_HEADER record keeps
// its header, and its items become EVENT_HEADER_EXTENDED_DATA_ITEMs. (This mapping is the SDK's and
// Chappell's; that PERFINFO records arrive with both ids 0xFFFFFFFF is inferred from TraceEvent's output.)
//
// event_record_of builds that EVENT_RECORD from a record (a kernel double's ProcessTrace, the tests, the
// benchmark); rebuild_record is its inverse: the record in a buffer's format, in the caller's bytes, as
// the reader's own record_reader reads it (a test compares the two on every record of the real and
// generated traces), so a live event is the same trace::event a file gives.

/// EVENT_HEADER.Flags (evntcons.h EVENT_HEADER_FLAG_*).
namespace event_header_flag {
inline constexpr std::uint16_t extended_info = 0x0001;
inline constexpr std::uint16_t trace_message = 0x0008;
inline constexpr std::uint16_t header_32_bit = 0x0020;
inline constexpr std::uint16_t header_64_bit = 0x0040;
inline constexpr std::uint16_t classic_header = 0x0100;
inline constexpr std::uint16_t processor_index = 0x0200;
/// The flags ProcessTrace sets itself (not stored in a buffer's EVENT_HEADER).
inline constexpr std::uint16_t consumer_only = header_32_bit | header_64_bit | classic_header | processor_index;
} // namespace event_header_flag

/// Lost_Event {6a399ae0-4bc6-4de9-870b-3657f8947e7e} (Microsoft Learn, "Lost_Event"): a real-time
/// session's loss notices, types 32 RTLostEvent, 33 RTLostBuffer, 34 RTLostFile.
inline constexpr guid lost_event_guid{0x6a399ae0, 0x4bc6, 0x4de9, 0x87, 0x0b, 0x36, 0x57, 0xf8, 0x94, 0x7e, 0x7e};

namespace detail {
/// classic_hook_of as a flag and an out value (no std::optional: g++ 12 -O3 warns, falsely, that an
/// optional's value may be read uninitialized once the live consumer's push is inlined).
inline bool classic_hook(guid const& provider, std::uint8_t opcode, hook_id& out) noexcept {
    auto const w = etwctl::detail::words_of(provider);
    auto const& slot = etwctl::detail::hook_slot_of(w);
    if (!slot.holds(w)) return false;
    out = slot.group == etwctl::detail::image_group && opcode == 10 ? hook_id{0x030A} // the kernel's image load
                                                                    : hook_id(static_cast<std::uint16_t>(slot.hook_high | opcode));
    return true;
}
} // namespace detail

/// The hook a classic kernel EVENT_RECORD (ProviderId, Opcode) has in a buffer, which names the event for
/// on<"Name"> as for a file; nullopt for a GUID that is no kernel group's.
inline std::optional<hook_id> classic_hook_of(guid const& provider, std::uint8_t opcode) noexcept {
    hook_id h{};
    if (!detail::classic_hook(provider, opcode, h)) return std::nullopt;
    return h;
}

/// An EVENT_RECORD and the items it points at, as ProcessTrace would present one record.
struct event_record_parts {
    static constexpr std::size_t max_items = 16;
    event_record_layout record{};
    event_header_extended_data_item_layout items[max_items]{};
};

/// Fills `out` with the EVENT_RECORD ProcessTrace presents for `e` (pointing into e's bytes: valid while
/// they are). False for a record no EVENT_RECORD stands for here (a WPP message record) or with more
/// items than max_items.
inline bool event_record_of(event_ref const& e, event_record_parts& out) noexcept {
    auto const& r = e.rec;
    auto& er = out.record;
    auto& h = er.event_header;
    er = event_record_layout{};
    auto const width = r.pointer_size() == 4 ? event_header_flag::header_32_bit : event_header_flag::header_64_bit;
    h.size = 0x50;
    h.flags = static_cast<std::uint16_t>(width | event_header_flag::processor_index);
    h.thread_id = r.thread_id();
    h.process_id = r.process_id();
    h.time_stamp = static_cast<std::int64_t>(r.timestamp());
    h.kernel_time = r.kernel_time();
    h.user_time = r.user_time();
    er.buffer_context.processor_index = e.processor;
    auto const payload = r.payload();
    er.user_data = const_cast<std::byte*>(payload.data()); // EVENT_RECORD.UserData is a PVOID; never written through
    er.user_data_length = static_cast<std::uint16_t>(payload.size());
    std::uint16_t n = 0;
    auto const add = [&](std::uint16_t type, bytes_view data) noexcept {
        if (n == event_record_parts::max_items) return false;
        out.items[n] = {static_cast<std::uint16_t>(8U + data.size()), type, 0, static_cast<std::uint16_t>(data.size()),
                        std::uint64_t{reinterpret_cast<std::uintptr_t>(data.data())}};
        if (n != 0) out.items[n - 1].linkage = 1;
        ++n;
        return true;
    };
    switch (r.kind()) {
    case record_kind::system: case record_kind::compact: case record_kind::perfinfo: {
        auto const hook = r.hook();
        auto const group = hook == hook_id{0x030A} ? std::uint8_t{etwctl::detail::image_group} : hook.group();
        auto const* g = kernel_group_by_id(group);
        h.provider_id = g ? g->event_guid : guid{};
        h.event_descriptor.opcode = hook.type();
        h.event_descriptor.version = static_cast<std::uint8_t>(r.version());
        h.flags = static_cast<std::uint16_t>(h.flags | event_header_flag::classic_header);
        if (r.kind() == record_kind::perfinfo) {
            if (r.has_pebs() && !add(ext_type::pebs_index, r.bytes().subspan(0x10, 8))) return false;
            if (r.pmc_count() != 0 && !add(ext_type::pmc_counters, r.bytes().subspan(r.pmc_offset(), 8U * r.pmc_count()))) return false;
        }
        break;
    }
    case record_kind::full: case record_kind::instance:
        h.provider_id = r.event_guid();
        h.event_descriptor.opcode = r.opcode();
        h.event_descriptor.level = r.level();
        h.event_descriptor.version = static_cast<std::uint8_t>(r.version());
        h.flags = static_cast<std::uint16_t>(h.flags | event_header_flag::classic_header);
        if (r.kind() == record_kind::instance && !add(ext_type::instance_info, r.bytes().subspan(0x30, 0x18))) return false;
        break;
    case record_kind::event: {
        h.provider_id = r.provider_id();
        h.event_descriptor = r.descriptor();
        h.flags = static_cast<std::uint16_t>((r.event_flags() & ~event_header_flag::consumer_only & ~event_header_flag::extended_info) | h.flags);
        h.event_property = r.event_property();
        h.activity_id = r.activity_id();
        for (auto const item : r.extended_items())
            if (!add(item.type, item.data)) return false;
        break;
    }
    case record_kind::message: return false;
    }
    if (n != 0) {
        h.flags = static_cast<std::uint16_t>(h.flags | event_header_flag::extended_info);
        er.extended_data = out.items;
        er.extended_data_count = n;
    }
    return true;
}

namespace detail {

/// The EVENT_RECORD's extended item `i`, its data as bytes.
inline bytes_view er_item_data(event_record_layout const& er, std::size_t i) noexcept {
    auto const& it = er.extended_data[i];
    return {reinterpret_cast<std::byte const*>(static_cast<std::uintptr_t>(it.data_ptr)), it.data_size};
}
inline void er_put16(std::byte* p, std::size_t o, std::uint16_t v) noexcept { std::memcpy(p + o, &v, 2); }
inline void er_put32(std::byte* p, std::size_t o, std::uint32_t v) noexcept { std::memcpy(p + o, &v, 4); }
inline void er_put64(std::byte* p, std::size_t o, std::uint64_t v) noexcept { std::memcpy(p + o, &v, 8); }
inline void er_put_guid(std::byte* p, std::size_t o, guid const& g) noexcept {
    detail::er_put32(p, o, g.data1);
    detail::er_put16(p, o + 4, g.data2);
    detail::er_put16(p, o + 6, g.data3);
    for (std::size_t i = 0; i < 8; ++i) p[o + 8 + i] = std::byte{g.data4[i]};
}

} // namespace detail

namespace detail {

/// Copies n bytes, W <= n <= 2W, as two overlapping loads and stores of W bytes.
template <std::size_t W>
ETWCTL_INLINE_ALWAYS void copy_two(std::byte* to, std::byte const* from, std::size_t n) noexcept {
    unsigned char a[W], b[W];
    std::memcpy(a, from, W);
    std::memcpy(b, from + n - W, W);
    std::memcpy(to, a, W);
    std::memcpy(to + n - W, b, W);
}
/// Copies n <= 32 bytes as two overlapping loads and stores of the largest width that fits (nothing read
/// or written outside the n bytes), in the caller's code: a kernel event's payload is mostly 8 to 48 bytes.
ETWCTL_INLINE_ALWAYS void copy_short(std::byte* to, std::byte const* from, std::size_t n) noexcept {
    if (n >= 16) return copy_two<16>(to, from, n);
    if (n >= 8) return copy_two<8>(to, from, n);
    if (n >= 4) return copy_two<4>(to, from, n);
    for (; n != 0; --n) *to++ = *from++;
}

/// Copies n bytes: up to 32 as copy_short does, more with memcpy.
inline void copy_bytes(std::byte* to, std::byte const* from, std::size_t n) noexcept {
    if (n > 32) return (void)std::memcpy(to, from, n);
    copy_short(to, from, n);
}

/// Whether an EVENT_RECORD stands for a buffer record: not a WPP message, and its items, their data and
/// its payload there where their sizes say (a null pointer with a size is never read).
inline bool rebuildable(event_record_layout const& er) noexcept {
    if ((er.event_header.flags & event_header_flag::trace_message) != 0 || (er.extended_data_count != 0 && er.extended_data == nullptr) ||
        (er.user_data_length != 0 && er.user_data == nullptr))
        return false;
    for (std::size_t i = 0; i < er.extended_data_count; ++i)
        if (er.extended_data[i].data_size != 0 && er.extended_data[i].data_ptr == 0) return false;
    return true;
}

/// The record_bits of a rebuilt hook record's header type, without hook, version and PMC / PEBS byte:
/// [perfinfo][32-bit] (record_types, the table record_reader::read takes them from).
inline constexpr std::uint64_t hook_type_bits[2][2] = {
    {record_types.at[header_type::system64].bits, record_types.at[header_type::system32].bits},
    {record_types.at[header_type::perfinfo64].bits, record_types.at[header_type::perfinfo32].bits}};

/// A PERFINFO_TRACE_HEADER record without a PEBS index written from its values at p (room for 0x10 +
/// 8 * pmc_count + payload_size bytes): the header (its type by pointer size, the PMC count, the size, the
/// hook), the timestamp, the PMC values, the payload; `rec` set to what record_reader::read decodes from
/// them. Returns the size. Always inline: a sample's (no PMC values: the count a constant 0) stays a few
/// stores in its caller.
ETWCTL_INLINE_ALWAYS std::size_t put_perfinfo_record(std::byte* p, unsigned p4, std::uint64_t version, hook_id hook, std::uint64_t ts,
                                                     std::byte const* pmc, std::size_t pmc_count, std::byte const* payload,
                                                     std::size_t payload_size, record& rec) noexcept {
    // the header's type and marker bytes, by pointer size
    static constexpr std::uint64_t header_word[2] = {std::uint64_t{header_type::perfinfo64} << 16 | std::uint64_t{0xC0} << 24,
                                                     std::uint64_t{header_type::perfinfo32} << 16 | std::uint64_t{0xC0} << 24};
    std::size_t const fixed = 0x10U + 8U * pmc_count;
    std::size_t const size = fixed + payload_size;
    er_put64(p, 0, header_word[p4] | version | (std::uint64_t{pmc_count} << 8) | (std::uint64_t{size} << 32) | (std::uint64_t{hook.value} << 48));
    er_put64(p, 8, ts);
    if (pmc_count != 0) copy_bytes(p + 0x10, pmc, 8 * pmc_count);
    if (payload_size <= 32) copy_short(p + fixed, payload, payload_size);
    else copy_bytes(p + fixed, payload, payload_size);
    record_access::set(rec, bytes_view(p, size), hook_type_bits[1][p4] | hook.value | (version << 16) | (std::uint64_t{pmc_count} << 56), ts,
                       static_cast<std::uint32_t>(fixed), no_id, no_id);
    return size;
}

/// rebuild_hook_record's general case: SYSTEM_TRACE_HEADER, or PERFINFO_TRACE_HEADER with its PEBS
/// index and PMC values (out holds 0x50 + the payload: push's bound). A perfinfo record with one
/// PMC_COUNTERS item (the counters on a context switch or a sample) first, on a path of its own.
inline std::size_t rebuild_hook_record_general(event_record_layout const& er, hook_id hook, std::span<std::byte> out, record& rec) noexcept {
    auto const& h = er.event_header;
    if (!rebuildable(er)) return 0;
    bool const p4 = (h.flags & event_header_flag::header_32_bit) != 0;
    auto const* const payload = static_cast<std::byte const*>(er.user_data);
    std::size_t const payload_size = er.user_data_length;
    auto const ts = static_cast<std::uint64_t>(h.time_stamp);
    std::byte* const p = out.data();
    bool const perfinfo = h.thread_id == no_id && h.process_id == no_id;
    std::uint64_t const version = h.event_descriptor.version;
    if (perfinfo && er.extended_data_count == 1 && er.extended_data[0].ext_type == ext_type::pmc_counters) {
        auto const& item = er.extended_data[0];
        std::size_t const count = (std::min)(std::size_t{item.data_size} / 8, std::size_t{7}); // the header's 3 count bits
        std::size_t const size = 0x10U + 8U * count + payload_size;
        if (size > 0xFFFF || size > out.size()) return 0;
        return put_perfinfo_record(p, p4 ? 1U : 0U, version, hook, ts, er_item_data(er, 0).data(), count, payload, payload_size, rec);
    }
    std::byte const* pebs = nullptr;
    bytes_view pmc{};
    for (std::size_t i = 0; i < er.extended_data_count; ++i) {
        if (er.extended_data[i].ext_type == ext_type::pebs_index) {
            if (er.extended_data[i].data_size >= 8) pebs = er_item_data(er, i).data();
        } else if (er.extended_data[i].ext_type == ext_type::pmc_counters) {
            pmc = er_item_data(er, i);
        }
    }
    // a system record has its fixed 0x20 bytes; a perfinfo record 0x10, the PEBS index and the PMC values
    std::size_t const pmc_count = perfinfo ? (std::min)(pmc.size() / 8, std::size_t{7}) : 0;
    bool const has_pebs = perfinfo && pebs != nullptr;
    std::size_t const fixed = perfinfo ? 0x10U + (has_pebs ? 8U : 0U) + 8U * pmc_count : 0x20U;
    std::size_t const size = fixed + payload_size;
    if (size > 0xFFFF || size > out.size()) return 0;
    // the first 8 bytes: version, PMC count / PEBS flag, header type, 0xC0, size, hook
    std::uint64_t const extension = pmc_count | (has_pebs ? 0x80U : 0U);
    std::uint8_t const type = perfinfo ? (p4 ? header_type::perfinfo32 : header_type::perfinfo64) : (p4 ? header_type::system32 : header_type::system64);
    er_put64(p, 0, version | (extension << 8) | (std::uint64_t{type} << 16) | (std::uint64_t{0xC0} << 24) | (std::uint64_t{size} << 32) |
                       (std::uint64_t{hook.value} << 48));
    if (perfinfo) {
        er_put64(p, 8, ts);
        std::size_t at = 0x10;
        if (has_pebs) std::memcpy(p + at, pebs, 8), at += 8;
        if (pmc_count != 0) copy_bytes(p + at, pmc.data(), 8 * pmc_count);
    } else {
        er_put32(p, 8, h.thread_id);
        er_put32(p, 0x0C, h.process_id);
        er_put64(p, 0x10, ts);
        er_put32(p, 0x18, h.kernel_time);
        er_put32(p, 0x1C, h.user_time);
    }
    copy_bytes(p + fixed, payload, payload_size);
    record_access::set(rec, bytes_view(p, size), hook_type_bits[perfinfo][p4] | hook.value | (version << 16) | (extension << 56), ts,
                       static_cast<std::uint32_t>(fixed), h.thread_id, h.process_id);
    return size;
}

/// rebuild_record for a classic kernel record (its hook known): SYSTEM_TRACE_HEADER, or
/// PERFINFO_TRACE_HEADER for a record without thread and process. The record is set from the values
/// written (what record_reader::read decodes from them), not read back. `out` holds 0x50 + the payload.
/// A perfinfo record without items (a sample) on a path of its own, the rest out of line.
ETWCTL_INLINE_ALWAYS std::size_t rebuild_hook_record(event_record_layout const& er, hook_id hook, std::span<std::byte> out, record& rec) noexcept {
    auto const& h = er.event_header;
    std::size_t const payload_size = er.user_data_length;
    if ((h.thread_id & h.process_id) != no_id || er.extended_data_count != 0 || (h.flags & event_header_flag::trace_message) != 0 ||
        (payload_size != 0 && er.user_data == nullptr) || payload_size > 0xFFFFU - 0x10U)
        return rebuild_hook_record_general(er, hook, out, rec);
    unsigned const p4 = (h.flags & event_header_flag::header_32_bit) != 0 ? 1U : 0U;
    return put_perfinfo_record(out.data(), p4, h.event_descriptor.version, hook, static_cast<std::uint64_t>(h.time_stamp), nullptr, 0,
                               static_cast<std::byte const*>(er.user_data), payload_size, rec);
}

} // namespace detail

/// Writes the record `er` stands for into `out` in a buffer's format (the inverse of event_record_of)
/// and fills `rec` as the reader's record_reader reads it (a kernel record from the values written, any
/// other read back with record_reader). Returns the bytes used, or 0 when it cannot:
/// a WPP message, a record larger than a buffer's record size field (u16) or than `out`, an extended item
/// without data. A classic record of a GUID that is no kernel group is rebuilt as EVENT_TRACE_HEADER.
inline std::size_t rebuild_record(event_record_layout const& er, std::span<std::byte> out, record& rec) noexcept {
    auto const& h = er.event_header;
    bool const p4 = (h.flags & event_header_flag::header_32_bit) != 0;
    if (!detail::rebuildable(er)) return 0;
    bytes_view const payload(static_cast<std::byte const*>(er.user_data), er.user_data_length);
    auto const ts = static_cast<std::uint64_t>(h.time_stamp);
    std::byte* const p = out.data();
    std::size_t fixed = 0;
    std::optional<hook_id> hook;
    bool const classic = (h.flags & event_header_flag::classic_header) != 0;
    if (classic) hook = classic_hook_of(h.provider_id, h.event_descriptor.opcode);
    if (hook) return detail::rebuild_hook_record(er, *hook, out, rec);
    if (classic) {
        // EVENT_TRACE_HEADER (EVENT_INSTANCE_GUID_HEADER when an INSTANCE_INFO item gives the instance)
        bytes_view instance{};
        for (std::size_t i = 0; i < er.extended_data_count; ++i)
            if (er.extended_data[i].ext_type == ext_type::instance_info && er.extended_data[i].data_size >= 0x18) instance = detail::er_item_data(er, i).first(0x18);
        fixed = instance.empty() ? 0x30U : 0x48U;
        if (fixed + payload.size() > 0xFFFF || fixed + payload.size() > out.size()) return 0;
        std::memset(p, 0, fixed);
        detail::er_put16(p, 0, static_cast<std::uint16_t>(fixed + payload.size()));
        p[2] = std::byte{instance.empty() ? (p4 ? header_type::full_header32 : header_type::full_header64)
                                          : (p4 ? header_type::instance32 : header_type::instance64)};
        p[3] = std::byte{0xC0};
        p[4] = std::byte{h.event_descriptor.opcode};
        p[5] = std::byte{h.event_descriptor.level};
        detail::er_put16(p, 6, h.event_descriptor.version);
        detail::er_put32(p, 8, h.thread_id);
        detail::er_put32(p, 0x0C, h.process_id);
        detail::er_put64(p, 0x10, ts);
        detail::er_put_guid(p, 0x18, h.provider_id);
        detail::er_put32(p, 0x28, h.kernel_time);
        detail::er_put32(p, 0x2C, h.user_time);
        if (!instance.empty()) std::memcpy(p + 0x30, instance.data(), 0x18);
    } else {
        // EVENT_HEADER, then the items (each 8-aligned: size, type, linkage, data size, data)
        fixed = 0x50;
        for (std::size_t i = 0; i < er.extended_data_count; ++i) fixed += (8U + er.extended_data[i].data_size + 7U) & ~std::size_t{7};
        if (fixed + payload.size() > 0xFFFF || fixed + payload.size() > out.size()) return 0;
        auto const flags = static_cast<std::uint16_t>((h.flags & ~event_header_flag::consumer_only & ~event_header_flag::extended_info) |
                                                      (er.extended_data_count != 0 ? event_header_flag::extended_info : 0));
        detail::er_put16(p, 0, static_cast<std::uint16_t>(fixed + payload.size()));
        p[2] = std::byte{p4 ? header_type::event_header32 : header_type::event_header64};
        p[3] = std::byte{0xC0};
        detail::er_put16(p, 4, flags);
        detail::er_put16(p, 6, h.event_property);
        detail::er_put32(p, 8, h.thread_id);
        detail::er_put32(p, 0x0C, h.process_id);
        detail::er_put64(p, 0x10, ts);
        detail::er_put_guid(p, 0x18, h.provider_id);
        auto const& d = h.event_descriptor;
        detail::er_put16(p, 0x28, d.id);
        p[0x2A] = std::byte{d.version}, p[0x2B] = std::byte{d.channel}, p[0x2C] = std::byte{d.level}, p[0x2D] = std::byte{d.opcode};
        detail::er_put16(p, 0x2E, d.task);
        detail::er_put64(p, 0x30, d.keyword);
        detail::er_put32(p, 0x38, h.kernel_time);
        detail::er_put32(p, 0x3C, h.user_time);
        detail::er_put_guid(p, 0x40, h.activity_id);
        std::size_t at = 0x50;
        for (std::size_t i = 0; i < er.extended_data_count; ++i) {
            auto const& it = er.extended_data[i];
            std::size_t const step = (8U + it.data_size + 7U) & ~std::size_t{7};
            std::memset(p + at, 0, step);
            detail::er_put16(p, at, static_cast<std::uint16_t>(8U + it.data_size));
            detail::er_put16(p, at + 2, it.ext_type);
            detail::er_put16(p, at + 4, i + 1 < er.extended_data_count ? 1 : 0);
            detail::er_put16(p, at + 6, it.data_size);
            if (it.data_size != 0) std::memcpy(p + at + 8, detail::er_item_data(er, i).data(), it.data_size);
            at += step;
        }
    }
    if (!payload.empty()) std::memcpy(p + fixed, payload.data(), payload.size());
    std::size_t const size = fixed + payload.size();
    if (record_reader::read(bytes_view(p, size), 0, rec).what != rule::ok) return 0;
    return size;
}

/// EVENT_RECORDs in, trace::events out, each with its stack: a StackWalk (or stack-key) record is
/// attached to the held event it names (names_stack_of: its EventTimeStamp and thread, the rule
/// event_stream applies to a file), so an event that may take a stack is held until its processor has
/// logged the records event_stream would look at (reader::max_look_ahead), at most `window` events (or
/// until finish()): ProcessTrace merges a file's processors in time order, so other processors' events
/// come between an event and its stack. Each held record is rebuilt in a buffer's format in its slot (a
/// kernel record of up to 0x20 payload bytes: a sample, a context switch) or in the caller's storage, used
/// as a ring, where the stack parts are copied as they arrive. No heap. Events are delivered in the order
/// they arrived.
///
/// push's `wanted(hook)` says which kernel events the caller handles (consume: the on<"Name"> handlers'
/// hooks; every event when on_any is given): any other record is counted (skipped()) and not rebuilt;
/// if it may take a stack, its processor remembers it (timestamp, thread, parts taken) without holding
/// it, so a stack record naming it is taken by it, as the file's reader gives that stack to it and not to
/// a later event.
class event_record_stream {
public:
    static constexpr std::size_t max_window = 256;
    static constexpr std::size_t default_window = 256;
    /// A ring for the largest record (64 KiB) and its two stack parts beside a window of ordinary ones.
    static constexpr std::size_t ring_size = std::size_t{1} << 20;
    /// Room for consume's own state beside a stream (its report and pointers) and its alignment.
    static constexpr std::size_t consume_room = 1024;
    /// What consume needs in consume_storage::buffers on the EVENT_RECORD line: its state, this stream
    /// among it (sizeof(event_record_stream), about 164 KiB on x64), at the front, a ring_size ring after
    /// it. A stream made by hand needs only its ring (any size: see the class comment).
    static constexpr std::size_t storage_size() noexcept { return ring_size + sizeof(event_record_stream) + consume_room; }

    explicit event_record_stream(std::span<std::byte> storage, std::size_t window = default_window) noexcept
        : storage_(storage.first(storage.size() & ~std::size_t{7})), window_(window == 0 ? 1 : (std::min)(window, max_window)) {}
    event_record_stream(event_record_stream const&) = delete;
    event_record_stream& operator=(event_record_stream const&) = delete;

    /// Every record wanted.
    static constexpr bool want_all(hook_id) noexcept { return true; }

    /// Takes one EVENT_RECORD; deliver(event const&) is called for each event that is complete.
    template <class F, class W = bool (*)(hook_id) noexcept>
    void push(event_record_layout const& er, F&& deliver, W&& wanted = &want_all, bool want_unhooked = true) noexcept {
        auto const& h = er.event_header;
        if ((h.flags & event_header_flag::classic_header) != 0) {
            // a kernel record: its group's GUID and the opcode name its hook
            if (hook_id hook{}; detail::classic_hook(h.provider_id, h.event_descriptor.opcode, hook)) return push_hook(er, hook, deliver, wanted);
            if (h.provider_id == lost_event_guid) {
                if (h.event_descriptor.opcode == 32) ++events_lost_;
                else if (h.event_descriptor.opcode == 33) ++buffers_lost_;
                return;
            }
        }
        arrival const a = arrive(er);
        if (head_due(a)) drain(deliver);
        if (!want_unhooked) {
            ++skipped_;
            // a classic provider's record may take a stack; EVENT_HEADER events carry theirs as items
            if ((h.flags & event_header_flag::classic_header) != 0)
                a.pr.note(static_cast<std::uint64_t>(h.time_stamp), h.thread_id, a.ordinal, a.processor, true, 0);
            return;
        }
        hold_other(er, a, deliver);
    }
    /// Delivers every held event (ProcessTrace returned).
    template <class F>
    void finish(F&& deliver) noexcept {
        while (held_ != 0) deliver_oldest(deliver);
        head_processor_ = no_head;
    }

    trace::clock const& clock() const noexcept { return clock_; }
    bool has_clock() const noexcept { return have_clock_; }
    /// EVENT_RECORDs no record stands for (a WPP message, a record larger than the storage, a payload or
    /// item with a size and no data): not delivered.
    std::uint64_t unconverted() const noexcept { return unconverted_; }
    /// Records not wanted (counted only).
    std::uint64_t skipped() const noexcept { return skipped_; }
    /// Stack parts that did not fit the storage (their event is delivered without them).
    std::uint64_t stacks_dropped() const noexcept { return stacks_dropped_; }
    /// Lost_Event notices: RTLostEvent and RTLostBuffer.
    std::uint64_t events_lost() const noexcept { return events_lost_; }
    std::uint64_t buffers_lost() const noexcept { return buffers_lost_; }
    /// The raw timestamps of the first record and the latest one (0: none).
    std::uint64_t first_timestamp() const noexcept { return first_timestamp_; }
    std::uint64_t last_timestamp() const noexcept { return last_timestamp_; }

private:
    /// A held event: the record rebuilt in the slot (a kernel record of up to local_size bytes with the
    /// largest header: a sample, a context switch) or in the ring, its stack parts as they come.
    struct slot {
        static constexpr std::size_t local_size = 0x70;
        event e;                   ///< its processor is e.processor()
        std::size_t start = 0;     ///< where its bytes begin in the ring (a local record: where the ring's tail was)
        std::uint32_t ordinal = 0; ///< its place among its processor's records
        std::uint8_t parts = 0;    ///< stack parts taken (max_parts for an event that takes none)
        alignas(8) std::byte local[local_size];
    };
    /// An event that may take a stack, as its processor remembers it: a held one (by its sequence number:
    /// slot = seq & slot_mask, held while seq >= pushed_ - held_) or one not wanted (its parts kept here).
    struct taker {
        std::uint64_t timestamp = 0;
        std::uint32_t tid = 0;
        std::uint32_t ordinal = 0;
        std::uint16_t processor = 0;
        bool unwanted = false;
        std::uint8_t parts = 0; ///< unwanted ones (a held one counts in its slot)
        std::uint32_t seq = 0;  ///< pushed_'s low 32 bits when it was held (at most max_window are held)
    };
    /// A processor's record count and its latest takers, oldest first from `next`. A stack record follows
    /// its event within reader::max_look_ahead + 1 records of the processor, so fewer than `ring` takers
    /// can still take one.
    struct processor_state {
        static constexpr std::size_t ring = 16;
        static_assert(ring > reader::max_look_ahead + 1 && (ring & (ring - 1)) == 0);
        taker takers[ring]{};
        std::uint32_t ordinal = 0;
        std::uint8_t next = 0, count = 0;
        /// Takers still to be noted before those in the ring are in timestamp order again (0: they are).
        std::uint8_t unsorted = 0;
        void note(std::uint64_t timestamp, std::uint32_t tid, std::uint32_t at, std::uint16_t processor, bool unwanted, std::uint32_t seq) noexcept {
            if (count != 0 && timestamp < takers[(next - 1U) & (ring - 1)].timestamp) unsorted = ring;
            else if (unsorted != 0) --unsorted;
            auto& t = takers[next];
            t.timestamp = timestamp, t.tid = tid, t.ordinal = at, t.processor = processor, t.unwanted = unwanted, t.parts = 0, t.seq = seq;
            next = static_cast<std::uint8_t>((next + 1U) & (ring - 1));
            if (count < ring) ++count;
        }
    };

    /// What every record does first: the time span, its processor's state and its place there.
    struct arrival {
        processor_state& pr;
        std::uint16_t processor;
        std::uint32_t ordinal;
    };
    arrival arrive(event_record_layout const& er) noexcept {
        auto const ts = static_cast<std::uint64_t>(er.event_header.time_stamp);
        if (first_timestamp_ == 0) first_timestamp_ = ts;
        if (ts > last_timestamp_) last_timestamp_ = ts;
        std::uint16_t const processor = processor_of(er);
        auto& pr = processors_[processor % processor_slots];
        return {pr, processor, ++pr.ordinal};
    }
    /// Whether the oldest held event became complete with this record (on its processor, past its look-ahead).
    bool head_due(arrival const& a) const noexcept { return a.processor % processor_slots == head_processor_ && a.ordinal - head_ordinal_ > look; }

    /// A kernel record (its hook known).
    template <class F, class W>
    void push_hook(event_record_layout const& er, hook_id hook, F& deliver, W& wanted) noexcept {
        auto const& h = er.event_header;
        arrival const a = arrive(er);
        bool const stack_record = hook.group() == etwctl::detail::stackwalk_group;
        if (stack_record && attach(er, hook, a.pr, a.processor, a.ordinal)) {
            // the oldest held event is complete now if this record is past its look-ahead or gave it its last part
            if (head_due(a) || (held_ != 0 && oldest().parts >= stack_view::max_parts)) drain(deliver);
            return;
        }
        if (head_due(a)) drain(deliver);
        auto const ts = static_cast<std::uint64_t>(h.time_stamp);
        if (!wanted(hook)) {
            ++skipped_;
            if (stack_record) return;
            bytes_view const payload(static_cast<std::byte const*>(er.user_data), er.user_data ? er.user_data_length : 0U);
            std::uint8_t const p = (h.flags & event_header_flag::header_32_bit) != 0 ? 4 : 8;
            a.pr.note(ts, stack_thread_of(hook, h.thread_id, payload, p), a.ordinal, a.processor, true, 0);
            return;
        }
        // the record's size is at most the largest header (0x50) and the payload: a kernel record's header
        // holds its PEBS index and PMC values within those 0x50 bytes
        std::size_t const bound = 0x50U + er.user_data_length;
        bool const local = bound <= slot::local_size;
        std::size_t at = 0;
        if (local) {
            if (held_ == window_) deliver_oldest(deliver), drain(deliver);
            at = tail_; // no ring bytes: the ring's space is given back up to here when it is the oldest
        } else if (!make_room(bound, at, deliver)) {
            return;
        }
        auto& s = *fill_;
        record& rec = s.e.ref_.rec;
        std::size_t const n = detail::rebuild_hook_record(er, hook, local ? std::span<std::byte>(s.local, bound) : storage_.subspan(at, bound), rec);
        if (n == 0) {
            if (local) return (void)++unconverted_;
            return give_back(at);
        }
        if (!have_clock_ && hook == hook_id{0} && rec.kind() == record_kind::system) set_clock(rec);
        s.e.stack_.clear();
        if (stack_record) add_own_stack(rec, s.e.stack_parts(), []() noexcept { return std::optional<stack_view::part>{}; }); // no event took it: its own frames (a key: unresolved, as attached ones are live)
        hold(s, a, at, local ? 0 : n, !stack_record, stack_thread_of(hook, h.thread_id, rec.payload(), rec.pointer_size()), deliver);
    }
    /// Any other record, wanted: an EVENT_HEADER event (its stack in its items), a classic provider's record.
    template <class F>
    void hold_other(event_record_layout const& er, arrival const& a, F& deliver) noexcept {
        // the record's size is at most the largest header (0x50), the items and the payload
        std::size_t bound = 0x50U + er.user_data_length;
        for (std::size_t i = 0; er.extended_data && i < er.extended_data_count; ++i) bound += (8U + er.extended_data[i].data_size + 7U) & ~std::size_t{7};
        std::size_t at = 0;
        if (!make_room(bound, at, deliver)) return;
        auto& s = *fill_;
        record& rec = s.e.ref_.rec;
        std::size_t const n = rebuild_record(er, storage_.subspan(at, bound), rec);
        if (n == 0) return give_back(at);
        s.e.stack_.clear();
        if (rec.kind() == record_kind::event) add_stack_items(rec, s.e.stack_parts());
        hold(s, a, at, n, takes_stack_records(rec), stack_thread_of(rec), deliver);
    }
    /// Room for `bound` bytes in the ring (and a slot): older events delivered as needed; false when even
    /// an empty ring cannot hold it (the record is counted unconverted).
    template <class F>
    bool make_room(std::size_t bound, std::size_t& at, F& deliver) noexcept {
        if (held_ == window_) deliver_oldest(deliver), drain(deliver);
        while (!allocate(bound, at)) {
            if (held_ == 0) {
                ++unconverted_;
                return false;
            }
            deliver_oldest(deliver);
            drain(deliver);
        }
        return true;
    }
    /// A record no buffer record stands for: its bytes given back (the last allocation), counted.
    void give_back(std::size_t at) noexcept {
        tail_ = at;
        if (held_ == 0) reset();
        ++unconverted_;
    }
    /// The rebuilt record in slot `s` held (its n bytes in the ring at `at`; n = 0 for a record in the slot):
    /// its event's processor, its place, and whether stack records may name it (then its processor
    /// remembers it).
    template <class F>
    void hold(slot& s, arrival const& a, std::size_t at, std::size_t n, bool takes, std::uint32_t tid, F& deliver) noexcept {
        tail_ = at + round8(n);
        s.e.ref_.processor = a.processor;
        s.start = at;
        s.parts = takes ? 0 : stack_view::max_parts; // an event that takes no stack is complete
        s.ordinal = a.ordinal;
        if (takes) a.pr.note(s.e.ref_.rec.timestamp(), tid, a.ordinal, a.processor, false, static_cast<std::uint32_t>(pushed_));
        ++pushed_;
        fill_ = after(fill_);
        ++held_;
        if (held_ == 1) drain(deliver);
    }

    static constexpr std::size_t round8(std::size_t n) noexcept { return (n + 7U) & ~std::size_t{7}; }
    // slots_ is a ring of max_window (a power of two) indexed by a mask; window_ bounds how many are held
    static_assert((max_window & (max_window - 1)) == 0);
    static constexpr std::size_t slot_mask = max_window - 1;
    static constexpr std::uint32_t look = reader::max_look_ahead + 1;
    /// GetEventProcessorIndex (evntcons.h): ProcessorIndex with EVENT_HEADER_FLAG_PROCESSOR_INDEX, else ProcessorNumber.
    static std::uint16_t processor_of(event_record_layout const& er) noexcept {
        return (er.event_header.flags & event_header_flag::processor_index) != 0 ? er.buffer_context.processor_index
                                                                                 : er.buffer_context.processor_number();
    }
    slot const& oldest() const noexcept { return *oldest_; }
    /// The slot after `s` in the ring.
    slot* after(slot* s) noexcept { return s + 1 == std::end(slots_) ? slots_ : s + 1; }
    /// Whether no later record can be the stack of a held event: it has all its parts (an event that takes
    /// none is held with all of them), or its processor has logged more records since than event_stream
    /// looks at.
    bool complete(slot const& s) const noexcept {
        return s.parts >= stack_view::max_parts || processors_[s.e.ref_.processor % processor_slots].ordinal - s.ordinal > look;
    }

    // The ring: bytes [head, tail) are in use, or [head, wrap) and [0, tail) once an allocation wrapped.
    // Space is given back in allocation order, when the oldest held event is delivered: a stack part is
    // allocated after its event's record, and its event is delivered before any later event, so the part
    // is never given back while its event is held.
    bool allocate(std::size_t n, std::size_t& at) noexcept {
        n = round8(n);
        if (!wrapped_) {
            if (storage_.size() - tail_ >= n) {
                at = tail_;
                tail_ += n;
                return true;
            }
            if (head_ > n) { // wrap (strictly more than n free at the front: tail never meets head)
                wrapped_ = true;
                at = 0;
                tail_ = n;
                return true;
            }
            return false;
        }
        if (head_ - tail_ > n) {
            at = tail_;
            tail_ += n;
            return true;
        }
        return false;
    }
    void reset() noexcept { head_ = tail_ = 0, wrapped_ = false; }

    /// A StackWalk / stack-key record naming an event its processor remembers: its frames are copied for
    /// that event (or the part is counted for one not wanted).
    bool attach(event_record_layout const& er, hook_id hook, processor_state& pr, std::uint16_t processor, std::uint32_t ordinal) noexcept {
        // the event it names (reader::stack_owner_of): EventTimeStamp at 0, StackThread at 0x0C; a key
        // reference needs its key after them
        std::size_t const size = er.user_data ? er.user_data_length : 0U;
        auto const* const payload = static_cast<std::byte const*>(er.user_data);
        std::uint8_t const p = (er.event_header.flags & event_header_flag::header_32_bit) != 0 ? 4 : 8;
        bool const walk = hook == stack_walk_hook;
        if (!reader::is_stack_hook(hook) || size < (walk ? 0x10U : 0x10U + p)) return false;
        std::uint64_t const event_time_stamp = etwctl::detail::load<std::uint64_t>(payload, 0);
        std::uint32_t const stack_thread = etwctl::detail::load<std::uint32_t>(payload, 0x0C);
        // a stack follows its event on the event's processor, within the records event_stream looks at for
        // a file (the next one and reader::max_look_ahead after it); the oldest event it names takes it, as
        // the file's first event to look ahead does (several events may carry one timestamp and thread).
        // Newest first: a taker further back than the look-ahead ends the search (those before it are older
        // still); while the ring is in timestamp order, so does one older than the stack's EventTimeStamp
        taker* found = nullptr;
        for (std::size_t k = 1; k <= pr.count; ++k) {
            auto& t = pr.takers[(pr.next - k) & (processor_state::ring - 1)];
            if (ordinal - t.ordinal > look) break;
            if (t.timestamp != event_time_stamp) {
                if (t.timestamp < event_time_stamp && pr.unsorted == 0) break;
                continue;
            }
            if ((t.tid != no_id && t.tid != stack_thread) || t.processor != processor) continue;
            if (t.unwanted ? t.parts >= stack_view::max_parts
                           : static_cast<std::uint32_t>(pushed_) - t.seq > held_ || slots_[t.seq & slot_mask].parts >= stack_view::max_parts)
                continue; // it has its parts, or it was delivered (the window was full)
            found = &t;
        }
        if (!found) return false;
        if (found->unwanted) {
            ++found->parts; // the stack of a record not wanted
            return true;
        }
        auto& s = slots_[found->seq & slot_mask];
        ++s.parts;
        if (!walk) {
            s.e.stack_parts().add_unresolved(); // a stack-cache key: its frames come later, in a Delete or Rundown record
            return true;
        }
        std::size_t const n = (size - 0x10U) & ~std::size_t{p - 1U}; // whole frames (stack_walk_frames)
        std::size_t at = 0;
        if (!allocate(n, at)) {
            ++stacks_dropped_;
            return true;
        }
        if (n != 0) std::memcpy(storage_.data() + at, payload + 0x10, n);
        s.e.stack_parts().add(bytes_view(storage_.data() + at, n), p);
        return true;
    }
    /// Delivers the oldest held events while they are complete, then notes when the next one will be (its
    /// processor and ordinal: it is complete once that processor is past its look-ahead, or it has all its
    /// parts, which attach sees).
    template <class F>
    void drain(F& deliver) noexcept {
        while (held_ != 0 && complete(oldest())) deliver_oldest(deliver);
        if (held_ == 0) {
            head_processor_ = no_head;
            return;
        }
        head_processor_ = static_cast<std::uint16_t>(oldest().e.ref_.processor % processor_slots);
        head_ordinal_ = oldest().ordinal;
    }
    template <class F>
    void deliver_oldest(F& deliver) noexcept {
        deliver(oldest().e);
        oldest_ = after(oldest_);
        if (--held_ == 0) return reset();
        std::size_t const next = oldest().start;
        if (wrapped_ && next < head_) wrapped_ = false; // the oldest now lies in the wrapped part
        head_ = next;
    }
    void set_clock(record const& rec) noexcept {
        payload_ref const payload{rec.payload(), static_cast<std::uint8_t>(rec.version()), rec.pointer_size()};
        if (layout::logfile_header::check(payload) != layout_fault::none) return;
        layout::logfile_header const hd(payload);
        clock_ = trace::clock(hd.clock_type(), hd.perf_freq(), hd.cpu_speed_mhz(), hd.start_time(), rec.timestamp());
        have_clock_ = true;
        for (auto& s : slots_) s.e.clock_ = &clock_; // every event from here on (and any held): the session's clock, as a file's events have it
    }

    std::span<std::byte> storage_;
    std::size_t window_;
    std::size_t head_ = 0, tail_ = 0;
    bool wrapped_ = false;
    slot slots_[max_window]; // each slot's members initialized, its record room not (written before it is read)
    slot* fill_ = slots_;   ///< the next event's slot: slots_[pushed_ & slot_mask]
    slot* oldest_ = slots_; ///< the oldest held event's: slots_[(pushed_ - held_) & slot_mask]
    std::uint64_t pushed_ = 0; ///< events held so far: the oldest held is pushed_ - held_, at (pushed_ - held_) & slot_mask
    std::size_t held_ = 0;
    static constexpr std::size_t processor_slots = 256; // more processors share a state: the look-ahead only widens
    static constexpr std::uint16_t no_head = processor_slots; ///< head_processor_ when nothing is held
    std::uint16_t head_processor_ = no_head; ///< the oldest held event's processor slot (no_head: none held)
    std::uint32_t head_ordinal_ = 0;         ///< and its place among that processor's records
    processor_state processors_[processor_slots]{};
    trace::clock clock_{};
    bool have_clock_ = false;
    std::uint64_t unconverted_ = 0, skipped_ = 0, stacks_dropped_ = 0, events_lost_ = 0, buffers_lost_ = 0;
    std::uint64_t first_timestamp_ = 0, last_timestamp_ = 0;
};

/// Why consumption ended.
enum class consume_end : std::uint8_t {
    session_ended,     ///< ProcessTrace returned: the session stopped (or a file ended)
    stopped,           ///< consume_control::stop (CloseTrace) was called
    open_failed,       ///< OpenTraceW refused (report.win32 says why)
    process_failed,    ///< ProcessTrace failed (report.win32 says why)
    storage_too_small, ///< a buffer, the reader's index for a batch, or consume's state (EVENT_RECORDs) did not fit the caller's storage
    fault,             ///< the delivered bytes broke a trace rule (report.first_fault says where)
};
constexpr std::string_view to_string(consume_end e) noexcept {
    switch (e) {
    case consume_end::session_ended: return "session ended";
    case consume_end::stopped: return "stopped";
    case consume_end::open_failed: return "OpenTraceW failed";
    case consume_end::process_failed: return "ProcessTrace failed";
    case consume_end::storage_too_small: return "storage too small";
    case consume_end::fault: return "trace fault";
    }
    return "";
}

/// What a consume did.
struct consume_report {
    consume_end reason = consume_end::session_ended;
    std::uint32_t win32 = 0;          ///< the Win32 code of OpenTraceW / ProcessTrace when they failed
    std::uint64_t events = 0;         ///< events delivered (stack records attached to their event not counted)
    std::uint64_t typed = 0;          ///< delivered to a typed handler
    std::uint64_t raw = 0;            ///< refused by a layout (to on_raw, if given)
    std::uint64_t buffers = 0;        ///< buffers delivered, the header buffer included
    std::uint64_t buffers_lost = 0;   ///< SequenceNumbers skipped between delivered buffers
    std::uint32_t events_lost = 0;    ///< the session's EventsLost (its final header), when delivered
    std::uint32_t header_buffers_lost = 0; ///< the session's BuffersLost (its final header), when delivered
    std::uint64_t first_timestamp = 0; ///< raw clock of the first and last event delivered (0: none)
    std::uint64_t last_timestamp = 0;
    trace_clock::duration span{};     ///< last - first event, in the session's clock
    fault first_fault{};
    std::uint64_t unconverted = 0;    ///< EVENT_RECORDs no record stands for (WPP messages, too large, data missing): not delivered
    std::uint64_t stacks_dropped = 0; ///< EVENT_RECORD path: stack parts that did not fit their event's storage

    /// Whether anything was lost on the way.
    constexpr bool lost() const noexcept { return buffers_lost != 0 || events_lost != 0 || header_buffers_lost != 0; }
};

/// The caller's storage. Buffers delivered (buffer_consumer_kernel): `buffers` holds the header buffer
/// and a batch of delivered buffers (at least two buffers of the session's BufferSize); `index` holds the
/// reader's index of a batch (reader::storage_size: a few hundred bytes plus 32 per buffer). EVENT_RECORDs
/// delivered (event_record_consumer_kernel): `buffers` holds consume's state and the held events
/// (event_record_stream::storage_size()); `index` is not used.
struct consume_storage {
    std::span<std::byte> buffers;
    std::span<std::byte> index;
};

/// A session's name as the caller has it: ASCII / UTF-8 bytes taken as Latin-1 (session names are
/// ASCII in practice), UTF-16 (char16_t), or the platform's 16-bit wchar_t.
class consume_name {
public:
    constexpr consume_name(char const* s) noexcept : consume_name(std::string_view(s)) {} // NOLINT: literals
    constexpr consume_name(std::string_view s) noexcept : narrow_(s.data()), size_(s.size()) {} // NOLINT
    constexpr consume_name(char16_t const* s) noexcept : consume_name(std::u16string_view(s)) {} // NOLINT
    constexpr consume_name(std::u16string_view s) noexcept : utf16_(s.data()), size_(s.size()) {} // NOLINT
    template <class W, std::enable_if_t<std::is_same_v<W, wchar_t> && sizeof(W) == 2, int> = 0>
    constexpr consume_name(W const* s) noexcept : consume_name(std::basic_string_view<W>(s)) {} // NOLINT
    template <class W, std::enable_if_t<std::is_same_v<W, wchar_t> && sizeof(W) == 2, int> = 0>
    constexpr consume_name(std::basic_string_view<W> s) noexcept : wide_(s.data()), size_(s.size()) {} // NOLINT

    constexpr std::size_t size() const noexcept { return size_; }
    /// The i-th 16-bit unit (i < size()).
    constexpr wide_char operator[](std::size_t i) const noexcept {
        if (utf16_) return static_cast<wide_char>(utf16_[i]);
        if (wide_) return static_cast<wide_char>(wide_[i]);
        return static_cast<wide_char>(static_cast<unsigned char>(narrow_[i]));
    }

private:
    char const* narrow_ = nullptr;
    char16_t const* utf16_ = nullptr;
    wchar_t const* wide_ = nullptr;
    std::size_t size_ = 0;
};

/// Ends a running consume from any thread (CloseTrace on its handle), or from a handler. One control per
/// consume: a stop requested before consume opens the trace ends that consume at once.
class consume_control;
namespace detail {
template <class K, class... H>
consume_report consume_trace(K&, consume_name, bool, consume_storage, consume_control&, H...) noexcept;
} // namespace detail

class consume_control {
public:
    /// Requests the end; returns CloseTrace's Win32 code (0 when consume has not opened the trace yet:
    /// it then ends as soon as it has). ERROR_CTX_CLOSE_PENDING (7007) is success.
    template <consumer_kernel K>
    std::uint32_t stop(K& k) noexcept {
        stop_.store(true, std::memory_order_release);
        std::uint64_t const h = handle_.load(std::memory_order_acquire);
        return h == invalid_processtrace_handle ? 0U : k.close_trace(h);
    }
    bool stop_requested() const noexcept { return stop_.load(std::memory_order_acquire); }
    /// The trace handle while consume runs (invalid_processtrace_handle otherwise).
    std::uint64_t handle() const noexcept { return handle_.load(std::memory_order_acquire); }

private:
    template <class K, class... H>
    friend consume_report detail::consume_trace(K&, consume_name, bool, consume_storage, consume_control&, H...) noexcept;
    std::atomic<std::uint64_t> handle_{invalid_processtrace_handle};
    std::atomic<bool> stop_{false};
};

namespace detail {

/// Whether a handler made by on / on_raw / on_any cannot throw for what it is given.
template <class H>
struct handler_noexcept : std::false_type {};
template <std::uint16_t Hook, class F>
struct handler_noexcept<on_handler<Hook, F>> {
    using view = view_of_t<Hook>;
    using arg = std::conditional_t<std::is_void_v<view>, raw_event, kernel_event<std::conditional_t<std::is_void_v<view>, layout::rundown_complete, view>>>;
    static constexpr bool value = std::is_nothrow_invocable_v<F&, arg const&>;
};
template <class F>
struct handler_noexcept<on_raw_handler<F>> : std::bool_constant<std::is_nothrow_invocable_v<F&, raw_event const&>> {};
template <class F>
struct handler_noexcept<on_any_handler<F>> : std::bool_constant<std::is_nothrow_invocable_v<F&, event const&>> {};

/// dispatch's step for one event, counted in the report: the typed handlers its name selects, on_any,
/// and on_raw when a layout refused it.
template <class... A>
void deliver_event(consume_report& report, event const& e, A&... hs) noexcept {
    ++report.events;
    bool refused = false;
    layout_fault why = layout_fault::none;
    dispatch_report d;
    (trace::detail::deliver(hs, e, d, refused, why), ...);
    report.typed += d.typed;
    if (!refused) return;
    ++report.raw;
    raw_event const r(e, why);
    (
        [&](auto& h) {
            if constexpr (trace::detail::is_raw<std::remove_cvref_t<decltype(h)>>) h.f(r);
        }(hs),
        ...);
}

/// The EVENT_RECORD path: each record from ProcessTrace's callback into the event_record_stream, each
/// complete event to the handlers.
template <class... H>
struct record_consume_state {
    event_record_stream stream;
    consume_control* control;
    std::tuple<H...>* handlers;
    consume_report report{};

    /// on_any takes every event; otherwise only the kernel events of the on<"Name"> handlers are rebuilt.
    static constexpr bool all = (is_any<H> || ...);
    static constexpr bool wanted(hook_id h) noexcept {
        if constexpr (all) return true;
        else return ((is_on<H> && h == handler_hook<H>()) || ...);
    }
    template <class X>
    static constexpr hook_id handler_hook() noexcept {
        if constexpr (is_on<X>) return X::hook;
        else return hook_id{};
    }

    void deliver(event const& e) noexcept {
        std::apply([&](auto&... h) { deliver_event(report, e, h...); }, *handlers);
    }
    /// The EventRecordCallback's handler: the state is the record's UserContext (EVENT_TRACE_LOGFILEW.Context).
    static void on_record(event_record_layout const& r) noexcept {
        auto* self = static_cast<record_consume_state*>(r.user_context);
        // the header event (hook 0) always: it carries the session's clock
        self->stream.push(r, [self](event const& e) noexcept { self->deliver(e); },
                          [](hook_id h) noexcept { return h == hook_id{0} || wanted(h); }, all);
    }
    void finish() noexcept {
        stream.finish([this](event const& e) noexcept { deliver(e); });
        report.events += stream.skipped();
        report.first_timestamp = stream.first_timestamp();
        report.last_timestamp = stream.last_timestamp();
        report.unconverted = stream.unconverted();
        report.stacks_dropped = stream.stacks_dropped();
        report.buffers_lost += stream.buffers_lost();
        report.events_lost += static_cast<std::uint32_t>(stream.events_lost());
        if (report.first_timestamp != 0 && stream.has_clock())
            report.span = std::chrono::duration_cast<trace_clock::duration>(stream.clock().time(report.last_timestamp) -
                                                                            stream.clock().time(report.first_timestamp));
    }
};

template <class... H>
struct consume_state {
    consume_storage storage;
    consume_control* control;
    std::tuple<H...>* handlers;
    consume_report report{};
    std::size_t header_bytes = 0;   ///< the header buffer, at the start of storage.buffers
    std::size_t used = 0;           ///< header + batch bytes
    std::uint64_t last_sequence = 0;
    bool have_header = false;
    bool header_delivered = false;
    bool failed = false;

    bool take(std::span<std::byte const> b) noexcept {
        ++report.buffers;
        if (!buffer_header::fits(b, 0)) return fail(consume_end::fault, {rule::trace_file_too_small, 0, 0, b.size(), buffer_header_size});
        buffer_header const h(b);
        if (h.type() == buffer_type::header) {
            if (!have_header) return first_header(b);
            final_header(b);
            return true;
        }
        if (!have_header) return fail(consume_end::fault, {rule::trace_header_event, 0, 0x36, static_cast<std::uint16_t>(h.type()), 0});
        std::uint64_t const seq = h.sequence_number();
        if (last_sequence != 0 && seq > last_sequence + 1) report.buffers_lost += seq - last_sequence - 1;
        if (seq > last_sequence) last_sequence = seq;
        if (storage.buffers.size() - used < b.size()) {
            if (!flush()) return false;
            if (storage.buffers.size() - used < b.size()) return fail(consume_end::storage_too_small, {});
        }
        std::memcpy(storage.buffers.data() + used, b.data(), b.size());
        used += b.size();
        return !control->stop_requested();
    }
    bool first_header(std::span<std::byte const> b) noexcept {
        if (storage.buffers.size() < b.size()) return fail(consume_end::storage_too_small, {});
        std::memcpy(storage.buffers.data(), b.data(), b.size());
        header_bytes = used = b.size();
        have_header = true;
        return !control->stop_requested();
    }
    void final_header(std::span<std::byte const> b) noexcept {
        auto f = trace_file::open(b);
        if (!f) return;
        report.events_lost = f->header().events_lost();
        report.header_buffers_lost = f->header().buffers_lost();
    }
    /// Reads the batch (header buffer + the buffers since the last flush) in time order, stacks attached.
    bool flush() noexcept {
        if (!have_header || used == header_bytes) return true;
        fault why{};
        auto f = trace_file::open(std::span<std::byte const>(storage.buffers.data(), used), &why);
        used = header_bytes;
        if (!f) return fail(consume_end::fault, why);
        if (reader::storage_size(*f) > storage.index.size()) return fail(consume_end::storage_too_small, {});
        reader r(*f, storage.index);
        event_stream s(r);
        auto stamp = on_any([this](event const& e) noexcept {
            if (report.first_timestamp == 0) report.first_timestamp = e.timestamp();
            if (e.timestamp() > report.last_timestamp) report.last_timestamp = e.timestamp();
        });
        // dispatch's loop, delivering the header buffer's records (the header event, the group masks) with
        // the first batch only: every batch starts with the header buffer so the reader can open it
        std::apply([&](auto&... h) { deliver(s, stamp, h...); }, *handlers);
        header_delivered = true;
        if (report.first_timestamp != 0)
            report.span = std::chrono::duration_cast<trace_clock::duration>(
                f->clock().time(report.last_timestamp) - f->clock().time(report.first_timestamp));
        if (r.first_fault()) return fail(consume_end::fault, r.first_fault());
        return true;
    }
    template <class... A>
    void deliver(event_stream& s, A&... hs) noexcept {
        event e;
        while (s.next(e)) {
            if (header_delivered && e.ref().stream == 0) continue;
            deliver_event(report, e, hs...);
        }
    }
    bool fail(consume_end why, fault const& f) noexcept {
        if (!failed) {
            failed = true;
            report.reason = why;
            report.first_fault = f;
        }
        return false;
    }
    static bool on_buffer(void* context, std::span<std::byte const> b) noexcept { return static_cast<consume_state*>(context)->take(b); }
};

} // namespace detail

namespace detail {

template <class... H>
consteval bool check_handlers() {
    static_assert(sizeof...(H) > 0, "etwctl::trace::consume: give at least one handler (on<\"Name\">, on_raw, on_any)");
    static_assert((std::is_base_of_v<on_tag, H> && ...),
                  "etwctl::trace::consume: a handler is made by on<\"Name\">(f), on_raw(f) or on_any(f)");
    static_assert((handler_noexcept<H>::value && ...),
                  "etwctl::trace::consume: handlers run inside ProcessTrace's callback and must be noexcept");
    return true;
}

/// OpenTraceW on a session (real time) or a file, ProcessTrace on the caller's thread, CloseTrace.
template <class K, class... H>
consume_report consume_trace(K& k, consume_name source, bool file, consume_storage storage, consume_control& control, H... handlers) noexcept {
    static_assert(buffer_consumer_kernel<K> || event_record_consumer_kernel<K>,
                  "etwctl::trace::consume: the kernel must deliver the session's buffers (buffer_consumer_kernel: "
                  "sim::live_session) or its EVENT_RECORDs (event_record_consumer_kernel: native_kernel)");
    std::tuple<H...> hs{std::move(handlers)...};
    consume_report failed{};

    // OpenTraceW: the session by name (real time) or a file; EVENT_RECORD callbacks, raw timestamps (stacks
    // are matched to their events by the raw timestamp)
    wide_char name[1025] = {};
    if (source.size() == 0 || source.size() >= std::size(name)) {
        failed.reason = consume_end::open_failed;
        failed.win32 = win32::invalid_parameter;
        return failed;
    }
    for (std::size_t i = 0; i < source.size(); ++i) name[i] = source[i];
    event_trace_logfilew_layout logfile{};
    if (file) logfile.log_file_name = name;
    else logfile.logger_name = name;
    logfile.process_trace_mode = (file ? 0U : process_trace_mode::real_time) | process_trace_mode::event_record | process_trace_mode::raw_timestamp;

    // OpenTraceW, then ProcessTrace (`process(handle)`) unless a stop came first, then CloseTrace; `finish`
    // runs once no callback can run any more (what is held is delivered; false: that failed and the report
    // already says why); then the report says why it ended.
    auto run = [&](consume_report& report, auto process, auto finish) noexcept {
        std::uint64_t h = invalid_processtrace_handle;
        if (std::uint32_t const e = k.open_trace_w(&logfile, &h); e != win32::success) {
            report.reason = consume_end::open_failed;
            report.win32 = e;
            return;
        }
        control.handle_.store(h, std::memory_order_release);
        std::uint32_t const e = control.stop_requested() ? win32::success : process(h);
        control.handle_.store(invalid_processtrace_handle, std::memory_order_release);
        (void)k.close_trace(h); // after ProcessTrace returned: no callback runs any more
        if (!finish()) return;
        if (control.stop_requested()) report.reason = consume_end::stopped;
        else if (e != win32::success && e != consumer_result::cancelled) {
            report.reason = consume_end::process_failed;
            report.win32 = e;
        }
    };
    if constexpr (buffer_consumer_kernel<K>) {
        consume_state<H...> st{storage, &control, &hs};
        run(
            st.report, [&](std::uint64_t h) noexcept { return k.process_trace_buffers(h, &consume_state<H...>::on_buffer, &st); },
            [&]() noexcept {
                if (!st.failed) st.flush();
                return !st.failed;
            });
        return st.report;
    } else {
        // the state (the stream: its slots and processors' takers, ~164 KiB) at the front of storage.buffers,
        // not on the caller's stack; the records are rebuilt in its slots or in the rest, the stream's ring
        using state = record_consume_state<H...>;
        static_assert(sizeof(state) - sizeof(event_record_stream) + alignof(state) <= event_record_stream::consume_room);
        void* at = storage.buffers.data();
        std::size_t room = storage.buffers.size();
        if (!std::align(alignof(state), sizeof(state), at, room)) {
            failed.reason = consume_end::storage_too_small;
            return failed;
        }
        std::span<std::byte> const ring = std::span<std::byte>(static_cast<std::byte*>(at), room).subspan(sizeof(state));
        state& st = *::new (at) state{event_record_stream(ring), &control, &hs};
        logfile.event_record_callback = k.template event_record_callback<&state::on_record>();
        logfile.context = &st;
        run(
            st.report, [&](std::uint64_t h) noexcept { return k.process_trace(&h, 1, nullptr, nullptr); },
            [&]() noexcept {
                st.finish();
                return true;
            });
        consume_report const report = st.report;
        std::destroy_at(&st);
        return report;
    }
}

} // namespace detail

/// Consumes the real-time session `session_name` until it stops or control.stop(k) is called: every
/// event to the handlers (on<"Name">, on_raw, on_any: each noexcept), as reading a file delivers them.
/// A buffer_consumer_kernel (the simulated machine) hands over buffers, read by the trace reader in
/// batches (storage.buffers: a batch, storage.index: the reader's index); an event_record_consumer_kernel
/// (native_kernel) hands over EVENT_RECORDs, rebuilt as records in storage.buffers
/// (event_record_stream::storage_size(): consume's state, the stream, at its front, a ring of held events
/// after it; smaller than the state: consume_end::storage_too_small before OpenTraceW; storage.index is
/// not used).
template <class K, class... H>
consume_report consume(K& k, consume_name session_name, consume_storage storage, consume_control& control, H... handlers) noexcept {
    static_assert(detail::check_handlers<H...>());
    return detail::consume_trace(k, session_name, false, storage, control, std::move(handlers)...);
}

/// Consumes an .etl file through OpenTraceW / ProcessTrace (LogFileName: Windows decodes it), with the same
/// handlers; the portable reader (trace/reader.hpp, dispatch) reads a file without Windows.
template <class K, class... H>
consume_report consume_file(K& k, consume_name path, consume_storage storage, consume_control& control, H... handlers) noexcept {
    static_assert(detail::check_handlers<H...>());
    return detail::consume_trace(k, path, true, storage, control, std::move(handlers)...);
}

} // namespace trace
ETWCTL_END_NAMESPACE
