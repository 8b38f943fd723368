// The check model: a plan compared with what running sessions report (etwctl/wpr/check.hpp). The plan
// comes from data/office_cpu.wprp (etwctl's own profile after the shape of microsoft/MSO-Scripts
// src/WPRP/CPU.wprp); the queried values are written here as ControlTrace QUERY and
// query<system_trace_enable_flags> would report them.
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/session/layouts.hpp"
#include "wpr_support.hpp"

using namespace wpr_test;
namespace lfm = etwctl::log_file_mode;

namespace {
wpr::plan sampling_plan() {
    auto r = load_data("office_cpu.wprp", request("Sampling", wpr::logging_mode::file));
    REQUIRE(r.plan);
    return *r.plan;
}

std::vector<wpr::queried_session> as_planned(wpr::plan const& p) {
    std::vector<wpr::queried_session> v;
    auto one = [&](wpr::session_plan const& s) {
        wpr::queried_session q;
        q.name = s.name;
        q.buffer_size_kb = s.buffer_size_kb;
        q.minimum_buffers = s.minimum_buffers;
        q.maximum_buffers = s.maximum_buffers;
        q.log_file_mode = s.log_file_mode;
        q.maximum_file_size_mb = s.maximum_file_size_mb;
        q.flush_timer_s = s.flush_timer_s;
        return q;
    };
    v.push_back(one(p.system->session));
    v.back().flags = p.system->flags;
    for (auto const& s : p.event_sessions) v.push_back(one(s));
    return v;
}

std::vector<wpr::difference> of_kind(std::vector<wpr::difference> const& d, wpr::difference_kind k) {
    std::vector<wpr::difference> v;
    for (auto const& x : d)
        if (x.kind == k) v.push_back(x);
    return v;
}
} // namespace

TEST_CASE("a session as planned: nothing differs, and what cannot be read back is said as such") {
    auto const p = sampling_plan();
    auto const running = as_planned(p);
    auto const d = wpr::compare(p, running);
    CHECK(of_kind(d, wpr::difference_kind::differs).empty());
    CHECK(of_kind(d, wpr::difference_kind::missing).empty());
    auto const unreadable = of_kind(d, wpr::difference_kind::cannot_read_back);
    std::vector<std::string> what;
    for (auto const& u : unreadable) what.push_back(u.what);
    // the stack list (TraceStackTracingInfo has no query), stack caching, and the event session's providers
    CHECK(what == std::vector<std::string>{"stack list (4 events)", "stack caching", "providers (3)"});
    CHECK(contains(wpr::format(unreadable[0]), "cannot be read back"));
    CHECK(contains(unreadable[0].note, "TraceStackTracingInfo"));
}

TEST_CASE("the group mask matches in either form of the alias bits") {
    auto const p = sampling_plan();
    auto running = as_planned(p);
    // The plan writes CSwitch, ReadyThread, SampledProfile as their Masks[0] alias bits; the kernel may
    // report the PERF_* bits of Masks[1] instead (or both).
    etwctl::group_mask perf_form;
    perf_form.masks[0] = 0x7U;                                   // ProcessThread, Loader
    perf_form.set(etwctl::perf::context_switch).set(etwctl::perf::dispatcher).set(etwctl::perf::profile);
    perf_form.masks[2] = 0x8000U;
    perf_form.masks[4] = 0x8000U;
    running[0].flags = perf_form;
    CHECK(of_kind(wpr::compare(p, running), wpr::difference_kind::differs).empty());
    running[0].flags = perf_form.normalized(); // both forms at once
    CHECK(of_kind(wpr::compare(p, running), wpr::difference_kind::differs).empty());
    // A flag really missing is a difference, per Masks[] index
    perf_form.masks[4] = 0;
    running[0].flags = perf_form;
    auto const d = of_kind(wpr::compare(p, running), wpr::difference_kind::differs);
    REQUIRE(d.size() == 1);
    CHECK(d[0].what == "group mask Masks[4]");
    CHECK(d[0].expected == "0x00008000");
    CHECK(d[0].actual == "0x00000000");
}

TEST_CASE("buffers, modes and a missing session are differences; an unqueried mask is not compared") {
    auto const p = sampling_plan();
    auto running = as_planned(p);
    running[0].buffer_size_kb = 64;
    running[0].log_file_mode = lfm::sequential; // not a system logger
    running[1].maximum_buffers = 9;
    auto const d = of_kind(wpr::compare(p, running), wpr::difference_kind::differs);
    REQUIRE(d.size() == 3);
    CHECK(d[0].what == "buffer_size_kb");
    CHECK(d[0].expected == "1024");
    CHECK(d[0].actual == "64");
    CHECK(d[1].what == "log_file_mode");
    CHECK(d[1].expected == "0x02000001");
    CHECK(d[1].actual == "0x00000001");
    CHECK(d[2].session == "WPR_initiated_WprApp_Test Event Collector");
    CHECK(d[2].what == "maximum_buffers");
    CHECK(wpr::format(d[0]) == "WPR_initiated_WprApp_WPR System Collector: buffer_size_kb differs: the plan has 1024, the session 64");

    running = as_planned(p);
    running[0].flags.reset();
    running[0].log_file_mode |= lfm::use_paged_memory; // a bit the plan does not set is not compared
    auto const d2 = wpr::compare(p, running);
    CHECK(of_kind(d2, wpr::difference_kind::differs).empty());
    REQUIRE(of_kind(d2, wpr::difference_kind::not_compared).size() == 1);
    CHECK(of_kind(d2, wpr::difference_kind::not_compared)[0].what == "group mask");

    running.pop_back(); // the event session is not running
    auto const d3 = of_kind(wpr::compare(p, running), wpr::difference_kind::missing);
    REQUIRE(d3.size() == 1);
    CHECK(d3[0].session == "WPR_initiated_WprApp_Test Event Collector");
}

TEST_CASE("a share of memory is compared only with the machine's memory given") {
    auto r = load_data("console_perf.wprp", request("Env.Light.Memory"));
    REQUIRE(r.plan);
    auto const& p = *r.plan;
    std::vector<wpr::queried_session> running(2);
    running[0].name = p.system->session.name;
    running[0].buffer_size_kb = 1024;
    running[0].minimum_buffers = running[0].maximum_buffers = 819;
    running[0].log_file_mode = p.system->session.log_file_mode;
    running[0].flags = p.system->flags;
    running[1].name = "wpr_initiated_wprapp_eventcollector_wpreventcollectorinfile"; // names match case-insensitively
    running[1].buffer_size_kb = 1024;
    running[1].minimum_buffers = running[1].maximum_buffers = 256;
    running[1].log_file_mode = lfm::buffering;
    auto const without = wpr::compare(p, running);
    CHECK(of_kind(without, wpr::difference_kind::not_compared).size() == 2);
    CHECK(of_kind(without, wpr::difference_kind::differs).empty());
    wpr::check_options o;
    o.total_memory_bytes = 16ULL << 30;
    auto const with = wpr::compare(p, running, o);
    CHECK(of_kind(with, wpr::difference_kind::not_compared).empty());
    CHECK(of_kind(with, wpr::difference_kind::differs).empty());
    running[0].maximum_buffers = 100;
    auto const d = of_kind(wpr::compare(p, running, o), wpr::difference_kind::differs);
    REQUIRE(d.size() == 1);
    CHECK(d[0].expected == "819");
}

TEST_CASE("hardware counters: the PMC and LBR lists cannot be read back; sampled counters are machine-global") {
    auto r = load_data("cpu_counters.wprp", request("Counters", wpr::logging_mode::file));
    REQUIRE(r.plan);
    auto const running = as_planned(*r.plan);
    auto const d = wpr::compare(*r.plan, running);
    std::vector<std::string> unreadable;
    for (auto const& x : of_kind(d, wpr::difference_kind::cannot_read_back)) unreadable.push_back(x.what);
    CHECK(unreadable == std::vector<std::string>{"stack list (2 events)", "PMC counter list", "PMC event list", "LBR event list"});
    auto const nc = of_kind(d, wpr::difference_kind::not_compared);
    REQUIRE(nc.size() == 1);
    CHECK(nc[0].what == "sampled counters");
}
