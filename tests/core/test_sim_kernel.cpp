// The simulated kernel's own rules: it is a model that refuses what the kernel refuses, not a recorder.
#include "sim_fixture.hpp"

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
    CHECK(send_hooks(m.k, 6, 0, 2) == ntstatus::success);                 // logger id 0 = the NT Kernel Logger
    CHECK(m.k.stack_tracing_hooks(0xFFFF).size() == 2);
    CHECK(m.k.stack_tracing_hooks(0).size() == 2);                         // ... for inspection too
    CHECK(m.k.stop_logger(63));
    CHECK(send_hooks(m.k, 6, 63, 1) == ntstatus::wmi_instance_not_found);
}

TEST_CASE("at most 8 system loggers (the kernel keeps 8 group masks)") {
    machine m; // the NT Kernel Logger is one
    int started = 0;
    CHECK(m.k.start_logger(0) == 0); // the NT Kernel Logger's slot
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
