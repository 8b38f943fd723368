// etwctl::native_kernel for real: exports resolved (or reported missing) at run time, the ABI of each
// call, and the NTSTATUS -> Win32 mapping of what the OS answers. Under Wine the answers are known
// (the reference table of Wine 8's ETW/NT behaviour); on Windows the same checks hold where they do
// not depend on Wine, and the Wine-only expectations are skipped.
#include "etwctl_test.hpp"

#include <windows.h>
#include <evntprov.h>

#include <cstdint>
#include <cstring>

#include "host.hpp"

using namespace etwctl;
using etwctl_test::has_export;
using etwctl_test::running_on_wine;

namespace {

// SYSTEM_BASIC_INFORMATION (SystemInformationClass 0) as the x64 kernel writes it: 64 bytes.
struct basic_information {
    std::uint32_t reserved;
    std::uint32_t timer_resolution;
    std::uint32_t page_size;
    std::uint32_t number_of_physical_pages;
    std::uint32_t lowest_physical_page_number;
    std::uint32_t highest_physical_page_number;
    std::uint32_t allocation_granularity;
    std::uintptr_t minimum_user_mode_address;
    std::uintptr_t maximum_user_mode_address;
    std::uintptr_t active_processors_affinity_mask;
    std::int8_t number_of_processors;
};
static_assert(sizeof(void*) != 8 || sizeof(basic_information) == 64);

constexpr std::uint64_t a_session = 0x0000'0000'0000'0020ULL; // logger id 0x20

struct export_row {
    kernel_function f;
    wchar_t const* module;
    char const* name;
};
constexpr export_row exports[] = {
    {kernel_function::nt_set_system_information, L"ntdll.dll", "NtSetSystemInformation"},
    {kernel_function::nt_query_system_information, L"ntdll.dll", "NtQuerySystemInformation"},
    {kernel_function::nt_set_interval_profile, L"ntdll.dll", "NtSetIntervalProfile"},
    {kernel_function::nt_query_interval_profile, L"ntdll.dll", "NtQueryIntervalProfile"},
    {kernel_function::nt_trace_control, L"ntdll.dll", "NtTraceControl"},
    {kernel_function::event_set_information, L"advapi32.dll", "EventSetInformation"},
};

} // namespace

TEST_CASE("every export is resolved or reported missing, as the OS says") {
    native_kernel& k = native_kernel::instance();
    for (auto const& row : exports) {
        CAPTURE(row.name);
        CHECK(k.available(row.f) == has_export(row.module, row.name));
        CHECK(is_available(k, row.f) == k.available(row.f));
    }
    // Present everywhere etwctl runs (Windows 8+ and Wine 8).
    CHECK(k.available(kernel_function::nt_set_system_information));
    CHECK(k.available(kernel_function::nt_query_system_information));
    CHECK(k.available(kernel_function::event_set_information));
    if (running_on_wine()) {
        MESSAGE("running under Wine");
        CHECK_FALSE(k.available(kernel_function::nt_query_interval_profile)); // Wine 8 does not export it
        CHECK(k.available(kernel_function::nt_set_interval_profile));
        CHECK(k.available(kernel_function::nt_trace_control));
    } else {
        CHECK(k.available(kernel_function::nt_query_interval_profile));
    }
    // The same instance everywhere (process-wide exports, process-wide resolver).
    CHECK(&native_kernel::instance() == &k);
}

TEST_CASE("ABI: NtQuerySystemInformation through native_kernel fills and measures a real class") {
    native_kernel& k = native_kernel::instance();
    basic_information info;
    std::memset(&info, 0xCC, sizeof info);
    std::uint32_t returned = 0xDEADBEEF;
    std::int32_t const s = k.nt_query_system_information(0 /* SystemBasicInformation */, &info, sizeof info, &returned);
    REQUIRE(s == ntstatus::success);
    CHECK(returned == sizeof info);
    SYSTEM_INFO si;
    ::GetSystemInfo(&si);
    CHECK(info.page_size == si.dwPageSize);
    CHECK(info.allocation_granularity == si.dwAllocationGranularity);
    CHECK(static_cast<DWORD>(info.number_of_processors) == si.dwNumberOfProcessors);
    CHECK(info.maximum_user_mode_address == reinterpret_cast<std::uintptr_t>(si.lpMaximumApplicationAddress));

    // A wrong length is the kernel's STATUS_INFO_LENGTH_MISMATCH, passed through unchanged; a null
    // return-length pointer is allowed.
    CHECK(k.nt_query_system_information(0, &info, 1, nullptr) == ntstatus::info_length_mismatch);
}

TEST_CASE("SystemPerformanceTraceInformation: the OS's status is mapped as RtlNtStatusToDosError maps it") {
    native_kernel& k = native_kernel::instance();
    std::uint32_t request[12] = {static_cast<std::uint32_t>(event_trace_information_class::group_mask), 0,
                                 static_cast<std::uint32_t>(a_session), 0};
    std::uint32_t returned = 0xDEADBEEF;
    std::int32_t const raw = k.nt_query_system_information(system_performance_trace_information, request,
                                                           sizeof request, &returned);
    std::uint32_t masks[8] = {};
    std::uint32_t compat_returned = 0;
    std::uint32_t const e = compat::trace_query_information(a_session, 4 /* TraceSystemTraceEnableFlagsInfo */,
                                                            masks, sizeof masks, &compat_returned);
    CHECK(compat_returned == 32);
    CHECK(e == nt_status_to_win32(raw));
    auto const typed = query<system_trace_enable_flags>(session_handle{a_session});
    CHECK(typed.has_value() == (raw >= 0));
    if (running_on_wine()) {
        CHECK(raw == ntstatus::invalid_info_class);
        CHECK(returned == 0);
        CHECK(e == win32::invalid_parameter);
        REQUIRE_FALSE(typed.has_value());
        CHECK(typed.error() == ntstatus_error_code(ntstatus::invalid_info_class));
        CHECK(to_win32(typed.error()) == win32::invalid_parameter);
    }
}

TEST_CASE("NtSetSystemInformation: the set path reaches the kernel and reports its answer") {
    group_mask const mask = group_mask::from_enable_flags(0x00000001U | 0x00000002U);
    std::error_code const typed = set<system_trace_enable_flags>(session_handle{a_session}, mask);
    std::uint32_t const masks[2] = {0x3U, 0};
    std::uint32_t const e = compat::trace_set_information(a_session, 4, masks, sizeof masks);
    if (running_on_wine()) {
        CHECK_FALSE(typed); // Wine pretends to succeed
        CHECK(e == win32::success);
        CHECK(native_kernel::instance().nt_set_system_information(system_performance_trace_information, masks,
                                                                  sizeof masks) == ntstatus::success);
    } else {
        CHECK(e == to_win32(typed)); // both layers agree on what Windows said
    }
    // Rules are checked before the kernel is asked, on every host: 9 masks is too many.
    std::uint32_t const nine[9] = {};
    CHECK(compat::trace_set_information(a_session, 4, nine, sizeof nine) == win32::invalid_parameter);
    classic_event_id const ev{};
    CHECK(compat::trace_set_information(a_session, 3, &ev, sizeof ev - 1) == win32::incorrect_size);
}

TEST_CASE("a missing export is an error the caller sees, never a crash") {
    native_kernel& k = native_kernel::instance();
    if (!running_on_wine()) {
        MESSAGE("NtQueryIntervalProfile exists on this host; the missing-export path is covered under Wine");
        return;
    }
    std::uint32_t interval = 0xDEADBEEF;
    CHECK(k.nt_query_interval_profile(0x13, &interval) == ntstatus::entrypoint_not_found);
    CHECK(interval == 0xDEADBEEF); // nothing written
    CHECK(nt_status_to_win32(ntstatus::entrypoint_not_found) == win32::proc_not_found);

    auto const typed = query<sampled_profile_interval>(profile_source::total_cycles);
    REQUIRE_FALSE(typed.has_value());
    CHECK(typed.error() == ntstatus_error_code(ntstatus::entrypoint_not_found));
    CHECK(to_win32(typed.error()) == win32::proc_not_found);

    trace_profile_interval tpi{0x13, 0};
    std::uint32_t returned = 0;
    CHECK(compat::trace_query_information(0, 5, &tpi, sizeof tpi, &returned) == win32::proc_not_found);
    CHECK(tpi.interval == 0);
    CHECK(compat::trace_query_information(0, 5, &tpi, sizeof tpi, &returned) == 127U);
}

TEST_CASE("ABI: NtSetIntervalProfile and NtTraceControl stubs") {
    native_kernel& k = native_kernel::instance();
    if (!running_on_wine()) return; // on Windows these need privileges and change machine state
    CHECK(k.nt_set_interval_profile(10000, 0x13) == ntstatus::success);
    // a counter's interval with its bounds given: the set itself, no profile-source-list query first
    CHECK_FALSE(set<sampled_profile_interval>(profile_source::total_cycles, counter_interval{65536}, interval_bounds{1, 0xFFFFFFFFU}));
    std::uint32_t returned = 0xDEADBEEF;
    std::uint64_t in = a_session;
    CHECK(k.nt_trace_control(trace_control::get_disallow_list, &in, sizeof in, nullptr, 0, &returned) ==
          ntstatus::success);
    CHECK(returned == 0); // the stub writes nothing; native_kernel reports 0, not garbage
}

TEST_CASE("classes 16-28 through native_kernel: requests reach the OS, its answers are mapped, nothing is misread") {
    native_kernel& k = native_kernel::instance();
    // The drop-in default is Windows 10 RTM's SECHOST on every host: 16-28 are not supported, nothing sent.
    unsigned char const cache[12] = {1, 0, 0, 0, 0, 0, 0x00, 0x01, 0, 4, 0, 0}; // Enabled, 16 MiB, 1024 buckets
    CHECK(compat::trace_set_information(k, a_session, 24, cache, sizeof cache) == win32::not_supported);
    std::uint32_t value = 0xDEADBEEF;
    std::uint32_t returned = 0xDEADBEEF;
    CHECK(compat::trace_query_information(k, 0, 19, &value, sizeof value, &returned) == win32::not_supported);
    CHECK(value == 0xDEADBEEF);
    // The opt-in's own checks hold on every host, before the OS is asked.
    CHECK(compat::current::trace_set_information(k, a_session, 24, cache, 11) == win32::bad_length);
    CHECK(compat::current::trace_query_information(k, a_session, 25, &value, 8, &returned) == win32::invalid_parameter);
    if (!running_on_wine()) {
        MESSAGE("classes 16-28 change machine state on Windows; their OS answers are checked under Wine");
        return;
    }
    // Wine 8: NtSetSystemInformation(SystemPerformanceTraceInformation) pretends to succeed, so the
    // stack-cache and LBR requests (32 and 24 bytes, checked byte for byte on the simulated kernel) arrive
    // and are accepted; the typed calls agree with compat::current.
    CHECK(compat::current::trace_set_information(k, a_session, 24, cache, sizeof cache) == win32::success);
    CHECK_FALSE(set<stack_caching>(k, session_handle{a_session}, stack_cache_size::mebibytes(16), stack_cache_buckets{1024}));
    CHECK_FALSE(set<lbr_configuration>(k, session_handle{a_session}, lbr_options{lbr::exclude_kernel}));
    // NtTraceControl is a stub that answers success and writes nothing: compat::current passes that on as
    // SECHOST would (success, ReturnLength 0, the buffer untouched); the typed query does not read a
    // value the kernel never wrote.
    value = 0xDEADBEEF;
    returned = 0xDEADBEEF;
    CHECK(compat::current::trace_query_information(k, 0, 19, &value, sizeof value, &returned) == win32::success);
    CHECK(returned == 0);
    CHECK(value == 0xDEADBEEF);
    auto const loggers = query<max_loggers>(k);
    REQUIRE_FALSE(loggers.has_value());
    CHECK(loggers.error() == rule::kernel_reply_malformed);
    pmc_owner_buffer<> owners;
    auto const view = query<pmc_counter_owners>(k, std::span<std::byte>(owners));
    REQUIRE_FALSE(view.has_value());
    CHECK(view.error() == rule::kernel_reply_malformed);
}

TEST_CASE("EventSetInformation through native_kernel with a real registration") {
    static constexpr GUID provider = {0x6a1f2b3cU, 0x4d5e, 0x4f60, {0x81, 0x92, 0xa3, 0xb4, 0xc5, 0xd6, 0xe7, 0xf8}};
    REGHANDLE reg = 0;
    REQUIRE(::EventRegister(&provider, nullptr, nullptr, &reg) == ERROR_SUCCESS);
    CHECK_FALSE(set<provider_traits>(registration_handle{reg}, make_provider_traits("Etwctl.Test.Provider")));
    CHECK_FALSE(set<use_descriptor_type>(registration_handle{reg}, true));
    // The compat layer's HRESULT: S_OK, and NTDLL's own checks before the call (class 99 unknown).
    CHECK(compat::tracelogging_set_information(reg, 3, "\x01", 1) == hresult::s_ok);
    CHECK(compat::tracelogging_set_information(reg, 99, nullptr, 0) ==
          hresult::from_win32(win32_error_of(rule::event_info_class_not_supported)));
    ::EventUnregister(reg);
}
