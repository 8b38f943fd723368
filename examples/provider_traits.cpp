// Provider traits: a TraceLogging provider's name and provider group, built at compile time and set
// once through EventSetInformation (here the simulated one). The second set fails, and says so.
#include <cstdio>
#include <memory>

#include "etwctl/compat.hpp" // the drop-in functions (opt-in)
#include "etwctl/etwctl.hpp"
#include "etwctl/testing/sim_kernel.hpp"

int main() {
    using namespace etwctl;
    // The blob is a constant: 2 (size) + "MyCompany.Engine\0" (17) + group trait (19) = 38 bytes.
    constexpr guid group = guid::from_string("4f50731a-89cf-4782-b3e0-dce8c90476ba");
    constexpr auto traits = make_provider_traits("MyCompany.Engine", group);
    static_assert(traits.size() == 38 && traits.within_advised_size);

    auto kernel = std::make_unique<sim::kernel>();
    registration_handle const reg = kernel->register_provider();

    std::error_code ec = set<provider_traits>(*kernel, reg, traits);
    std::printf("set<provider_traits> (%zu bytes): %s\n", traits.size(), ec ? ec.message().c_str() : "ok");
    if (ec) return 1;

    provider_traits_info info;
    if (parse_provider_traits(kernel->traits(reg.value), info) != rule::ok || info.name != "MyCompany.Engine" ||
        !info.has_group || !(info.group == group))
        return 1;
    std::printf("the registration now carries name \"%.*s\" and a provider group\n", static_cast<int>(info.name.size()),
                info.name.data());

    // Traits can be set once per registration; etwctl reports the second attempt instead of hiding it.
    ec = set<provider_traits>(*kernel, reg, traits);
    std::printf("second set<provider_traits>: %s\n", ec ? ec.message().c_str() : "ok");
    if (!ec || to_win32(ec) != win32::gen_failure) return 1;

    // The drop-in form returns an HRESULT, as TraceLoggingSetInformation does.
    registration_handle const reg2 = kernel->register_provider();
    std::int32_t const hr = compat::tracelogging_set_information(*kernel, reg2.value, 2, traits.bytes, traits.size());
    std::printf("TraceLoggingSetInformation on a fresh registration: HRESULT 0x%08x\n", static_cast<unsigned>(hr));
    return hr == 0 ? 0 : 1;
}
