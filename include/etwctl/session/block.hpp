// etwctl/session/block.hpp - a caller's properties block read and written in place: the facts the
// checks of session/checks.hpp need (read from the raw bytes, never past Wnode.BufferSize), the names at
// LoggerNameOffset / LogFileNameOffset, and the write-back of a session's properties and names.
// Used by the drop-in functions (session/compat.hpp) and by the simulated kernel, so both read a block
// the same way. A block is any memory that begins with EVENT_TRACE_PROPERTIES (or _V2): its extent is
// Wnode.BufferSize, whatever the caller's type (PerfView's byte buffer, krabsetw's struct with two
// MAX_PATH arrays, a struct derived from EVENT_TRACE_PROPERTIES).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/session/checks.hpp"
#include "etwctl/session/layouts.hpp"

ETWCTL_BEGIN_NAMESPACE

/// What a scan of a NUL-terminated name found.
struct name_scan {
    bool present = false;    ///< not NULL (for a name in a block: the offset is not 0)
    bool terminated = false; ///< a NUL within the limit (in a block: before Wnode.BufferSize)
    std::size_t length = 0;  ///< characters before the NUL (or scanned, when not terminated)
};

/// Scans a caller's name argument for its NUL, reading at most `limit` + 1 characters (a longer
/// name is reported as unterminated with length `limit` + 1: it breaks the 1024-character rule).
template <class Char>
name_scan scan_name(Char const* s, std::size_t limit) noexcept {
    name_scan r;
    if (s == nullptr) return r;
    r.present = true;
    for (std::size_t i = 0; i <= limit; ++i)
        if (s[i] == Char{}) {
            r.terminated = true;
            r.length = i;
            return r;
        }
    r.length = limit + 1;
    return r;
}

/// The fixed fields of a block (EVENT_TRACE_PROPERTIES, and the V2 fields when the block is _V2),
/// read from raw memory.
struct block_fields {
    std::uint32_t buffer_size = 0;
    event_trace_properties v1{};
    bool v2 = false;               ///< WNODE_FLAG_VERSIONED_PROPERTIES and room for the V2 structure
    std::uint32_t filter_desc_count = 0;
    bool filter_desc_present = false;
    std::uint64_t v2_options = 0;
};

namespace block {

inline std::uint32_t buffer_size(void const* p) noexcept { return detail::load<std::uint32_t>(p, 0); }

/// Reads the fields; only what lies inside Wnode.BufferSize (a block smaller than the structure
/// yields its BufferSize only).
inline block_fields read(void const* p) noexcept {
    block_fields f;
    f.buffer_size = buffer_size(p);
    if (f.buffer_size < sizeof(event_trace_properties)) return f;
    std::memcpy(&f.v1, p, sizeof f.v1);
    if ((f.v1.wnode.flags & wnode_flag::versioned_properties) != 0 && f.buffer_size >= sizeof(event_trace_properties_v2)) {
        f.v2 = true;
        f.filter_desc_count = detail::load<std::uint32_t>(p, offsetof(event_trace_properties_v2, filter_desc_count));
        f.filter_desc_present = detail::load<event_filter_descriptor*>(p, offsetof(event_trace_properties_v2, filter_desc)) != nullptr;
        f.v2_options = detail::load<std::uint64_t>(p, offsetof(event_trace_properties_v2, v2_options));
    }
    return f;
}

/// The name at `offset` inside the block, in units of `unit` bytes (2: WCHAR, 1: CHAR), scanned for
/// its NUL up to Wnode.BufferSize.
inline name_scan scan(void const* p, std::uint32_t size, std::uint32_t offset, std::uint32_t unit) noexcept {
    name_scan r;
    if (offset == 0 || offset >= size) return r;
    r.present = true;
    auto const* b = static_cast<unsigned char const*>(p);
    std::size_t i = 0;
    for (std::size_t at = offset; at + unit <= size; at += unit, ++i) {
        bool const nul = unit == 1 ? b[at] == 0 : (b[at] | b[at + 1]) == 0;
        if (nul) {
            r.terminated = true;
            r.length = i;
            return r;
        }
    }
    r.length = i;
    return r;
}

/// The character at index i of a block name (unit 2: UTF-16 little-endian as stored; unit 1: a byte).
inline char16_t unit_at(void const* p, std::uint32_t offset, std::uint32_t unit, std::size_t i) noexcept {
    auto const* b = static_cast<unsigned char const*>(p) + offset;
    if (unit == 1) return static_cast<char16_t>(b[i]);
    return static_cast<char16_t>(b[2 * i] | (b[2 * i + 1] << 8));
}

/// Writes `name` and its NUL at `offset` as `unit`-byte characters (CHAR: each unit's low byte).
/// Precondition: the caller checked that it fits inside the block.
inline void put_name(void* p, std::uint32_t offset, std::uint32_t unit, std::u16string_view name) noexcept {
    auto* b = static_cast<unsigned char*>(p) + offset;
    for (std::size_t i = 0; i <= name.size(); ++i) {
        char16_t const c = i < name.size() ? name[i] : u'\0';
        if (unit == 1) {
            b[i] = static_cast<unsigned char>(c);
        } else {
            b[2 * i] = static_cast<unsigned char>(c & 0xFFU);
            b[2 * i + 1] = static_cast<unsigned char>(c >> 8);
        }
    }
}

/// Whether a name of `length` characters (and its NUL) fits at `offset`: before Wnode.BufferSize, and
/// before the other name's offset when that one follows it (Microsoft: the session name comes first).
constexpr bool name_fits(std::uint32_t size, std::uint32_t offset, std::uint32_t other_offset, std::uint32_t unit,
                         std::size_t length) noexcept {
    std::uint64_t const end = std::uint64_t{offset} + std::uint64_t{unit} * (length + 1);
    std::uint64_t const limit = other_offset > offset && other_offset < size ? other_offset : size;
    return offset != 0 && end <= limit;
}

} // namespace block

/// StartTrace's facts from a caller's name and block (`Char`: the name's character type; `unit`: the
/// block's character size, 2 for StartTraceW, 1 for StartTraceA).
template <class Char>
start_facts read_start_facts(bool handle_pointer_present, Char const* name, void const* props, std::uint32_t unit) noexcept {
    start_facts f;
    f.handle_pointer_present = handle_pointer_present;
    f.properties_present = props != nullptr;
    f.unit = unit;
    name_scan const n = scan_name(name, limits::max_session_name_length);
    f.name_present = n.present;
    f.name_length = n.length;
    if (props == nullptr) return f;
    block_fields const b = block::read(props);
    f.buffer_size = b.buffer_size;
    if (b.buffer_size < sizeof(event_trace_properties)) return f; // check_start stops at the size
    f.wnode_flags = b.v1.wnode.flags;
    f.session_guid = b.v1.wnode.guid;
    f.log_file_mode = b.v1.log_file_mode;
    f.maximum_file_size = b.v1.maximum_file_size;
    f.enable_flags = b.v1.enable_flags;
    f.logger_name_offset = b.v1.logger_name_offset;
    f.log_file_name_offset = b.v1.log_file_name_offset;
    f.filter_desc_count = b.filter_desc_count;
    f.filter_desc_present = b.filter_desc_present;
    if ((f.enable_flags & 0x80000000U) != 0 && ((f.enable_flags >> 16) & 0xFFU) == 0xFF) {
        std::uint32_t const at = f.enable_flags & 0xFFFFU; // the item format's header: USHORT Length (ULONGs)
        if (at >= sizeof(event_trace_properties) && std::uint64_t{at} + 2 <= b.buffer_size)
            f.enable_flags_item_length = detail::load<std::uint16_t>(props, at);
    }
    if (n.terminated) {
        std::basic_string_view<Char> const v(name, n.length);
        f.name_reserved = reserved_session_of_name(v);
        f.kernel_logger_guid_ok = check_kernel_logger_guid(f.session_guid, v) == rule::ok;
    }
    if (check_name_offsets(f.buffer_size, f.logger_name_offset, f.log_file_name_offset) != rule::ok) return f;
    name_scan const file = block::scan(props, f.buffer_size, f.log_file_name_offset, unit);
    f.log_file_terminated = !file.present || file.terminated;
    f.log_file_length = file.length;
    if (file.present && file.terminated)
        f.newfile_pattern_ok = check_newfile_pattern(f.log_file_mode, file.length, [&](std::size_t i) {
                                   return block::unit_at(props, f.log_file_name_offset, unit, i);
                               }) == rule::ok;
    return f;
}

ETWCTL_END_NAMESPACE
