// The simulated kernel's own rules: it is a model that refuses what the kernel refuses, not a recorder.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim_fixture.hpp"

#if !defined(_WIN32)
#include <csignal>

#include <sys/wait.h>
#include <unistd.h>
#endif

using namespace etwctl;
using namespace etwctl_test;

namespace {
struct hook_request {
    kernel_request_header h;
    std::uint32_t ids[300];
};
std::int32_t send_hooks(sim::kernel& k, std::uint32_t cls, std::uint64_t handle, std::size_t n, std::uint32_t first = 0x0524) {
    static hook_request r;
    r.h = {cls, 0, handle};
    for (std::size_t i = 0; i < n; ++i) r.ids[i] = first;
    return k.nt_set_system_information(0x1F, &r, static_cast<std::uint32_t>(0x10 + 4 * n));
}
} // namespace

TEST_CASE("loggers: ids < 64 and 0xFFFF; unknown -> WMI_INSTANCE_NOT_FOUND; not system mode -> INVALID_PARAMETER") {
    machine m;
    CHECK(m.k.start_logger(64) == 0);
    CHECK(m.k.start_logger(0xFFFF) == 0); // already started
    CHECK(m.k.start_logger(63) == 63);
    std::uint64_t const user = m.k.start_logger(7, {.system_logger_mode = false});
    CHECK(send_hooks(m.k, 6, 0x20, 1) == ntstatus::wmi_instance_not_found);
    CHECK(send_hooks(m.k, 6, user, 1) == ntstatus::invalid_parameter);
    CHECK(send_hooks(m.k, 6, 63, 1) == ntstatus::success);
    CHECK(send_hooks(m.k, 6, 0xABCD0000FFFFULL, 1) == ntstatus::success); // only the low 16 bits select
    CHECK(send_hooks(m.k, 6, 0xFFFF, 2) == ntstatus::success);            // KERNEL_LOGGER_ID: the NT Kernel Logger
    CHECK(send_hooks(m.k, 6, 0, 1) == ntstatus::wmi_instance_not_found);  // logger id 0: no session has it
    CHECK(m.k.stack_tracing_hooks(0xFFFF).size() == 2);
    CHECK(m.k.stack_tracing_hooks(0).empty());                             // ... nor for inspection
    CHECK(m.k.stop_logger(63));
    CHECK(send_hooks(m.k, 6, 63, 1) == ntstatus::wmi_instance_not_found);
}

TEST_CASE("at most 8 system loggers (the kernel keeps 8 group masks)") {
    machine m; // the NT Kernel Logger is one
    int started = 0;
    CHECK(m.k.start_logger(0) == 0); // no logger has id 0 (the NT Kernel Logger is 0xFFFF)
    for (std::uint16_t id = 1; id < 20; ++id) started += m.k.start_logger(id) != 0 ? 1 : 0;
    CHECK(started == 7);
    CHECK(m.k.start_logger(30, {.system_logger_mode = false}) == 30);
}

TEST_CASE("SystemPerformanceTraceInformation framing") {
    machine m;
    std::uint32_t buf[12] = {1};
    CHECK(m.k.nt_set_system_information(0x20, buf, 48) == ntstatus::invalid_info_class);
    CHECK(m.k.nt_set_system_information(0x1F, buf, 3) == ntstatus::invalid_parameter);
    CHECK(m.k.nt_set_system_information(0x1F, nullptr, 48) == ntstatus::access_violation);
    CHECK(m.k.nt_set_system_information(0x1F, buf, 47) == ntstatus::info_length_mismatch); // group mask: exactly 0x30
    buf[0] = 0x0D;
    CHECK(m.k.nt_set_system_information(0x1F, buf, 8) == ntstatus::not_implemented); // query-only class
    buf[0] = 0x06;
    std::uint32_t ret = 0;
    CHECK(m.k.nt_query_system_information(0x1F, buf, 16, &ret) == ntstatus::not_implemented); // the stack list cannot be read back
    CHECK(send_hooks(m.k, 6, 0xFFFF, 257) == ntstatus::invalid_parameter);
    CHECK(send_hooks(m.k, 6, 0xFFFF, 256) == ntstatus::success);
    hook_request r{};
    r.h = {6, 0, 0xFFFF};
    CHECK(m.k.nt_set_system_information(0x1F, &r, 0x12) == ntstatus::invalid_parameter); // not whole ULONGs
    CHECK(m.k.nt_set_system_information(0x1F, &r, 0x0C) == ntstatus::info_length_mismatch);
}

TEST_CASE("privilege: PERF_PROFILE / PERF_PMC_PROFILE, intervals, profile config and PMC counters need it") {
    machine m;
    m.k.set_privilege(false);
    kernel_group_mask_request gm{};
    gm.header = {1, 0, 0xFFFF};
    gm.masks[0] = 0x7;
    CHECK(m.k.nt_set_system_information(0x1F, &gm, sizeof gm) == ntstatus::success);
    gm.masks[0] = 0x01000000; // EVENT_TRACE_FLAG_PROFILE alias
    CHECK(m.k.nt_set_system_information(0x1F, &gm, sizeof gm) == ntstatus::privilege_not_held);
    gm.masks[0] = 0;
    gm.masks[1] = 0x400; // PERF_PMC_PROFILE
    CHECK(m.k.nt_set_system_information(0x1F, &gm, sizeof gm) == ntstatus::privilege_not_held);
    CHECK(m.k.nt_set_interval_profile(5000, 0) == ntstatus::privilege_not_held);
    kernel_time_profile_request tp;
    tp.profile_interval = 5000;
    CHECK(m.k.nt_set_system_information(0x1F, &tp, 8) == ntstatus::privilege_not_held);
    CHECK(send_hooks(m.k, 0x0F, 0xFFFF, 1, 19) == ntstatus::privilege_not_held);
    CHECK(send_hooks(m.k, 0x0C, 0xFFFF, 1, 19) == ntstatus::privilege_not_held);
    CHECK(m.k.interval(0) == 10000);
    m.k.set_privilege(true);
    CHECK(m.k.nt_set_interval_profile(5000, 0) == ntstatus::success);
    CHECK(m.k.interval(0) == 5000);
}

TEST_CASE("TraceProfileSourceConfigInfo reads no logger: at handle 0, before any session exists") {
    // Issue 21 item 3: the kernel's handler (EtwSetPerformanceTraceInformation, class 0x0C) checks the
    // length, access, the privilege and the count, then sets the machine's sources; it never looks up
    // the TraceHandle. Programs make this call before their own session exists.
    auto k = std::make_unique<sim::kernel>(); // no logger at all, not even the NT Kernel Logger
    std::uint32_t const sources[] = {19, 26};
    CHECK(compat::trace_set_information(*k, 0, 6, sources, sizeof sources) == 0U);
    CHECK(std::vector<std::uint32_t>(k->profile_config().begin(), k->profile_config().end()) ==
          std::vector<std::uint32_t>{19, 26});
    profile_source const one[] = {profile_source::cache_misses};
    CHECK_FALSE(set<profile_source_config>(*k, session_handle{0}, one));
    CHECK_FALSE(set<profile_source_config>(*k, session_handle{42}, one)); // whatever the handle: not read
    CHECK(k->profile_config().size() == 1);
    k->set_privilege(false);
    CHECK(send_hooks(*k, 0x0C, 0, 1, 19) == ntstatus::privilege_not_held);
}

TEST_CASE("intervals: per source, clamped to [min, max], unknown sources refused to set and read as 0") {
    machine m;
    CHECK(m.k.nt_set_interval_profile(1, 0) == ntstatus::success);
    CHECK(m.k.interval(0) == 1221);
    CHECK(m.k.nt_set_interval_profile(0xFFFFFFFF, 0) == ntstatus::success);
    CHECK(m.k.interval(0) == 1000000);
    CHECK(m.k.nt_set_interval_profile(100, 19) == ntstatus::success);
    CHECK(m.k.interval(19) == sim::pmc_min);
    CHECK(m.k.nt_set_interval_profile(5000, 0x55) == ntstatus::not_supported);
    std::uint32_t v = 77;
    CHECK(m.k.nt_query_interval_profile(0x55, &v) == ntstatus::success);
    CHECK(v == 0);
    CHECK(m.k.nt_query_interval_profile(0, nullptr) == ntstatus::access_violation);
    sim::profile_source_desc const tiny[] = {{0, "Timer", 2000, 1000, 3000}};
    m.k.set_profile_sources(tiny);
    CHECK(m.k.interval(0) == 2000);
    CHECK(m.k.nt_set_interval_profile(5000, 19) == ntstatus::not_supported);
}

TEST_CASE("PMC: events <= 4, counters 1..max, each once per logger, no timer, no paged-memory logger") {
    machine m;
    CHECK(send_hooks(m.k, 0x0E, 0xFFFF, 5) == ntstatus::invalid_parameter);
    CHECK(send_hooks(m.k, 0x0E, 0xFFFF, 1) == ntstatus::success);
    CHECK(send_hooks(m.k, 0x0E, 0xFFFF, 1) == ntstatus::wmi_already_enabled);
    CHECK(send_hooks(m.k, 0x0F, 0xFFFF, 0, 19) == ntstatus::invalid_parameter);
    CHECK(send_hooks(m.k, 0x0F, 0xFFFF, 5, 19) == ntstatus::invalid_parameter);
    CHECK(send_hooks(m.k, 0x0F, 0xFFFF, 1, 0) == ntstatus::not_supported);   // the timer is not a counter
    CHECK(send_hooks(m.k, 0x0F, 0xFFFF, 1, 0x99) == ntstatus::not_supported); // not on this machine
    CHECK(send_hooks(m.k, 0x0F, 0xFFFF, 2, 19) == ntstatus::success);
    CHECK(send_hooks(m.k, 0x0F, 0xFFFF, 2, 19) == ntstatus::wmi_already_enabled);
    std::uint64_t const paged = m.k.start_logger(2, {.system_logger_mode = true, .paged_memory = true});
    CHECK(send_hooks(m.k, 0x0F, paged, 1, 19) == ntstatus::invalid_parameter);
    m.k.set_max_pmc_counters(8); // 1703+ kernels allow more
    std::uint64_t const other = m.k.start_logger(3);
    CHECK(send_hooks(m.k, 0x0F, other, 6, 19) == ntstatus::success);
}

TEST_CASE("profile-source list reply: records chained by NextEntryOffset, 8-aligned, NUL-terminated") {
    machine m;
    kernel_profile_list_header h;
    std::uint32_t ret = 0;
    CHECK(m.k.nt_query_system_information(0x1F, &h, sizeof h, &ret) == ntstatus::info_length_mismatch);
    std::vector<std::byte> buf(ret);
    std::memcpy(buf.data(), &h, sizeof h);
    REQUIRE(m.k.nt_query_system_information(0x1F, buf.data(), ret, &ret) == ntstatus::success);
    CHECK(check_profile_source_chain(std::span<std::byte const>(buf).subspan(8)) == rule::ok);
    CHECK(u32_at(buf, 8) % 8 == 0);
}

TEST_CASE("request log: function, class, exact bytes; injection; missing exports") {
    machine m;
    m.k.clear_requests();
    kernel_time_profile_request tp;
    tp.profile_interval = 4321;
    REQUIRE(m.k.nt_set_system_information(0x1F, &tp, 8) == 0);
    REQUIRE(m.k.request_count() == 1);
    auto const& r = m.k.request(0);
    CHECK(r.function == kernel_function::nt_set_system_information);
    CHECK(r.kernel_class == 3);
    CHECK(r.bytes.size() == 8);
    CHECK(u32_at(r.bytes, 4) == 4321);

    m.k.inject(ntstatus::no_memory, 2);
    CHECK(m.k.nt_set_interval_profile(2000, 0) == ntstatus::no_memory);
    CHECK(m.k.nt_trace_control(0x22, nullptr, 0, nullptr, 0, nullptr) == ntstatus::no_memory);
    CHECK(m.k.nt_set_interval_profile(2000, 0) == ntstatus::success);
    CHECK(m.k.request(1).status == ntstatus::no_memory);

    m.k.set_available(kernel_function::nt_query_interval_profile, false);
    CHECK_FALSE(m.k.available(kernel_function::nt_query_interval_profile));
    std::uint32_t v = 0;
    CHECK(m.k.nt_query_interval_profile(0, &v) == ntstatus::entrypoint_not_found);
    CHECK(is_available(m.k, kernel_function::nt_set_interval_profile));

    for (int i = 0; i < 600; ++i) (void)m.k.nt_set_interval_profile(2000, 0);
    CHECK(m.k.request_count() == sim::kernel::max_records);
    CHECK(m.k.dropped_requests() > 0);
}

TEST_CASE("NtTraceControl: ReturnSize required; disallow list shape; unknown codes") {
    machine m;
    std::uint32_t ret = 0;
    std::uint32_t in[2 + 4] = {0xFFFF, 1, 1, 2, 3, 4};
    CHECK(m.k.nt_trace_control(0x1C, in, 24, nullptr, 0, nullptr) == ntstatus::invalid_parameter);
    CHECK(m.k.nt_trace_control(0x1C, in, 23, nullptr, 0, &ret) == ntstatus::invalid_parameter);
    in[1] = 2;
    CHECK(m.k.nt_trace_control(0x1C, in, 24, nullptr, 0, &ret) == ntstatus::invalid_parameter); // count disagrees
    in[1] = 1;
    CHECK(m.k.nt_trace_control(0x1C, in, 24, nullptr, 0, &ret) == ntstatus::success);
    std::uint64_t h = 0xFFFF;
    CHECK(m.k.nt_trace_control(0x22, &h, 4, nullptr, 0, &ret) == ntstatus::invalid_parameter);
    CHECK(m.k.nt_trace_control(0x22, &h, 8, nullptr, 0, &ret) == ntstatus::buffer_too_small);
    CHECK(ret == 16);
    CHECK(m.k.nt_trace_control(0x99, &h, 8, nullptr, 0, &ret) == ntstatus::invalid_device_request);
}

// ---- issue 12: sizes, checked log access, size of the object ------------------------------------

namespace {
sim::kernel static_kernel; // a sim::kernel as a static object (it is large: see sim_kernel.hpp)

std::size_t source_list_entries(sim::kernel& k) {
    profile_source_list_buffer<> storage;
    auto const list = query<profile_source_list>(k, storage);
    REQUIRE(list.has_value());
    std::size_t n = 0;
    for (auto const& s : *list) {
        static_cast<void>(s);
        ++n;
    }
    return n;
}
} // namespace

TEST_CASE("sim: a profile-source name of 2^31 characters is refused, not wrapped to a small record") {
    // Before the fix record_size computed 0x18 + 2 * (2^31 + 1) in 32 bits (0x1A, rounded to 0x20) and
    // the reply then wrote 2^31 characters into a 0x20-byte record: far out of the caller's buffer.
    // The name's characters are never read when it is refused, so a short buffer stands for them.
    static char const chars[8] = "Huge";
    sim::profile_source_desc const huge[] = {{0, "Timer", 10000, 1221, 1000000},
                                             {40, std::string_view(chars, (std::size_t{1} << 31) + 1), 65536, 4096, 65536}};
    machine m;
    std::size_t const before = m.k.profile_sources().size();
    CHECK_FALSE(m.k.set_profile_sources(huge));
    CHECK(m.k.profile_sources().size() == before); // unchanged
    CHECK(source_list_entries(m.k) == before);     // and the reply is still the old, well-formed list

    // The cap itself: max_profile_source_name_length characters are accepted, one more is refused.
    std::string const at_cap(sim::kernel::max_profile_source_name_length, 'N');
    std::string const over_cap(sim::kernel::max_profile_source_name_length + 1, 'N');
    sim::profile_source_desc const ok[] = {{0, "Timer", 10000, 1221, 1000000}, {40, at_cap, 65536, 4096, 65536}};
    sim::profile_source_desc const too_long[] = {{0, "Timer", 10000, 1221, 1000000}, {40, over_cap, 65536, 4096, 65536}};
    CHECK(m.k.set_profile_sources(ok));
    CHECK(m.k.profile_sources().size() == 2);
    CHECK(source_list_entries(m.k) == 2);
    CHECK_FALSE(m.k.set_profile_sources(too_long));
    CHECK(m.k.profile_sources().size() == 2);
}

TEST_CASE("sim: more sources than max_profile_sources_known are refused, not cut") {
    std::vector<sim::profile_source_desc> many(sim::kernel::max_profile_sources_known + 1,
                                               sim::profile_source_desc{0, "S", 65536, 4096, 65536});
    for (std::size_t i = 0; i < many.size(); ++i) many[i].id = static_cast<std::uint32_t>(i);
    machine m;
    std::size_t const before = m.k.profile_sources().size();
    CHECK_FALSE(m.k.set_profile_sources(many)); // before the fix: silently the first 48
    CHECK(m.k.profile_sources().size() == before);
    many.pop_back();
    CHECK(m.k.set_profile_sources(many));
    CHECK(m.k.profile_sources().size() == sim::kernel::max_profile_sources_known);
}

TEST_CASE("sim: checked request-log access") {
    machine m;
    m.k.clear_requests();
    CHECK(m.k.request_count() == 0);
    CHECK_FALSE(m.k.find_last_request().has_value()); // last_request() here would read index -1
    CHECK_FALSE(m.k.find_request(0).has_value());
    std::uint32_t interval = 0;
    CHECK(m.k.nt_query_interval_profile(0, &interval) == 0);
    REQUIRE(m.k.find_last_request().has_value());
    CHECK(m.k.find_last_request()->function == kernel_function::nt_query_interval_profile);
    CHECK(m.k.find_request(0)->function == kernel_function::nt_query_interval_profile);
    CHECK_FALSE(m.k.find_request(1).has_value());
    CHECK(&m.k.last_request() == &m.k.request(0));
}

#if !defined(_WIN32)
namespace {
/// Runs f in a child process; true if the child died of a signal (GSL's Expects terminates: SIGABRT).
template <class F>
bool dies(F f) {
    pid_t const pid = fork();
    if (pid == 0) {
        std::signal(SIGABRT, SIG_DFL); // die of the signal, not of the test framework's crash handler
        f();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFSIGNALED(status);
}
} // namespace

TEST_CASE("sim: last_request() on an empty log and request(i) out of range stop the program (Expects)") {
    CHECK(dies([] {
        sim::kernel* k = new sim::kernel; // NOLINT: leaked on purpose, the child dies
        k->clear_requests();
        static_cast<void>(k->last_request());
    }));
    CHECK(dies([] {
        sim::kernel* k = new sim::kernel; // NOLINT
        std::uint32_t v = 0;
        static_cast<void>(k->nt_query_interval_profile(0, &v));
        static_cast<void>(k->request(1));
    }));
    CHECK_FALSE(dies([] {
        sim::kernel* k = new sim::kernel; // NOLINT
        std::uint32_t v = 0;
        static_cast<void>(k->nt_query_interval_profile(0, &v));
        static_cast<void>(k->request(0));
    }));
}
#endif

TEST_CASE("sim: works as a static object and on the heap") {
    // sizeof(sim::kernel) is large (see sim_kernel.hpp); both placements must work the same.
    static_assert(sizeof(sim::kernel) > 64 * 1024, "update the size note in sim_kernel.hpp if this shrinks");
    auto heap = std::make_unique<sim::kernel>();
    for (sim::kernel* k : {&static_kernel, heap.get()}) {
        k->clear_requests();
        std::uint64_t const session = k->start_logger(7);
        REQUIRE(session == 7);
        CHECK_FALSE(set<stack_tracing>(*k, session_handle{session}, stack_walk<"CSwitch">));
        CHECK(k->request_count() == 1);
        REQUIRE(k->stack_tracing_hooks(7).size() == 1);
        CHECK(k->stack_tracing_hooks(7)[0] == 0x0524U);
        CHECK(k->stop_logger(7));
    }
}

TEST_CASE("SeSystemProfilePrivilege: the library enables it through the kernel layer; the sim models the token") {
    // Issue 21 item 19: the code that enables it lived only in the tool.
    auto k = std::make_unique<sim::kernel>();
    k->set_privilege(false); // held but not enabled: the kernel refuses
    CHECK(set<sampled_profile_interval>(*k, timer_interval<1250>) == ntstatus_error_code(ntstatus::privilege_not_held));
    CHECK(describe(set<sampled_profile_interval>(*k, timer_interval<1250>)) ==
          "set<sampled_profile_interval>: the kernel wants SeSystemProfilePrivilege: run elevated and enable it "
          "(etwctl::enable_system_profile_privilege(k), etwctl/kernel/privilege.hpp)");
    CHECK_FALSE(enable_system_profile_privilege(*k));
    CHECK(k->privilege());
    CHECK_FALSE(set<sampled_profile_interval>(*k, timer_interval<1250>));
    // not in the token (not elevated): enabling fails as AdjustTokenPrivileges does, nothing changes
    k->set_privilege(false);
    k->set_privilege_held(false);
    auto const ec = enable_system_profile_privilege(*k);
    CHECK(ec == win32_error_code(win32::not_all_assigned));
    CHECK(describe(ec) == "SeSystemProfilePrivilege is not in this process's token, so it cannot be enabled: run "
                          "elevated (as administrator)");
    CHECK_FALSE(k->privilege());
    // through kernel_ref, forwarded
    kernel_ref r = *k;
    k->set_privilege_held(true);
    CHECK_FALSE(enable_system_profile_privilege(r));
    CHECK(k->privilege());
}

namespace {
/// A kernel without the optional extensions.
struct plain_kernel {
    std::int32_t nt_set_system_information(std::uint32_t, void const*, std::uint32_t) noexcept { return 0; }
    std::int32_t nt_query_system_information(std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept { return 0; }
    std::int32_t nt_set_interval_profile(std::uint32_t, std::uint32_t) noexcept { return 0; }
    std::int32_t nt_query_interval_profile(std::uint32_t, std::uint32_t*) noexcept { return 0; }
    std::int32_t nt_trace_control(std::uint32_t, void const*, std::uint32_t, void*, std::uint32_t, std::uint32_t*) noexcept {
        return 0;
    }
    std::uint32_t event_set_information(std::uint64_t, std::uint32_t, void const*, std::uint32_t) noexcept { return 0; }
};
} // namespace

TEST_CASE("kernel_ref: any kernel as one type, the extensions forwarded or answered") {
    auto k = std::make_unique<sim::kernel>();
    kernel_ref const r = *k;
    CHECK(r.valid());
    session_handle const s{k->start_kernel_logger()};
    CHECK_FALSE(set<stack_tracing>(r, s, stack_walk<"CSwitch">));
    CHECK(k->stack_tracing_hooks(limits::kernel_logger_id).size() == 1);
    k->set_available(kernel_function::nt_query_interval_profile, false);
    CHECK_FALSE(r.available(kernel_function::nt_query_interval_profile));
    CHECK(r.available(kernel_function::nt_trace_control));
    plain_kernel p;
    kernel_ref const q = p;
    CHECK(q.available(kernel_function::nt_trace_control)); // a kernel without available(): everything exists
    auto const none = enable_system_profile_privilege(q);
    CHECK(none == win32_error_code(win32::not_supported));
    CHECK(describe(none).find("this kernel has no way to enable a privilege") != std::string::npos);
    CHECK(enable_system_profile_privilege(p) == win32_error_code(win32::not_supported));
    kernel_ref const empty;
    CHECK_FALSE(empty.valid());
    CHECK(empty.nt_set_interval_profile(1250, 0) == ntstatus::invalid_handle);
    CHECK(set<sampled_profile_interval>(empty, timer_interval<1250>) == ntstatus_error_code(ntstatus::invalid_handle));
}
