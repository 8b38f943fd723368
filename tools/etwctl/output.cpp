#include "output.hpp"

#include <cstdint>
#include <iostream>

#include "etwctl/error.hpp"
#include "etwctl/status_codes.hpp"

namespace etwctl_tool {

std::string json_failure::text(std::string const& requests) const {
    json_object o;
    o.boolean("ok", false).num("exit_code", static_cast<std::uint64_t>(exit_code)).raw("error", error).raw("details", details);
    if (!applied.empty()) o.raw("applied", json_array(applied));
    if (!requests.empty()) o.raw("requests", requests);
    return o.text();
}

namespace {
void emit_json_failure(context const& ctx, int code, std::string error, std::string details) {
    json_failure f{true, code, std::move(error), std::move(details), {}};
    if (ctx.deferred) *ctx.deferred = std::move(f);
    else std::cout << f.text("") << "\n";
}
} // namespace

int usage_error(context const& ctx, std::string const& message) {
    if (ctx.cl.json) emit_json_failure(ctx, exit_usage, json_object().str("kind", "usage").str("message", message).text(), "{}");
    std::cerr << "etwctl: " << (ctx.command.empty() ? "" : ctx.command + ": ") << message << "\n";
    if (auto const* h = find_help(ctx.command)) std::cerr << "usage: " << h->usage << "\n";
    else std::cerr << "run 'etwctl --help' for the commands\n";
    return exit_usage;
}

namespace {
/// A hint for the statuses users meet most, in their words.
std::string hint_for(std::error_code const& ec) {
    if (ec.category() != etwctl::ntstatus_category()) return {};
    switch (ec.value()) {
    case etwctl::ntstatus::privilege_not_held: return "needs SeSystemProfilePrivilege: run elevated (as administrator)";
    case etwctl::ntstatus::wmi_instance_not_found: return "no such session: start it first (xperf -on, tracelog -start)";
    case etwctl::ntstatus::wmi_already_enabled: return "already set for this session: the list can be set once; restart the session";
    case etwctl::ntstatus::access_denied: return "access denied: run elevated, or as a member of Performance Log Users";
    case etwctl::ntstatus::entrypoint_not_found: return "the kernel function is not available on this system";
    default: return {};
    }
}
} // namespace

int exit_code_of(std::error_code const& ec) {
    auto const r = etwctl::rule_of(ec);
    if (r == etwctl::rule::parse_unknown_name || r == etwctl::rule::parse_duplicate_name ||
        r == etwctl::rule::parse_empty_name || r == etwctl::rule::parse_too_many_names)
        return exit_usage;
    if (r == etwctl::rule::class_not_on_this_windows) return exit_kernel; // the kernel's answer, read as a rule
    return r != etwctl::rule::ok ? exit_refused : exit_kernel;
}

int report_failure(context const& ctx, failure const& f) {
    auto const r = etwctl::rule_of(f.ec);
    std::string const hint = f.hint.empty() ? hint_for(f.ec) : f.hint;
    if (ctx.cl.json) {
        json_object e;
        e.str("kind", f.code == exit_refused ? "refused" : f.code == exit_usage ? "usage" : f.code == exit_partial ? "partial" : "kernel");
        e.str("category", f.ec.category().name()).raw("value", std::to_string(f.ec.value()));
        if (f.ec.category() == etwctl::ntstatus_category()) e.str("ntstatus", hex(static_cast<std::uint32_t>(f.ec.value()), 8));
        if (r != etwctl::rule::ok) e.str("rule", etwctl::info(r).name);
        e.num("win32", etwctl::to_win32(f.ec)).str("message", f.message).str("detail", f.ec.message());
        if (!hint.empty()) e.str("hint", hint);
        emit_json_failure(ctx, f.code, e.text(), f.details.text());
    }
    std::cerr << "etwctl: " << ctx.command << ": " << f.message << "\n";
    std::uint32_t const w = etwctl::to_win32(f.ec);
    char const* wname = etwctl::win32::name(w);
    std::string const win32 = "Win32 " + std::to_string(w) + (wname ? std::string(" ") + wname : std::string());
    if (r == etwctl::rule::ok && f.code == exit_refused && f.ec.category() == etwctl::win32_category())
        std::cerr << "  refused before sending (" << win32 << ")\n"; // a tool check: the Win32 code says what kind
    else if (r != etwctl::rule::ok)
        std::cerr << "  rule " << etwctl::info(r).name << ": " << etwctl::info(r).text << " (" << win32 << ")\n";
    else if (f.ec.category() == etwctl::win32_category()) // the session calls answer Win32 codes themselves
        std::cerr << "  Windows: " << (wname ? std::string(wname) : std::string("error")) << " (Win32 " << w << ")\n";
    else
        std::cerr << "  " << (f.code == exit_usage || f.code == exit_refused ? "" : "kernel: ") << f.ec.message() << " (" << win32
                  << ")\n";
    if (!hint.empty()) std::cerr << "  hint: " << hint << "\n";
    return f.code;
}

} // namespace etwctl_tool
