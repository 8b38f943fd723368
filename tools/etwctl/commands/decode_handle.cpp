// etwctl decode-handle: a classic provider's TRACE_ENABLE_CONTEXT, field by field.
#include <cstdint>
#include <iostream>
#include <string>

#include "etwctl/enable_context.hpp"
#include "etwctl/error.hpp"

#include "commands.hpp"

namespace etwctl_tool {

int cmd_decode_handle(context const& ctx, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() != 2) return usage_error(ctx, "expected one HANDLE");
    std::uint64_t h = 0;
    if (!parse_uint(p[1], ~std::uint64_t{0}, h)) return usage_error(ctx, "bad handle '" + p[1] + "': give a 64-bit number (0x...)");
    etwctl::enable_context const c{h};
    out.str("handle", hex(h, 16));
    if (auto const r = c.check(); r != etwctl::rule::ok) {
        failure f{exit_refused, etwctl::make_error_code(r), "not a valid enable context: " + hex(h, 16), {}, {}};
        f.details.num("logger_id", c.logger_id().value);
        return report_failure(ctx, f);
    }
    std::string const logger = c.logger_id().is_kernel_logger() ? "0xFFFF (NT Kernel Logger)" : std::to_string(c.logger_id().value);
    out.num("logger_id", c.logger_id().value).num("level", c.level()).num("internal_flag", c.internal_flag())
        .str("enable_flags", hex(c.enable_flags(), 8));
    if (!ctx.cl.json)
        std::cout << "handle        " << hex(h, 16) << "\nlogger id     " << logger << "\nlevel         "
                  << static_cast<unsigned>(c.level()) << "\ninternal flag " << hex(c.internal_flag(), 2)
                  << "\nenable flags  " << hex(c.enable_flags(), 8) << "\n";
    return exit_ok;
}

} // namespace etwctl_tool
