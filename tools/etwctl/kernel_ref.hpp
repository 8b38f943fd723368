// The tool's kernel: the commands are compiled once (tools/etwctl/commands/*.cpp), not once per kernel.
// They take a tool_kernel: the library's etwctl::kernel_ref (any kernel as one type: native_kernel or the
// simulated kernel) wrapped by recording_kernel, which keeps every request (--dry-run, --trace).
#pragma once

#include "etwctl/kernel/ref.hpp"

#include "recording_kernel.hpp"

namespace etwctl_tool {

using tool_kernel = recording_kernel<etwctl::kernel_ref>;

} // namespace etwctl_tool
