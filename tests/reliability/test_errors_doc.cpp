// Every error path names its rule:
//  - docs/errors.md and rule_table stay in step: each rule's name and Win32 code appear in the doc's
//    rule table, the doc lists no rule the library does not have, and the doc's NTSTATUS table is the
//    library's RtlNtStatusToDosError table, both ways;
//  - each rule is triggered through a public entry point (a table, one input per rule), and the table
//    covers every rule but ok, so a new rule without a trigger fails here.
#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "etwctl/typed/query.hpp"
#include "etwctl/names/wpr.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/compat_current.hpp"
#include "etwctl/profiler/custom_counters.hpp"
#include "etwctl/profiler/guards.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/profiler/pmc.hpp"
#include "etwctl/testing/hostile_kernel.hpp"
#include "etwctl/profiler/stack_walk_set.hpp"
#include "etwctl/session/checks.hpp"
#include "etwctl/sessions.hpp"
#include "etwctl/trace.hpp"
#include "etwctl_test.hpp"

using namespace etwctl;

namespace {

std::vector<std::string> cells(std::string const& line) {
    std::vector<std::string> out;
    std::string cur;
    for (std::size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '|') {
            auto const b = cur.find_first_not_of(' ');
            auto const e = cur.find_last_not_of(' ');
            out.push_back(b == std::string::npos ? std::string() : cur.substr(b, e - b + 1));
            cur.clear();
        } else {
            cur += line[i];
        }
    }
    return out;
}

struct doc_tables {
    std::map<std::string, std::uint32_t> rules;      ///< name -> Win32
    std::map<std::uint32_t, std::uint32_t> statuses; ///< NTSTATUS -> Win32
    std::size_t rule_rows = 0;
    std::size_t status_rows = 0;
};

doc_tables read_doc() {
    std::ifstream f(ETWCTL_ERRORS_MD);
    REQUIRE_MESSAGE(f.good(), "docs/errors.md not found");
    doc_tables t;
    std::string line, section;
    while (std::getline(f, line)) {
        if (line.rfind("## ", 0) == 0) section = line.substr(3);
        if (line.rfind("| `", 0) != 0) continue;
        auto const c = cells(line);
        REQUIRE(c.size() >= 2);
        if (section == "Rules") {
            std::string const name = c[0].substr(1, c[0].find('`', 1) - 1);
            t.rules[name] = static_cast<std::uint32_t>(std::stoul(c[1]));
            ++t.rule_rows;
        } else if (section == "Kernel statuses") {
            auto const status = static_cast<std::uint32_t>(std::stoul(c[0].substr(1), nullptr, 16));
            t.statuses[status] = static_cast<std::uint32_t>(std::stoul(c[1]));
            ++t.status_rows;
        }
    }
    return t;
}

} // namespace

TEST_CASE("docs/errors.md lists exactly rule_table, with the same Win32 codes") {
    auto const doc = read_doc();
    CHECK(doc.rule_rows == doc.rules.size()); // no rule twice
    CHECK(doc.rules.size() == static_cast<std::size_t>(rule::count_));
    for (auto const& row : rule_table) {
        std::string const name(row.name);
        CAPTURE(name);
        auto const it = doc.rules.find(name);
        REQUIRE_MESSAGE(it != doc.rules.end(), "rule missing from docs/errors.md");
        CHECK(it->second == row.win32_error);
    }
    for (auto const& kv : doc.rules) {
        std::string const& name = kv.first;
        CAPTURE(name);
        bool known = false;
        for (auto const& row : rule_table) known = known || row.name == name;
        CHECK_MESSAGE(known, "docs/errors.md lists a rule the library does not have");
    }
}

TEST_CASE("docs/errors.md lists exactly the NTSTATUS -> Win32 table") {
    auto const doc = read_doc();
    CHECK(doc.status_rows == doc.statuses.size());
    CHECK(doc.statuses.size() == std::size(ntstatus::table) - 1); // the doc lists failures, not STATUS_SUCCESS
    for (auto const& e : ntstatus::table) {
        if (e.status == 0) continue;
        CAPTURE(e.status);
        auto const it = doc.statuses.find(e.status);
        REQUIRE(it != doc.statuses.end());
        CHECK(it->second == e.win32);
    }
    for (auto const& kv : doc.statuses) {
        std::uint32_t const status = kv.first;
        CAPTURE(status);
        CHECK(nt_status_to_win32(static_cast<std::int32_t>(status)) == kv.second);
    }
}

// ---- every rule, triggered -----------------------------------------------------------------------

namespace {

/// What a trigger observed: the rule itself (typed paths, helpers) or the number a compat entry
/// point returned (Win32, or the Win32 inside an HRESULT).
struct observed {
    bool is_rule = false;
    rule r = rule::ok;
    std::uint32_t win32 = 0;
};
observed as_rule(rule r) { return {true, r, win32_error_of(r)}; }
observed as_rule(std::error_code const& ec) {
    REQUIRE(ec.category() == rule_category());
    return as_rule(rule_of(ec));
}
observed as_win32(std::uint32_t e) { return {false, rule::ok, e}; }
observed as_hresult(std::int32_t hr) {
    REQUIRE(hr != 0);
    return as_win32(hresult::win32_of(hr));
}

struct logger_machine {
    std::unique_ptr<sim::kernel> k = std::make_unique<sim::kernel>();
    logger_machine() { k->start_logger(1); }
};

unsigned char scratch[64] = {};

/// Accepts a custom profile source and adds nothing (for custom_counter_not_listed).
struct add_ignoring_kernel {
    sim::kernel k;
    std::int32_t nt_set_system_information(std::uint32_t c, void const* in, std::uint32_t n) noexcept {
        return n >= 4 && detail::load<std::uint32_t>(in) == 0x15 ? 0 : k.nt_set_system_information(c, in, n);
    }
    std::int32_t nt_query_system_information(std::uint32_t c, void* o, std::uint32_t n, std::uint32_t* r) noexcept {
        return k.nt_query_system_information(c, o, n, r);
    }
    std::int32_t nt_set_interval_profile(std::uint32_t i, std::uint32_t s) noexcept { return k.nt_set_interval_profile(i, s); }
    std::int32_t nt_query_interval_profile(std::uint32_t s, std::uint32_t* i) noexcept { return k.nt_query_interval_profile(s, i); }
    std::int32_t nt_trace_control(std::uint32_t f, void const* i, std::uint32_t il, void* o, std::uint32_t ol, std::uint32_t* r) noexcept {
        return k.nt_trace_control(f, i, il, o, ol, r);
    }
    std::uint32_t event_set_information(std::uint64_t h, std::uint32_t c, void const* i, std::uint32_t n) noexcept {
        return k.event_set_information(h, c, i, n);
    }
};


// ---- traces: inputs for the trace rules ----------------------------------------------------------------
// A header buffer of `size` bytes whose end of data (Offset) is `filled`, holding `record` at 0x48.
std::vector<std::byte> trace_bytes(std::uint32_t size, std::uint32_t filled, std::vector<std::uint8_t> const& record) {
    std::vector<std::byte> b(size, std::byte{0xFF});
    auto put32 = [&](std::size_t at, std::uint32_t v) { for (int i = 0; i < 4; ++i) b[at + std::size_t(i)] = std::byte(v >> (8 * i)); };
    put32(0x00, size);
    put32(0x04, filled);
    put32(0x30, filled);
    b[0x34] = b[0x35] = b[0x36] = b[0x37] = std::byte{0}; // BufferFlag, BufferType
    for (std::size_t i = 0; i < record.size() && 0x48 + i < size; ++i) b[0x48 + i] = std::byte{record[i]};
    return b;
}
observed trace_open(std::vector<std::byte> const& b) {
    auto f = trace::trace_file::open(b);
    REQUIRE_FALSE(f.has_value());
    return as_rule(f.error());
}
std::vector<std::uint8_t> system_record(std::uint16_t size, std::uint16_t hook) {
    std::vector<std::uint8_t> r(size < 0x20 ? 0x20 : size, 0);
    r[0] = 2, r[2] = 0x02, r[3] = 0xC0, r[4] = std::uint8_t(size), r[5] = std::uint8_t(size >> 8);
    r[6] = std::uint8_t(hook), r[7] = std::uint8_t(hook >> 8);
    return r;
}

// The smallest trace that opens: a header buffer holding a header event whose TRACE_LOGFILE_HEADER (64-bit
// form, 0x118 bytes) says PointerSize 8 and QPC, followed by two empty names.
std::vector<std::byte> etwctl_test_trace_header() {
    auto r = system_record(0x20 + 0x118 + 4, 0);
    r[0x20 + 0x2C] = 8;   // PointerSize
    r[0x20 + 0x110] = 1;  // ReservedFlags: the clock type (QPC)
    r[0x20 + 0x100 + 2] = 0x98, r[0x20 + 0x100 + 1] = 0x96; // PerfFreq 0x989600 = 10,000,000
    return trace_bytes(0x200, 0x48 + 0x13C, r);
}

struct trigger {
    rule expected;
    char const* how;
    observed (*run)();
};

trigger const triggers[] = {
    {rule::set_class_not_supported, "TraceSetInformation class 0",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 1, 0, scratch, 8)); }},
    {rule::query_class_not_supported, "TraceQueryInformation class 3",
     [] { logger_machine m; return as_win32(compat::trace_query_information(*m.k, 1, 3, scratch, 8, nullptr)); }},
    {rule::stack_tracing_size, "set<stack_tracing> with 257 events",
     [] { logger_machine m; std::vector<classic_event_id> ev(257); return as_rule(set<stack_tracing>(*m.k, session_handle{1}, ev)); }},
    {rule::stack_tracing_empty_needs_null, "TraceStackTracingInfo, length 0, non-NULL",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 1, 3, scratch, 0)); }},
    {rule::enable_flags_set_size, "TraceSystemTraceEnableFlagsInfo set, 36 bytes",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 1, 4, scratch, 36)); }},
    {rule::enable_flags_query_length, "TraceSystemTraceEnableFlagsInfo query, 16 bytes",
     [] { logger_machine m; return as_win32(compat::trace_query_information(*m.k, 1, 4, scratch, 16, nullptr)); }},
    {rule::interval_session_not_zero, "TraceSampledProfileIntervalInfo with a session",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 1, 5, scratch, 8)); }},
    {rule::interval_length, "TraceSampledProfileIntervalInfo, 4 bytes",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 0, 5, scratch, 4)); }},
    {rule::profile_config_size, "set<profile_source_config> with 5 sources",
     [] { logger_machine m; std::vector<profile_source> s(5, profile_source::total_issues);
          return as_rule(set<profile_source_config>(*m.k, session_handle{1}, s)); }},
    {rule::profile_config_empty, "set<profile_source_config> with none",
     [] { logger_machine m; std::vector<profile_source> s;
          return as_rule(set<profile_source_config>(*m.k, session_handle{1}, s)); }},
    {rule::pmc_events_size, "set<pmc_event_list> with 5 events",
     [] { logger_machine m; std::vector<classic_event_id> ev(5); return as_rule(set<pmc_event_list>(*m.k, session_handle{1}, ev)); }},
    {rule::pmc_events_empty_needs_null, "TracePmcEventListInfo, length 0, non-NULL",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 1, 8, scratch, 0)); }},
    {rule::pmc_counters_size, "set<pmc_counter_list> with 5 counters",
     [] { logger_machine m; std::vector<profile_source> s(5, profile_source::total_issues);
          return as_rule(set<pmc_counter_list>(*m.k, session_handle{1}, s)); }},
    {rule::pmc_counters_empty, "set<pmc_counter_list> with none",
     [] { logger_machine m; std::vector<profile_source> s; return as_rule(set<pmc_counter_list>(*m.k, session_handle{1}, s)); }},
    {rule::disallow_list_size, "TraceSetDisallowList, 15 bytes",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 1, 10, scratch, 15)); }},
    {rule::disallow_list_too_long, "set<disallow_list> with 257 GUIDs",
     [] { logger_machine m; std::vector<guid> g(257); return as_rule(set<disallow_list>(*m.k, session_handle{1}, g)); }},
    {rule::disallow_list_empty_needs_null, "TraceSetDisallowList, length 0, non-NULL",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 1, 10, scratch, 0)); }},
    {rule::source_list_session_not_zero, "TraceProfileSourceListInfo with a session",
     [] { logger_machine m; return as_win32(compat::trace_query_information(*m.k, 1, 7, scratch, 64, nullptr)); }},
    {rule::source_list_buffer_too_small, "query<profile_source_list> into no storage",
     [] { logger_machine m; return as_rule(query<profile_source_list>(*m.k, std::span<std::byte>{}).error()); }},
    {rule::version_session_not_zero, "TraceVersionInfo with a session",
     [] { logger_machine m; return as_win32(compat::trace_query_information(*m.k, 1, 11, scratch, 8, nullptr)); }},
    {rule::version_length, "TraceVersionInfo, 4 bytes",
     [] { logger_machine m; return as_win32(compat::trace_query_information(*m.k, 0, 11, scratch, 4, nullptr)); }},
    {rule::null_buffer_with_length, "TraceSystemTraceEnableFlagsInfo set, NULL with 8 bytes",
     [] { logger_machine m; return as_win32(compat::trace_set_information(*m.k, 1, 4, nullptr, 8)); }},
    {rule::kernel_reply_malformed, "query<profile_source_list> from a kernel whose chain is cyclic",
     [] {
         auto k = std::make_unique<sim::hostile_kernel>();
         k->set_fault(sim::reply_fault::chain_cycle);
         profile_source_list_buffer<> storage;
         return as_rule(query<profile_source_list>(*k, storage.span()).error());
     }},
    {rule::event_info_class_not_supported, "TraceLoggingSetInformation class 1",
     [] { logger_machine m; return as_hresult(compat::tracelogging_set_information(*m.k, m.k->register_provider(), 1, scratch, 1)); }},
    {rule::binary_tracking_length, "TraceLoggingSetInformation class 0 with 4 bytes",
     [] { logger_machine m; return as_hresult(compat::tracelogging_set_information(*m.k, m.k->register_provider(), 0, scratch, 4)); }},
    {rule::traits_length, "TraceLoggingSetInformation class 2 with 2 bytes",
     [] { logger_machine m; return as_hresult(compat::tracelogging_set_information(*m.k, m.k->register_provider(), 2, scratch, 2)); }},
    {rule::traits_malformed, "set<provider_traits> with a size field that is not the length",
     [] {
         logger_machine m;
         std::byte blob[5] = {std::byte{9}, std::byte{0}, std::byte{'a'}, std::byte{0}, std::byte{0}};
         return as_rule(set<provider_traits>(*m.k, registration_handle{m.k->register_provider()}, std::span<std::byte const>(blob)));
     }},
    {rule::descriptor_type_length, "TraceLoggingSetInformation class 3 with 2 bytes",
     [] { logger_machine m; return as_hresult(compat::tracelogging_set_information(*m.k, m.k->register_provider(), 3, scratch, 2)); }},
    {rule::descriptor_type_value, "TraceLoggingSetInformation class 3 with the byte 2 (the kernel's check)",
     [] {
         logger_machine m;
         unsigned char const two = 2;
         return as_hresult(compat::tracelogging_set_information(*m.k, m.k->register_provider(), 3, &two, 1));
     }},
    {rule::event_set_information_unavailable, "TraceLoggingSetInformation, policy disabled",
     [] {
         logger_machine m;
         return as_hresult(compat::tracelogging_set_information<event_set_information_policy::disabled>(
             *m.k, m.k->register_provider(), 0, nullptr, 0));
     }},
    {rule::enable_context_zero_handle, "enable_context{0}.check()", [] { return as_rule(enable_context{0}.check()); }},
    {rule::enable_context_bad_logger_id, "EtwGetTraceEnableFlags(logger id 100)",
     [] {
         std::uint32_t e = 0;
         (void)compat::get_trace_enable_flags(100, &e);
         CHECK(enable_context{100}.check() == rule::enable_context_bad_logger_id);
         return as_win32(e);
     }},
    {rule::interval_out_of_bounds, "setup_pmc with an interval of 1",
     [] {
         logger_machine m;
         pmc_counter const c[] = {pmc_counter::of(profile_source::total_issues, profile_interval{1})};
         return as_rule(setup_pmc(*m.k, session_handle{1}, c, std::span<hook_id const>{}).error);
     }},
    {rule::profile_source_absent, "setup_pmc with source 99",
     [] {
         logger_machine m;
         pmc_counter const c[] = {pmc_counter::of_id(99)};
         return as_rule(setup_pmc(*m.k, session_handle{1}, c, std::span<hook_id const>{}).error);
     }},
    {rule::pmc_counter_not_pmc, "setup_pmc with the timer",
     [] {
         logger_machine m;
         pmc_counter const c[] = {pmc_counter::of(profile_source::time)};
         return as_rule(setup_pmc(*m.k, session_handle{1}, c, std::span<hook_id const>{}).error);
     }},
    {rule::pmc_event_group_not_enabled, "setup_pmc on CSwitch with no group enabled",
     [] {
         logger_machine m;
         pmc_counter const c[] = {pmc_counter::of(profile_source::total_issues)};
         hook_id const ev[] = {hook_id{0x0524}};
         return as_rule(setup_pmc(*m.k, session_handle{1}, c, std::span<hook_id const>(ev)).error);
     }},
    {rule::stack_walk_overflow, "stack_walk_set: a 257th id",
     [] {
         stack_walk_set<> s;
         for (std::uint16_t i = 0; i < 256; ++i) CHECK(s.add(hook_id{i}) == rule::ok);
         return as_rule(s.add(hook_id{0x1000}));
     }},
    {rule::parse_unknown_name, "parse_stack_walk(\"NoSuchEvent\")",
     [] { hook_id ids[4]; std::size_t n = 0; return as_rule(parse_stack_walk("NoSuchEvent", ids, n)); }},
    {rule::parse_name_without_value, "parse_wpr_keywords(\"Loader+HvHypercalls\")",
     [] { group_mask m; return as_rule(parse_wpr_keywords("Loader+HvHypercalls", m)); }},
    {rule::parse_duplicate_name, "parse_stack_walk(\"CSwitch+CSwitch\")",
     [] { hook_id ids[4]; std::size_t n = 0; return as_rule(parse_stack_walk("CSwitch+CSwitch", ids, n)); }},
    {rule::parse_empty_name, "parse_kernel_flags(\"PROC_THREAD+\")",
     [] { group_mask m; return as_rule(parse_kernel_flags("PROC_THREAD+", m)); }},
    {rule::parse_too_many_names, "parse_stack_walk of two names into room for one",
     [] { hook_id ids[1]; std::size_t n = 0; return as_rule(parse_stack_walk("CSwitch+ReadyThread", ids, n)); }},
    {rule::custom_counter_field_range, "add_profile_source with an AMD EventSelect of 0x1000",
     [] { logger_machine m; return as_rule(add_profile_source(*m.k, amd_counter{.event_select = 0x1000}, "Wide", profile_interval{4096}).error()); }},
    {rule::custom_counter_description, "add_profile_source with an empty description",
     [] { logger_machine m; return as_rule(add_profile_source(*m.k, intel_counter{.event_select = 0x24}, "", profile_interval{4096}).error()); }},
    {rule::custom_counter_description_taken, "add_profile_source described as the built-in \"TotalCycles\"",
     [] { logger_machine m; return as_rule(add_profile_source(*m.k, intel_counter{.event_select = 0x24}, "TotalCycles", profile_interval{4096}).error()); }},
    {rule::custom_counter_not_listed, "add_profile_source on a kernel that accepts the source and lists nothing",
     [] {
         auto k = std::make_unique<add_ignoring_kernel>();
         return as_rule(add_profile_source(*k, intel_counter{.event_select = 0x24}, "Ghost", profile_interval{4096}).error());
     }},
    {rule::lbr_events_too_many, "set<lbr_event_list> with 5 hook ids",
     [] { logger_machine m; std::vector<hook_id> h(5, hook_id{0x0524}); return as_rule(set<lbr_event_list>(*m.k, session_handle{1}, h)); }},
    {rule::context_register_too_many, "set<context_register> with 9 hook ids",
     [] { logger_machine m; std::vector<hook_id> h(9, hook_id{0x0524}); return as_rule(set<context_register>(*m.k, session_handle{1}, h)); }},
    {rule::periodic_capture_too_many, "set<periodic_capture_state_list> with 17 providers",
     [] { logger_machine m; std::vector<guid> g(17); return as_rule(set<periodic_capture_state_list>(*m.k, session_handle{1}, capture_frequency{60}, g)); }},
    {rule::current_class_length, "compat::current TraceStackCachingInfo with 8 bytes",
     [] { logger_machine m; return as_win32(compat::current::trace_set_information(*m.k, 1, 24, scratch, 8)); }},
    {rule::current_class_array_size, "compat::current TraceLbrEventListInfo with 6 bytes",
     [] { logger_machine m; return as_win32(compat::current::trace_set_information(*m.k, 1, 21, scratch, 6)); }},
    {rule::current_class_session_not_zero, "compat::current TracePmcSessionInformation with a session",
     [] { logger_machine m; return as_win32(compat::current::trace_query_information(*m.k, 1, 27, scratch, 64, nullptr)); }},
    {rule::stack_cache_out_of_bounds, "set<stack_caching> with a 1 MiB cache",
     [] { logger_machine m; return as_rule(set<stack_caching>(*m.k, session_handle{1}, stack_cache_size::mebibytes(1), stack_cache_buckets{1024})); }},
    {rule::class_not_on_this_windows, "set<stack_caching> on a kernel without stack caching (an older Windows)",
     [] {
         logger_machine m;
         m.k->set_kernel_class_available(0x10, false);
         return as_rule(set<stack_caching>(*m.k, session_handle{m.k->start_kernel_logger()}, stack_cache_size::mebibytes(4),
                                           stack_cache_buckets{1024}));
     }},
    {rule::periodic_capture_frequency, "set<periodic_capture_state_list> every 4 s",
     [] { logger_machine m; guid const g[1] = {}; return as_rule(set<periodic_capture_state_list>(*m.k, session_handle{1}, capture_frequency{4}, g)); }},
    {rule::event_guid_not_kernel_group, "set<stack_tracing> with a CLASSIC_EVENT_ID of GUID 0",
     [] { logger_machine m; classic_event_id const e[1] = {}; return as_rule(set<stack_tracing>(*m.k, session_handle{1}, e)); }},
    {rule::stack_walk_group_not_enabled, "check_event_groups of CSwitch against PROC_THREAD",
     [] { return as_rule(check_event_groups(kernel_flags<"PROC_THREAD">, stack_walk<"CSwitch">.span())); }},
    {rule::parse_input_too_long, "parse_kernel_flags of a text one byte over limits::max_parse_length",
     [] {
         static char text[limits::max_parse_length + 1];
         for (char& c : text) c = ' ';
         group_mask m;
         return as_rule(parse_kernel_flags(std::string_view(text, sizeof text), m));
     }},
    // reading traces (trace/): a trace file is untrusted input
    {rule::trace_file_too_small, "trace_file::open of 16 bytes",
     [] { return trace_open(std::vector<std::byte>(16)); }},
    {rule::trace_buffer_size, "a header buffer whose BufferSize runs past the file",
     [] { auto b = trace_bytes(0x100, 0x100, {}); b[1] = std::byte{0x10}; return trace_open(b); }},
    {rule::trace_buffer_filled, "a header buffer whose Offset lies past the buffer",
     [] { return trace_open(trace_bytes(0x100, 0x200, system_record(0x20, 0))); }},
    {rule::trace_record_size, "a header event of size 8 (a system header is 0x20)",
     [] { return trace_open(trace_bytes(0x100, 0x100, system_record(8, 0))); }},
    {rule::trace_record_past_buffer, "a header event of 0x400 bytes in a 0x100-byte buffer",
     [] { return trace_open(trace_bytes(0x100, 0x100, system_record(0x400, 0))); }},
    {rule::trace_record_kind, "a record of header type 0x0D (TRACE_HEADER_TYPE_ERROR)",
     [] { auto r = system_record(0x20, 0); r[2] = 0x0D; return trace_open(trace_bytes(0x100, 0x100, r)); }},
    {rule::trace_extended_item, "an EVENT_HEADER whose extended item runs past the record",
     [] {
         std::vector<std::byte> rec(0x58, std::byte{0});
         rec[0] = std::byte{0x58}, rec[2] = std::byte{0x13}, rec[3] = std::byte{0xC0}, rec[4] = std::byte{1};
         rec[0x50] = std::byte{0x40}; // item size 0x40: past the record's 0x58 bytes
         trace::record r;
         return as_rule(trace::record_reader::read(rec, 0, r).what);
     }},
    {rule::trace_header_event, "a header buffer starting with a Thread Start record",
     [] { return trace_open(trace_bytes(0x100, 0x100, system_record(0x20, 0x0501))); }},
    {rule::trace_compressed_stream, "a Plain LZ77 stream of one byte",
     [] { std::byte const in[1] = {}; std::byte out[8]; return as_rule(trace::decompress_plain_lz77(in, out).error); }},
    {rule::trace_compressed_size, "a Plain LZ77 stream of 5 literals into 4 bytes",
     [] {
         std::byte const in[] = {std::byte{0}, std::byte{0}, std::byte{0}, std::byte{0}, std::byte{'a'}, std::byte{'b'}, std::byte{'c'}, std::byte{'d'}, std::byte{'e'}};
         std::byte out[4];
         return as_rule(trace::decompress_plain_lz77(in, out).error);
     }},
    {rule::trace_storage_too_small, "a reader given no storage",
     [] {
         auto const bytes = etwctl_test_trace_header();
         auto f = trace::trace_file::open(bytes);
         REQUIRE(f.has_value());
         trace::reader r(*f, {});
         return as_rule(r.init_fault().what);
     }},
    {rule::tracelogging_metadata, "TraceLogging metadata whose size field exceeds the blob",
     [] { std::byte const blob[] = {std::byte{0x20}, std::byte{0}, std::byte{0}, std::byte{'e'}, std::byte{0}}; return as_rule(trace::parse_event_metadata(blob).fault.what); }},
    {rule::tracelogging_payload, "a TraceLogging UInt32 field with a 2-byte payload",
     [] {
         std::byte const blob[] = {std::byte{8}, std::byte{0}, std::byte{0}, std::byte{'e'}, std::byte{0}, std::byte{'f'}, std::byte{0}, std::byte{8}};
         auto const m = trace::parse_event_metadata(blob);
         REQUIRE(m.ok());
         std::byte const payload[2] = {};
         struct visitor { void field(trace::tl_value const&) noexcept {} } v;
         return as_rule(trace::decode_tracelogging(m.metadata, payload, 8, v).fault.what);
     }},
    // ETW sessions: the checks of session/checks.hpp (the drop-in functions call the same)
    {rule::session_argument_null, "check_enable with no provider",
     [] { return as_rule(check_enable(1, false)); }},
    {rule::session_properties_too_small, "a block of 0x77 bytes",
     [] { return as_rule(check_properties_size(0x77, wnode_flag::traced_guid)); }},
    {rule::session_v2_too_small, "a V2 block of 0x78 bytes",
     [] { return as_rule(check_properties_size(0x78, wnode_flag::traced_guid | wnode_flag::versioned_properties)); }},
    {rule::session_name_invalid, "an empty session name", [] { return as_rule(check_session_name(true, 0)); }},
    {rule::session_name_offset, "LoggerNameOffset 1", [] { return as_rule(check_name_offsets(0x200, 1, 0)); }},
    {rule::session_name_no_room, "a 10-character name in 8 bytes",
     [] { return as_rule(check_name_room(0x80, 2, 0x78, 10, 0, true, 0)); }},
    {rule::session_kernel_logger_guid, "SystemTraceControlGuid named \"wine\"",
     [] { return as_rule(check_kernel_logger_guid(session_guids::system_trace_control, std::u16string_view(u"wine"))); }},
    {rule::session_v2_filters_mismatch, "V2 with FilterDescCount 1 and no FilterDesc",
     [] { return as_rule(check_v2_filters(wnode_flag::versioned_properties, 1, false)); }},
    {rule::session_enable_flags_extension, "EnableFlags extension past the block",
     [] { return as_rule(check_enable_flags_extension(0x80040100U, 0x100)); }},
    {rule::session_log_file_mode_conflict, "SEQUENTIAL | CIRCULAR",
     [] { return as_rule(check_log_file_mode(log_file_mode::sequential | log_file_mode::circular, 10, true, false)); }},
    {rule::session_mode_not_allowed, "NONSTOPPABLE",
     [] { return as_rule(check_log_file_mode(log_file_mode::nonstoppable | log_file_mode::real_time, 0, false, false)); }},
    {rule::session_mode_needs_private, "PRIVATE_IN_PROC alone",
     [] { return as_rule(check_log_file_mode(log_file_mode::private_in_proc | log_file_mode::real_time, 0, false, false)); }},
    {rule::session_mode_needs_maximum_file_size, "CIRCULAR without MaximumFileSize",
     [] { return as_rule(check_log_file_mode(log_file_mode::circular, 0, true, false)); }},
    {rule::session_mode_needs_log_file, "PREALLOCATE without a file",
     [] { return as_rule(check_log_file_mode(log_file_mode::preallocate | log_file_mode::real_time, 10, false, false)); }},
    {rule::session_mode_excludes_log_file, "BUFFERING with a file",
     [] { return as_rule(check_log_file_mode(log_file_mode::buffering, 0, true, false)); }},
    {rule::session_mode_system_logger, "NEWFILE on a system logger",
     [] { return as_rule(check_log_file_mode(log_file_mode::newfile | log_file_mode::system_logger, 10, true, false)); }},
    {rule::session_mode_needs_buffering, "COMPRESSED without BUFFERING",
     [] { return as_rule(check_log_file_mode(log_file_mode::compressed | log_file_mode::real_time, 0, false, false)); }},
    {rule::session_newfile_needs_percent_d, "NEWFILE with \"trace.etl\"",
     [] { return as_rule(check_newfile_name(log_file_mode::newfile, std::u16string_view(u"trace.etl"))); }},
    {rule::session_no_destination, "mode 0 without a file",
     [] { return as_rule(check_log_file_mode(0, 0, false, false)); }},
    {rule::session_wnode_flags, "Wnode.Flags 0", [] { return as_rule(check_wnode_flags(0)); }},
    {rule::session_no_target, "ControlTrace without name or handle",
     [] { return as_rule(check_control(true, 0x78, wnode_flag::traced_guid, 0, 0, false, 0, true)); }},
    {rule::session_query_all_count, "QueryAllTraces with count 0", [] { return as_rule(check_query_all(true, 0, true)); }},
    {rule::session_handle_zero, "EnableTraceEx2 on handle 0", [] { return as_rule(check_enable(0, true)); }},
    {rule::session_update_append_file, "UPDATE of an APPEND session to a new file",
     [] { return as_rule(check_update(log_file_mode::append, 0x78)); }},
    {rule::session_enable_code, "EnableTraceEx2 code 3", [] { return as_rule(check_enable_code(3)); }},
    {rule::session_enable_parameters, "ENABLE_TRACE_PARAMETERS version 3",
     [] { return as_rule(check_enable_parameters(3, 0, false)); }},
    {rule::session_enable_filter, "a PID filter of 9 pids",
     [] { return as_rule(check_enable_filter({filter_type::pid, 36, true, 9})); }},
    // the typed session API
    {rule::provider_name_not_hashable, "provider_guid_from_name(\"Caf\\xC3\\xA9\")",
     [] { return as_rule(provider_guid_from_name("Caf\xC3\xA9").error()); }},
    {rule::session_text_not_utf8, "start_session with a name that is not UTF-8",
     [] { logger_machine m; return as_rule(start_session(*m.k, session_config::user("x\xC3").real_time()).error()); }},
    {rule::session_log_file_name_too_long, "start_session with a 1025-character log-file path",
     [] {
         logger_machine m;
         std::string const path(1025, 'p');
         return as_rule(start_session(*m.k, session_config::user("x").file_sequential(path)).error());
     }},
    {rule::session_buffer_size_out_of_range, "start_session with 2 KB buffers",
     [] { logger_machine m; return as_rule(start_session(*m.k, session_config::user("x").real_time().buffer(buffer_size::kilobytes(2))).error()); }},
    {rule::session_enable_flags_need_system_logger, "start_session: a user session with enable flags",
     [] { logger_machine m; return as_rule(start_session(*m.k, session_config::user("x").real_time().enable_flags(1)).error()); }},
    {rule::session_orphan_prefix_invalid, "stop_orphans with the prefix \"a-b\"",
     [] {
         logger_machine m;
         auto storage = std::make_unique<session_list_buffer<1>>();
         return as_rule(stop_orphans(*m.k, "a-b", *storage).error);
     }},
    {rule::session_setting_out_of_range, "start_session with a 5,000,000 MB file size",
     [] {
         logger_machine m;
         return as_rule(start_session(*m.k, session_config::user("x").file_sequential("a.etl", file_size::megabytes(5000000))).error());
     }},
};

} // namespace

TEST_CASE("every rule is triggered through a public entry point") {
    std::array<bool, static_cast<std::size_t>(rule::count_)> covered{};
    for (auto const& t : triggers) {
        CAPTURE(info(t.expected).name);
        CAPTURE(t.how);
        observed const o = t.run();
        if (o.is_rule) CHECK(o.r == t.expected);
        CHECK(o.win32 == win32_error_of(t.expected));
        covered[static_cast<std::size_t>(t.expected)] = true;
    }
    for (std::size_t i = 1; i < covered.size(); ++i) {
        CAPTURE(rule_table[i].name);
        CHECK_MESSAGE(covered[i], "a rule without a trigger: add one to the table in test_errors_doc.cpp");
    }
    CHECK(std::size(triggers) == static_cast<std::size_t>(rule::count_) - 1);
}

TEST_CASE("every rule's error_code names it and maps to its Win32 code") {
    for (auto const& row : rule_table) {
        std::error_code const ec = make_error_code(row.id);
        CAPTURE(row.name);
        if (row.id == rule::ok) continue;
        CHECK(ec.category() == rule_category());
        CHECK(to_win32(ec) == row.win32_error);
        CHECK(ec == win32_condition(row.win32_error));
        CHECK(ec.message().find(std::string(row.name)) != std::string::npos);
    }
}
