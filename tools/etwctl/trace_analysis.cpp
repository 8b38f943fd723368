#include "trace_analysis.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "etwctl/names/events.hpp"
#include "etwctl/names/groups.hpp"

#include "text.hpp"

namespace etwctl_tool::trace_tool {

// ---- text -------------------------------------------------------------------------------------------

void append_hex(std::string& out, std::uint64_t v, int digits) {
    static constexpr char d[] = "0123456789abcdef";
    int n = 1;
    while (n < 16 && (v >> (4 * n)) != 0) ++n;
    if (n < digits) n = digits < 16 ? digits : 16;
    char text[18] = {'0', 'x'};
    for (int i = 0; i < n; ++i) text[2 + i] = d[(v >> (4 * (n - 1 - i))) & 0xFU];
    out.append(text, static_cast<std::size_t>(n) + 2);
}

std::string hex_text(std::uint64_t v, int digits) {
    std::string s;
    append_hex(s, v, digits);
    return s;
}

std::string guid_text(etwctl::guid const& g) {
    char text[37];
    g.format(text);
    return std::string(text, 36);
}

void append_json_string(std::string& out, std::string_view s) {
    static constexpr char d[] = "0123456789abcdef";
    out += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        auto const c = static_cast<unsigned char>(s[i]);
        if (c >= 0x80) {
            std::size_t const n = utf8_sequence(s, i);
            if (n == 0) { // not UTF-8: the byte's value, so the output stays valid UTF-8
                out += "\\u00";
                out += d[c >> 4];
                out += d[c & 0xFU];
            } else {
                out.append(s.substr(i, n));
                i += n - 1;
            }
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += d[c >> 4];
                out += d[c & 0xFU];
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

void append_int(std::string& out, std::int64_t v) {
    char buf[24];
    auto const r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void append_uint(std::string& out, std::uint64_t v) {
    char buf[24];
    auto const r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void append_ms(std::string& out, std::int64_t ns) {
    std::uint64_t const magnitude = ns < 0 ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    if (ns < 0) out += '-';
    append_uint(out, magnitude / 1'000'000);
    out += '.';
    std::uint64_t const fraction = magnitude % 1'000'000;
    char digits[6];
    std::uint64_t f = fraction;
    for (int i = 5; i >= 0; --i, f /= 10) digits[i] = static_cast<char>('0' + f % 10);
    out.append(digits, 6);
}

std::string utf8(trace::utf16_text const& t) {
    std::string s(t.size() * 3, '\0'); // a UTF-16 code unit takes at most 3 UTF-8 bytes
    std::size_t const n = t.to_utf8(std::span<char>(s.data(), s.size()));
    s.resize(n < s.size() ? n : s.size());
    return s;
}

std::string sid_text(std::span<std::byte const> sid) {
    // winnt.h SID: Revision u8, SubAuthorityCount u8, IdentifierAuthority[6] (big-endian), SubAuthority[] u32
    if (sid.size() < 8) return {};
    auto const byte = [&](std::size_t i) { return std::to_integer<std::uint64_t>(sid[i]); };
    std::size_t const count = static_cast<std::size_t>(byte(1));
    if (sid.size() != 8 + 4 * count) return {};
    std::uint64_t authority = 0;
    for (std::size_t i = 2; i < 8; ++i) authority = authority << 8 | byte(i);
    std::string s = "S-" + std::to_string(byte(0)) + "-";
    if (authority >= (std::uint64_t{1} << 32)) s += hex_text(authority, 12); // the SDDL form of a large authority
    else s += std::to_string(authority);
    for (std::size_t k = 0; k < count; ++k) { // each SubAuthority little-endian
        std::size_t const at = 8 + 4 * k;
        s += "-" + std::to_string(byte(at) | byte(at + 1) << 8 | byte(at + 2) << 16 | byte(at + 3) << 24);
    }
    return s;
}

void append_bytes_hex(std::string& out, std::span<std::byte const> bytes) {
    static constexpr char d[] = "0123456789abcdef";
    std::size_t at = out.size();
    out.resize(at + 2 * bytes.size());
    for (std::byte const b : bytes) {
        auto const v = std::to_integer<unsigned>(b);
        out[at++] = d[v >> 4];
        out[at++] = d[v & 0xFU];
    }
}

// ---- naming a record --------------------------------------------------------------------------------

std::string_view kind_of(trace::record const& r) {
    switch (r.kind()) {
    case trace::record_kind::event: {
        trace::extended_item item;
        return r.find_item(trace::ext_type::event_schema_tl, item) ? "tracelogging" : "manifest";
    }
    case trace::record_kind::message: return "wpp";
    default: return "classic";
    }
}

std::string key_of(trace::record const& r) {
    switch (r.kind()) {
    case trace::record_kind::full:
    case trace::record_kind::instance: return guid_text(r.event_guid()) + "/" + std::to_string(r.opcode());
    case trace::record_kind::event: return guid_text(r.provider_id()) + "#" + std::to_string(r.descriptor().id);
    case trace::record_kind::message:
        if (r.message_flags() & trace::message_flag::guid)
            return guid_text(r.event_guid()) + "#" + std::to_string(r.message_number());
        return "component" + std::to_string(r.message_component_id()) + "#" + std::to_string(r.message_number());
    default: return hex_text(r.hook().value, 4);
    }
}

bool provider_of(trace::record const& r, etwctl::guid& out) {
    switch (r.kind()) {
    case trace::record_kind::full:
    case trace::record_kind::instance:
    case trace::record_kind::event: out = r.event_guid(); return true;
    case trace::record_kind::message:
        if ((r.message_flags() & trace::message_flag::guid) == 0) return false;
        out = r.event_guid();
        return true;
    default:
        if (r.hook().group() >= etwctl::kernel_group_count) return false;
        out = etwctl::kernel_group_table[r.hook().group()].event_guid;
        return true;
    }
}

bool tracelogging_metadata(trace::record const& r, trace::tl_event_metadata& out) {
    trace::extended_item item;
    if (r.kind() != trace::record_kind::event || !r.find_item(trace::ext_type::event_schema_tl, item)) return false;
    auto const parsed = trace::parse_event_metadata(item.data);
    if (!parsed.ok()) return false;
    out = parsed.metadata;
    return true;
}

std::string_view tracelogging_provider_name(trace::record const& r) {
    trace::extended_item item;
    if (r.kind() != trace::record_kind::event || !r.find_item(trace::ext_type::prov_traits, item)) return {};
    auto const parsed = trace::parse_provider_traits(item.data);
    return parsed.ok() ? parsed.value.provider_name : std::string_view{};
}

std::string_view name_of(trace::record const& r) {
    if (r.has_hook()) return etwctl::kernel_record_name(r.hook());
    trace::tl_event_metadata md;
    return tracelogging_metadata(r, md) ? md.name() : std::string_view{};
}

// ---- TraceLogging ------------------------------------------------------------------------------------

namespace {

/// "2021-09-09T14:59:35.7912345Z" (FILETIME: UTC, 100 ns).
std::string filetime_text(std::uint64_t ft) {
    auto const t = trace::tl_system_time_from_filetime(ft);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04u-%02u-%02uT%02u:%02u:%02u.%07uZ", unsigned{t.year}, unsigned{t.month}, unsigned{t.day},
                  unsigned{t.hour}, unsigned{t.minute}, unsigned{t.second}, static_cast<unsigned>(ft % 10'000'000));
    return buf;
}
/// "2021-09-09T14:59:35.030" (SYSTEMTIME: its time zone is the provider's).
std::string systemtime_text(trace::tl_system_time const& t) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04u-%02u-%02uT%02u:%02u:%02u.%03u", unsigned{t.year}, unsigned{t.month}, unsigned{t.day},
                  unsigned{t.hour}, unsigned{t.minute}, unsigned{t.second}, unsigned{t.milliseconds});
    return buf;
}

bool shown_in_hex(trace::tl_value const& v) {
    return v.in_type() == trace::tl_in_type::hex_int32 || v.in_type() == trace::tl_in_type::hex_int64 ||
           v.out_type() == trace::tl_out_type::hex;
}

/// One TraceLogging value as JSON (quoted = false: the same text without JSON's quotes, for the text dump).
void append_tl_value(std::string& out, trace::tl_value const& v, bool json) {
    using category = trace::tl_value_category;
    auto const quoted = [&](std::string const& s) {
        if (json) append_json_string(out, s);
        else out += s;
    };
    switch (v.category()) {
    case category::signed_integer:
        if (shown_in_hex(v)) quoted(hex_text(v.as_uint64()));
        else append_int(out, v.as_int64());
        return;
    case category::unsigned_integer:
        if (shown_in_hex(v)) quoted(hex_text(v.as_uint64()));
        else if (v.out_type() == trace::tl_out_type::boolean) out += v.as_bool() ? "true" : "false";
        else append_uint(out, v.as_uint64());
        return;
    case category::floating_point: {
        double const d = v.as_double();
        if (!std::isfinite(d)) { // JSON has no NaN or infinity
            quoted(std::isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
            return;
        }
        char buf[32];
        auto const r = std::to_chars(buf, buf + sizeof buf, d);
        out.append(buf, r.ptr);
        return;
    }
    case category::boolean: out += v.as_bool() ? "true" : "false"; return;
    case category::guid: quoted(guid_text(v.as_guid())); return;
    case category::pointer: quoted(hex_text(v.as_pointer())); return;
    case category::file_time: quoted(filetime_text(v.as_filetime())); return;
    case category::system_time: quoted(systemtime_text(v.as_systemtime())); return;
    case category::utf16_string: quoted(utf8(v.as_utf16())); return;
    case category::ansi_string:
        if (json) append_json_string(out, v.as_ansi());
        else out += v.as_ansi();
        return;
    case category::sid: quoted(sid_text(v.as_sid())); return;
    case category::binary:
    case category::custom: {
        std::string hex;
        append_bytes_hex(hex, v.as_binary());
        quoted(hex);
        return;
    }
    }
}

/// decode_tracelogging's visitor writing JSON: scalars as members, arrays as [...], structs as {...}.
struct tl_json_writer {
    std::string& out;
    std::vector<bool> empty{true}; // per open object / array: nothing written in it yet

    void separate() {
        if (!empty.back()) out += ',';
        empty.back() = false;
    }
    void member(std::string_view name) {
        append_json_string(out, name);
        out += ':';
    }
    void field(trace::tl_value const& v) {
        separate();
        if (v.index == trace::tl_no_index) member(v.name());
        append_tl_value(out, v, true);
    }
    void begin_struct(trace::tl_struct_info const& s) {
        separate();
        if (s.index == trace::tl_no_index) member(s.name());
        out += '{';
        empty.push_back(true);
    }
    void end_struct() {
        out += '}';
        empty.pop_back();
    }
    void begin_array(trace::tl_array_info const& a) {
        separate();
        member(a.name());
        out += '[';
        empty.push_back(true);
    }
    void end_array() {
        out += ']';
        empty.pop_back();
    }
};

/// The text dump's visitor: top-level values as name=value; an array or a struct as name=[n] / name={...}.
struct tl_text_writer {
    std::string& out;
    std::size_t max;
    std::size_t written = 0;
    std::size_t depth = 0;

    bool room() {
        if (written == max) out += " ...";
        return written++ < max;
    }
    void field(trace::tl_value const& v) {
        if (depth != 0 || !room()) return;
        out += ' ';
        out += v.name();
        out += '=';
        append_tl_value(out, v, false);
    }
    void begin_struct(trace::tl_struct_info const& s) {
        if (depth++ == 0 && room()) out += " " + std::string(s.name()) + "={...}";
    }
    void end_struct() { --depth; }
    void begin_array(trace::tl_array_info const& a) {
        if (depth++ == 0 && room()) out += " " + std::string(a.name()) + "=[" + std::to_string(a.element_count) + "]";
    }
    void end_array() { --depth; }
};

} // namespace

bool tracelogging_fields_json(trace::record const& r, trace::tl_event_metadata const& md, std::string& out, std::string& error) {
    tl_json_writer w{out};
    auto const result = trace::decode_tracelogging(md, r.payload(), r.pointer_size(), w);
    if (result.ok()) return true;
    std::string text(160, '\0');
    std::size_t n = result.fault.describe(std::span<char>(text.data(), text.size()));
    if (n > text.size()) {
        text.resize(n);
        n = result.fault.describe(std::span<char>(text.data(), text.size()));
    }
    text.resize(n);
    error = std::move(text);
    return false;
}

void tracelogging_fields_text(trace::record const& r, trace::tl_event_metadata const& md, std::string& out, std::size_t max) {
    tl_text_writer w{out, max};
    (void)trace::decode_tracelogging(md, r.payload(), r.pointer_size(), w);
}

// ---- processes and threads ---------------------------------------------------------------------------

namespace {
template <class View>
bool view_of(trace::record const& r, View& out) {
    trace::payload_ref const p{r.payload(), static_cast<std::uint8_t>(r.version()), r.pointer_size()};
    if (View::check(p) != trace::layout_fault::none) return false;
    out = View(p);
    return true;
}
} // namespace

void process_tracker::observe(trace::record const& r) {
    if (!r.has_hook()) return;
    switch (r.hook().value) {
    case 0x0501: // Thread Start
    case 0x0503: // Thread DCStart
        if (trace::layout::thread_event t; view_of(r, t)) process_of_thread_[t.thread_id()] = t.process_id();
        return;
    case 0x0301: // Process Start, DCStart: the name from now on
    case 0x0303:
        if (trace::layout::process_event p; view_of(r, p)) image_file_name_[p.process_id()] = std::string(p.image_file_name());
        return;
    case 0x0302: // End, DCEnd, Defunct: a name where none was known
    case 0x0304:
    case 0x0327:
        if (trace::layout::process_event p; view_of(r, p)) image_file_name_.try_emplace(p.process_id(), p.image_file_name());
        return;
    default: return;
    }
}

event_ids process_tracker::ids(trace::record const& r) const {
    auto const id = [](std::uint32_t v) { return v == trace::no_id ? std::int64_t{-1} : std::int64_t{v}; };
    event_ids ids{id(r.process_id()), id(r.thread_id())};
    auto const fill = [](std::int64_t& slot, std::uint32_t value) {
        if (slot == -1) slot = value;
    };
    // An event about a process (Process, Image) or a thread (Thread) belongs to it, not to the thread
    // that logged it (a parent's Process Start, the rundown of a session's controller): as TraceEvent
    // shows them. The logging thread is kept where it is in that process (an image load).
    auto const about_process = [&](std::uint32_t pid) {
        if (ids.pid != std::int64_t{pid}) ids.tid = -1;
        ids.pid = pid;
    };
    if (r.has_hook()) {
        switch (r.hook().value) {
        case 0x0F2E:
            if (trace::layout::sampled_profile v; view_of(r, v)) fill(ids.tid, v.thread_id());
            break;
        case 0x0F2F:
            if (trace::layout::pmc_counter_profile v; view_of(r, v)) fill(ids.tid, v.thread_id());
            break;
        case 0x1820:
            if (trace::layout::stack_walk_event v; view_of(r, v)) {
                fill(ids.tid, v.stack_thread());
                fill(ids.pid, v.stack_process());
            }
            break;
        case 0x1825:
        case 0x1826:
            if (trace::layout::stack_key_reference v; view_of(r, v)) {
                fill(ids.tid, v.thread_id());
                fill(ids.pid, v.process_id());
            }
            break;
        case 0x0301: case 0x0302: case 0x0303: case 0x0304: case 0x0327:
            if (trace::layout::process_event v; view_of(r, v)) about_process(v.process_id());
            break;
        case 0x0501: case 0x0502: case 0x0503: case 0x0504:
            if (trace::layout::thread_event v; view_of(r, v)) ids = {v.process_id(), v.thread_id()};
            break;
        case 0x030A: case 0x1402: case 0x1403: case 0x1404:
            if (trace::layout::image_event v; view_of(r, v)) about_process(v.process_id());
            break;
        case 0x0524:
            if (trace::layout::cswitch v; view_of(r, v)) fill(ids.tid, v.new_thread_id());
            break;
        default: break;
        }
    }
    if (ids.pid == -1 && ids.tid != -1)
        if (auto const it = process_of_thread_.find(static_cast<std::uint32_t>(ids.tid)); it != process_of_thread_.end()) ids.pid = it->second;
    return ids;
}

std::string process_tracker::process_label(std::int64_t pid) const {
    std::string name = "unknown";
    if (pid >= 0)
        if (auto const it = image_file_name_.find(static_cast<std::uint32_t>(pid)); it != image_file_name_.end() && !it->second.empty())
            name = it->second;
    return name + " (" + std::to_string(pid) + ")";
}

// ---- images ------------------------------------------------------------------------------------------

void image_map::observe(trace::record const& r) {
    if (!r.has_hook()) return;
    auto const h = r.hook().value;
    if (h != 0x030A && h != 0x1402 && h != 0x1403 && h != 0x1404) return;
    trace::layout::image_event v;
    if (!view_of(r, v)) return;
    auto& in = by_process_[v.process_id()];
    if (h == 0x1402) { // Unload: the range is free from now on
        in.erase(v.image_base());
        return;
    }
    std::string path = utf8(v.file_name());
    auto const slash = path.find_last_of("\\/");
    image img{v.image_size(), slash == std::string::npos ? path : path.substr(slash + 1)};
    if (h == 0x1404) in.try_emplace(v.image_base(), std::move(img)); // DCEnd: the end's rundown, not a new load
    else in.insert_or_assign(v.image_base(), std::move(img));
}

image_map::image const* image_map::find(images const& in, std::uint64_t address, std::uint64_t& base) {
    auto it = in.upper_bound(address);
    if (it == in.begin()) return nullptr;
    --it;
    if (address - it->first >= it->second.size) return nullptr;
    base = it->first;
    return &it->second;
}

void image_map::append_frame(std::string& out, std::int64_t pid, std::uint64_t address) const {
    std::uint64_t base = 0;
    image const* found = nullptr;
    if (pid > 0)
        if (auto const it = by_process_.find(static_cast<std::uint32_t>(pid)); it != by_process_.end()) found = find(it->second, address, base);
    if (!found)
        if (auto const it = by_process_.find(0); it != by_process_.end()) found = find(it->second, address, base);
    if (!found) {
        append_hex(out, address);
        return;
    }
    out += found->name;
    out += '+';
    append_hex(out, address - base);
}

// ---- stacks ------------------------------------------------------------------------------------------

void frames_of(trace::event const& e, std::vector<std::uint64_t>& out) {
    out.clear();
    for (std::uint64_t const f : e.stack()) out.push_back(f);
}

void stack_cache_pass::run(trace::trace_file const& file, std::span<std::byte> storage, progress_line& progress) {
    // Two passes in the reader's order: the census sizes the storage, the second fills it (each key
    // reference is resolved by the next definition of its key the trace logs after it).
    trace::stack_cache::needs needs;
    {
        trace::reader r(file, storage);
        trace::event_ref e;
        while (r.next(e)) {
            progress.at(e.buffer_offset);
            needs.census(e.rec);
        }
    }
    definitions_.assign(needs.definitions, {});
    references_.assign(needs.references, {});
    frames_.assign(needs.frame_bytes, std::byte{0});
    cache_ = trace::stack_cache(definitions_, references_, frames_);
    trace::reader r(file, storage);
    trace::event_ref e;
    while (r.next(e)) cache_.add(e);
    cache_.finish();
}

// ---- faults ------------------------------------------------------------------------------------------

bool intact(trace::record const& r) {
    trace::record again;
    if (trace::record_reader::read(r.bytes(), 0, again).what != etwctl::rule::ok) return false; // also checks the item chain
    return again.kind() == r.kind() && again.timestamp() == r.timestamp() && again.payload().size() == r.payload().size();
}

std::string describe(trace::fault const& f) {
    std::string text(200, '\0');
    std::size_t n = f.describe(std::span<char>(text.data(), text.size()));
    if (n > text.size()) {
        text.resize(n);
        n = f.describe(std::span<char>(text.data(), text.size()));
    }
    text.resize(n);
    if (text.rfind("trace: ", 0) == 0) text.erase(0, 7); // the rule texts start with their area; the tool's prefix says it
    return text;
}

void fault_printer::print(trace::fault const& f, void* self) noexcept {
    auto* const p = static_cast<fault_printer*>(self);
    if (p->printed > max_printed) return;
    char text[400];
    std::size_t const n = f.describe(std::span<char>(text, sizeof text - 1));
    text[n < sizeof text - 1 ? n : sizeof text - 1] = '\0';
    char const* shown = text;
    if (std::string_view(text).rfind("trace: ", 0) == 0) shown += 7;
    if (p->printed++ == max_printed)
        std::fprintf(stderr, "etwctl: trace: %s: more faults (counted, not printed)\n", p->file.c_str());
    else
        std::fprintf(stderr, "etwctl: trace: %s: %s\n", p->file.c_str(), shown);
}

} // namespace etwctl_tool::trace_tool
