// SPDX-License-Identifier: MIT
// etwctl/trace/format.hpp - the ETW buffer format as views over the caller's bytes: the buffer header
// (WMI_BUFFER_HEADER), every record header kind a buffer holds, EVENT_HEADER's extended data items, and
// the walk over a buffer's records. Nothing is copied and nothing allocated; every size and offset is
// checked against the span it points into before it is used, and a fault names the rule it broke and
// the offset where it did (a trace file is untrusted input).
//
// Sources (public):
//   - Geoff Chappell, "WMI_BUFFER_HEADER", "ETW_BUFFER_STATE", "Trace Headers", "SYSTEM_TRACE_HEADER",
//     "PERFINFO_TRACE_HEADER", "MESSAGE_TRACE_HEADER", "EVENT_HEADER" (geoffchappell.com): layouts, the
//     header-type byte, the 8-byte alignment of records.
//   - NTWMI.H as published with the Windows 10 WDK (phnt ntwmi.h): TRACE_HEADER_TYPE_* values, the
//     BufferFlag and BufferType values, PERFINFO_TRACE_HEADER's PMC/PEBS extension bits.
//   - Windows SDK evntcons.h / evntrace.h / evntprov.h: EVENT_HEADER, EVENT_HEADER_EXTENDED_DATA_ITEM and
//     EVENT_HEADER_EXT_TYPE_*, EVENT_TRACE_HEADER, ETW_BUFFER_CONTEXT, ETW_BUFFER_HEADER (FilledBytes at
//     0x30); Microsoft Learn pages of the same names.
// Where a layout is inferred rather than published (the end of data at Offset, the 0xFF fill, the
// extended items' in-buffer form), the comment says so: those were checked against real traces written
// by Windows (tests/trace/data) and against the decoders that read them.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

using bytes_view = std::span<std::byte const>;

// ---- faults ------------------------------------------------------------------------------------------

/// Where and how a trace broke a rule of the format. `file_offset` is the offset in the file (or in the
/// bytes given) of the buffer the fault is in, `offset` the offset inside that buffer's data (its
/// decompressed data for a compressed buffer: counted from the buffer's start, header included); `value`
/// is what was read there and `limit` what it had to stay within, where the rule has one.
struct fault {
    rule what = rule::ok;
    std::uint64_t file_offset = 0;
    std::uint32_t offset = 0;
    std::uint64_t value = 0;
    std::uint64_t limit = 0;

    constexpr explicit operator bool() const noexcept { return what != rule::ok; }
    /// The fault as an error code in rule_category() (equal to Win32 ERROR_FILE_CORRUPT, or
    /// ERROR_INSUFFICIENT_BUFFER for storage).
    std::error_code code() const noexcept { return etwctl::detail::failed(make_error_code(what)); } // no earlier failure's context
    /// "trace: a record runs past the end of its buffer's data [trace_record_past_buffer] at file offset
    /// 0x10000, buffer offset 0x1F48: value 0x2A0, limit 0xB8" into `out` (no allocation); returns the
    /// length the whole text needs, writing only what fits.
    std::size_t describe(std::span<char> out) const noexcept {
        std::size_t at = etwctl::detail::put(out, 0, info(what).text);
        at = etwctl::detail::put(out, at, " [");
        at = etwctl::detail::put(out, at, info(what).name);
        at = etwctl::detail::put(out, at, "] at file offset 0x");
        at = etwctl::detail::put_hex(out, at, file_offset);
        at = etwctl::detail::put(out, at, ", buffer offset 0x");
        at = etwctl::detail::put_hex(out, at, offset);
        if (value != 0 || limit != 0) {
            at = etwctl::detail::put(out, at, ": value 0x");
            at = etwctl::detail::put_hex(out, at, value);
            at = etwctl::detail::put(out, at, ", limit 0x");
            at = etwctl::detail::put_hex(out, at, limit);
        }
        return at;
    }
};

// ---- the buffer header -------------------------------------------------------------------------------

/// WMI_BUFFER_HEADER's size: 0x48 bytes for 32- and 64-bit Windows alike (Chappell; the SDK's
/// ETW_BUFFER_HEADER has the same size).
inline constexpr std::size_t buffer_header_size = 0x48;

/// BufferFlag bits (NTWMI ETW_BUFFER_FLAG_*).
namespace buffer_flag {
inline constexpr std::uint16_t flush_marker = 0x0001;
inline constexpr std::uint16_t events_lost = 0x0002;
inline constexpr std::uint16_t buffer_lost = 0x0004;
inline constexpr std::uint16_t rtbackup_corrupt = 0x0008;
inline constexpr std::uint16_t rtbackup = 0x0010;
inline constexpr std::uint16_t proc_index = 0x0020;
inline constexpr std::uint16_t compressed = 0x0040;
} // namespace buffer_flag

/// BufferType values (NTWMI ETW_BUFFER_TYPE_*).
enum class buffer_type : std::uint16_t {
    generic = 0,
    rundown = 1,
    ctx_swap = 2,
    reftime = 3,
    header = 4,
    batched = 5,
    empty_marker = 6,
    dbg_info = 7,
};

/// A view of a buffer's 72-byte header. Construct it only over at least buffer_header_size bytes
/// (buffer_header::at checks that).
class buffer_header {
public:
    constexpr buffer_header() noexcept = default;
    explicit buffer_header(bytes_view b) noexcept : p_(b.data()) {}

    /// The header at `offset` of `file`, if 72 bytes are there.
    static bool fits(bytes_view file, std::uint64_t offset) noexcept {
        return offset <= file.size() && file.size() - offset >= buffer_header_size;
    }

    /// Bytes this buffer occupies in the file, header included (the compressed size for a compressed one).
    std::uint32_t buffer_size() const noexcept { return u32(0x00); }
    /// Valid bytes, header included; for a compressed buffer, 72 + the decompressed record bytes.
    std::uint32_t saved_offset() const noexcept { return u32(0x04); }
    std::uint32_t current_offset() const noexcept { return u32(0x08); }
    /// Flush time of the buffer, in the session's raw clock.
    std::uint64_t time_stamp() const noexcept { return u64(0x10); }
    /// Unique in a file; orders the buffers of one processor (a gap means a lost buffer).
    std::uint64_t sequence_number() const noexcept { return u64(0x18); }
    /// ETW_BUFFER_CONTEXT: ProcessorNumber (low byte) / Alignment, or the 16-bit ProcessorIndex when the
    /// buffer has buffer_flag::proc_index (NTWMI's ETW_PROCESSOR_INDEX_MASK keeps 11 bits).
    std::uint16_t processor() const noexcept {
        auto const ctx = u16(0x28);
        return (flags() & buffer_flag::proc_index) != 0 ? static_cast<std::uint16_t>(ctx & 0x07FFU)
                                                        : static_cast<std::uint16_t>(ctx & 0xFFU);
    }
    std::uint16_t logger_id() const noexcept { return u16(0x2A); }
    /// ETW_BUFFER_STATE (3 = flushed in every buffer of a written file).
    std::uint32_t state() const noexcept { return u32(0x2C); }
    /// The end of data, header included (the SDK's ETW_BUFFER_HEADER calls it FilledBytes).
    std::uint32_t filled_bytes() const noexcept { return u32(0x30); }
    std::uint16_t flags() const noexcept { return u16(0x34); }
    buffer_type type() const noexcept { return static_cast<buffer_type>(u16(0x36)); }
    bool compressed() const noexcept { return (flags() & buffer_flag::compressed) != 0; }

    /// The end of this buffer's record data, counted from the buffer's start. Uncompressed: Offset
    /// (FilledBytes); Windows' own readers also stop at SavedOffset, and the two agree except in one
    /// relogged header buffer where Offset is larger and the bytes between hold a real event, so Offset
    /// wins (inferred from real files). Compressed: SavedOffset (72 + the decompressed size).
    std::uint32_t data_end() const noexcept { return compressed() ? saved_offset() : filled_bytes(); }

private:
    std::uint16_t u16(std::size_t o) const noexcept { return etwctl::detail::load<std::uint16_t>(p_, o); }
    std::uint32_t u32(std::size_t o) const noexcept { return etwctl::detail::load<std::uint32_t>(p_, o); }
    std::uint64_t u64(std::size_t o) const noexcept { return etwctl::detail::load<std::uint64_t>(p_, o); }
    std::byte const* p_ = nullptr;
};

// ---- record headers ----------------------------------------------------------------------------------

/// The header kinds of records in a buffer (NTWMI TRACE_HEADER_TYPE_*; Chappell, "Trace Headers").
enum class record_kind : std::uint8_t {
    system,   ///< SYSTEM_TRACE_HEADER: hook id, thread and process, timestamp, kernel/user time (0x20 bytes)
    compact,  ///< the first 0x18 bytes of SYSTEM_TRACE_HEADER (no kernel/user time)
    perfinfo, ///< PERFINFO_TRACE_HEADER: hook id and timestamp (0x10 bytes) + PMC / PEBS values
    full,     ///< EVENT_TRACE_HEADER of classic (MOF) providers: an event GUID, type, level, version (0x30)
    instance, ///< EVENT_INSTANCE_GUID_HEADER: the full header + instance ids and a parent GUID (0x48)
    event,    ///< EVENT_HEADER of manifest, EventSource and TraceLogging providers (0x50) + extended items
    message,  ///< MESSAGE_TRACE_HEADER of WPP / TraceMessage (8 bytes + the fields its flags select)
};
constexpr std::string_view to_string(record_kind k) noexcept {
    switch (k) {
    case record_kind::system: return "system";
    case record_kind::compact: return "compact";
    case record_kind::perfinfo: return "perfinfo";
    case record_kind::full: return "full";
    case record_kind::instance: return "instance";
    case record_kind::event: return "event";
    case record_kind::message: return "message";
    }
    return "?";
}

/// TRACE_HEADER_TYPE_* (NTWMI): the header-type byte of a record (byte 2 when byte 3 has 0xC0).
namespace header_type {
inline constexpr std::uint8_t system32 = 0x01, system64 = 0x02;
inline constexpr std::uint8_t compact32 = 0x03, compact64 = 0x04;
inline constexpr std::uint8_t full_header32 = 0x0A, full_header64 = 0x14;
inline constexpr std::uint8_t instance32 = 0x0B, instance64 = 0x15;
inline constexpr std::uint8_t message = 0x0F;
inline constexpr std::uint8_t perfinfo32 = 0x10, perfinfo64 = 0x11;
inline constexpr std::uint8_t event_header32 = 0x12, event_header64 = 0x13;
} // namespace header_type

/// EVENT_HEADER_EXT_TYPE_* (SDK evntcons.h).
namespace ext_type {
inline constexpr std::uint16_t related_activityid = 0x0001;
inline constexpr std::uint16_t sid = 0x0002;
inline constexpr std::uint16_t ts_id = 0x0003;
inline constexpr std::uint16_t instance_info = 0x0004;
inline constexpr std::uint16_t stack_trace32 = 0x0005;
inline constexpr std::uint16_t stack_trace64 = 0x0006;
inline constexpr std::uint16_t pebs_index = 0x0007;
inline constexpr std::uint16_t pmc_counters = 0x0008;
inline constexpr std::uint16_t psm_key = 0x0009;
inline constexpr std::uint16_t event_key = 0x000A;
inline constexpr std::uint16_t event_schema_tl = 0x000B;
inline constexpr std::uint16_t prov_traits = 0x000C;
inline constexpr std::uint16_t process_start_key = 0x000D;
inline constexpr std::uint16_t control_guid = 0x000E;
inline constexpr std::uint16_t qpc_delta = 0x000F;
inline constexpr std::uint16_t container_id = 0x0010;
inline constexpr std::uint16_t stack_key32 = 0x0011;
inline constexpr std::uint16_t stack_key64 = 0x0012;
} // namespace ext_type
/// The SDK's name of an extended item type without its prefix ("STACK_TRACE64"), or "" for another value.
constexpr std::string_view ext_type_name(std::uint16_t t) noexcept {
    constexpr std::string_view names[] = {"",          "RELATED_ACTIVITYID", "SID",           "TS_ID",
                                          "INSTANCE_INFO", "STACK_TRACE32", "STACK_TRACE64", "PEBS_INDEX",
                                          "PMC_COUNTERS", "PSM_KEY",      "EVENT_KEY",     "EVENT_SCHEMA_TL",
                                          "PROV_TRAITS", "PROCESS_START_KEY", "CONTROL_GUID", "QPC_DELTA",
                                          "CONTAINER_ID", "STACK_KEY32",  "STACK_KEY64"};
    return t < std::size(names) ? names[t] : std::string_view{};
}

/// The thread and process id of records whose header has none (perfinfo records: take the ids from
/// the payload), as consumers see them (0xFFFFFFFF, "-1").
inline constexpr std::uint32_t no_id = 0xFFFFFFFFU;

/// One extended data item of an EVENT_HEADER record, as stored in a buffer: {u16 item size (8 +
/// DataSize), u16 ExtType, u16 linkage (bit 0: another item follows), u16 DataSize, data}, each item
/// 8-aligned after the 0x50-byte header (Chappell, "EVENT_HEADER"; the in-buffer form is inferred from
/// real files and from ProcessTrace's EVENT_HEADER_EXTENDED_DATA_ITEM, whose Reserved1 is the item size).
struct extended_item {
    std::uint16_t type = 0;
    bytes_view data{};
};

/// MESSAGE_TRACE_HEADER's option flags (NTWMI TRACE_MESSAGE_*; evntrace.h).
namespace message_flag {
inline constexpr std::uint16_t sequence = 0x0001;
inline constexpr std::uint16_t guid = 0x0002;
inline constexpr std::uint16_t component_id = 0x0004;
inline constexpr std::uint16_t timestamp = 0x0008;
inline constexpr std::uint16_t performance_timestamp = 0x0010;
inline constexpr std::uint16_t system_info = 0x0020;
inline constexpr std::uint16_t pointer32 = 0x0040;
inline constexpr std::uint16_t pointer64 = 0x0080;
} // namespace message_flag

namespace detail {
struct record_access;
/// A record's identity from its header, in one 8-byte word: record_reader::read_hook builds it from the
/// header's first 8 bytes and the header type's table entry (record_types) with a few shifts, one store.
struct record_bits {
    hook_id hook{};
    std::uint16_t version = 0;
    record_kind kind = record_kind::system;
    std::uint8_t type = 0;
    std::uint8_t pointer_size = 8;
    std::uint8_t extension = 0; ///< perfinfo: the PMC count (bits 0-2) and the PEBS flag (bit 7), as in the header's byte 1
};
static_assert(sizeof(record_bits) == 8 && std::is_trivially_copyable_v<record_bits>);
static_assert(std::endian::native == std::endian::little, "etwctl: record_bits is built from a header word read as little-endian");
} // namespace detail

/// One record of a buffer, decoded from its header: which kind, its size, its identity (a hook id, an
/// event GUID + type, or a provider + EVENT_DESCRIPTOR), thread, process, timestamp, and its payload.
/// A view: the bytes stay the caller's (or the reader's decompression storage).
class record {
public:
    constexpr record() noexcept = default;

    record_kind kind() const noexcept { return bits_.kind; }
    std::uint8_t header_type() const noexcept { return bits_.type; }
    /// The payload's pointer size: 4 for the *32 header types, 8 for the *64 ones (a 64-bit trace holds
    /// 32-bit records of WOW64 processes; the file header's PointerSize is the session's default only).
    std::uint8_t pointer_size() const noexcept { return bits_.pointer_size; }
    /// The whole record (its size field's bytes, not the padding to the next one).
    bytes_view bytes() const noexcept { return bytes_; }
    /// The payload (MOF data / user data), after the header and its extensions or extended items.
    bytes_view payload() const noexcept { return bytes_.subspan(payload_offset_); }
    /// The raw timestamp in the session's clock (trace::clock converts it); 0 for a message record
    /// without TRACE_MESSAGE_TIMESTAMP.
    std::uint64_t timestamp() const noexcept { return timestamp_; }
    /// Thread and process from the header; no_id for perfinfo records (and messages without system info).
    std::uint32_t thread_id() const noexcept { return thread_id_; }
    std::uint32_t process_id() const noexcept { return process_id_; }

    /// system, compact and perfinfo records carry a hook id: (group << 8) | type.
    bool has_hook() const noexcept {
        return bits_.kind == record_kind::system || bits_.kind == record_kind::compact || bits_.kind == record_kind::perfinfo;
    }
    hook_id hook() const noexcept { return bits_.hook; }
    /// The payload's version: the header's version byte (hook records, masked to 8 bits as the kernel
    /// treats it), Class.Version (full, instance) or EVENT_DESCRIPTOR.Version (event).
    std::uint16_t version() const noexcept { return bits_.version; }

    /// full and instance records: the event class GUID, Class.Type (the opcode) and Class.Level.
    guid event_guid() const noexcept { return guid_at() ? load_guid(guid_at()) : guid{}; }
    std::uint8_t opcode() const noexcept {
        return bits_.kind == record_kind::full || bits_.kind == record_kind::instance ? load<std::uint8_t>(4)
               : bits_.kind == record_kind::event                                     ? load<std::uint8_t>(0x2D)
                                                                                      : 0;
    }
    std::uint8_t level() const noexcept {
        return bits_.kind == record_kind::full || bits_.kind == record_kind::instance ? load<std::uint8_t>(5)
               : bits_.kind == record_kind::event                                     ? load<std::uint8_t>(0x2C)
                                                                                      : 0;
    }

    /// event records: the provider, the EVENT_DESCRIPTOR, EVENT_HEADER's Flags and EventProperty, the
    /// activity id; kernel and user time (system, full and event records; 0 where the header has none).
    guid provider_id() const noexcept { return event_guid(); }
    event_descriptor descriptor() const noexcept {
        if (bits_.kind != record_kind::event) return {};
        return {load<std::uint16_t>(0x28), load<std::uint8_t>(0x2A), load<std::uint8_t>(0x2B), load<std::uint8_t>(0x2C),
                load<std::uint8_t>(0x2D), load<std::uint16_t>(0x2E), load<std::uint64_t>(0x30)};
    }
    std::uint16_t event_flags() const noexcept { return bits_.kind == record_kind::event ? load<std::uint16_t>(4) : 0; }
    std::uint16_t event_property() const noexcept { return bits_.kind == record_kind::event ? load<std::uint16_t>(6) : 0; }
    guid activity_id() const noexcept { return bits_.kind == record_kind::event ? load_guid(0x40) : guid{}; }
    std::uint32_t kernel_time() const noexcept { return times_at() ? load<std::uint32_t>(times_at()) : 0; }
    std::uint32_t user_time() const noexcept { return times_at() ? load<std::uint32_t>(times_at() + 4U) : 0; }

    /// instance records: InstanceId, ParentInstanceId, ParentGuid.
    std::uint32_t instance_id() const noexcept { return bits_.kind == record_kind::instance ? load<std::uint32_t>(0x30) : 0; }
    std::uint32_t parent_instance_id() const noexcept { return bits_.kind == record_kind::instance ? load<std::uint32_t>(0x34) : 0; }
    guid parent_guid() const noexcept { return bits_.kind == record_kind::instance ? load_guid(0x38) : guid{}; }

    /// perfinfo records: the PMC counter values after the header (in the order the counters were
    /// configured), and the PEBS index when the header says one is there. No public layout orders the two
    /// when both are present: etwctl reads the PEBS index first, as the one public decoder that handles it
    /// does (inferred, unverified on Windows' own bytes; the kernel sets PEBS only on CSwitch).
    std::uint8_t pmc_count() const noexcept { return static_cast<std::uint8_t>(bits_.extension & 0x07U); }
    std::uint64_t pmc(std::size_t i) const noexcept { return load<std::uint64_t>(pmc_offset() + 8 * i); }
    bool has_pebs() const noexcept { return (bits_.extension & 0x80U) != 0; }
    std::uint64_t pebs_index() const noexcept { return has_pebs() ? load<std::uint64_t>(0x10) : 0; }
    /// Where the PMC values start in bytes().
    std::size_t pmc_offset() const noexcept { return 0x10U + (has_pebs() ? 8U : 0U); }

    /// message records: MessageNumber, the option flags, and the sequence / component id / GUID the flags
    /// selected (0 / nil where absent).
    std::uint16_t message_number() const noexcept { return bits_.kind == record_kind::message ? load<std::uint16_t>(4) : 0; }
    std::uint16_t message_flags() const noexcept { return bits_.kind == record_kind::message ? load<std::uint16_t>(6) : 0; }
    std::uint32_t message_sequence() const noexcept {
        return bits_.kind == record_kind::message && (message_flags() & message_flag::sequence) ? load<std::uint32_t>(8) : 0;
    }
    std::uint32_t message_component_id() const noexcept {
        auto const f = message_flags();
        if (bits_.kind != record_kind::message || (f & message_flag::component_id) == 0) return 0;
        return load<std::uint32_t>((f & message_flag::sequence) ? 12U : 8U);
    }

    /// event records: the extended data items, in order (validated when the record was read).
    class item_range;
    item_range extended_items() const noexcept;
    /// The first item of a type, if any.
    bool find_item(std::uint16_t type, extended_item& out) const noexcept;

private:
    friend struct record_reader;
    friend struct detail::record_access;
    /// Where the header keeps the event GUID / provider id (0: none), kernel and user time (0: none).
    std::size_t guid_at() const noexcept {
        switch (bits_.kind) {
        case record_kind::full: case record_kind::instance: case record_kind::event: return 0x18;
        case record_kind::message: {
            auto const f = message_flags();
            return (f & message_flag::guid) && !(f & message_flag::component_id) ? ((f & message_flag::sequence) ? 12U : 8U) : 0U;
        }
        default: return 0;
        }
    }
    std::size_t times_at() const noexcept {
        switch (bits_.kind) {
        case record_kind::system: return 0x18;
        case record_kind::full: case record_kind::instance: return 0x28;
        case record_kind::event: return 0x38;
        default: return 0;
        }
    }
    template <class T>
    T load(std::size_t o) const noexcept { return etwctl::detail::load<T>(bytes_.data(), o); }
    guid load_guid(std::size_t o) const noexcept {
        guid g;
        g.data1 = load<std::uint32_t>(o);
        g.data2 = load<std::uint16_t>(o + 4);
        g.data3 = load<std::uint16_t>(o + 6);
        for (std::size_t i = 0; i < 8; ++i) g.data4[i] = std::to_integer<std::uint8_t>(bytes_[o + 8 + i]);
        return g;
    }

    bytes_view bytes_{};
    std::uint64_t timestamp_ = 0;
    std::uint32_t payload_offset_ = 0;
    std::uint32_t thread_id_ = no_id, process_id_ = no_id;
    detail::record_bits bits_{};
};

/// The extended items of an event record, iterated in order (the chain was checked when the record was
/// read, so iteration cannot leave the record).
class record::item_range {
public:
    class iterator {
    public:
        using value_type = extended_item;
        using difference_type = std::ptrdiff_t;
        iterator() noexcept = default;
        extended_item operator*() const noexcept {
            if (rec_.size() < at_ + 8) return {};
            auto const data_size = etwctl::detail::load<std::uint16_t>(rec_.data(), at_ + 6);
            return {etwctl::detail::load<std::uint16_t>(rec_.data(), at_ + 2),
                    rec_.subspan(at_ + 8, (std::min)(std::size_t{data_size}, rec_.size() - at_ - 8))};
        }
        iterator& operator++() noexcept {
            auto const linkage = etwctl::detail::load<std::uint16_t>(rec_.data(), at_ + 4);
            auto const item_size = etwctl::detail::load<std::uint16_t>(rec_.data(), at_);
            std::size_t const next = at_ + ((std::size_t{item_size} + 7U) & ~std::size_t{7});
            // the chain was checked when the record was read; a step that does not move forward inside the
            // items ends the walk all the same (never a loop, whatever the bytes are now)
            at_ = (linkage & 1U) != 0 && item_size >= 8 && next < end_ ? next : end_;
            return *this;
        }
        iterator operator++(int) noexcept {
            auto t = *this;
            ++*this;
            return t;
        }
        friend bool operator==(iterator const& a, iterator const& b) noexcept { return a.at_ == b.at_; }

    private:
        friend class item_range;
        iterator(bytes_view rec, std::size_t at, std::size_t end) noexcept : rec_(rec), at_(at), end_(end) {}
        bytes_view rec_{};
        std::size_t at_ = 0, end_ = 0;
    };
    iterator begin() const noexcept { return has_ ? iterator(rec_, 0x50, end_) : end(); }
    iterator end() const noexcept { return iterator(rec_, end_, end_); }
    bool empty() const noexcept { return !has_; }

private:
    friend class record;
    item_range(bytes_view rec, bool has, std::size_t end) noexcept : rec_(rec), end_(end), has_(has) {}
    bytes_view rec_{};
    std::size_t end_ = 0;
    bool has_ = false;
};

inline record::item_range record::extended_items() const noexcept {
    bool const has = bits_.kind == record_kind::event && (event_flags() & 0x0001U) != 0;
    // the items end where the payload begins: iteration stops at the item without linkage and jumps there
    return item_range(bytes_, has, payload_offset_);
}

inline bool record::find_item(std::uint16_t type, extended_item& out) const noexcept {
    for (auto const item : extended_items())
        if (item.type == type) {
            out = item;
            return true;
        }
    return false;
}

namespace detail {
/// What a header-type byte (byte 2 of a record whose byte 3 has 0xC0) says before the record is read: its
/// kind, its header's fixed size (0: no header type a buffer holds), the payload's pointer size (4 for the
/// *32 types), whether the size field is at 0 (EVENT_TRACE_HEADER, EVENT_HEADER) rather than at 4, and
/// whether it carries a hook id (system, compact, perfinfo). NTWMI TRACE_HEADER_TYPE_*; Chappell, "Trace
/// Headers". A table, so that reading a record costs one look-up, not a switch and a second test.
struct record_type_info {
    std::uint8_t fixed = 0;
    std::uint8_t pointer_size = 8;
    record_kind kind = record_kind::system;
    bool size_first = false;
    bool hook = false;
    std::uint8_t extension_mask = 0; ///< perfinfo: byte 1's bits that count PMC values (0x07) and a PEBS index (0x80)
    std::uint64_t bits = 0;          ///< the record_bits word of this type (kind, type, pointer size; the header gives the rest)
};
constexpr record_type_info record_type_of(std::uint8_t type) noexcept {
    switch (type) {
    case header_type::system32: return {0x20, 4, record_kind::system, false, true};
    case header_type::system64: return {0x20, 8, record_kind::system, false, true};
    case header_type::compact32: return {0x18, 4, record_kind::compact, false, true};
    case header_type::compact64: return {0x18, 8, record_kind::compact, false, true};
    case header_type::perfinfo32: return {0x10, 4, record_kind::perfinfo, false, true, 0x87};
    case header_type::perfinfo64: return {0x10, 8, record_kind::perfinfo, false, true, 0x87};
    case header_type::full_header32: return {0x30, 4, record_kind::full, true, false};
    case header_type::full_header64: return {0x30, 8, record_kind::full, true, false};
    case header_type::instance32: return {0x48, 4, record_kind::instance, true, false};
    case header_type::instance64: return {0x48, 8, record_kind::instance, true, false};
    case header_type::event_header32: return {0x50, 4, record_kind::event, true, false};
    case header_type::event_header64: return {0x50, 8, record_kind::event, true, false};
    default: return {};
    }
}
struct record_type_table {
    record_type_info at[256]{};
};
inline constexpr record_type_table record_types = [] {
    record_type_table t;
    for (unsigned i = 0; i < 256; ++i) {
        auto& e = t.at[i];
        e = record_type_of(static_cast<std::uint8_t>(i));
        e.bits = std::bit_cast<std::uint64_t>(record_bits{hook_id{}, 0, e.kind, static_cast<std::uint8_t>(i), e.pointer_size, 0});
    }
    return t;
}();

/// A hook record (SYSTEM_TRACE_HEADER or PERFINFO_TRACE_HEADER) whose writer has just filled its header in:
/// the record record_reader::read decodes from those bytes, set from the values written instead of read
/// back (the live consumer's rebuild, trace/consume.hpp; a test compares the two on every record). The
/// kind and the pointer size come from the header type, as read() takes them (record_types).
struct record_access {
    /// `bits` is the record's identity word (record_bits as a u64: the header type's bits from
    /// record_types, the hook, the version and the PMC / PEBS byte), as the writer built it.
    static void set(record& out, bytes_view bytes, std::uint64_t bits, std::uint64_t timestamp, std::uint32_t payload_offset,
                    std::uint32_t thread_id, std::uint32_t process_id) noexcept {
        out.bytes_ = bytes;
        out.timestamp_ = timestamp;
        out.payload_offset_ = payload_offset;
        out.thread_id_ = thread_id, out.process_id_ = process_id;
        out.bits_ = std::bit_cast<record_bits>(bits);
    }
};
} // namespace detail

/// Reads one record at `at` of a buffer's data (`data` = the buffer from its first byte to its end of
/// data): checks the header kind, the size, and everything the header points at, then fills `out`.
/// Returns the fault (rule::ok and the offset of the next record on success: at + the size rounded up to
/// 8). A record of size 0 or smaller than its header is a fault, never a loop.
struct record_reader {
    struct step {
        rule what = rule::ok;
        std::size_t next = 0;       ///< the next record's offset (success)
        std::uint64_t value = 0;    ///< the value that broke the rule (failure)
        std::uint64_t limit = 0;
    };

    /// The hook, payload and next record's offset of the record at `at` when it is a hook record (system,
    /// compact, perfinfo) whose size read() accepts, from its first 8 bytes; next = 0 for any other record
    /// (read() it: that also reports a fault). For a look-ahead that skips most records unread.
    struct hook_peek {
        std::size_t next = 0;
        hook_id hook{};
        bytes_view payload{};
    };
    static hook_peek peek_hook(bytes_view data, std::size_t at) noexcept {
        auto const end = data.size();
        if (at > end || end - at < 8) return {};
        auto const* const p = data.data() + at;
        if ((std::to_integer<std::uint8_t>(p[3]) & 0xC0U) != 0xC0U) return {};
        std::size_t fixed = 0;
        switch (std::to_integer<std::uint8_t>(p[2])) {
        case header_type::system32: case header_type::system64: fixed = 0x20; break;
        case header_type::compact32: case header_type::compact64: fixed = 0x18; break;
        case header_type::perfinfo32: case header_type::perfinfo64: {
            auto const ext = std::to_integer<std::uint8_t>(p[1]);
            fixed = 0x10 + 8U * (std::size_t{ext & 0x07U} + ((ext & 0x80U) != 0 ? 1U : 0U));
            break;
        }
        default: return {};
        }
        std::size_t const size = etwctl::detail::load<std::uint16_t>(p, 4);
        if (size < fixed || size > end - at) return {};
        return {(std::min)(at + ((size + 7U) & ~std::size_t{7}), end), hook_id(etwctl::detail::load<std::uint16_t>(p, 6)),
                data.subspan(at + fixed, size - fixed)};
    }

    /// read() for every record: the hook records a kernel trace is made of (system, compact, perfinfo) on
    /// their header's first 8 bytes, in line (read_hook); any other record, and any record that breaks a
    /// rule, by read_any (the same checks, the same result).
    ETWCTL_INLINE_ALWAYS static step read(bytes_view data, std::size_t at, record& out) noexcept {
        auto const end = data.size();
        if (at <= end && end - at >= 8) {
            if (std::size_t const advance = read_hook(data.data() + at, end - at, out)) return {rule::ok, at + advance, 0, 0};
        }
        return read_any(data, at, out);
    }
    /// The in-line part of read(): the hook record at `p`, with `left` >= 8 bytes of data from it, read
    /// into `out` if it is one whose header read() accepts. Returns the offset of the next record from
    /// `p` (the size rounded up to 8, at most `left`), or 0 (out untouched): read_any reads it or says
    /// which rule it broke. The 0xFF fill after a buffer's last record has no hook type: 0.
    ETWCTL_INLINE_ALWAYS static std::size_t read_hook(std::byte const* p, std::size_t left, record& out) noexcept {
        auto const word = etwctl::detail::load<std::uint64_t>(p, 0);
        auto const& t = detail::record_types.at[(word >> 16) & 0xFFU];
        if ((word & 0xC0000000U) != 0xC0000000U || !t.hook) return 0;
        // the entry's fields in locals, read before the stores below (byte stores may alias the table)
        auto const kind = t.kind;
        std::size_t const size = static_cast<unsigned>((word >> 32) & 0xFFFFU);
        auto const ext = (word >> 8) & t.extension_mask; // 0 but for perfinfo: the PMC count (bits 0-2) and the PEBS flag (bit 7)
        std::size_t const payload = t.fixed + 8U * ((ext & 0x07U) + (ext >> 7));
        if (size < payload || size > left) return 0; // read_any reports which rule it broke
        out.bytes_ = bytes_view(p, size);
        out.payload_offset_ = static_cast<std::uint32_t>(payload);
        // hook, version, kind, type, pointer size and extension as one word: the table's part and the header's
        out.bits_ = std::bit_cast<detail::record_bits>(t.bits | (word >> 48) | ((word & 0xFFU) << 16) | (ext << 56));
        if (kind == record_kind::perfinfo) {
            out.thread_id_ = no_id, out.process_id_ = no_id;
            out.timestamp_ = etwctl::detail::load<std::uint64_t>(p, 8);
        } else { // size >= 0x18
            out.thread_id_ = etwctl::detail::load<std::uint32_t>(p, 8);
            out.process_id_ = etwctl::detail::load<std::uint32_t>(p, 0x0C);
            out.timestamp_ = etwctl::detail::load<std::uint64_t>(p, 0x10);
        }
        return (std::min)((size + 7U) & ~std::size_t{7}, left);
    }

    /// read() for any record (not inlined: full, instance, event and message records, and faults).
    static step read_any(bytes_view data, std::size_t at, record& out) noexcept {
        auto const end = data.size();
        if (at > end || end - at < 4) return {rule::trace_record_past_buffer, 0, 4, end - (std::min)(at, end)};
        auto const* const p = data.data() + at;
        auto const b2 = std::to_integer<std::uint8_t>(p[2]);
        auto const b3 = std::to_integer<std::uint8_t>(p[3]);
        std::size_t size = 0;
        std::size_t fixed = 0;
        // every field the record keeps is set below for every kind (the rest is read from the bytes)
        out.thread_id_ = no_id, out.process_id_ = no_id;
        out.timestamp_ = 0;
        out.bits_.hook = hook_id{};
        out.bits_.version = 0;
        out.bits_.extension = 0;
        if ((b3 & 0xC0U) == 0xC0U) {
            auto const& t = detail::record_types.at[b2];
            if (t.fixed == 0) return {rule::trace_record_kind, 0, b2, 0};
            out.bits_.type = b2, out.bits_.kind = t.kind, fixed = t.fixed;
            if (!t.size_first && end - at < 8) return {rule::trace_record_past_buffer, 0, 8, end - at};
            size = etwctl::detail::load<std::uint16_t>(p, t.size_first ? 0 : 4);
            out.bits_.pointer_size = t.pointer_size;
        } else if ((b3 & 0xD0U) == 0x90U) {
            // MESSAGE_TRACE_HEADER: TRACE_HEADER_FLAG | TRACE_MESSAGE without TRACE_HEADER_EVENT_TRACE
            out.bits_.kind = record_kind::message, out.bits_.type = header_type::message, fixed = 8;
            size = etwctl::detail::load<std::uint16_t>(p, 0);
        } else {
            return {rule::trace_record_kind, 0, b3, 0};
        }
        if (size < fixed) return {rule::trace_record_size, 0, size, fixed};
        if (size > end - at) return {rule::trace_record_past_buffer, 0, size, end - at};
        out.bytes_ = data.subspan(at, size);
        std::size_t payload = fixed;

        switch (out.bits_.kind) {
        case record_kind::system:
        case record_kind::compact:
            out.bits_.version = std::to_integer<std::uint8_t>(p[0]);
            out.bits_.hook = hook_id(etwctl::detail::load<std::uint16_t>(p, 6));
            out.thread_id_ = etwctl::detail::load<std::uint32_t>(p, 8);
            out.process_id_ = etwctl::detail::load<std::uint32_t>(p, 0x0C);
            out.timestamp_ = etwctl::detail::load<std::uint64_t>(p, 0x10);
            break;
        case record_kind::perfinfo: {
            out.bits_.version = std::to_integer<std::uint8_t>(p[0]);
            auto const ext = std::to_integer<std::uint8_t>(p[1]);
            out.bits_.extension = static_cast<std::uint8_t>(ext & 0x87U);
            out.bits_.hook = hook_id(etwctl::detail::load<std::uint16_t>(p, 6));
            out.timestamp_ = etwctl::detail::load<std::uint64_t>(p, 8);
            payload += 8U * (std::size_t{out.pmc_count()} + (out.has_pebs() ? 1U : 0U));
            if (payload > size) return {rule::trace_record_size, 0, size, payload};
            break;
        }
        case record_kind::full:
        case record_kind::instance:
            out.bits_.version = etwctl::detail::load<std::uint16_t>(p, 6);
            out.thread_id_ = etwctl::detail::load<std::uint32_t>(p, 8);
            out.process_id_ = etwctl::detail::load<std::uint32_t>(p, 0x0C);
            out.timestamp_ = etwctl::detail::load<std::uint64_t>(p, 0x10);
            break;
        case record_kind::event: {
            out.thread_id_ = etwctl::detail::load<std::uint32_t>(p, 8);
            out.process_id_ = etwctl::detail::load<std::uint32_t>(p, 0x0C);
            out.timestamp_ = etwctl::detail::load<std::uint64_t>(p, 0x10);
            out.bits_.version = std::to_integer<std::uint8_t>(p[0x2A]);
            if ((etwctl::detail::load<std::uint16_t>(p, 4) & 0x0001U) != 0) {
                // the items' chain: each 8-aligned, each inside the record, the last one without linkage
                std::size_t item = 0x50;
                for (;;) {
                    if (size - item < 8) return {rule::trace_extended_item, item, size, item + 8};
                    auto const item_size = etwctl::detail::load<std::uint16_t>(p, item);
                    auto const data_size = etwctl::detail::load<std::uint16_t>(p, item + 6);
                    auto const linkage = etwctl::detail::load<std::uint16_t>(p, item + 4);
                    if (std::size_t{data_size} + 8U > item_size || item_size > size - item)
                        return {rule::trace_extended_item, item, item_size, size - item};
                    std::size_t const next = item + ((std::size_t{item_size} + 7U) & ~std::size_t{7});
                    if ((linkage & 1U) == 0) {
                        payload = (std::min)(next, size);
                        break;
                    }
                    if (next >= size) return {rule::trace_extended_item, item, next, size};
                    item = next;
                }
            }
            break;
        }
        case record_kind::message: {
            auto const flags = etwctl::detail::load<std::uint16_t>(p, 6);
            std::size_t o = 8;
            auto take = [&](std::size_t n) noexcept { // the optional fields, each present if its flag is set
                std::size_t const at_field = o;
                o += n;
                return at_field;
            };
            std::size_t seq = 0, comp = 0, ts = 0, sys = 0;
            if (flags & message_flag::sequence) seq = take(4);
            if (flags & message_flag::component_id) comp = take(4);
            else if (flags & message_flag::guid) take(16);
            if (flags & message_flag::timestamp) ts = take(8);
            if (flags & message_flag::system_info) sys = take(8);
            if (o > size) return {rule::trace_record_size, 0, size, o};
            (void)seq, (void)comp;
            if (ts) out.timestamp_ = etwctl::detail::load<std::uint64_t>(p, ts);
            if (sys) {
                out.thread_id_ = etwctl::detail::load<std::uint32_t>(p, sys);
                out.process_id_ = etwctl::detail::load<std::uint32_t>(p, sys + 4);
            }
            out.bits_.pointer_size = (flags & message_flag::pointer32) ? 4 : 8;
            payload = o;
            break;
        }
        }
        out.payload_offset_ = static_cast<std::uint32_t>(payload);
        std::size_t const advance = (size + 7U) & ~std::size_t{7};
        return {rule::ok, (std::min)(at + advance, end), 0, 0};
    }
};

/// Whether `at` of a buffer's data marks its end: the data ends, or the rest is the 0xFF fill Windows
/// leaves in a buffer's unused tail (a size field of 0xFFFF... is never a record; inferred from files).
inline bool at_end_of_records(bytes_view data, std::size_t at) noexcept {
    if (at >= data.size()) return true;
    if (data.size() - at < 4) return false; // a fragment: record_reader reports it
    return etwctl::detail::load<std::uint32_t>(data.data(), at) == 0xFFFFFFFFU;
}

} // namespace trace
ETWCTL_END_NAMESPACE
