// The session verbs of the xperf form and of `etwctl session`: -start, -update, -flush, -stop,
// -loggers (plan.hpp reads them; commands/xperf.cpp applies a plan group by group), on the library's
// typed session API (etwctl/sessions.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "etwctl/guid.hpp"

#include "../kernel_ref.hpp"
#include "../output.hpp"
#include "../plan.hpp"
#include "../text.hpp"

namespace etwctl_tool {

struct session_arg;

/// What the checks before the first call found out: each group's providers as GUIDs (in the order of
/// its -on; a *Name hashed, a manifest name looked up).
struct prepared_plan {
    std::vector<std::vector<etwctl::guid>> providers; ///< per group
};

/// Everything that can be known before a call is made: the providers' GUIDs, and each -start group's
/// session configuration against Windows' rules (session/checks.hpp through session_config). On failure
/// reports it (nothing sent) and returns the exit code.
int prepare_plan(context const& ctx, plan const& p, prepared_plan& out);

/// The sessions a line started, in order: if a later step fails they are stopped again (xperf: "If
/// one of the loggers fails to start, all the already started loggers are stopped").
struct session_run {
    struct started {
        std::string name;
        std::uint64_t handle = 0;
    };
    std::vector<started> sessions;
    std::vector<std::uint64_t> rolled_back; ///< handles stopped again after a failure
};

/// Applies one group that is not a running session's (-start, -update, -flush, -stop, -loggers).
int apply_session_group(context const& ctx, tool_kernel& k, group const& g, std::vector<etwctl::guid> const& providers,
                        session_run& run, std::vector<std::string>& results);

/// After a failure: stops the sessions this line started (in reverse order) and says so. Returns rc.
int roll_back_starts(context const& ctx, tool_kernel& k, session_run& run, int rc);

/// Runs one of the etwctl commands as a step (the xperf form and the command share the code); `started`:
/// the session the step is about, when the line started it. The step's JSON is added to results.
int run_command(context const& ctx, tool_kernel& k, std::vector<std::string> positional,
                std::vector<std::pair<std::string, std::string>> options, std::vector<std::string>& results,
                session_arg const* started = nullptr, etwctl::group_mask const* known_flags = nullptr);

/// The calls recorded from index `from` on that took effect (sent, succeeded, changed something), as
/// "#3 NtSetSystemInformation(...): class 0x01 EventTraceGroupMaskInformation"; calls on a session that
/// was stopped again (run.rolled_back) are left out, with that stop.
std::vector<std::string> calls_that_took_effect(tool_kernel const& k, std::size_t from, session_run const& run);

/// rc unchanged if nothing took effect since `from`; else names the calls and returns exit_partial.
int finish_partial(context const& ctx, tool_kernel const& k, std::size_t from, session_run const& run, int rc);

} // namespace etwctl_tool
