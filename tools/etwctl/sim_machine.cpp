#include "sim_machine.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string_view>

#include "etwctl/etwctl.hpp"
#include "etwctl/names/parse.hpp"

#include "text.hpp"

namespace etwctl_tool {

namespace {
inline constexpr std::string_view sim_default_flags = "PROC_THREAD+LOADER+PROFILE+CSWITCH";
}

bool configure_sim(etwctl::sim::kernel& k, std::string& error) {
    std::string_view flags = sim_default_flags;
    bool no_privilege = false;
    std::string_view pmc_events;
    std::string spec;
    if (char const* env = std::getenv("ETWCTL_SIM")) spec = env;
    k.start_kernel_logger();
    std::string_view rest = spec;
    while (!rest.empty()) {
        auto const comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        if (item.empty()) continue;
        auto const eq = item.find('=');
        std::string_view const key = item.substr(0, eq);
        std::string_view value = eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
        std::string_view name;
        if (auto const colon = value.find(':'); colon != std::string_view::npos && key != "flags" && key != "pmc-events") {
            name = value.substr(colon + 1);
            value = value.substr(0, colon);
        }
        std::uint64_t n = 0;
        if (key == "no-privilege") no_privilege = true;
        else if (key == "no-query-interval") k.set_available(etwctl::kernel_function::nt_query_interval_profile, false);
        else if (key == "flags") flags = value;
        else if ((key == "logger" || key == "user-logger" || key == "paged-logger") && parse_uint(value, 63, n)) {
            etwctl::sim::logger_options o;
            o.system_logger_mode = key != "user-logger";
            o.paged_memory = key == "paged-logger";
            auto const id = static_cast<std::uint16_t>(n);
            if (k.start_logger(id, o) == 0 || (!name.empty() && !k.set_logger_name(id, name))) {
                error = "ETWCTL_SIM: cannot start logger " + std::string(value);
                return false;
            }
        } else if (key == "pmc-events") {
            pmc_events = value; // as if an earlier run had set the NT Kernel Logger's PMC event list
        } else if (key == "max-pmc" && parse_uint(value, 16, n)) {
            k.set_max_pmc_counters(static_cast<std::uint32_t>(n));
        } else {
            error = "ETWCTL_SIM: unknown item '" + std::string(item) + "'";
            return false;
        }
    }
    etwctl::group_mask m;
    if (etwctl::parse_kernel_flags(flags, m) != etwctl::rule::ok) {
        error = "ETWCTL_SIM: bad flags '" + std::string(flags) + "'";
        return false;
    }
    // Set directly on the model (not through the recorder): it is the machine's state, not a request.
    etwctl::session_handle const kernel_logger{etwctl::limits::kernel_logger_id};
    if (auto const ec = etwctl::set<etwctl::system_trace_enable_flags>(k, kernel_logger, m); ec) {
        error = "ETWCTL_SIM: cannot set flags: " + ec.message();
        return false;
    }
    if (!pmc_events.empty()) {
        etwctl::hook_id ids[etwctl::limits::max_pmc_events];
        std::size_t count = 0;
        if (etwctl::parse_stack_walk(pmc_events, ids, count) != etwctl::rule::ok ||
            etwctl::set<etwctl::pmc_event_list>(k, kernel_logger, std::span<etwctl::hook_id const>(ids, count))) {
            error = "ETWCTL_SIM: bad pmc-events '" + std::string(pmc_events) + "'";
            return false;
        }
    }
    k.set_privilege(!no_privilege); // after the flags: PROFILE needs the privilege to be set
    k.clear_requests();
    return true;
}

} // namespace etwctl_tool
