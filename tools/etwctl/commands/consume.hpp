// etwctl session consume NAME [--json] [--events NAME,...] [--duration S]: consumes a real-time session
// (commands/consume.cpp; docs/tool.md, "Recording on the simulated machine").
#pragma once

#include "../output.hpp"

namespace etwctl_tool {

class sim_state_machine;

/// The command line is `session consume ...`.
bool is_session_consume(context const& ctx);

/// Consumes the session for S seconds: on `m` (the state file's machine: its simulated seconds, the
/// workload running); with m == nullptr, on Windows the real session (etwctl::trace::consume), elsewhere or
/// with --sim a one-command simulated machine (ETWCTL_SIM's, its NT Kernel Logger real time). Prints each
/// event as `trace dump` does (--json: JSON Lines), then the consume report on stderr.
int cmd_session_consume(context const& ctx, sim_state_machine* m);

} // namespace etwctl_tool
