// Reporting: usage errors, failures (rule / kernel status / partial), exit codes, hints.
#pragma once

#include <string>
#include <system_error>
#include <vector>

#include "etwctl/group_mask.hpp"

#include "cli.hpp"
#include "text.hpp"

namespace etwctl_tool {

/// With --json, a failure's object kept for main to print once, with what it adds (the requests of
/// --dry-run / --trace, the calls that took effect before a failure).
struct json_failure {
    bool set = false;
    int exit_code = 0;
    std::string error;                ///< the "error" member (an object)
    std::string details = "{}";       ///< the "details" member (an object)
    std::vector<std::string> applied; ///< "applied": the calls that took effect (exit code 4)
    std::string text(std::string const& requests) const; ///< the whole object; requests: a JSON array or ""
};

struct session_arg;

struct context {
    command_line const& cl;
    std::string command;
    bool simulated = false;
    json_failure* deferred = nullptr; ///< set: --json failures are kept here instead of printed
    /// Set when a command runs as a step of a session the same line started (xperf -start NAME -on ...
    /// -stackwalk ...): its SESSION argument is that session, by the handle StartTraceW returned.
    session_arg const* started_session = nullptr;
    /// Set when the same line sets the session's kernel flags before this step (-on FLAGS -stackwalk ...):
    /// the stack-walk group check uses them instead of asking the kernel.
    etwctl::group_mask const* known_flags = nullptr;
};

struct failure {
    int code = exit_ok;
    std::error_code ec;
    std::string message;     ///< what failed, in the tool's words
    json_object details;     ///< extra JSON members
    std::string hint;        ///< overrides the status's own hint
};

/// Prints a usage error (and the command's usage) and returns exit_usage.
int usage_error(context const& ctx, std::string const& message);

/// Exit code for an error: a broken rule (checked before the call) is 2, except the name-parsing
/// rules, which are usage errors; anything the kernel said is 3.
int exit_code_of(std::error_code const& ec);

/// Prints the failure (stderr; the error object on stdout with --json) and returns f.code.
int report_failure(context const& ctx, failure const& f);

} // namespace etwctl_tool
