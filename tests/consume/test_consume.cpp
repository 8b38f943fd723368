// trace::consume on the simulated machine: a real-time NT Kernel Logger session recorded by
// sim::recorder, consumed live through the consumer kernel line (sim::live_session), the same typed
// handlers as for a file; stop() from a handler; a slow consumer losing buffers, reported.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "etwctl/compat_consume.hpp"
#include "etwctl/testing/sim_live.hpp"
#include "etwctl/testing/sim_recorder.hpp"
#include "etwctl/trace/consume.hpp"
#include "etwctl_test.hpp"

using namespace etwctl;

namespace {

struct live_machine {
    std::unique_ptr<sim::kernel> k = std::make_unique<sim::kernel>();
    std::optional<trace_session> session;
    sim::workload w{};
    std::vector<std::byte> recorder_storage, channel_storage, batch = std::vector<std::byte>(std::size_t{4} << 20),
                                                                  index = std::vector<std::byte>(std::size_t{64} << 10);
    std::unique_ptr<sim::realtime_channel> channel;
    std::unique_ptr<sim::recorder> rec;

    explicit live_machine(std::size_t channel_buffers = 256, std::uint32_t buffer_kb = 64) {
        auto s = start_session(*k, session_config::nt_kernel_logger().real_time().buffer(buffer_size::kilobytes(buffer_kb))
                                       .enable_flags(0x00000007U));
        REQUIRE(s);
        session.emplace(std::move(*s));
        session_handle const h = session->handle();
        REQUIRE_FALSE(set<system_trace_enable_flags>(*k, h, kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH">));
        REQUIRE_FALSE(set<stack_tracing>(*k, h, stack_walk<"Profile">));
        REQUIRE_FALSE(set<sampled_profile_interval>(*k, profile_interval{1250}));
        recorder_storage.resize(sim::recorder::storage_size(*k, limits::kernel_logger_id, w));
        channel_storage.resize(channel_buffers * buffer_kb * 1024U);
        channel = std::make_unique<sim::realtime_channel>(*k, limits::kernel_logger_id, channel_storage);
        rec = std::make_unique<sim::recorder>(*k, limits::kernel_logger_id, w, recorder_storage, channel->sink());
        REQUIRE(rec->valid());
    }
    trace::consume_storage storage() { return {batch, index}; }
};

} // namespace

TEST_CASE("consume: a live kernel session delivers the typed events its configuration implies") {
    live_machine m;
    sim::live_session live(*m.k, *m.rec, *m.channel, {.run_ms = 10});
    trace::consume_control control;
    std::uint64_t samples = 0, with_stack = 0, ip_is_frame0 = 0, cswitches = 0, rundown = 0;
    auto const report = trace::consume(live, u"NT Kernel Logger", m.storage(), control,
                                       trace::on<"SampledProfile">([&](trace::sampled_profile const& e) noexcept {
                                           ++samples;
                                           if (!e.stack().empty()) ++with_stack;
                                           if (!e.stack().empty() && e.stack()[0] == e.instruction_pointer()) ++ip_is_frame0;
                                       }),
                                       trace::on<"CSwitch">([&](trace::cswitch const&) noexcept { ++cswitches; }),
                                       trace::on<"ProcessDCStart">([&](trace::process_event const&) noexcept { ++rundown; }));
    CHECK(report.reason == trace::consume_end::session_ended);
    CHECK(live.ended());
    CHECK(report.first_fault.what == rule::ok);
    // 8 samples per millisecond on each of the workload's processors, every one with its stack
    CHECK(samples == 8U * 10U * m.w.options().processors);
    CHECK(with_stack == samples);
    CHECK(ip_is_frame0 == samples);
    CHECK(cswitches == m.rec->counts().of(hook_id{0x0524}));
    CHECK(cswitches > 0);
    CHECK(report.events == m.rec->counts().events - m.rec->counts().stacks); // every record, stacks attached to their events
    CHECK(report.buffers == m.rec->counts().buffers + 1);                        // + the final header
    CHECK_FALSE(report.lost());
    CHECK(report.span >= std::chrono::milliseconds(9));
    CHECK(report.span <= std::chrono::milliseconds(10));
    CHECK(rundown == m.w.processes().size());
    CHECK(m.session->stop().statistics.real_time_buffers_lost == 0);
}

TEST_CASE("consume: stop() from a handler ends it (CloseTrace pending while ProcessTrace runs); the report says so") {
    live_machine m;
    m.batch.resize(std::size_t{512} << 10); // batches of a few buffers: handlers run while the session does
    sim::live_session live(*m.k, *m.rec, *m.channel, {.run_ms = 1000});
    trace::consume_control control;
    std::uint64_t seen = 0;
    std::uint32_t close_result = 0;
    std::uint64_t headers = 0;
    auto const report = trace::consume(live, u"NT Kernel Logger", m.storage(), control, trace::on_any([&](trace::event const&) noexcept {
        if (++seen == 1) close_result = control.stop(live);
    }), trace::on<"EventTraceHeader">([&](trace::event_trace_header const&) noexcept { ++headers; }));
    CHECK(headers == 1); // every batch carries the header buffer; its records are delivered once
    CHECK(report.reason == trace::consume_end::stopped);
    CHECK(close_result == consumer_result::ctx_close_pending);
    CHECK(seen > 0);
    CHECK(report.events == seen);
    CHECK(live.elapsed_ms() < 1000); // it ended long before the session would have
    CHECK(control.handle() == invalid_processtrace_handle);
}

TEST_CASE("consume: a consumer that does not keep up loses buffers; consume and the session's statistics report it") {
    live_machine m(4, 4); // 4 queued buffers of 4 KB
    sim::live_session live(*m.k, *m.rec, *m.channel, {.run_ms = 30, .slow_consumer = true});
    trace::consume_control control;
    std::uint64_t samples = 0;
    auto const report = trace::consume(live, u"NT Kernel Logger", m.storage(), control,
                                       trace::on<"SampledProfile">([&](trace::sampled_profile const&) noexcept { ++samples; }));
    CHECK(report.reason == trace::consume_end::session_ended);
    REQUIRE(m.channel->lost() > 0);
    CHECK(report.lost());
    CHECK(report.buffers_lost > 0);
    CHECK(report.buffers_lost <= m.channel->lost()); // buffers lost after the last delivered one leave no gap
    CHECK(samples < 8U * 30U * m.w.options().processors);
    auto const stopped = m.session->stop();
    CHECK(stopped.statistics.real_time_buffers_lost == m.channel->lost());
    CHECK(stopped.lost());
}

TEST_CASE("consume: OpenTraceW's documented refusals") {
    live_machine m;
    sim::live_session live(*m.k, *m.rec, *m.channel);
    trace::consume_control control;
    auto const none = trace::consume(live, u"no such session", m.storage(), control, trace::on_any([](trace::event const&) noexcept {}));
    CHECK(none.reason == trace::consume_end::open_failed);
    CHECK(none.win32 == win32::wmi_instance_not_found);
    CHECK(none.events == 0);
    // a second consumer of the same session while the first holds it
    event_trace_logfilew_layout lf{};
    wide_char name[] = {'N', 'T', ' ', 'K', 'e', 'r', 'n', 'e', 'l', ' ', 'L', 'o', 'g', 'g', 'e', 'r', 0};
    lf.logger_name = name;
    lf.process_trace_mode = process_trace_mode::real_time | process_trace_mode::event_record;
    std::uint64_t h = 0;
    REQUIRE(live.open_trace_w(&lf, &h) == win32::success);
    CHECK(h != invalid_processtrace_handle);
    CHECK(live.close_trace(h + 1) == win32::invalid_handle);
    auto const busy = trace::consume(live, u"NT Kernel Logger", m.storage(), control, trace::on_any([](trace::event const&) noexcept {}));
    CHECK(busy.reason == trace::consume_end::open_failed);
    CHECK(live.close_trace(h) == win32::success);
    // without PROCESS_TRACE_MODE_REAL_TIME
    lf.process_trace_mode = process_trace_mode::event_record;
    CHECK(live.open_trace_w(&lf, &h) == win32::invalid_parameter);
    CHECK(h == invalid_processtrace_handle);
}

TEST_CASE("consume: compat::open_trace / process_trace / close_trace answer as Windows documents") {
    live_machine m;
    sim::live_session live(*m.k, *m.rec, *m.channel);
    std::uint32_t error = 0;
    CHECK(compat::open_trace(live, nullptr, &error) == invalid_processtrace_handle);
    CHECK(error == win32::invalid_parameter);
    event_trace_logfilew_layout lf{};
    wide_char name[] = {'N', 'T', ' ', 'K', 'e', 'r', 'n', 'e', 'l', ' ', 'L', 'o', 'g', 'g', 'e', 'r', 0};
    lf.logger_name = name;
    lf.process_trace_mode = process_trace_mode::real_time | process_trace_mode::event_record;
    std::uint64_t h = compat::open_trace(live, &lf, &error);
    CHECK(error == win32::success);
    REQUIRE(h != invalid_processtrace_handle);
    CHECK(lf.is_kernel_trace == 1); // filled in, as OpenTraceW fills it
    CHECK(compat::process_trace(live, nullptr, 1) == win32::invalid_parameter);
    CHECK(compat::process_trace(live, &h, 0) == win32::invalid_parameter);
    std::uint64_t many[65] = {};
    CHECK(compat::process_trace(live, many, 65) == 24U); // ERROR_BAD_LENGTH
    struct filetime {
        std::uint32_t dwLowDateTime, dwHighDateTime;
    } const start{1, 0};
    // the sim does not model EVENT_RECORD delivery (its consumer takes buffers): it says so, not success
    CHECK(compat::process_trace(live, &h, 1, &start, nullptr) == win32::not_supported);
    CHECK(compat::close_trace(live, invalid_processtrace_handle) == win32::invalid_handle);
    CHECK(compat::close_trace(live, 0) == win32::invalid_handle);
    CHECK(compat::close_trace(live, h) == win32::success);
    CHECK(compat::close_trace(live, h) == win32::invalid_handle); // closed
}
