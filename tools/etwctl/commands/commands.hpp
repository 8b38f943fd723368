// The commands: one file each in tools/etwctl/commands/. Each prints its text result (or fills `out`
// for --json) and returns the exit code; failures are reported through output.hpp.
#pragma once

#include <initializer_list>
#include <string_view>
#include <system_error>

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
/// etwctl session start|stop|list|query|flush|update: the xperf session verbs, one session a command.
int cmd_session(context const& ctx, tool_kernel& k, json_object& out);
/// etwctl wpr -start|-stop|-cancel|-status|-profiles|-check: WPR profiles (commands/wpr*.cpp; not in builds
/// without pugixml).
int cmd_wpr(context const& ctx, tool_kernel& k, json_object& out);
/// commands/current_windows.cpp: the classes of later Windows releases (limits, pmc owners).
int cmd_limits(context const& ctx, tool_kernel& k, json_object& out);
int cmd_pmc_owners(context const& ctx, tool_kernel& k, json_object& out);
/// The commands of issue 13: stack caching, last-branch recording, custom hardware counters.
int cmd_stackcache(context const& ctx, tool_kernel& k, json_object& out); // commands/stackcache.cpp
int cmd_lbr(context const& ctx, tool_kernel& k, json_object& out);        // commands/lbr.cpp
int cmd_pmc_add(context const& ctx, tool_kernel& k, json_object& out);    // commands/custom_counters.cpp
int cmd_pmc_remove(context const& ctx, tool_kernel& k, json_object& out);

/// True if the error says this Windows lacks the request: the typed API's rule::class_not_on_this_windows, or
/// STATUS_NOT_IMPLEMENTED / STATUS_INVALID_INFO_CLASS / STATUS_INVALID_DEVICE_REQUEST from a raw call.
bool not_on_this_windows(std::error_code const& ec);
/// Usage error (and its code) if an option or switch other than the given ones was given; else exit_ok.
int only_options(context const& ctx, std::initializer_list<std::string_view> valued,
                 std::initializer_list<std::string_view> switches);

/// Pure commands: no kernel involved.
int cmd_list(context const& ctx, json_object& out);
int cmd_decode_handle(context const& ctx, json_object& out);
/// etwctl trace dump|stats|stacks FILE (commands/trace.cpp): reads an .etl file; prints its own output.
int cmd_trace(context const& ctx);

} // namespace etwctl_tool
