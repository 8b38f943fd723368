// What `etwctl trace dump|stats|stacks` share (commands/trace.cpp): naming a record (its key, name, kind,
// provider), the process and thread a record belongs to, the stack cache's first pass, the images that
// name a stack's frames, and the JSON and text forms of a record's fields. Built on etwctl/trace.hpp only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "etwctl/trace.hpp"

#include "trace_input.hpp"

namespace etwctl_tool::trace_tool {

namespace trace = etwctl::trace;

// ---- text -------------------------------------------------------------------------------------------

/// "0x" and lower-case hex digits, at least `digits` of them ("0x0f2e" for a hook id).
void append_hex(std::string& out, std::uint64_t v, int digits = 1);
std::string hex_text(std::uint64_t v, int digits = 1);
/// The GUID in lower case without braces.
std::string guid_text(etwctl::guid const& g);
/// A JSON string of `s` (valid UTF-8 kept; other bytes and control characters escaped).
void append_json_string(std::string& out, std::string_view s);
void append_int(std::string& out, std::int64_t v);
void append_uint(std::string& out, std::uint64_t v);
/// Nanoseconds as milliseconds with six decimals ("17634.123456"), no floating point.
void append_ms(std::string& out, std::int64_t ns);
/// UTF-16 text of a trace as UTF-8.
std::string utf8(trace::utf16_text const& t);
/// A SID as "S-1-5-18" (winnt.h SID layout); "" for an empty or malformed one.
std::string sid_text(std::span<std::byte const> sid);
/// Lower-case hex of bytes, no separators.
void append_bytes_hex(std::string& out, std::span<std::byte const> bytes);

// ---- naming a record --------------------------------------------------------------------------------

/// "classic" (kernel hook records, full / instance MOF headers), "manifest" (EVENT_HEADER without
/// TraceLogging metadata), "tracelogging", "wpp" (MESSAGE_TRACE_HEADER).
std::string_view kind_of(trace::record const& r);
/// "0xGGTT" (hook records), "<guid>/<opcode>" (full, instance), "<guid>#<id>" (EVENT_HEADER),
/// "<guid>#<MessageNumber>" or "component<id>#<MessageNumber>" (WPP).
std::string key_of(trace::record const& r);
/// The provider's GUID: the kernel group's GUID for hook records, the event GUID / provider id for the
/// others (false: a WPP message without a GUID, or a hook group etwctl has no GUID for).
bool provider_of(trace::record const& r, etwctl::guid& out);
/// The TraceLogging metadata of an EVENT_HEADER record (its EVENT_SCHEMA_TL item), if it has valid one.
bool tracelogging_metadata(trace::record const& r, trace::tl_event_metadata& out);
/// The TraceLogging provider's name (its PROV_TRAITS item), or "".
std::string_view tracelogging_provider_name(trace::record const& r);
/// The name a record is shown under: the kernel table's for hook records, the TraceLogging event name,
/// else "".
std::string_view name_of(trace::record const& r);

// ---- kernel views at run time ------------------------------------------------------------------------

/// The typed views of trace::layout, tried in turn for a hook record: calls f(view) with the view whose
/// hooks list the record's hook and whose check() accepts the payload. Returns false when no view lists
/// the hook; `fault` says why a listed view refused the payload (then f is not called).
template <class F>
bool with_kernel_view(trace::record const& r, F&& f, trace::layout_fault& fault) {
    namespace layout = trace::layout;
    fault = trace::layout_fault::none;
    if (!r.has_hook()) return false;
    trace::payload_ref const p{r.payload(), static_cast<std::uint8_t>(r.version()), r.pointer_size()};
    bool listed = false;
    auto const attempt = [&]<class V>(std::type_identity<V>) {
        if (listed) return;
        for (auto const h : V::hooks)
            if (h == r.hook()) listed = true;
        if (!listed) return;
        fault = V::check(p);
        if (fault == trace::layout_fault::none) f(V(p));
    };
    layout::kernel_views::for_each(attempt);
    return listed;
}

/// One fields() value as JSON: numbers as numbers, addresses as "0x...", strings, SIDs as "S-1-...", byte
/// arrays as hex strings.
template <class T>
void append_field_json(std::string& out, T const& v) {
    if constexpr (std::is_same_v<T, trace::address>) {
        out += '"';
        append_hex(out, v.value);
        out += '"';
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        append_int(out, v);
    } else if constexpr (std::is_integral_v<T>) {
        append_uint(out, v);
    } else if constexpr (std::is_same_v<T, trace::utf16_text>) {
        append_json_string(out, utf8(v));
    } else if constexpr (std::is_same_v<T, std::string_view>) {
        append_json_string(out, v);
    } else if constexpr (std::is_same_v<T, trace::sid_bytes>) {
        append_json_string(out, sid_text(v.bytes));
    } else if constexpr (std::is_same_v<T, trace::byte_array>) {
        out += '"';
        append_bytes_hex(out, v.bytes);
        out += '"';
    } else {
        static_assert(sizeof(T) == 0, "a fields() value type the tool does not print");
    }
}

/// The same value as plain text (for the text dump).
template <class T>
void append_field_text(std::string& out, T const& v) {
    if constexpr (std::is_same_v<T, trace::address>) append_hex(out, v.value);
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) append_int(out, v);
    else if constexpr (std::is_integral_v<T>) append_uint(out, v);
    else if constexpr (std::is_same_v<T, trace::utf16_text>) out += utf8(v);
    else if constexpr (std::is_same_v<T, std::string_view>) out += v;
    else if constexpr (std::is_same_v<T, trace::sid_bytes>) out += sid_text(v.bytes);
    else if constexpr (std::is_same_v<T, trace::byte_array>) out += "(" + std::to_string(v.bytes.size()) + " bytes)";
    else static_assert(sizeof(T) == 0, "a fields() value type the tool does not print");
}

// ---- TraceLogging ------------------------------------------------------------------------------------

/// A TraceLogging event's fields as the members of a JSON object (without the braces) into `out`, or the
/// fault's text into `error` (out then holds what was decoded before it).
bool tracelogging_fields_json(trace::record const& r, trace::tl_event_metadata const& md, std::string& out, std::string& error);
/// The same as "name=value" pairs (top-level scalars; arrays and structs summarised), at most `max` of them.
void tracelogging_fields_text(trace::record const& r, trace::tl_event_metadata const& md, std::string& out, std::size_t max);

// ---- processes and threads ---------------------------------------------------------------------------

/// A record's process and thread: -1 where unknown.
struct event_ids {
    std::int64_t pid = -1;
    std::int64_t tid = -1;
};

/// What the trace says about processes and threads so far (records seen in time order): which process a
/// thread belongs to (Thread Start / DCStart), each process's ImageFileName (Process Start / DCStart).
class process_tracker {
public:
    /// Learns from a Thread or Process record (others are ignored).
    void observe(trace::record const& r);
    /// The record's ids: the header's; where the header has none, the payload's (SampledProfile and
    /// PmcCounterProfile ThreadId, StackWalk StackProcess / StackThread, stack key references, CSwitch
    /// NewThreadId); for Process and Image events the ProcessId they are about (the header's thread only
    /// if it is in that process), for Thread events their ProcessId and TThreadId; the process of a known
    /// thread where only the thread is named.
    event_ids ids(trace::record const& r) const;
    /// "ImageFileName (pid)", "unknown (pid)" where no Process event named it.
    std::string process_label(std::int64_t pid) const;

private:
    std::unordered_map<std::uint32_t, std::uint32_t> process_of_thread_;
    std::unordered_map<std::uint32_t, std::string> image_file_name_;
};

// ---- images ------------------------------------------------------------------------------------------

/// The images loaded at a point of the trace, per process, from its Image Load / Unload / DCStart / DCEnd
/// records (in time order): what names a frame `module+0xoffset`. Images of ProcessId 0 are kernel
/// images, mapped in every process.
class image_map {
public:
    void observe(trace::record const& r);
    /// "ntoskrnl.exe+0x1a2b3" for an address inside an image of `pid` or of the kernel; "0x..." otherwise.
    void append_frame(std::string& out, std::int64_t pid, std::uint64_t address) const;

private:
    struct image {
        std::uint64_t size = 0;
        std::string name; // the file name's last component
    };
    using images = std::map<std::uint64_t, image>; // by ImageBase
    static image const* find(images const& in, std::uint64_t address, std::uint64_t& base);
    std::unordered_map<std::uint32_t, images> by_process_;
};

// ---- stacks ------------------------------------------------------------------------------------------

/// An event's frames, deepest first, as event_stream attached them (StackWalk records, cached keys, or an
/// EVENT_HEADER's STACK_TRACE32 / STACK_TRACE64 items).
void frames_of(trace::event const& e, std::vector<std::uint64_t>& out);

/// The stack cache of a file: its StackKeyDelete / StackKeyRundown definitions, read in a first pass.
class stack_cache_pass {
public:
    /// Reads every record of `file` once (the reader's storage is given), keeping copies of the
    /// definitions, then builds the cache. Faults are not reported here (the main pass meets them again).
    void run(trace::trace_file const& file, std::span<std::byte> storage, progress_line& progress);
    /// The cache, or nullptr when the file has no definitions.
    trace::stack_cache const* cache() const { return definitions_.empty() && references_.empty() ? nullptr : &cache_; }
    std::size_t definitions() const { return definitions_.size(); }

private:
    std::vector<trace::stack_cache::definition> definitions_;
    std::vector<trace::stack_cache::reference> references_;
    std::vector<std::byte> frames_;
    trace::stack_cache cache_;
};

// ---- faults ------------------------------------------------------------------------------------------

/// Whether a record the reader delivered still holds what the reader parsed (its bytes read again as the
/// same record). Not so when the reader reused the decompression slot of the record's buffer before handing
/// it out (several unreadable compressed buffers of one processor in a row, seen with a fuzzed copy of
/// net.4.5.2.x86.etl); walking such a record's extended items might not end, so the tool skips it.
bool intact(trace::record const& r);

/// reader_options that print each fault on stderr ("etwctl: trace: FILE: <describe>"), the first
/// `max_printed` of them; the count stays in reader::losses().
struct fault_printer {
    std::string file;
    std::uint64_t printed = 0;
    static constexpr std::uint64_t max_printed = 20;
    trace::reader_options options() { return {&fault_printer::print, this}; }
    static void print(trace::fault const& f, void* self) noexcept;
};
/// "a record runs past ... at file offset 0x..." (fault::describe) as a string.
std::string describe(trace::fault const& f);

} // namespace etwctl_tool::trace_tool
