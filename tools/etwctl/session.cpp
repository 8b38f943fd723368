#include "session.hpp"

#include <cstdint>

#include "etwctl/request/logger_query.hpp"

#include "text.hpp"

namespace etwctl_tool {

int resolve_session(context const& ctx, tool_kernel& k, std::string_view s, session_arg& out) {
    if (ctx.started_session) { // a step of a session this line started: its handle, not a lookup
        out = *ctx.started_session;
        return exit_ok;
    }
    std::uint64_t n = 0;
    bool const numeric = !s.empty() && s[0] >= '0' && s[0] <= '9';
    if (iequals(s, "kernel") || iequals(s, "NT Kernel Logger")) {
        n = etwctl::limits::kernel_logger_id;
    } else if (numeric) {
        if (!parse_uint(s, 0xFFFF, n) || (n >= etwctl::limits::max_loggers && n != etwctl::limits::kernel_logger_id))
            return usage_error(ctx, "bad session '" + std::string(s) + "'");
    } else {
        // A session's name: the kernel says which logger it is.
        auto const h = etwctl::find_session(k, s);
        if (!h) {
            failure f{exit_code_of(h.error()), h.error(), "cannot find the session '" + std::string(s) + "'", {}, {}};
            if (etwctl::rule_of(h.error()) != etwctl::rule::ok) f.code = exit_usage;
            f.details.str("session", s);
            return report_failure(ctx, f);
        }
        out.handle = *h;
        out.text = "'" + std::string(s) + "' (logger " + std::to_string(h->logger().value) + ")";
        return exit_ok;
    }
    out.handle = etwctl::session_handle{n};
    out.text = n == etwctl::limits::kernel_logger_id ? std::string("NT Kernel Logger (0xFFFF)") : "logger " + std::to_string(n);
    return exit_ok;
}

} // namespace etwctl_tool
