// The commands of the information classes later Windows releases added (issue 13):
//   etwctl limits [SESSION]          TraceMaxLoggersQuery, TraceMaxPmcCounterQuery, TraceStreamCount
//   etwctl pmc owners                 TracePmcCounterOwners: who holds each hardware counter
// A class this Windows lacks is printed as "not on this Windows" (the library's rule class_not_on_this_windows);
// any other failure is reported as usual.
#include <iostream>
#include <string>
#include <vector>

#include "etwctl/error.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/status_codes.hpp"

#include "../session.hpp"
#include "commands.hpp"

namespace etwctl_tool {

namespace {

/// One ULONG answer: printed, or "not on this Windows", or a failure (returned as a non-ok code).
int limit_line(context const& ctx, etwctl::result<std::uint32_t> const& r, std::string_view label, std::string_view key,
               json_object& out) {
    if (r) {
        out.num(key, *r);
        if (!ctx.cl.json) std::cout << label << ": " << *r << "\n";
        return exit_ok;
    }
    if (etwctl::rule_of(r.error()) == etwctl::rule::class_not_on_this_windows) {
        out.str(key, "not on this Windows");
        if (!ctx.cl.json) std::cout << label << ": not on this Windows (" << etwctl::describe(r.error()) << ")\n";
        return exit_ok;
    }
    return report_failure(ctx, {exit_code_of(r.error()), r.error(), "cannot read " + std::string(label), {}, {}});
}

} // namespace

bool not_on_this_windows(std::error_code const& ec) {
    if (etwctl::rule_of(ec) == etwctl::rule::class_not_on_this_windows) return true;
    if (ec.category() != etwctl::ntstatus_category()) return false;
    return ec.value() == etwctl::ntstatus::not_implemented || ec.value() == etwctl::ntstatus::invalid_info_class ||
           ec.value() == etwctl::ntstatus::invalid_device_request;
}

int only_options(context const& ctx, std::initializer_list<std::string_view> valued,
                 std::initializer_list<std::string_view> switches) {
    auto const listed = [](std::initializer_list<std::string_view> l, std::string_view n) {
        for (auto x : l)
            if (x == n) return true;
        return false;
    };
    for (auto const& [name, value] : ctx.cl.options)
        if (!listed(valued, name)) return usage_error(ctx, "option " + name + " does not apply here");
    for (auto const& name : ctx.cl.switches)
        if (!listed(switches, name)) return usage_error(ctx, "option " + name + " does not apply here");
    return exit_ok;
}

int cmd_limits(context const& ctx, tool_kernel& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() > 2) return usage_error(ctx, "expected at most a SESSION");
    if (int const rc = limit_line(ctx, etwctl::query<etwctl::max_loggers>(k), "max loggers", "max_loggers", out); rc != exit_ok)
        return rc;
    if (int const rc = limit_line(ctx, etwctl::query<etwctl::max_pmc_counters>(k), "max PMC counters", "max_pmc_counters", out);
        rc != exit_ok)
        return rc;
    if (p.size() == 2) {
        session_arg s;
        if (int const rc = resolve_session(ctx, k, p[1], s); rc != exit_ok) return rc;
        out.num("session", s.handle.value);
        if (int const rc = limit_line(ctx, etwctl::query<etwctl::stream_count>(k, s.handle), "streams of " + s.text,
                                      "stream_count", out);
            rc != exit_ok)
            return rc;
    }
    return exit_ok;
}

int cmd_pmc_owners(context const& ctx, tool_kernel& k, json_object& out) {
    auto const& p = ctx.cl.positional;
    if (p.size() != 2) return usage_error(ctx, "expected 'pmc owners'");
    std::uint32_t const processor = 0; // the owners of processor 0's counters
    // Room for every counter this machine has (more than 16 exist); read again with the size the
    // kernel names if it still says "too small".
    std::vector<std::byte> storage(etwctl::pmc_owners_head_size);
    if (auto const max = etwctl::query<etwctl::max_pmc_counters>(k.inner()))
        storage.resize(static_cast<std::size_t>(etwctl::pmc_owner_storage_size(*max)));
    std::uint32_t required = 0;
    auto owners = etwctl::query<etwctl::pmc_counter_owners>(k, std::span<std::byte>(storage), processor, &required);
    if (!owners && required > storage.size()) {
        storage.resize(required);
        owners = etwctl::query<etwctl::pmc_counter_owners>(k, std::span<std::byte>(storage), processor, &required);
    }
    if (!owners) {
        if (etwctl::rule_of(owners.error()) == etwctl::rule::class_not_on_this_windows) {
            out.str("owners", "not on this Windows");
            if (!ctx.cl.json) std::cout << "counter owners: not on this Windows (" << etwctl::describe(owners.error()) << ")\n";
            return exit_ok;
        }
        return report_failure(ctx, {exit_code_of(owners.error()), owners.error(), "cannot read the counter owners", {}, {}});
    }
    out.num("processor", processor);
    std::string list = "[";
    for (std::size_t i = 0; i < owners->size(); ++i) {
        auto const o = (*owners)[i];
        json_object row;
        row.num("counter", i).str("owner", etwctl::to_string(o.type)).num("source", o.profile_source).num("tag", o.owner_tag);
        list += (i ? "," : "") + row.text();
        if (!ctx.cl.json) {
            std::cout << "counter " << i << ": " << etwctl::to_string(o.type);
            if (o.type != etwctl::pmc_owner_type::free) std::cout << " (source " << o.profile_source << ", tag " << o.owner_tag << ")";
            std::cout << "\n";
        }
    }
    out.raw("owners", list + "]");
    return exit_ok;
}

} // namespace etwctl_tool
