// `etwctl wpr`: Windows Performance Recorder profiles (.wprp) on the library's etwctl/wpr/ (read, check,
// lower to a plan, apply through the session API). Built where pugixml is (ETWCTL_TOOL_WPR); the cross
// builds say the command is not in them. Shared by commands/wpr.cpp (the verbs, -start),
// commands/wpr_plan.cpp (-profiles, -check, the plan as text and JSON) and commands/wpr_sessions.cpp
// (-status, -stop, -cancel).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "etwctl/wpr/wpr.hpp"

#include "../kernel_ref.hpp"
#include "../output.hpp"

namespace etwctl_tool {

/// `etwctl wpr VERB [TARGET] [-filemode] [--base FILE]...`
struct wpr_args {
    std::string verb;                ///< -start, -stop, -cancel, -status, -profiles, -check
    std::string target;              ///< FILE[!Profile[.Light|.Verbose]], or -stop's OUT.etl; "" if none
    std::vector<std::string> bases;  ///< --base FILE, in order
    bool file_mode = false;          ///< -filemode: the File version of the profile
};

/// A plan read from the target (and --base files); every finding on stderr, warnings also in `warnings`
/// (JSON objects). On an error: the findings reported, nothing sent, the exit code returned.
int load_wpr_plan(context const& ctx, wpr_args const& a, std::optional<etwctl::wpr::plan>& out, std::vector<std::string>& warnings);

/// A finding as a JSON object {file, line, column, severity, check, element, text}.
std::string finding_json(etwctl::wpr::finding const& f);
/// Prints a warning on stderr ("etwctl: wpr: ...") and adds it to `warnings`.
void warn(context const& ctx, etwctl::wpr::finding const& f, std::vector<std::string>& warnings);

/// The plan as JSON (sessions with their properties, group mask, stack list, providers).
std::string plan_json(etwctl::wpr::plan const& p);
/// The plan as text, on stdout.
void print_plan(etwctl::wpr::plan const& p);

int wpr_profiles(context const& ctx, wpr_args const& a, json_object& out);                  // wpr_plan.cpp
int wpr_check(context const& ctx, wpr_args const& a, json_object& out);                     // wpr_plan.cpp
int wpr_status(context const& ctx, tool_kernel& k, wpr_args const& a, json_object& out);    // wpr_sessions.cpp
int wpr_stop(context const& ctx, tool_kernel& k, wpr_args const& a, json_object& out);      // wpr_sessions.cpp
int wpr_cancel(context const& ctx, tool_kernel& k, wpr_args const& a, json_object& out);    // wpr_sessions.cpp

} // namespace etwctl_tool
