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

namespace detail::session_block {

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

} // namespace detail::session_block

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
    block_fields const b = detail::session_block::read(props);
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
    name_scan const file = detail::session_block::scan(props, f.buffer_size, f.log_file_name_offset, unit);
    f.log_file_terminated = !file.present || file.terminated;
    f.log_file_length = file.length;
    if (file.present && file.terminated)
        f.newfile_pattern_ok = check_newfile_pattern(f.log_file_mode, file.length, [&](std::size_t i) {
                                   return detail::session_block::unit_at(props, f.log_file_name_offset, unit, i);
                               }) == rule::ok;
    return f;
}

/// ControlTrace's checks over a caller's arguments and block (check_control, and check_update for
/// EVENT_TRACE_CONTROL_UPDATE), read as Windows reads them: a name decides when it is given and not empty.
template <class Char>
rule check_control_call(std::uint64_t handle, Char const* instance_name, void const* props, std::uint32_t code) noexcept {
    name_scan const n = scan_name(instance_name, limits::max_session_name_length);
    bool const name_given = n.present && n.length != 0;
    block_fields b{};
    if (props) b = detail::session_block::read(props);
    bool const guid_ok = !name_given || !n.terminated ||
                         check_kernel_logger_guid(b.v1.wnode.guid, std::basic_string_view<Char>(instance_name, n.length)) == rule::ok;
    if (rule const r = check_control(props != nullptr, b.buffer_size, b.v1.wnode.flags, b.v1.logger_name_offset,
                                     b.v1.log_file_name_offset, name_given, handle, guid_ok);
        r != rule::ok)
        return r;
    if (code == static_cast<std::uint32_t>(control_code::update)) return check_update(b.v1.log_file_mode, b.v1.log_file_name_offset);
    return rule::ok;
}

/// Each entry of QueryAllTraces' array: not NULL, its size and offsets as StartTrace checks them
/// (QueryAllTracesW: set Wnode.BufferSize, LoggerNameOffset and LogFileNameOffset in each).
inline rule check_query_all_entry(void const* p) noexcept {
    if (p == nullptr) return rule::session_argument_null;
    block_fields const b = detail::session_block::read(p);
    if (rule const r = check_properties_size(b.buffer_size, b.v1.wnode.flags); r != rule::ok) return r;
    return check_name_offsets(b.buffer_size, b.v1.logger_name_offset, b.v1.log_file_name_offset);
}

/// ENABLE_TRACE_PARAMETERS as read from a caller's pointer.
struct enable_parameters_view {
    std::uint32_t version = 0; ///< 0: no parameters
    std::uint32_t enable_property = 0;
    guid source_id{};
    event_filter_descriptor const* filters = nullptr;
    std::uint32_t filter_count = 0; ///< version 2 only
};
inline enable_parameters_view read_enable_parameters(void const* params) noexcept {
    enable_parameters_view v;
    if (params == nullptr) return v;
    v.version = detail::load<std::uint32_t>(params, offsetof(enable_trace_parameters, version));
    v.enable_property = detail::load<std::uint32_t>(params, offsetof(enable_trace_parameters, enable_property));
    v.source_id = detail::load<guid>(params, offsetof(enable_trace_parameters, source_id));
    v.filters = detail::load<event_filter_descriptor const*>(params, offsetof(enable_trace_parameters, enable_filter_desc));
    if (v.version == enable_trace_parameters_version)
        v.filter_count = detail::load<std::uint32_t>(params, offsetof(enable_trace_parameters, filter_desc_count));
    return v;
}
/// The i-th filter descriptor of checked parameters.
inline event_filter_descriptor filter_at(enable_parameters_view const& v, std::size_t i) noexcept {
    return detail::load<event_filter_descriptor>(v.filters + i);
}
/// The filter's facts for check_enable_filter (the Count of EVENT_ID / STACKWALK read from its data).
inline enable_filter_facts filter_facts(event_filter_descriptor const& d) noexcept {
    enable_filter_facts f{d.type, d.size, d.ptr != 0, 0};
    if (d.type == filter_type::pid) f.items = d.size / 4;
    if ((d.type == filter_type::event_id || d.type == filter_type::stackwalk) && d.ptr != 0 &&
        d.size >= sizeof(event_filter_event_id_header))
        f.items = detail::load<event_filter_event_id_header>(reinterpret_cast<void const*>(static_cast<std::uintptr_t>(d.ptr))).count;
    return f;
}
/// EnableTraceEx2's checks over its arguments (check_enable, check_enable_code, check_enable_parameters,
/// check_enable_filter for each filter, check_enable_filter_types).
inline rule check_enable_call(std::uint64_t handle, void const* provider, std::uint32_t code, void const* params) noexcept {
    if (rule const r = check_enable(handle, provider != nullptr); r != rule::ok) return r;
    if (rule const r = check_enable_code(code); r != rule::ok) return r;
    if (params == nullptr) return rule::ok;
    enable_parameters_view const v = read_enable_parameters(params);
    if (rule const r = check_enable_parameters(v.version, v.filter_count, v.filters != nullptr); r != rule::ok) return r;
    std::uint32_t types[limits::max_event_filters] = {};
    for (std::uint32_t i = 0; i < v.filter_count; ++i) {
        event_filter_descriptor const d = filter_at(v, i);
        if (rule const r = check_enable_filter(filter_facts(d)); r != rule::ok) return r;
        types[i] = d.type;
    }
    return check_enable_filter_types(types, v.filter_count);
}

ETWCTL_END_NAMESPACE
