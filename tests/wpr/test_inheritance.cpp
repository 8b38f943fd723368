// Inheritance: Base= chains and Operation="Set|Add|Remove" (learn.microsoft.com windows-hardware/test/wpt
// inheritance and 1-collector-definitions; WPRControlProfiles.xsd for Remove), within a file and across
// the base files a caller passes; WPR's built-in bases; unknown bases; cycles. The shapes follow public
// profiles: SystemProviders extended with Keywords Operation="Add" (microsoft/MSO-Scripts src/WPRP/*.wprp),
// a profile removing collectors with Collectors Operation="Remove" (the WPT's gpuview/log.wprp, in
// github.com/ktjjang/WPA), references with in-place overrides (the WPT's SampleWPRControlProfiles.wprp).
// The texts are written here.
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "wpr_support.hpp"

using namespace wpr_test;

namespace {
// A system collector and a profile around the system providers under test; the profile uses `use`.
std::string with_profile(std::string const& providers, std::string const& use, std::string const& more_collectors = {}) {
    return wprp("<SystemCollector Id=\"SC\" Name=\"sc\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></SystemCollector>\n" +
                more_collectors + providers +
                "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">\n"
                "<Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"" +
                use + "\"/></SystemCollectorId></Collectors>\n</Profile>\n");
}

std::string const base_provider = "<SystemProvider Id=\"SP_Base\">\n"
                                   "<Keywords><Keyword Value=\"ProcessThread\"/><Keyword Value=\"Loader\"/><Keyword Value=\"CSwitch\"/></Keywords>\n"
                                   "<Stacks><Stack Value=\"CSwitch\"/><Stack Value=\"ReadyThread\"/></Stacks>\n"
                                   "</SystemProvider>\n";

wpr::system_plan system_of(std::string const& text) {
    auto const r = load_text(text, request("P"));
    INFO(all(r.findings));
    REQUIRE(r.plan);
    REQUIRE(r.plan->system);
    return *r.plan->system;
}
} // namespace

TEST_CASE("Set (the default): the derived list replaces the inherited one") {
    for (std::string const op : {"", " Operation=\"Set\""}) {
        CAPTURE(op);
        auto const s = system_of(with_profile(base_provider + "<SystemProvider Id=\"SP\" Base=\"SP_Base\"><Keywords" + op +
                                                  "><Keyword Value=\"ReadyThread\"/></Keywords></SystemProvider>\n",
                                              "SP"));
        CHECK(s.keywords == std::vector<std::string>{"ReadyThread"});
        CHECK(s.flags.masks[0] == 0x800U);
        CHECK(hooks(s.stacks) == std::vector<std::uint16_t>{0x0524, 0x0532}); // Stacks not restated: inherited
    }
}

TEST_CASE("Add: the derived items join the inherited ones, each once") {
    auto const s = system_of(with_profile(base_provider +
                                              "<SystemProvider Id=\"SP\" Base=\"SP_Base\">\n"
                                              "<Keywords Operation=\"Add\"><Keyword Value=\"ReadyThread\"/><Keyword Value=\"Loader\"/></Keywords>\n"
                                              "<Stacks Operation=\"Add\"><Stack Value=\"SampledProfile\"/></Stacks>\n"
                                              "</SystemProvider>\n",
                                          "SP"));
    CHECK(s.keywords == std::vector<std::string>{"ProcessThread", "Loader", "CSwitch", "ReadyThread"});
    CHECK(s.flags.masks[0] == 0x817U);
    CHECK(hooks(s.stacks) == std::vector<std::uint16_t>{0x0524, 0x0532, 0x0F2E});
}

TEST_CASE("Remove: the derived items leave the inherited list") {
    auto const s = system_of(with_profile(base_provider +
                                              "<SystemProvider Id=\"SP\" Base=\"SP_Base\">\n"
                                              "<Keywords Operation=\"Remove\"><Keyword Value=\"Loader\"/><Keyword Value=\"SampledProfile\"/></Keywords>\n"
                                              "<Stacks Operation=\"Remove\"><Stack Value=\"CSwitch\"/></Stacks>\n"
                                              "</SystemProvider>\n",
                                          "SP"));
    CHECK(s.keywords == std::vector<std::string>{"ProcessThread", "CSwitch"}); // removing an absent item changes nothing
    CHECK(s.flags.masks[0] == 0x13U);
    CHECK(hooks(s.stacks) == std::vector<std::uint16_t>{0x0532});
}

TEST_CASE("operations in sequence within one object: Add then Remove") {
    auto const s = system_of(with_profile("<SystemProvider Id=\"SP\">\n"
                                          "<Keywords Operation=\"Add\"><Keyword Value=\"Loader\"/><Keyword Value=\"CSwitch\"/></Keywords>\n"
                                          "<Keywords Operation=\"Remove\"><Keyword Value=\"Loader\"/></Keywords>\n"
                                          "</SystemProvider>\n",
                                          "SP"));
    CHECK(s.keywords == std::vector<std::string>{"CSwitch"});
}

TEST_CASE("a chain of bases: each level overrides what it restates, inherits the rest") {
    std::string const collectors =
        "<SystemCollector Id=\"C1\" Name=\"one\"><BufferSize Value=\"256\"/><Buffers Value=\"10\"/><FlushTimer Value=\"5\"/></SystemCollector>\n"
        "<SystemCollector Id=\"C2\" Base=\"C1\" Name=\"two\"><Buffers Value=\"20\"/></SystemCollector>\n"
        "<SystemCollector Id=\"C3\" Base=\"C2\"><BufferSize Value=\"1024\"/></SystemCollector>\n";
    std::string const providers = base_provider +
                                  "<SystemProvider Id=\"SP2\" Base=\"SP_Base\"><Keywords Operation=\"Add\"><Keyword Value=\"Pool\"/></Keywords></SystemProvider>\n"
                                  "<SystemProvider Id=\"SP3\" Base=\"SP2\"><Keywords Operation=\"Add\"><Keyword Value=\"Timer\"/></Keywords></SystemProvider>\n";
    std::string const text = wprp(collectors + providers +
                                  "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">\n"
                                  "<Collectors><SystemCollectorId Value=\"C3\"><SystemProviderId Value=\"SP3\"/></SystemCollectorId></Collectors>\n"
                                  "</Profile>\n");
    auto const s = system_of(text);
    CHECK(s.session.buffer_size_kb == 1024); // C3
    CHECK(s.session.maximum_buffers == 20);  // C2
    CHECK(s.session.flush_timer_s == 5);     // C1
    CHECK(s.session.collector_name == "two"); // the Name attribute is inherited too
    CHECK(s.keywords == std::vector<std::string>{"ProcessThread", "Loader", "CSwitch", "Pool", "Timer"});
    CHECK(s.flags.masks[1] == 0x40U);   // Pool
    CHECK(s.flags.masks[2] == 0x20000U); // Timer
}

TEST_CASE("a reference's in-place children apply over the object it names") {
    std::string const text =
        wprp("<SystemCollector Id=\"SC\" Name=\"sc\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></SystemCollector>\n" + base_provider +
             "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">\n"
             "<Collectors><SystemCollectorId Value=\"SC\"><Buffers Value=\"12\"/>\n"
             "<SystemProviderId Value=\"SP_Base\"><Keywords Operation=\"Add\"><Keyword Value=\"DiskIO\"/></Keywords></SystemProviderId>\n"
             "</SystemCollectorId></Collectors>\n</Profile>\n");
    auto const s = system_of(text);
    CHECK(s.session.buffer_size_kb == 64);
    CHECK(s.session.maximum_buffers == 12);
    CHECK(s.keywords == std::vector<std::string>{"ProcessThread", "Loader", "CSwitch", "DiskIO"});
}

TEST_CASE("providers: attributes inherited unless restated; EventProviders and Collectors Remove in a derived profile") {
    std::string const text = wprp(
        "<EventCollector Id=\"EC1\" Name=\"first\"><BufferSize Value=\"64\"/></EventCollector>\n"
        "<EventCollector Id=\"EC2\" Name=\"second\"><BufferSize Value=\"32\"/></EventCollector>\n"
        "<EventProvider Id=\"A\" Name=\"11111111-2222-3333-4444-555555555555\" Level=\"4\" Stack=\"true\" SID=\"true\">"
        "<Keywords><Keyword Value=\"0x30\"/></Keywords></EventProvider>\n"
        "<EventProvider Id=\"A2\" Name=\"11111111-2222-3333-4444-555555555555\" Base=\"A\" Stack=\"false\"/>\n"
        "<EventProvider Id=\"B\" Name=\"Contoso-B\"/>\n"
        "<Profile Id=\"P.Verbose.File\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"File\">\n"
        "<Collectors>\n"
        "<EventCollectorId Value=\"EC1\"><EventProviders><EventProviderId Value=\"A2\"/><EventProviderId Value=\"B\"/></EventProviders></EventCollectorId>\n"
        "<EventCollectorId Value=\"EC2\"><EventProviders><EventProviderId Value=\"B\"/></EventProviders></EventCollectorId>\n"
        "</Collectors>\n</Profile>\n"
        "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\" Base=\"P.Verbose.File\">\n"
        "<Collectors Operation=\"Remove\"><EventCollectorId Value=\"EC2\"/></Collectors>\n"
        "<Collectors Operation=\"Add\"><EventCollectorId Value=\"EC1\">"
        "<EventProviders Operation=\"Remove\"><EventProviderId Value=\"B\"/></EventProviders></EventCollectorId></Collectors>\n"
        "</Profile>\n");
    auto const file = load_text(text, request("P", wpr::logging_mode::file));
    INFO(all(file.findings));
    REQUIRE(file.plan);
    REQUIRE(file.plan->event_sessions.size() == 2);
    auto const& a2 = file.plan->event_sessions[0].providers.at(0);
    CHECK(a2.id == "A2");
    CHECK(a2.level == 4);               // inherited
    CHECK(a2.match_any == 0x30U);       // inherited
    CHECK(a2.enable_property == etwctl::enable_property::sid); // Stack restated false, SID inherited
    CHECK(file.plan->event_sessions[0].providers.size() == 2);

    auto const memory = load_text(text, request("P"));
    INFO(all(memory.findings));
    REQUIRE(memory.plan);
    REQUIRE(memory.plan->event_sessions.size() == 1); // EC2 removed
    CHECK(memory.plan->event_sessions[0].collector_id == "EC1");
    REQUIRE(memory.plan->event_sessions[0].providers.size() == 1); // B removed from EC1
    CHECK(memory.plan->event_sessions[0].providers[0].id == "A2");
}

TEST_CASE("an unresolved built-in base is a warning naming it; the object's own definitions still apply") {
    std::string const text = with_profile("<SystemProvider Id=\"SP\" Base=\"SystemProvider_Base\">\n"
                                          "<Keywords Operation=\"Add\"><Keyword Value=\"CSwitch\"/></Keywords></SystemProvider>\n",
                                          "SP");
    auto const r = load_text(text, request("P"));
    REQUIRE(r.plan);
    auto const w = of(r.findings, wpr::check::base_builtin);
    REQUIRE(w.size() == 1);
    CHECK(w[0].level == wpr::severity::warning);
    CHECK(w[0].line == line_of(text, "Base=\"SystemProvider_Base\""));
    CHECK(w[0].column == column_of(text, "Base=\"SystemProvider_Base\""));
    CHECK(w[0].element == "SystemProvider");
    CHECK(contains(w[0].text, "'SystemProvider_Base'"));
    CHECK(contains(w[0].text, "wpr -exportprofile"));
    CHECK(r.plan->system->keywords == std::vector<std::string>{"CSwitch"});
    CHECK(of(r.plan->warnings, wpr::check::base_builtin).size() == 1);
}

TEST_CASE("a base that is neither in the files nor a built-in name is an error naming it, with the nearest Id") {
    std::string const text = with_profile(base_provider + "<SystemProvider Id=\"SP\" Base=\"SP_Bsae\"/>\n", "SP");
    auto const r = load_text(text, request("P"));
    CHECK_FALSE(r.plan);
    auto const e = of(r.findings, wpr::check::base_unknown);
    REQUIRE(e.size() == 1);
    CHECK(e[0].level == wpr::severity::error);
    CHECK(e[0].line == line_of(text, "Base=\"SP_Bsae\""));
    CHECK(e[0].text == "Base 'SP_Bsae' names no <SystemProvider> in the files given, and it is not one of WPR's built-in names; "
                       "did you mean 'SP_Base'?");
    // the same for a reference
    std::string const ref = with_profile(base_provider, "SP_Nothing");
    auto const r2 = load_text(ref, request("P"));
    CHECK_FALSE(r2.plan);
    REQUIRE(of(r2.findings, wpr::check::reference_unknown).size() == 1);
    CHECK(of(r2.findings, wpr::check::reference_unknown)[0].line == line_of(ref, "<SystemProviderId Value=\"SP_Nothing\""));
}

TEST_CASE("a Base cycle is refused, naming the chain") {
    std::string const text = with_profile("<SystemProvider Id=\"SP_A\" Base=\"SP_B\"/>\n"
                                          "<SystemProvider Id=\"SP_B\" Base=\"SP_C\"/>\n"
                                          "<SystemProvider Id=\"SP_C\" Base=\"SP_A\"/>\n",
                                          "SP_A");
    auto const r = load_text(text, request("P"));
    CHECK_FALSE(r.plan);
    auto const e = of(r.findings, wpr::check::base_cycle);
    REQUIRE(e.size() == 1);
    CHECK(e[0].text == "Base chain loops: SP_A -> SP_B -> SP_C -> SP_A; a Base chain must end");
    CHECK(e[0].line == line_of(text, "Base=\"SP_A\""));
    // an object that is its own base
    auto const self = load_text(with_profile("<SystemProvider Id=\"SP\" Base=\"SP\"/>\n", "SP"), request("P"));
    CHECK_FALSE(self.plan);
    REQUIRE(of(self.findings, wpr::check::base_cycle).size() == 1);
    CHECK(contains(of(self.findings, wpr::check::base_cycle)[0].text, "SP -> SP"));
    // profiles too
    std::string const profiles = wprp(
        "<EventCollector Id=\"EC\" Name=\"e\"/>\n"
        "<Profile Id=\"X.Verbose.File\" Name=\"X\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"File\" Base=\"X.Verbose.Memory\"/>\n"
        "<Profile Id=\"X.Verbose.Memory\" Name=\"X\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\" Base=\"X.Verbose.File\"/>\n");
    auto const pr = load_text(profiles, request("X"));
    CHECK_FALSE(pr.plan);
    CHECK(of(pr.findings, wpr::check::base_cycle).size() == 1);
}

TEST_CASE("a Base of another kind of object is refused") {
    std::string const text = wprp(
        "<EventCollector Id=\"EC\" Name=\"e\"/>\n"
        "<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"Loader\"/></Keywords></SystemProvider>\n"
        "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\" Base=\"SP\">\n"
        "<Collectors><EventCollectorId Value=\"EC\"/></Collectors></Profile>\n");
    auto const r = load_text(text, request("P"));
    CHECK_FALSE(r.plan);
    auto const e = of(r.findings, wpr::check::base_kind);
    REQUIRE(e.size() == 1);
    CHECK(contains(e[0].text, "'SP' is a <SystemProvider>"));
    CHECK(contains(e[0].text, "not a <Profile>"));
}

TEST_CASE("bases from a base file; the profile's own file wins over a base file's object of the same Id") {
    std::string const base_file = wprp(
        "<SystemCollector Id=\"Shared_SC\" Name=\"shared\"><BufferSize Value=\"512\"/><Buffers Value=\"30\"/></SystemCollector>\n"
        "<SystemProvider Id=\"Shared_SP\"><Keywords><Keyword Value=\"Registry\"/></Keywords></SystemProvider>\n"
        "<SystemProvider Id=\"Local_SP\"><Keywords><Keyword Value=\"Pool\"/></Keywords></SystemProvider>\n"
        "<Profile Id=\"Shared.Verbose.Memory\" Name=\"Shared\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">\n"
        "<Collectors><SystemCollectorId Value=\"Shared_SC\"><SystemProviderId Value=\"Shared_SP\"/></SystemCollectorId></Collectors></Profile>\n");
    std::string const main = wprp(
        "<SystemProvider Id=\"Local_SP\" Base=\"Shared_SP\"><Keywords Operation=\"Add\"><Keyword Value=\"Loader\"/></Keywords></SystemProvider>\n"
        "<Profile Id=\"Mine.Verbose.Memory\" Name=\"Mine\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\" Base=\"Shared.Verbose.Memory\">\n"
        "<Collectors Operation=\"Add\"><SystemCollectorId Value=\"Shared_SC\"><SystemProviderId Value=\"Local_SP\"/></SystemCollectorId></Collectors>\n"
        "</Profile>\n");
    auto const r = load_text(main, request("Mine"), {base_file});
    INFO(all(r.findings));
    REQUIRE(r.plan);
    REQUIRE(r.plan->system);
    CHECK(r.plan->system->session.buffer_size_kb == 512);
    CHECK(r.plan->system->keywords == std::vector<std::string>{"Registry", "Loader"}); // the main file's Local_SP
    // without the base file: an error naming the profile base (not a built-in name)
    auto const alone = load_text(main, request("Mine"));
    CHECK_FALSE(alone.plan);
    CHECK(of(alone.findings, wpr::check::base_unknown).size() == 2); // Shared.Verbose.Memory and Shared_SP
    CHECK(of(alone.findings, wpr::check::reference_unknown).size() == 1); // Shared_SC
}

TEST_CASE("Operation Add on a single setting is used as Set, and said so") {
    std::string const text =
        wprp("<SystemCollector Id=\"SC\" Name=\"sc\"><BufferSize Value=\"64\"/></SystemCollector>\n"
             "<SystemCollector Id=\"SC2\" Base=\"SC\"><BufferSize Operation=\"Add\" Value=\"32\"/></SystemCollector>\n"
             "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">\n"
             "<Collectors><SystemCollectorId Value=\"SC2\"/></Collectors></Profile>\n");
    auto const r = load_text(text, request("P"));
    REQUIRE(r.plan);
    CHECK(r.plan->system->session.buffer_size_kb == 32);
    auto const w = of(r.findings, wpr::check::reading);
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == line_of(text, "<BufferSize Operation=\"Add\""));
    CHECK(contains(w[0].text, "Operation='Set'"));
}

TEST_CASE("two entries for one provider in a session are one EnableTraceEx2: keywords ORed, the higher level, said so") {
    std::string const text = wprp(
        "<EventCollector Id=\"EC\" Name=\"e\"/>\n"
        "<EventProvider Id=\"A\" Name=\"aaaaaaaa-0000-0000-0000-000000000001\" Level=\"3\"><Keywords><Keyword Value=\"0x1\"/></Keywords></EventProvider>\n"
        "<EventProvider Id=\"B\" Name=\"{AAAAAAAA-0000-0000-0000-000000000001}\" Level=\"5\" Stack=\"true\"><Keywords><Keyword Value=\"0x4\"/></Keywords></EventProvider>\n"
        "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">\n"
        "<Collectors><EventCollectorId Value=\"EC\"><EventProviders><EventProviderId Value=\"A\"/><EventProviderId Value=\"B\"/>"
        "</EventProviders></EventCollectorId></Collectors></Profile>\n");
    auto const r = load_text(text, request("P"));
    REQUIRE(r.plan);
    REQUIRE(r.plan->event_sessions.at(0).providers.size() == 1);
    auto const& p = r.plan->event_sessions[0].providers[0];
    CHECK(p.id == "A");
    CHECK(p.match_any == 0x5U);
    CHECK(p.level == 5);
    CHECK(p.enable_property == etwctl::enable_property::stack_trace);
    REQUIRE(of(r.findings, wpr::check::reading).size() == 1);
    CHECK(contains(of(r.findings, wpr::check::reading)[0].text, "one EnableTraceEx2 per provider"));
}
