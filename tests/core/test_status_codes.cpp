// The three error domains and the one NTSTATUS -> Win32 mapping (RtlNtStatusToDosError; values from the SDK's
// winerror.h / ntstatus.h).
#include "etwctl_test.hpp"

using namespace etwctl;

TEST_CASE("RtlNtStatusToDosError mapping for the statuses the ETW paths produce") {
    CHECK(nt_status_to_win32(ntstatus::success) == 0);
    CHECK(nt_status_to_win32(ntstatus::invalid_parameter) == win32::invalid_parameter);
    CHECK(nt_status_to_win32(ntstatus::invalid_info_class) == win32::invalid_parameter);
    CHECK(nt_status_to_win32(ntstatus::info_length_mismatch) == win32::bad_length);
    CHECK(nt_status_to_win32(ntstatus::buffer_too_small) == win32::insufficient_buffer);
    CHECK(nt_status_to_win32(ntstatus::privilege_not_held) == win32::privilege_not_held);
    CHECK(nt_status_to_win32(ntstatus::wmi_instance_not_found) == win32::wmi_instance_not_found);
    CHECK(nt_status_to_win32(ntstatus::not_implemented) == win32::invalid_function);
    CHECK(nt_status_to_win32(ntstatus::entrypoint_not_found) == win32::proc_not_found);
    CHECK(nt_status_to_win32(ntstatus::buffer_overflow) == win32::more_data);
    CHECK(nt_status_to_win32(ntstatus::wmi_already_enabled) == win32::wmi_already_enabled);
    // 0xC001xxxx and 0x8007xxxx carry a Win32 code; 0xDxxxxxxx maps like 0xCxxxxxxx.
    CHECK(nt_status_to_win32(static_cast<std::int32_t>(0xC0010057U)) == 87);
    CHECK(nt_status_to_win32(static_cast<std::int32_t>(0x80070005U)) == 5);
    CHECK(nt_status_to_win32(static_cast<std::int32_t>(0xD000000DU)) == 87);
    CHECK(nt_status_to_win32(static_cast<std::int32_t>(0xC0FFEE00U)) == win32::mr_mid_not_found);
}

TEST_CASE("HRESULT_FROM_WIN32") {
    CHECK(hresult::from_win32(0) == 0);
    CHECK(static_cast<std::uint32_t>(hresult::from_win32(87)) == 0x80070057U);
    CHECK(static_cast<std::uint32_t>(hresult::from_win32(50)) == 0x80070032U);
    CHECK(static_cast<std::uint32_t>(hresult::from_win32(122)) == 0x8007007AU);
    CHECK(static_cast<std::uint32_t>(hresult::from_win32(1462)) == 0x800705B6U);
    CHECK(hresult::win32_of(hresult::from_win32(1462)) == 1462);
}

TEST_CASE("error categories keep domains apart but compare through the Win32 condition") {
    std::error_code const from_rule = make_error_code(rule::stack_tracing_size);
    std::error_code const from_nt = ntstatus_error_code(ntstatus::invalid_parameter);
    std::error_code const from_win32 = win32_error_code(win32::invalid_parameter);
    CHECK(from_rule.category() == rule_category());
    CHECK(from_nt.category() == ntstatus_category());
    CHECK(from_win32.category() == win32_category());
    CHECK(from_rule == win32_condition(win32::incorrect_size));
    CHECK(from_nt == win32_condition(win32::invalid_parameter));
    CHECK(from_win32 == win32_condition(win32::invalid_parameter));
    CHECK(from_rule != from_nt);
    CHECK(to_win32(from_rule) == 1462);
    CHECK(to_win32(from_nt) == 87);
    CHECK(to_win32(hresult_error_code(hresult::from_win32(50))) == 50);
    CHECK(rule_of(from_rule) == rule::stack_tracing_size);
    CHECK(rule_of(from_nt) == rule::ok);
    CHECK(from_rule.message().find("stack_tracing_size") != std::string::npos);
    CHECK(from_nt.message().find("STATUS_INVALID_PARAMETER") != std::string::npos);
    CHECK(from_win32.message().find("ERROR_INVALID_PARAMETER") != std::string::npos);
    CHECK_FALSE(ntstatus_error_code(ntstatus::more_entries)); // informational = success (NT_SUCCESS)
    CHECK_FALSE(no_error());
}
