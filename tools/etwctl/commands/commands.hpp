// The commands: one file each in tools/etwctl/commands/. Each prints its text result (or fills `out`
// for --json) and returns the exit code; failures are reported through output.hpp.
#pragma once

#include "../kernel_ref.hpp"
#include "../output.hpp"
#include "../text.hpp"

namespace etwctl_tool {

int cmd_profile_sources(context const& ctx, tool_kernel& k, json_object& out);
int cmd_interval(context const& ctx, tool_kernel& k, json_object& out);
int cmd_stackwalk(context const& ctx, tool_kernel& k, json_object& out);
int cmd_flags(context const& ctx, tool_kernel& k, json_object& out);
int cmd_pmc(context const& ctx, tool_kernel& k, json_object& out);
int cmd_version(context const& ctx, tool_kernel& k, json_object& out);
int cmd_xperf(context const& ctx, tool_kernel& k, json_object& out);
/// commands/current_windows.cpp: the classes of later Windows releases (limits, pmc owners).
int cmd_limits(context const& ctx, tool_kernel& k, json_object& out);
int cmd_pmc_owners(context const& ctx, tool_kernel& k, json_object& out);
/// Pure commands: no kernel involved.
int cmd_list(context const& ctx, json_object& out);
int cmd_decode_handle(context const& ctx, json_object& out);

} // namespace etwctl_tool
