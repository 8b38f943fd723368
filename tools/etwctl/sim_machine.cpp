#include "sim_machine.hpp"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "etwctl/etwctl.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/profiler/custom_counters.hpp"

#include "text.hpp"

namespace etwctl_tool {

namespace {
inline constexpr std::string_view sim_default_flags = "PROC_THREAD+LOADER+PROFILE+CSWITCH";
/// older-windows: kernel classes 0x10 (stack caching), 0x13 / 0x14 (LBR), 0x15 / 0x16 (custom profile
/// sources), 0x1A (unified stack caching), 0x1B (context registers), and NtTraceControl 0x25, 0x29-0x2E.
inline constexpr std::uint32_t older_windows_classes[] = {0x10, 0x13, 0x14, 0x15, 0x16, 0x1A, 0x1B};
inline constexpr std::uint32_t older_windows_codes[] = {0x25, 0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E};
}

bool configure_sim(etwctl::sim::kernel& k, std::string& error) {
    char const* env = std::getenv("ETWCTL_SIM");
    return configure_sim(k, env ? std::string_view(env) : std::string_view{}, false, error);
}

bool configure_sim(etwctl::sim::kernel& k, std::string_view spec_text, bool booted, std::string& error) {
    std::string_view flags = sim_default_flags;
    bool no_privilege = false;
    bool privilege_disabled = false; // held in the token, not enabled: the tool enables it (as on Windows)
    std::string_view pmc_events;
    std::vector<std::string_view> custom_sources;            // custom-pmc=NAME
    std::vector<std::pair<std::uint16_t, bool>> stack_caches; // (logger, unified): stack-cache=N, unified-stack-cache=N
    std::string const spec(spec_text);
    bool kernel_logger = !booted; // a state file's fresh machine: nobody started the NT Kernel Logger yet
    bool asked_kernel_logger = false;
    std::uint64_t filler_sessions = 0;
    std::size_t filler_sources = 0;
    for (std::string_view r = spec; !r.empty();) { // the NT Kernel Logger first (its id), unless asked not to
        auto const comma = r.find(',');
        asked_kernel_logger = asked_kernel_logger || r.substr(0, comma) == "kernel-logger";
        kernel_logger = (kernel_logger || asked_kernel_logger) && r.substr(0, comma) != "no-kernel-logger";
        r = comma == std::string_view::npos ? std::string_view{} : r.substr(comma + 1);
    }
    if (kernel_logger) k.start_kernel_logger();
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
        if (auto const colon = value.find(':'); colon != std::string_view::npos && key != "flags" && key != "pmc-events" &&
                                                                     key != "custom-pmc") {
            name = value.substr(colon + 1);
            value = value.substr(0, colon);
        }
        std::uint64_t n = 0;
        if (key == "no-privilege") no_privilege = true;
        else if (key == "no-kernel-logger" || key == "kernel-logger") continue; // read above
        else if (key == "not-elevated") k.sessions().set_elevated(false);
        else if (key == "max-loggers" && parse_uint(value, 64, n) && n >= 1) k.sessions().set_max_loggers(static_cast<std::uint32_t>(n));
        else if (key == "sessions" && parse_uint(value, 63, n)) filler_sessions = n;
        else if (key == "not-log-user") k.set_admin_or_log_users(false);
        else if (key == "privilege-disabled") privilege_disabled = true;
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
        } else if (key == "older-windows") {
            // A Windows 10 release before the classes of issue 13 (TRACE_INFO_CLASS 16-28) and custom
            // profile sources: their kernel classes and NtTraceControl codes are missing.
            for (std::uint32_t c : older_windows_classes) k.set_kernel_class_available(c, false);
            for (std::uint32_t c : older_windows_codes) k.set_trace_control_available(c, false);
        } else if (key == "no-class" && parse_uint(value, 31, n)) {
            k.set_kernel_class_available(static_cast<std::uint32_t>(n), false);
        } else if ((key == "stack-cache" || key == "unified-stack-cache") && parse_uint(value, 0xFFFF, n)) {
            stack_caches.emplace_back(static_cast<std::uint16_t>(n), key == "unified-stack-cache");
        } else if (key == "custom-pmc" && !value.empty()) {
            custom_sources.push_back(value);
        } else if (key == "filler-sources" && parse_uint(value, 64, n)) {
            filler_sources = static_cast<std::size_t>(n); // custom sources with 126-character names
        } else if (key == "max-pmc" && parse_uint(value, 256, n)) {
            k.set_max_pmc_counters(static_cast<std::uint32_t>(n));
        } else {
            error = "ETWCTL_SIM: unknown item '" + std::string(item) + "'";
            return false;
        }
    }
    // sessions=N: N more real-time user sessions ("sim logger <id>"), in the free ids from 1 up.
    for (std::uint16_t id = 1; filler_sessions != 0 && id < etwctl::limits::max_loggers; ++id)
        if (!k.sessions().find(id) && k.start_logger(id, etwctl::sim::logger_options{false, false}) != 0) --filler_sessions;
    if (filler_sessions != 0) {
        error = "ETWCTL_SIM: cannot start that many sessions (the machine's limit)";
        return false;
    }
    etwctl::group_mask m;
    if (etwctl::parse_kernel_flags(flags, m) != etwctl::rule::ok) {
        error = "ETWCTL_SIM: bad flags '" + std::string(flags) + "'";
        return false;
    }
    // Set directly on the model (not through the recorder): it is the machine's state, not a request.
    etwctl::session_handle const kernel_logger_handle{etwctl::limits::kernel_logger_id};
    if (auto const ec = kernel_logger ? etwctl::set<etwctl::system_trace_enable_flags>(k, kernel_logger_handle, m) : std::error_code{}; ec) {
        error = "ETWCTL_SIM: cannot set flags: " + ec.message();
        return false;
    }
    if (!pmc_events.empty()) {
        etwctl::hook_id ids[etwctl::limits::max_pmc_events];
        std::size_t count = 0;
        if (etwctl::parse_stack_walk(pmc_events, ids, count) != etwctl::rule::ok ||
            etwctl::set<etwctl::pmc_event_list>(k, kernel_logger_handle, std::span<etwctl::hook_id const>(ids, count))) {
            error = "ETWCTL_SIM: bad pmc-events '" + std::string(pmc_events) + "'";
            return false;
        }
    }
    // As if an earlier run had enabled stack caching / added a custom counter (still in effect).
    for (auto const& [id, unified] : stack_caches) {
        etwctl::session_handle const h{id};
        auto const size = etwctl::stack_cache_size::mebibytes(16);
        etwctl::stack_cache_buckets const buckets{1024};
        if (unified ? etwctl::set<etwctl::unified_stack_caching>(k, h, size, buckets)
                    : etwctl::set<etwctl::stack_caching>(k, h, size, buckets)) {
            error = "ETWCTL_SIM: cannot enable stack caching for logger " + std::to_string(id);
            return false;
        }
    }
    std::vector<std::string> fillers;
    for (std::size_t i = 0; i < filler_sources; ++i) {
        std::string f = "Filler" + std::to_string(i);
        fillers.push_back(f + std::string(etwctl::profile_add_description_max - f.size(), 'x'));
    }
    std::vector<std::string_view> all(fillers.begin(), fillers.end());
    all.insert(all.end(), custom_sources.begin(), custom_sources.end());
    std::vector<std::byte> storage(64 * 1024); // the model's list of any length
    etwctl::custom_counter_options options;
    options.source_list_storage = storage;
    for (auto const name : all) {
        if (!etwctl::add_profile_source(k, etwctl::intel_counter{.event_select = 0x24, .unit_mask = 0x3F}, name,
                                        etwctl::profile_interval{65536}, options)) {
            error = "ETWCTL_SIM: cannot add the custom counter '" + std::string(name) + "'";
            return false;
        }
    }
    k.set_privilege(!no_privilege && !privilege_disabled); // after the flags: PROFILE needs the privilege to be set
    k.set_privilege_held(!no_privilege); // not in the token: enabling it (as the tool does) fails too
    k.clear_requests();
    return true;
}

} // namespace etwctl_tool
