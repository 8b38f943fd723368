#include "cli.hpp"

#include <algorithm>
#include <iterator>

namespace etwctl_tool {

command_line parse_command_line(int argc, char** argv) {
    static constexpr std::string_view valued[] = {"--source", "--counters",  "--events", "--interval", "--flags",
                                                  "--options", "--intel",  "--amd",    "--arm",      "--description", "--base",
                                                  "--pid",     "--limit"};
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
            c.options.emplace_back(std::string(name), std::string(value));
        } else {
            c.positional.emplace_back(a);
        }
    }
    return c;
}

} // namespace etwctl_tool
