// The simulated machine that lives across commands: the journal (the state file), its replay, and the
// recorders of the machine's sessions (sim_state.hpp says what and why; docs/choices.md the design).
#include "sim_state.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <streambuf>
#include <string_view>
#include <system_error>
#include <new>
#include <utility>

#include "etwctl/etwctl.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/session/provider_name.hpp"

#include "cli.hpp"
#include "names.hpp"
#include "recording_kernel.hpp"
#include "sim_machine.hpp"
#include "text.hpp"

namespace etwctl_tool {

namespace {

constexpr std::string_view state_magic = "etwctl-sim-state";
constexpr std::uint64_t state_version = 1;
constexpr std::uint64_t max_advance_ms = 24ULL * 3600 * 1000; // a simulated day per command at most

/// The session clock of the machine at its creation: FILETIME 2025-12-08 and a QPC of 0x10000000 at
/// 10 MHz (the recorder's defaults); a session started later starts that much later.
constexpr std::uint64_t machine_filetime = 134100000000000000ULL;
constexpr std::uint64_t machine_qpc = 0x10000000ULL;
constexpr std::uint64_t ticks_per_ms = 10000;

std::string state_narrow(std::u16string_view s) {
    std::string out;
    for (char16_t c : s) {
        if (c < 0x80) out += static_cast<char>(c);
        else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
    return out;
}

/// The simulated machine's provider, registered with every recorder: "Etwctl-Sim-Workload" (its GUID is
/// the EventSource hash of the name, so `-on *Etwctl-Sim-Workload:KEYWORDS:LEVEL` enables it). Each
/// processor's running thread writes one of its three events per millisecond while a session enables
/// it; EnableTraceEx2's level, keywords and filters decide which reach the session (sim_recorder.hpp).
constexpr std::string_view sim_provider_name = "Etwctl-Sim-Workload";
constexpr std::byte sim_provider_payload[8] = {std::byte{0x53}, std::byte{0x49}, std::byte{0x4D}, std::byte{0x00},
                                               std::byte{0x01}, std::byte{0x00}, std::byte{0x00}, std::byte{0x00}};
constexpr etwctl::sim::provider_event_definition sim_provider_events[] = {
    {.id = 1, .version = 0, .channel = 0, .level = 4, .opcode = 0, .task = 1, .keyword = 0x1, .payload = sim_provider_payload, .metadata = {}}, // Tick
    {.id = 2, .version = 0, .channel = 0, .level = 5, .opcode = 0, .task = 2, .keyword = 0x2, .payload = sim_provider_payload, .metadata = {}}, // Detail
    {.id = 3, .version = 0, .channel = 0, .level = 2, .opcode = 0, .task = 3, .keyword = 0x4, .payload = sim_provider_payload, .metadata = {}}, // Warning
};
etwctl::sim::provider_definition sim_provider() {
    etwctl::sim::provider_definition p;
    if (auto const id = etwctl::provider_guid_from_name(sim_provider_name)) p.id = *id;
    p.events = sim_provider_events;
    p.events_per_ms = 1;
    return p;
}

/// Where a session's log file is written: relative names against the directory of the command that
/// started it; a name at the drive's root (xperf's default \Kernel.etl: one backslash, no drive) in that
/// directory too (model choice: the simulator does not write at the root of the real machine's drive).
std::string state_resolve_log_file(std::string const& cwd, std::string file) {
    if (file.size() > 1 && file[0] == '\\' && file[1] != '\\') file.erase(0, 1);
    std::filesystem::path const p(file);
    return (p.is_absolute() || cwd.empty() ? p : std::filesystem::path(cwd) / p).string();
}

/// Where a recorder's bytes go: the file (or a buffering session's memory) and a real-time consumer.
void state_recording_sink(void* context, std::uint64_t offset, std::span<std::byte const> bytes) noexcept {
    auto* r = static_cast<sim_recording*>(context);
    if ((!r->file.empty() || r->buffering) && !r->out_of_memory) {
        std::size_t const end = static_cast<std::size_t>(offset) + bytes.size();
        try {
            if (r->bytes.size() < end) r->bytes.resize(end, std::byte{0xFF});
            std::memcpy(r->bytes.data() + offset, bytes.data(), bytes.size());
            r->dirty = true;
        } catch (std::bad_alloc const&) { // a file larger than this machine's memory: the rest is not kept
            r->out_of_memory = true;
        }
    }
    if (offset == 0) { // the header buffer: each real-time consumer gets it first (consume.cpp)
        r->header.assign(bytes.begin(), bytes.end());
        if (++r->header_writes == 1) return;
    }
    if (r->channel) {
        etwctl::sim::byte_sink const s = r->channel->sink();
        s.write(s.context, offset, bytes);
    }
}

/// Output thrown away (a replayed command prints nothing).
class state_null_buffer : public std::streambuf {
protected:
    int overflow(int c) override { return c == traits_type::eof() ? 0 : c; }
    std::streamsize xsputn(char const*, std::streamsize n) override { return n; }
};

class state_silenced {
public:
    state_silenced() : out_(std::cout.rdbuf(&null_)), err_(std::cerr.rdbuf(&null_)) {}
    ~state_silenced() {
        std::cout.rdbuf(out_);
        std::cerr.rdbuf(err_);
    }
    state_silenced(state_silenced const&) = delete;
    state_silenced& operator=(state_silenced const&) = delete;

private:
    state_null_buffer null_;
    std::streambuf* out_;
    std::streambuf* err_;
};

// ---- the journal ------------------------------------------------------------------------------------

std::string journal_quote(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default: out += c;
        }
    }
    return out + "\"";
}

struct journal_entry {
    enum class kind { command, advance } what = kind::command;
    std::size_t line = 0;
    int rc = 0;                     ///< command: its exit code
    std::string cwd;                ///< command: its directory
    std::vector<std::string> args;  ///< command: its arguments (without the state options)
    std::uint64_t ms = 0;           ///< advance
};

struct state_journal {
    bool exists = false;
    std::string machine;            ///< ETWCTL_SIM when the file was made
    std::size_t machine_line = 0;
    std::vector<journal_entry> entries;
};

/// Splits a line into words: bare words, or "quoted" with \" \\ \n \r \t. False with `why` (and the column).
bool journal_split_words(std::string_view line, std::vector<std::string>& words, std::vector<bool>& quoted, std::string& why) {
    std::size_t i = 0;
    while (i < line.size()) {
        if (line[i] == ' ') {
            ++i;
            continue;
        }
        std::size_t const column = i + 1;
        std::string w;
        if (line[i] == '"') {
            ++i;
            bool closed = false;
            while (i < line.size()) {
                char const c = line[i++];
                if (c == '"') {
                    closed = true;
                    break;
                }
                if (c != '\\') {
                    w += c;
                    continue;
                }
                if (i == line.size()) break;
                char const e = line[i++];
                switch (e) {
                case '"': w += '"'; break;
                case '\\': w += '\\'; break;
                case 'n': w += '\n'; break;
                case 'r': w += '\r'; break;
                case 't': w += '\t'; break;
                default: why = "column " + std::to_string(i - 1) + ": unknown escape '\\" + std::string(1, e) + "'"; return false;
                }
            }
            if (!closed) {
                why = "column " + std::to_string(column) + ": a string without its closing quote";
                return false;
            }
            if (i < line.size() && line[i] != ' ') {
                why = "column " + std::to_string(i + 1) + ": expected a space after a string";
                return false;
            }
            quoted.push_back(true);
        } else {
            while (i < line.size() && line[i] != ' ') w += line[i++];
            quoted.push_back(false);
        }
        words.push_back(std::move(w));
    }
    return true;
}

/// Reads the state file. A missing file: a fresh machine (exists = false). Else false with `why`
/// naming the file and the line.
bool state_read_journal(std::string const& path, state_journal& j, std::string& why) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return true;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = "state file " + path + ": cannot be read";
        return false;
    }
    j.exists = true;
    std::string line;
    std::size_t n = 0;
    auto fail = [&](std::string const& what) {
        why = "state file " + path + " line " + std::to_string(n) + ": " + what;
        return false;
    };
    while (std::getline(in, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::vector<std::string> w;
        std::vector<bool> q;
        std::string bad;
        if (n == 1) {
            // the version line: anything else is not a state file of etwctl's
            std::string_view const l = line;
            if (l.substr(0, state_magic.size() + 1) != std::string(state_magic) + " ")
                return fail("not an etwctl simulated-machine state file (expected '" + std::string(state_magic) + " " +
                            std::to_string(state_version) + "', found '" + line.substr(0, 40) + "')");
            std::uint64_t v = 0;
            if (!parse_uint(l.substr(state_magic.size() + 1), 0xFFFFFFFFULL, v) || v == 0)
                return fail("bad version '" + line.substr(state_magic.size() + 1) + "' (this etwctl writes version " +
                            std::to_string(state_version) + ")");
            if (v > state_version)
                return fail("version " + std::to_string(v) + " is newer than this etwctl reads (version " + std::to_string(state_version) +
                            "): use the etwctl that wrote it, or a new state file");
            continue;
        }
        if (line.empty() || line[0] == '#') continue;
        if (!journal_split_words(line, w, q, bad)) return fail(bad);
        if (w.empty()) continue;
        if (q[0]) return fail("expected machine, command or advance, found a string");
        if (w[0] == "machine") {
            if (j.machine_line != 0) return fail("a second machine line (the first is line " + std::to_string(j.machine_line) + ")");
            if (!j.entries.empty()) return fail("the machine line comes before the journal's entries");
            if (w.size() != 2 || !q[1]) return fail("expected machine \"ETWCTL_SIM\" (one quoted string)");
            j.machine = w[1];
            j.machine_line = n;
        } else if (w[0] == "command") {
            if (j.machine_line == 0) return fail("a command before the machine line");
            std::uint64_t rc = 0;
            if (w.size() < 4 || q[1] || !parse_uint(w[1], 255, rc))
                return fail("expected command EXIT-CODE \"DIRECTORY\" \"ARGUMENT\"...");
            journal_entry e;
            e.what = journal_entry::kind::command;
            e.line = n;
            e.rc = static_cast<int>(rc);
            for (std::size_t i = 2; i < w.size(); ++i)
                if (!q[i]) return fail("argument " + std::to_string(i - 1) + " is not a quoted string ('" + w[i] + "')");
            e.cwd = w[2];
            e.args.assign(w.begin() + 3, w.end());
            j.entries.push_back(std::move(e));
        } else if (w[0] == "advance") {
            if (j.machine_line == 0) return fail("an advance before the machine line");
            std::uint64_t ms = 0;
            if (w.size() != 2 || q[1] || !parse_uint(w[1], max_advance_ms, ms))
                return fail("expected advance MS (1.." + std::to_string(max_advance_ms) + ")");
            journal_entry e;
            e.what = journal_entry::kind::advance;
            e.line = n;
            e.ms = ms;
            j.entries.push_back(std::move(e));
        } else {
            std::string const nearest = nearest_name(w[0], {"machine", "command", "advance"});
            return fail("unknown entry '" + w[0] + "'" + (nearest.empty() ? "" : " (did you mean " + nearest + "?)"));
        }
    }
    if (n == 0) {
        why = "state file " + path + " line 1: empty (not an etwctl simulated-machine state file)";
        return false;
    }
    if (j.machine_line == 0) {
        n = n + 1;
        return fail("no machine line (the file ends before it)");
    }
    return true;
}

bool state_write_journal(std::string const& path, state_journal const& j, std::string& why) {
    std::string text = std::string(state_magic) + " " + std::to_string(state_version) + "\n";
    text += "# the simulated machine of etwctl --sim=FILE: a journal replayed by every command (docs/tool.md)\n";
    text += "machine " + journal_quote(j.machine) + "\n";
    for (auto const& e : j.entries) {
        if (e.what == journal_entry::kind::advance) {
            text += "advance " + std::to_string(e.ms) + "\n";
            continue;
        }
        text += "command " + std::to_string(e.rc) + " " + journal_quote(e.cwd);
        for (auto const& a : e.args) text += " " + journal_quote(a);
        text += "\n";
    }
    std::string const temp = path + ".new";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) {
            why = "cannot write the state file " + temp;
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temp, path, ec);
    if (ec) {
        why = "cannot write the state file " + path + ": " + ec.message();
        return false;
    }
    return true;
}

std::string state_current_directory() {
    std::error_code ec;
    auto const p = std::filesystem::current_path(ec);
    return ec ? std::string() : p.string();
}

/// The arguments as a shell would show them (for messages).
std::string journal_shown(std::vector<std::string> const& args) {
    std::string s = "etwctl";
    for (auto const& a : args) s += " " + (a.find(' ') == std::string::npos && !a.empty() ? a : journal_quote(a));
    return s;
}

} // namespace

bool changes_machine(request const& r) {
    if (!r.took_effect()) return false;
    if (r.is_session)
        return r.session.function != etwctl::session_function::query_all_traces_w &&
               !(r.session.function == etwctl::session_function::control_trace_w &&
                 r.session.control == static_cast<std::uint32_t>(etwctl::control_code::query));
    if (r.function != etwctl::kernel_function::nt_trace_control) return true;
    // NtTraceControl's queries (request/layouts.hpp): the disallow list 0x22, 0x2A..0x2E, the logger query
    return r.code != 0x22 && (r.code < 0x2A || r.code > 0x2E) && r.code != etwctl::logger_query::control_code;
}

// ---- the options ------------------------------------------------------------------------------------

sim_state_args split_sim_state_args(int argc, char** argv) {
    sim_state_args a;
    for (int i = 0; i < argc; ++i) {
        std::string_view const s = argv[i];
        if (i > 0 && s.substr(0, 6) == "--sim=") {
            if (!a.state_file.empty()) a.error = "--sim=FILE given twice";
            a.state_file = std::string(s.substr(6));
            if (a.state_file.empty()) a.error = "--sim= needs a state FILE (--sim=m.state)";
            continue;
        }
        if (i > 0 && (s == "--sim-advance" || s.substr(0, 14) == "--sim-advance=")) {
            std::string_view value;
            if (s.size() > 14) value = s.substr(14);
            else if (i + 1 < argc) value = argv[++i];
            std::uint64_t ms = 0;
            if (a.advance_given) a.error = "--sim-advance given twice";
            else if (!parse_uint(value, max_advance_ms, ms) || ms == 0)
                a.error = "bad --sim-advance '" + std::string(value) + "': give simulated milliseconds, 1.." + std::to_string(max_advance_ms);
            a.advance_given = true;
            a.advance_ms = static_cast<std::uint32_t>(ms);
            continue;
        }
        a.rest.emplace_back(s);
    }
    if (a.error.empty() && a.advance_given && a.state_file.empty())
        a.error = "--sim-advance needs --sim=FILE (the machine that runs must live in a state file)";
    return a;
}

// ---- the machine ------------------------------------------------------------------------------------

std::unique_ptr<etwctl::sim::kernel> make_sim_kernel(std::string const& spec, bool booted, std::string& error) {
    auto k = std::make_unique<etwctl::sim::kernel>(); // ~160 KiB of model state: not on the stack
    if (!configure_sim(*k, spec, booted, error)) return nullptr;
    return k;
}

sim_state_machine::sim_state_machine(std::unique_ptr<etwctl::sim::kernel> k) : k_(std::move(k)) {}
sim_state_machine::~sim_state_machine() = default;

std::int32_t sim_state_machine::nt_set_system_information(std::uint32_t cls, void const* buffer, std::uint32_t length) noexcept {
    return k_->nt_set_system_information(cls, buffer, length);
}
std::int32_t sim_state_machine::nt_query_system_information(std::uint32_t cls, void* buffer, std::uint32_t length,
                                                            std::uint32_t* return_length) noexcept {
    return k_->nt_query_system_information(cls, buffer, length, return_length);
}
std::int32_t sim_state_machine::nt_set_interval_profile(std::uint32_t interval, std::uint32_t source) noexcept {
    return k_->nt_set_interval_profile(interval, source);
}
std::int32_t sim_state_machine::nt_query_interval_profile(std::uint32_t source, std::uint32_t* interval) noexcept {
    return k_->nt_query_interval_profile(source, interval);
}
std::int32_t sim_state_machine::nt_trace_control(std::uint32_t code, void const* in, std::uint32_t in_length, void* out,
                                                 std::uint32_t out_length, std::uint32_t* return_length) noexcept {
    return k_->nt_trace_control(code, in, in_length, out, out_length, return_length);
}
std::uint32_t sim_state_machine::event_set_information(std::uint64_t reg, std::uint32_t cls, void const* info, std::uint32_t length) noexcept {
    return k_->event_set_information(reg, cls, info, length);
}
std::uint32_t sim_state_machine::start_trace_w(std::uint64_t* handle, etwctl::wide_char const* name, void* props) noexcept {
    std::uint32_t const e = k_->start_trace_w(handle, name, props);
    if (e == etwctl::win32::success && handle) {
        try {
            on_started(*handle);
        } catch (...) { // out of memory for the recorder's buffers: the session runs, unrecorded
        }
    }
    return e;
}
std::uint32_t sim_state_machine::control_trace_w(std::uint64_t handle, etwctl::wide_char const* name, void* props,
                                                 std::uint32_t code) noexcept {
    try {
        if (code == static_cast<std::uint32_t>(etwctl::control_code::stop)) on_stopping(handle, name, props);
    } catch (...) {
    }
    std::uint32_t const e = k_->control_trace_w(handle, name, props, code);
    try {
        if (e == etwctl::win32::success || e == etwctl::win32::more_data) {
            if (code == static_cast<std::uint32_t>(etwctl::control_code::stop)) {
                // the session is gone: so is its recorder (stopped above)
                for (auto it = recordings_.begin(); it != recordings_.end();)
                    it = k_->sessions().find((*it)->logger) ? it + 1 : recordings_.erase(it);
            } else if (code == static_cast<std::uint32_t>(etwctl::control_code::flush) ||
                       code == static_cast<std::uint32_t>(etwctl::control_code::update)) {
                on_flushed(handle, name, props, code == static_cast<std::uint32_t>(etwctl::control_code::flush));
            }
        }
    } catch (...) {
    }
    return e;
}
std::uint32_t sim_state_machine::query_all_traces_w(void** array, std::uint32_t count, std::uint32_t* sessions) noexcept {
    return k_->query_all_traces_w(array, count, sessions);
}
std::uint32_t sim_state_machine::enable_trace_ex2(std::uint64_t handle, etwctl::guid const* provider, std::uint32_t code,
                                                  std::uint8_t level, std::uint64_t any, std::uint64_t all, std::uint32_t timeout,
                                                  void const* params) noexcept {
    return k_->enable_trace_ex2(handle, provider, code, level, any, all, timeout, params);
}

sim_recording* sim_state_machine::recording(std::uint16_t logger) noexcept {
    for (auto& r : recordings_)
        if (r->logger == logger) return r.get();
    return nullptr;
}

void sim_state_machine::on_started(std::uint64_t handle) {
    auto const id = static_cast<std::uint16_t>(handle & 0xFFFFU);
    etwctl::sim::logger_record const* rec = k_->sessions().find(id);
    if (!rec) return;
    std::uint32_t const mode = rec->properties.log_file_mode;
    auto r = std::make_unique<sim_recording>();
    r->logger = id;
    r->name = state_narrow(k_->sessions().name(*rec));
    r->real_time = (mode & etwctl::log_file_mode::real_time) != 0;
    r->buffering = (mode & etwctl::log_file_mode::buffering) != 0;
    r->flush_timer_ms = std::uint64_t{rec->properties.flush_timer} * ((mode & etwctl::log_file_mode::use_ms_flush_timer) ? 1U : 1000U);
    if (std::string const file = state_narrow(k_->sessions().log_file(*rec)); !file.empty()) r->file = state_resolve_log_file(cwd_, file);
    if (r->file.empty() && !r->real_time && !r->buffering) return; // no destination: nothing records
    r->workload = std::make_unique<etwctl::sim::workload>(etwctl::sim::workload_options{});
    r->storage.resize(etwctl::sim::recorder::storage_size(*k_, id, *r->workload));
    if (r->real_time) {
        // model choice: the buffers a consumer has not read yet are held up to the session's MaximumBuffers
        std::size_t const kb = rec->properties.buffer_size != 0 ? rec->properties.buffer_size : etwctl::sim::session_model::default_buffer_kb;
        std::size_t const held = rec->properties.maximum_buffers != 0 ? rec->properties.maximum_buffers : 2;
        r->channel_storage.resize(held * kb * 1024U);
        r->channel = std::make_unique<etwctl::sim::realtime_channel>(*k_, id, r->channel_storage);
    }
    etwctl::sim::recorder_options o;
    o.write_buffers_per_ms = write_buffers_per_ms;
    o.start_filetime = machine_filetime + clock_ms_ * ticks_per_ms;
    o.start_qpc = machine_qpc + clock_ms_ * ticks_per_ms;
    r->recorder = std::make_unique<etwctl::sim::recorder>(*k_, id, *r->workload, r->storage, etwctl::sim::byte_sink{&state_recording_sink, r.get()}, o);
    if (!r->recorder->valid()) return;
    (void)r->recorder->add_provider(sim_provider());
    recordings_.push_back(std::move(r));
}

std::uint16_t sim_state_machine::target_of(std::uint64_t handle, etwctl::wide_char const* name, void const* props) {
    // The model's own rule for ControlTrace's target, asked with a QUERY on a copy of the block (not a
    // request of the command: the sim's log is not touched).
    if (!props) return 0;
    std::uint32_t size = 0;
    std::memcpy(&size, props, sizeof size);
    if (size < sizeof(etwctl::event_trace_properties) || size > (1U << 20)) return 0;
    std::vector<std::byte> copy(size);
    std::memcpy(copy.data(), props, size);
    if (k_->sessions().control(handle, name, copy.data(), static_cast<std::uint32_t>(etwctl::control_code::query)) !=
        etwctl::win32::success)
        return 0;
    etwctl::event_trace_properties p;
    std::memcpy(&p, copy.data(), sizeof p);
    return static_cast<std::uint16_t>(p.wnode.historical_context & 0xFFFFU);
}

void sim_state_machine::on_stopping(std::uint64_t handle, etwctl::wide_char const* name, void const* props) {
    std::uint16_t const id = target_of(handle, name, props);
    sim_recording* r = id ? recording(id) : nullptr;
    if (!r) return;
    if (!r->started) { // stopped by the command that started it: what it recorded is the start and the stop
        r->recorder->start();
        r->started = true;
        r->started_ms = clock_ms_;
    }
    r->recorder->reconfigure(); // what this command changed before it stops the session
    r->recorder->stop(); // the session's statistics get its lost events before the kernel reports them
    if (etwctl::sim::logger_record* rec = k_->sessions().find(id)) // BuffersWritten: the buffers in the file
        rec->properties.buffers_written = static_cast<std::uint32_t>(r->recorder->counts().buffers);
    if (replaying_) return;
    if (!r->file.empty()) write_file(*r);
    report_recorded(*r);
}

void sim_state_machine::on_flushed(std::uint64_t handle, etwctl::wide_char const* name, void const* props, bool flush) {
    std::uint16_t const id = target_of(handle, name, props);
    sim_recording* r = id ? recording(id) : nullptr;
    if (!r) return;
    // UPDATE or FLUSH with a log file: a buffering session's memory goes to that file; a file session
    // writes on (model choice: a new log file of a file session is not modelled, it keeps its first).
    etwctl::sim::logger_record const* rec = k_->sessions().find(id);
    std::string const file = rec ? state_narrow(k_->sessions().log_file(*rec)) : std::string();
    if (rec) // UPDATE may change FlushTimer
        r->flush_timer_ms = std::uint64_t{rec->properties.flush_timer} *
                            ((rec->properties.log_file_mode & etwctl::log_file_mode::use_ms_flush_timer) ? 1U : 1000U);
    if (r->buffering && !file.empty()) {
        flush = true;
        r->file = state_resolve_log_file(cwd_, file);
        r->dirty = true;
    }
    if (!flush) return;
    if (r->started) r->recorder->flush(); // the partly filled buffers: written (to the file, or to the consumer)
    if (!replaying_ && !r->file.empty()) write_file(*r);
}

void sim_state_machine::write_file(sim_recording& r) {
    if (r.out_of_memory)
        std::cerr << "etwctl: simulated machine: " << r.file << " outgrew this machine's memory: it holds the first "
                  << r.bytes.size() << " bytes only\n";
    std::ofstream out(r.file, std::ios::binary | std::ios::trunc);
    if (!r.bytes.empty()) out.write(reinterpret_cast<char const*>(r.bytes.data()), static_cast<std::streamsize>(r.bytes.size()));
    if (!out) std::cerr << "etwctl: simulated machine: cannot write " << r.file << "\n";
    r.dirty = false;
}

void sim_state_machine::report_recorded(sim_recording const& r) const {
    auto const& c = r.recorder->counts();
    std::cerr << "etwctl: simulated machine: '" << r.name << "' recorded " << (clock_ms_ - r.started_ms) << " ms"
              << (r.file.empty() ? std::string() : " into " + r.file) << ": " << c.events << " events (";
    for (std::size_t i = 0; i < c.kinds; ++i) {
        std::string_view const n = etwctl::kernel_record_name(c.rows[i].hook);
        std::cerr << (i ? ", " : "") << (n.empty() ? hex(c.rows[i].hook.value, 4) : std::string(n)) << " " << c.rows[i].count;
    }
    std::cerr << "), " << c.lost << " lost, " << c.buffers << " buffers, " << c.stacks << " with a stack";
    if (c.provider_events != 0) { // (a session that does not enable the provider keeps all its events out: not said)
        std::cerr << "; provider events " << c.provider_events << " (";
        for (std::size_t i = 0; i < c.provider_kinds; ++i) {
            char g[37];
            c.provider_rows[i].provider.format(g);
            std::cerr << (i ? ", " : "") << g << "#" << c.provider_rows[i].id << " " << c.provider_rows[i].count;
        }
        std::cerr << "), " << c.provider_dropped << " kept out by the enablement";
    }
    std::cerr << "\n";
}

void sim_state_machine::adopt_running_sessions() {
    auto adopt = [&](std::uint16_t id) {
        if (k_->sessions().find(id) && !recording(id)) on_started(id);
    };
    adopt(etwctl::limits::kernel_logger_id);
    for (std::uint16_t id = 1; id < etwctl::limits::max_loggers; ++id) adopt(id);
}

void sim_state_machine::begin_command(std::string cwd, bool replaying) {
    cwd_ = std::move(cwd);
    replaying_ = replaying;
}

void sim_state_machine::end_command() {
    for (auto& r : recordings_)
        if (!r->started) {
            r->recorder->start();
            r->started = true;
            r->started_ms = clock_ms_;
        } else {
            // a session recording before this command takes what the command changed (the interval, the
            // flags, the stack list, the PMC lists apply to a running session from the moment they are
            // set, as on Windows); nothing changed: nothing happens. Replayed commands too: the same machine
            r->recorder->reconfigure();
        }
    if (replaying_) return;
    for (auto& r : recordings_)
        if (r->dirty && !r->file.empty() && !r->buffering) write_file(*r);
}

void sim_state_machine::advance(std::uint32_t ms) {
    for (std::uint32_t i = 0; i < ms; ++i) {
        ++clock_ms_;
        for (auto& r : recordings_) {
            if (!r->started) continue;
            r->recorder->advance(1);
            // FlushTimer: seconds, or milliseconds with EVENT_TRACE_USE_MS_FLUSH_TIMER (phnt)
            std::uint64_t const period = r->flush_timer_ms;
            if (period != 0 && (clock_ms_ - r->started_ms) % period == 0) r->recorder->flush();
        }
    }
}

// ---- the state file ---------------------------------------------------------------------------------

int run_with_state(context& ctx, sim_state_args const& args, sim_command_runner const& run) {
    std::string const& path = args.state_file;
    state_journal j;
    std::string why;
    if (!state_read_journal(path, j, why)) return usage_error(ctx, why);
    char const* env = std::getenv("ETWCTL_SIM");
    std::string const env_spec = env ? env : "";
    if (!j.exists) {
        j.machine = env_spec; // the machine is made once: ETWCTL_SIM is read when the file is made
    } else if (!env_spec.empty() && env_spec != j.machine) {
        return usage_error(ctx, "ETWCTL_SIM='" + env_spec + "' differs from the machine of state file " + path + " (line " +
                                    std::to_string(j.machine_line) + ": '" + j.machine +
                                    "'): a state file's machine is made once; unset ETWCTL_SIM or use a new state file");
    }
    std::string error;
    auto k = make_sim_kernel(j.machine, true, error);
    if (!k) return usage_error(ctx, (j.exists ? "state file " + path + " line " + std::to_string(j.machine_line) + ": " : std::string()) + error);
    sim_state_machine m(std::move(k));
    (void)etwctl::enable_system_profile_privilege(m.kernel()); // as --sim does (ETWCTL_SIM=no-privilege: not held)
    m.begin_command(std::string(), true);
    m.adopt_running_sessions(); // the machine's own sessions record from its creation
    m.end_command();

    // replay, silently
    for (auto const& e : j.entries) {
        if (e.what == journal_entry::kind::advance) {
            m.advance(static_cast<std::uint32_t>(e.ms));
            continue;
        }
        std::vector<std::string> argv_text{"etwctl"};
        argv_text.insert(argv_text.end(), e.args.begin(), e.args.end());
        std::vector<char*> argv;
        for (auto& a : argv_text) argv.push_back(a.data());
        command_line const cl = parse_command_line(static_cast<int>(argv.size()), argv.data());
        std::string command = cl.positional.empty() ? std::string() : cl.positional[0];
        if (!cl.positional.empty() && cl.positional[0].size() > 1 && cl.positional[0][0] == '-') command = "xperf";
        context rc_ctx{cl, command};
        rc_ctx.simulated = true;
        int rc = exit_usage;
        bool changed = false;
        {
            state_silenced quiet;
            m.begin_command(e.cwd, true);
            rc = cl.error.empty() && !command.empty() ? run(rc_ctx, m, changed) : exit_usage;
            m.end_command();
        }
        if (rc != e.rc)
            return usage_error(ctx, "state file " + path + " line " + std::to_string(e.line) + ": replaying '" + journal_shown(e.args) + "' exited " +
                                        std::to_string(rc) + ", the journal says " + std::to_string(e.rc) +
                                        ": the machine cannot be rebuilt (did a file that command read change?)");
    }

    std::cerr << "etwctl: using the simulated machine of " << path << " (" << (j.exists ? "" : "new; ") << "clock " << m.clock_ms()
              << " ms, " << j.entries.size() << " journal entries replayed)\n";
    std::string const cwd = state_current_directory();
    if (args.advance_given) {
        m.begin_command(cwd, false);
        m.advance(args.advance_ms);
        m.end_command();
        journal_entry e;
        e.what = journal_entry::kind::advance;
        e.ms = args.advance_ms;
        j.entries.push_back(e);
    }
    int rc = exit_ok;
    if (!ctx.command.empty()) {
        bool changed = false;
        m.begin_command(cwd, false);
        ctx.simulated = true;
        rc = run(ctx, m, changed);
        m.end_command();
        if (changed) {
            journal_entry e;
            e.what = journal_entry::kind::command;
            e.rc = rc;
            e.cwd = cwd;
            e.args.assign(args.rest.begin() + 1, args.rest.end());
            j.entries.push_back(std::move(e));
        }
    } else if (!ctx.cl.json) {
        std::cout << "simulated machine " << path << ": clock " << m.clock_ms() << " ms";
        std::size_t recording = 0;
        for (auto const& r : m.recordings()) recording += r->started ? 1U : 0U;
        std::cout << ", " << recording << (recording == 1 ? " session recording\n" : " sessions recording\n");
    } else {
        std::cout << json_object().boolean("ok", true).str("command", args.advance_given ? "sim-advance" : "sim-status").num("clock_ms", m.clock_ms()).text() << "\n";
    }
    if (!state_write_journal(path, j, why)) {
        std::cerr << "etwctl: " << why << "\n";
        return rc == exit_ok ? exit_kernel : rc;
    }
    return rc;
}

} // namespace etwctl_tool
