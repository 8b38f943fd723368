// etwctl pmc SESSION --counters C,... [--events E+...] [--interval N] [--flags F+...] (xperf -pmc):
// hardware counters on kernel events, through etwctl::setup_pmc (each step named on failure).
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "etwctl/error.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/profiler/pmc.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/typed/set.hpp"

#include "../names.hpp"
#include "../session.hpp"
#include "../sources.hpp"
#include "commands.hpp"

namespace etwctl_tool {

int cmd_pmc(context const& ctx, tool_kernel& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() != 2) return usage_error(ctx, "expected SESSION");
    auto const counters_text = ctx.cl.option("--counters");
    if (!counters_text || blank(*counters_text)) return usage_error(ctx, "--counters is required");
    if (auto const m = separator_error(*counters_text, '+', ',', "counters"); !m.empty()) return usage_error(ctx, m);
    std::optional<std::uint32_t> interval;
    if (auto const t = ctx.cl.option("--interval")) {
        std::uint64_t n = 0;
        if (!parse_uint(*t, 0xFFFFFFFFULL, n) || n == 0) return usage_error(ctx, "bad --interval '" + *t + "': give an event count");
        interval = static_cast<std::uint32_t>(n);
    }
    // Counters: names as the machine's list spells them (the library resolves them), or ids.
    std::vector<std::string> const names = split(*counters_text, ',');
    std::vector<etwctl::pmc_counter> counters;
    for (auto const& n : names) {
        if (n.empty()) return usage_error(ctx, "empty counter name in --counters");
        std::uint64_t id = 0;
        etwctl::profile_interval const iv{interval.value_or(0)};
        counters.push_back(parse_uint(n, 0xFFFFFFFFULL, id) ? etwctl::pmc_counter::of_id(static_cast<std::uint32_t>(id), iv)
                                                            : etwctl::pmc_counter::named(n, iv));
    }
    // Events: xperf's '+' (a comma is accepted here too).
    etwctl::hook_id ids[etwctl::limits::max_stack_tracing_events];
    std::size_t n_events = 0;
    bool too_many = false;
    std::string const events_text = ctx.cl.option("--events").value_or("");
    if (auto const r = parse_events_arg(events_text, ids, n_events, true, too_many); !r.ok) return usage_error(ctx, r.message);
    etwctl::group_mask add;
    auto const flags = ctx.cl.option("--flags");
    if (flags)
        if (auto const r = parse_flags_arg(*flags, add); !r.ok) return usage_error(ctx, r.message);

    session_arg s;
    if (int const rc = resolve_session(ctx, k, p[1], s); rc != exit_ok) return rc;
    out.num("session", s.handle.value);
    std::vector<std::byte> storage = source_list_storage(k.inner()); // a list of any length
    // Every named counter must be on this machine before anything is sent (--flags would otherwise be
    // set and stay set when a later step refuses a name). Read directly: not a request of this command.
    for (std::size_t i = 0; i < counters.size(); ++i) {
        if (!counters[i].by_name()) continue;
        auto const found = etwctl::find_profile_source(k.inner(), names[i], storage);
        if (found || etwctl::rule_of(found.error()) != etwctl::rule::profile_source_absent) continue;
        std::string m = "counter '" + names[i] + "' is not in this machine's profile-source list";
        if (auto const listed = read_sources(k.inner()))
            if (auto const near = suggest_source(*listed, names[i]); !near.empty()) m += " (did you mean " + near + "?)";
        failure f{exit_refused, found.error(), m + "; nothing was sent", {}, {}};
        f.hint = "see etwctl profile-sources";
        f.details.str("counter", names[i]);
        return report_failure(ctx, f);
    }
    // --flags: added to the session's flags first, so the events' groups are on when checked.
    if (flags) {
        auto const current = etwctl::query<etwctl::system_trace_enable_flags>(k, s.handle);
        if (!current) return report_failure(ctx, {exit_code_of(current.error()), current.error(), "cannot read the flags of " + s.text, {}, {}});
        etwctl::group_mask const merged = display_mask(*current) | add;
        if (auto const ec = etwctl::set<etwctl::system_trace_enable_flags>(k, s.handle, merged); ec)
            return report_failure(ctx, {exit_code_of(ec), ec, "cannot set the flags of " + s.text, {}, {}});
        out.str("flags", flags_text(merged));
    }

    etwctl::pmc_options options;
    options.source_list_storage = storage;
    auto const r = etwctl::setup_pmc(k, s.handle, std::span<etwctl::pmc_counter const>(counters),
                                     std::span<etwctl::hook_id const>(ids, n_events), options);
    // Names for counters given by id, from the machine's list (read directly: not a request of this command).
    std::vector<source_row> rows;
    if (auto const listed = read_sources(k.inner())) rows = *listed;
    auto const counter_label = [&](std::size_t i) {
        if (i < r.counter_count)
            for (auto const& row : rows)
                if (row.id == r.counters[i]) return row.name;
        return i < names.size() ? names[i] : std::string("?");
    };
    std::vector<std::string> cj;
    std::string ctext;
    for (std::size_t i = 0; i < r.counter_count; ++i) {
        cj.push_back(json_object().str("name", counter_label(i)).num("id", r.counters[i]).text());
        ctext += (i ? ", " : "") + counter_label(i) + " (" + std::to_string(r.counters[i]) + ")";
    }
    std::vector<std::string> ej;
    for (std::size_t i = 0; i < n_events; ++i)
        ej.push_back(json_object().str("hook", hex(ids[i].value, 4)).str("name", etwctl::kernel_event_name(ids[i])).text());
    out.raw("counters", json_array(cj)).raw("events", json_array(ej));
    if (interval) out.num("interval", *interval);
    if (r.ok()) {
        if (!ctx.cl.json)
            std::cout << s.text << ": PMC counters " << ctext << " on "
                      << (n_events ? event_list_text(std::span<etwctl::hook_id const>(ids, n_events)) : std::string("no events"))
                      << (interval ? ", interval " + std::to_string(*interval) : std::string()) << "\n";
        return exit_ok;
    }

    // Failure: name the step and the condition, and what it was about.
    std::string m = "failed at " + std::string(etwctl::to_string(r.step)) + ": " + std::string(etwctl::to_string(r.condition));
    if (r.index != etwctl::pmc_report::npos) {
        if (r.step == etwctl::pmc_step::check_event_groups || r.condition == etwctl::pmc_condition::event_not_kernel) {
            auto const h = r.index < n_events ? ids[r.index] : r.event;
            m += " (event " + event_list_text(std::span<etwctl::hook_id const>(&h, 1));
            if (r.missing_flag.value) m += " needs " + flags_text(etwctl::group_mask(r.missing_flag)) + "; add --flags " +
                                            flags_text(etwctl::group_mask(r.missing_flag));
            m += ")";
        } else {
            m += " (counter '" + counter_label(r.index) + "'";
            if (r.condition == etwctl::pmc_condition::interval_out_of_bounds)
                m += ": bounds [" + std::to_string(r.min_interval) + ", " + std::to_string(r.max_interval) + "]";
            if (etwctl::rule_of(r.error) == etwctl::rule::profile_source_absent && r.index < names.size())
                if (auto const near = suggest_source(rows, names[r.index]); !near.empty()) m += ": did you mean " + near + "?";
            m += ")";
        }
    }
    if (r.counters_applied) m += "; the session's counter list was set and cannot be taken back";
    if (r.rollback_error) m += "; putting the intervals back failed too: " + r.rollback_error.message();
    failure f{r.counters_applied || r.rollback_error ? exit_partial : exit_code_of(r.error), r.error, m, {}, {}};
    f.details.str("step", etwctl::to_string(r.step)).str("condition", etwctl::condition_name(r.condition));
    if (r.index != etwctl::pmc_report::npos) f.details.num("index", r.index);
    f.details.boolean("counters_applied", r.counters_applied).boolean("events_applied", r.events_applied);
    return report_failure(ctx, f);
}

} // namespace etwctl_tool
