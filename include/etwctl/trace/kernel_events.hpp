// SPDX-License-Identifier: MIT
// etwctl/trace/kernel_events.hpp - typed views of the NT Kernel Logger's classic event payloads.
//
// A kernel record (SYSTEM or PERFINFO header) is identified by its hook id (Group << 8 | Type), the
// header's version byte and the pointer size of its header kind (4 for the *32 header types, 8 for *64).
// The payload that follows the header has no self-description: its layout is fixed by those three. Each
// view below covers one layout; `check()` says whether a payload fits a layout the sources document and
// the view refuses anything else rather than misreading it. The rules every check applies:
//   * pointer size 4 or 8 (Microsoft Learn "Event Tracing MOF Qualifiers": Pointer / SizeT fields take the
//     event's pointer size; Geoff Chappell "Trace Headers": a *32 header is followed by 32-bit data);
//   * a version a source documents for that hook;
//   * a payload at least as long as the layout. A LONGER payload is accepted and its tail ignored: newer
//     Windows appends fields to a version without changing it (TraceEvent's KernelTraceEventParser.cs reads
//     known optional tails by length the same way);
//   * every string the layout needs is NUL-terminated inside the payload.
//
// Sources, named per layout below:
//   MSL  Microsoft Learn, the MOF class pages EventTrace_Header, SampledProfile, CSwitch, ReadyThread,
//        Thread_TypeGroup1, Thread_V2_TypeGroup1, Thread_V1_TypeGroup1/2, Process_TypeGroup1, Image_Load,
//        StackWalk_Event, and the TRACE_LOGFILE_HEADER / TIME_ZONE_INFORMATION reference pages;
//   SDK  the Windows SDK's evntrace.h (TRACE_LOGFILE_HEADER, EVENT_TRACE_TYPE_*), winnt.h (SID,
//        TOKEN_USER / SID_AND_ATTRIBUTES);
//   NTWMI the NTWMI.H Microsoft shipped in the WDK for Windows 10, as reproduced in winsiderss/phnt ntwmi.h
//        (WMI_EXTENDED_THREAD_INFORMATION, WMI_PROCESS_INFORMATION, WMI_IMAGELOAD_INFORMATION,
//        PERFINFO_SAMPLED_PROFILE_INFORMATION, PERFINFO_PMC_SAMPLE_INFORMATION,
//        PERFINFO_SAMPLED_PROFILE_CONFIG, ETW_READY_THREAD_EVENT, STACK_WALK_EVENT_DATA, the hook names);
//   GC   Geoff Chappell, geoffchappell.com: TRACE_LOGFILE_HEADER, ETW_KERNEL_HEADER_EXTENSION,
//        WMI_CONTEXTSWAP, PERFINFO_TRACE_HEADER, "Hook IDs for NT Kernel Logger Events".
// Where a layout detail rests on no published definition but on real traces and on decoders that work on
// them (TraceEvent, snail-server), the comment says "(I: ...)" - inferred, not documented.
//
// The views read the caller's bytes in place (std::span, no copy, no heap) and never read outside them:
// every accessor reads through a bounds-checked helper, on top of the checked layout.
//
// Names: the views are in etwctl::trace::layout (trace/events.hpp joins each to its record under the
// plain name, e.g. trace::sampled_profile); payload_ref, layout_fault and clock_type are in etwctl::trace;
// layout::view_for_hook<Hook>::type maps a hook id to its view at compile time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>
#include <type_traits>

#include <gsl/assert>

#include "etwctl/config.hpp"
#include "etwctl/detail/bytes.hpp"
#include "etwctl/trace/text.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace trace {

/// Why a payload fits no known layout.
enum class layout_fault : std::uint8_t {
    none,             ///< it fits
    too_short,        ///< fewer bytes than the layout (or a variable part) needs
    unknown_version,  ///< the header's version is not one the sources document for this hook
    bad_pointer_size, ///< the header kind gave a pointer size other than 4 or 8
    bad_string,       ///< a string the layout needs has no NUL inside the payload
};

constexpr std::string_view to_string(layout_fault f) noexcept {
    switch (f) {
    case layout_fault::none: return "payload fits the layout";
    case layout_fault::too_short: return "payload shorter than the layout";
    case layout_fault::unknown_version: return "payload version not documented for this event";
    case layout_fault::bad_pointer_size: return "pointer size neither 4 nor 8";
    case layout_fault::bad_string: return "string not terminated inside the payload";
    }
    return "unknown layout fault";
}

/// What a record gives a view: its payload bytes, the header's version byte, and the pointer size of
/// the record's header kind (4 for the *32 header types, 8 for *64).
struct payload_ref {
    std::span<std::byte const> bytes;
    std::uint8_t version = 0;
    std::uint8_t pointer_size = 8;
};

/// ReservedFlags of the header: the session's clock (MSL TRACE_LOGFILE_HEADER "Specifies the clock type";
/// values as WNODE_HEADER.ClientContext: 1 QPC, 2 system time, 3 CPU cycle counter; 0 "raw" is NTWMI's
/// EVENT_TRACE_CLOCK_RAW). Other values are kept as they are (a cast, not a range check).
enum class clock_type : std::uint32_t { raw = 0, qpc = 1, system_time = 2, cpu_cycle = 3 };

// ---- the values fields() hands a visitor ----------------------------------------------------------------
//
// Every view has `template <class Visit> void fields(Visit&& v) const`, which calls v(name, value) once per
// property, in payload order, under the MOF class's property name (MSL; NTWMI's member name where the MOF
// folds several members into one or has no page). `name` is a std::string_view that is valid during the
// call only (numbered names such as "Stack1" are made in a buffer of the call). `value` is one of:
//   std::uint8_t, std::int8_t, std::uint16_t, std::uint32_t, std::int32_t, std::uint64_t
//                      an integer property, in its field's own type (a consumer prints it as a number);
//   trace::address     a property with the MOF Pointer qualifier that holds an address or a kernel object
//                      (InstructionPointer, UniqueProcessKey, ImageBase, stack frames): shown in hex;
//   trace::utf16_text  a UTF-16 string (MOF Format("w")), trace::utf16_text::to_utf8 converts it;
//   std::string_view   an 8-bit string (ImageFileName);
//   trace::sid_bytes   a SID (MOF extension "Sid"), empty when the event has none;
//   trace::byte_array  bytes the MOF declares as a uint8 array (TimeZoneInformation).
// A generic lambda takes them all: [&](std::string_view name, auto const& value) { ... }. No heap, and
// nothing outside the view's payload is read.

/// A pointer-sized value that is an address (MOF Pointer qualifier), zero-extended to 64 bits.
struct address {
    std::uint64_t value = 0;
    friend constexpr bool operator==(address, address) noexcept = default;
};
/// A SID's bytes (winnt.h SID: Revision, SubAuthorityCount, IdentifierAuthority[6], SubAuthority[]).
struct sid_bytes {
    std::span<std::byte const> bytes{};
};
/// A MOF uint8 array's bytes.
struct byte_array {
    std::span<std::byte const> bytes{};
};

/// The typed views, one per payload layout. Kept apart from trace's own names: trace::sampled_profile and
/// the other event types of trace/events.hpp are these views joined to their record (time, stack, PMC).
namespace layout {

/// Pointer-sized entries (stack frames) in a payload, each zero-extended to 64 bits.
class pointer_array {
public:
    constexpr pointer_array() noexcept = default;
    /// `bytes` holds whole entries of `pointer_size` (4 or 8) bytes; a partial last entry is not part of it.
    constexpr pointer_array(std::span<std::byte const> bytes, std::uint8_t pointer_size) noexcept
        : bytes_(bytes), pointer_size_(pointer_size == 4 ? std::uint8_t{4} : std::uint8_t{8}) {}

    constexpr std::size_t size() const noexcept { return bytes_.size() / pointer_size_; }
    constexpr bool empty() const noexcept { return size() == 0; }
    /// The i-th entry (i < size()); 0 outside.
    std::uint64_t operator[](std::size_t i) const noexcept {
        if (i >= size()) return 0;
        if (pointer_size_ == 4) return etwctl::detail::load<std::uint32_t>(bytes_.data(), i * 4);
        return etwctl::detail::load<std::uint64_t>(bytes_.data(), i * 8);
    }

    class iterator {
    public:
        using value_type = std::uint64_t;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() noexcept = default;
        constexpr iterator(pointer_array const* a, std::size_t i) noexcept : a_(a), i_(i) {}
        std::uint64_t operator*() const noexcept { return (*a_)[i_]; }
        constexpr iterator& operator++() noexcept { ++i_; return *this; }
        constexpr iterator operator++(int) noexcept { iterator t = *this; ++i_; return t; }
        friend constexpr bool operator==(iterator const& a, iterator const& b) noexcept { return a.i_ == b.i_; }

    private:
        pointer_array const* a_ = nullptr;
        std::size_t i_ = 0;
    };
    constexpr iterator begin() const noexcept { return {this, 0}; }
    constexpr iterator end() const noexcept { return {this, size()}; }

private:
    std::span<std::byte const> bytes_{};
    std::uint8_t pointer_size_ = 8;
};

namespace detail {

/// The payload of a checked view, read with a bounds check on every access (a view built on a payload
/// that passed check() never fails these; they keep a misuse from reading outside the span).
class kernel_fields {
public:
    constexpr kernel_fields() noexcept = default;
    constexpr explicit kernel_fields(payload_ref p) noexcept : p_(p) {}

    constexpr payload_ref ref() const noexcept { return p_; }
    constexpr std::size_t size() const noexcept { return p_.bytes.size(); }
    constexpr std::size_t pointer_size() const noexcept { return p_.pointer_size; }
    constexpr std::span<std::byte const> bytes() const noexcept { return p_.bytes; }

    /// The T at `offset`, or T{} when it does not fit.
    template <class T>
    T get(std::size_t offset) const noexcept {
        if (offset > size() || size() - offset < sizeof(T)) return T{};
        return etwctl::detail::load<T>(p_.bytes.data(), offset);
    }
    /// The pointer-sized field at `offset`, zero-extended.
    std::uint64_t pointer(std::size_t offset) const noexcept {
        if (p_.pointer_size == 4) return get<std::uint32_t>(offset);
        return get<std::uint64_t>(offset);
    }
    /// Bytes [offset, offset + n), or empty when they do not fit.
    constexpr std::span<std::byte const> slice(std::size_t offset, std::size_t n) const noexcept {
        if (offset > size() || size() - offset < n) return {};
        return p_.bytes.subspan(offset, n);
    }
    /// Bytes from `offset` to the end (empty past the end).
    constexpr std::span<std::byte const> tail(std::size_t offset) const noexcept {
        if (offset >= size()) return {};
        return p_.bytes.subspan(offset);
    }

private:
    payload_ref p_{};
};

/// The checks every layout starts with: pointer size, version in [lowest, highest], and at least
/// `fixed + pointers * pointer_size` bytes.
constexpr layout_fault check_fixed(payload_ref p, std::uint8_t lowest, std::uint8_t highest, std::size_t fixed,
                                   std::size_t pointers) noexcept {
    if (p.pointer_size != 4 && p.pointer_size != 8) return layout_fault::bad_pointer_size;
    if (p.version < lowest || p.version > highest) return layout_fault::unknown_version;
    if (p.bytes.size() < fixed + pointers * p.pointer_size) return layout_fault::too_short;
    return layout_fault::none;
}

/// A string a layout needs at `offset`: missing entirely (offset at or past the end) is too_short,
/// present without its NUL is bad_string.
struct utf16_need {
    layout_fault fault = layout_fault::none;
    utf16_text text{};
    std::size_t next = 0;
};
constexpr utf16_need need_utf16z(std::span<std::byte const> bytes, std::size_t offset) noexcept {
    if (offset >= bytes.size()) return {layout_fault::too_short, {}, bytes.size()};
    utf16_field const f = read_utf16z(bytes, offset);
    if (!f.terminated) return {layout_fault::bad_string, {}, bytes.size()};
    return {layout_fault::none, f.text, f.next};
}
struct ansi_need {
    layout_fault fault = layout_fault::none;
    std::string_view text{};
    std::size_t next = 0;
};
inline ansi_need need_ansiz(std::span<std::byte const> bytes, std::size_t offset) noexcept {
    if (offset >= bytes.size()) return {layout_fault::too_short, {}, bytes.size()};
    ansi_field const f = read_ansiz(bytes, offset);
    if (!f.terminated) return {layout_fault::bad_string, {}, bytes.size()};
    return {layout_fault::none, f.text, f.next};
}

/// A numbered property name ("Stack1", "GroupMask8") made in place, for fields().
class numbered_name {
public:
    constexpr numbered_name(std::string_view prefix, std::size_t number) noexcept {
        for (char c : prefix)
            if (size_ < capacity) text_[size_++] = c;
        char digits[20] = {};
        std::size_t n = 0;
        do {
            digits[n++] = static_cast<char>('0' + number % 10);
            number /= 10;
        } while (number != 0);
        while (n > 0 && size_ < capacity) text_[size_++] = digits[--n];
    }
    constexpr std::string_view view() const noexcept { return {text_, size_}; }

private:
    static constexpr std::size_t capacity = 40;
    char text_[capacity] = {};
    std::size_t size_ = 0;
};

/// Hands fields() values to the caller's visitor with the name as a std::string_view (the documented
/// type, whatever the visitor's parameter is).
template <class Visit>
struct field_sink {
    Visit& v;
    template <class T>
    void operator()(std::string_view name, T const& value) const {
        v(name, value);
    }
};

/// out("Stack1", address), out("Stack2", ...) for each frame.
template <class Sink>
void visit_frames(pointer_array const& frames, Sink const& v) {
    std::size_t i = 0;
    for (std::uint64_t const frame : frames) v(numbered_name("Stack", ++i).view(), address{frame});
}

} // namespace detail


// =====================================================================================================
// EventTrace group (0x00): the header event, the group-mask extension, the rundown marker.
// =====================================================================================================

/// SYSTEMTIME (SDK minwinbase.h): the transition dates inside TIME_ZONE_INFORMATION.
struct system_time {
    std::uint16_t year = 0, month = 0, day_of_week = 0, day = 0, hour = 0, minute = 0, second = 0, milliseconds = 0;
    friend constexpr bool operator==(system_time const&, system_time const&) noexcept = default;
};

/// Hook 0x0000, the header event (MOF class EventTrace_Header): TRACE_LOGFILE_HEADER in its 32- or
/// 64-bit form, then the logger name and the log file name as two NUL-terminated UTF-16 strings.
/// Sources: SDK evntrace.h TRACE_LOGFILE_HEADER (field order and types), GC TRACE_LOGFILE_HEADER (the
/// 32-/64-bit forms, the strings after the struct, Version 2 since 6.0 and 1 before, the Version bytes as
/// OS major.minor and log-file layout version), MSL EventTrace_Header, MSL TRACE_LOGFILE_HEADER.
///
///   off x86  off x64  field
///   0x00     0x00     BufferSize u32             0x2C  0x2C  PointerSize u32
///   0x04     0x04     Major, Minor, Sub, SubMinorVersion u8 each
///   0x08     0x08     ProviderVersion u32        0x30  0x30  EventsLost u32
///   0x0C     0x0C     NumberOfProcessors u32     0x34  0x34  CpuSpeedInMHz u32
///   0x10     0x10     EndTime i64 (FILETIME)     0x38  0x38  LoggerName (p: not a usable pointer)
///   0x18     0x18     TimerResolution u32        0x3C  0x40  LogFileName (p: likewise)
///   0x1C     0x1C     MaximumFileSize u32        0x40  0x48  TimeZone TIME_ZONE_INFORMATION (0xAC) + 4 pad
///   0x20     0x20     LogFileMode u32            0xF0  0xF8  BootTime i64    0xF8  0x100 PerfFreq i64
///   0x24     0x24     BuffersWritten u32         0x100 0x108 StartTime i64   0x108 0x110 ReservedFlags u32
///   0x28     0x28     StartBuffers u32           0x10C 0x114 BuffersLost u32 0x110 0x118 LoggerName string
///
/// The offsets follow from the SDK declaration under each pointer size (8-byte alignment of the i64s);
/// (I: x64 verified on real files; x86 as TraceEvent decodes it).
class logfile_header {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0000}};

    static layout_fault check(payload_ref p) noexcept { return locate(p).fault; }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    logfile_header() noexcept = default;
    explicit logfile_header(payload_ref p) noexcept : f_(p) {
        located const l = locate(p);
        Expects(l.fault == layout_fault::none);
        logger_name_ = l.logger_name;
        log_file_name_ = l.log_file_name;
    }
    payload_ref payload() const noexcept { return f_.ref(); }

    std::uint32_t buffer_size() const noexcept { return f_.get<std::uint32_t>(0x00); } ///< bytes
    /// Version bytes: MajorVersion.MinorVersion = Windows version; SubVersion.SubMinorVersion = the
    /// log-file layout version (GC: 1.0, 1.2, 1.4, 1.5, 2.0). MSL calls the last two reserved.
    std::uint8_t major_version() const noexcept { return f_.get<std::uint8_t>(0x04); }
    std::uint8_t minor_version() const noexcept { return f_.get<std::uint8_t>(0x05); }
    std::uint8_t sub_version() const noexcept { return f_.get<std::uint8_t>(0x06); }
    std::uint8_t sub_minor_version() const noexcept { return f_.get<std::uint8_t>(0x07); }
    std::uint32_t provider_version() const noexcept { return f_.get<std::uint32_t>(0x08); } ///< OS build number
    std::uint32_t number_of_processors() const noexcept { return f_.get<std::uint32_t>(0x0C); }
    std::uint64_t end_time() const noexcept { return f_.get<std::uint64_t>(0x10); } ///< FILETIME; 0 if not finalized
    std::uint32_t timer_resolution() const noexcept { return f_.get<std::uint32_t>(0x18); } ///< 100 ns units
    std::uint32_t maximum_file_size() const noexcept { return f_.get<std::uint32_t>(0x1C); } ///< MB
    std::uint32_t log_file_mode() const noexcept { return f_.get<std::uint32_t>(0x20); }
    std::uint32_t buffers_written() const noexcept { return f_.get<std::uint32_t>(0x24); }
    std::uint32_t start_buffers() const noexcept { return f_.get<std::uint32_t>(0x28); }
    /// The PointerSize field: the session's default (MSL "Event Tracing MOF Qualifiers": a record's own
    /// header kind decides its events' pointer size).
    std::uint32_t pointer_size() const noexcept { return f_.get<std::uint32_t>(0x2C); }
    std::uint32_t events_lost() const noexcept { return f_.get<std::uint32_t>(0x30); }
    std::uint32_t cpu_speed_mhz() const noexcept { return f_.get<std::uint32_t>(0x34); } ///< CpuSpeedInMHz

    /// TimeZone (TIME_ZONE_INFORMATION, SDK timezoneapi.h): Bias i32 @0, StandardName WCHAR[32] @4,
    /// StandardDate @0x44, StandardBias i32 @0x54, DaylightName WCHAR[32] @0x58, DaylightDate @0x98,
    /// DaylightBias i32 @0xA8. Biases in minutes: UTC = local time + bias.
    std::int32_t time_zone_bias() const noexcept { return f_.get<std::int32_t>(time_zone() + 0x00); }
    utf16_text time_zone_standard_name() const noexcept { return fixed_name(time_zone() + 0x04); }
    system_time time_zone_standard_date() const noexcept { return date(time_zone() + 0x44); }
    std::int32_t time_zone_standard_bias() const noexcept { return f_.get<std::int32_t>(time_zone() + 0x54); }
    utf16_text time_zone_daylight_name() const noexcept { return fixed_name(time_zone() + 0x58); }
    system_time time_zone_daylight_date() const noexcept { return date(time_zone() + 0x98); }
    std::int32_t time_zone_daylight_bias() const noexcept { return f_.get<std::int32_t>(time_zone() + 0xA8); }

    /// BootTime, FILETIME (MSL documents it for Global Logger traces only; real files fill it in).
    std::uint64_t boot_time() const noexcept { return f_.get<std::uint64_t>(after_time_zone() + 0x00); }
    std::uint64_t perf_freq() const noexcept { return f_.get<std::uint64_t>(after_time_zone() + 0x08); } ///< QPC ticks/s
    std::uint64_t start_time() const noexcept { return f_.get<std::uint64_t>(after_time_zone() + 0x10); } ///< FILETIME
    std::uint32_t reserved_flags() const noexcept { return f_.get<std::uint32_t>(after_time_zone() + 0x18); }
    /// ReservedFlags as the clock that every record timestamp of the file counts in.
    trace::clock_type clock_type() const noexcept { return static_cast<trace::clock_type>(reserved_flags()); }
    std::uint32_t buffers_lost() const noexcept { return f_.get<std::uint32_t>(after_time_zone() + 0x1C); }

    /// The strings after the struct (MSL: "do not use" the LoggerName / LogFileName pointer fields).
    utf16_text logger_name() const noexcept { return logger_name_; }
    utf16_text log_file_name() const noexcept { return log_file_name_; }

    /// Size of the struct before the strings: 0x110 (x86) / 0x118 (x64).
    static constexpr std::size_t struct_size(std::uint8_t pointer_size) noexcept {
        return 0x108 + 2 * std::size_t{pointer_size};
    }

    /// The properties of MSL EventTrace_Header (see "the values fields() hands a visitor" above).
    /// Version is the four version bytes as one u32, as the MOF has it; LoggerName and LogFileName are the
    /// strings after the struct (the MOF's pointer fields hold no usable value); TimeZoneInformation is
    /// the TIME_ZONE_INFORMATION's 0xAC bytes.
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("BufferSize", buffer_size());
        out("Version", f_.get<std::uint32_t>(0x04));
        out("ProviderVersion", provider_version());
        out("NumberOfProcessors", number_of_processors());
        out("EndTime", end_time());
        out("TimerResolution", timer_resolution());
        out("MaxFileSize", maximum_file_size());
        out("LogFileMode", log_file_mode());
        out("BuffersWritten", buffers_written());
        out("StartBuffers", start_buffers());
        out("PointerSize", pointer_size());
        out("EventsLost", events_lost());
        out("CPUSpeed", cpu_speed_mhz());
        out("LoggerName", logger_name());
        out("LogFileName", log_file_name());
        out("TimeZoneInformation", byte_array{f_.slice(time_zone(), 0xAC)});
        out("BootTime", boot_time());
        out("PerfFreq", perf_freq());
        out("StartTime", start_time());
        out("ReservedFlags", reserved_flags());
        out("BuffersLost", buffers_lost());
    }

private:
    struct located {
        layout_fault fault = layout_fault::none;
        utf16_text logger_name{}, log_file_name{};
    };
    static located locate(payload_ref p) noexcept {
        // Version 1 before Windows 6.0, 2 since (GC); the struct is the same.
        if (layout_fault const f = detail::check_fixed(p, 1, 2, 0x108, 2); f != layout_fault::none) return {f};
        detail::utf16_need const logger = detail::need_utf16z(p.bytes, struct_size(p.pointer_size));
        if (logger.fault != layout_fault::none) return {logger.fault};
        detail::utf16_need const file = detail::need_utf16z(p.bytes, logger.next);
        if (file.fault != layout_fault::none) return {file.fault};
        return {layout_fault::none, logger.text, file.text};
    }
    std::size_t time_zone() const noexcept { return 0x38 + 2 * f_.pointer_size(); }
    std::size_t after_time_zone() const noexcept { return time_zone() + 0xB0; } // 0xAC + 4 bytes of padding
    utf16_text fixed_name(std::size_t offset) const noexcept {
        // WCHAR[32]: the text up to its first NUL, or all 32 characters.
        return read_utf16z(f_.slice(offset, 64), 0).text;
    }
    system_time date(std::size_t o) const noexcept {
        return {f_.get<std::uint16_t>(o), f_.get<std::uint16_t>(o + 2), f_.get<std::uint16_t>(o + 4),
                f_.get<std::uint16_t>(o + 6), f_.get<std::uint16_t>(o + 8), f_.get<std::uint16_t>(o + 10),
                f_.get<std::uint16_t>(o + 12), f_.get<std::uint16_t>(o + 14)};
    }

    detail::kernel_fields f_;
    utf16_text logger_name_{}, log_file_name_{};
};

/// Hooks 0x0005 HeaderExtension ("Extension") and 0x0020 EndExtension (WMI_LOG_TYPE_GROUP_MASKS_END):
/// ETW_KERNEL_HEADER_EXTENSION (GC ETW_KERNEL_HEADER_EXTENSION; NTWMI): the session's group masks
/// (PERFINFO_GROUPMASK, 8 x u32 @0x00-0x1C), then KernelEventVersion u32 @0x20. 0x24 bytes for both
/// pointer sizes; header version 2 since Windows 6.0, 1 before (GC), when the struct was the 0x20 bytes of
/// masks only. An EndExtension carries the old masks, the Extension that follows it the new ones (GC).
class header_extension {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0005}, hook_id{0x0020}};

    static layout_fault check(payload_ref p) noexcept {
        if (layout_fault const f = detail::check_fixed(p, 1, 2, 0x20, 0); f != layout_fault::none) return f;
        if (p.version >= 2 && p.bytes.size() < 0x24) return layout_fault::too_short;
        return layout_fault::none;
    }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    header_extension() noexcept = default;
    explicit header_extension(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    static constexpr std::size_t group_mask_count = 8;
    /// GroupMasks[i], i < 8.
    std::uint32_t group_mask(std::size_t i) const noexcept {
        Expects(i < group_mask_count);
        return f_.get<std::uint32_t>(4 * i);
    }
    /// Whether the payload has KernelEventVersion (header version 2 and later).
    bool has_kernel_event_version() const noexcept { return f_.ref().version >= 2; }
    /// KernelEventVersion; 0 when absent (observed 42 on Windows 8, 85 on Windows 11 22621 - I).
    std::uint32_t kernel_event_version() const noexcept {
        return has_kernel_event_version() ? f_.get<std::uint32_t>(0x20) : 0;
    }

    /// GroupMask1..GroupMask8 and KernelEventVersion (version 2 and later). No MOF page documents this
    /// event: the names are the struct's (GC, NTWMI PERFINFO_GROUPMASK Masks[8]) numbered from 1.
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        for (std::size_t i = 0; i < group_mask_count; ++i) out(detail::numbered_name("GroupMask", i + 1).view(), group_mask(i));
        if (has_kernel_event_version()) out("KernelEventVersion", kernel_event_version());
    }

private:
    detail::kernel_fields f_;
};

/// Hook 0x0008 RundownComplete (NTWMI WMI_LOG_TYPE_RUNDOWN_COMPLETE): a marker without payload. Any size
/// and version is accepted (there is nothing to misread); only the pointer size is checked.
class rundown_complete {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0008}};

    static layout_fault check(payload_ref p) noexcept {
        return detail::check_fixed(p, 0, 0xFF, 0, 0);
    }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    rundown_complete() noexcept = default;
    explicit rundown_complete(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    /// No properties.
    template <class Visit>
    void fields(Visit&&) const {}

private:
    detail::kernel_fields f_;
};

// =====================================================================================================
// PerfInfo group (0x0F): samples, PMC samples and counter names, sampling intervals.
// =====================================================================================================

/// Hook 0x0F2E SampledProfile, version 2 (NTWMI PERFINFO_SAMPLED_PROFILE_INFORMATION; MSL SampledProfile,
/// whose simplified MOF shows three uint32s and calls Count unused):
///   @0 InstructionPointer p | @p ThreadId u32 | @p+4 Count u16 | @p+6 Flags u8 | @p+7 Rank u8
/// Flags: bit 0 ExecutingDpc, bit 1 ExecutingIsr, bits 3-7 Priority (NTWMI bit fields).
class sampled_profile {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0F2E}};

    static layout_fault check(payload_ref p) noexcept { return detail::check_fixed(p, 2, 2, 8, 1); }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    sampled_profile() noexcept = default;
    explicit sampled_profile(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    std::uint64_t instruction_pointer() const noexcept { return f_.pointer(0); }
    std::uint32_t thread_id() const noexcept { return f_.get<std::uint32_t>(p() + 0); }
    std::uint16_t count() const noexcept { return f_.get<std::uint16_t>(p() + 4); }
    std::uint8_t flags() const noexcept { return f_.get<std::uint8_t>(p() + 6); }
    bool executing_dpc() const noexcept { return (flags() & 0x01U) != 0; }
    bool executing_isr() const noexcept { return (flags() & 0x02U) != 0; }
    /// The sampled thread's priority (Flags bits 3-7).
    std::uint8_t priority() const noexcept { return static_cast<std::uint8_t>(flags() >> 3); }
    std::uint8_t rank() const noexcept { return f_.get<std::uint8_t>(p() + 7); }

    /// MSL SampledProfile's InstructionPointer and ThreadId; the MOF's uint32 Count ("not used") is
    /// NTWMI's Count u16, Flags u8 (ExecutingDpc, ExecutingIsr, Priority) and Rank u8, given under those names.
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("InstructionPointer", address{instruction_pointer()});
        out("ThreadId", thread_id());
        out("Count", count());
        out("Flags", flags());
        out("Rank", rank());
    }

private:
    std::size_t p() const noexcept { return f_.pointer_size(); }
    detail::kernel_fields f_;
};

/// Hook 0x0F2F PmcCounterProfile, version 2 (NTWMI PERFINFO_PMC_SAMPLE_INFORMATION): a sample taken on a
/// profile source's overflow.
///   @0 InstructionPointer p | @p ThreadId u32 | @p+4 ProfileSource u16 | @p+6 Reserved u16
class pmc_counter_profile {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0F2F}};

    static layout_fault check(payload_ref p) noexcept { return detail::check_fixed(p, 2, 2, 8, 1); }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    pmc_counter_profile() noexcept = default;
    explicit pmc_counter_profile(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    std::uint64_t instruction_pointer() const noexcept { return f_.pointer(0); }
    std::uint32_t thread_id() const noexcept { return f_.get<std::uint32_t>(f_.pointer_size() + 0); }
    std::uint16_t profile_source() const noexcept { return f_.get<std::uint16_t>(f_.pointer_size() + 4); }

    /// NTWMI PERFINFO_PMC_SAMPLE_INFORMATION's names (no MOF page): InstructionPointer, ThreadId, ProfileSource.
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("InstructionPointer", address{instruction_pointer()});
        out("ThreadId", thread_id());
        out("ProfileSource", profile_source());
    }

private:
    detail::kernel_fields f_;
};

/// Hook 0x0F30 PmcCounterConfig, version 2: CounterCount u32, then CounterCount NUL-terminated UTF-16
/// counter names - the names of the PMC values that annotated records carry, in their order.
/// (I: no published struct; layout from real bytes and snail-server's decoder.)
class pmc_counter_config {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0F30}};

    static layout_fault check(payload_ref p) noexcept {
        if (layout_fault const f = detail::check_fixed(p, 2, 2, 4, 0); f != layout_fault::none) return f;
        // Every name needs at least its 2-byte NUL, so the loop ends within size / 2 steps whatever the count.
        std::uint32_t const n = detail::kernel_fields(p).get<std::uint32_t>(0);
        std::size_t offset = 4;
        for (std::uint32_t i = 0; i < n; ++i) {
            detail::utf16_need const name = detail::need_utf16z(p.bytes, offset);
            if (name.fault != layout_fault::none) return name.fault;
            offset = name.next;
        }
        return layout_fault::none;
    }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    pmc_counter_config() noexcept = default;
    explicit pmc_counter_config(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    std::uint32_t counter_count() const noexcept { return f_.get<std::uint32_t>(0); }
    /// The i-th counter name (i < counter_count()); a walk over the names before it.
    utf16_text name(std::size_t i) const noexcept {
        Expects(i < counter_count());
        utf16_field f{{}, 4, true};
        for (std::size_t k = 0; k <= i; ++k) f = read_utf16z(f_.bytes(), f.next);
        return f.text;
    }

    /// CounterCount, then CounterName1..CounterNameN (no MOF page or published struct: etwctl's names).
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("CounterCount", counter_count());
        utf16_field f{{}, 4, true};
        for (std::uint32_t k = 0; k < counter_count(); ++k) {
            f = read_utf16z(f_.bytes(), f.next);
            out(detail::numbered_name("CounterName", std::size_t{k} + 1).view(), f.text);
        }
    }

private:
    detail::kernel_fields f_;
};

/// Hooks 0x0F48 SampledProfile SetInterval, 0x0F49 CollectionStart, 0x0F4A CollectionEnd (NTWMI
/// PERFINFO_SAMPLED_PROFILE_CONFIG and the hook names):
///   @0 Source u32 | @4 NewInterval u32 | @8 OldInterval u32 | v3: @0xC SourceName UTF-16
/// Versions 2 (no name) and 3. Intervals in 100 ns units (I: 10000 for the 1 ms default timer source).
class sampled_profile_interval {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0F48}, hook_id{0x0F49}, hook_id{0x0F4A}};

    static layout_fault check(payload_ref p) noexcept { return locate(p).fault; }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    sampled_profile_interval() noexcept = default;
    explicit sampled_profile_interval(payload_ref p) noexcept : f_(p) {
        detail::utf16_need const l = locate(p);
        Expects(l.fault == layout_fault::none);
        source_name_ = l.text;
    }
    payload_ref payload() const noexcept { return f_.ref(); }

    std::uint32_t source() const noexcept { return f_.get<std::uint32_t>(0); }
    std::uint32_t new_interval() const noexcept { return f_.get<std::uint32_t>(4); }
    std::uint32_t old_interval() const noexcept { return f_.get<std::uint32_t>(8); }
    /// The profile source's name (version 3; empty on version 2), e.g. "Timer".
    utf16_text source_name() const noexcept { return source_name_; }

    /// NTWMI PERFINFO_SAMPLED_PROFILE_CONFIG's names (no MOF page): Source, NewInterval, OldInterval, and
    /// SourceName in version 3.
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("Source", source());
        out("NewInterval", new_interval());
        out("OldInterval", old_interval());
        if (f_.ref().version >= 3) out("SourceName", source_name());
    }

private:
    static detail::utf16_need locate(payload_ref p) noexcept {
        if (layout_fault const f = detail::check_fixed(p, 2, 3, 0x0C, 0); f != layout_fault::none) return {f};
        if (p.version == 2) return {};
        return detail::need_utf16z(p.bytes, 0x0C);
    }
    detail::kernel_fields f_;
    utf16_text source_name_{};
};

// =====================================================================================================
// Thread group (0x05): thread start/end/rundown, context switch, ready thread.
// =====================================================================================================

/// Hooks 0x0501 Start, 0x0502 End, 0x0503 DCStart, 0x0504 DCEnd: Thread_TypeGroup1 (MSL Thread_TypeGroup1
/// and Thread_V2_TypeGroup1 for the fields; NTWMI WMI_EXTENDED_THREAD_INFORMATION). Offsets:
///   0x00 ProcessId u32        0x08+2p UserStackBase p    0x08+6p TebBase p
///   0x04 ThreadId u32         0x08+3p UserStackLimit p   0x08+7p SubProcessTag u32
///   0x08 StackBase p          0x08+4p Affinity p (v2: StartAddr, MSL Thread_V2_TypeGroup1)
///   0x08+p StackLimit p       0x08+5p Win32StartAddr p
///   v3+: 0x0C+7p BasePriority i8, PagePriority u8, IoPriority u8, ThreadFlags u8
///   v3+: 0x10+7p ThreadName UTF-16 - in v4 always, in v3 only when the payload is longer than 0x10+7p
/// (I: the offsets and the ThreadName rule from real traces and TraceEvent / snail-server; v3 without a
/// name is 0x48 bytes on x64, 0x2C on x86.)
/// Versions 0 and 1 are refused: MSL documents v1 (Thread_V1_TypeGroup1 for Start/DCStart, a different
/// field list, and Thread_V1_TypeGroup2 of 8 bytes for End/DCEnd), but its layout depends on the event
/// type, which a payload_ref does not carry; those Windows XP/2003 traces need their own view.
class thread_event {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0501}, hook_id{0x0502}, hook_id{0x0503}, hook_id{0x0504}};

    static layout_fault check(payload_ref p) noexcept { return locate(p).fault; }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    thread_event() noexcept = default;
    explicit thread_event(payload_ref p) noexcept : f_(p) {
        located const l = locate(p);
        Expects(l.fault == layout_fault::none);
        thread_name_ = l.name;
        has_thread_name_ = l.has_name;
    }
    payload_ref payload() const noexcept { return f_.ref(); }
    std::uint8_t version() const noexcept { return f_.ref().version; }

    std::uint32_t process_id() const noexcept { return f_.get<std::uint32_t>(0x00); }
    /// TThreadId in the MOF.
    std::uint32_t thread_id() const noexcept { return f_.get<std::uint32_t>(0x04); }
    std::uint64_t stack_base() const noexcept { return f_.pointer(slot(0)); }
    std::uint64_t stack_limit() const noexcept { return f_.pointer(slot(1)); }
    std::uint64_t user_stack_base() const noexcept { return f_.pointer(slot(2)); }
    std::uint64_t user_stack_limit() const noexcept { return f_.pointer(slot(3)); }
    /// Affinity (v3+); the same slot is StartAddr in v2 - start_addr() reads it under that name.
    std::uint64_t affinity() const noexcept { return f_.pointer(slot(4)); }
    std::uint64_t start_addr() const noexcept { return f_.pointer(slot(4)); }
    std::uint64_t win32_start_addr() const noexcept { return f_.pointer(slot(5)); }
    std::uint64_t teb_base() const noexcept { return f_.pointer(slot(6)); }
    std::uint32_t sub_process_tag() const noexcept { return f_.get<std::uint32_t>(slot(7)); }

    /// Whether BasePriority, PagePriority, IoPriority and ThreadFlags are present (version 3 and later);
    /// when not, they read 0.
    bool has_priorities() const noexcept { return version() >= 3; }
    /// BasePriority: signed in NTWMI (CHAR), uint8 in MSL's simplified MOF.
    std::int8_t base_priority() const noexcept { return has_priorities() ? f_.get<std::int8_t>(slot(7) + 4) : std::int8_t{0}; }
    std::uint8_t page_priority() const noexcept { return has_priorities() ? f_.get<std::uint8_t>(slot(7) + 5) : std::uint8_t{0}; }
    std::uint8_t io_priority() const noexcept { return has_priorities() ? f_.get<std::uint8_t>(slot(7) + 6) : std::uint8_t{0}; }
    /// ThreadFlags (MSL: "not used"; NTWMI: Flags).
    std::uint8_t thread_flags() const noexcept { return has_priorities() ? f_.get<std::uint8_t>(slot(7) + 7) : std::uint8_t{0}; }

    bool has_thread_name() const noexcept { return has_thread_name_; }
    /// ThreadName (empty when absent).
    utf16_text thread_name() const noexcept { return thread_name_; }

    /// MSL Thread_TypeGroup1 (version 3+; Thread_V2_TypeGroup1 for version 2, whose fifth pointer is
    /// StartAddr and which has no priorities), then ThreadName where the payload has it.
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("ProcessId", process_id());
        out("TThreadId", thread_id());
        out("StackBase", address{stack_base()});
        out("StackLimit", address{stack_limit()});
        out("UserStackBase", address{user_stack_base()});
        out("UserStackLimit", address{user_stack_limit()});
        out(version() >= 3 ? "Affinity" : "StartAddr", address{affinity()});
        out("Win32StartAddr", address{win32_start_addr()});
        out("TebBase", address{teb_base()});
        out("SubProcessTag", sub_process_tag());
        if (has_priorities()) {
            out("BasePriority", base_priority());
            out("PagePriority", page_priority());
            out("IoPriority", io_priority());
            out("ThreadFlags", thread_flags());
        }
        if (has_thread_name()) out("ThreadName", thread_name());
    }

private:
    struct located {
        layout_fault fault = layout_fault::none;
        utf16_text name{};
        bool has_name = false;
    };
    static located locate(payload_ref p) noexcept {
        if (layout_fault const f = detail::check_fixed(p, 2, 4, 0x0C, 7); f != layout_fault::none) return {f};
        if (p.version == 2) return {};
        std::size_t const fixed = 0x10 + 7 * std::size_t{p.pointer_size};
        if (p.bytes.size() < fixed) return {layout_fault::too_short};
        // v3 builds before ThreadName end here (I); v4 always carries it (I).
        if (p.version == 3 && p.bytes.size() == fixed) return {};
        detail::utf16_need const name = detail::need_utf16z(p.bytes, fixed);
        if (name.fault != layout_fault::none) return {name.fault};
        return {layout_fault::none, name.text, true};
    }
    std::size_t slot(std::size_t i) const noexcept { return 0x08 + i * f_.pointer_size(); }

    detail::kernel_fields f_;
    utf16_text thread_name_{};
    bool has_thread_name_ = false;
};

/// Hook 0x0524 CSwitch (GC WMI_CONTEXTSWAP for layout and versions; MSL CSwitch for the names), 0x18 bytes
/// in versions 2 (6.0-1607), 3 (1703) and 4 (1709+):
///   0x00 NewThreadId u32            0x0C OldThreadWaitReason u8 (KWAIT_REASON)
///   0x04 OldThreadId u32            0x0D OldThreadWaitMode u8 (bit 0; 1709+: bits 1-3 / 4-6 old / new
///   0x08 NewThreadPriority i8            thread's BAM QoS level - GC)
///   0x09 OldThreadPriority i8       0x0E OldThreadState u8
///   0x0A PreviousCState u8          0x0F OldThreadWaitIdealProcessor u8
///   0x0B SpareByte                  0x10 NewThreadWaitTime u32
///                                   0x14 OldThreadRemainingQuantum i32 (MSL: "Reserved")
/// PMC counter values of an annotated CSwitch are in the PERFINFO header's extension, not here.
class cswitch {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0524}};

    static layout_fault check(payload_ref p) noexcept { return detail::check_fixed(p, 2, 4, 0x18, 0); }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    cswitch() noexcept = default;
    explicit cswitch(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }
    std::uint8_t version() const noexcept { return f_.ref().version; }

    std::uint32_t new_thread_id() const noexcept { return f_.get<std::uint32_t>(0x00); }
    std::uint32_t old_thread_id() const noexcept { return f_.get<std::uint32_t>(0x04); }
    std::int8_t new_thread_priority() const noexcept { return f_.get<std::int8_t>(0x08); }
    std::int8_t old_thread_priority() const noexcept { return f_.get<std::int8_t>(0x09); }
    /// The C-state the processor left (meaningful when the old thread is the idle thread).
    std::uint8_t previous_c_state() const noexcept { return f_.get<std::uint8_t>(0x0A); }
    std::uint8_t old_thread_wait_reason() const noexcept { return f_.get<std::uint8_t>(0x0C); }
    /// OldThreadWaitMode: 0 KernelMode, 1 UserMode (bit 0 of the byte; the rest holds QoS levels in v4).
    std::uint8_t old_thread_wait_mode() const noexcept { return static_cast<std::uint8_t>(wait_mode_byte() & 0x01U); }
    /// Version 4 (1709+): the old and new thread's BAM QoS level (GC); 0 before.
    std::uint8_t old_thread_qos_level() const noexcept {
        return version() >= 4 ? static_cast<std::uint8_t>((wait_mode_byte() >> 1) & 0x07U) : std::uint8_t{0};
    }
    std::uint8_t new_thread_qos_level() const noexcept {
        return version() >= 4 ? static_cast<std::uint8_t>((wait_mode_byte() >> 4) & 0x07U) : std::uint8_t{0};
    }
    std::uint8_t old_thread_state() const noexcept { return f_.get<std::uint8_t>(0x0E); }
    std::uint8_t old_thread_wait_ideal_processor() const noexcept { return f_.get<std::uint8_t>(0x0F); }
    std::uint32_t new_thread_wait_time() const noexcept { return f_.get<std::uint32_t>(0x10); }
    std::int32_t old_thread_remaining_quantum() const noexcept { return f_.get<std::int32_t>(0x14); }

    /// MSL CSwitch's properties. OldThreadWaitMode is bit 0 of its byte (KernelMode / UserMode); Reserved
    /// is GC's OldThreadRemainingQuantum.
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("NewThreadId", new_thread_id());
        out("OldThreadId", old_thread_id());
        out("NewThreadPriority", new_thread_priority());
        out("OldThreadPriority", old_thread_priority());
        out("PreviousCState", previous_c_state());
        out("SpareByte", f_.get<std::int8_t>(0x0B));
        out("OldThreadWaitReason", old_thread_wait_reason());
        out("OldThreadWaitMode", old_thread_wait_mode());
        out("OldThreadState", old_thread_state());
        out("OldThreadWaitIdealProcessor", old_thread_wait_ideal_processor());
        out("NewThreadWaitTime", new_thread_wait_time());
        out("Reserved", old_thread_remaining_quantum());
    }

private:
    std::uint8_t wait_mode_byte() const noexcept { return f_.get<std::uint8_t>(0x0D); }
    detail::kernel_fields f_;
};

/// Hook 0x0532 ReadyThread, 8 bytes (MSL ReadyThread, a Thread_V2 class: version 2; NTWMI
/// ETW_READY_THREAD_EVENT):
///   @0 TThreadId u32 | @4 AdjustReason i8 | @5 AdjustIncrement i8 | @6 Flag u8 | @7 Reserved
/// Flag bits: 0x1 readied from a DPC, 0x2 kernel stack swapped out, 0x4 process address space swapped out
/// (MSL); 0x8 DirectSwitchAttempt (NTWMI only).
class ready_thread {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0532}};

    static layout_fault check(payload_ref p) noexcept { return detail::check_fixed(p, 2, 2, 8, 0); }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    ready_thread() noexcept = default;
    explicit ready_thread(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    /// TThreadId in the MOF: the thread being readied.
    std::uint32_t thread_id() const noexcept { return f_.get<std::uint32_t>(0); }
    /// 0 ignore the increment, 1 apply it (decays each quantum), 2 apply it as a boost (MSL).
    std::int8_t adjust_reason() const noexcept { return f_.get<std::int8_t>(4); }
    std::int8_t adjust_increment() const noexcept { return f_.get<std::int8_t>(5); }
    /// Flag (the MOF property's name), and its bits.
    std::uint8_t flag() const noexcept { return f_.get<std::uint8_t>(6); }
    bool executing_dpc() const noexcept { return (flag() & 0x01U) != 0; }
    bool kernel_stack_not_resident() const noexcept { return (flag() & 0x02U) != 0; }
    bool process_out_of_memory() const noexcept { return (flag() & 0x04U) != 0; }
    bool direct_switch_attempt() const noexcept { return (flag() & 0x08U) != 0; }

    /// MSL ReadyThread's properties (Reserved left out).
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("TThreadId", thread_id());
        out("AdjustReason", adjust_reason());
        out("AdjustIncrement", adjust_increment());
        out("Flag", flag());
    }

private:
    detail::kernel_fields f_;
};

// =====================================================================================================
// Process group (0x03): process start/end/rundown/defunct.
// =====================================================================================================

/// Hooks 0x0301 Start, 0x0302 End, 0x0303 DCStart, 0x0304 DCEnd, 0x0327 Defunct:
/// Process_TypeGroup1 (MSL Process_TypeGroup1 for the fields - its simplified MOF shows pointers as
/// uint32; NTWMI WMI_PROCESS_INFORMATION and the hook names). Versions 3, 4 and 5:
///   v3 off    v4+ off   field
///   0x00      0x00      UniqueProcessKey p (the EPROCESS address)
///   p         p         ProcessId u32, ParentId u32 (+4), SessionId u32 (+8), ExitStatus i32 (+0xC)
///   p+0x10    p+0x10    DirectoryTableBase p
///   -         2p+0x10   Flags u32
///   2p+0x10   2p+0x14   UserSID (variable, below)
///   then                ImageFileName ANSI, CommandLine UTF-16; v4+: PackageFullName, ApplicationId UTF-16
///   v5: more bytes after ApplicationId, of undocumented meaning (trailing_bytes()).
/// UserSID (MSL "Event Tracing MOF Qualifiers", the Sid extension): a TOKEN_USER (SID_AND_ATTRIBUTES, 2p
/// bytes) followed by the SID (8 + 4 * SubAuthorityCount bytes, the count at the SID's byte 1; SDK winnt.h);
/// a first u32 of 0 means no SID and the field is those 4 bytes (I: real traces, TraceEvent, snail-server).
/// (I: the offsets, from real traces and TraceEvent / snail-server.) Versions 2 and older are refused:
/// their field lists differ (MSL Process_V2_TypeGroup1 has no DirectoryTableBase; Process_V1_TypeGroup1
/// starts with PageDirectoryBase and has no CommandLine).
/// 0x030B Terminate is not here: NTWMI's comment gives it WMI_PROCESS_INFORMATION, but the MOF class
/// Process_Terminate_TypeGroup1 (a Process_V2 class) holds a ProcessId only - sources disagree, so no view.
/// 0x0327 Defunct is in MSL Process_TypeGroup1's EventType list. (I: its version-5 tail is 8 bytes that
/// one decoder calls ExitTime; no published source names them, so they stay in trailing_bytes().)
class process_event {
public:
    static constexpr hook_id hooks[] = {hook_id{0x0301}, hook_id{0x0302}, hook_id{0x0303},
                                        hook_id{0x0304}, hook_id{0x0327}};

    static layout_fault check(payload_ref p) noexcept { return locate(p).fault; }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    process_event() noexcept = default;
    explicit process_event(payload_ref p) noexcept : f_(p) {
        l_ = locate(p);
        Expects(l_.fault == layout_fault::none);
    }
    payload_ref payload() const noexcept { return f_.ref(); }
    std::uint8_t version() const noexcept { return f_.ref().version; }

    std::uint64_t unique_process_key() const noexcept { return f_.pointer(0); }
    std::uint32_t process_id() const noexcept { return f_.get<std::uint32_t>(p() + 0x00); }
    std::uint32_t parent_id() const noexcept { return f_.get<std::uint32_t>(p() + 0x04); }
    std::uint32_t session_id() const noexcept { return f_.get<std::uint32_t>(p() + 0x08); }
    /// NTSTATUS; 259 (STILL_ACTIVE) on Start / DCStart.
    std::int32_t exit_status() const noexcept { return f_.get<std::int32_t>(p() + 0x0C); }
    std::uint64_t directory_table_base() const noexcept { return f_.pointer(p() + 0x10); }
    /// Flags (version 4 and later; 0 before).
    std::uint32_t flags() const noexcept { return version() >= 4 ? f_.get<std::uint32_t>(2 * p() + 0x10) : 0; }
    /// The SID's bytes (without the TOKEN_USER before it); empty when the event has none.
    std::span<std::byte const> user_sid() const noexcept { return l_.sid; }
    std::string_view image_file_name() const noexcept { return l_.image_file_name; }
    utf16_text command_line() const noexcept { return l_.command_line; }
    /// PackageFullName and ApplicationId (version 4 and later; empty before).
    utf16_text package_full_name() const noexcept { return l_.package_full_name; }
    utf16_text application_id() const noexcept { return l_.application_id; }
    /// The bytes after the last known field (version 5's undocumented tail, or a newer build's fields).
    std::span<std::byte const> trailing_bytes() const noexcept { return f_.tail(l_.end); }

    /// MSL Process_TypeGroup1's properties; Flags, PackageFullName and ApplicationId from version 4
    /// (NTWMI; MSL's page predates them).
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("UniqueProcessKey", address{unique_process_key()});
        out("ProcessId", process_id());
        out("ParentId", parent_id());
        out("SessionId", session_id());
        out("ExitStatus", exit_status());
        out("DirectoryTableBase", address{directory_table_base()});
        if (version() >= 4) out("Flags", flags());
        out("UserSID", sid_bytes{user_sid()});
        out("ImageFileName", image_file_name());
        out("CommandLine", command_line());
        if (version() >= 4) {
            out("PackageFullName", package_full_name());
            out("ApplicationId", application_id());
        }
    }

private:
    struct located {
        layout_fault fault = layout_fault::none;
        std::span<std::byte const> sid{};
        std::string_view image_file_name{};
        utf16_text command_line{}, package_full_name{}, application_id{};
        std::size_t end = 0;
    };
    static located locate(payload_ref p) noexcept {
        // The fixed fields and the UserSID's first u32: 0x14 + 2p bytes (v3), 0x18 + 2p (v4+, with Flags).
        std::size_t const fixed = p.version >= 4 ? 0x18 : 0x14;
        if (layout_fault const f = detail::check_fixed(p, 3, 5, fixed, 2); f != layout_fault::none) return {f};
        std::size_t const sid_at = fixed - 4 + 2 * std::size_t{p.pointer_size};
        located l;
        std::size_t next = 0;
        if (layout_fault const f = locate_sid(p, sid_at, l.sid, next); f != layout_fault::none) return {f};

        detail::ansi_need const image = detail::need_ansiz(p.bytes, next);
        if (image.fault != layout_fault::none) return {image.fault};
        l.image_file_name = image.text;
        detail::utf16_need const command = detail::need_utf16z(p.bytes, image.next);
        if (command.fault != layout_fault::none) return {command.fault};
        l.command_line = command.text;
        l.end = command.next;
        if (p.version >= 4) {
            detail::utf16_need const package = detail::need_utf16z(p.bytes, command.next);
            if (package.fault != layout_fault::none) return {package.fault};
            detail::utf16_need const application = detail::need_utf16z(p.bytes, package.next);
            if (application.fault != layout_fault::none) return {application.fault};
            l.package_full_name = package.text;
            l.application_id = application.text;
            l.end = application.next;
        }
        return l;
    }
    /// The UserSID field at `at` (its first u32 is known to be inside the payload): the SID bytes and the
    /// offset after the field.
    static layout_fault locate_sid(payload_ref p, std::size_t at, std::span<std::byte const>& sid,
                                   std::size_t& next) noexcept {
        detail::kernel_fields const f(p);
        if (f.get<std::uint32_t>(at) == 0) {
            next = at + 4;
            return layout_fault::none;
        }
        std::size_t const sid_at = at + 2 * std::size_t{p.pointer_size}; // after TOKEN_USER
        if (f.size() < sid_at + 8) return layout_fault::too_short;      // Revision, count, authority
        std::size_t const sid_size = 8 + 4 * std::size_t{f.get<std::uint8_t>(sid_at + 1)};
        if (f.size() - sid_at < sid_size) return layout_fault::too_short;
        sid = f.slice(sid_at, sid_size);
        next = sid_at + sid_size;
        return layout_fault::none;
    }
    std::size_t p() const noexcept { return f_.pointer_size(); }

    detail::kernel_fields f_;
    located l_{};
};

// =====================================================================================================
// Image group (0x14): image load/unload/rundown. Load is logged under the Process group's hook 0x030A.
// =====================================================================================================

/// Hooks 0x030A Load (Process group, type 10 = EVENT_TRACE_TYPE_LOAD; consumers see it under the Image
/// GUID - NTWMI WMI_LOG_TYPE_PROCESS_LOAD_IMAGE), 0x1402 Unload, 0x1403 DCStart, 0x1404 DCEnd: Image_Load
/// (MSL Image_Load, whose simplified MOF lists uint32s and folds SignatureLevel/Type into Reserved0;
/// NTWMI WMI_IMAGELOAD_INFORMATION). Versions 2 and 3 share the layout (I: real traces, snail-server):
///   0x00 ImageBase p | p ImageSize p | 2p ProcessId u32 (0 for kernel modules) | 2p+4 ImageChecksum u32
///   2p+8 TimeDateStamp u32 | 2p+0xC SignatureLevel u8, SignatureType u8, Reserved0 u16
///   2p+0x10 DefaultBase p | 3p+0x10 Reserved1..4 u32 | 3p+0x20 FileName UTF-16 (an NT path)
/// (I: the offsets, from real traces and TraceEvent / snail-server: FileName at 0x38 on x64, 0x2C on x86.)
class image_event {
public:
    static constexpr hook_id hooks[] = {hook_id{0x030A}, hook_id{0x1402}, hook_id{0x1403}, hook_id{0x1404}};

    static layout_fault check(payload_ref p) noexcept { return locate(p).fault; }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    image_event() noexcept = default;
    explicit image_event(payload_ref p) noexcept : f_(p) {
        detail::utf16_need const l = locate(p);
        Expects(l.fault == layout_fault::none);
        file_name_ = l.text;
    }
    payload_ref payload() const noexcept { return f_.ref(); }

    std::uint64_t image_base() const noexcept { return f_.pointer(0); }
    std::uint64_t image_size() const noexcept { return f_.pointer(p()); }
    std::uint32_t process_id() const noexcept { return f_.get<std::uint32_t>(2 * p() + 0x0); }
    std::uint32_t image_checksum() const noexcept { return f_.get<std::uint32_t>(2 * p() + 0x4); }
    std::uint32_t time_date_stamp() const noexcept { return f_.get<std::uint32_t>(2 * p() + 0x8); }
    std::uint8_t signature_level() const noexcept { return f_.get<std::uint8_t>(2 * p() + 0xC); }
    std::uint8_t signature_type() const noexcept { return f_.get<std::uint8_t>(2 * p() + 0xD); }
    std::uint64_t default_base() const noexcept { return f_.pointer(2 * p() + 0x10); }
    utf16_text file_name() const noexcept { return file_name_; }

    /// MSL Image_Load's properties; its Reserved0 is given as NTWMI's SignatureLevel and SignatureType
    /// (u8 each; the other two bytes are reserved), Reserved1..4 are left out. ImageSize is a size (the
    /// MOF's Pointer qualifier there only says it is size_t): a number, not an address.
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("ImageBase", address{image_base()});
        out("ImageSize", image_size());
        out("ProcessId", process_id());
        out("ImageCheckSum", image_checksum());
        out("TimeDateStamp", time_date_stamp());
        out("SignatureLevel", signature_level());
        out("SignatureType", signature_type());
        out("DefaultBase", address{default_base()});
        out("FileName", file_name());
    }

private:
    static detail::utf16_need locate(payload_ref p) noexcept {
        if (layout_fault const f = detail::check_fixed(p, 2, 3, 0x20, 3); f != layout_fault::none) return {f};
        return detail::need_utf16z(p.bytes, 0x20 + 3 * std::size_t{p.pointer_size});
    }
    std::size_t p() const noexcept { return f_.pointer_size(); }

    detail::kernel_fields f_;
    utf16_text file_name_{};
};

// =====================================================================================================
// StackWalk group (0x18): stacks, and the stack cache's key references and definitions. Version 2 (I:
// the version the real traces and snail-server's decoder carry; no published table of versions).
// =====================================================================================================

namespace detail {
/// Frames from `offset` to the end: whole p-sized entries only (a partial entry means the payload is not
/// an array of this pointer size, so it is refused as too_short).
constexpr layout_fault check_frames(payload_ref p, std::size_t offset) noexcept {
    return (p.bytes.size() - offset) % p.pointer_size == 0 ? layout_fault::none : layout_fault::too_short;
}
} // namespace detail

/// Hook 0x1820 Stack (MSL StackWalk_Event; NTWMI STACK_WALK_EVENT_DATA):
///   @0 EventTimeStamp u64 | @8 StackProcess u32 | @0xC StackThread u32 | @0x10 Stack1..N, p each
/// The stack belongs to the event of thread StackThread whose raw timestamp equals EventTimeStamp; frame 0
/// is the deepest (the instruction pointer) (I: TraceEvent, real traces).
class stack_walk_event {
public:
    static constexpr hook_id hooks[] = {hook_id{0x1820}};

    static layout_fault check(payload_ref p) noexcept {
        if (layout_fault const f = detail::check_fixed(p, 2, 2, 0x10, 0); f != layout_fault::none) return f;
        return detail::check_frames(p, 0x10);
    }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    stack_walk_event() noexcept = default;
    explicit stack_walk_event(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    /// EventTimeStamp, in the session's raw clock.
    std::uint64_t event_time_stamp() const noexcept { return f_.get<std::uint64_t>(0x00); }
    std::uint32_t stack_process() const noexcept { return f_.get<std::uint32_t>(0x08); }
    std::uint32_t stack_thread() const noexcept { return f_.get<std::uint32_t>(0x0C); }
    pointer_array frames() const noexcept { return {f_.tail(0x10), static_cast<std::uint8_t>(f_.pointer_size())}; }
    std::size_t frame_count() const noexcept { return frames().size(); }
    /// Frame i (i < frame_count()), zero-extended.
    std::uint64_t frame(std::size_t i) const noexcept {
        Expects(i < frame_count());
        return frames()[i];
    }

    /// MSL StackWalk_Event: EventTimeStamp, StackProcess, StackThread, Stack1..StackN (deepest first).
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("EventTimeStamp", event_time_stamp());
        out("StackProcess", stack_process());
        out("StackThread", stack_thread());
        detail::visit_frames(frames(), out);
    }

private:
    detail::kernel_fields f_;
};

/// Hooks 0x1825 StackKeyKernel and 0x1826 StackKeyUser: the reference an event gets when stack caching is
/// on; the frames come later in a definition with the same key (NTWMI hook names; TraceEvent):
///   @0 EventTimeStamp u64 | @8 ProcessId u32 | @0xC ThreadId u32 | @0x10 StackKey p
/// (I: the layout, from real traces and TraceEvent / snail-server.)
class stack_key_reference {
public:
    static constexpr hook_id hooks[] = {hook_id{0x1825}, hook_id{0x1826}};

    static layout_fault check(payload_ref p) noexcept { return detail::check_fixed(p, 2, 2, 0x10, 1); }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    stack_key_reference() noexcept = default;
    explicit stack_key_reference(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    std::uint64_t event_time_stamp() const noexcept { return f_.get<std::uint64_t>(0x00); }
    std::uint32_t process_id() const noexcept { return f_.get<std::uint32_t>(0x08); }
    std::uint32_t thread_id() const noexcept { return f_.get<std::uint32_t>(0x0C); }
    std::uint64_t stack_key() const noexcept { return f_.pointer(0x10); }

    /// EventTimeStamp, ProcessId, ThreadId, StackKey (no MOF page; the names of TraceEvent's and
    /// StackWalk_Event's matching fields).
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("EventTimeStamp", event_time_stamp());
        out("ProcessId", process_id());
        out("ThreadId", thread_id());
        out("StackKey", address{stack_key()});
    }

private:
    detail::kernel_fields f_;
};

/// Hooks 0x1822 StackKeyCreate, 0x1823 StackKeyDelete (the definition on cache eviction), 0x1824
/// StackKeyRundown (definitions at the end): a key and its frames (NTWMI hook names; TraceEvent):
///   @0 StackKey p | @p frames, p each
/// (I: the layout, from real traces and TraceEvent / snail-server; 0x1822 was never seen and is assumed to
/// share it, as snail-server does.)
class stack_key_definition {
public:
    static constexpr hook_id hooks[] = {hook_id{0x1822}, hook_id{0x1823}, hook_id{0x1824}};

    static layout_fault check(payload_ref p) noexcept {
        if (layout_fault const f = detail::check_fixed(p, 2, 2, 0, 1); f != layout_fault::none) return f;
        return detail::check_frames(p, p.pointer_size);
    }
    /// An empty view (every accessor reads 0 / empty); assign a checked one.
    stack_key_definition() noexcept = default;
    explicit stack_key_definition(payload_ref p) noexcept : f_(p) { Expects(check(p) == layout_fault::none); }
    payload_ref payload() const noexcept { return f_.ref(); }

    std::uint64_t stack_key() const noexcept { return f_.pointer(0); }
    pointer_array frames() const noexcept {
        return {f_.tail(f_.pointer_size()), static_cast<std::uint8_t>(f_.pointer_size())};
    }
    std::size_t frame_count() const noexcept { return frames().size(); }
    std::uint64_t frame(std::size_t i) const noexcept {
        Expects(i < frame_count());
        return frames()[i];
    }

    /// StackKey, then Stack1..StackN (no MOF page; StackWalk_Event's frame names).
    template <class Visit>
    void fields(Visit&& v) const {
        detail::field_sink<Visit> const out{v};
        out("StackKey", address{stack_key()});
        detail::visit_frames(frames(), out);
    }

private:
    detail::kernel_fields f_;
};

/// A list of views: for_each(f) calls f(std::type_identity<V>{}) for each, in order.
template <class... V>
struct view_list {
    template <class F>
    static constexpr void for_each(F&& f) {
        (f(std::type_identity<V>{}), ...);
    }
};

/// Every typed view, once: the one list of which hook has which layout (each view's hooks[]).
/// view_for_hook reads it at compile time; code that tries the views in turn at run time walks it.
using kernel_views = view_list<logfile_header, header_extension, rundown_complete, sampled_profile, pmc_counter_profile,
                               pmc_counter_config, sampled_profile_interval, thread_event, cswitch, ready_thread, process_event,
                               image_event, stack_walk_event, stack_key_reference, stack_key_definition>;

namespace detail {
template <class V>
constexpr bool lists_hook(std::uint16_t hook) noexcept {
    for (auto const h : V::hooks)
        if (h.value == hook) return true;
    return false;
}
template <std::uint16_t Hook, class L>
struct first_view;
template <std::uint16_t Hook>
struct first_view<Hook, view_list<>> {
    using type = void;
};
template <std::uint16_t Hook, class V, class... R>
struct first_view<Hook, view_list<V, R...>> {
    using type = std::conditional_t<lists_hook<V>(Hook), V, typename first_view<Hook, view_list<R...>>::type>;
};
/// No hook is listed by two views (a hook has one layout).
template <class... V>
constexpr bool hooks_listed_once(view_list<V...>) noexcept {
    std::uint16_t all[(std::size(V::hooks) + ...)]{};
    std::size_t n = 0;
    ((([&] {
         for (auto const h : V::hooks) all[n++] = h.value;
     }())),
     ...);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            if (all[i] == all[j]) return false;
    return true;
}
} // namespace detail
static_assert(detail::hooks_listed_once(kernel_views{}), "etwctl: a hook is listed by two views of trace/kernel_events.hpp");

/// For dispatchers: the view whose layout a hook's payload has (void for hooks without one):
/// `typename view_for_hook<0x0F2E>::type` is sampled_profile.
template <std::uint16_t Hook>
struct view_for_hook {
    using type = typename detail::first_view<Hook, kernel_views>::type;
};

} // namespace layout

/// The header view under trace's own name, for the reader (trace/reader.hpp keeps one per file).
using layout::logfile_header;

} // namespace trace
ETWCTL_END_NAMESPACE
