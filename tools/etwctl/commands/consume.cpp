// etwctl session consume NAME [--json] [--events NAME,...] [--duration S]: a real-time session's events,
// printed as `etwctl trace dump` prints a file's (the same code: trace_dump.hpp), delivered by the
// library's etwctl::trace::consume; at the end the consume report (events delivered, lost, span, why it
// ended) on stderr.
//
// On the simulated machine (--sim=STATEFILE, or --sim's one-command machine) the consumer kernel is
// machine_consumer below: OpenTraceW finds the real-time session, ProcessTrace hands over the session's
// header buffer and then its flushed buffers while the machine runs, one simulated millisecond per wait,
// for the --duration; then it stops (CloseTrace, as consume_control::stop does) and the session runs on.
// On Windows the session is consumed through native_kernel, with a thread that stops it after S seconds.
#include "consume.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "etwctl/etwctl.hpp"
#include "etwctl/kernel/consumer_concept.hpp"
#include "etwctl/trace/consume.hpp"

#include "../sim_machine.hpp"
#include "../sim_state.hpp"
#include "../trace_analysis.hpp"
#include "../trace_dump.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {

namespace trace = etwctl::trace;
namespace tt = trace_tool;

constexpr std::uint64_t consume_max_duration_ms = 24ULL * 3600 * 1000;

struct consume_command_options {
    std::string name;
    event_filter events;
    std::uint64_t duration_ms = 1000;
};

/// S seconds: a whole number or with up to three decimals (0.5, 2.25).
bool consume_parse_seconds(std::string_view s, std::uint64_t& ms) {
    auto const dot = s.find('.');
    std::uint64_t whole = 0, frac = 0;
    std::string_view const w = s.substr(0, dot);
    if (w.empty() || !parse_uint(w, consume_max_duration_ms / 1000, whole)) return false;
    if (dot != std::string_view::npos) {
        std::string_view f = s.substr(dot + 1);
        if (f.empty() || f.size() > 3) return false;
        for (char c : f)
            if (c < '0' || c > '9') return false;
        std::string padded(f);
        padded.resize(3, '0');
        if (!parse_uint(padded, 999, frac)) return false;
    }
    ms = whole * 1000 + frac;
    return ms != 0;
}

int consume_parse(context const& ctx, consume_command_options& o) {
    auto const& p = ctx.cl.positional;
    if (p.size() != 3) return usage_error(ctx, p.size() < 3 ? "consume needs a session NAME" : "consume takes one session NAME");
    if (ctx.cl.dry_run || ctx.cl.trace)
        return usage_error(ctx, std::string(ctx.cl.dry_run ? "--dry-run" : "--trace") + " does not apply to consume: it sends no control request");
    if (int const rc = only_options(ctx, {"--events", "--duration"}, {}); rc != exit_ok) return rc;
    o.name = p[2];
    if (auto const v = ctx.cl.option("--events")) {
        std::string error;
        if (!parse_event_filter(*v, o.events, error)) return usage_error(ctx, error);
    }
    if (auto const v = ctx.cl.option("--duration"))
        if (!consume_parse_seconds(*v, o.duration_ms))
            return usage_error(ctx, "bad --duration '" + *v + "': give seconds, 0.001.." + std::to_string(consume_max_duration_ms / 1000) +
                                        " (up to three decimals)");
    return exit_ok;
}

/// Prints what the handler is given, as trace dump does; stdout in large writes.
class consume_printer {
public:
    consume_printer(consume_command_options const& o, bool json) : o_(o), json_(json) {}
    ~consume_printer() { flush(); }
    consume_printer(consume_printer const&) = delete;
    consume_printer& operator=(consume_printer const&) = delete;

    void set_clock(trace::clock const& c) noexcept { clock_ = c; }
    void print(trace::event const& e) {
        processes_.observe(e.rec());
        if (o_.events.active() && !o_.events.matches(e.rec())) return;
        ++printed_;
        tt::event_ids const ids = processes_.ids(e.rec());
        if (json_) write_json_event(text_, e, ids, clock_, frames_);
        else write_text_event(text_, e, ids, clock_, frames_);
        if (text_.size() >= (std::size_t{1} << 16)) flush();
    }
    void flush() {
        std::cout << text_ << std::flush;
        text_.clear();
    }
    std::uint64_t printed() const noexcept { return printed_; }

private:
    consume_command_options const& o_;
    bool json_;
    trace::clock clock_{};
    tt::process_tracker processes_;
    std::string text_;
    std::vector<std::uint64_t> frames_;
    std::uint64_t printed_ = 0;
};

/// The consumer calls over a session of the simulated machine (etwctl::buffer_consumer_kernel).
class machine_consumer {
public:
    machine_consumer(sim_state_machine& m, std::uint64_t duration_ms, trace::consume_control& control, consume_printer& printer) noexcept
        : m_(m), duration_ms_(duration_ms), control_(control), printer_(printer) {}

    std::uint32_t open_trace_w(void* logfile, std::uint64_t* handle) noexcept {
        if (!logfile || !handle) return etwctl::win32::invalid_parameter;
        *handle = etwctl::invalid_processtrace_handle;
        auto* lf = static_cast<etwctl::event_trace_logfilew_layout*>(logfile);
        if (!lf->logger_name || lf->log_file_name) return etwctl::win32::invalid_parameter;
        if ((lf->process_trace_mode & etwctl::process_trace_mode::real_time) == 0) return etwctl::win32::invalid_parameter;
        std::size_t n = 0;
        while (n < 1025 && lf->logger_name[n] != 0) ++n;
        auto const* r = m_.kernel().sessions().find_by_name(etwctl::wide_string_view(lf->logger_name, n));
        if (!r || (r->properties.log_file_mode & etwctl::log_file_mode::real_time) == 0) return etwctl::win32::wmi_instance_not_found;
        sim_recording* rec = m_.recording(r->id);
        if (!rec || !rec->channel || !rec->started) return etwctl::win32::wmi_instance_not_found;
        logger_ = r->id;
        handle_ = 0x5E5500U + r->id; // model choice, as sim::live_session's
        lf->is_kernel_trace = r->id == etwctl::limits::kernel_logger_id ? 1U : 0U;
        lf->buffer_size = r->properties.buffer_size * 1024U;
        *handle = handle_;
        return etwctl::win32::success;
    }
    std::uint32_t process_trace(std::uint64_t const*, std::uint32_t, std::uint64_t const*, std::uint64_t const*) noexcept {
        return etwctl::win32::not_supported; // process_trace_buffers is the sim's delivery
    }
    std::uint32_t process_trace_buffers(std::uint64_t handle, etwctl::buffer_callback on_buffer, void* context) noexcept {
        if (handle != handle_ || handle_ == etwctl::invalid_processtrace_handle) return etwctl::win32::invalid_handle;
        sim_recording* rec = m_.recording(logger_);
        if (!rec || !rec->channel) return etwctl::win32::invalid_handle;
        running_ = true;
        // the session's header buffer first (each consumer gets it), then what the session flushed since
        // it started or since the last consumer, then what it flushes while the machine runs
        header_ = rec->header;
        if (auto f = trace::trace_file::open(header_)) printer_.set_clock(f->clock());
        if (!on_buffer(context, header_)) return finish(etwctl::consumer_result::cancelled);
        for (;;) {
            while (rec->channel->queued() != 0) {
                bool const more = on_buffer(context, rec->channel->front());
                rec->channel->pop();
                if (!more) return finish(etwctl::consumer_result::cancelled);
            }
            if (closing_) return finish(etwctl::win32::success);
            if (elapsed_ms_ >= duration_ms_) {
                duration_reached_ = true;
                (void)control_.stop(*this); // CloseTrace while ProcessTrace runs: it returns once drained
                continue;
            }
            m_.advance(1);
            ++elapsed_ms_;
            rec = m_.recording(logger_);
            if (!rec) return finish(etwctl::win32::success);
        }
    }
    std::uint32_t close_trace(std::uint64_t handle) noexcept {
        if (handle != handle_ || handle_ == etwctl::invalid_processtrace_handle) return etwctl::win32::invalid_handle;
        if (running_) {
            closing_ = true;
            return etwctl::consumer_result::ctx_close_pending;
        }
        handle_ = etwctl::invalid_processtrace_handle;
        return etwctl::win32::success;
    }

    bool duration_reached() const noexcept { return duration_reached_; }
    std::uint64_t elapsed_ms() const noexcept { return elapsed_ms_; }
    std::uint16_t logger() const noexcept { return logger_; }

private:
    std::uint32_t finish(std::uint32_t e) noexcept {
        running_ = false;
        return e;
    }
    sim_state_machine& m_;
    std::uint64_t duration_ms_;
    trace::consume_control& control_;
    consume_printer& printer_;
    std::vector<std::byte> header_;
    std::uint64_t handle_ = etwctl::invalid_processtrace_handle;
    std::uint16_t logger_ = 0;
    std::uint64_t elapsed_ms_ = 0;
    bool running_ = false, closing_ = false, duration_reached_ = false;
};
static_assert(etwctl::buffer_consumer_kernel<machine_consumer>);

std::string consume_win32_name(std::uint32_t e) {
    switch (e) {
    case etwctl::win32::wmi_instance_not_found: return "ERROR_WMI_INSTANCE_NOT_FOUND";
    case etwctl::win32::invalid_parameter: return "ERROR_INVALID_PARAMETER";
    case etwctl::win32::access_denied: return "ERROR_ACCESS_DENIED";
    default: return "Win32 error " + std::to_string(e);
    }
}

/// The consume report on stderr (text, or one JSON object with --json); the exit code.
int consume_print_report(context const& ctx, consume_command_options const& o, trace::consume_report const& r, std::uint64_t printed, std::string const& ended,
           std::uint64_t session_lost) {
    if (r.reason == trace::consume_end::open_failed) {
        failure f{exit_kernel, etwctl::win32_error_code(r.win32),
                  "cannot consume '" + o.name + "': OpenTraceW answered " + consume_win32_name(r.win32), {}, {}};
        f.details.str("session", o.name);
        f.hint = "consume reads a running real-time session (-RealTime): etwctl -loggers lists the sessions that run";
        return report_failure(ctx, f);
    }
    double const span_ms = static_cast<double>(r.span.count()) / 1e6;
    char span[32];
    std::snprintf(span, sizeof span, "%.3f", span_ms);
    if (ctx.cl.json) {
        std::cerr << json_object()
                         .str("session", o.name)
                         .num("events", r.events)
                         .num("printed", printed)
                         .num("buffers", r.buffers)
                         .num("buffers_lost", r.buffers_lost)
                         .num("events_lost", r.events_lost)
                         .num("session_events_lost", session_lost)
                         .raw("span_ms", span)
                         .str("ended", ended)
                         .text()
                  << "\n";
    } else {
        std::cerr << "etwctl: session consume: '" << o.name << "': " << r.events << " events delivered (" << printed << " printed), "
                  << r.buffers << " buffers; lost: " << r.buffers_lost << " buffers on the way (sequence numbers missing), "
                  << r.events_lost << " events (the session's final header), " << session_lost
                  << " events the session lost so far; span " << span << " ms; ended: " << ended << "\n";
    }
    if (r.reason == trace::consume_end::fault) {
        std::cerr << "etwctl: session consume: a delivered buffer broke a trace rule: " << tt::describe(r.first_fault) << "\n";
        return exit_partial;
    }
    if (r.reason == trace::consume_end::storage_too_small || r.reason == trace::consume_end::process_failed) return exit_kernel;
    return exit_ok;
}

int consume_on_machine(context const& ctx, consume_command_options const& o, sim_state_machine& m) {
    consume_printer printer(o, ctx.cl.json);
    trace::consume_control control;
    machine_consumer k(m, o.duration_ms, control, printer);
    // a batch of 64 buffers of the largest BufferSize (16 MB) would be 1 GB: the session's own size decides
    std::size_t buffer_bytes = 64 * 1024;
    std::u16string const wide(o.name.begin(), o.name.end()); // session names are ASCII in practice
    if (auto const* r = m.kernel().sessions().find_by_name(std::u16string_view(wide)); r && r->properties.buffer_size != 0)
        buffer_bytes = std::size_t{r->properties.buffer_size} * 1024U;
    // a batch: the header buffer and up to 64 more (at most 64 MB, at least two more)
    std::size_t const batch = (std::max)(std::size_t{3}, (std::min)(std::size_t{66}, (std::size_t{64} << 20) / buffer_bytes));
    std::vector<std::byte> buffers(buffer_bytes * batch), index(64 * 1024);
    trace::consume_report const r = trace::consume(k, std::string_view(o.name), trace::consume_storage{buffers, index}, control,
                                                   trace::on_any([&](trace::event const& e) noexcept { printer.print(e); }));
    printer.flush();
    std::uint64_t session_lost = 0;
    if (sim_recording const* rec = k.logger() ? m.recording(k.logger()) : nullptr) session_lost = rec->recorder->counts().lost;
    std::string const ended = k.duration_reached() ? "the duration elapsed (" + std::to_string(k.elapsed_ms()) + " ms of simulated time)"
                                                   : std::string(trace::to_string(r.reason));
    return consume_print_report(ctx, o, r, printer.printed(), ended, session_lost);
}

#if defined(_WIN32)
template <class K>
int consume_native(context const& ctx, consume_command_options const& o, K& k) {
    if constexpr (etwctl::buffer_consumer_kernel<K> || etwctl::event_record_consumer_kernel<K>) {
        consume_printer printer(o, ctx.cl.json);
        // the events carry their own time (e.time()); a convertible clock makes the dump print it
        printer.set_clock(trace::clock(trace::clock_type::qpc, 10'000'000, 0, 0, 0));
        trace::consume_control control;
        std::vector<std::byte> buffers(66 * 64 * 1024), index(64 * 1024);
        std::atomic<bool> done{false};
        std::thread timer([&] {
            auto const until = std::chrono::steady_clock::now() + std::chrono::milliseconds(o.duration_ms);
            while (!done.load() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (!done.load()) (void)control.stop(k);
        });
        trace::consume_report const r = trace::consume(k, std::string_view(o.name), trace::consume_storage{buffers, index}, control,
                                                       trace::on_any([&](trace::event const& e) noexcept { printer.print(e); }));
        done.store(true);
        timer.join();
        printer.flush();
        std::string const ended = r.reason == trace::consume_end::stopped ? "the duration elapsed" : std::string(trace::to_string(r.reason));
        return consume_print_report(ctx, o, r, printer.printed(), ended, 0);
    } else {
        (void)o;
        (void)k;
        return usage_error(ctx, "consume is not in this build: the library's consume cannot read Windows' sessions yet");
    }
}
#endif

} // namespace

bool is_session_consume(context const& ctx) {
    return ctx.command == "session" && ctx.cl.positional.size() >= 2 && ctx.cl.positional[1] == "consume";
}

int cmd_session_consume(context const& ctx, sim_state_machine* m) {
    consume_command_options o;
    if (int const rc = consume_parse(ctx, o); rc != exit_ok) return rc;
    if (m) return consume_on_machine(ctx, o, *m);
#if defined(_WIN32)
    if (!ctx.cl.sim) return consume_native(ctx, o, etwctl::native_kernel::instance());
#endif
    // --sim (or not on Windows): a one-command machine, ETWCTL_SIM's (its NT Kernel Logger runs, real time)
    std::cerr << "etwctl: using the simulated kernel" << (ctx.cl.sim ? "" : " (not on Windows)")
              << "; its state does not persist between runs (--sim=FILE keeps it)\n";
    std::string error;
    char const* env = std::getenv("ETWCTL_SIM");
    auto k = make_sim_kernel(env ? env : "", false, error);
    if (!k) return usage_error(ctx, error);
    sim_state_machine machine(std::move(k));
    (void)etwctl::enable_system_profile_privilege(machine.kernel());
    machine.begin_command(std::string(), false);
    machine.adopt_running_sessions();
    machine.end_command();
    return consume_on_machine(ctx, o, machine);
}

} // namespace etwctl_tool
