#include "cli.hpp"

#include <algorithm>
#include <iterator>

namespace etwctl_tool {

command_line parse_command_line(int argc, char** argv) {
    static constexpr std::string_view valued[] = {"--source", "--counters",  "--events", "--interval", "--flags",
                                                  "--options", "--intel",  "--amd",    "--arm",      "--description", "--base",
                                                  "--pid",     "--limit", "--duration"};
    // The one option that may be repeated: wpr's --base FILE (each adds a file). Every other valued
    // option holds one value: given twice it is refused (option_given_twice), not first-wins.
    static constexpr std::string_view repeatable[] = {"--base"};
    // Options without a value (a command that does not take one says so).
    static constexpr std::string_view switches[] = {"--unified", "--clamp", "--no-persist"};
    command_line c;
    for (int i = 1; i < argc; ++i) {
        std::string_view const a = argv[i];
        if (a == "--dry-run") c.dry_run = true;
        else if (a == "--json") c.json = true;
        else if (a == "--sim") c.sim = true;
        else if (a == "--trace") c.trace = true;
        else if (a == "--help" || a == "-h") c.help = true;
        else if (std::find(std::begin(switches), std::end(switches), a) != std::end(switches)) c.switches.emplace_back(a);
        else if (a.size() > 2 && a.substr(0, 2) == "--") {
            std::string_view name = a, value;
            bool inline_value = false;
            if (auto const eq = a.find('='); eq != std::string_view::npos) {
                name = a.substr(0, eq);
                value = a.substr(eq + 1);
                inline_value = true;
            }
            bool known = false;
            for (auto v : valued) known = known || v == name;
            if (!known) {
                c.error = "unknown option " + std::string(name);
                return c;
            }
            if (!inline_value) {
                if (i + 1 >= argc) {
                    c.error = "option " + std::string(name) + " needs a value";
                    return c;
                }
                value = argv[++i];
            }
            if (auto const first = c.option(name);
                first && std::find(std::begin(repeatable), std::end(repeatable), name) == std::end(repeatable)) {
                c.error = option_given_twice(name, *first, value);
                return c;
            }
            c.options.emplace_back(std::string(name), std::string(value));
        } else {
            c.positional.emplace_back(a);
        }
    }
    return c;
}

std::string general_help() {
    auto indented = [](std::string_view lines) {
        std::string out;
        for (std::string_view l = lines; !l.empty();) {
            std::size_t const nl = l.find('\n');
            out.append("  ").append(l.substr(0, nl)).append("\n");
            l = nl == std::string_view::npos ? std::string_view() : l.substr(nl + 1);
        }
        return out;
    };
    std::string text = "usage: etwctl [--dry-run] [--trace] [--json] [--sim] COMMAND [ARGS]\n\ncommands:\n";
    for (auto const& h : helps)
        if (h.name != "xperf") text += indented(h.listing);
    text += "xperf forms (etwctl help xperf):\n";
    for (auto const& h : helps)
        if (h.name == "xperf") text += indented(h.listing);
    text += "\n"
            "SESSION: a logger id (decimal or 0x), 'kernel' / \"NT Kernel Logger\" (0xFFFF), or a session name.\n"
            "options:\n"
            "  --dry-run   print the exact kernel requests as annotated hex; send only reads\n"
            "  --trace     send the requests and print them as annotated hex, with each status\n"
            "  --json      machine-readable output on stdout\n"
            "  --sim       use the simulated kernel even on Windows\n"
            "  --sim=FILE  use the simulated machine kept in FILE (it lives across commands)\n"
            "  --sim-advance MS   with --sim=FILE: let the machine run MS simulated milliseconds\n"
            "  --help      this text, or a command's (etwctl COMMAND --help)\n"
            "exit codes: 0 ok, 1 usage, 2 refused by a rule, 3 kernel error, 4 partially applied\n"
            "  (trace: 2 not a trace it can read, 3 the file cannot be read, 4 read with faults)\n";
    return text;
}

std::string option_given_twice(std::string_view option, std::string_view first, std::string_view second, std::string_view where) {
    std::string m(option);
    m += " given twice";
    if (!where.empty()) m.append(" for ").append(where);
    if (!first.empty() || !second.empty()) m.append(" ('").append(first).append("' and '").append(second).append("')");
    m += ": give it once (a second one would silently replace the first)";
    return m;
}

} // namespace etwctl_tool
