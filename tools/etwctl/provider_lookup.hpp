// A manifest provider's GUID by its registered name (Microsoft-Windows-DxgKrnl), as xperf takes it:
// asked of the Windows the tool runs on (TdhEnumerateProviders, tdh.dll). The simulated machine has no
// provider registry, so there (and off Windows) the name is refused and the message says to give the GUID.
#pragma once

#include <string>
#include <string_view>

#include "etwctl/guid.hpp"

namespace etwctl_tool {

struct provider_lookup {
    bool found = false;
    etwctl::guid id{};
    std::string why; ///< when not found: the reason, in the tool's words
};

/// Looks the name up among the providers registered on this Windows (case-insensitive). `simulated`:
/// the run uses the simulated machine, whose providers this Windows' registry does not describe.
provider_lookup find_manifest_provider(std::string_view name, bool simulated);

} // namespace etwctl_tool
