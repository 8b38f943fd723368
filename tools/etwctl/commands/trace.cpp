// etwctl trace dump|stats|stacks FILE: reads an .etl file on any OS, with etwctl's trace reader
// (include/etwctl/trace.hpp); no kernel is involved. docs/tool.md, "Reading traces", gives the JSON members
// and the exit codes:
//   dump    one line per event in timestamp order (the header event first): text, or JSON Lines (--json);
//   stats   counts by key and by name, losses, samples per process, the SampledProfile reconciliation;
//   stacks  the sampled stacks in the folded format of flame-graph tools, frames named module+0xoffset
//           from the trace's own image events.
// Exit codes: 0 read whole; 1 usage; 2 not a trace etwctl can read (its header broke a rule; nothing
// read); 3 the file cannot be read (the system's error); 4 read with faults (each printed on stderr with
// its file offset; the events around them are in the output).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "etwctl/names/events.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/trace.hpp"

#include "../names.hpp"
#include "../trace_analysis.hpp"
#include "../trace_dump.hpp"
#include "../trace_input.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {

namespace tt = trace_tool;
namespace trace = etwctl::trace;

// ---- options ------------------------------------------------------------------------------------------

// event_filter: trace_dump.hpp (session consume filters with it too).

std::string_view trim_blanks(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

} // namespace

/// NAME,NAME,... ('+' joins too, as the stack-walk lists do): kernel names as names/events.hpp has them
/// (case-insensitive, aliases included: kernel_record_hook), hook ids as 0x0F2E, and TraceLogging event
/// names. A name that is not a kernel name but is close to one is taken for a misspelling (a usage
/// error with the nearest name), not for a TraceLogging name.
bool parse_event_filter(std::string_view text, event_filter& out, std::string& error) {
    std::string joined(text);
    std::replace(joined.begin(), joined.end(), '+', ',');
    std::vector<std::string_view> kernel_names;
    for (auto const& e : etwctl::kernel_event_table<>) kernel_names.push_back(e.name);
    for (auto const& r : etwctl::kernel_record_table<>) kernel_names.push_back(r.name);
    std::vector<std::uint16_t> seen;
    for (auto const& raw : split(joined, ',')) {
        std::string_view const name = trim_blanks(raw);
        if (name.empty()) {
            error = "bad --events '" + std::string(text) + "': an empty name";
            return false;
        }
        std::optional<etwctl::hook_id> hook;
        std::uint64_t id = 0;
        if (name.size() > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
            if (!parse_uint(name, 0xFFFF, id)) {
                error = "bad --events '" + std::string(text) + "': '" + std::string(name) + "' is not a hook id (0x0000..0xFFFF)";
                return false;
            }
            hook = etwctl::hook_id(static_cast<std::uint16_t>(id));
        } else {
            hook = etwctl::kernel_record_hook(name);
        }
        if (hook) {
            if (std::find(seen.begin(), seen.end(), hook->value) != seen.end()) {
                error = "bad --events '" + std::string(text) + "': name given twice '" + std::string(name) + "'";
                return false;
            }
            seen.push_back(hook->value);
            if (out.hooks.empty()) out.hooks.assign(0x10000, false);
            out.hooks[hook->value] = true;
            continue;
        }
        for (auto const& k : etwctl::kernel_event_without_hook)
            if (etwctl_tool::iequals(std::string_view(k.name), name)) {
                error = "bad --events '" + std::string(text) + "': '" + std::string(name) +
                        "' is a kernel event name whose hook id no public source gives (seen in " + std::string(k.seen_in) + ")";
                return false;
            }
        if (std::string const near = nearest_name(name, kernel_names); !near.empty()) {
            error = "bad --events '" + std::string(text) + "': unknown kernel event name '" + std::string(name) +
                    "' (did you mean " + near + "?)";
            return false;
        }
        out.names.emplace_back(name);
    }
    return true;
}

namespace {

struct trace_options {
    std::string path;
    event_filter events;
    bool has_pid = false;
    std::int64_t pid = -1;
    std::uint64_t limit = ~std::uint64_t{0};
};

// ---- the file ---------------------------------------------------------------------------------------

struct opened_trace {
    file_bytes bytes;
    trace::trace_file file;
    std::unique_ptr<std::byte[]> storage_bytes; // the reader's, reused by every pass
    std::span<std::byte> storage;
};

/// Reads the file and checks its header: exit 3 when it cannot be read, 2 when it is not a trace.
int open_trace(context const& ctx, std::string const& path, opened_trace& t) {
    std::error_code ec;
    std::string why;
    if (!file_bytes::open(path, t.bytes, ec, why)) {
        failure f{exit_kernel, ec, "cannot read " + path + ": " + why, {}, {}};
        f.details.str("file", path);
        f.hint = "give the path of an .etl file";
        return report_failure(ctx, f);
    }
    trace::fault bad;
    auto opened = trace::trace_file::open(t.bytes.bytes(), &bad);
    if (!opened) {
        failure f{exit_refused, bad.code(), path + " is not a trace etwctl can read: " + tt::describe(bad), {}, {}};
        f.details.str("file", path).num("file_offset", bad.file_offset + bad.offset).str("rule", etwctl::info(bad.what).name);
        return report_failure(ctx, f);
    }
    t.file = *opened;
    // Left uninitialised: the reader writes what it reads, and a size asked for by a corrupt buffer
    // header (a huge SavedOffset) then costs address space, not memory; where even that fails, the
    // file is refused by name rather than the tool ending on an allocation failure.
    std::size_t const size = trace::reader::storage_size(t.file);
    try {
        t.storage_bytes.reset(new std::byte[size]);
    } catch (std::bad_alloc const&) {
        failure f{exit_kernel, etwctl::win32_error_code(etwctl::win32::not_enough_memory),
                  path + ": its buffer headers ask for " + std::to_string(size) +
                      " bytes of reader storage, more than this machine gives (a corrupt buffer header?)",
                  {}, {}};
        f.details.str("file", path).num("storage_bytes", size);
        return report_failure(ctx, f);
    }
    t.storage = {t.storage_bytes.get(), size};
    return exit_ok;
}

/// After a pass: faults make exit code 4 (they were printed as met), losses the session recorded a note.
/// `damaged`: records skipped because their bytes changed after the reader read them (tt::intact).
int finish_pass(std::string const& path, trace::reader const& r, std::uint64_t damaged) {
    auto const& l = r.losses();
    if (damaged != 0)
        std::cerr << "etwctl: trace: " << path << ": " << damaged
                  << " records skipped: their bytes changed after the reader read them (a reader fault, after unreadable buffers)\n";
    if (l.header_events_lost || l.header_buffers_lost || l.buffers_events_lost || l.buffers_buffer_lost || l.sequence_gaps)
        std::cerr << "etwctl: trace: " << path << ": data lost: " << l.header_events_lost << " events and " << l.header_buffers_lost
                  << " buffers (the session's header), " << l.buffers_events_lost << " buffers flagged with lost events, "
                  << l.buffers_buffer_lost << " flagged lost, " << l.sequence_gaps
                  << " buffer sequence numbers missing (lost by the session, or not in the file)\n";
    if (r.init_fault()) {
        std::cerr << "etwctl: trace: " << path << ": " << tt::describe(r.init_fault()) << "\n";
        return exit_refused;
    }
    if (l.faults == 0 && damaged == 0) return exit_ok;
    std::cerr << "etwctl: trace: " << path << ": read with " << l.faults << (l.faults == 1 ? " fault" : " faults") << ": "
              << l.buffers_unreadable << " buffers skipped, " << l.buffers_cut << " cut short, " << l.bytes_skipped
              << " bytes not read (exit code 4)\n";
    return exit_partial;
}

/// stdout in large writes (a dump of a large trace is hundreds of MB).
class output {
public:
    ~output() { flush(); }
    std::string& text() { return text_; }
    /// False once stdout failed (a closed pipe): the caller stops reading.
    bool maybe_flush() {
        if (text_.size() >= (std::size_t{1} << 18)) flush();
        return !failed_;
    }
    void flush() {
        if (!text_.empty() && !failed_) failed_ = std::fwrite(text_.data(), 1, text_.size(), stdout) != text_.size();
        text_.clear();
        std::fflush(stdout);
    }

private:
    std::string text_;
    bool failed_ = false;
};

// ---- dump -------------------------------------------------------------------------------------------

/// A kernel view's fields as a JSON object's members / as text.
struct json_fields {
    std::string& out;
    bool first = true;
    template <class T>
    void operator()(std::string_view name, T const& value) {
        out += first ? "" : ",";
        first = false;
        tt::append_json_string(out, name);
        out += ':';
        tt::append_field_json(out, value);
    }
};
struct text_fields {
    std::string& out;
    std::size_t max;
    std::size_t written = 0;
    template <class T>
    void operator()(std::string_view name, T const& value) {
        if constexpr (std::is_same_v<T, trace::byte_array>) return; // bulky: left to --json
        if (written == max) out += " ...";
        if (written++ >= max) return;
        out += ' ';
        out += name;
        out += '=';
        tt::append_field_text(out, value);
    }
};

void append_time(std::string& out, trace::event const& e, trace::clock const& clock) {
    if (clock.convertible()) tt::append_ms(out, e.time().time_since_epoch().count());
    else tt::append_uint(out, e.timestamp());
}

} // namespace

// write_json_event / write_text_event: declared in trace_dump.hpp (session consume prints with them).
void write_json_event(std::string& out, trace::event const& e, tt::event_ids ids, trace::clock const& clock,
                      std::vector<std::uint64_t>& frames) {
    auto const& r = e.rec();
    out += "{\"time_ms\":";
    if (clock.convertible()) tt::append_ms(out, e.time().time_since_epoch().count());
    else out += "null,\"timestamp\":" + std::to_string(e.timestamp()); // a raw clock: no unit to convert by
    out += ",\"cpu\":";
    tt::append_uint(out, e.processor());
    out += ",\"pid\":";
    tt::append_int(out, ids.pid);
    out += ",\"tid\":";
    tt::append_int(out, ids.tid);
    out += ",\"key\":";
    tt::append_json_string(out, tt::key_of(r));
    if (r.has_hook()) {
        out += ",\"hook\":\"";
        tt::append_hex(out, r.hook().value, 4);
        out += '"';
    }
    if (etwctl::guid g; tt::provider_of(r, g)) out += ",\"provider\":\"" + tt::guid_text(g) + "\"";
    trace::tl_event_metadata md;
    bool const tracelogging = tt::tracelogging_metadata(r, md);
    std::string_view const name = r.has_hook() ? etwctl::kernel_record_name(r.hook()) : tracelogging ? md.name() : std::string_view{};
    if (!name.empty()) {
        out += ",\"name\":";
        tt::append_json_string(out, name);
    }
    if (tracelogging)
        if (auto const provider = tt::tracelogging_provider_name(r); !provider.empty()) {
            out += ",\"provider_name\":";
            tt::append_json_string(out, provider);
        }
    if (r.kind() == trace::record_kind::event) {
        auto const& d = r.descriptor();
        out += ",\"task\":" + std::to_string(d.task) + ",\"opcode\":" + std::to_string(d.opcode) + ",\"id\":" + std::to_string(d.id) +
               ",\"version\":" + std::to_string(d.version);
    } else if (r.kind() != trace::record_kind::message) {
        out += ",\"opcode\":" + std::to_string(r.has_hook() ? r.hook().type() : r.opcode()) + ",\"version\":" + std::to_string(r.version());
    }
    out += ",\"kind\":\"";
    out += tt::kind_of(r);
    out += '"';

    bool decoded = false;
    std::string problem; // why the payload is given as bytes
    if (r.has_hook()) {
        trace::layout_fault fault = trace::layout_fault::none;
        std::size_t const mark = out.size();
        out += ",\"fields\":{";
        bool const listed = tt::with_kernel_view(r, [&](auto const& view) { view.fields(json_fields{out}); }, fault);
        decoded = listed && fault == trace::layout_fault::none;
        if (decoded) out += '}';
        else out.resize(mark);
        if (listed && !decoded) problem = std::string(trace::to_string(fault));
    } else if (tracelogging) {
        std::size_t const mark = out.size();
        out += ",\"fields\":{";
        decoded = tt::tracelogging_fields_json(r, md, out, problem);
        if (decoded) out += '}';
        else out.resize(mark);
    }
    if (!decoded) {
        out += ",\"bytes\":\"";
        tt::append_bytes_hex(out, r.payload());
        out += '"';
        if (!problem.empty()) {
            out += ",\"decode_error\":";
            tt::append_json_string(out, problem);
        }
    }
    tt::frames_of(e, frames);
    if (!frames.empty()) {
        out += ",\"stack\":[";
        for (std::size_t i = 0; i < frames.size(); ++i) {
            out += i ? ",\"" : "\"";
            tt::append_hex(out, frames[i]);
            out += '"';
        }
        out += ']';
    }
    if (e.stack().unresolved_keys() != 0) out += ",\"stack_unresolved_keys\":" + std::to_string(e.stack().unresolved_keys());
    if (auto const pmc = e.pmc(); !pmc.empty()) {
        out += ",\"pmc\":[";
        for (std::size_t i = 0; i < pmc.size(); ++i) {
            if (i) out += ',';
            tt::append_uint(out, pmc[i]);
        }
        out += ']';
    }
    out += "}\n";
}

void write_text_event(std::string& out, trace::event const& e, tt::event_ids ids, trace::clock const& clock,
                      std::vector<std::uint64_t>& frames) {
    auto const& r = e.rec();
    std::size_t const start = out.size();
    append_time(out, e, clock);
    if (out.size() - start < 14) out.insert(start, 14 - (out.size() - start), ' ');
    out += "  cpu" + std::to_string(e.processor());
    out += "  pid " + std::to_string(ids.pid) + " tid " + std::to_string(ids.tid) + "  ";
    trace::tl_event_metadata md;
    bool const tracelogging = tt::tracelogging_metadata(r, md);
    std::string_view const name = r.has_hook() ? etwctl::kernel_record_name(r.hook()) : tracelogging ? md.name() : std::string_view{};
    if (tracelogging)
        if (auto const provider = tt::tracelogging_provider_name(r); !provider.empty()) out += std::string(provider) + "/";
    out += name.empty() ? tt::key_of(r) : std::string(name);
    constexpr std::size_t shown = 6;
    bool decoded = false;
    if (r.has_hook()) {
        trace::layout_fault fault = trace::layout_fault::none;
        decoded = tt::with_kernel_view(r, [&](auto const& view) { view.fields(text_fields{out, shown}); }, fault) &&
                  fault == trace::layout_fault::none;
    } else if (tracelogging) {
        tt::tracelogging_fields_text(r, md, out, shown);
        decoded = true;
    }
    if (!decoded) out += " (" + std::to_string(r.payload().size()) + " bytes)";
    tt::frames_of(e, frames);
    if (!frames.empty()) out += "  stack: " + std::to_string(frames.size()) + " frames";
    out += '\n';
}

namespace {

int run_dump(context const& ctx, opened_trace& t, trace_options const& o) {
    bool const json = ctx.cl.json;
    auto const& clock = t.file.clock();
    tt::stack_cache_pass cache;
    {
        progress_line first(t.bytes.bytes().size(), "reading (1/2: the stack cache)");
        cache.run(t.file, t.storage, first); // the cached stacks' frames come later in the file than their keys
    }
    progress_line progress(t.bytes.bytes().size(), "reading (2/2)");

    tt::fault_printer faults{o.path};
    trace::reader r(t.file, t.storage, faults.options());
    trace::event_stream events(r, cache.cache());
    tt::process_tracker processes;
    output out;
    std::vector<std::uint64_t> frames;
    std::uint64_t written = 0, damaged = 0;
    trace::event e;
    while (written < o.limit && events.next(e)) {
        progress.at(e.ref().buffer_offset);
        if (!tt::intact(e.rec())) {
            ++damaged;
            continue;
        }
        processes.observe(e.rec());
        if (o.events.active() && !o.events.matches(e.rec())) continue;
        tt::event_ids const ids = processes.ids(e.rec());
        if (o.has_pid && ids.pid != o.pid) continue;
        if (json) write_json_event(out.text(), e, ids, clock, frames);
        else write_text_event(out.text(), e, ids, clock, frames);
        ++written;
        if (!out.maybe_flush()) break;
    }
    out.flush();
    progress.done();
    return finish_pass(o.path, r, damaged);
}

// ---- stats ------------------------------------------------------------------------------------------

int run_stats(context const& ctx, opened_trace& t, trace_options const& o) {
    progress_line progress(t.bytes.bytes().size(), "reading");
    tt::fault_printer faults{o.path};
    trace::reader r(t.file, t.storage, faults.options());
    tt::process_tracker processes;

    std::vector<std::uint64_t> by_hook(0x10000, 0);
    std::map<std::string, std::uint64_t> by_key;                 // records without a hook id
    std::map<std::string, std::uint64_t, std::less<>> by_name;   // TraceLogging names (kernel names added below)
    std::map<std::int64_t, std::uint64_t> samples_by_process;
    std::uint64_t events = 0, idle = 0, idle_dpc_isr = 0, damaged = 0;
    std::uint64_t last = 0;
    bool any_after_header = false;
    trace::event_ref e;
    while (r.next(e)) {
        progress.at(e.buffer_offset);
        auto const& rec = e.rec;
        if (!tt::intact(rec)) {
            ++damaged;
            continue;
        }
        ++events;
        if (e.stream != 0 && (!any_after_header || rec.timestamp() > last)) last = rec.timestamp(), any_after_header = true;
        processes.observe(rec);
        if (rec.has_hook()) {
            ++by_hook[rec.hook().value];
            if (rec.hook().value == 0x0F2E) {
                ++samples_by_process[processes.ids(rec).pid];
                trace::payload_ref const p{rec.payload(), static_cast<std::uint8_t>(rec.version()), rec.pointer_size()};
                if (trace::layout::sampled_profile::check(p) == trace::layout_fault::none) {
                    trace::layout::sampled_profile const s(p);
                    if (s.thread_id() == 0) {
                        ++idle;
                        if (s.executing_dpc() || s.executing_isr()) ++idle_dpc_isr;
                    }
                }
            }
            continue;
        }
        ++by_key[tt::key_of(rec)];
        trace::tl_event_metadata md;
        if (tt::tracelogging_metadata(rec, md)) {
            auto const it = by_name.find(md.name());
            if (it != by_name.end()) ++it->second;
            else by_name.emplace(std::string(md.name()), 1);
        }
    }
    progress.done();
    for (std::size_t h = 0; h < by_hook.size(); ++h) {
        if (by_hook[h] == 0) continue;
        etwctl::hook_id const hook(static_cast<std::uint16_t>(h));
        by_key[tt::hex_text(h, 4)] = by_hook[h];
        if (auto const name = etwctl::kernel_record_name(hook); !name.empty()) by_name[std::string(name)] += by_hook[h];
    }
    auto const& header = t.file.header();
    auto const& l = r.losses();
    std::uint64_t const lost_events = l.header_events_lost;
    std::uint64_t const lost_buffers = std::uint64_t{l.header_buffers_lost} + l.buffers_unreadable;
    auto const& clock = t.file.clock();
    std::int64_t const duration_ns = any_after_header ? clock.time(last).time_since_epoch().count() : 0;
    std::uint64_t const samples = by_hook[0x0F2E];

    if (ctx.cl.json) {
        std::string s = "{\"events\":";
        tt::append_uint(s, events);
        s += ",\"by_key\":{";
        bool first = true;
        for (auto const& [key, n] : by_key) {
            s += first ? "" : ",";
            first = false;
            tt::append_json_string(s, key);
            s += ':';
            tt::append_uint(s, n);
        }
        s += "},\"by_name\":{";
        first = true;
        for (auto const& [name, n] : by_name) {
            s += first ? "" : ",";
            first = false;
            tt::append_json_string(s, name);
            s += ':';
            tt::append_uint(s, n);
        }
        s += "},\"lost_events\":" + std::to_string(lost_events) + ",\"lost_buffers\":" + std::to_string(lost_buffers);
        s += ",\"buffers\":" + std::to_string(r.buffer_count()) + ",\"duration_ms\":";
        if (clock.convertible()) tt::append_ms(s, duration_ns);
        else s += "null";
        s += ",\"pointer_size\":" + std::to_string(header.pointer_size()) + ",\"processors\":" + std::to_string(header.number_of_processors());
        s += ",\"samples_by_process\":{";
        first = true;
        for (auto const& [pid, n] : samples_by_process) {
            s += first ? "\"" : ",\"";
            first = false;
            tt::append_int(s, pid);
            s += "\":";
            tt::append_uint(s, n);
        }
        s += "},\"sampled_profile\":{\"records\":" + std::to_string(samples) + ",\"idle_thread\":" + std::to_string(idle) +
             ",\"idle_thread_dpc_isr\":" + std::to_string(idle_dpc_isr) +
             ",\"traceevent_samples\":" + std::to_string(samples - idle + idle_dpc_isr) + "}";
        s += ",\"losses\":{\"header_events_lost\":" + std::to_string(l.header_events_lost) +
             ",\"header_buffers_lost\":" + std::to_string(l.header_buffers_lost) +
             ",\"buffers_events_lost\":" + std::to_string(l.buffers_events_lost) +
             ",\"buffers_buffer_lost\":" + std::to_string(l.buffers_buffer_lost) + ",\"sequence_gaps\":" + std::to_string(l.sequence_gaps) +
             ",\"buffers_unreadable\":" + std::to_string(l.buffers_unreadable) + ",\"buffers_cut\":" + std::to_string(l.buffers_cut) +
             ",\"bytes_skipped\":" + std::to_string(l.bytes_skipped) + ",\"faults\":" + std::to_string(l.faults) + "}";
        if (l.faults != 0) {
            s += ",\"first_fault\":";
            tt::append_json_string(s, tt::describe(r.first_fault()));
        }
        s += "}\n";
        std::fwrite(s.data(), 1, s.size(), stdout);
        std::fflush(stdout);
        return finish_pass(o.path, r, damaged);
    }

    std::string duration;
    if (clock.convertible()) tt::append_ms(duration, duration_ns);
    std::cout << "file: " << o.path << " (" << t.bytes.bytes().size() << " bytes, " << r.buffer_count() << " buffers"
              << (t.file.compressed_mode() ? ", compressed" : "") << ")\n";
    std::cout << "session: " << tt::utf8(header.logger_name()) << ", " << header.number_of_processors() << " processors, pointer size "
              << header.pointer_size() << ", Windows " << unsigned{header.major_version()} << "." << unsigned{header.minor_version()}
              << " build " << header.provider_version() << "\n";
    std::cout << "duration: " << (clock.convertible() ? duration + " ms" : std::string("(raw clock: no unit)")) << "\n";
    std::cout << "events: " << events << "\n";
    std::cout << "lost: " << lost_events << " events, " << lost_buffers << " buffers\n";
    std::cout << "SampledProfile: " << samples << " records, " << idle << " on the idle thread (ThreadId 0), " << idle_dpc_isr
              << " of them in a DPC or an ISR; TraceEvent's Sample count: " << samples - idle + idle_dpc_isr << "\n";
    std::cout << "by key:\n";
    std::vector<std::pair<std::string, std::uint64_t>> rows(by_key.begin(), by_key.end());
    std::stable_sort(rows.begin(), rows.end(), [](auto const& a, auto const& b) { return a.second > b.second; });
    for (auto const& [key, n] : rows) {
        std::string name;
        if (key.size() == 6 && key.rfind("0x", 0) == 0) {
            std::uint64_t h = 0;
            if (parse_uint(key, 0xFFFF, h)) name = std::string(etwctl::kernel_record_name(etwctl::hook_id(static_cast<std::uint16_t>(h))));
        }
        std::string count = std::to_string(n);
        std::cout << std::string(count.size() < 9 ? 9 - count.size() : 0, ' ') << count << "  " << key << (name.empty() ? "" : "  " + name)
                  << "\n";
    }
    if (!by_name.empty()) {
        std::cout << "by name:\n";
        for (auto const& [name, n] : by_name) std::cout << "  " << name << ": " << n << "\n";
    }
    std::cout << "samples by process:\n";
    std::vector<std::pair<std::int64_t, std::uint64_t>> procs(samples_by_process.begin(), samples_by_process.end());
    std::stable_sort(procs.begin(), procs.end(), [](auto const& a, auto const& b) { return a.second > b.second; });
    for (auto const& [pid, n] : procs) {
        std::string count = std::to_string(n);
        std::cout << std::string(count.size() < 9 ? 9 - count.size() : 0, ' ') << count << "  " << processes.process_label(pid) << "\n";
    }
    std::cout << std::flush;
    return finish_pass(o.path, r, damaged);
}

// ---- stacks -----------------------------------------------------------------------------------------

int run_stacks(context const&, opened_trace& t, trace_options const& o) {
    tt::stack_cache_pass cache;
    {
        progress_line first(t.bytes.bytes().size(), "reading (1/2: the stack cache)");
        cache.run(t.file, t.storage, first);
    }
    progress_line progress(t.bytes.bytes().size(), "reading (2/2)");

    event_filter filter = o.events;
    if (!filter.active()) filter.hooks.assign(0x10000, false), filter.hooks[0x0F2E] = true; // SampledProfile

    tt::fault_printer faults{o.path};
    trace::reader r(t.file, t.storage, faults.options());
    trace::event_stream events(r, cache.cache());
    tt::process_tracker processes;
    tt::image_map images;
    std::unordered_map<std::string, std::uint64_t> folded;
    std::vector<std::uint64_t> frames;
    std::uint64_t matched = 0, without_stack = 0, incomplete = 0, damaged = 0, completed_later = 0;
    std::string line;
    auto const fold = [&](std::int64_t pid, std::vector<std::uint64_t> const& f) {
        line = processes.process_label(pid);
        for (std::size_t i = f.size(); i-- > 0;) { // root first: the trace has the deepest frame first
            line += ';';
            images.append_frame(line, pid, f[i]);
        }
        ++folded[line];
    };
    // A stack with the kernel part only, of a process that runs user code, waits for its user part: the
    // kernel logs it when the thread returns to user mode, which can be after the records event_stream
    // looks at and on another processor; it then comes as a stack record of its own (its stack() its
    // frames) whose EventTimeStamp and StackThread name the event. Folded when it comes, or at the end.
    struct waiting {
        std::int64_t pid = 0;
        std::vector<std::uint64_t> frames;
    };
    std::map<std::pair<std::uint32_t, std::uint64_t>, waiting> kernel_only; // (thread, timestamp)
    trace::event e;
    while (events.next(e)) {
        progress.at(e.ref().buffer_offset);
        if (!tt::intact(e.rec())) {
            ++damaged;
            continue;
        }
        processes.observe(e.rec());
        images.observe(e.rec());
        auto const& rec = e.rec();
        auto const owner = !kernel_only.empty() && rec.has_hook() && !e.stack().empty() ? trace::reader::stack_owner_of(rec.hook(), rec.payload())
                                                                                        : trace::reader::stack_owner{};
        if (owner) {
            auto const it = kernel_only.find({owner.thread_id, owner.timestamp});
            if (it != kernel_only.end()) { // the user part of a stack that waited for it: after its kernel part
                tt::frames_of(e, frames);
                it->second.frames.insert(it->second.frames.end(), frames.begin(), frames.end());
                fold(it->second.pid, it->second.frames);
                kernel_only.erase(it);
                ++completed_later;
                continue;
            }
        }
        if (!filter.matches(rec)) continue;
        tt::event_ids const ids = processes.ids(rec);
        if (o.has_pid && ids.pid != o.pid) continue;
        ++matched;
        tt::frames_of(e, frames);
        if (frames.empty()) {
            ++without_stack;
            continue;
        }
        if (e.stack().unresolved_keys() != 0) ++incomplete;
        bool const user_part = std::any_of(frames.begin(), frames.end(), [&](std::uint64_t f) {
            return !trace::stack_cache::is_kernel_address(f, rec.pointer_size());
        });
        if (!user_part && ids.pid > 4) { // not Idle (0) nor System (4), whose threads never run user code
            kernel_only[{trace::stack_thread_of(rec), rec.timestamp()}] = {ids.pid, frames};
            continue;
        }
        fold(ids.pid, frames);
    }
    for (auto const& [key, w] : kernel_only) fold(w.pid, w.frames); // no user part came
    progress.done();
    std::vector<std::pair<std::string, std::uint64_t>> rows(folded.begin(), folded.end());
    std::sort(rows.begin(), rows.end(), [](auto const& a, auto const& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    output out;
    for (auto const& [text, n] : rows) {
        out.text() += text;
        out.text() += ' ';
        tt::append_uint(out.text(), n);
        out.text() += '\n';
        if (!out.maybe_flush()) break;
    }
    out.flush();
    std::cerr << "etwctl: trace stacks: " << matched - without_stack << " stacks (" << rows.size() << " distinct) of " << matched
              << " events; " << without_stack << " without a stack";
    if (incomplete) std::cerr << ", " << incomplete << " missing a cached part (a key the trace never defined)";
    if (completed_later) std::cerr << ", " << completed_later << " completed by a user part logged later";
    std::cerr << "\n";
    return finish_pass(o.path, r, damaged);
}

int trace_command(context const& ctx) {
    auto const& p = ctx.cl.positional;
    static constexpr std::string_view verbs[] = {"dump", "stats", "stacks"};
    if (p.size() < 2) return usage_error(ctx, "expected dump, stats or stacks, and a FILE");
    std::string_view const verb = p[1];
    if (std::find(std::begin(verbs), std::end(verbs), verb) == std::end(verbs)) {
        std::string const near = nearest_name(verb, std::vector<std::string_view>(std::begin(verbs), std::end(verbs)));
        return usage_error(ctx, "unknown trace command '" + p[1] + "'" + (near.empty() ? "" : " (did you mean " + near + "?)"));
    }
    if (p.size() != 3) return usage_error(ctx, p.size() < 3 ? "expected a FILE" : "expected one FILE, got " + std::to_string(p.size() - 2));
    if (ctx.cl.dry_run || ctx.cl.trace)
        return usage_error(ctx, std::string(ctx.cl.dry_run ? "--dry-run" : "--trace") + " does not apply here: trace reads a file and sends nothing");
    if (verb == "dump") {
        if (int const rc = only_options(ctx, {"--events", "--pid", "--limit"}, {}); rc != exit_ok) return rc;
    } else if (verb == "stacks") {
        if (int const rc = only_options(ctx, {"--events", "--pid"}, {}); rc != exit_ok) return rc;
        if (ctx.cl.json) return usage_error(ctx, "--json does not apply to stacks: it writes the folded text format flame-graph tools read");
    } else if (int const rc = only_options(ctx, {}, {}); rc != exit_ok) {
        return rc;
    }

    trace_options o;
    o.path = p[2];
    if (auto const v = ctx.cl.option("--events")) {
        std::string error;
        if (!parse_event_filter(*v, o.events, error)) return usage_error(ctx, error);
    }
    if (auto const v = ctx.cl.option("--pid")) {
        std::uint64_t pid = 0;
        if (*v == "-1") o.pid = -1;
        else if (parse_uint(*v, 0xFFFFFFFFULL, pid)) o.pid = static_cast<std::int64_t>(pid);
        else return usage_error(ctx, "bad --pid '" + *v + "': give a process id (decimal or 0x), or -1 for events of no known process");
        o.has_pid = true;
    }
    if (auto const v = ctx.cl.option("--limit")) {
        if (!parse_uint(*v, ~std::uint64_t{0}, o.limit)) return usage_error(ctx, "bad --limit '" + *v + "': give a number of events");
    }

    opened_trace t;
    if (int const rc = open_trace(ctx, o.path, t); rc != exit_ok) return rc;
    if (verb == "dump") return run_dump(ctx, t, o);
    if (verb == "stats") return run_stats(ctx, t, o);
    return run_stacks(ctx, t, o);
}

} // namespace

int cmd_trace(context const& ctx) {
    try {
        return trace_command(ctx);
    } catch (std::bad_alloc const&) { // a trace larger than this machine's memory (read whole on Windows)
        failure f{exit_kernel, etwctl::win32_error_code(etwctl::win32::not_enough_memory), "not enough memory to read the trace", {}, {}};
        return report_failure(ctx, f);
    }
}

} // namespace etwctl_tool
