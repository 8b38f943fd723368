// SESSION arguments: a logger id, the NT Kernel Logger, or a session's name (looked up with the
// trace-control query, request/logger_query.hpp).
#pragma once

#include <string>
#include <string_view>

#include "etwctl/types.hpp"

#include "kernel_ref.hpp"
#include "output.hpp"

namespace etwctl_tool {

struct session_arg {
    etwctl::session_handle handle;
    std::string text; ///< for messages
};

/// Resolves SESSION; on failure reports it and returns the exit code (exit_ok on success).
int resolve_session(context const& ctx, tool_kernel& k, std::string_view s, session_arg& out);

} // namespace etwctl_tool
