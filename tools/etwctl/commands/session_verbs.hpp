// The session verbs of the xperf form and of `etwctl session`: -start, -update, -flush, -stop,
// -loggers (plan.hpp reads them; commands/xperf.cpp applies a plan group by group).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../kernel_ref.hpp"
#include "../output.hpp"
#include "../plan.hpp"

namespace etwctl_tool {

/// The sessions a line started, in order: if a later -start fails they are stopped again (xperf: "If
/// one of the loggers fails to start, all the already started loggers are stopped").
struct session_run {
    struct started {
        std::string name;
        std::uint64_t handle = 0;
    };
    std::vector<started> sessions;
};

/// Applies one group that is not a running session's (-start, -update, -flush, -stop, -loggers).
int apply_session_group(context const& ctx, tool_kernel& k, group const& g, session_run& run, std::vector<std::string>& results);

/// After a failure: stops the sessions this line started (in reverse order) and says so. Returns rc.
int roll_back_starts(context const& ctx, tool_kernel& k, session_run& run, int rc);

/// The calls recorded from index `from` on that took effect (sent, succeeded, changed something), as
/// "#3 NtSetSystemInformation(...): class 0x01 EventTraceGroupMaskInformation".
std::vector<std::string> calls_that_took_effect(tool_kernel const& k, std::size_t from);

/// rc unchanged if nothing took effect since `from`; else names the calls and returns exit_partial.
int finish_partial(context const& ctx, tool_kernel const& k, std::size_t from, int rc);

} // namespace etwctl_tool
