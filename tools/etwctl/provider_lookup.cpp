#include "provider_lookup.hpp"

#if defined(_WIN32)
#include <windows.h>
#include <tdh.h>

#include <vector>
#endif

namespace etwctl_tool {

provider_lookup find_manifest_provider(std::string_view name, bool simulated) {
    provider_lookup r;
    std::string const quoted = "'" + std::string(name) + "'";
    if (simulated) {
        r.why = "the manifest provider name " + quoted +
                " cannot be resolved on the simulated machine (it has no provider registry): give the provider's GUID, "
                "or *Name for an EventSource / TraceLogging provider";
        return r;
    }
#if defined(_WIN32)
    // TdhEnumerateProviders: a PROVIDER_ENUMERATION_INFO with one TRACE_PROVIDER_INFO per registered provider,
    // each naming a UTF-16 name at ProviderNameOffset. The size can grow between the calls: ask again.
    ULONG size = 0;
    ULONG e = TdhEnumerateProviders(nullptr, &size);
    std::vector<unsigned char> buffer;
    while (e == ERROR_INSUFFICIENT_BUFFER) {
        buffer.resize(size);
        e = TdhEnumerateProviders(reinterpret_cast<PROVIDER_ENUMERATION_INFO*>(buffer.data()), &size);
    }
    if (e != ERROR_SUCCESS) {
        r.why = "cannot list this Windows' providers to resolve " + quoted + " (TdhEnumerateProviders: Win32 " +
                std::to_string(e) + "): give the provider's GUID";
        return r;
    }
    auto const* info = reinterpret_cast<PROVIDER_ENUMERATION_INFO const*>(buffer.data());
    auto const lower = [](unsigned c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; };
    for (ULONG i = 0; i < info->NumberOfProviders; ++i) {
        TRACE_PROVIDER_INFO const& p = info->TraceProviderInfoArray[i];
        if (p.ProviderNameOffset + 2 > buffer.size()) continue;
        auto const* w = reinterpret_cast<wchar_t const*>(buffer.data() + p.ProviderNameOffset);
        std::size_t n = 0;
        bool same = true;
        for (; same && w[n] != 0 && n < name.size(); ++n)
            same = static_cast<unsigned>(w[n]) < 0x80 && lower(static_cast<unsigned>(w[n])) == lower(static_cast<unsigned char>(name[n]));
        if (same && n == name.size() && w[n] == 0) {
            r.id = etwctl::guid(p.ProviderGuid); // the SDK's GUID converts (guid_like)
            r.found = true;
            return r;
        }
    }
    r.why = "no provider named " + quoted + " is registered on this Windows (logman query providers lists them): give its GUID";
#else
    r.why = "the manifest provider name " + quoted + " is resolved by Windows, and this is not Windows: give the provider's GUID, "
            "or *Name for an EventSource / TraceLogging provider";
#endif
    return r;
}

} // namespace etwctl_tool
