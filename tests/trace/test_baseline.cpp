// net.4.5.2.x86.etl read by etwctl and compared, line by line and field by field, with TraceEvent's
// decoding of the same file (tests/trace/data/net.4.5.2.x86.baseline.txt; the format is in data/README.md):
// every `EVENT` line of the kernel kinds etwctl types (issue 32, part 2) must find the event etwctl decoded
// at the same time on the same processor, and every field TraceEvent printed must equal the typed view's
// accessor of the same name. A line that finds no event, a field that differs and a field name this test
// does not know all fail; the only fields not compared are listed in `not_compared` with the reason.
//
// The baseline was written by TraceEvent's own test (microsoft/perfview, TraceEvent.Tests GeneralParsing.cs,
// MIT): the events of a TraceLog (ETLX) conversion of the file, the first 5 of each kind, as
// "EVENT <TimeStampRelativeMSec:n3>: <Provider>/<EventName> PID=..; TID=..; PName=..; ProceNum=..; DataLen=..;"
// then each payload field's PayloadString, cut to 20 characters + "..."; dates converted to UTC as
// "yy/MM/dd HH:mm:ss.ffffff". How its numbers relate to etwctl's (each rule is checked by the data below):
//   * time: "<ms>" is the time since the header event (EventTrace, printed at 0.000) in the file's clock
//     (ReservedFlags 1 = QPC, PerfFreq 10 MHz here), rounded to 3 decimals. etwctl's e.time() counts from
//     the same header event (trace::clock's origin is the header record's timestamp), so a line matches an
//     event when |e.time() - ms| <= 0.0005 ms, half the printed unit (one tick is 100 ns). (I: found on the
//     data - the header and the Extension beside it at 0.000, and every other line, agree this way.)
//   * PID / TID: TraceEvent rewrites the header's ids for some kinds (KernelTraceEventParser.cs,
//     ThreadTraceData / ProcessTraceData FixupData): a thread's Start / DCStart takes them from the payload
//     (ProcessId, TThreadId) and keeps the header's as ParentProcessID / ParentThreadID; a thread's Stop
//     keeps the header; a process event takes ProcessId from the payload and prints TID -1; SampledProfile
//     takes TID from its ThreadId and PID from the thread -> process map (thread_to_process below). Image
//     events print the payload's ProcessId and, except Load, TID -1 (I: from the data - an Unload's header
//     names a thread, the baseline prints -1). Every other kind prints the header's ids (-1 for none,
//     etwctl's trace::no_id). DataLen is the payload's size, ProceNum the processor.
//   * numbers: TraceEvent reads most integers as signed 32-bit (SessionID=-1, TimeDateStamp=-1,726,546,814)
//     and bytes as unsigned; the test converts etwctl's value the same way before comparing.
//   * BuildTime is an image's TimeDateStamp read as unsigned seconds since 1970 (-1,726,546,814 -> 2051).
//   * Process Flags: TraceEvent prints its ProcessFlags enum by name (KernelTraceEventParser.cs: None = 0,
//     PackageFullName = 1, Wow64 = 2, Protected = 4; several as "A, B"); the data agrees (System and
//     sppsvc are Protected, the WOW64 Test.x86 and PerfView are Wow64).
//   * FileName: TraceEvent turns the kernel's NT path into a DOS path with the trace's volume mapping; cut
//     at 20 characters, it always ends inside the directory part in this baseline, so nothing after the
//     last backslash is ever printed. The test maps etwctl's NT path the same way (nt_to_dos below, whose
//     rows are checked against the baseline's own SysConfig lines) and compares the printed prefix.
#include "etwctl_test.hpp"

#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "etwctl/trace.hpp"
#include "trace_files.hpp"

// A named namespace: the test files of a target are compiled together in unity batches.
namespace baseline_check {

namespace trace = etwctl::trace;

// ---- the baseline's lines ------------------------------------------------------------------------------

struct field {
    std::string name;
    std::string value;
};

/// One `EVENT <ms>: <Provider>/<Task>[/<Opcode>] Name=value; ...` line.
struct event_line {
    std::size_t number = 0;    ///< 1-based line number in the file
    std::string kind;          ///< "Windows Kernel/Process/DCStart"
    std::int64_t time_us = 0;  ///< the printed milliseconds, in thousandths
    std::vector<field> fields; ///< in the printed order, PID, TID, PName, ProceNum and DataLen first

    std::optional<std::string_view> get(std::string_view name) const {
        for (auto const& f : fields)
            if (f.name == name) return std::string_view{f.value};
        return std::nullopt;
    }
};

/// "65,536" -> 65536 (TraceEvent's thousands separators), and "-1"; nullopt if not a whole number.
std::optional<std::int64_t> parse_number(std::string_view text) {
    std::string digits;
    for (char c : text)
        if (c != ',') digits += c;
    std::int64_t v = 0;
    auto const [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc{} || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
    return v;
}

/// "2,616.762" -> 2616762 (thousandths of a millisecond).
std::optional<std::int64_t> parse_ms(std::string_view text) {
    auto const dot = text.find('.');
    if (dot == std::string_view::npos || text.size() - dot != 4) return std::nullopt;
    auto const whole = parse_number(text.substr(0, dot));
    auto const part = parse_number(text.substr(dot + 1));
    if (!whole || !part || *part < 0) return std::nullopt;
    bool const negative = !text.empty() && text[0] == '-';
    return *whole * 1000 + (negative ? -*part : *part);
}

/// Whether `text` at `at` is a field name followed by '=' (how a separator "; " is told from a "; " inside a
/// value: a FileName such as "\\DfsClient\;Z:..." holds ';').
bool starts_field(std::string_view text, std::size_t at) {
    std::size_t i = at;
    while (i < text.size() && ((text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= 'a' && text[i] <= 'z') ||
                               (text[i] >= '0' && text[i] <= '9') || text[i] == '_'))
        ++i;
    return i > at && i < text.size() && text[i] == '=';
}

std::optional<event_line> parse_event_line(std::string_view text, std::size_t number) {
    if (text.substr(0, 6) != "EVENT ") return std::nullopt;
    auto const colon = text.find(": ", 6);
    if (colon == std::string_view::npos) return std::nullopt;
    auto const ms = parse_ms(text.substr(6, colon - 6));
    if (!ms) return std::nullopt;
    event_line line;
    line.number = number;
    line.time_us = *ms;
    auto rest = text.substr(colon + 2);
    while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ')) rest.remove_suffix(1);
    auto const first = rest.find(" PID=");
    if (first == std::string_view::npos) return std::nullopt;
    line.kind = std::string(rest.substr(0, first));
    std::size_t at = first + 1;
    while (at < rest.size()) {
        auto const eq = rest.find('=', at);
        if (eq == std::string_view::npos) return std::nullopt;
        std::size_t end = rest.find("; ", eq);
        while (end != std::string_view::npos && !starts_field(rest, end + 2)) end = rest.find("; ", end + 1);
        std::size_t value_end = end;
        if (end == std::string_view::npos) value_end = rest.back() == ';' ? rest.size() - 1 : rest.size();
        line.fields.push_back({std::string(rest.substr(at, eq - at)), std::string(rest.substr(eq + 1, value_end - eq - 1))});
        if (end == std::string_view::npos) break;
        at = end + 2;
    }
    return line;
}

std::vector<event_line> parse_baseline(std::string const& text) {
    std::vector<event_line> lines;
    std::istringstream in(text);
    std::string s;
    std::size_t number = 0;
    while (std::getline(in, s)) {
        ++number;
        if (auto l = parse_event_line(s, number)) lines.push_back(std::move(*l));
    }
    return lines;
}

// ---- what etwctl decoded -------------------------------------------------------------------------------

enum class value_kind { integer, hex, boolean, text, process_flags };

/// One field of a decoded event, already converted the way TraceEvent prints it (its signedness).
struct value {
    value_kind kind = value_kind::integer;
    std::int64_t integer = 0;
    std::uint64_t bits = 0;
    bool boolean = false;
    std::string text;

    static value signed_int(std::int64_t v) { return {value_kind::integer, v, 0, false, {}}; }
    static value hex(std::uint64_t v) { return {value_kind::hex, 0, v, false, {}}; }
    static value flag(bool v) { return {value_kind::boolean, 0, 0, v, {}}; }
    static value string(std::string v) { return {value_kind::text, 0, 0, false, std::move(v)}; }
    static value process_flags(std::uint32_t v) { return {value_kind::process_flags, 0, v, false, {}}; }
};

/// TraceEvent's GetInt32At: the 32 bits as a signed number.
value i32(std::uint32_t v) { return value::signed_int(static_cast<std::int32_t>(v)); }
value u64(std::uint64_t v) { return value::signed_int(static_cast<std::int64_t>(v)); }
/// A header thread / process id, no_id printed as -1.
value header_id(std::uint32_t v) { return value::signed_int(v == trace::no_id ? -1 : std::int64_t{v}); }

std::string utf8(trace::utf16_text t) {
    std::string s(t.to_utf8({}), '\0');
    t.to_utf8(s);
    return s;
}

/// FILETIME (100 ns since 1601, UTC) as the baseline prints a date: "yy/MM/dd HH:mm:ss.ffffff".
std::string format_date(std::uint64_t filetime) {
    std::uint64_t const ticks_per_day = 864'000'000'000ULL;
    std::uint64_t days = filetime / ticks_per_day;
    std::uint64_t const in_day = filetime % ticks_per_day;
    auto const leap = [](std::uint64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; };
    std::uint64_t year = 1601;
    while (days >= (leap(year) ? 366U : 365U)) days -= leap(year) ? 366U : 365U, ++year;
    std::uint64_t const month_days[] = {31, leap(year) ? 29U : 28U, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    std::uint64_t month = 0;
    while (days >= month_days[month]) days -= month_days[month++];
    std::uint64_t const seconds = in_day / 10'000'000ULL;
    char out[80]; // room for any value of the fields (the compiler checks the widest)
    std::snprintf(out, sizeof out, "%02llu/%02llu/%02llu %02llu:%02llu:%02llu.%06llu", static_cast<unsigned long long>(year % 100),
                  static_cast<unsigned long long>(month + 1), static_cast<unsigned long long>(days + 1),
                  static_cast<unsigned long long>(seconds / 3600), static_cast<unsigned long long>(seconds / 60 % 60),
                  static_cast<unsigned long long>(seconds % 60), static_cast<unsigned long long>(in_day % 10'000'000ULL / 10));
    return out;
}

/// A PE TimeDateStamp (seconds since 1970, unsigned) as a date.
std::string format_time_date_stamp(std::uint32_t stamp) {
    std::uint64_t const filetime_1970 = 116'444'736'000'000'000ULL;
    return format_date(filetime_1970 + std::uint64_t{stamp} * 10'000'000ULL);
}

/// The trace's NT -> DOS path mapping, as TraceEvent applied it to this trace: the volume the baseline's
/// SysConfig/VolumeMapping lines map to C:\ (printed cut, "\Device\HarddiskVolu..."; the image events carry
/// the full name), \SystemRoot\ from the same lines, \Windows\ from SysConfig/SystemPaths (the system
/// drive), and \Device\Mup\ -> \\ (a network path: the baseline's Image/Load of Test.x86.exe prints
/// "\\DfsClient\..."). The first matching prefix wins, case-insensitively, as in TraceEvent.
struct path_row {
    std::string_view nt;
    std::string_view dos;
};
constexpr path_row nt_to_dos_rows[] = {
    {"\\Device\\HarddiskVolume2\\", "C:\\"},
    {"\\SystemRoot\\", "C:\\Windows\\"},
    {"\\Device\\Mup\\", "\\\\"},
    {"\\Windows\\", "C:\\Windows\\"},
};

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        auto const a = static_cast<unsigned char>(s[i]), b = static_cast<unsigned char>(prefix[i]);
        if ((a >= 'A' && a <= 'Z' ? a + 32 : a) != (b >= 'A' && b <= 'Z' ? b + 32 : b)) return false;
    }
    return true;
}

std::string nt_to_dos(std::string const& nt) {
    for (auto const& row : nt_to_dos_rows)
        if (starts_with_nocase(nt, row.nt)) return std::string(row.dos) + nt.substr(row.nt.size());
    return nt;
}

/// An event etwctl decoded, with its fields under TraceEvent's names.
struct decoded_event {
    std::string kind;
    std::int64_t time_ns = 0;
    std::uint16_t cpu = 0;
    std::vector<std::pair<std::string, value>> fields;

    void add(std::string name, value v) { fields.emplace_back(std::move(name), std::move(v)); }
    value const* find(std::string_view name) const {
        for (auto const& f : fields)
            if (f.first == name) return &f.second;
        return nullptr;
    }
};

/// The field that tells apart two events of a kind at the same millisecond on the same processor.
std::string_view identity_field(std::string_view kind) {
    if (kind.find("/Image/") != std::string_view::npos) return "ImageBase";
    if (kind.find("/Process/") != std::string_view::npos) return "ProcessID";
    if (kind.find("/PerfInfo/Sample") != std::string_view::npos) return "InstructionPointer";
    return "TID";
}

/// The kinds this test compares (TraceEvent's names) and etwctl's kernel names for them.
struct compared_kind {
    std::string_view traceevent;
    std::string_view etwctl;
};
constexpr compared_kind compared_kinds[] = {
    {"Windows Kernel/EventTrace", "EventTraceHeader"},
    {"Windows Kernel/EventTrace/Extension", "EventTraceExtension"},
    {"Windows Kernel/EventTrace/EndExtension", "EventTraceEndExtension"},
    {"Windows Kernel/EventTrace/RundownComplete", "EventTraceRundownComplete"},
    {"Windows Kernel/PerfInfo/Sample", "SampledProfile"},
    {"Windows Kernel/PerfInfo/CollectionStart", "ProfileSetIntervalDCStart"},
    {"Windows Kernel/PerfInfo/CollectionEnd", "ProfileSetIntervalDCEnd"},
    {"Windows Kernel/Thread/Start", "ThreadCreate"},
    {"Windows Kernel/Thread/Stop", "ThreadDelete"},
    {"Windows Kernel/Thread/DCStart", "ThreadDCStart"},
    {"Windows Kernel/Thread/DCStop", "ThreadDCEnd"},
    {"Windows Kernel/Process/Start", "ProcessCreate"},
    {"Windows Kernel/Process/Stop", "ProcessDelete"},
    {"Windows Kernel/Process/DCStart", "ProcessDCStart"},
    {"Windows Kernel/Process/DCStop", "ProcessDCEnd"},
    {"Windows Kernel/Process/Defunct", "ProcessDefunct"},
    {"Windows Kernel/Image/Load", "ImageLoad"},
    {"Windows Kernel/Image/Unload", "ImageUnload"},
    {"Windows Kernel/Image/DCStart", "ImageDCStart"},
    {"Windows Kernel/Image/DCStop", "ImageDCEnd"},
};

std::string traceevent_kind(std::string_view etwctl_name) {
    for (auto const& k : compared_kinds)
        if (k.etwctl == etwctl_name) return std::string(k.traceevent);
    return {};
}
bool is_compared_kind(std::string_view traceevent_name) {
    for (auto const& k : compared_kinds)
        if (k.traceevent == traceevent_name) return true;
    return false;
}

/// What TraceEvent prints that is not etwctl's to compare, by kind ("" = every kind), with the value the
/// baseline must show when TraceEvent prints a fixed one (so the exception is exactly what TraceEvent does).
struct not_compared_field {
    std::string_view kind_part; ///< a part of the kind name ("" = all)
    std::string_view name;
    std::optional<std::string_view> fixed; ///< the only text the baseline may print, if TraceEvent fixes it
    std::string_view why;
};
const not_compared_field not_compared[] = {
    {"", "PName", std::nullopt, "TraceEvent's name of the process, from its own process table (\"Process(616)\" when it has none)"},
    {"/Process/", "TID", "-1", "TraceEvent sets every process event's thread to -1 (ProcessTraceData.FixupData)"},
    {"/Image/Unload", "TID", "-1", "TraceEvent prints -1 for image events other than Load (I: the header names a thread)"},
    {"/Image/DCStart", "TID", "-1", "as Image/Unload"},
    {"/Image/DCStop", "TID", "-1", "as Image/Unload"},
    {"/Thread/Stop", "ParentThreadID", "-1", "TraceEvent has a parent on Start only (ThreadTraceData.FixupData)"},
    {"/Thread/Stop", "ParentProcessID", "-1", "as ParentThreadID"},
    {"/Thread/DC", "ParentThreadID", "-1", "as Thread/Stop"},
    {"/Thread/DC", "ParentProcessID", "-1", "as Thread/Stop"},
};

not_compared_field const* find_not_compared(std::string_view kind, std::string_view name) {
    for (auto const& n : not_compared)
        if (n.name == name && kind.find(n.kind_part) != std::string_view::npos) return &n;
    return nullptr;
}

// ---- comparing one value -------------------------------------------------------------------------------

std::string describe(value const& v) {
    switch (v.kind) {
    case value_kind::integer: return std::to_string(v.integer);
    case value_kind::hex: {
        char out[24];
        std::snprintf(out, sizeof out, "0x%llx", static_cast<unsigned long long>(v.bits));
        return out;
    }
    case value_kind::boolean: return v.boolean ? "True" : "False";
    case value_kind::text: return "\"" + v.text + "\"";
    case value_kind::process_flags: return "flags " + std::to_string(v.bits);
    }
    return {};
}

/// TraceEvent's ProcessFlags names (KernelTraceEventParser.cs) -> bits.
std::optional<std::uint64_t> process_flags_of(std::string_view text) {
    if (auto const n = parse_number(text)) return static_cast<std::uint64_t>(*n);
    constexpr std::pair<std::string_view, std::uint64_t> names[] = {{"None", 0}, {"PackageFullName", 1}, {"Wow64", 2}, {"Protected", 4}};
    std::uint64_t bits = 0;
    while (!text.empty()) {
        auto const comma = text.find(", ");
        auto const name = text.substr(0, comma);
        bool known = false;
        for (auto const& [n, b] : names)
            if (n == name) bits |= b, known = true;
        if (!known) return std::nullopt;
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 2);
    }
    return bits;
}

/// Whether the baseline's text shows `v`. A string TraceEvent cut ("...", after 20 characters) matches
/// a longer value that starts with it.
bool shows(std::string_view text, value const& v) {
    switch (v.kind) {
    case value_kind::integer: {
        auto const n = parse_number(text);
        return n && *n == v.integer;
    }
    case value_kind::hex: {
        if (text.substr(0, 2) != "0x" || text.size() == 2) return false;
        std::uint64_t n = 0;
        auto const [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), n, 16);
        return ec == std::errc{} && end == text.data() + text.size() && n == v.bits;
    }
    case value_kind::boolean: return text == (v.boolean ? "True" : "False");
    case value_kind::text: {
        if (text.size() >= 3 && text.substr(text.size() - 3) == "...") {
            auto const prefix = text.substr(0, text.size() - 3);
            return v.text.size() > prefix.size() && std::string_view{v.text}.substr(0, prefix.size()) == prefix;
        }
        return text == v.text;
    }
    case value_kind::process_flags: {
        auto const bits = process_flags_of(text);
        return bits && *bits == v.bits;
    }
    }
    return false;
}

// ---- matching a line to its event ----------------------------------------------------------------------

struct line_result {
    bool matched = false;
    std::size_t fields_compared = 0;   ///< equal to etwctl's value (ProceNum included)
    std::size_t fields_not_compared = 0; ///< listed in not_compared
    std::vector<std::string> problems;
};

/// Finds the line's event (same kind, same processor, the same time to the printed 3 decimals; when
/// several, the same TID / PID / identity field) and compares every printed field. taken_by[i] is the
/// line that took events[i] (0: none yet), so that no event serves two lines.
line_result compare_line(event_line const& line, std::vector<decoded_event> const& events, std::vector<std::size_t>& taken_by) {
    line_result r;
    auto const where = "line " + std::to_string(line.number) + " (" + line.kind + " at " + std::to_string(line.time_us) + " us)";
    auto const cpu_text = line.get("ProceNum");
    auto const cpu = cpu_text ? parse_number(*cpu_text) : std::nullopt;
    if (!cpu) {
        r.problems.push_back(where + ": no ProceNum");
        return r;
    }
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < events.size(); ++i) {
        auto const& e = events[i];
        std::int64_t const delta = e.time_ns - line.time_us * 1000;
        if (e.kind == line.kind && e.cpu == *cpu && delta <= 500 && delta >= -500) candidates.push_back(i);
    }
    for (std::string_view key : {std::string_view{"TID"}, std::string_view{"PID"}, identity_field(line.kind)}) {
        if (candidates.size() <= 1) break;
        auto const text = line.get(key);
        if (!text) continue;
        std::vector<std::size_t> kept;
        for (std::size_t i : candidates)
            if (auto const* v = events[i].find(key); v && shows(*text, *v)) kept.push_back(i);
        if (!kept.empty()) candidates = std::move(kept);
    }
    if (candidates.size() != 1) {
        r.problems.push_back(where + ": " + std::to_string(candidates.size()) + " etwctl events of that kind, processor and time");
        return r;
    }
    decoded_event const& e = events[candidates.front()];
    if (taken_by[candidates.front()] != 0) {
        r.problems.push_back(where + ": its event was already taken by line " + std::to_string(taken_by[candidates.front()]));
        return r;
    }
    taken_by[candidates.front()] = line.number;
    r.matched = true;
    for (auto const& f : line.fields) {
        if (f.name == "ProceNum") { // the processor: the event was chosen by it
            ++r.fields_compared;
            continue;
        }
        if (auto const* v = e.find(f.name)) {
            if (shows(f.value, *v)) ++r.fields_compared;
            else r.problems.push_back(where + ": " + f.name + " is " + f.value + " in TraceEvent, " + describe(*v) + " in etwctl");
            continue;
        }
        if (auto const* n = find_not_compared(line.kind, f.name)) {
            if (n->fixed && f.value != *n->fixed)
                r.problems.push_back(where + ": " + f.name + " is " + f.value + ", not TraceEvent's fixed " + std::string(*n->fixed));
            else ++r.fields_not_compared;
            continue;
        }
        r.problems.push_back(where + ": field " + f.name + " is unknown to this test for " + line.kind);
    }
    return r;
}

// ---- decoding the trace --------------------------------------------------------------------------------

template <class E>
decoded_event start(E const& e) {
    decoded_event d;
    d.kind = traceevent_kind(e.event().kernel_name());
    d.time_ns = e.time().time_since_epoch().count();
    d.cpu = e.processor();
    d.add("DataLen", u64(e.rec().payload().size()));
    return d;
}

template <class E>
void add_header_ids(decoded_event& d, E const& e) {
    d.add("PID", header_id(e.rec().process_id()));
    d.add("TID", header_id(e.rec().thread_id()));
}

decoded_event decode(trace::event_trace_header const& e) {
    auto d = start(e);
    add_header_ids(d, e);
    d.add("BufferSize", i32(e.buffer_size()));
    // Version: the four version bytes as one little-endian u32
    d.add("Version", i32(std::uint32_t{e.major_version()} | std::uint32_t{e.minor_version()} << 8 |
                         std::uint32_t{e.sub_version()} << 16 | std::uint32_t{e.sub_minor_version()} << 24));
    d.add("ProviderVersion", i32(e.provider_version()));
    d.add("NumberOfProcessors", i32(e.number_of_processors()));
    d.add("EndTime", value::string(format_date(e.end_time())));
    d.add("TimerResolution", i32(e.timer_resolution()));
    d.add("MaxFileSize", i32(e.maximum_file_size()));
    d.add("LogFileMode", i32(e.log_file_mode()));
    d.add("BuffersWritten", i32(e.buffers_written()));
    d.add("StartBuffers", i32(e.start_buffers()));
    d.add("PointerSize", i32(e.pointer_size()));
    d.add("EventsLost", i32(e.events_lost()));
    d.add("CPUSpeed", i32(e.cpu_speed_mhz()));
    d.add("BootTime", value::string(format_date(e.boot_time())));
    d.add("PerfFreq", u64(e.perf_freq()));
    d.add("StartTime", value::string(format_date(e.start_time())));
    d.add("ReservedFlags", i32(e.reserved_flags()));
    d.add("BuffersLost", i32(e.buffers_lost()));
    d.add("SessionName", value::string(utf8(e.logger_name())));
    d.add("LogFileName", value::string(utf8(e.log_file_name())));
    // TraceEvent's UtcOffsetMinutes is the TimeZone's Bias (the i32 at the start of TIME_ZONE_INFORMATION)
    d.add("UtcOffsetMinutes", value::signed_int(e.time_zone_bias()));
    return d;
}

decoded_event decode(trace::header_extension const& e) {
    auto d = start(e);
    add_header_ids(d, e);
    for (std::size_t i = 0; i < trace::header_extension::group_mask_count; ++i)
        d.add("GroupMask" + std::to_string(i + 1), i32(e.group_mask(i)));
    d.add("KernelEventVersion", i32(e.kernel_event_version()));
    return d;
}

decoded_event decode(trace::rundown_complete const& e) {
    auto d = start(e);
    add_header_ids(d, e);
    return d;
}

decoded_event decode(trace::sampled_profile_interval const& e) {
    auto d = start(e);
    add_header_ids(d, e);
    d.add("SampleSource", i32(e.source()));
    d.add("NewInterval", i32(e.new_interval()));
    d.add("OldInterval", i32(e.old_interval()));
    d.add("SourceName", value::string(utf8(e.source_name())));
    return d;
}

/// TraceEvent's thread -> process map (KernelTraceEventParserState.threadIDtoProcessID, fed by Thread
/// Start and DCStart, each entry added as holding from time 0). Here a DCStart entry holds from the
/// trace's start (the thread existed before the session) and a Start entry from its own time (so that a
/// reused thread id does not rename earlier samples; the baseline cannot tell the two rules apart). The
/// start rundown's DCStarts are
/// logged while the profile already samples (17.6 - 22.8 ms here), so the map is built in a first pass
/// over the trace. (I: the baseline needs it - it gives PerfView's thread 2784 process 3988 in samples
/// from 18.627 ms, before that thread's DCStart at 22.175 ms; TraceEvent's TraceLog conversion, which
/// wrote the baseline, knows the rundown's threads before it reads the samples.)
class thread_to_process {
public:
    void add(std::uint32_t thread, std::int64_t from_ns, std::uint32_t process) { entries_[thread].push_back({from_ns, process}); }
    /// The process of `thread` at `time_ns`: the latest entry in force; nullopt if none.
    std::optional<std::uint32_t> at(std::uint32_t thread, std::int64_t time_ns) const {
        auto const it = entries_.find(thread);
        if (it == entries_.end()) return std::nullopt;
        std::optional<std::uint32_t> found;
        std::int64_t found_from = 0;
        for (auto const& [from, process] : it->second)
            if (from <= time_ns && (!found || from >= found_from)) found = process, found_from = from;
        return found;
    }

private:
    std::unordered_map<std::uint32_t, std::vector<std::pair<std::int64_t, std::uint32_t>>> entries_;
};

decoded_event decode(trace::sampled_profile const& e, thread_to_process const& processes) {
    auto d = start(e);
    auto const process = processes.at(e.thread_id(), d.time_ns);
    d.add("PID", process ? header_id(*process) : value::signed_int(-1));
    d.add("TID", header_id(e.thread_id()));
    d.add("InstructionPointer", value::hex(e.instruction_pointer()));
    d.add("ProcessorNumber", value::signed_int(e.processor()));
    d.add("Priority", value::signed_int(e.priority()));
    d.add("ExecutingDPC", value::flag(e.executing_dpc()));
    d.add("ExecutingISR", value::flag(e.executing_isr()));
    d.add("Rank", value::signed_int(e.rank()));
    d.add("Count", value::signed_int(e.count()));
    return d;
}

decoded_event decode(trace::thread_event const& e) {
    auto d = start(e);
    bool const stop = e.rec().hook() == etwctl::hook_id{0x0502};
    if (stop) {
        add_header_ids(d, e);
    } else {
        d.add("PID", header_id(e.process_id()));
        d.add("TID", header_id(e.thread_id()));
    }
    if (e.rec().hook() == etwctl::hook_id{0x0501}) { // the creating thread: the header's
        d.add("ParentThreadID", header_id(e.rec().thread_id()));
        d.add("ParentProcessID", header_id(e.rec().process_id()));
    }
    d.add("StackBase", value::hex(e.stack_base()));
    d.add("StackLimit", value::hex(e.stack_limit()));
    d.add("UserStackBase", value::hex(e.user_stack_base()));
    d.add("UserStackLimit", value::hex(e.user_stack_limit()));
    d.add("StartAddr", value::hex(e.start_addr())); // TraceEvent's (v2) name of the Affinity slot
    d.add("Win32StartAddr", value::hex(e.win32_start_addr()));
    d.add("TebBase", value::hex(e.teb_base()));
    d.add("SubProcessTag", i32(e.sub_process_tag()));
    // TraceEvent reads the four as unsigned bytes (GetByteAt)
    d.add("BasePriority", value::signed_int(static_cast<std::uint8_t>(e.base_priority())));
    d.add("PagePriority", value::signed_int(e.page_priority()));
    d.add("IoPriority", value::signed_int(e.io_priority()));
    d.add("ThreadFlags", value::signed_int(e.thread_flags()));
    d.add("ThreadName", value::string(utf8(e.thread_name())));
    return d;
}

decoded_event decode(trace::process_event const& e) {
    auto d = start(e);
    d.add("PID", header_id(e.process_id()));
    d.add("ProcessID", i32(e.process_id()));
    d.add("ParentID", i32(e.parent_id()));
    d.add("ImageFileName", value::string(std::string(e.image_file_name())));
    d.add("PageDirectoryBase", value::hex(e.directory_table_base()));
    d.add("Flags", value::process_flags(e.flags()));
    d.add("SessionID", i32(e.session_id()));
    d.add("ExitStatus", value::signed_int(e.exit_status()));
    d.add("UniqueProcessKey", value::hex(e.unique_process_key()));
    d.add("CommandLine", value::string(utf8(e.command_line())));
    d.add("PackageFullName", value::string(utf8(e.package_full_name())));
    d.add("ApplicationID", value::string(utf8(e.application_id())));
    return d;
}

decoded_event decode(trace::image_event const& e) {
    auto d = start(e);
    d.add("PID", header_id(e.process_id()));
    if (e.rec().hook() == etwctl::hook_id{0x030A}) d.add("TID", header_id(e.rec().thread_id())); // the loading thread
    d.add("ImageBase", value::hex(e.image_base()));
    d.add("ImageSize", u64(e.image_size()));
    d.add("ImageChecksum", i32(e.image_checksum()));
    d.add("TimeDateStamp", i32(e.time_date_stamp()));
    d.add("DefaultBase", value::hex(e.default_base()));
    d.add("BuildTime", value::string(format_time_date_stamp(e.time_date_stamp())));
    d.add("FileName", value::string(nt_to_dos(utf8(e.file_name()))));
    return d;
}

struct decoded_trace {
    std::vector<decoded_event> events;
    std::uint64_t raw = 0; ///< records of a compared kind a layout refused
    std::vector<std::string> refused;
};

/// The first pass: TraceEvent's thread -> process map.
thread_to_process thread_map(trace::trace_file const& f) {
    std::vector<std::byte> storage(trace::reader::storage_size(f));
    trace::reader r(f, storage);
    trace::event_stream s(r);
    thread_to_process map;
    trace::dispatch(s, trace::on<"ThreadDCStart">([&](trace::thread_event const& e) { map.add(e.thread_id(), (std::numeric_limits<std::int64_t>::min)(), e.process_id()); }),
                    trace::on<"ThreadCreate">([&](trace::thread_event const& e) {
                        map.add(e.thread_id(), e.time().time_since_epoch().count(), e.process_id());
                    }));
    return map;
}

decoded_trace decode_trace(std::vector<std::byte> const& bytes) {
    decoded_trace out;
    INFO("decoding net.4.5.2.x86.etl");
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f.has_value());
    thread_to_process const processes = thread_map(*f);
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    trace::reader r(*f, storage);
    REQUIRE(r.init_fault().what == etwctl::rule::ok);
    trace::event_stream s(r);
    auto keep = [&](auto const& e) { out.events.push_back(decode(e)); };
    trace::dispatch(s, trace::on<"EventTraceHeader">(keep), trace::on<"EventTraceExtension">(keep),
                    trace::on<"EventTraceEndExtension">(keep), trace::on<"EventTraceRundownComplete">(keep),
                    trace::on<"SampledProfile">([&](trace::sampled_profile const& e) { out.events.push_back(decode(e, processes)); }),
                    trace::on<"ProfileSetIntervalDCStart">(keep), trace::on<"ProfileSetIntervalDCEnd">(keep),
                    trace::on<"ThreadCreate">(keep), trace::on<"ThreadDelete">(keep), trace::on<"ThreadDCStart">(keep),
                    trace::on<"ThreadDCEnd">(keep), trace::on<"ProcessCreate">(keep), trace::on<"ProcessDelete">(keep),
                    trace::on<"ProcessDCStart">(keep), trace::on<"ProcessDCEnd">(keep), trace::on<"ProcessDefunct">(keep),
                    trace::on<"ImageLoad">(keep), trace::on<"ImageUnload">(keep), trace::on<"ImageDCStart">(keep),
                    trace::on<"ImageDCEnd">(keep), trace::on_raw([&](trace::raw_event const& e) {
                        auto const kind = traceevent_kind(e.event().kernel_name());
                        if (kind.empty()) return;
                        ++out.raw;
                        out.refused.push_back(kind + ": " + std::string(trace::to_string(e.reason())));
                    }));
    return out;
}

/// The trace's decoding, once for every test case (they only read it).
decoded_trace const& net_trace() {
    static decoded_trace const decoded = decode_trace(etwctl_test::read_trace_data("net.4.5.2.x86.etl"));
    return decoded;
}

/// Per kind: lines, lines matched, fields compared, fields not compared.
struct kind_count {
    std::size_t lines = 0, matched = 0, compared = 0, not_compared = 0;
};

} // namespace baseline_check

TEST_CASE("baseline: the line parser reads TraceEvent's numbers, cut strings and values holding \"; \"") {
    using namespace baseline_check;
    auto const l = parse_event_line("EVENT 2,620.997: Windows Kernel/Image/Load PID=3508; TID=3512; PName=cmd; ProceNum=7; "
                                    "DataLen=274; TimeDateStamp=-1,726,546,814; FileName=\\\\DfsClient\\;Z:00000...; ",
                                    9);
    REQUIRE(l.has_value());
    CHECK(l->number == 9);
    CHECK(l->time_us == 2620997);
    CHECK(l->kind == "Windows Kernel/Image/Load");
    REQUIRE(l->fields.size() == 7);
    CHECK(l->fields[5].name == "TimeDateStamp");
    CHECK(parse_number(l->fields[5].value) == -1726546814);
    CHECK(l->fields[6].value == "\\\\DfsClient\\;Z:00000...");
    CHECK(shows(l->fields[6].value, value::string("\\\\DfsClient\\;Z:0000000000020d40\\clrmain")));
    CHECK_FALSE(shows(l->fields[6].value, value::string("\\\\DfsClient\\;Z:00000"))); // cut means longer
    CHECK_FALSE(shows(l->fields[6].value, value::string("\\\\DfsClient\\;Y:0000000000020d40")));
    // a value with "; " followed by something that is not a field name stays one value
    auto const m = parse_event_line("EVENT 0.000: Windows Kernel/X PID=1; TID=2; CommandLine=a; b c; Next=3; ", 1);
    REQUIRE(m.has_value());
    CHECK(m->get("CommandLine") == std::optional<std::string_view>{"a; b c"});
    CHECK(m->get("Next") == std::optional<std::string_view>{"3"});
    CHECK(process_flags_of("Wow64, Protected") == std::optional<std::uint64_t>{6});
    CHECK_FALSE(process_flags_of("Wow64, Frozen").has_value());
    CHECK(format_date(132404547910855393ULL).substr(0, 20) == "20/07/29 00:06:31.08");
    CHECK(format_time_date_stamp(static_cast<std::uint32_t>(-1726546814)).substr(0, 17) == "51/05/23 02:08:02");
}

TEST_CASE("baseline: TraceEvent's relative time 0 is the header event's timestamp in the file's clock") {
    using namespace baseline_check;
    auto const bytes = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f.has_value());
    // The rule the line matching relies on: trace::clock counts from the header record's own timestamp, at
    // PerfFreq ticks per second (ReservedFlags 1: QPC) - TraceEvent prints the header itself at 0.000.
    CHECK(f->clock().origin() == f->header_record().timestamp());
    CHECK(f->clock().type() == trace::clock_type::qpc);
    CHECK(f->clock().ticks_per_second() == f->header().perf_freq());
    auto const lines = parse_baseline(etwctl_test::read_text_data("net.4.5.2.x86.baseline.txt"));
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.front().kind == "Windows Kernel/EventTrace");
    CHECK(lines.front().time_us == 0);
    CHECK(f->clock().time(f->header_record().timestamp()).time_since_epoch().count() == 0);
}

TEST_CASE("baseline: the NT -> DOS path rows are the ones the baseline's SysConfig lines print") {
    using namespace baseline_check;
    auto const lines = parse_baseline(etwctl_test::read_text_data("net.4.5.2.x86.baseline.txt"));
    // The mapping TraceEvent read from the trace: each row of nt_to_dos_rows but \Device\Mup\ (which the
    // baseline's Image/Load line shows applied) must be printed by a SysConfig line.
    auto printed = [&](std::string_view nt, std::string_view dos) {
        for (auto const& l : lines) {
            if (l.kind == "Windows Kernel/SysConfig/VolumeMapping") {
                auto const n = l.get("NtPath"), d = l.get("DosPath");
                if (!n || !d || *d != dos) continue;
                if (*n == nt) return true;
                if (n->size() > 3 && n->substr(n->size() - 3) == "..." && nt.substr(0, n->size() - 3) == n->substr(0, n->size() - 3))
                    return true;
            }
            if (l.kind == "Windows Kernel/SysConfig/SystemPaths" && nt == "\\Windows\\")
                if (auto const w = l.get("SystemWindowsDirectory"); w && *w == dos) return true;
        }
        return false;
    };
    for (auto const& row : nt_to_dos_rows) {
        if (row.nt == "\\Device\\Mup\\") continue;
        CHECK_MESSAGE(printed(row.nt, row.dos), std::string(row.nt));
    }
    CHECK(nt_to_dos("\\Device\\HarddiskVolume2\\Windows\\SysWOW64\\ntdll.dll") == "C:\\Windows\\SysWOW64\\ntdll.dll");
    CHECK(nt_to_dos("\\SystemRoot\\system32\\ntoskrnl.exe") == "C:\\Windows\\system32\\ntoskrnl.exe");
    CHECK(nt_to_dos("\\Device\\Mup\\DfsClient\\x.exe") == "\\\\DfsClient\\x.exe");
}

TEST_CASE("baseline: every EVENT line of the kernel kinds etwctl types decodes to TraceEvent's values") {
    using namespace baseline_check;
    auto const text = etwctl_test::read_text_data("net.4.5.2.x86.baseline.txt");
    auto const lines = parse_baseline(text);
    // every EVENT line parses (a line the parser drops would be a line never compared)
    std::size_t event_lines = 0;
    for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
        if (text.compare(at, 6, "EVENT ") == 0) ++event_lines;
        if (text.find('\n', at) == std::string::npos) break;
    }
    CHECK(event_lines == 503);
    CHECK(lines.size() == event_lines);

    auto const& decoded = net_trace();
    CHECK_MESSAGE(decoded.raw == 0, "records of a compared kind refused by their layout: " << decoded.raw
                                                                                          << (decoded.refused.empty() ? "" : " (first: " + decoded.refused.front() + ")"));
    std::vector<std::size_t> taken_by(decoded.events.size());

    std::map<std::string, kind_count> counts;
    std::size_t problems = 0;
    for (auto const& line : lines) {
        if (!is_compared_kind(line.kind)) continue;
        auto& c = counts[line.kind];
        ++c.lines;
        auto const r = compare_line(line, decoded.events, taken_by);
        for (auto const& p : r.problems) FAIL_CHECK(p);
        problems += r.problems.size();
        if (r.matched) ++c.matched;
        c.compared += r.fields_compared;
        c.not_compared += r.fields_not_compared;
    }
    CHECK(problems == 0);

    std::ostringstream summary;
    summary << "kind: lines matched / lines, fields equal (+ fields TraceEvent computes, not compared)\n";
    std::size_t total_lines = 0, total_fields = 0;
    for (auto const& entry : counts) {
        std::string const& kind = entry.first; // not a structured binding: doctest's messages capture it
        kind_count const& c = entry.second;
        CHECK_MESSAGE(c.matched == c.lines, kind);
        CHECK_MESSAGE(c.compared > c.lines, kind); // more than the processor of each line
        summary << "  " << kind << ": " << c.matched << " / " << c.lines << ", " << c.compared << " (+" << c.not_compared << ")\n";
        total_lines += c.matched;
        total_fields += c.compared;
    }
    summary << "  total: " << total_lines << " lines, " << total_fields << " fields equal\nnot compared:";
    for (auto const& n : not_compared)
        summary << "\n  " << (n.kind_part.empty() ? std::string_view{"every kind"} : n.kind_part) << " " << n.name << ": " << n.why;
    MESSAGE(summary.str());
    // The kinds of the list that this baseline holds: all but Thread/DCStart and Thread/DCStop, which
    // TraceEvent's sample does not print (the trace has them: they feed the thread -> process map).
    CHECK(counts.size() == 18);
    CHECK(counts.count("Windows Kernel/Thread/DCStart") == 0);
    std::size_t thread_rundowns = 0;
    for (auto const& e : decoded.events)
        if (e.kind == "Windows Kernel/Thread/DCStart") ++thread_rundowns;
    CHECK(thread_rundowns > 0);
}

TEST_CASE("baseline: a line that differs from etwctl's decoding fails the comparison") {
    using namespace baseline_check;
    auto const lines = parse_baseline(etwctl_test::read_text_data("net.4.5.2.x86.baseline.txt"));
    auto const& decoded = net_trace();
    auto first_of = [&](std::string_view kind) -> event_line {
        for (auto const& l : lines)
            if (l.kind == kind) return l;
        FAIL("no line of " << std::string(kind));
        return {};
    };
    auto problems_of = [&](event_line const& l) {
        std::vector<std::size_t> taken_by(decoded.events.size()); // fresh: no line has taken an event yet
        return compare_line(l, decoded.events, taken_by);
    };
    auto set = [](event_line l, std::string_view name, std::string v) {
        for (auto& f : l.fields)
            if (f.name == name) f.value = std::move(v);
        return l;
    };

    auto const sample = first_of("Windows Kernel/PerfInfo/Sample");
    auto const ok = problems_of(sample);
    CHECK(ok.matched);
    CHECK(ok.problems.empty());

    auto wrong_ip = problems_of(set(sample, "InstructionPointer", "0xfffff80021561f44"));
    CHECK(wrong_ip.problems.size() == 1);
    auto wrong_pid = problems_of(set(sample, "PID", "4"));
    CHECK(wrong_pid.problems.size() == 1);

    auto unknown = sample;
    unknown.fields.push_back({"NewField", "1"});
    auto const unknown_result = problems_of(unknown);
    REQUIRE(unknown_result.problems.size() == 1);
    CHECK(unknown_result.problems.front().find("NewField is unknown") != std::string::npos);

    auto moved = sample;
    moved.time_us += 1; // one printed unit (1 us) later: beyond the rounding of the 3rd decimal
    CHECK_FALSE(problems_of(moved).matched);

    auto other_cpu = set(sample, "ProceNum", "3");
    CHECK_FALSE(problems_of(other_cpu).matched);

    auto const process = first_of("Windows Kernel/Process/DCStart");
    CHECK(problems_of(process).problems.empty());
    CHECK(problems_of(set(process, "TID", "5")).problems.size() == 1);        // TraceEvent's fixed -1
    CHECK(problems_of(set(process, "Flags", "Wow64")).problems.size() == 1);  // Idle has no flags
    CHECK(problems_of(set(process, "Flags", "Frozen")).problems.size() == 1); // not a ProcessFlags name

    auto const image = first_of("Windows Kernel/Image/DCStart");
    CHECK(problems_of(image).problems.empty());
    CHECK(problems_of(set(image, "FileName", "C:\\Windows\\SysWOW63\\...")).problems.size() == 1);
    CHECK(problems_of(set(image, "BuildTime", "70/01/02 00:00:00.00...")).problems.size() == 1);
}

TEST_CASE("baseline: the EventTrace/Extension group masks are what Windows ran for PerfView's Default kernel flags") {
    using namespace baseline_check;
    // PerfView's log names the kernel keywords it enabled: "Default" only.
    auto const log = etwctl_test::read_text_data("net.4.5.2.collection-log.txt");
    auto const keywords = log.find("Kernel keywords enabled: ");
    REQUIRE(keywords != std::string::npos);
    CHECK(log.substr(keywords + 25, log.find_first_of("\r\n", keywords) - keywords - 25) == "Default");

    // PerfView's Default is TraceEvent's KernelTraceEventParser.Keywords.Default = DiskIO | DiskFileIO |
    // DiskIOInit | ImageLoad | MemoryHardFaults | NetworkTCPIP | Process | ProcessCounters | Profile |
    // Thread, whose values are the SDK's EVENT_TRACE_FLAG_* bits (evntrace.h): the EnableFlags it passed.
    namespace flag = etwctl::event_trace_flag;
    std::uint32_t const enable_flags = flag::disk_io | flag::disk_file_io | flag::disk_io_init | flag::image_load |
                                       flag::memory_hard_faults | flag::network_tcpip | flag::process |
                                       flag::process_counters | flag::profile | flag::thread;
    // The same groups in xperf's names, one per keyword (Process + Thread = PROC_THREAD; ImageLoad = LOADER;
    // ProcessCounters = PERF_COUNTER; DiskIO = DISK_IO, which etwctl's table gives as 0x300, FILENAME
    // included; DiskFileIO = FILENAME; DiskIOInit = DISK_IO_INIT; MemoryHardFaults = HARD_FAULTS;
    // NetworkTCPIP = NETWORKTRACE; Profile = PROFILE, which is PERF_PROFILE in Masks[1]).
    constexpr etwctl::group_mask xperf =
        etwctl::kernel_flags<"PROC_THREAD+LOADER+PERF_COUNTER+DISK_IO+FILENAME+DISK_IO_INIT+HARD_FAULTS+NETWORKTRACE+PROFILE">;
    auto const from_flags = etwctl::group_mask::from_enable_flags(enable_flags);
    CHECK(xperf == from_flags); // the same groups (canonical forms)

    // What Windows logged: the EndExtension carries the masks being replaced, the Extension after it the
    // new ones (GC ETW_KERNEL_HEADER_EXTENSION). The header buffer's Extension (the relogger's) and the
    // masks before the session started and after it stopped are all zero; the session's own are PerfView's.
    auto const& decoded = net_trace();
    std::size_t extensions = 0, zero = 0, defaults = 0, defaults_ending = 0;
    for (auto const& e : decoded.events) {
        bool const end = e.kind == "Windows Kernel/EventTrace/EndExtension";
        if (!end && e.kind != "Windows Kernel/EventTrace/Extension") continue;
        ++extensions;
        etwctl::group_mask logged;
        for (std::size_t i = 0; i < 8; ++i) {
            auto const* v = e.find("GroupMask" + std::to_string(i + 1));
            REQUIRE(v != nullptr);
            logged.masks[i] = static_cast<std::uint32_t>(v->integer);
        }
        if (logged.empty()) {
            ++zero;
            continue;
        }
        INFO("extension at " << e.time_ns << " ns: masks[0] 0x" << std::hex << logged.masks[0] << ", masks[1] 0x" << logged.masks[1]);
        // Bit for bit etwctl's encoding of the xperf names.
        CHECK(identical(logged, xperf));
        // The relationship with the EnableFlags PerfView passed: Windows logs their canonical form. The
        // Masks[0] alias EVENT_TRACE_FLAG_PROFILE (0x01000000) becomes PERF_PROFILE (Masks[1] 0x2) and is
        // NOT repeated in Masks[0] (Windows 8's header extension; normalized() would keep both).
        CHECK(identical(logged, from_flags.canonical()));
        CHECK_FALSE(identical(logged, from_flags));
        CHECK_FALSE(identical(logged, from_flags.normalized()));
        CHECK((logged.masks[0] & flag::profile) == 0);
        ++defaults;
        if (end) ++defaults_ending;
    }
    CHECK(extensions == 5); // TraceEvent counts 3 Extension + 2 EndExtension
    CHECK(defaults == 2);   // the session's start (Extension) and its end (EndExtension)
    CHECK(defaults_ending == 1);
    CHECK(zero == 3);

    // And TraceEvent's own print of the session's Extension (GroupMask1=75,535; GroupMask2=2): etwctl's
    // encoding of the flags, independently of etwctl's reader.
    std::size_t printed = 0;
    for (auto const& l : parse_baseline(etwctl_test::read_text_data("net.4.5.2.x86.baseline.txt"))) {
        if (l.kind != "Windows Kernel/EventTrace/Extension" || l.get("GroupMask1") == std::optional<std::string_view>{"0"}) continue;
        ++printed;
        for (std::size_t i = 0; i < 8; ++i) {
            auto const v = l.get("GroupMask" + std::to_string(i + 1));
            REQUIRE(v.has_value());
            CHECK(parse_number(*v) == std::optional<std::int64_t>{xperf.masks[i]});
        }
    }
    CHECK(printed == 1);
}
