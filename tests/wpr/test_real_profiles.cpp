// Real-shaped profiles lowered to plans, every value checked. The profiles in data/ are etwctl's own
// text, written after the shapes of public ones:
//   office_cpu.wprp    - microsoft/MSO-Scripts src/WPRP/CPU.wprp
//   console_perf.wprp  - microsoft/terminal src/ConsolePerf.wprp (built-in bases), with general_export.wprp
//                        standing in for `wpr -exportprofile` output
//   wsl_shape.wprp     - microsoft/WSL diagnostics/wsl.wprp
//   wpt_sample.wprp    - the Windows Performance Toolkit's SampleWPRControlProfiles.wprp and the examples on
//                        learn.microsoft.com windows-hardware/test/wpt (collector, provider, profile definitions)
//   cpu_counters.wprp  - microsoft/MSO-Scripts src/BETA/WPRP/CPUCounters.wprp
// Expected values: keyword and stack values from names/wpr.hpp (tests/tables checks those against
// WPR's lists); LogFileMode bits from session/layouts.hpp (the SDK's evntrace.h).
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "etwctl/session/layouts.hpp"
#include "wpr_support.hpp"

using namespace wpr_test;
namespace lfm = etwctl::log_file_mode;
namespace ep = etwctl::enable_property;
using etwctl::guid;

TEST_CASE("MSO-Scripts shape: CPU sampling, File mode - one system logger, one event session, exact values") {
    auto const r = load_data("office_cpu.wprp", request("Sampling", wpr::logging_mode::file));
    INFO(all(r.findings));
    REQUIRE(r.plan);
    auto const& p = *r.plan;
    CHECK(p.profile_id == "Sampling.Verbose.File");
    CHECK(p.profile_name == "Sampling");
    CHECK(p.level == wpr::detail_level::verbose);
    CHECK(p.mode == wpr::logging_mode::file);
    CHECK(p.file == "office_cpu.wprp");

    REQUIRE(p.system);
    auto const& sys = *p.system;
    CHECK(sys.session.name == "WPR_initiated_WprApp_WPR System Collector"); // never the collector's Name
    CHECK(sys.session.collector_id == "SysColl_Big");
    CHECK(sys.session.collector_name == "Test System Collector");
    CHECK(sys.session.system_logger);
    CHECK(sys.session.log_file_mode == (lfm::sequential | lfm::system_logger));
    CHECK(sys.session.buffer_size_kb == 1024); // inherited from SysColl_Common
    CHECK(sys.session.minimum_buffers == 640); // SysColl_Big's own
    CHECK(sys.session.maximum_buffers == 640);
    CHECK(sys.session.defaulted.empty());
    REQUIRE(sys.stack_caching);
    CHECK(sys.stack_caching->bucket_count == 256);
    CHECK(sys.stack_caching->cache_size == 3072);
    // ProcessThread 0x3, Loader 0x4, CSwitch 0x10, ReadyThread 0x800, SampledProfile 0x01000000 (Masks[0]);
    // IdleStates PERF_PROCESSOR_IDLE (Masks[2] 0x8000); Power PERF_POWER (Masks[4] 0x8000)
    CHECK(sys.flags.masks[0] == 0x01000817U);
    CHECK(sys.flags.masks[1] == 0);
    CHECK(sys.flags.masks[2] == 0x8000U);
    CHECK(sys.flags.masks[4] == 0x8000U);
    CHECK(sys.keywords == std::vector<std::string>{"ProcessThread", "Loader", "SampledProfile", "CSwitch", "ReadyThread", "IdleStates", "Power"});
    CHECK(hooks(sys.stacks) == std::vector<std::uint16_t>{0x0F2E, 0x0524, 0x0532, 0x030A});
    CHECK(sys.stacks[0].name == "SampledProfile");
    CHECK(sys.session.providers.empty());
    CHECK_FALSE(sys.hardware_counters);

    REQUIRE(p.event_sessions.size() == 1);
    auto const& ev = p.event_sessions[0];
    CHECK(ev.name == "WPR_initiated_WprApp_Test Event Collector");
    CHECK(ev.collector_id == "EvColl_Common");
    CHECK_FALSE(ev.system_logger);
    CHECK(ev.log_file_mode == lfm::sequential);
    CHECK(ev.buffer_size_kb == 512);
    CHECK(ev.minimum_buffers == 8);
    CHECK(ev.maximum_buffers == 8);
    REQUIRE(ev.providers.size() == 3);
    auto const& focus = ev.providers[0];
    CHECK(focus.id == "Prov_Focus");
    CHECK(focus.name == "3f1c9a2e-5b7d-4c11-9e0a-2d4b6f8a1c35");
    REQUIRE(focus.provider);
    CHECK(*focus.provider == guid::from_string("3f1c9a2e-5b7d-4c11-9e0a-2d4b6f8a1c35"));
    CHECK(focus.level == 5);
    CHECK_FALSE(focus.level_given);
    CHECK(focus.match_any == 0x22000U);
    CHECK(focus.match_all == 0);
    CHECK(focus.enable_property == ep::stack_trace);
    auto const& process = ev.providers[1];
    CHECK(process.name == "{7A0C3E51-19D2-4B8F-A6E4-0F5D2C9B8E13}"); // as written
    REQUIRE(process.provider);
    CHECK(*process.provider == guid::from_string("7a0c3e51-19d2-4b8f-a6e4-0f5d2c9b8e13"));
    CHECK(process.level == 4);
    CHECK(process.level_given);
    CHECK(process.match_any == 0x10U);
    CHECK(process.enable_property == 0);
    auto const& markers = ev.providers[2];
    CHECK(markers.name == "Contoso.App.Markers");
    CHECK_FALSE(markers.provider); // a name: the apply step resolves it
    CHECK(markers.enable_property == ep::sid);

    // The doc rules Microsoft's own files break are warnings, and the unit-less StackCaching a reading.
    CHECK(of(r.findings, wpr::check::doc_rule).size() == 3);
    CHECK(of(p.warnings, wpr::check::doc_rule).size() == 3);
    CHECK(of(p.warnings, wpr::check::reading).size() == 1);
    CHECK(count(r.findings, wpr::severity::error) == 0);
    CHECK(p.warnings.size() == r.findings.size());
}

TEST_CASE("MSO-Scripts shape: the Memory twin inherits everything and changes the logging mode") {
    auto const r = load_data("office_cpu.wprp", request("Sampling")); // Memory and Verbose: WPR's defaults
    REQUIRE(r.plan);
    CHECK(r.plan->profile_id == "Sampling.Verbose.Memory");
    CHECK(r.plan->mode == wpr::logging_mode::memory);
    REQUIRE(r.plan->system);
    CHECK(r.plan->system->session.log_file_mode == (lfm::buffering | lfm::system_logger));
    CHECK(r.plan->system->flags.masks[0] == 0x01000817U);
    CHECK(hooks(r.plan->system->stacks) == std::vector<std::uint16_t>{0x0F2E, 0x0524, 0x0532, 0x030A});
    REQUIRE(r.plan->event_sessions.size() == 1);
    CHECK(r.plan->event_sessions[0].log_file_mode == lfm::buffering);
    CHECK(r.plan->event_sessions[0].providers.size() == 3);
}

TEST_CASE("MSO-Scripts shape: a derived profile's Collectors Add replaces the SystemProviderId of the same collector") {
    auto const r = load_data("office_cpu.wprp", request("SamplingRundown", wpr::logging_mode::file));
    REQUIRE(r.plan);
    REQUIRE(r.plan->system);
    CHECK(hooks(r.plan->system->stacks) == std::vector<std::uint16_t>{0x0F2E, 0x0524, 0x0532, 0x030A, 0x0503, 0x0504});
    CHECK(r.plan->system->flags.masks[0] == 0x01000817U); // SysProv_Rundown inherits SysProv_Sampling's keywords
    REQUIRE(r.plan->event_sessions.size() == 1);           // the event collector is inherited
    CHECK(r.plan->event_sessions[0].providers.size() == 3);
}

TEST_CASE("MSO-Scripts shape: Light profile, a provider derived with Stack=\"false\"") {
    auto const r = load_data("office_cpu.wprp", request("Lean", wpr::logging_mode::memory, wpr::detail_level::light));
    REQUIRE(r.plan);
    CHECK(r.plan->profile_id == "Lean.Light.Memory");
    REQUIRE(r.plan->system);
    CHECK(r.plan->system->session.collector_id == "SysColl_Common");
    CHECK(r.plan->system->session.minimum_buffers == 16);
    CHECK(r.plan->system->flags.masks[0] == 0x7U);
    CHECK(r.plan->system->stacks.empty());
    REQUIRE(r.plan->event_sessions.size() == 1);
    REQUIRE(r.plan->event_sessions[0].providers.size() == 1);
    auto const& p = r.plan->event_sessions[0].providers[0];
    CHECK(p.id == "Prov_Focus_NoStacks");
    CHECK(p.match_any == 0x22000U);   // inherited keywords
    CHECK(p.enable_property == 0);    // Stack="false" overrides the base's Stack="true"
    // No Verbose profile of that Name: WPR's default level does not match
    auto const v = load_data("office_cpu.wprp", request("Lean"));
    CHECK_FALSE(v.plan);
    REQUIRE(of(v.findings, wpr::check::profile_choice).size() == 1);
    CHECK(contains(of(v.findings, wpr::check::profile_choice)[0].text, "Lean (Light, Memory)"));
}

TEST_CASE("Windows Terminal shape: built-in bases not passed are warnings; what the file defines still applies") {
    auto const r = load_data("console_perf.wprp", request("ConsoleTest", wpr::logging_mode::file));
    INFO(all(r.findings));
    REQUIRE(r.plan);
    auto const base_builtin = of(r.findings, wpr::check::base_builtin);
    REQUIRE(base_builtin.size() == 2);
    std::string const text = data_text("console_perf.wprp");
    bool general = false;
    bool sp_base = false;
    for (auto const& f : base_builtin) {
        CHECK(f.level == wpr::severity::warning);
        CHECK(contains(f.text, "wpr -exportprofile"));
        if (contains(f.text, "'GeneralProfile.Light.File'")) {
            general = true;
            CHECK(f.line == line_of(text, "Id=\"ConsoleTest.Verbose.File\""));
            CHECK(f.element == "Profile");
        }
        if (contains(f.text, "'SystemProvider_Base'")) {
            sp_base = true;
            CHECK(f.line == line_of(text, "Base=\"SystemProvider_Base\""));
        }
    }
    CHECK(general);
    CHECK(sp_base);
    auto const refs = of(r.findings, wpr::check::reference_builtin);
    REQUIRE(refs.size() == 1);
    CHECK(contains(refs[0].text, "'EventCollector_WPREventCollectorInFile'"));
    CHECK(refs[0].line == line_of(text, "<EventCollectorId Value=\"EventCollector_WPREventCollectorInFile\""));

    auto const& p = *r.plan;
    REQUIRE(p.system);
    CHECK(p.system->session.collector_id == "SystemCollector_TestInFileLarge");
    CHECK(p.system->session.buffer_size_kb == 1024);
    CHECK(p.system->session.maximum_buffers == 100);
    // CSwitch 0x10 + VirtualAllocation 0x4000 (Masks[0]); MemoryInfo 0x80000 + MemoryInfoWS 0x800000 (Masks[1])
    CHECK(p.system->flags.masks[0] == 0x4010U);
    CHECK(p.system->flags.masks[1] == 0x880000U);
    REQUIRE(p.event_sessions.size() == 1);
    auto const& ev = p.event_sessions[0];
    CHECK(ev.name == "WPR_initiated_WprApp_EventCollector_WPREventCollectorInFile"); // its Name is not known
    CHECK(ev.collector_name.empty());
    CHECK(ev.buffer_size_kb == wpr::default_buffer_size_kb); // WPR's defaults, said so
    CHECK(ev.maximum_buffers == wpr::default_buffers);
    CHECK(ev.defaulted == std::vector<std::string>{"buffer_size_kb", "buffers"});
    REQUIRE(ev.providers.size() == 2);
    CHECK(ev.providers[1].name == "Microsoft-Windows-Kernel-Memory");
    CHECK_FALSE(ev.providers[1].provider);
}

TEST_CASE("Windows Terminal shape with the exported built-ins passed as a base file: no warning, inherited content") {
    auto const r = load_data("console_perf.wprp", request("ConsoleTest", wpr::logging_mode::file), {"general_export.wprp"});
    INFO(all(r.findings));
    REQUIRE(r.plan);
    CHECK(of(r.findings, wpr::check::base_builtin).empty());
    CHECK(of(r.findings, wpr::check::reference_builtin).empty());
    auto const& p = *r.plan;
    REQUIRE(p.system);
    // SystemProvider_Base's ProcessThread + Loader + HardFaults (0x2007), then the derived Add: CSwitch, VirtualAllocation
    CHECK(p.system->flags.masks[0] == (0x2007U | 0x4010U));
    CHECK(p.system->flags.masks[1] == 0x880000U);
    CHECK(hooks(p.system->stacks) == std::vector<std::uint16_t>{0x0301}); // ProcessCreate, from the base provider
    CHECK(p.system->keywords.front() == "ProcessThread");
    REQUIRE(p.event_sessions.size() == 1);
    auto const& ev = p.event_sessions[0];
    CHECK(ev.name == "WPR_initiated_WprApp_WPR Event Collector");
    CHECK(ev.buffer_size_kb == 256);
    CHECK(ev.maximum_buffers == 24);
    CHECK(ev.defaulted.empty());
    // GeneralProfile's provider first (inherited), then the two the derived profile adds
    REQUIRE(ev.providers.size() == 3);
    CHECK(ev.providers[0].id == "EventProvider_General_Base");
    CHECK(ev.providers[0].level == 4);
    CHECK(ev.providers[1].id == "EP-Test-Host");
    CHECK(ev.providers[2].id == "EP-Kernel-Memory");
}

TEST_CASE("Windows Terminal shape: a Memory profile overrides inherited built-in collectors with a share of memory") {
    auto const r = load_data("console_perf.wprp", request("Env.Light.Memory"));
    INFO(all(r.findings));
    REQUIRE(r.plan);
    auto const& p = *r.plan;
    CHECK(p.mode == wpr::logging_mode::memory);
    REQUIRE(p.system);
    CHECK(p.system->session.log_file_mode == (lfm::buffering | lfm::system_logger));
    CHECK(p.system->session.buffer_size_kb == 1024);
    REQUIRE(p.system->session.buffers_from_memory);
    CHECK(p.system->session.buffers_from_memory->percent == doctest::Approx(5.0));
    CHECK_FALSE(p.system->session.buffers_from_memory->maximum_buffer_space_mb);
    CHECK(p.system->flags.masks[2] == 0x10000U); // CpuConfig, from Env.Light.File's SystemProviderId (kept by Add)
    REQUIRE(p.event_sessions.size() == 1);
    auto const& ev = p.event_sessions[0];
    REQUIRE(ev.buffers_from_memory);
    CHECK(ev.buffers_from_memory->percent == doctest::Approx(3.0));
    CHECK(ev.buffers_from_memory->maximum_buffer_space_mb == 256U);
    REQUIRE(ev.providers.size() == 1);
    auto const& power = ev.providers[0];
    CHECK(power.match_any == 0x8000000000000000ULL);
    REQUIRE(power.capture_state.size() == 1);
    CHECK(power.capture_state[0].when == wpr::capture_moment::save);
    CHECK(power.capture_state[0].match_any == 0x80U);
    CHECK_FALSE(power.capture_state[0].timeout_s);
    // NonPagedMemory is named as not carried
    auto const nc = of(p.warnings, wpr::check::not_carried);
    REQUIRE(nc.size() == 1);
    CHECK(contains(nc[0].text, "NonPagedMemory"));
    // 5% of 16 GiB in 1 MiB buffers = 819 buffers (etwctl's reading of the percentage)
    CHECK(wpr::buffers_for_memory(*p.system->session.buffers_from_memory, 1024, 16ULL << 30) == 819);
    // 3% of 16 GiB capped at MaximumBufferSpace 256 MB: 256 buffers of 1 MiB
    CHECK(wpr::buffers_for_memory(*ev.buffers_from_memory, 1024, 16ULL << 30) == 256);
}

TEST_CASE("WSL shape: an event-only File profile; asking for WPR's default Memory mode names what the file has") {
    auto const r = load_data("wsl_shape.wprp", request("Subsystem", wpr::logging_mode::file));
    INFO(all(r.findings));
    REQUIRE(r.plan);
    CHECK_FALSE(r.plan->system);
    REQUIRE(r.plan->event_sessions.size() == 1);
    auto const& s = r.plan->event_sessions[0];
    CHECK(s.name == "WPR_initiated_WprApp_Collector");
    CHECK(s.buffer_size_kb == 256);
    CHECK(s.maximum_buffers == 1024);
    REQUIRE(s.providers.size() == 4);
    CHECK(s.providers[2].match_any == ~std::uint64_t{0});
    CHECK(s.providers[2].level == 4);
    CHECK(s.providers[3].match_any == 0xFFFFFFFFFFFFFFFDULL);
    CHECK(of(r.findings, wpr::check::doc_rule).size() == 1); // a File profile without its Memory twin

    auto const m = load_data("wsl_shape.wprp", request("Subsystem"));
    CHECK_FALSE(m.plan);
    auto const choice = of(m.findings, wpr::check::profile_choice);
    REQUIRE(choice.size() == 1);
    CHECK(choice[0].text == "no profile 'Subsystem' with DetailLevel Verbose and LoggingMode Memory in this file; it has: "
                            "Subsystem (Verbose, File)");
    // The only Name of the file is taken when no profile is named
    auto const unnamed = load_data("wsl_shape.wprp", request("", wpr::logging_mode::file));
    CHECK(unnamed.plan);
    // and by Id
    auto const by_id = load_data("wsl_shape.wprp", request("Subsystem.Verbose.File"));
    REQUIRE(by_id.plan);
    CHECK(by_id.plan->mode == wpr::logging_mode::file);
}

TEST_CASE("WPT sample shape: the Memory profile adds percentage buffers, keeps the providers; merge properties named") {
    auto const r = load_data("wpt_sample.wprp", request("DiskSample"));
    INFO(all(r.findings));
    REQUIRE(r.plan);
    auto const& p = *r.plan;
    CHECK(p.profile_id == "DiskSample.Verbose.Memory");
    CHECK(p.problem_categories == std::vector<std::string>{"First Level Triage"}); // inherited
    REQUIRE(p.system);
    CHECK(p.system->session.collector_name == "NT Kernel Logger"); // kept as written, not the session's name
    CHECK(p.system->session.name == "WPR_initiated_WprApp_WPR System Collector");
    CHECK(p.system->session.buffer_size_kb == 128);
    REQUIRE(p.system->session.buffers_from_memory);
    CHECK(p.system->session.buffers_from_memory->percent == doctest::Approx(5.0));
    // DiskIO 0x300, FileIO 0x02000000, FileIOInit 0x04000000, HardFaults 0x2000
    CHECK(p.system->flags.masks[0] == 0x06002300U);
    CHECK(hooks(p.system->stacks) == std::vector<std::uint16_t>{0x0440, 0x0443, 0x0444, 0x0442});
    REQUIRE(p.event_sessions.size() == 1);
    auto const& ev = p.event_sessions[0];
    CHECK(ev.name == "WPR_initiated_WprApp_Sample Event Collector");
    REQUIRE(ev.providers.size() == 2);
    CHECK(ev.providers[0].name == "Contoso-Runtime");
    CHECK(ev.providers[0].level == 5);
    CHECK(ev.providers[0].level_given);
    CHECK(ev.providers[0].match_any == 0x98U);
    REQUIRE(ev.providers[0].capture_state.size() == 1);
    CHECK(ev.providers[0].capture_state[0].match_any == 0x118U);
    REQUIRE(ev.providers[1].capture_state.size() == 1);
    CHECK(ev.providers[1].capture_state[0].timeout_s == 30U);
    auto const nc = of(p.warnings, wpr::check::not_carried);
    REQUIRE(nc.size() == 1);
    CHECK(nc[0].element == "TraceMergeProperties");
    CHECK(nc[0].line == line_of(data_text("wpt_sample.wprp"), "<TraceMergeProperties>"));
}

TEST_CASE("MSO-Scripts counters shape: hardware counters, a custom keyword and stack, LBR events; LBR filters not carried") {
    auto const r = load_data("cpu_counters.wprp", request("Counters", wpr::logging_mode::file));
    INFO(all(r.findings));
    REQUIRE(r.plan);
    REQUIRE(r.plan->system);
    auto const& sys = *r.plan->system;
    // ProcessThread, Loader, CSwitch (Masks[0] 0x17); PmcProfile (Masks[1] 0x400); CustomKeyword 0x40100000 (Masks[2])
    CHECK(sys.flags.masks[0] == 0x17U);
    CHECK(sys.flags.masks[1] == 0x400U);
    CHECK(sys.flags.masks[2] == 0x100000U);
    CHECK(sys.keywords.back() == "0x40100000");
    CHECK(hooks(sys.stacks) == std::vector<std::uint16_t>{0x0F2F, 0x1C2A});
    CHECK(sys.stacks[1].name == "0x1C2A");
    REQUIRE(sys.hardware_counters);
    auto const& hc = *sys.hardware_counters;
    CHECK(hc.id == "HC_Cycles");
    CHECK(hc.strict);
    CHECK(hc.counters == std::vector<std::string>{"TotalCycles", "InstructionRetired"});
    CHECK(hooks(hc.events) == std::vector<std::uint16_t>{0x0524});
    REQUIRE(hc.sampled.size() == 1);
    CHECK(hc.sampled[0].source == "BranchMispredictions");
    CHECK(hc.sampled[0].interval == 65536U);
    REQUIRE(hc.last_branch);
    CHECK(hooks(hc.last_branch->events) == std::vector<std::uint16_t>{0x0F2E});
    auto const nc = of(r.plan->warnings, wpr::check::not_carried);
    REQUIRE(nc.size() == 1);
    CHECK(nc[0].element == "LastBranchFilters");
}

TEST_CASE("profile list and wpr -start's FILE!Profile[.Light|.Verbose] form") {
    auto const d = wpr::read_document(data_text("office_cpu.wprp"), "office_cpu.wprp");
    auto const list = wpr::list_profiles(d);
    REQUIRE(list.size() == 5);
    CHECK(list[0].id == "Sampling.Verbose.File");
    CHECK(list[0].mode == wpr::logging_mode::file);
    CHECK(list[1].base == "Sampling.Verbose.File");
    CHECK(list[3].level == wpr::detail_level::light);
    auto const s = wpr::parse_profile_spec("C:\\profiles\\CPU.wprp!CPU-Dispatch.Light");
    CHECK(s.file == "C:\\profiles\\CPU.wprp");
    CHECK(s.profile == "CPU-Dispatch");
    CHECK(s.level == wpr::detail_level::light);
    auto const v = wpr::parse_profile_spec("x.wprp!Sampling.verbose");
    CHECK(v.profile == "Sampling");
    CHECK(v.level == wpr::detail_level::verbose);
    auto const plain = wpr::parse_profile_spec("x.wprp");
    CHECK(plain.file == "x.wprp");
    CHECK(plain.profile.empty());
    CHECK_FALSE(plain.level);
}

TEST_CASE("a UTF-16 file with a byte-order mark reads as its UTF-8 text, with the same positions") {
    std::string const utf8 = wprp("<SystemProvider Id=\"X\">\n<Keywords><Keyword Value=\"CSwich\"/></Keywords>\n</SystemProvider>\n"
                                  "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\"/>\n");
    std::string utf16 = "\xFF\xFE";
    for (char c : utf8) {
        utf16 += c;
        utf16 += '\0';
    }
    auto const a = wpr::read_document(utf8, "a.wprp");
    auto const b = wpr::read_document(utf16, "b.wprp");
    REQUIRE(a.root);
    REQUIRE(b.root);
    std::vector<wpr::finding> fa;
    std::vector<wpr::finding> fb;
    wpr::validate(a, fa);
    wpr::validate(b, fb);
    REQUIRE(fa.size() == 1);
    REQUIRE(fb.size() == 1);
    CHECK(fa[0].line == fb[0].line);
    CHECK(fa[0].column == fb[0].column);
    CHECK(fa[0].line == line_of(utf8, "CSwich"));
}

TEST_CASE("UTF-16 text of a .wprp: pairs become one code point, a lone surrogate U+FFFD, either byte order") {
    // é (U+00E9), € (U+20AC), 😀 (U+1F600 as D83D DE00), a lone high surrogate, z
    std::uint16_t const units[] = {0x00E9, 0x20AC, 0xD83D, 0xDE00, 0xD800, u'z'};
    std::string le;
    std::string be;
    for (auto u : units) {
        le += static_cast<char>(u & 0xFF), le += static_cast<char>(u >> 8);
        be += static_cast<char>(u >> 8), be += static_cast<char>(u & 0xFF);
    }
    std::string const expected = "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xEF\xBF\xBDz";
    CHECK(wpr::detail::utf16_to_utf8(le, true) == expected);
    CHECK(wpr::detail::utf16_to_utf8(be, false) == expected);
    CHECK(wpr::detail::utf16_to_utf8(le + "x", true) == expected); // an odd trailing byte is no code unit
}
