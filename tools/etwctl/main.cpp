// etwctl - the command-line tool: kernel-session profiling controls in the idiom of xperf/tracelog,
// built on the etwctl library. On Windows it talks to the kernel (native_kernel); elsewhere, or with
// --sim, to the simulated kernel (and says so on stderr). See docs/tool.md.
// This file: the dispatch and the choice of kernel. The commands are in commands/, one file each.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "etwctl/etwctl.hpp"
#include "etwctl/names/sources.hpp"
#include "etwctl/testing/sim_kernel.hpp"

#include "annotate.hpp"
#include "cli.hpp"
#include "commands/commands.hpp"
#include "kernel_ref.hpp"
#include "names.hpp"
#include "output.hpp"
#include "sim_machine.hpp"
#include "sim_state.hpp"
#include "commands/consume.hpp"
#include "sources.hpp"

namespace etwctl_tool {
namespace {

/// The first argument is an xperf option (-on, -stackwalk, ...), not a command.
bool xperf_form(command_line const& cl) {
    return !cl.positional.empty() && cl.positional[0].size() > 1 && cl.positional[0][0] == '-';
}

/// The options only the commands of issue 13 take (they check their own): any other command refuses
/// them rather than ignore them (interval set 10 --clamp must not look as if it clamped).
int refuse_newer_options(context const& ctx) {
    static constexpr std::string_view newer[] = {"--options", "--intel", "--amd", "--arm", "--description", "--base",
                                                 "--pid",     "--limit", "--duration"}; // trace's (commands/trace.cpp), consume's
    if (!ctx.cl.switches.empty()) return usage_error(ctx, "option " + ctx.cl.switches.front() + " does not apply here");
    for (auto const& [name, value] : ctx.cl.options)
        for (auto n : newer)
            if (name == n) return usage_error(ctx, "option " + name + " does not apply here");
    return exit_ok;
}

/// pmc's forms: SESSION --counters ..., owners, add NAME ..., remove ID|NAME.
int cmd_pmc_forms(context const& ctx, tool_kernel& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    std::string const sub = p.size() >= 2 ? p[1] : std::string();
    if (sub == "add") return cmd_pmc_add(ctx, k, out);
    if (sub == "remove") return cmd_pmc_remove(ctx, k, out);
    return p.size() == 2 && sub == "owners" ? cmd_pmc_owners(ctx, k, out) : cmd_pmc(ctx, k, out);
}

int cmd_wpr_if_built(context const& ctx, [[maybe_unused]] tool_kernel& k, [[maybe_unused]] json_object& out) {
#if defined(ETWCTL_TOOL_WPR)
    return cmd_wpr(ctx, k, out);
#else
    return usage_error(ctx, "the wpr command is not in this build: it reads .wprp files with pugixml, which this build "
                            "(a cross build) does not have; use a native build of etwctl");
#endif
}

/// The commands that talk to a kernel, by the name `helps` (cli.hpp) lists them under ("xperf": the
/// xperf forms). main() runs the others itself, before any kernel is chosen: kernel_free_commands.
struct kernel_command {
    std::string_view name;
    int (*run)(context const&, tool_kernel&, json_object&);
};
constexpr kernel_command kernel_commands[] = {
    {"profile-sources", cmd_profile_sources}, {"interval", cmd_interval}, {"stackwalk", cmd_stackwalk},
    {"flags", cmd_flags},                     {"pmc", cmd_pmc_forms},     {"stackcache", cmd_stackcache},
    {"lbr", cmd_lbr},                         {"limits", cmd_limits},     {"version", cmd_version},
    {"xperf", cmd_xperf},                     {"session", cmd_session},   {"wpr", cmd_wpr_if_built}};
constexpr std::string_view kernel_free_commands[] = {"help", "list", "decode-handle", "trace"};

/// `helps` is what the tool accepts and lists in --help: each entry must run (a table above), and each
/// command that runs must be in `helps` (else it could be neither reached nor listed).
constexpr bool every_command_dispatched() {
    for (auto const& h : helps) {
        bool found = false;
        for (auto const& c : kernel_commands) found = found || c.name == h.name;
        for (auto n : kernel_free_commands) found = found || n == h.name;
        if (!found) return false;
    }
    for (auto const& c : kernel_commands)
        if (!find_help(c.name)) return false;
    for (auto n : kernel_free_commands)
        if (!find_help(n)) return false;
    return true;
}
static_assert(every_command_dispatched(), "a command in helps (cli.hpp) without a handler here, or the reverse");

int dispatch(context& ctx, tool_kernel& k, json_object& out) {
    std::string_view const c = ctx.command;
    bool const checks_own = c == "stackcache" || c == "lbr" || c == "wpr" ||
                            (c == "pmc" && ctx.cl.positional.size() >= 2 &&
                             (ctx.cl.positional[1] == "add" || ctx.cl.positional[1] == "remove"));
    if (!checks_own)
        if (int const rc = refuse_newer_options(ctx); rc != exit_ok) return rc;
    for (auto const& command : kernel_commands)
        if (command.name == c) return command.run(ctx, k, out);
    return usage_error(ctx, "'" + ctx.command + "' is listed but not dispatched (a defect of etwctl: please report it)");
}

/// `changed`: set when a call of the command took effect (--sim=STATEFILE journals such commands).
template <class Inner>
int run(context& ctx, Inner& machine, bool* changed = nullptr) {
    kernel_ref<Inner> inner(machine);
    tool_kernel k(inner, ctx.cl.dry_run);
    json_object out;
    out.boolean("ok", true).str("command", ctx.command);
    json_failure failed; // --json: one object on stdout, also on failure (with the requests, below)
    if (ctx.cl.json) ctx.deferred = &failed;
    // Names for profile sources in the annotations, read from the kernel directly (not recorded):
    // before the command (a source it removes) and after it (a source it adds).
    std::vector<source_row> rows;
    if (ctx.cl.dry_run || ctx.cl.trace)
        if (auto r = read_sources(inner)) rows = *r;
    int const rc = dispatch(ctx, k, out);
    if (changed)
        for (auto const& r : k.requests()) *changed = *changed || changes_machine(r);
    std::string requests; // --json with --dry-run / --trace: the requests as a JSON array

    if (ctx.cl.dry_run || ctx.cl.trace) {
        if (auto r = read_sources(inner))
            for (auto const& row : *r) {
                bool known = false;
                for (auto const& have : rows) known = known || have.id == row.id;
                if (!known) rows.push_back(row);
            }
        source_namer const namer = [&](std::uint32_t id) -> std::string {
            for (auto const& r : rows)
                if (r.id == id) return r.name;
            auto const n = etwctl::name_of(static_cast<etwctl::profile_source>(id));
            return n.empty() ? std::string("?") : std::string(n);
        };
        std::vector<std::string> rj;
        std::string text;
        for (std::size_t i = 0; i < k.requests().size(); ++i) {
            auto const a = annotate(k.requests()[i], namer);
            rj.push_back(format_json(a, k.requests()[i]));
            text += format_text(a, i + 1);
        }
        if (ctx.cl.json) {
            requests = json_array(rj);
            if (rc == exit_ok) out.raw("requests", requests);
        } else {
            (rc == exit_ok ? std::cout : std::cerr)
                << (ctx.cl.dry_run ? "kernel requests (dry run: only reads were sent):\n" : "kernel requests:\n")
                << (text.empty() ? std::string("(none)\n") : text);
        }
    }
    if (ctx.cl.json) {
        if (rc == exit_ok) std::cout << out.text() << "\n";
        else if (failed.set) std::cout << failed.text(requests) << "\n";
        else std::cout << json_failure{true, rc, json_object().str("kind", "usage").text(), "{}", {}}.text(requests) << "\n";
    }
    return rc;
}

/// One command on the state file's machine (sim_state.cpp runs the journal's and the new one with it).
int run_state_command(context& ctx, sim_state_machine& m, bool& changed) {
    if (is_session_consume(ctx)) {
        std::uint64_t const before = m.clock_ms();
        int const rc = cmd_session_consume(ctx, &m);
        changed = m.clock_ms() != before; // it ran: the machine's clock moved and the session's buffers were read
        return rc;
    }
    return run(ctx, m, &changed);
}

int print_help(command_help const& h) {
    std::cout << "usage: " << h.usage << "\n\n" << h.text << "\n";
    return exit_ok;
}

} // namespace
} // namespace etwctl_tool

int main(int argc, char** argv) {
    using namespace etwctl_tool;
    // --sim=STATEFILE and --sim-advance MS (sim_state.hpp) are taken out first.
    sim_state_args const state = split_sim_state_args(argc, argv);
    std::vector<std::string> rest = state.rest;
    std::vector<char*> rest_argv;
    for (auto& a : rest) rest_argv.push_back(a.data());
    command_line cl = parse_command_line(static_cast<int>(rest_argv.size()), rest_argv.data());
    if (!state.state_file.empty()) cl.sim = true;
    bool const xperf = xperf_form(cl);
    context ctx{cl, xperf ? std::string("xperf") : cl.positional.empty() ? std::string() : cl.positional[0]};
    if (!cl.error.empty()) return usage_error(ctx, cl.error);
    if (!state.error.empty()) return usage_error(ctx, state.error);
    if (ctx.command.empty() && !state.state_file.empty() && !cl.help) // --sim=FILE [--sim-advance MS]: the machine's status
        return run_with_state(ctx, state, run_state_command);
    if (state.advance_given && (ctx.command == "trace" || ctx.command == "list" || ctx.command == "decode-handle" || ctx.command == "help"))
        return usage_error(ctx, "--sim-advance does not apply to " + ctx.command + " (no machine involved): run etwctl --sim=FILE --sim-advance MS first");
    if (ctx.command.empty() || ctx.command == "help") {
        if (cl.positional.size() > 1)
            if (auto const* h = find_help(cl.positional[1])) return print_help(*h);
        (cl.help || ctx.command == "help" ? std::cout : std::cerr) << general_help();
        return cl.help || ctx.command == "help" ? exit_ok : exit_usage;
    }
    auto const* help = find_help(ctx.command);
    if (!help) {
        std::vector<std::string_view> names;
        for (auto const& h : helps)
            if (h.name != "xperf") names.push_back(h.name);
        std::string const suggestion = nearest_name(ctx.command, names);
        return usage_error(ctx, "unknown command '" + ctx.command + "'" + (suggestion.empty() ? "" : " (did you mean " + suggestion + "?)"));
    }
    if (cl.help) return print_help(*help);
    if (ctx.command == "trace") return cmd_trace(ctx); // reads a file: no kernel involved, prints its own output
    if (ctx.command == "decode-handle" || ctx.command == "list") { // pure: no kernel involved
        json_object out;
        out.boolean("ok", true).str("command", ctx.command);
        int const rc = ctx.command == "list" ? cmd_list(ctx, out) : cmd_decode_handle(ctx, out);
        if (rc == exit_ok && cl.json) std::cout << out.text() << "\n";
        return rc;
    }

    if (!state.state_file.empty()) return run_with_state(ctx, state, run_state_command);
    if (is_session_consume(ctx)) return cmd_session_consume(ctx, nullptr); // on Windows, or a one-command machine

#if defined(_WIN32)
    if (!cl.sim) {
        // Profiling needs SeSystemProfilePrivilege enabled, as xperf enables it. Not fatal: when the
        // process is not elevated, the kernel's refusal says what is missing (its hint: run elevated).
        if (!cl.dry_run) (void)etwctl::enable_system_profile_privilege(etwctl::native_kernel::instance());
        return run(ctx, etwctl::native_kernel::instance());
    }
#endif
    std::cerr << "etwctl: using the simulated kernel" << (cl.sim ? "" : " (not on Windows)")
              << "; its state does not persist between runs\n";
    auto machine = std::make_unique<etwctl::sim::kernel>(); // ~160 KiB of model state: not on the stack
    std::string error;
    if (!configure_sim(*machine, error)) return usage_error(ctx, error);
    if (!cl.dry_run) (void)etwctl::enable_system_profile_privilege(*machine); // as on Windows (ETWCTL_SIM=no-privilege: not held)
    ctx.simulated = true;
    return run(ctx, *machine);
}
