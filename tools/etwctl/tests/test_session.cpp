// Sessions by name: etwctl::find_session (request/logger_query.hpp) against the simulated kernel's
// model of NtTraceControl(EtwQueryLoggerCode): the request it sends and the answers.
#include <cstring>
#include <memory>

#include <doctest/doctest.h>

#include "etwctl/request/logger_query.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/testing/sim_kernel.hpp"

namespace {
using namespace etwctl;

std::unique_ptr<sim::kernel> machine() {
    auto k = std::make_unique<sim::kernel>();
    k->start_kernel_logger();
    REQUIRE(k->start_logger(5) == 5);
    REQUIRE(k->set_logger_name(5, "My Session"));
    REQUIRE(k->start_logger(9, sim::logger_options{false, false}) == 9);
    REQUIRE(k->set_logger_name(9, "Other"));
    k->clear_requests();
    return k;
}
} // namespace

TEST_CASE("a session's name gives its handle, case-insensitively; the NT Kernel Logger answers to its name") {
    auto k = machine();
    CHECK(find_session(*k, "My Session").value() == session_handle{5});
    CHECK(find_session(*k, "my session").value() == session_handle{5});
    CHECK(find_session(*k, "Other").value() == session_handle{9});
    CHECK(find_session(*k, "NT Kernel Logger").value() == session_handle{limits::kernel_logger_id});
}

TEST_CASE("the request: NtTraceControl code 3 with a WMI_LOGGER_INFORMATION naming the logger") {
    auto k = machine();
    REQUIRE(find_session(*k, "My Session"));
    REQUIRE(k->requests().size() == 1);
    auto const& r = k->requests()[0];
    CHECK(r.function == kernel_function::nt_trace_control);
    CHECK(r.code == 3);
    CHECK(r.length == sizeof(logger_query::wmi_logger_information));
    logger_query::wmi_logger_information info;
    REQUIRE(r.bytes.size() == sizeof info);
    std::memcpy(&info, r.bytes.data(), sizeof info);
    CHECK(info.wnode.buffer_size == sizeof info);
    CHECK(info.wnode.flags == logger_query::wnode_flag_traced_guid);
    CHECK(info.logger_name.length == 20);
    CHECK(info.logger_name.maximum_length == 22);
#if UINTPTR_MAX > 0xFFFFFFFFU
    CHECK(sizeof info == 0xB0);
#endif
}

TEST_CASE("no such session, a stopped session, a bad name") {
    auto k = machine();
    auto const absent = find_session(*k, "Nobody");
    REQUIRE_FALSE(absent);
    CHECK(absent.error() == ntstatus_error_code(ntstatus::wmi_instance_not_found));
    REQUIRE(k->stop_logger(5));
    CHECK(find_session(*k, "My Session").error() == ntstatus_error_code(ntstatus::wmi_instance_not_found));
    k->clear_requests();
    CHECK(find_session(*k, "").error() == make_error_code(rule::parse_empty_name));
    CHECK(find_session(*k, "caf\xc3\xa9").error() == make_error_code(rule::parse_empty_name));
    CHECK(k->requests().empty()); // refused before anything was sent
    CHECK_FALSE(k->set_logger_name(42, "not started"));
}

TEST_CASE("the model checks the buffer like the kernel: too short is STATUS_INVALID_PARAMETER") {
    auto k = machine();
    logger_query::wmi_logger_information info;
    char16_t name[logger_query::max_name_length];
    REQUIRE(logger_query::encode("My Session", info, name));
    std::uint32_t returned = 0;
    auto const size = static_cast<std::uint32_t>(sizeof info);
    CHECK(k->nt_trace_control(3, &info, size - 8, &info, size, &returned) == ntstatus::invalid_parameter);
    CHECK(k->nt_trace_control(3, &info, size, &info, size, nullptr) == ntstatus::invalid_parameter);
    CHECK(k->nt_trace_control(3, &info, size, &info, size, &returned) == ntstatus::success);
    CHECK(info.wnode.historical_context == 5);
    CHECK(returned == size);
}
