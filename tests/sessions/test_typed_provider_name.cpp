// The provider-name hash (session/provider_name.hpp) against name / GUID pairs public sources publish,
// at compile time and at run time.
#include <cstdint>
#include <string>

#include "etwctl/sessions.hpp"
#include "etwctl_test.hpp"

using namespace etwctl;
using namespace etwctl::literals;

namespace {
struct published_pair {
    char const* name;
    guid id;
    char const* source;
};
// Each pair as its source prints it; none of the GUIDs below was computed here.
published_pair const published[] = {
    // TRACELOGGING_DEFINE_PROVIDER example of the traceloggingprovider.h header page (Microsoft Learn,
    // MicrosoftDocs sdk-api: "MyCompany.MyComponent" with // {ce5fa4ea-ab00-5402-8b76-9f76ac858fb5})
    {"MyCompany.MyComponent", "ce5fa4ea-ab00-5402-8b76-9f76ac858fb5"_guid, "traceloggingprovider.h docs"},
    // "TraceLogging C/C++ examples" (Microsoft Learn): "SimpleTraceLoggingProvider" // {0205c616-...}
    {"SimpleTraceLoggingProvider", "0205c616-cf97-5c11-9756-56a2cee02ca7"_guid, "TraceLogging C/C++ examples"},
    // dotnet/runtime RuntimeEventSource.cs: [EventSource(Guid = "49592C0F-...", Name = "System.Runtime")]
    {"System.Runtime", "49592C0F-5A05-516D-AA4B-A64E02026C89"_guid, "dotnet/runtime RuntimeEventSource"},
    // microsoft/PowerToys src/modules/.../trace.cpp: TRACELOGGING_DEFINE_PROVIDER(.., "Microsoft.PowerToys", {38e8889b-...})
    {"Microsoft.PowerToys", "38e8889b-9731-53f5-e901-e8a7c1753074"_guid, "microsoft/PowerToys trace.cpp"},
    // microsoft/perfview src/PerfView/CommandProcessor.cs: EnableUserProvider(.., "Microsoft-Diagnostics-DiagnosticSource", new Guid("adb401e1-..."))
    {"Microsoft-Diagnostics-DiagnosticSource", "adb401e1-5296-51f8-c125-5fda75826144"_guid, "PerfView CommandProcessor.cs"},
    {"Microsoft-AspNetCore-Hosting", "9e620d2a-55d4-5ade-deb7-c26046d245a8"_guid, "PerfView CommandProcessor.cs"},
};

std::string text(guid const& g) {
    char s[37];
    g.format(s);
    return s;
}
} // namespace

// The same pairs as constants: provider_name<"..."> is evaluated by the compiler.
static_assert(provider_name<"MyCompany.MyComponent"> == "ce5fa4ea-ab00-5402-8b76-9f76ac858fb5"_guid);
static_assert(provider_name<"SimpleTraceLoggingProvider"> == "0205c616-cf97-5c11-9756-56a2cee02ca7"_guid);
static_assert(provider_name<"System.Runtime"> == "49592c0f-5a05-516d-aa4b-a64e02026c89"_guid);
// Case-insensitive, as the algorithm upper-cases the name first.
static_assert(provider_name<"system.runtime"> == provider_name<"SYSTEM.RUNTIME">);
static_assert(provider_name<"a"> != provider_name<"b">);

TEST_CASE("provider name hash: the published name / GUID pairs") {
    for (auto const& p : published) {
        CAPTURE(p.name);
        CAPTURE(p.source);
        auto const r = provider_guid_from_name(p.name);
        REQUIRE(r.has_value());
        CHECK(text(*r) == text(p.id));
        // version 5 (name-based, SHA-1): the high nibble of Data3
        CHECK((r->data3 >> 12) == 5);
    }
}

TEST_CASE("provider name hash: names that span SHA-1 blocks and the padding boundary") {
    // 16 namespace bytes + 2 per character: 24 characters end the first block's data at 64 bytes; 20 at 56
    // (the length no longer fits: a second block); 19 leaves room. Each must differ from its neighbours
    // and be stable (compile time equals run time).
    static_assert(provider_name<"AAAAAAAAAAAAAAAAAAA"> != provider_name<"AAAAAAAAAAAAAAAAAAAA">);
    static_assert(provider_name<"AAAAAAAAAAAAAAAAAAAAAAAA"> != provider_name<"AAAAAAAAAAAAAAAAAAAAAAA">);
    CHECK(provider_guid_from_name("AAAAAAAAAAAAAAAAAAA").value() == provider_name<"AAAAAAAAAAAAAAAAAAA">);
    CHECK(provider_guid_from_name("AAAAAAAAAAAAAAAAAAAA").value() == provider_name<"AAAAAAAAAAAAAAAAAAAA">);
    CHECK(provider_guid_from_name("AAAAAAAAAAAAAAAAAAAAAAAA").value() == provider_name<"AAAAAAAAAAAAAAAAAAAAAAAA">);
    std::string const long_name(300, 'x');
    auto const r = provider_guid_from_name(long_name);
    REQUIRE(r.has_value());
    CHECK((r->data3 >> 12) == 5);
}

TEST_CASE("provider name hash: names it refuses, and why") {
    auto const empty = provider_guid_from_name("");
    CHECK(empty.error() == rule::provider_name_not_hashable);
    CHECK(describe(empty.error()).find("an empty name") != std::string::npos);

    auto const accented = provider_guid_from_name("Caf\xC3\xA9.Provider");
    CHECK(accented.error() == rule::provider_name_not_hashable);
    CHECK(describe(accented.error()) ==
          "provider name: character 3 is NUL or not ASCII; etwctl hashes ASCII names only (give the provider's "
          "GUID instead)");

    auto const nul = provider_guid_from_name(std::string_view("ab\0c", 4));
    CHECK(nul.error() == rule::provider_name_not_hashable);
    CHECK(nul.error() == win32_condition(win32::invalid_parameter));
}
