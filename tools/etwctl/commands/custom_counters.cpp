// etwctl pmc add NAME --intel|--amd|--arm SPEC [--interval N] [--no-persist]
// etwctl pmc remove ID|NAME
// Custom hardware counters (profiler/custom_counters.hpp): a profile source of the caller's design,
// added under a description (NAME, the name the profile-source list then shows) through kernel class
// 0x15 and removed through 0x16 (Windows 10 1803 and later). The kernel assigns the id; the library
// finds it in the profile-source list, and the tool prints it.
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/error.hpp"
#include "etwctl/profiler/custom_counters.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/status_codes.hpp"

#include "../names.hpp"
#include "../sources.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {

/// Hexadecimal, with or without 0x (the manuals' and event lists' spelling: 24 = 0x24), within max.
bool parse_hex_field(std::string_view s, std::uint64_t max, std::uint64_t& out) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    return !s.empty() && s.size() <= 8 && parse_uint("0x" + std::string(s), max, out); // parse_uint checks the digits
}

struct counter_spec {
    std::optional<etwctl::custom_counter> counter;
    std::string text;  ///< "Intel EventSelect 0x24 UMask 0x3F", for the output
    std::string vendor;
    std::string error; ///< a usage message
};

/// --intel EVENT:UMASK[,cmask=N,inv,edge,any]   --amd EVENT:UMASK[,cmask=N,inv,edge,hostguest=N,pmu=N]
/// --arm EVENT[,halt]   (EVENT / UMASK hexadecimal; N decimal or 0x)
counter_spec parse_counter(std::string_view vendor, std::string_view text) {
    counter_spec r;
    r.vendor = std::string(vendor);
    std::vector<std::string> const items = split(text, ',');
    std::string const& head = items[0];
    auto const bad = [&](std::string const& why) {
        r.error = "bad --" + std::string(vendor) + " '" + std::string(text) + "': " + why;
        return r;
    };
    std::uint64_t event = 0, umask = 0;
    bool const arm = vendor == "arm";
    if (arm) {
        if (!parse_hex_field(head, 0xFFFFFFFFULL, event)) return bad("give the PMU event number in hex (0x11 or 11)");
    } else {
        auto const colon = head.find(':');
        if (colon == std::string::npos) return bad("give EVENT_SELECT:UNIT_MASK in hex (24:3F)");
        if (!parse_hex_field(std::string_view(head).substr(0, colon), vendor == "amd" ? 0xFFFFULL : 0xFFULL, event))
            return bad("EVENT_SELECT '" + head.substr(0, colon) + "' is not a hex number of " +
                       (vendor == "amd" ? "at most 12 bits (0..FFF)" : "8 bits (0..FF)"));
        if (!parse_hex_field(std::string_view(head).substr(colon + 1), 0xFFULL, umask))
            return bad("UNIT_MASK '" + head.substr(colon + 1) + "' is not a hex number of 8 bits (0..FF)");
    }
    std::vector<std::string_view> const known = arm ? std::vector<std::string_view>{"halt"}
                                                : vendor == "amd"
                                                    ? std::vector<std::string_view>{"cmask", "inv", "edge", "hostguest", "pmu"}
                                                    : std::vector<std::string_view>{"cmask", "inv", "edge", "any"};
    std::uint64_t cmask = 0, host_guest = 0, pmu = 0;
    bool inv = false, edge = false, any = false, halt = false;
    for (std::size_t i = 1; i < items.size(); ++i) {
        std::string_view const item = items[i];
        auto const eq = item.find('=');
        std::string_view const key = item.substr(0, eq);
        std::string_view const value = eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
        bool const valued = key == "cmask" || key == "hostguest" || key == "pmu";
        bool listed = false;
        for (auto k : known) listed = listed || k == key;
        if (!listed) {
            std::string const near = nearest_name(key, known);
            std::string all;
            for (auto k : known) all += (all.empty() ? "" : ", ") + std::string(k);
            return bad("unknown field '" + std::string(key) + "'" +
                       (near.empty() ? " (" + all + ")" : " (did you mean " + near + "?)"));
        }
        if (valued != (eq != std::string_view::npos))
            return bad(valued ? std::string(key) + " needs a value (" + std::string(key) + "=N)" : std::string(key) + " takes no value");
        std::uint64_t n = 0;
        if (valued && !parse_uint(value, key == "cmask" ? 0xFFULL : key == "hostguest" ? 0xFFULL : 0xFFULL, n))
            return bad(std::string(key) + " '" + std::string(value) + "' is not a number of 8 bits (decimal or 0x)");
        if (key == "cmask") cmask = n;
        else if (key == "hostguest") host_guest = n;
        else if (key == "pmu") pmu = n;
        else if (key == "inv") inv = true;
        else if (key == "edge") edge = true;
        else if (key == "any") any = true;
        else if (key == "halt") halt = true;
    }
    auto const u8 = [](std::uint64_t v) { return static_cast<std::uint8_t>(v); };
    std::string mods;
    if (cmask) mods += " CMask " + std::to_string(cmask);
    if (inv) mods += " Inv";
    if (edge) mods += " Edge";
    if (any) mods += " AnyThread";
    if (host_guest) mods += " HostGuest " + std::to_string(host_guest);
    if (pmu) mods += " PmuType " + std::to_string(pmu);
    if (arm) {
        r.counter = etwctl::arm_counter{.event_type = static_cast<std::uint32_t>(event), .allows_halt = halt};
        r.text = "ARM event " + hex_min(event, 2) + (halt ? " AllowsHalt" : "");
    } else if (vendor == "amd") {
        r.counter = etwctl::amd_counter{.event_select = static_cast<std::uint16_t>(event), .unit_mask = u8(umask), .cmask = u8(cmask),
                                        .inv = inv, .edge = edge, .host_guest = u8(host_guest), .pmu_type = u8(pmu)};
        r.text = "AMD EventSelect " + hex_min(event, 2) + " UnitMask " + hex(umask, 2) + mods;
    } else {
        r.counter = etwctl::intel_counter{.event_select = u8(event), .unit_mask = u8(umask), .cmask = u8(cmask), .inv = inv,
                                          .any_thread = any, .edge = edge};
        r.text = "Intel EventSelect " + hex(event, 2) + " UMask " + hex(umask, 2) + mods;
    }
    return r;
}

failure not_here(std::error_code const& ec, std::string const& what) {
    failure f{exit_kernel, ec,
              "custom profile sources are not on this Windows (EventTraceProfileSourceAddInformation / "
              "RemoveInformation, kernel classes 0x15 / 0x16): " + what,
              {}, {}};
    f.hint = "custom hardware counters need Windows 10 1803 or later; nothing was changed";
    return f;
}

} // namespace

int cmd_pmc_add(context const& ctx, tool_kernel& k, json_object& out) {
    if (int const rc = only_options(ctx, {"--intel", "--amd", "--arm", "--interval", "--description"}, {"--no-persist"});
        rc != exit_ok)
        return rc;
    auto const& p = ctx.cl.positional; // pmc add [NAME]
    if (p.size() > 3) return usage_error(ctx, "expected 'pmc add NAME --intel|--amd|--arm SPEC'");
    auto const description = ctx.cl.option("--description");
    if (p.size() == 3 && description && *description != p[2])
        return usage_error(ctx, "NAME '" + p[2] + "' and --description '" + *description +
                                    "' differ: they are the same field (the source's name in the list); give one");
    std::string const name = p.size() == 3 ? p[2] : description.value_or("");
    if (p.size() < 3 && !description) return usage_error(ctx, "expected the new source's NAME");
    std::vector<std::string_view> vendors;
    for (std::string_view v : {"intel", "amd", "arm"})
        if (ctx.cl.option("--" + std::string(v))) vendors.push_back(v);
    if (vendors.size() != 1) return usage_error(ctx, "give the counter as exactly one of --intel, --amd, --arm");
    counter_spec const spec = parse_counter(vendors[0], *ctx.cl.option("--" + std::string(vendors[0])));
    if (!spec.error.empty()) return usage_error(ctx, spec.error);
    std::uint32_t interval = 65536;
    if (auto const t = ctx.cl.option("--interval")) {
        std::uint64_t n = 0;
        if (!parse_uint(*t, 0xFFFFFFFFULL, n) || n == 0) return usage_error(ctx, "bad --interval '" + *t + "': give an event count");
        interval = static_cast<std::uint32_t>(n);
    }
    etwctl::custom_counter_options options;
    // The tool exits right after adding: a source that did not persist would not outlive it.
    options.persist = !ctx.cl.has("--no-persist");
    // Room for the list as it is and the new source, however long the machine's list is.
    std::vector<std::byte> storage = source_list_storage(k.inner(), etwctl::profile_source_record_size(name.size()));
    options.source_list_storage = storage;

    etwctl::kernel_profile_add_request const request =
        etwctl::encode_profile_add(*spec.counter, name, etwctl::profile_interval{interval}, options);
    std::string counter_bytes;
    for (auto b : request.counter) counter_bytes += hex_byte(b);
    out.str("action", "add").str("name", name).str("vendor", spec.vendor).num("version", request.version);
    out.str("counter", spec.text).str("counter_bytes", counter_bytes).num("interval", interval).boolean("persist", options.persist);

    auto const id = etwctl::add_profile_source(k, *spec.counter, name, etwctl::profile_interval{interval}, options);
    if (!id && k.dry_run() && etwctl::rule_of(id.error()) == etwctl::rule::custom_counter_not_listed) {
        // A dry run did not send the add: the list cannot show the source.
        out.raw("id", "null").boolean("dry_run", true);
        if (!ctx.cl.json)
            std::cout << "would add profile source '" << name << "': " << spec.text << ", interval " << interval
                      << " (dry run: not added; the kernel assigns the id)\n";
        return exit_ok;
    }
    if (!id) {
        auto const ec = id.error();
        if (not_on_this_windows(ec)) return report_failure(ctx, not_here(ec, "cannot add '" + name + "'"));
        failure f{exit_code_of(ec), ec, "cannot add the profile source '" + name + "'", {}, {}};
        auto const rule = etwctl::rule_of(ec);
        if (rule == etwctl::rule::custom_counter_description)
            f.message = "bad NAME '" + name + "': the name must be 1..126 ASCII characters";
        else if (rule == etwctl::rule::custom_counter_description_taken) {
            f.message = "the profile-source list already has a source named '" + name + "'";
            f.hint = "choose another NAME, or remove the old one first ('etwctl pmc remove " + name + "')";
        } else if (ec == etwctl::ntstatus_error_code(etwctl::ntstatus::object_name_collision)) {
            f.hint = "choose another NAME";
        }
        f.details.str("name", name);
        return report_failure(ctx, f);
    }
    out.num("id", *id);
    std::string listed;
    if (!ctx.cl.dry_run) {
        // The new source as the list shows it (read directly: not a request of this command).
        if (auto const rows = read_sources(k.inner()))
            for (auto const& row : *rows)
                if (row.id == *id) {
                    auto const iv = etwctl::query<etwctl::sampled_profile_interval>(k.inner(), static_cast<etwctl::profile_source>(row.id));
                    json_object l;
                    l.num("id", row.id).str("name", row.name).num("min", row.min).num("max", row.max);
                    if (iv) l.num("interval", iv->count());
                    out.raw("listed", l.text());
                    listed = "  listed: " + std::to_string(row.id) + " " + row.name +
                             (iv ? ", interval " + std::to_string(iv->count()) : std::string()) + ", bounds [" +
                             std::to_string(row.min) + ", " + std::to_string(row.max) + "]\n";
                }
    }
    if (!ctx.cl.json)
        std::cout << "added profile source " << *id << " '" << name << "': " << spec.text << ", interval " << interval << "\n"
                  << listed;
    return exit_ok;
}

int cmd_pmc_remove(context const& ctx, tool_kernel& k, json_object& out) {
    if (int const rc = only_options(ctx, {}, {}); rc != exit_ok) return rc;
    auto const& p = ctx.cl.positional; // pmc remove ID|NAME
    if (p.size() != 3) return usage_error(ctx, "expected 'pmc remove ID|NAME'");
    auto const rows = read_sources(k);
    if (!rows) return report_failure(ctx, {exit_code_of(rows.error()), rows.error(), "cannot read the profile-source list", {}, {}});
    source_row const* src = find_source(*rows, p[2]);
    if (!src) {
        std::string const suggestion = suggest_source(*rows, p[2]);
        failure f{exit_refused, etwctl::make_error_code(etwctl::rule::profile_source_absent),
                  "profile source '" + p[2] + "' is not in this machine's list" +
                      (suggestion.empty() ? std::string(" (see etwctl profile-sources)") : " (did you mean " + suggestion + "?)") +
                      "; nothing was sent",
                  {}, {}};
        f.details.str("source", p[2]);
        return report_failure(ctx, f);
    }
    source_row const row = *src;
    std::string const label = std::to_string(row.id) + " '" + row.name + "'";
    out.str("action", "remove").num("id", row.id).str("name", row.name);
    if (auto const ec = etwctl::remove_profile_source(k, row.id); ec) {
        if (not_on_this_windows(ec)) return report_failure(ctx, not_here(ec, "cannot remove " + label));
        failure f{exit_code_of(ec), ec, "cannot remove the profile source " + label, {}, {}};
        if (ec == etwctl::ntstatus_error_code(etwctl::ntstatus::access_denied))
            f.hint = "only custom counters (added with 'etwctl pmc add') can be removed; " + row.name + " is the machine's own";
        f.details.num("id", row.id).str("name", row.name);
        return report_failure(ctx, f);
    }
    if (!ctx.cl.json)
        std::cout << (ctx.cl.dry_run ? "would remove profile source " : "removed profile source ") << label << "\n";
    return exit_ok;
}

} // namespace etwctl_tool
