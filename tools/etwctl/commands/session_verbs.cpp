#include "session_verbs.hpp"

namespace etwctl_tool {

int apply_session_group(context const& ctx, tool_kernel&, group const& g, session_run&, std::vector<std::string>&) {
    // Until the library's session API is in: nothing is sent.
    return usage_error(ctx, g.opened_by + " is not available yet in this build: etwctl cannot start or stop sessions");
}

int roll_back_starts(context const&, tool_kernel&, session_run&, int rc) { return rc; }

} // namespace etwctl_tool
