// The simulated machine the tool runs against with --sim (or off Windows).
#pragma once

#include <string>
#include <string_view>

#include "etwctl/testing/sim_kernel.hpp"

namespace etwctl_tool {

/// The NT Kernel Logger running in system-logger mode with the flags of a typical CPU-profiling
/// session, privilege held. ETWCTL_SIM (comma-separated) changes it, so scripts and tests can exercise
/// refusals: no-privilege, flags=NAMES, logger=N[:NAME] (system-logger mode), user-logger=N[:NAME]
/// (not system-logger mode), paged-logger=N[:NAME], max-pmc=N, no-query-interval, pmc-events=NAMES
/// (the NT Kernel Logger's PMC event list already set, as by an earlier run), older-windows (a Windows
/// without the classes of issue 13 and custom profile sources), no-class=N (kernel class N missing),
/// stack-cache=N / unified-stack-cache=N (logger N's stack caching already enabled), custom-pmc=NAME
/// (a custom counter already added under NAME); for sessions: no-kernel-logger (the NT Kernel Logger does
/// not run), sessions=N (N more real-time sessions "sim logger <id>"), max-loggers=N (the machine's limit,
/// 1..64), not-elevated (a user outside Administrators and Performance Log Users).
/// kernel-logger: the NT Kernel Logger runs (a state file's fresh machine has none: --sim=STATEFILE).
bool configure_sim(etwctl::sim::kernel& k, std::string& error);
/// The same from a given spec (ETWCTL_SIM's value); `booted`: a state file's fresh machine, where the NT
/// Kernel Logger does not run unless the spec has kernel-logger (sim_state.hpp).
bool configure_sim(etwctl::sim::kernel& k, std::string_view spec, bool booted, std::string& error);

} // namespace etwctl_tool
