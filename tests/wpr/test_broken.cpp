// Broken profiles are refused naming the fault, the element and the line: XML that is not well-formed,
// the schema's rules (WPRControlProfiles.xsd: element order and counts, attributes, enumerations,
// patterns, ranges, unique Ids and values), names no public source gives a value for, and lowering
// faults. The texts are written here, in the shape of the public profiles the other tests cite.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "wpr_support.hpp"

using namespace wpr_test;

namespace {
std::string const profile_tail =
    "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">\n"
    "<Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"SP\"/></SystemCollectorId></Collectors>\n"
    "</Profile>\n";
std::string const collector = "<SystemCollector Id=\"SC\" Name=\"sc\"><BufferSize Value=\"64\"/><Buffers Value=\"4\"/></SystemCollector>\n";

/// A profile whose system provider is `provider` (Id SP).
std::string with_provider(std::string const& provider) { return wprp(collector + provider + profile_tail); }

struct expected_fault {
    wpr::check what;
    std::string element;
    std::string needle; ///< the text whose line and column the finding must point at
    std::string text;   ///< a part of the message
};

void refused(std::string const& text, expected_fault const& e) {
    CAPTURE(text);
    auto const r = load_text(text, request("P"));
    INFO(all(r.findings));
    CHECK_FALSE(r.plan);
    auto const hits = of(r.findings, e.what);
    REQUIRE(hits.size() == 1);
    auto const& f = hits[0];
    CHECK(f.level == wpr::severity::error);
    CHECK(f.file == "test.wprp");
    CHECK(f.element == e.element);
    CHECK(f.line == line_of(text, e.needle));
    CHECK(f.column == column_of(text, e.needle));
    CHECK(contains(f.text, e.text));
    CHECK(count(r.findings, wpr::severity::error) == 1); // one fault, one error
}
} // namespace

TEST_CASE("an unknown keyword: the schema's enumeration, with the nearest keyword") {
    refused(with_provider("<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"ProcessThread\"/>\n<Keyword Value=\"CSwich\"/></Keywords></SystemProvider>\n"),
            {wpr::check::value, "Keyword", "Value=\"CSwich\"",
             "Value: 'CSwich' is not a SystemProvider keyword of WPR's schema; did you mean 'CSwitch'?"});
    // a case variant: WPR's schema is case-sensitive; the spelling it has is named
    refused(with_provider("<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"cswitch\"/></Keywords></SystemProvider>\n"),
            {wpr::check::value, "Keyword", "Value=\"cswitch\"", "did you mean 'CSwitch'?"});
    // the docs' spelling of a keyword the schema spells otherwise
    refused(with_provider("<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"DiskIOInitialization\"/></Keywords></SystemProvider>\n"),
            {wpr::check::value, "Keyword", "Value=\"DiskIOInitialization\"", "is not a SystemProvider keyword"});
}

TEST_CASE("a misspelt stack: did you mean; xperf's spelling names WPR's") {
    refused(with_provider("<SystemProvider Id=\"SP\"><Stacks>\n<Stack Value=\"SampledProfil\"/></Stacks></SystemProvider>\n"),
            {wpr::check::value, "Stack", "Value=\"SampledProfil\"",
             "'SampledProfil' is not a Stack name of WPR's schema; did you mean 'SampledProfile'?"});
    refused(with_provider("<SystemProvider Id=\"SP\"><Stacks>\n<Stack Value=\"VirtualAlloc\"/></Stacks></SystemProvider>\n"),
            {wpr::check::value, "Stack", "Value=\"VirtualAlloc\"", "'VirtualAlloc' is xperf's name, WPR's is 'VirtualAllocation'"});
}

TEST_CASE("a name of WPR's schema that no public source gives a value for is refused by name, never guessed") {
    refused(with_provider("<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"Loader\"/>\n<Keyword Value=\"HvHypercalls\"/></Keywords></SystemProvider>\n"),
            {wpr::check::no_value, "Keyword", "Value=\"HvHypercalls\"",
             "'HvHypercalls' is a SystemProvider keyword of WPR's schema whose group-mask value no public source gives"});
    refused(with_provider("<SystemProvider Id=\"SP\"><Stacks><Stack Value=\"ThreadSetIdealProcessor\"/></Stacks></SystemProvider>\n"),
            {wpr::check::no_value, "Stack", "Value=\"ThreadSetIdealProcessor\"", "CustomStack"});
    // schema-valid where no profile uses it: the file is fine
    std::string const unused = wprp(collector + "<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"Loader\"/></Keywords></SystemProvider>\n"
                                                "<SystemProvider Id=\"SP_unused\"><Keywords><Keyword Value=\"IdealProcessor\"/></Keywords></SystemProvider>\n" +
                                    profile_tail);
    CHECK(load_text(unused, request("P")).plan);
}

TEST_CASE("XML that is not well-formed: pugixml's reason, the line, and the text there") {
    std::string const unclosed = with_provider("<SystemProvider Id=\"SP\">\n<Keywords>\n<Keyword Value=\"Loader\"/>\n</SystemProvider>\n");
    auto const r = load_text(unclosed, request("P"));
    CHECK_FALSE(r.plan);
    auto const x = of(r.findings, wpr::check::xml);
    REQUIRE(x.size() == 1);
    CHECK(x[0].line == line_of(unclosed, "</SystemProvider>"));
    CHECK(contains(x[0].text, "not well-formed XML"));
    CHECK(contains(x[0].text, "</SystemProvider>"));
    CHECK(r.findings.size() == 1); // nothing else is read
    std::string const garbage = "<WindowsPerformanceRecorder Version=\"1\"><Profiles>\n<Profile Id=\"a\" Name=\"b\"";
    auto const g = load_text(garbage, request("P"));
    REQUIRE(of(g.findings, wpr::check::xml).size() == 1);
    CHECK(of(g.findings, wpr::check::xml)[0].line == 2);
}

TEST_CASE("a missing base is an error naming it") {
    refused(with_provider("<SystemProvider Id=\"SP\" Base=\"SP_Common\"/>\n"),
            {wpr::check::base_unknown, "SystemProvider", "Base=\"SP_Common\"", "Base 'SP_Common' names no <SystemProvider>"});
}

TEST_CASE("bad numbers and out-of-range values name the attribute and the range") {
    refused(wprp("<SystemCollector Id=\"SC\" Name=\"sc\">\n<BufferSize Value=\"12x\"/></SystemCollector>\n"
                 "<SystemProvider Id=\"SP\"/>\n" + profile_tail),
            {wpr::check::value, "BufferSize", "Value=\"12x\"", "Value: '12x' is not a number in 0..4294967295 (xs:unsignedInt)"});
    refused(wprp("<SystemCollector Id=\"SC\" Name=\"sc\">\n<FileMax Value=\"17\"/></SystemCollector>\n<SystemProvider Id=\"SP\"/>\n" + profile_tail),
            {wpr::check::value, "FileMax", "Value=\"17\"", "'17' is not a number in 0..16"});
    refused(wprp("<SystemCollector Id=\"SC\" Name=\"sc\">\n<Buffers Value=\"ten\"/></SystemCollector>\n<SystemProvider Id=\"SP\"/>\n" + profile_tail),
            {wpr::check::value, "Buffers", "Value=\"ten\"", "'ten' is not a decimal number"});
    refused(with_provider("<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"Loader\"/><CustomKeyword Value=\"0x123456789\"/></Keywords></SystemProvider>\n"),
            {wpr::check::value, "CustomKeyword", "Value=\"0x123456789\"", "0x and 1 to 8 hex digits"});
    refused(wprp(collector + "<SystemProvider Id=\"SP\"/>\n<HardwareCounter Id=\"HC\"><SampledCounters>\n"
                             "<SampledCounter Value=\"TotalCycles\" Interval=\"1000\"/></SampledCounters></HardwareCounter>\n" + profile_tail),
            {wpr::check::value, "SampledCounter", "Interval=\"1000\"", "'1000' is not an interval in 1221..2147483647"});
    refused(wprp(collector + "<SystemProvider Id=\"SP\"/>\n<EventProvider Id=\"E\" Name=\"x\" Level=\"256\"/>\n" + profile_tail),
            {wpr::check::value, "EventProvider", "Level=\"256\"", "'256' is not a number in 0..255"});
    refused(wprp(collector + "<SystemProvider Id=\"SP\"/>\n" +
                 "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memroy\">\n"
                 "<Collectors><SystemCollectorId Value=\"SC\"/></Collectors></Profile>\n"),
            {wpr::check::value, "Profile", "LoggingMode=\"Memroy\"", "'Memroy' is not one of File, Memory; did you mean 'Memory'?"});
    refused(wprp("<SystemCollector Id=\"S C\" Name=\"sc\"/>\n<SystemProvider Id=\"SP\"/>\n" + profile_tail),
            {wpr::check::value, "SystemCollector", "Id=\"S C\"", "is not an IdType"});
    // a fraction of a buffer is schema-valid (xs:decimal) but means nothing without PercentageOfTotalMemory
    refused(wprp("<SystemCollector Id=\"SC\" Name=\"sc\">\n<Buffers Value=\"2.5\"/></SystemCollector>\n<SystemProvider Id=\"SP\"/>\n" + profile_tail),
            {wpr::check::value, "Buffers", "Value=\"2.5\"", "not a whole number of buffers"});
    refused(with_provider("<SystemProvider Id=\"SP\"><Stacks><CustomStack Value=\"0x12345\"/></Stacks></SystemProvider>\n"),
            {wpr::check::value, "CustomStack", "Value=\"0x12345\"", "is not a hook id (16 bits"});
}

TEST_CASE("the schema's element order, counts and attributes") {
    refused(wprp("<SystemCollector Id=\"SC\" Name=\"sc\"><Buffers Value=\"4\"/>\n<BufferSize Value=\"64\"/></SystemCollector>\n"
                 "<SystemProvider Id=\"SP\"/>\n" + profile_tail),
            {wpr::check::element, "BufferSize", "<BufferSize", "element order: <BufferSize> comes after <Buffers>"});
    // providers before collectors
    refused(wprp("<SystemProvider Id=\"SP\"/>\n" + collector + profile_tail),
            {wpr::check::element, "SystemCollector", "<SystemCollector", "the schema's order in <Profiles> is: SystemCollector, EventCollector"});
    refused(with_provider("<SystemProvider Id=\"SP\"><Keywrods><Keyword Value=\"Loader\"/></Keywrods></SystemProvider>\n"),
            {wpr::check::element, "Keywrods", "<Keywrods", "<Keywrods> is not allowed in <SystemProvider>; did you mean 'Keywords'?"});
    refused(with_provider("<SystemProvider Id=\"SP\"><PoolTags><PoolTag Value=\"a\"/><PoolTag Value=\"b\"/><PoolTag Value=\"c\"/>"
                          "<PoolTag Value=\"d\"/>\n<PoolTag Value=\"e\"/></PoolTags></SystemProvider>\n"),
            {wpr::check::element, "PoolTag", "<PoolTag Value=\"e\"", "at most 4 <PoolTag> in <PoolTags>"});
    refused(with_provider("<SystemProvider Id=\"SP\">\n<Keywords></Keywords></SystemProvider>\n"),
            {wpr::check::element, "Keywords", "<Keywords>", "<Keywords> needs at least 1 <Keyword>"});
    refused(with_provider("<SystemProvider Id=\"SP\"><Keywords><Keyword Valu=\"Loader\"/></Keywords></SystemProvider>\n"),
            {wpr::check::attribute, "Keyword", "Valu=", "unknown attribute 'Valu'; did you mean 'Value'?"});
    refused(wprp(collector + "<SystemProvider Id=\"SP\"/>\n<EventProvider Id=\"E\"/>\n" + profile_tail),
            {wpr::check::attribute, "EventProvider", "<EventProvider", "missing required attribute 'Name'"});
    refused(wprp(collector + "<SystemProvider Id=\"SP\"/>\n"), // no Profile at all
            {wpr::check::element, "Profiles", "<Profiles>", "<Profiles> needs at least 1 <Profile>"});
    refused("<WindowsPerformanceRecorders Version=\"1\"/>",
            {wpr::check::element, "WindowsPerformanceRecorders", "<WindowsPerformanceRecorders", "the root element of a .wprp is <WindowsPerformanceRecorder>"});
}

TEST_CASE("Ids are unique across the file, whatever the element; values unique within a list") {
    std::string const twice = wprp(collector + "<SystemProvider Id=\"SP\"/>\n<EventProvider Id=\"SC\" Name=\"x\"/>\n" + profile_tail);
    refused(twice, {wpr::check::unique_id, "EventProvider", "Id=\"SC\" Name=\"x\"", "Id 'SC' is given twice in this file (first on <SystemCollector> at line 4)"});
    refused(with_provider("<SystemProvider Id=\"SP\"><Keywords><Keyword Value=\"Loader\"/>\n<Keyword Value=\"Loader\"/></Keywords></SystemProvider>\n"),
            {wpr::check::unique_value, "Keyword", "Value=\"Loader\"/></Keywords>", "'Loader' is given twice in this <Keywords>"});
}

TEST_CASE("a profile with no collector, and a documented attribute the schema lacks") {
    refused(wprp(collector + "<SystemProvider Id=\"SP\"/>\n<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" "
                             "LoggingMode=\"Memory\"/>\n"),
            {wpr::check::element, "Profile", "<Profile Id", "names no system or event collector"});
    // Profile@Strict is in WPR's docs but not in its schema: a warning, not carried
    std::string const strict = wprp(collector + "<SystemProvider Id=\"SP\"/>\n<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" "
                                                "DetailLevel=\"Verbose\" LoggingMode=\"Memory\" Strict=\"true\">\n"
                                                "<Collectors><SystemCollectorId Value=\"SC\"/></Collectors></Profile>\n");
    auto const r = load_text(strict, request("P"));
    REQUIRE(r.plan);
    auto const w = of(r.findings, wpr::check::attribute);
    REQUIRE(w.size() == 1);
    CHECK(w[0].level == wpr::severity::warning);
    CHECK(contains(w[0].text, "in WPR's docs but not in its schema"));
}

TEST_CASE("what the plan cannot carry is named, never dropped") {
    std::string const text = wprp(
        "<SystemCollector Id=\"SC\" Name=\"sc\" HostGuestCorrelation=\"true\"><BufferSize Value=\"64\"/><FileMax Value=\"3\"/></SystemCollector>\n"
        "<HypervisorEventCollector Id=\"HV\" Name=\"hv\"/>\n"
        "<SystemProvider Id=\"SP\" SuppressHighVolume=\"true\"><Keywords><Keyword Value=\"Loader\"/></Keywords>\n"
        "<CaptureStateOnSave><Keyword Value=\"Loader\" RundownFlag=\"Stop\"/></CaptureStateOnSave>\n"
        "<PoolTags><PoolTag Value=\"Tag1\"/></PoolTags></SystemProvider>\n"
        "<HardwareCounter Id=\"HC\"><ProcessorTrace><BufferSize Value=\"8\"/><CodeMode Value=\"User\"/></ProcessorTrace></HardwareCounter>\n"
        "<EventProvider Id=\"E\" Name=\"x\"><Stacks><Stack Value=\"CSwitch\"/></Stacks><CustomFilter Value=\"F\" Type=\"0x80000000\"/></EventProvider>\n"
        "<Profile Id=\"P.Verbose.Memory\" Name=\"P\" Description=\"d\" DetailLevel=\"Verbose\" LoggingMode=\"Memory\">\n"
        "<Collectors><SystemCollectorId Value=\"SC\"><SystemProviderId Value=\"SP\"/><HardwareCounterId Value=\"HC\"/>\n"
        "<EventProviders><EventProviderId Value=\"E\"/></EventProviders></SystemCollectorId>\n"
        "<HypervisorEventCollectorId Value=\"HV\"/></Collectors>\n"
        "<TraceMergeProperties><TraceMergeProperty Id=\"T\" Name=\"t\"/></TraceMergeProperties></Profile>\n");
    auto const r = load_text(text, request("P"));
    INFO(all(r.findings));
    REQUIRE(r.plan);
    std::vector<std::string> named;
    for (auto const& f : of(r.plan->warnings, wpr::check::not_carried)) named.push_back(f.element);
    std::vector<std::string> const expected = {"TraceMergeProperties", "HypervisorEventCollectorId", "SystemCollector", "FileMax",
                                               "CaptureStateOnSave", "PoolTags", "SystemProvider", "ProcessorTrace",
                                               "CustomFilter", "Stacks"};
    std::vector<std::string> sorted_named = named;
    std::vector<std::string> sorted_expected = expected;
    std::sort(sorted_named.begin(), sorted_named.end());
    std::sort(sorted_expected.begin(), sorted_expected.end());
    CHECK(sorted_named == sorted_expected);
    for (auto const& f : of(r.plan->warnings, wpr::check::not_carried)) CHECK(contains(f.text, "(not carried)"));
}
