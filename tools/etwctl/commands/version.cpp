// etwctl version: the tool's and library's versions, the kernel in use, TraceVersionInfo.
#include <iostream>
#include <string>

#include "etwctl/config.hpp"
#include "etwctl/typed/query.hpp"

#include "commands.hpp"

#ifndef ETWCTL_TOOL_VERSION
#define ETWCTL_TOOL_VERSION "unknown"
#endif

namespace etwctl_tool {

int cmd_version(context const& ctx, tool_kernel& k, json_object& out) {
    if (ctx.cl.positional.size() != 1) return usage_error(ctx, "takes no arguments");
    auto const v = etwctl::query<etwctl::version>(k);
    std::string const kernel = ctx.simulated ? "simulated" : "native (Windows)";
    out.str("tool", ETWCTL_TOOL_VERSION)
        .str("library", std::to_string(ETWCTL_VERSION_MAJOR) + "." + std::to_string(ETWCTL_VERSION_MINOR) + "." +
                            std::to_string(ETWCTL_VERSION_PATCH))
        .str("kernel", kernel)
        .num("trace_processing_version", v ? *v : 0);
    if (!ctx.cl.json)
        std::cout << "etwctl " << ETWCTL_TOOL_VERSION << "\nkernel: " << kernel
                  << "\nTraceVersionInfo: EtwTraceProcessingVersion " << (v ? *v : 0) << "\n";
    return exit_ok;
}

} // namespace etwctl_tool
