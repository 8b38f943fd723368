// wpr::apply on the simulated kernel: real-shaped profiles (data/) started end to end, the exact calls
// read back from the request log (each StartTrace's properties and name, the group mask's bytes, the
// stack list's hook ids, each EnableTraceEx2's provider, level and keywords); a failure midway rolls
// back and names its step; a second apply while the first runs; find / stop / cancel by name.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/session/layouts.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "wpr_support.hpp"

using namespace wpr_test;
using etwctl::guid;
namespace lfm = etwctl::log_file_mode;
namespace sim = etwctl::sim;

namespace {

std::unique_ptr<sim::kernel> machine() { return std::make_unique<sim::kernel>(); }

constexpr guid markers_guid = guid::from_string("0b6e0f43-6a50-4d0b-a6a0-c59f6c1d7e21");

/// The resolver a test passes for "Contoso.App.Markers" (a name only Windows' registry would know).
wpr::apply_options options() {
    wpr::apply_options o;
    o.log_directory = "C:\\traces";
    o.resolve_provider = [](std::string_view name) -> etwctl::result<guid> {
        if (name == "Contoso.App.Markers") return markers_guid;
        return etwctl::make_error_code(etwctl::rule::parse_unknown_name);
    };
    return o;
}

std::string utf8(std::span<std::byte const> utf16le) {
    std::string s;
    for (std::size_t i = 0; i + 1 < utf16le.size(); i += 2) s += static_cast<char>(std::to_integer<unsigned>(utf16le[i]));
    return s;
}

/// The text at a properties block's offset (UTF-16LE, NUL-terminated), as ASCII.
std::string block_text(std::span<std::byte const> block, std::uint32_t offset) {
    std::string s;
    for (std::size_t i = offset; i + 1 < block.size(); i += 2) {
        auto const c = std::to_integer<unsigned>(block[i]) | (std::to_integer<unsigned>(block[i + 1]) << 8);
        if (c == 0) break;
        s += static_cast<char>(c);
    }
    return s;
}

etwctl::event_trace_properties_v2 properties_of(sim::recorded_request const& r) {
    etwctl::event_trace_properties_v2 p{};
    REQUIRE(r.bytes.size() >= sizeof p);
    std::memcpy(&p, r.bytes.data(), sizeof p);
    return p;
}

std::uint32_t dword(std::span<std::byte const> b, std::size_t at) {
    std::uint32_t v = 0;
    REQUIRE(at + 4 <= b.size());
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

/// The calls that changed something (queries left out), in order.
std::vector<sim::recorded_request> changes(sim::kernel const& k, std::size_t from = 0) {
    std::vector<sim::recorded_request> v;
    auto const all = k.requests();
    for (std::size_t i = from; i < all.size(); ++i) {
        auto const& r = all[i];
        bool const query = r.is_session_call ? (r.session == etwctl::session_function::query_all_traces_w ||
                                                (r.session == etwctl::session_function::control_trace_w &&
                                                 r.code == static_cast<std::uint32_t>(etwctl::control_code::query)))
                                             : r.function != etwctl::kernel_function::nt_set_system_information;
        if (!query) v.push_back(r);
    }
    return v;
}

bool is_start(sim::recorded_request const& r) { return r.is_session_call && r.session == etwctl::session_function::start_trace_w; }
bool is_enable(sim::recorded_request const& r) { return r.is_session_call && r.session == etwctl::session_function::enable_trace_ex2; }
bool is_stop(sim::recorded_request const& r) {
    return r.is_session_call && r.session == etwctl::session_function::control_trace_w &&
           r.code == static_cast<std::uint32_t>(etwctl::control_code::stop);
}
bool is_class(sim::recorded_request const& r, etwctl::event_trace_information_class c) {
    return !r.is_session_call && r.kernel_class == static_cast<std::uint32_t>(c);
}

} // namespace

TEST_CASE("MSO-Scripts shape, File mode: the system logger and the event session, the exact calls in order") {
    auto const loaded = load_data("office_cpu.wprp", request("Sampling", wpr::logging_mode::file));
    REQUIRE(loaded.plan);
    auto k = machine();
    wpr::apply_result r = wpr::apply(*k, *loaded.plan, options());
    INFO(r.message);
    REQUIRE(r);
    CHECK(r.warnings.empty());
    REQUIRE(r.profile.size() == 2);
    CHECK(r.profile.names()[0] == "WPR_initiated_WprApp_WPR System Collector");
    CHECK(r.profile.log_files()[0] == "C:\\traces/WPR_initiated_WprApp_WPR System Collector.etl");

    auto const calls = changes(*k);
    REQUIRE(calls.size() == 8);
    // 1. StartTrace: the system logger, its properties from SysColl_Big (over SysColl_Common)
    REQUIRE(is_start(calls[0]));
    CHECK(utf8(calls[0].name) == "WPR_initiated_WprApp_WPR System Collector");
    auto const sys = properties_of(calls[0]);
    CHECK(sys.buffer_size == 1024);
    CHECK(sys.minimum_buffers == 640);
    CHECK(sys.maximum_buffers == 640);
    CHECK(sys.log_file_mode == (lfm::sequential | lfm::system_logger));
    CHECK(block_text(calls[0].bytes, sys.log_file_name_offset) == "C:\\traces/WPR_initiated_WprApp_WPR System Collector.etl");
    // 2. the group mask: Masks[0] 0x01000817, Masks[2] 0x8000 (IdleStates), Masks[4] 0x8000 (Power), at offset 16
    REQUIRE(is_class(calls[1], etwctl::event_trace_information_class::group_mask));
    CHECK(dword(calls[1].bytes, 16) == 0x01000817U);
    CHECK(dword(calls[1].bytes, 20) == 0);
    CHECK(dword(calls[1].bytes, 24) == 0x8000U);
    CHECK(dword(calls[1].bytes, 32) == 0x8000U);
    CHECK(dword(calls[1].bytes, 44) == 0);
    // 3. the stack list: SampledProfile, CSwitch, ReadyThread, ImageLoad as hook ids, in the file's order
    REQUIRE(is_class(calls[2], etwctl::event_trace_information_class::stack_tracing));
    REQUIRE(calls[2].bytes.size() == 16 + 4 * 4);
    CHECK(dword(calls[2].bytes, 16) == 0x0F2EU);
    CHECK(dword(calls[2].bytes, 20) == 0x0524U);
    CHECK(dword(calls[2].bytes, 24) == 0x0532U);
    CHECK(dword(calls[2].bytes, 28) == 0x030AU);
    // 4. stack caching: CacheSize 3072 (read as KB: 3 MiB), BucketCount 256
    REQUIRE(is_class(calls[3], etwctl::event_trace_information_class::stack_caching));
    // 5. the event session, then its three providers
    REQUIRE(is_start(calls[4]));
    CHECK(utf8(calls[4].name) == "WPR_initiated_WprApp_Test Event Collector");
    auto const ev = properties_of(calls[4]);
    CHECK(ev.buffer_size == 512);
    CHECK(ev.minimum_buffers == 8);
    CHECK(ev.log_file_mode == lfm::sequential);
    for (std::size_t i = 5; i < 8; ++i) REQUIRE(is_enable(calls[i]));
    CHECK(calls[5].provider == guid::from_string("3f1c9a2e-5b7d-4c11-9e0a-2d4b6f8a1c35"));
    CHECK(calls[5].level == 5);
    CHECK(calls[5].match_any == 0x22000U);
    CHECK(calls[5].match_all == 0);
    CHECK(calls[5].enable_property == etwctl::enable_property::stack_trace);
    CHECK(calls[6].provider == guid::from_string("7a0c3e51-19d2-4b8f-a6e4-0f5d2c9b8e13"));
    CHECK(calls[6].level == 4);
    CHECK(calls[6].match_any == 0x10U);
    CHECK(calls[7].provider == markers_guid);
    CHECK(calls[7].enable_property == etwctl::enable_property::sid);
    std::uint64_t const system_handle = r.profile.sessions()[0].handle().value;
    std::uint64_t const event_handle = r.profile.sessions()[1].handle().value;
    CHECK(calls[5].handle == event_handle);
    CHECK(calls[1].handle == 0); // set calls carry the handle in their bytes, at offset 8
    std::uint64_t in_bytes = 0;
    std::memcpy(&in_bytes, calls[1].bytes.data() + 8, 8);
    CHECK((in_bytes & 0xFFFFU) == (system_handle & 0xFFFFU));

    // The sim's state agrees: the stack list is the logger's.
    auto const logger = static_cast<std::uint16_t>(system_handle & 0xFFFFU);
    auto const hooks = k->stack_tracing_hooks(logger);
    CHECK(std::vector<std::uint32_t>(hooks.begin(), hooks.end()) == std::vector<std::uint32_t>{0x0F2E, 0x0524, 0x0532, 0x030A});

    // The machine raised the event session's 8 buffers to its processor count (16): the start reports it.
    auto const& adjusted = r.profile.sessions()[1].adjusted();
    REQUIRE(adjusted.find(etwctl::session_setting::minimum_buffers) != nullptr);
    CHECK(adjusted.find(etwctl::session_setting::minimum_buffers)->requested == 8);
    CHECK(adjusted.find(etwctl::session_setting::minimum_buffers)->effective == 16);
    CHECK(r.profile.sessions()[0].adjusted().empty());

    // find_profile_sessions sees both by WPR's prefix, with what check.hpp compares: only those buffers differ.
    auto const found = wpr::find_profile_sessions(*k, wpr::default_session_prefix());
    REQUIRE_FALSE(found.error);
    REQUIRE(found.sessions.size() == 2);
    std::vector<wpr::queried_session> q;
    for (auto const& s : found.sessions) q.push_back(s.query);
    std::vector<std::string> differs;
    for (auto const& d : wpr::compare(*loaded.plan, q)) {
        CHECK(d.kind != wpr::difference_kind::missing);
        if (d.kind == wpr::difference_kind::differs) differs.push_back(d.session + " " + d.what);
    }
    CHECK(differs == std::vector<std::string>{"WPR_initiated_WprApp_Test Event Collector minimum_buffers",
                                              "WPR_initiated_WprApp_Test Event Collector maximum_buffers"});

    // Scope exit stops both, the last started first.
    std::size_t const mark = k->requests().size();
    { wpr::apply_result gone = std::move(r); }
    auto const stops = changes(*k, mark);
    REQUIRE(stops.size() == 2);
    CHECK(is_stop(stops[0]));
    CHECK(stops[0].handle == event_handle);
    CHECK(stops[1].handle == system_handle);
    CHECK(wpr::find_profile_sessions(*k, wpr::default_session_prefix()).sessions.empty());
}

TEST_CASE("MSO-Scripts counters shape: the PMC counter and event lists and the LBR events; sampled counters named as not sent") {
    auto const loaded = load_data("cpu_counters.wprp", request("Counters", wpr::logging_mode::file));
    REQUIRE(loaded.plan);
    auto k = machine();
    auto r = wpr::apply(*k, *loaded.plan, options());
    INFO(r.message);
    REQUIRE(r);
    auto const logger = static_cast<std::uint16_t>(r.profile.sessions()[0].handle().value & 0xFFFFU);
    CHECK(k->pmc_counters(logger).size() == 2);
    auto const events = k->pmc_events(logger);
    CHECK(std::vector<std::uint32_t>(events.begin(), events.end()) == std::vector<std::uint32_t>{0x0524});
    bool lbr = false;
    for (auto const& c : changes(*k)) lbr = lbr || is_class(c, etwctl::event_trace_information_class::last_branch_event_list);
    CHECK(lbr);
    REQUIRE(r.warnings.size() == 1);
    CHECK(contains(r.warnings[0].text, "sampled counters"));
    CHECK(contains(r.warnings[0].text, "not sent by apply"));
}

TEST_CASE("a failure midway: the sessions started are stopped again, the step and the error are named") {
    auto const loaded = load_data("office_cpu.wprp", request("Sampling", wpr::logging_mode::file));
    REQUIRE(loaded.plan);
    auto k = machine();
    wpr::apply_options o = options();
    int enables = 0;
    o.before_call = [&](wpr::apply_step const& s) { // the second EnableTraceEx2 is refused: access denied
        if (s.call == wpr::apply_call::enable_provider && ++enables == 2) k->inject(static_cast<std::int32_t>(0xC0000022)); // STATUS_ACCESS_DENIED
    };
    auto const r = wpr::apply(*k, *loaded.plan, o);
    REQUIRE_FALSE(r);
    REQUIRE(r.failed);
    CHECK(r.failed->call == wpr::apply_call::enable_provider);
    CHECK(r.failed->provider == "{7A0C3E51-19D2-4B8F-A6E4-0F5D2C9B8E13}");
    CHECK(r.failed->session == "WPR_initiated_WprApp_Test Event Collector");
    CHECK(r.error == etwctl::win32_error_code(etwctl::win32::access_denied));
    CHECK(contains(r.message, "EnableTraceEx2 of provider '{7A0C3E51-19D2-4B8F-A6E4-0F5D2C9B8E13}' on 'WPR_initiated_WprApp_Test Event Collector': "));
    CHECK(contains(r.message, "access denied"));
    REQUIRE(r.rolled_back.size() == 2);
    CHECK(r.rolled_back[0].report.stopped);
    CHECK(r.rolled_back[0].name == "WPR_initiated_WprApp_Test Event Collector");
    CHECK(r.rolled_back[1].report.stopped);
    CHECK(r.profile.empty());
    CHECK(wpr::find_profile_sessions(*k, wpr::default_session_prefix()).sessions.empty());
}

TEST_CASE("a second apply while the first runs: refused at its first StartTrace, the first untouched") {
    auto const loaded = load_data("office_cpu.wprp", request("Sampling", wpr::logging_mode::file));
    REQUIRE(loaded.plan);
    auto k = machine();
    auto first = wpr::apply(*k, *loaded.plan, options());
    REQUIRE(first);
    std::size_t const mark = k->requests().size();
    auto const second = wpr::apply(*k, *loaded.plan, options());
    REQUIRE_FALSE(second);
    CHECK(second.failed->call == wpr::apply_call::start_session);
    CHECK(second.failed->session == "WPR_initiated_WprApp_WPR System Collector");
    CHECK(second.error == etwctl::win32_error_code(etwctl::win32::already_exists));
    CHECK(contains(second.message, "StartTrace of 'WPR_initiated_WprApp_WPR System Collector': "));
    CHECK(second.rolled_back.empty());
    auto const after = changes(*k, mark);
    REQUIRE(after.size() == 1); // the refused StartTrace only: no stop of the first apply's sessions
    CHECK(is_start(after[0]));
    CHECK(wpr::find_profile_sessions(*k, wpr::default_session_prefix()).sessions.size() == 2);
}

TEST_CASE("checks before any call: a provider named by name without a resolver sends nothing") {
    auto const loaded = load_data("office_cpu.wprp", request("Sampling", wpr::logging_mode::file));
    REQUIRE(loaded.plan);
    auto k = machine();
    std::size_t const mark = k->requests().size();
    auto const r = wpr::apply(*k, *loaded.plan);
    REQUIRE_FALSE(r);
    CHECK(r.failed->call == wpr::apply_call::check);
    CHECK(r.failed->provider == "Contoso.App.Markers");
    CHECK(contains(r.message, "provider 'Contoso.App.Markers' is named, not given as a GUID"));
    CHECK(k->requests().size() == mark);
}

TEST_CASE("Memory mode: buffering sessions without files; release keeps them; stop_profile writes each ring to a file") {
    auto const loaded = load_data("office_cpu.wprp", request("Sampling", wpr::logging_mode::memory));
    REQUIRE(loaded.plan);
    auto k = machine();
    {
        auto r = wpr::apply(*k, *loaded.plan, options());
        REQUIRE(r);
        auto const start = changes(*k)[0];
        CHECK(properties_of(start).log_file_mode == (lfm::buffering | lfm::system_logger));
        CHECK(r.profile.log_files()[0].empty());
        r.profile.release();
    }
    auto const found = wpr::find_profile_sessions(*k, wpr::default_session_prefix());
    REQUIRE(found.sessions.size() == 2);
    REQUIRE(found.sessions[0].query.flags);
    CHECK(found.sessions[0].query.flags->masks[4] == 0x8000U);
    auto const stopped = wpr::stop_profile(*k, found.sessions, "out");
    REQUIRE(stopped.size() == 2);
    for (auto const& s : stopped) {
        INFO(s.name);
        CHECK_FALSE(s.flush_error);
        CHECK(s.report.stopped);
        CHECK(s.log_file == "out/" + s.name + ".etl");
    }
    CHECK(wpr::find_profile_sessions(*k, wpr::default_session_prefix()).sessions.empty());
    CHECK(wpr::cancel_profile(*k, {}).empty());
}

TEST_CASE("cancel_profile stops each session found and reports each") {
    auto const loaded = load_data("office_cpu.wprp", request("Lean", wpr::logging_mode::file, wpr::detail_level::light));
    REQUIRE(loaded.plan);
    auto k = machine();
    auto r = wpr::apply(*k, *loaded.plan, options());
    REQUIRE(r);
    r.profile.release();
    auto const found = wpr::find_profile_sessions(*k, "wpr_initiated_wprapp_"); // case-insensitive, as ETW
    REQUIRE(found.sessions.size() == 2);
    auto const cancelled = wpr::cancel_profile(*k, found.sessions);
    REQUIRE(cancelled.size() == 2);
    CHECK(cancelled[0].report.stopped);
    CHECK(cancelled[1].report.stopped);
    CHECK(wpr::find_profile_sessions(*k, wpr::default_session_prefix()).sessions.empty());
}
