// The information classes of later Windows releases (TRACE_INFO_CLASS 16-28) through the typed API and
// the simulated kernel: each request byte for byte, the kernel's rules (clamps, second enable, privilege,
// limits), the answers, and an older Windows where the class is missing.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "etwctl/typed/query.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/compat_current.hpp"
#include "etwctl/error.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/testing/sim_kernel.hpp"
#include "sim_fixture.hpp"

using namespace etwctl;
using etwctl_test::machine;
using etwctl_test::u32_at;
using etwctl_test::u64_at;
using etwctl_test::bytes_of;

namespace {

template <class... B>
std::vector<std::byte> le(B... values) {
    std::vector<std::byte> out;
    auto put = [&](auto v) {
        for (std::size_t i = 0; i < sizeof v; ++i) out.push_back(static_cast<std::byte>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFF));
    };
    (put(values), ...);
    return out;
}

std::error_code status(std::int32_t s) { return {s, ntstatus_category()}; }

using namespace etwctl::literals;
constexpr guid provider_a = "11111111-2222-3333-4444-555555555555"_guid;
constexpr guid provider_b = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"_guid;

} // namespace

// ---- 24 / 26: stack caching ----------------------------------------------------------------------------

TEST_CASE("set<stack_caching>: 32-byte request, clamps, a second enable refused") {
    machine m;
    session_handle const s{m.kernel_session};
    CHECK_FALSE(set<stack_caching>(m.k, s, stack_cache_size::mebibytes(16), stack_cache_buckets{1024}));
    auto const& r = m.k.last_request();
    CHECK(r.function == kernel_function::nt_set_system_information);
    CHECK(r.code == 0x1F);
    CHECK(bytes_of(r) == le(std::uint32_t{0x10}, std::uint32_t{0}, std::uint64_t{m.kernel_session}, std::uint8_t{1},
                            std::uint8_t{0}, std::uint16_t{0}, std::uint32_t{16U << 20}, std::uint32_t{1024},
                            std::uint32_t{0}));
    auto const& st = m.k.current_windows().state(limits::kernel_logger_id).classic;
    CHECK(st.enabled);
    CHECK(st.cache_size == 16U << 20);
    CHECK(st.bucket_count == 1024);
    // once per logger
    CHECK(set<stack_caching>(m.k, s, stack_cache_size::mebibytes(8), stack_cache_buckets{512}) ==
          status(ntstatus::wmi_already_enabled));
    CHECK(to_win32(set<stack_caching>(m.k, s, stack_cache_size::mebibytes(8), stack_cache_buckets{512})) ==
          win32::wmi_already_enabled);

    // Outside the kernel's clamps: refused before anything is sent (the kernel would change the values
    // silently), with the value and the range in the context; nothing reaches the kernel.
    auto const other = m.k.start_logger(3);
    auto const before = m.k.request_count();
    auto const small_cache = set<stack_caching>(m.k, other, stack_cache_size{1}, stack_cache_buckets{1024});
    CHECK(small_cache == rule::stack_cache_out_of_bounds);
    CHECK(to_win32(small_cache) == win32::invalid_parameter);
    CHECK(describe(small_cache).find("a cache of 1 bytes is outside the kernel's [3145728, 52428800]") != std::string::npos);
    auto const few_buckets = set<stack_caching>(m.k, other, stack_cache_size::mebibytes(8), stack_cache_buckets{255});
    CHECK(few_buckets == rule::stack_cache_out_of_bounds);
    CHECK(describe(few_buckets).find("255 buckets is outside the kernel's [256, 4096]") != std::string::npos);
    CHECK(set<stack_caching>(m.k, other, stack_cache_size::mebibytes(51), stack_cache_buckets{1024}) ==
          rule::stack_cache_out_of_bounds);
    CHECK(set<unified_stack_caching>(m.k, other, stack_cache_size::mebibytes(8), stack_cache_buckets{4097}) ==
          rule::stack_cache_out_of_bounds);
    // Issue 21 item 12: 4099 MiB is 4099 MiB (it wrapped to 3 MiB in 32 bits and passed the bounds)
    auto const huge = set<stack_caching>(m.k, other, stack_cache_size::mebibytes(4099), stack_cache_buckets{1024});
    CHECK(huge == rule::stack_cache_out_of_bounds);
    CHECK(stack_cache_size::mebibytes(4099).bytes == 4099ULL * 1024 * 1024);
    CHECK(describe(huge).find("a cache of 4298113024 bytes is outside") != std::string::npos);
    CHECK(set<stack_caching>(m.k, other, stack_cache_size::mebibytes(4096 + 3), stack_cache_buckets{1024}) ==
          rule::stack_cache_out_of_bounds);
    CHECK(m.k.request_count() == before);
    CHECK_FALSE(m.k.current_windows().state(3).classic.enabled);
    // the bounds themselves are accepted; an explicit clamp gives the value the kernel would use
    CHECK_FALSE(set<stack_caching>(m.k, other, stack_cache_size{limits::stack_cache_min_bytes},
                                   stack_cache_buckets{limits::stack_cache_max_buckets}));
    CHECK(m.k.current_windows().state(3).classic.cache_size == limits::stack_cache_min_bytes);
    auto const third = m.k.start_logger(4);
    CHECK_FALSE(set<stack_caching>(m.k, third, stack_cache_size{stack_cache_size_bounds.clamp(4000U << 20)},
                                   stack_cache_buckets{stack_cache_bucket_bounds.clamp(1U << 20)}));
    CHECK(m.k.current_windows().state(4).classic.cache_size == limits::stack_cache_max_bytes);
    CHECK(m.k.current_windows().state(4).classic.bucket_count == limits::stack_cache_max_buckets);
    // the kernel's own clamps (what a raw caller gets): TRACE_STACK_CACHING_INFO through compat::current
    auto const fourth = m.k.start_logger(5);
    unsigned char info[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}; // Enabled, CacheSize 1, BucketCount 1
    CHECK(compat::current::trace_set_information(m.k, fourth, 24, info, sizeof info) == 0U);
    CHECK(m.k.current_windows().state(5).classic.cache_size == limits::stack_cache_min_bytes);
    CHECK(m.k.current_windows().state(5).classic.bucket_count == limits::stack_cache_min_buckets);
    // the unified cache is separate state
    CHECK_FALSE(m.k.current_windows().state(4).unified.enabled);
}

TEST_CASE("set<unified_stack_caching>: class 0x1A, the same layout") {
    machine m;
    session_handle const s{m.kernel_session};
    CHECK_FALSE(set<unified_stack_caching>(m.k, s, stack_cache_size::mebibytes(32), stack_cache_buckets{2048}));
    auto const& r = m.k.last_request();
    CHECK(r.length == 0x20);
    CHECK(u32_at(r.bytes, 0) == 0x1A);
    CHECK(u64_at(r.bytes, 8) == m.kernel_session);
    CHECK(u32_at(r.bytes, 0x14) == 32U << 20);
    CHECK(u32_at(r.bytes, 0x18) == 2048);
    CHECK(m.k.current_windows().state(limits::kernel_logger_id).unified.enabled);
    CHECK_FALSE(m.k.current_windows().state(limits::kernel_logger_id).classic.enabled);
}

TEST_CASE("stack caching: the kernel refuses Enabled = 0, a wrong size, a second cache; any session may have one") {
    machine m;
    kernel_stack_caching_request r{};
    r.header = {0x10, 0, m.kernel_session};
    r.cache_size = 1U << 22;
    CHECK(m.k.nt_set_system_information(0x1F, &r, sizeof r) == ntstatus::not_supported);
    CHECK(to_win32(status(ntstatus::not_supported)) == win32::not_supported);
    r.header.trace_handle = 9; // Enabled = 0 is refused before the logger is looked up
    CHECK(m.k.nt_set_system_information(0x1F, &r, sizeof r) == ntstatus::not_supported);
    r.enabled = 1;
    CHECK(m.k.nt_set_system_information(0x1F, &r, 0x1C) == ntstatus::info_length_mismatch);
    // Issue 21 item 5: the kernel's handler checks system-logger mode only for group masks and tag
    // filters; WPR's <StackCaching> works on event collectors (ordinary sessions).
    auto const plain = m.k.start_logger(5, sim::logger_options{false, false});
    CHECK_FALSE(set<stack_caching>(m.k, plain, stack_cache_size::mebibytes(4), stack_cache_buckets{256}));
    CHECK(m.k.current_windows().state(5).classic.enabled);
    // one cache slot per logger: classic then unified is a second enable (EtwpEnableStackCaching)
    CHECK(set<unified_stack_caching>(m.k, plain, stack_cache_size::mebibytes(4), stack_cache_buckets{256}) ==
          status(ntstatus::wmi_already_enabled));
    CHECK_FALSE(m.k.current_windows().state(5).unified.enabled);
    auto const other = m.k.start_logger(6, sim::logger_options{false, false});
    CHECK_FALSE(set<unified_stack_caching>(m.k, other, stack_cache_size::mebibytes(4), stack_cache_buckets{256}));
    CHECK(set<stack_caching>(m.k, other, stack_cache_size::mebibytes(4), stack_cache_buckets{256}) ==
          status(ntstatus::wmi_already_enabled));
    CHECK(set<stack_caching>(m.k, session_handle{9}, stack_cache_size::mebibytes(4), stack_cache_buckets{256}) ==
          status(ntstatus::wmi_instance_not_found));
}

// ---- 20 / 21: LBR ----------------------------------------------------------------------------------------

static_assert(lbr_options::checked<lbr::exclude_kernel | lbr::callstack_enable>().flags == 0x201);
static_assert(!lbr_options{lbr::exclude_kernel | lbr::exclude_user}.records_something());

TEST_CASE("set<lbr_configuration>: 0x18 bytes; excluding kernel and user refused") {
    machine m;
    session_handle const s{m.kernel_session};
    CHECK_FALSE(set<lbr_configuration>(m.k, s, lbr_options{lbr::exclude_kernel | lbr::exclude_far_branch}));
    CHECK(bytes_of(m.k.last_request()) ==
          le(std::uint32_t{0x13}, std::uint32_t{0}, std::uint64_t{m.kernel_session}, std::uint32_t{0x101}, std::uint32_t{0}));
    CHECK(m.k.current_windows().state(limits::kernel_logger_id).lbr_options == 0x101);
    auto const ec = set<lbr_configuration>(m.k, s, lbr_options{lbr::exclude_kernel | lbr::exclude_user});
    CHECK(ec == status(ntstatus::invalid_parameter));
    CHECK(to_win32(ec) == win32::invalid_parameter);
    // Issue 21 item 5: an ordinary session may configure LBR (no system-logger check in the handler)
    auto const plain = m.k.start_logger(5, sim::logger_options{false, false});
    CHECK_FALSE(set<lbr_configuration>(m.k, plain, lbr_options{lbr::exclude_kernel}));
    CHECK(m.k.current_windows().state(5).lbr_configured);
    CHECK_FALSE(set<lbr_event_list>(m.k, plain, stack_walk<"CSwitch">));
    // the kernel takes at least 0x18 bytes, not exactly
    unsigned char longer[0x1C] = {0x13};
    std::memcpy(longer + 8, &m.kernel_session, 8);
    CHECK(m.k.nt_set_system_information(0x1F, longer, sizeof longer) == ntstatus::success);
    CHECK(m.k.nt_set_system_information(0x1F, longer, 0x17) == ntstatus::info_length_mismatch);
    // an event list that is not whole ULONGs: STATUS_INVALID_PARAMETER
    unsigned char ragged[0x12] = {0x14};
    std::memcpy(ragged + 8, &m.kernel_session, 8);
    CHECK(m.k.nt_set_system_information(0x1F, ragged, sizeof ragged) == ntstatus::invalid_parameter);
}

TEST_CASE("set<lbr_event_list>: hook ids widened to ULONGs, at most 4") {
    machine m;
    session_handle const s{m.kernel_session};
    CHECK_FALSE(set<lbr_event_list>(m.k, s, stack_walk<"CSwitch+ReadyThread">));
    auto const& r = m.k.last_request();
    CHECK(bytes_of(r) == le(std::uint32_t{0x14}, std::uint32_t{0}, std::uint64_t{m.kernel_session}, std::uint32_t{0x0524},
                            std::uint32_t{0x0532}));
    auto const& st = m.k.current_windows().state(limits::kernel_logger_id);
    REQUIRE(st.lbr_event_count == 2);
    CHECK(st.lbr_events[1] == 0x0532);
    std::vector<hook_id> five(5, hook_id{0x0524});
    std::size_t const before = m.k.request_count();
    CHECK(set<lbr_event_list>(m.k, s, five) == make_error_code(rule::lbr_events_too_many));
    CHECK(to_win32(set<lbr_event_list>(m.k, s, five)) == win32::implementation_limit);
    CHECK(m.k.request_count() == before);
    // the kernel's own limit, for a request built by hand
    unsigned char raw[0x10 + 5 * 4] = {0x14};
    std::memcpy(raw + 8, &m.kernel_session, 8);
    CHECK(m.k.nt_set_system_information(0x1F, raw, sizeof raw) == ntstatus::invalid_parameter);
}

// ---- 28: context registers -----------------------------------------------------------------------------

TEST_CASE("set<context_register>: RegisterTypes 3, hook ids, privilege, at most 8") {
    machine m;
    session_handle const s{m.kernel_session};
    hook_id const hooks[] = {hook_id{0x0524}, hook_id{0x0F2E}};
    CHECK_FALSE(set<context_register>(m.k, s, hooks));
    CHECK(bytes_of(m.k.last_request()) == le(std::uint32_t{0x1B}, std::uint32_t{0}, std::uint64_t{m.kernel_session},
                                            std::uint32_t{3}, std::uint32_t{0x0524}, std::uint32_t{0x0F2E}));
    CHECK(m.k.current_windows().state(limits::kernel_logger_id).context_hook_count == 2);
    std::vector<hook_id> nine(9, hook_id{0x0524});
    CHECK(set<context_register>(m.k, s, nine) == make_error_code(rule::context_register_too_many));
    m.k.set_privilege(false);
    CHECK(set<context_register>(m.k, s, hooks) == status(ntstatus::privilege_not_held));
    // the privilege is checked before the logger is looked up
    CHECK(set<context_register>(m.k, session_handle{9}, hooks) == status(ntstatus::privilege_not_held));
    m.k.set_privilege(true);
    CHECK(set<context_register>(m.k, session_handle{9}, hooks) == status(ntstatus::wmi_instance_not_found));
    auto const plain = m.k.start_logger(5, sim::logger_options{false, false}); // any session
    CHECK_FALSE(set<context_register>(m.k, plain, hooks));
    // the kernel accepts only both register types
    unsigned char raw[0x18] = {0x1B};
    std::memcpy(raw + 8, &m.kernel_session, 8);
    raw[0x10] = 1;
    CHECK(m.k.nt_set_system_information(0x1F, raw, sizeof raw) == ntstatus::invalid_parameter);
}

// ---- 18 / 16: binary tracking, periodic capture state ----------------------------------------------------

TEST_CASE("set<session_binary_tracking>: NtTraceControl 0x29 {LoggerId, Enable}") {
    machine m;
    auto const s = m.k.start_logger(7, sim::logger_options{false, false});
    CHECK_FALSE(set<session_binary_tracking>(m.k, s, true));
    auto const& r = m.k.last_request();
    CHECK(r.function == kernel_function::nt_trace_control);
    CHECK(r.code == 0x29);
    CHECK(bytes_of(r) == le(std::uint32_t{7}, std::uint8_t{1}, std::uint8_t{0}, std::uint16_t{0}));
    CHECK(m.k.current_windows().state(7).binary_tracking);
    CHECK_FALSE(set<session_binary_tracking>(m.k, s, false));
    CHECK_FALSE(m.k.current_windows().state(7).binary_tracking);
    CHECK(set<session_binary_tracking>(m.k, session_handle{9}, true) == status(ntstatus::wmi_instance_not_found));
}

TEST_CASE("set<periodic_capture_state_list>: 12 + 16n bytes, at most 16, and clearing") {
    machine m;
    auto const s = m.k.start_logger(8, sim::logger_options{false, false});
    guid const providers[] = {provider_a, provider_b};
    CHECK_FALSE(set<periodic_capture_state_list>(m.k, s, capture_frequency{60}, providers));
    auto const& r = m.k.last_request();
    CHECK(r.code == 0x25);
    REQUIRE(r.length == 12 + 32);
    CHECK(u32_at(r.bytes, 0) == 8);
    CHECK(u32_at(r.bytes, 4) == 60);
    CHECK(u32_at(r.bytes, 8) == 2); // USHORT count, USHORT reserved 0
    CHECK(std::memcmp(r.bytes.data() + 12, &provider_a, 16) == 0);
    CHECK(std::memcmp(r.bytes.data() + 28, &provider_b, 16) == 0);
    CHECK(m.k.current_windows().state(8).capture_provider_count == 2);
    CHECK(m.k.current_windows().state(8).capture_frequency == 60);
    CHECK_FALSE(set<periodic_capture_state_list>(m.k, s));
    CHECK(m.k.last_request().length == 12);
    CHECK(m.k.current_windows().state(8).capture_provider_count == 0);
    std::vector<guid> many(17, provider_a);
    CHECK(set<periodic_capture_state_list>(m.k, s, capture_frequency{60}, many) ==
          make_error_code(rule::periodic_capture_too_many));
}

TEST_CASE("periodic capture state: the kernel's frequency and count rules, in the typed call and the kernel") {
    // Issue 21 item 4 (NtTraceControl 0x25 and EtwpUpdatePeriodicCaptureState, public listings).
    machine m;
    auto const s = m.k.start_logger(8, sim::logger_options{false, false});
    guid const providers[] = {provider_a};
    std::size_t const before = m.k.request_count();
    for (std::uint32_t const f : {0U, 1U, 4U}) {
        auto const ec = set<periodic_capture_state_list>(m.k, s, capture_frequency{f}, providers);
        CAPTURE(f);
        CHECK(ec == rule::periodic_capture_frequency);
        CHECK(to_win32(ec) == win32::invalid_parameter);
    }
    CHECK(describe(set<periodic_capture_state_list>(m.k, s, capture_frequency{4}, providers)) ==
          "set<periodic_capture_state_list>: a capture every 4 s is below the kernel's minimum of 5 s "
          "(query<periodic_capture_state> reports it); pass at least 5");
    std::span<guid const> const none;
    auto const empty = set<periodic_capture_state_list>(m.k, s, capture_frequency{60}, none);
    CHECK(empty == rule::periodic_capture_frequency);
    CHECK(describe(empty).find("To clear, call set<periodic_capture_state_list>(k, session)") != std::string::npos);
    CHECK(m.k.request_count() == before); // nothing sent
    CHECK_FALSE(set<periodic_capture_state_list>(m.k, s, capture_frequency{5}, providers));

    // The kernel itself, for a raw caller (compat::current sends what it is given).
    auto raw = [&](std::uint32_t frequency, std::uint16_t count, std::uint64_t session = 8) {
        std::array<unsigned char, 8 + 16> info{};
        std::memcpy(info.data(), &frequency, 4);
        std::memcpy(info.data() + 4, &count, 2);
        return compat::current::trace_set_information(m.k, session, 16, info.data(),
                                                      static_cast<std::uint32_t>(8 + 16 * count));
    };
    CHECK(raw(3, 1) == win32::invalid_parameter);  // 1-4 s
    CHECK(raw(0, 1) == win32::invalid_parameter);  // providers without a frequency
    CHECK(raw(60, 0) == win32::invalid_parameter); // a frequency without providers
    CHECK(raw(0, 0) == 0U);                        // clears
    CHECK(raw(5, 1) == 0U);
    CHECK(m.k.current_windows().state(8).capture_frequency == 5);
    // an unknown logger: STATUS_INVALID_PARAMETER (EtwpUpdatePeriodicCaptureState), not WMI_INSTANCE_NOT_FOUND
    CHECK(raw(5, 1, 40) == win32::invalid_parameter);
    CHECK(set<periodic_capture_state_list>(m.k, session_handle{40}, capture_frequency{60}, providers) ==
          status(ntstatus::invalid_parameter));
}

TEST_CASE("TracePeriodicCaptureStateInfo (17): the kernel's limits, answered without a kernel call") {
    // Issue 21 item 2.
    machine m;
    std::size_t const before = m.k.request_count();
    auto const limits_now = query<periodic_capture_state>(m.k);
    REQUIRE(limits_now);
    CHECK(limits_now->min_frequency_seconds == 5);
    CHECK(limits_now->max_providers == 16);
    // The documented procedure: a buffer for the head and the GUIDs, queried first.
    alignas(4) unsigned char buffer[8 + 16 * 2];
    std::memset(buffer, 0xEE, sizeof buffer);
    std::uint32_t returned = 0;
    CHECK(compat::current::trace_query_information(m.k, 0, 17, buffer, sizeof buffer, &returned) == 0U);
    CHECK(returned == 8);
    CHECK(u32_at(std::as_bytes(std::span(buffer)), 0) == 5);
    CHECK(u32_at(std::as_bytes(std::span(buffer)), 4) == 16); // USHORT ProviderCount 16, USHORT Reserved 0
    CHECK(buffer[8] == 0xEE);                                  // nothing past the structure
    // the session is not used
    CHECK(compat::current::trace_query_information(m.k, 123, 17, buffer, 8, nullptr) == 0U);
    // too small: ERROR_BAD_LENGTH, ReturnLength says 8
    returned = 0;
    CHECK(compat::current::trace_query_information(m.k, 0, 17, buffer, 4, &returned) == win32::bad_length);
    CHECK(returned == 8);
    CHECK(compat::current::trace_query_information(m.k, 0, 17, nullptr, 8, nullptr) == win32::invalid_parameter);
    CHECK(m.k.request_count() == before); // no kernel call
    // the Windows 10 RTM drop-in still refuses it, as that SECHOST does
    CHECK(compat::trace_query_information(m.k, 0, 17, buffer, 8, nullptr) == win32::not_supported);
    // the limits are the ones the kernel enforces
    guid const providers[] = {provider_a};
    auto const s = m.k.start_logger(8, sim::logger_options{false, false});
    CHECK_FALSE(set<periodic_capture_state_list>(m.k, s, capture_frequency{limits_now->min_frequency_seconds}, providers));
    std::vector<guid> most(limits_now->max_providers, provider_a);
    CHECK_FALSE(set<periodic_capture_state_list>(m.k, s, capture_frequency{limits_now->min_frequency_seconds}, most));
}

// ---- 19 / 22 / 23: limits ---------------------------------------------------------------------------------

TEST_CASE("query<max_loggers>, query<max_pmc_counters>, query<stream_count>") {
    machine m;
    auto const loggers = query<max_loggers>(m.k);
    REQUIRE(loggers);
    CHECK(*loggers == 64);
    CHECK(m.k.last_request().code == 0x2A);
    CHECK(m.k.last_request().length == 0);
    REQUIRE(m.k.sessions().set_max_loggers(32)); // one number: what StartTrace enforces and the query answers
    CHECK(query<max_loggers>(m.k).value_or(0) == 32);
    CHECK_FALSE(m.k.sessions().set_max_loggers(65)); // the simulated machine has 64 logger slots

    m.k.set_max_pmc_counters(6);
    auto const counters = query<max_pmc_counters>(m.k);
    REQUIRE(counters);
    CHECK(*counters == 6);
    CHECK(m.k.last_request().code == 0x2B);

    auto const streams = query<stream_count>(m.k, session_handle{m.kernel_session});
    REQUIRE(streams);
    CHECK(*streams == sim::current_windows_model::processors);
    CHECK(bytes_of(m.k.last_request()) == le(std::uint16_t{0xFFFF}, std::uint16_t{0}, std::uint32_t{0}));
    CHECK(query<stream_count>(m.k, session_handle{9}).error() == status(ntstatus::wmi_instance_not_found));
}

// ---- 25 / 27: PMC owners and sessions --------------------------------------------------------------------

TEST_CASE("query<pmc_counter_owners>: free, held outside ETW, held by a session") {
    machine m;
    pmc_owner_buffer<> storage;
    auto owners = query<pmc_counter_owners>(m.k, storage);
    REQUIRE(owners);
    CHECK(owners->size() == 4);
    CHECK(owners->owned() == 0);
    CHECK(m.k.last_request().code == 0x2D);

    // a hypervisor holds counter 0; a session counts two sources
    m.k.current_windows().set_external_owner(0, {pmc_owner_type::untagged, 0, 0});
    auto const s = m.k.start_logger(2);
    profile_source const sources[] = {profile_source::total_cycles, profile_source::cache_misses};
    REQUIRE_FALSE(set<pmc_counter_list>(m.k, session_handle{s}, sources));
    owners = query<pmc_counter_owners>(m.k, storage, 1U);
    REQUIRE(owners);
    CHECK(owners->processor() == 1);
    CHECK(owners->owned() == 3);
    CHECK((*owners)[0].type == pmc_owner_type::untagged);
    CHECK((*owners)[1].type == pmc_owner_type::tagged_with_source);
    CHECK((*owners)[1].profile_source == 0x13);
    CHECK((*owners)[1].owner_tag == 2);
    CHECK((*owners)[2].profile_source == 0x0A);
    CHECK((*owners)[3].type == pmc_owner_type::free);
    // with one counter held outside ETW, a session cannot have all four (the model: ETW sessions share)
    auto const t = m.k.start_logger(3);
    profile_source const four[] = {profile_source::total_cycles, profile_source::cache_misses,
                                   profile_source::branch_instructions, profile_source::total_issues};
    CHECK(set<pmc_counter_list>(m.k, session_handle{t}, four) == status(ntstatus::insufficient_resources));
    m.k.current_windows().set_external_owner(0, {});
    CHECK_FALSE(set<pmc_counter_list>(m.k, session_handle{t}, four));
}

TEST_CASE("query<pmc_counter_owners>: privilege, buffer size, processor") {
    machine m;
    std::byte short_storage[8 + 12 * 3]; // not `small`: rpcndr.h defines it
    std::uint32_t needed = 0;
    CHECK(query<pmc_counter_owners>(m.k, std::span<std::byte>(short_storage), 0U, &needed).error() ==
          status(ntstatus::buffer_too_small));
    CHECK(needed == 8 + 12 * 4);
    pmc_owner_buffer<> storage;
    CHECK(query<pmc_counter_owners>(m.k, storage, 99U).error() == status(ntstatus::invalid_parameter));
    m.k.set_privilege(false);
    CHECK(query<pmc_counter_owners>(m.k, storage).error() == status(ntstatus::privilege_not_held));
}

TEST_CASE("the simulated kernel sizes TracePmcCounterOwners in 64 bits: no wrap, no write past the buffer") {
    // Issue 21 item 8: 8 + 12 x 0x15555555 is 0x1'00000004, which wrapped to 4 and let the model write
    // records past an 8-byte buffer.
    machine m;
    struct {
        alignas(4) std::byte buffer[8];
        std::byte canary[64];
    } guarded{};
    std::memset(guarded.canary, 0xA5, sizeof guarded.canary);
    m.k.set_max_pmc_counters(0x15555555U);
    std::uint32_t returned = 0;
    CHECK(compat::current::trace_query_information(m.k, 0, 25, guarded.buffer, sizeof guarded.buffer, &returned) ==
          win32::no_system_resources);
    for (auto const b : guarded.canary) REQUIRE(b == std::byte{0xA5});
    CHECK(query<pmc_counter_owners>(m.k, std::span<std::byte>(guarded.buffer)).error() ==
          status(ntstatus::insufficient_resources));
    for (auto const b : guarded.canary) REQUIRE(b == std::byte{0xA5});
    // More counters than the model keeps owners for: the reply has every record, the rest free.
    m.k.set_max_pmc_counters(20);
    pmc_owner_buffer<20> big;
    std::memset(big.bytes, 0xEE, sizeof big.bytes);
    auto const owners = query<pmc_counter_owners>(m.k, big);
    REQUIRE(owners);
    CHECK(owners->size() == 20);
    for (std::size_t i = 0; i < owners->size(); ++i) CHECK((*owners)[i].type == pmc_owner_type::free);
}

TEST_CASE("query<pmc_session_information>: a checked chain, hook ids as USHORTs") {
    machine m;
    alignas(4) std::byte storage[256];
    auto empty = query<pmc_session_information>(m.k, storage);
    REQUIRE(empty);
    CHECK(empty->empty());

    auto const a = m.k.start_logger(2);
    profile_source const one[] = {profile_source::total_cycles};
    REQUIRE_FALSE(set<pmc_counter_list>(m.k, session_handle{a}, one));
    REQUIRE_FALSE(set<pmc_event_list>(m.k, session_handle{a}, stack_walk<"CSwitch+ReadyThread">));
    profile_source const two[] = {profile_source::cache_misses, profile_source::branch_mispredictions};
    REQUIRE_FALSE(set<pmc_counter_list>(m.k, session_handle{m.kernel_session}, two));

    std::uint32_t needed = 0;
    std::byte tiny[16]; // one record head: less than the reply needs (a smaller buffer makes g++ -O3 warn about the reply parser it inlines)
    CHECK(query<pmc_session_information>(m.k, std::span<std::byte>(tiny), &needed).error() == status(ntstatus::buffer_too_small));
    CHECK(needed == (16 + 4 + 8) + (16 + 8));

    auto const v = query<pmc_session_information>(m.k, storage);
    REQUIRE(v);
    REQUIRE(v->size() == 2);
    CHECK((*v)[0].logger_id() == 2);
    REQUIRE((*v)[0].source_count() == 1);
    CHECK((*v)[0].source(0) == 0x13);
    REQUIRE((*v)[0].hook_count() == 2);
    CHECK((*v)[0].hook(0) == hook_id{0x0524});
    CHECK((*v)[0].hook(1) == hook_id{0x0532});
    CHECK((*v)[1].logger_id() == 0xFFFF);
    CHECK((*v)[1].source_count() == 2);
    CHECK((*v)[1].source(1) == 0x0B);
    CHECK((*v)[1].hook_count() == 0);
    // the upper halves of the hook slots are zero
    CHECK(u32_at(std::span<std::byte const>(storage), 16 + 4 + 4) == 0);
}

TEST_CASE("pmc_session_view and pmc_owner_view refuse malformed replies") {
    pmc_session_view v;
    alignas(4) std::byte b[32] = {};
    std::uint32_t const next = 40; // past the end
    std::memcpy(b, &next, 4);
    CHECK(pmc_session_view::parse(b, v) == rule::kernel_reply_malformed);
    std::uint32_t const zero = 0, sources = 5;
    std::memcpy(b, &zero, 4);
    std::memcpy(b + 8, &sources, 4); // 16 + 20 > 32
    CHECK(pmc_session_view::parse(b, v) == rule::kernel_reply_malformed);
    std::uint32_t const misaligned = 18;
    std::memcpy(b, &misaligned, 4);
    std::memcpy(b + 8, &zero, 4);
    CHECK(pmc_session_view::parse(b, v) == rule::kernel_reply_malformed);
    CHECK(pmc_session_view::parse(std::span<std::byte const>(b, 12), v) == rule::kernel_reply_malformed);
    std::memcpy(b, &zero, 4);
    CHECK(pmc_session_view::parse(b, v) == rule::ok);
    CHECK(v.size() == 1);

    pmc_owner_view o;
    std::uint32_t const count = 3; // 8 + 36 > 32
    std::memcpy(b + 4, &count, 4);
    CHECK(pmc_owner_view::parse(b, o) == rule::kernel_reply_malformed);
    CHECK(pmc_owner_view::parse(std::span<std::byte const>(b, 4), o) == rule::kernel_reply_malformed);
}

// ---- an older Windows ---------------------------------------------------------------------------------

TEST_CASE("an older Windows: each class reports rule class_not_on_this_windows, naming the class and the status") {
    machine m;
    session_handle const s{m.kernel_session};
    for (std::uint32_t c : {0x10U, 0x13U, 0x14U, 0x1AU, 0x1BU}) m.k.set_kernel_class_available(c, false);
    for (std::uint32_t c : {0x25U, 0x29U, 0x2AU, 0x2BU, 0x2CU, 0x2DU, 0x2EU}) m.k.set_trace_control_available(c, false);
    // A system class the kernel lacks answers STATUS_NOT_IMPLEMENTED, an NtTraceControl code STATUS_INVALID_DEVICE_REQUEST.
    std::string_view const system = "(STATUS_NOT_IMPLEMENTED), Win32 ERROR_INVALID_FUNCTION 1)";
    std::string_view const control = "(STATUS_INVALID_DEVICE_REQUEST), Win32 ERROR_INVALID_FUNCTION 1)";
    std::string_view status = system;
    auto expect_missing = [&status](std::error_code const& ec, trace_info_class c, std::string_view name) {
        CAPTURE(name);
        CHECK(rule_of(ec) == rule::class_not_on_this_windows); // one of the rules, not a category of its own
        CHECK(ec == win32_condition(win32::invalid_function));
        CHECK(to_win32(ec) == win32::invalid_function);
        CHECK(traits_of(c).sdk_name == name);
        // describe(ec) names the class and keeps the kernel's own answer
        std::string const d = describe(ec);
        CAPTURE(d);
        CHECK(d.find("this Windows does not have " + std::string(name) + " (the kernel answered NTSTATUS 0xC00000") == 0);
        CHECK(d.find(status) != std::string::npos);
    };
    expect_missing(set<stack_caching>(m.k, s, stack_cache_size::mebibytes(4), stack_cache_buckets{256}),
                   trace_info_class::stack_caching, "TraceStackCachingInfo");
    expect_missing(set<unified_stack_caching>(m.k, s, stack_cache_size::mebibytes(4), stack_cache_buckets{256}),
                   trace_info_class::unified_stack_caching, "TraceUnifiedStackCachingInfo");
    expect_missing(set<lbr_configuration>(m.k, s, lbr_options{}), trace_info_class::lbr_configuration, "TraceLbrConfigurationInfo");
    expect_missing(set<lbr_event_list>(m.k, s, stack_walk<"CSwitch">), trace_info_class::lbr_event_list, "TraceLbrEventListInfo");
    expect_missing(set<context_register>(m.k, s, stack_walk<"CSwitch">), trace_info_class::context_register,
                   "TraceContextRegisterInfo");
    status = control;
    expect_missing(set<session_binary_tracking>(m.k, s, true), trace_info_class::provider_binary_tracking,
                   "TraceProviderBinaryTracking");
    expect_missing(set<periodic_capture_state_list>(m.k, s), trace_info_class::periodic_capture_state_list,
                   "TracePeriodicCaptureStateListInfo");
    expect_missing(query<max_loggers>(m.k).error(), trace_info_class::max_loggers_query, "TraceMaxLoggersQuery");
    expect_missing(query<max_pmc_counters>(m.k).error(), trace_info_class::max_pmc_counter_query, "TraceMaxPmcCounterQuery");
    expect_missing(query<stream_count>(m.k, s).error(), trace_info_class::stream_count, "TraceStreamCount");
    pmc_owner_buffer<> owners;
    expect_missing(query<pmc_counter_owners>(m.k, owners).error(), trace_info_class::pmc_counter_owners, "TracePmcCounterOwners");
    std::byte storage[64];
    expect_missing(query<pmc_session_information>(m.k, storage).error(), trace_info_class::pmc_session_information,
                   "TracePmcSessionInformation");
    // the raw statuses, as the kernel gave them
    kernel_stack_caching_request r{};
    r.header = {0x10, 0, m.kernel_session};
    r.enabled = 1;
    CHECK(m.k.nt_set_system_information(0x1F, &r, sizeof r) == ntstatus::not_implemented);
    std::uint32_t value = 0, returned = 0;
    CHECK(m.k.nt_trace_control(0x2A, nullptr, 0, &value, 4, &returned) == ntstatus::invalid_device_request);
    // and the classes come back
    m.k.set_kernel_class_available(0x10, true);
    CHECK_FALSE(set<stack_caching>(m.k, s, stack_cache_size::mebibytes(4), stack_cache_buckets{256}));
}

TEST_CASE("class_not_on_this_windows is only the later releases' classes: a Windows 10 class keeps the kernel's status") {
    machine m;
    session_handle const s{m.kernel_session};
    m.k.inject(ntstatus::not_implemented);
    auto const ec = set<stack_tracing>(m.k, s, stack_walk<"CSwitch">);
    CHECK(ec.category() == ntstatus_category());
    CHECK(ec.value() == ntstatus::not_implemented);
    CHECK(rule_of(ec) == rule::ok);
    m.k.inject(ntstatus::invalid_device_request);
    auto const q = query<system_trace_enable_flags>(m.k, s);
    REQUIRE_FALSE(q);
    CHECK(q.error().category() == ntstatus_category());
    // a later class refused for another reason keeps the status too
    m.k.inject(ntstatus::access_denied);
    auto const other = set<stack_caching>(m.k, s, stack_cache_size::mebibytes(4), stack_cache_buckets{256});
    CHECK(other.category() == ntstatus_category());
    CHECK(other.value() == ntstatus::access_denied);
}

TEST_CASE("set<lbr_event_list> takes the SDK's ULONG[] of hook ids as TraceSetInformation does") {
    machine m;
    session_handle const s{m.kernel_session};
    std::uint32_t const sdk_ulongs[2] = {0x0524U, 0x0532U}; // the SDK's ULONG (tests/windows: unsigned long)
    std::uint32_t const u32s[1] = {0x0524U};
    CHECK_FALSE(set<lbr_event_list>(m.k, s, u32s));
    CHECK(bytes_of(m.k.last_request()) ==
          le(std::uint32_t{0x14}, std::uint32_t{0}, std::uint64_t{m.kernel_session}, std::uint32_t{0x0524}));
    std::vector<std::uint32_t> const two(std::begin(sdk_ulongs), std::end(sdk_ulongs));
    CHECK_FALSE(set<lbr_event_list>(m.k, s, two));
    auto const& st = m.k.current_windows().state(limits::kernel_logger_id);
    REQUIRE(st.lbr_event_count == 2);
    CHECK(st.lbr_events[1] == 0x0532);
    std::vector<std::uint32_t> const five(5, 0x0524U);
    std::size_t const before = m.k.request_count();
    CHECK(set<lbr_event_list>(m.k, s, five) == make_error_code(rule::lbr_events_too_many));
    CHECK(m.k.request_count() == before);
}

TEST_CASE("stack caching: the kernel's default (CacheSize 0, BucketCount 0, as PerfView sends) is its minimum") {
    machine m;
    session_handle const s{m.kernel_session};
    CHECK_FALSE(set<stack_caching>(m.k, s, stack_cache_size::kernel_default(), stack_cache_buckets::kernel_default()));
    auto const& r = m.k.last_request();
    CHECK(bytes_of(r) == le(std::uint32_t{0x10}, std::uint32_t{0}, std::uint64_t{m.kernel_session}, std::uint32_t{1},
                            std::uint32_t{0}, std::uint32_t{0}, std::uint32_t{0}));
    auto const& st = m.k.current_windows().state(limits::kernel_logger_id);
    CHECK(st.classic.enabled);
    CHECK(st.classic.cache_size == limits::stack_cache_min_bytes); // the kernel's clamp raises 0 to 3 MiB
    CHECK(st.classic.bucket_count == limits::stack_cache_min_buckets);
    // 1 byte is not "the default": still refused as outside the clamps
    auto const other = m.k.start_logger(6, sim::logger_options{false, false});
    CHECK(set<unified_stack_caching>(m.k, other, stack_cache_size{1}, stack_cache_buckets::kernel_default()) ==
          make_error_code(rule::stack_cache_out_of_bounds));
    static_assert(stack_cache_size::kernel_default().is_kernel_default());
}
