// SPDX-License-Identifier: MIT
// etwctl/wpr/profiles.hpp - from .wprp documents to a plan: check them against the schema, choose a
// profile, resolve its Base= chains and operations (etwctl/wpr/resolve.hpp), and lower the result to
// wpr::plan (etwctl/wpr/plan.hpp). No XML library here: the documents come from etwctl/wpr/read.hpp (or
// are built by hand); etwctl/wpr/wpr.hpp reads and lowers in one call.
//
//   std::vector<wpr::document> docs;                        // [0] = the profile's file, then base files
//   docs.push_back(wpr::read_document(text, "CPU.wprp"));
//   wpr::load_result r = wpr::make_plan(std::move(docs), {.profile = "CPU-Dispatch"});   // Verbose, Memory
//   for (auto const& f : r.findings) std::puts(wpr::format(f).c_str());
//   if (r.plan) apply(*r.plan);
//
// Lowering (the facts, each with its public source, are next to the code that uses them):
//   - the system collector(s) -> one system logger (WPR makes one system session: devblogs.microsoft.com
//     performance-diagnostics "Controlling the event session name with the instance name"), its
//     SystemProviders' keywords -> a group mask set per Masks[] index (names/wpr.hpp), Stacks -> hook ids
//     (names/events.hpp), StackCaching, HardwareCounter -> PMC counters / events, sampled counters, LBR;
//   - each event collector Name -> one session with its providers (EventProvider attributes and children
//     are EnableTraceEx2's parameters: devblogs.microsoft.com performance-diagnostics
//     "authoring-custom-profile-part3");
//   - LoggingMode Memory -> EVENT_TRACE_BUFFERING_MODE, File -> a sequential file (wpt/logging-mode).
// What the plan cannot carry is named in a not_carried warning; what etwctl had to read into the
// sources, in a reading warning. Opt-in and allocating, as all of etwctl/wpr/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "etwctl/config.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/wpr.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/wpr/document.hpp"
#include "etwctl/wpr/plan.hpp"
#include "etwctl/wpr/resolve.hpp"
#include "etwctl/wpr/schema.hpp"
#include "etwctl/wpr/validate.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr {

/// What make_plan found: the plan when nothing was in error, and every finding (errors and warnings; the
/// plan's warnings are the same warnings).
struct load_result {
    std::optional<wpr::plan> plan;
    std::vector<finding> findings;
    [[nodiscard]] bool ok() const noexcept { return plan.has_value(); }
};

namespace detail {

using schema::type;

[[nodiscard]] inline std::vector<xml_element const*> items_of(xml_element const& e, std::string_view list) {
    std::vector<xml_element const*> v;
    for (auto const& c : e.children)
        if (c.name == list)
            for (auto const& i : c.children) v.push_back(&i);
    return v;
}

[[nodiscard]] inline std::string lower_ascii(std::string_view s) {
    std::string o(s);
    for (char& c : o) c = etwctl::detail::ascii_lower(c);
    return o;
}

class lowerer {
public:
    lowerer(resolver& res, profile_request const& request) : res_(res), request_(request) {}

    std::optional<plan> lower(xml_element const& profile) {
        xml_element const eff = res_.effective(profile, type::profile);
        plan p;
        p.file = std::string(res_.file_of(profile));
        p.profile_id = std::string(profile.value_of("Id"));
        p.profile_name = std::string(eff.value_of("Name"));
        p.description = std::string(eff.value_of("Description"));
        p.level = eff.value_of("DetailLevel") == "Light" ? detail_level::light : detail_level::verbose;
        p.mode = eff.value_of("LoggingMode") == "File" ? logging_mode::file : logging_mode::memory;
        mode_ = p.mode;
        for (auto const* c : items_of(eff, "ProblemCategories")) p.problem_categories.push_back(std::string(c->value_of("Value")));
        if (auto const* t = child(eff, "TraceMergeProperties"))
            not_carried(*t, "<TraceMergeProperties> says how WPR merges the trace it saves; not a session setting");
        std::vector<collector_item> system_items;
        std::vector<collector_item> event_items;
        for (auto const* c : items_of(eff, "Collectors")) {
            if (c->name == "SystemCollectorId") {
                if (auto e = collector(*c, "SystemCollector", type::system_collector, type::system_collector_id))
                    system_items.push_back(std::move(*e));
            } else if (c->name == "EventCollectorId") {
                if (auto e = collector(*c, "EventCollector", type::event_collector, type::event_collector_id))
                    event_items.push_back(std::move(*e));
            } else {
                not_carried(*c, "<" + c->name + " Value=\"" + std::string(c->value_of("Value")) +
                                    "\">: etwctl does not start heap or hypervisor sessions; the collector and its providers are not carried");
            }
        }
        if (system_items.empty() && event_items.empty())
            res_.error(check::element, eff, "profile '" + p.profile_id + "' names no system or event collector: nothing to start");
        if (!system_items.empty()) p.system = system(system_items);
        event_sessions(event_items, p.event_sessions);
        return p;
    }

private:
    resolver& res_;
    profile_request const& request_;
    logging_mode mode_ = logging_mode::memory;

    void not_carried(xml_element const& e, std::string text, xml_attribute const* a = nullptr) {
        res_.warn(check::not_carried, e, std::move(text) + " (not carried)", a);
    }

    struct collector_item {
        xml_element e; ///< the collector with the reference's settings over it, and the reference's providers
        std::string id; ///< the collector's Id (the reference's Value)
    };
    /// A collector reference with its object: the object's settings, the reference's over them.
    std::optional<collector_item> collector(xml_element const& ref, std::string_view kind, type object_type, type ref_type) {
        std::optional<xml_element> o = res_.object(kind, object_type, ref.value_of("Value"), ref, ref.attribute("Value"), false);
        xml_element base;
        if (o) base = std::move(*o);
        else {
            base.name = std::string(kind);
            base.at = ref.at;
            base.source = ref.source;
        }
        return collector_item{res_.merge(std::move(base), ref, ref_type, true), std::string(ref.value_of("Value"))};
    }

    // ---- sessions -------------------------------------------------------------------------------

    session_plan session(collector_item const& item, bool system_logger) {
        xml_element const& c = item.e;
        session_plan s;
        s.collector_id = item.id;
        s.collector_name = std::string(c.value_of("Name"));
        s.system_logger = system_logger;
        std::string const name = system_logger ? std::string(system_collector_session_name)
                                               : (s.collector_name.empty() ? s.collector_id : s.collector_name);
        s.name = request_.session_prefix + name;
        std::uint32_t mode = mode_ == logging_mode::memory ? log_file_mode::buffering : log_file_mode::sequential;
        if (system_logger) mode |= log_file_mode::system_logger;
        if (auto const* b = child(c, "BufferSize")) {
            s.buffer_size_kb = static_cast<std::uint32_t>(*parse_unsigned(b->value_of("Value"), 0xFFFFFFFFULL));
        } else {
            s.defaulted.push_back("buffer_size_kb");
        }
        if (auto const* b = child(c, "Buffers")) {
            double const value = *parse_decimal(b->value_of("Value"));
            if (parse_boolean(b->value_of("PercentageOfTotalMemory")).value_or(false)) {
                memory_share share;
                share.percent = value;
                if (b->has("MaximumBufferSpace"))
                    share.maximum_buffer_space_mb =
                        static_cast<std::uint32_t>(*parse_unsigned(b->value_of("MaximumBufferSpace"), 0xFFFFFFFFULL));
                s.buffers_from_memory = share;
                res_.warn(check::reading, *b,
                          "Buffers is " + std::string(collapse(b->value_of("Value"))) +
                              "% of the machine's memory: the count is computed on the machine (buffers_for_memory, etwctl's "
                              "reading of WPR's docs: the share of memory in buffers of BufferSize, capped at MaximumBufferSpace)");
            } else if (auto const n = parse_unsigned(b->value_of("Value"), 0xFFFFFFFFULL)) {
                s.minimum_buffers = s.maximum_buffers = static_cast<std::uint32_t>(*n);
            } else {
                res_.error(check::value, *b,
                           "Buffers Value '" + std::string(b->value_of("Value")) +
                               "' is not a whole number of buffers (a fraction means something only with PercentageOfTotalMemory=\"true\")",
                           b->attribute("Value"));
            }
            if (b->has("MinimumRundownSpace"))
                not_carried(*b, "MinimumRundownSpace: WPR does not publish what it sets", b->attribute("MinimumRundownSpace"));
        } else {
            s.defaulted.push_back("buffers");
        }
        if (auto const* m = child(c, "MaximumFileSize")) {
            if (mode_ == logging_mode::memory) {
                not_carried(*m, "MaximumFileSize in a Memory profile: the session has no file");
            } else {
                s.maximum_file_size_mb = static_cast<std::uint32_t>(*parse_unsigned(m->value_of("Value"), 0xFFFFFFFFULL));
                if (m->value_of("FileMode") == "Circular") mode = (mode & ~log_file_mode::sequential) | log_file_mode::circular;
                res_.warn(check::reading, *m, "MaximumFileSize is read as megabytes, the unit of EVENT_TRACE_PROPERTIES (WPR does not publish its unit)");
            }
        }
        if (auto const* f = child(c, "FileMax")) not_carried(*f, "FileMax: WPR does not publish what it sets");
        if (auto const* f = child(c, "FlushTimer"))
            s.flush_timer_s = static_cast<std::uint32_t>(*parse_unsigned(f->value_of("Value"), 0xFFFFFFFFULL));
        if (auto const* f = child(c, "FlushThreshold"))
            s.flush_threshold = static_cast<std::uint32_t>(*parse_unsigned(f->value_of("Value"), 0xFFFFFFFFULL));
        if (!system_logger)
            if (auto const* sc = child(c, "StackCaching"))
                not_carried(*sc, "StackCaching on an event collector: etwctl sets stack caching on the system logger only");
        auto flag = [&](std::string_view attr) { return parse_boolean(c.value_of(attr)).value_or(false); };
        if (flag("Realtime")) mode |= log_file_mode::real_time;
        if (flag("Private")) mode |= log_file_mode::private_logger;    // EVENT_TRACE_PRIVATE_LOGGER_MODE (by name)
        if (flag("ProcessPrivate")) mode |= log_file_mode::private_in_proc; // EVENT_TRACE_PRIVATE_IN_PROC (by name)
        if (flag("Secure")) mode |= log_file_mode::secure;             // EVENT_TRACE_SECURE_MODE (by name)
        if (flag("HostGuestCorrelation"))
            not_carried(c, "HostGuestCorrelation: WPR does not publish what it sets", c.attribute("HostGuestCorrelation"));
        s.log_file_mode = mode;
        return s;
    }

    static bool same_settings(session_plan const& a, session_plan const& b) noexcept {
        return a.log_file_mode == b.log_file_mode && a.buffer_size_kb == b.buffer_size_kb && a.minimum_buffers == b.minimum_buffers &&
               a.maximum_buffers == b.maximum_buffers && a.maximum_file_size_mb == b.maximum_file_size_mb &&
               a.flush_timer_s == b.flush_timer_s && a.flush_threshold == b.flush_threshold &&
               a.buffers_from_memory.has_value() == b.buffers_from_memory.has_value();
    }

    void event_sessions(std::vector<collector_item> const& items, std::vector<session_plan>& out) {
        std::map<std::string, std::size_t> by_name; // a session's place in out, by its name
        for (auto const& item : items) {
            xml_element const& c = item.e;
            session_plan s = session(item, false);
            session_plan* target = nullptr;
            if (auto const it = by_name.find(s.name); it != by_name.end()) target = &out[it->second];
            if (!target) {
                by_name.emplace(s.name, out.size());
                out.push_back(std::move(s));
                target = &out.back();
            } else if (!same_settings(*target, s)) {
                res_.warn(check::reading, c,
                          "event collector '" + s.collector_id + "' has the Name of '" + target->collector_id +
                              "': WPR merges collectors of one Name into one session; etwctl keeps the first one's buffers and modes");
            }
            for (auto const* p : items_of(c, "EventProviders")) provider(*p, *target);
        }
    }

    // ---- the system logger ----------------------------------------------------------------------

    system_plan system(std::vector<collector_item> const& items) {
        system_plan sp;
        sp.session = session(items.front(), true);
        for (std::size_t i = 1; i < items.size(); ++i)
            if (!same_settings(sp.session, session(items[i], true)))
                res_.warn(check::reading, items[i].e,
                          "a second system collector: WPR makes one system session; etwctl keeps the first one's buffers and modes");
        for (auto const& item : items) {
            xml_element const& c = item.e;
            if (auto const* sc = child(c, "StackCaching")) {
                stack_caching_plan caching;
                caching.bucket_count = static_cast<std::uint32_t>(*parse_unsigned(sc->value_of("BucketCount"), 0xFFFFFFFFULL));
                caching.cache_size = static_cast<std::uint32_t>(*parse_unsigned(sc->value_of("CacheSize"), 0xFFFFFFFFULL));
                if (!sp.stack_caching) {
                    sp.stack_caching = caching;
                    res_.warn(check::reading, *sc,
                              "StackCaching CacheSize=" + std::to_string(caching.cache_size) +
                                  ": WPR does not publish the unit; the plan carries the number as written");
                    // Outside the kernel's bounds: WPR applies it and the kernel clamps; etwctl applies the
                    // clamped values and names them here (plan.hpp stack_cache_settings_of).
                    if (std::string clamp = stack_cache_clamp_text(caching); !clamp.empty())
                        res_.warn(check::clamped, *sc, std::move(clamp));
                }
            }
            for (auto const& ch : c.children) {
                if (ch.name == "SystemProviderId") {
                    std::optional<xml_element> o =
                        res_.object("SystemProvider", type::system_provider, ch.value_of("Value"), ch, ch.attribute("Value"), false);
                    xml_element base;
                    if (o) base = std::move(*o);
                    system_provider(res_.merge(std::move(base), ch, type::system_provider_id, true), sp);
                } else if (ch.name == "SystemProvider") {
                    system_provider(res_.effective(ch, type::system_provider), sp);
                } else if (ch.name == "HardwareCounterId") {
                    std::optional<xml_element> o =
                        res_.object("HardwareCounter", type::hardware_counter, ch.value_of("Value"), ch, ch.attribute("Value"), false);
                    xml_element base;
                    if (o) base = std::move(*o);
                    hardware_counter(res_.merge(std::move(base), ch, type::hardware_counter_id, true), std::string(ch.value_of("Value")), sp);
                } else if (ch.name == "HardwareCounter") {
                    hardware_counter(res_.effective(ch, type::hardware_counter), std::string(ch.value_of("Id")), sp);
                }
            }
            for (auto const* p : items_of(c, "EventProviders")) provider(*p, sp.session);
        }
        drop_repeated_hooks(sp.stacks);
        if (sp.stacks.size() > limits::max_stack_tracing_events)
            res_.error(check::limit, items.front().e,
                       "the system logger's stack list has " + std::to_string(sp.stacks.size()) + " events; the kernel takes at most " +
                           std::to_string(limits::max_stack_tracing_events));
        return sp;
    }

    std::optional<hook_id> stack_hook(xml_element const& s) {
        std::string_view const v = s.value_of("Value");
        if (s.name == "CustomStack") {
            if (auto const h = parse_hex_or_dec(v, 0xFFFF)) return hook_id(static_cast<std::uint16_t>(*h));
            res_.error(check::value, s, "CustomStack '" + std::string(v) + "' is not a hook id (16 bits: 0xGGTT, group and type)",
                       s.attribute("Value"));
            return std::nullopt;
        }
        if (auto const* e = find_wpr_stack(v)) return e->hook();
        if (auto const* known = find_kernel_event_without_hook(v)) {
            res_.error(check::no_value, s,
                       "'" + std::string(v) + "' is a Stack name of WPR's schema whose hook id no public source gives (" +
                           std::string(known->seen_in) + "); etwctl does not guess it: give the hook id as <CustomStack Value=\"0x....\"/> if you know it",
                       s.attribute("Value"));
            return std::nullopt;
        }
        res_.error(check::value, s, "'" + std::string(v) + "' is not a Stack name", s.attribute("Value")); // stopped by validation
        return std::nullopt;
    }

    /// Adds the hook of a Stack (or Event) element to a list; a hook already there is dropped by
    /// drop_repeated_hooks when the list is complete (one pass, not a search of the list for each).
    void add_hook(std::vector<named_hook>& list, xml_element const& s) {
        if (auto const h = stack_hook(s)) list.push_back({std::string(s.value_of("Value")), *h});
    }
    static void drop_repeated_hooks(std::vector<named_hook>& list) {
        std::vector<bool> seen(std::size_t{1} << 16, false);
        std::size_t kept = 0;
        for (auto& x : list) {
            if (seen[x.hook.value]) continue;
            seen[x.hook.value] = true;
            if (&list[kept] != &x) list[kept] = std::move(x);
            ++kept;
        }
        list.resize(kept);
    }

    void system_provider(xml_element const& p, system_plan& sp) {
        for (auto const* k : items_of(p, "Keywords")) {
            std::string_view const v = k->value_of("Value");
            if (k->name == "CustomKeyword") {
                auto const n = parse_hex_or_dec(v, 0xFFFFFFFFULL);
                perf_flag const f{static_cast<std::uint32_t>(n.value_or(0))};
                if (f.bits() == 0) {
                    res_.error(check::value, *k,
                               "CustomKeyword '" + std::string(v) + "' sets no bits: bits 29-31 of a group-mask value are the Masks[] index, bits 0-28 the flags",
                               k->attribute("Value"));
                    continue;
                }
                sp.flags.set(f);
                sp.keywords.push_back(std::string(v));
            } else if (auto const* row = find_wpr_keyword(v)) {
                sp.flags.set(row->value);
                sp.keywords.push_back(std::string(v));
            } else if (auto const* known = find_wpr_keyword_without_value(v)) {
                res_.error(check::no_value, *k,
                           "'" + std::string(v) + "' is a SystemProvider keyword of WPR's schema whose group-mask value no public source gives (" +
                               std::string(known->seen_in) + "); etwctl does not guess it: give the value as <CustomKeyword Value=\"0x...\"/> if you know it",
                           k->attribute("Value"));
            }
        }
        for (auto const* s : items_of(p, "Stacks")) add_hook(sp.stacks, *s);
        for (std::string_view const cs : {"CaptureStateOnStart", "CaptureStateOnSave", "CaptureStateOnDemand"})
            if (auto const* c = child(p, cs))
                not_carried(*c, "<" + std::string(cs) + "> of a SystemProvider asks for a kernel rundown; how WPR triggers one is not published");
        if (auto const* t = child(p, "PoolTags")) {
            std::string tags;
            for (auto const& i : t->children) tags += (tags.empty() ? "" : ", ") + std::string(i.value_of("Value"));
            not_carried(*t, "pool-tag filter (" + tags + "): etwctl has no call for it (an EnableFlags extension at StartTrace)");
        }
        if (parse_boolean(p.value_of("SuppressHighVolume")).value_or(false))
            not_carried(p, "SuppressHighVolume: WPR does not publish what it sets", p.attribute("SuppressHighVolume"));
    }

    void hardware_counter(xml_element const& h, std::string id, system_plan& sp) {
        if (sp.hardware_counters) {
            res_.warn(check::reading, h, "a second HardwareCounter in one recording: the PMU takes one configuration; etwctl keeps the first");
            return;
        }
        hardware_counter_plan hc;
        hc.id = std::move(id);
        hc.strict = parse_boolean(h.value_of("Strict")).value_or(false);
        for (auto const* c : items_of(h, "Counters")) hc.counters.push_back(std::string(c->value_of("Value")));
        for (auto const* e : items_of(h, "Events")) add_hook(hc.events, *e);
        for (auto const* s : items_of(h, "SampledCounters")) {
            sampled_counter_plan sc;
            sc.source = std::string(s->value_of("Value"));
            if (s->has("Interval")) sc.interval = static_cast<std::uint32_t>(*parse_unsigned(s->value_of("Interval"), 0xFFFFFFFFULL));
            hc.sampled.push_back(std::move(sc));
        }
        if (auto const* raw = child(h, "LastBranch")) {
            xml_element const last = res_.normalize(*raw, type::last_branch);
            xml_element const* l = &last;
            last_branch_plan lb;
            for (auto const* e : items_of(*l, "Events")) add_hook(lb.events, *e);
            if (auto const* f = child(*l, "LastBranchFilters"); f && !f->children.empty())
                not_carried(*f, "LastBranchFilterOut: which LBR filter bit each name sets is not published");
            drop_repeated_hooks(lb.events);
            hc.last_branch = std::move(lb);
        }
        if (auto const* t = child(h, "ProcessorTrace")) not_carried(*t, "<ProcessorTrace>: etwctl has no call for processor trace");
        if (auto const* m = child(h, "MicroArchitecturalConfigId"))
            not_carried(*m, "<MicroArchitecturalConfigId>: custom profile sources are not part of the plan (add_profile_source)");
        if (hc.counters.size() > limits::max_pmc_counters)
            res_.error(check::limit, h, std::to_string(hc.counters.size()) + " counters: the kernel takes at most " +
                                            std::to_string(limits::max_pmc_counters));
        drop_repeated_hooks(hc.events);
        sp.hardware_counters = std::move(hc);
    }

    // ---- providers ------------------------------------------------------------------------------

    /// An EventProvider's Keyword value: hexadecimal, as every public profile writes it ("0x10"); a bare
    /// number is read as hexadecimal too (said so when it has more than one digit).
    std::optional<std::uint64_t> event_keyword(xml_element const& k) {
        std::string_view const v = collapse(k.value_of("Value"));
        std::string_view digits = v;
        bool const prefixed = digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
        if (prefixed) digits.remove_prefix(2);
        bool ok = !digits.empty() && digits.size() <= 16;
        for (char c : digits) ok = ok && is_hex_digit(c);
        if (!ok) {
            res_.error(check::value, k, "Keyword '" + std::string(v) + "' is not a 64-bit keyword value (0x and up to 16 hex digits)",
                       k.attribute("Value"));
            return std::nullopt;
        }
        if (!prefixed && digits.size() > 1)
            res_.warn(check::reading, k, "Keyword '" + std::string(v) + "' has no 0x: read as hexadecimal, as WPR's keyword values are written",
                      k.attribute("Value"));
        return parse_hex_or_dec("0x" + std::string(digits), ~std::uint64_t{0});
    }

    std::uint64_t keywords_of(xml_element const& list) {
        std::uint64_t any = 0;
        for (auto const& k : list.children)
            if (auto const v = event_keyword(k)) any |= *v;
        return any;
    }

    std::optional<event_id_filter_plan> id_filter(xml_element const* f) {
        if (!f) return std::nullopt;
        event_id_filter_plan p;
        p.filter_in = parse_boolean(f->value_of("FilterIn")).value_or(true);
        for (auto const& i : f->children) {
            auto const v = parse_hex_or_dec(i.value_of("Value"), 0xFFFF);
            if (!v) {
                res_.error(check::limit, i, "EventId '" + std::string(i.value_of("Value")) + "' is not an event id (16 bits)", i.attribute("Value"));
                continue;
            }
            p.ids.push_back(static_cast<std::uint16_t>(*v));
        }
        return p;
    }

    std::optional<event_name_filter_plan> name_filter(xml_element const* f) {
        if (!f) return std::nullopt;
        event_name_filter_plan p;
        p.filter_in = parse_boolean(f->value_of("FilterIn")).value_or(true);
        if (f->has("Level")) p.level = static_cast<std::uint8_t>(*parse_unsigned(f->value_of("Level"), 255));
        for (auto const& c : f->children) {
            if (c.name == "Keyword") {
                if (auto const v = event_keyword(c)) p.match_any |= *v;
            } else {
                p.names.push_back(std::string(c.value_of("Value")));
            }
        }
        return p;
    }

    void provider(xml_element const& item, session_plan& s) {
        xml_element e;
        if (item.name == "EventProviderId") {
            std::optional<xml_element> o =
                res_.object("EventProvider", type::event_provider, item.value_of("Value"), item, item.attribute("Value"), false);
            if (!o) return;
            e = res_.merge(std::move(*o), item, type::event_provider_id, true);
        } else {
            e = res_.effective(item, type::event_provider);
        }
        provider_plan p;
        p.id = std::string(e.value_of("Id"));
        p.name = std::string(e.value_of("Name"));
        guid g;
        if (guid::try_parse(collapse(p.name), g)) p.provider = g;
        if (e.has("Level")) {
            p.level = static_cast<std::uint8_t>(*parse_unsigned(e.value_of("Level"), 255));
            p.level_given = true;
        }
        for (auto const& c : e.children)
            if (c.name == "Keywords") p.match_any |= keywords_of(c);
        auto flag = [&](std::string_view attr) { return parse_boolean(e.value_of(attr)).value_or(false); };
        // EventProvider attributes -> EVENT_ENABLE_PROPERTY_* (matched by name: devblogs part 3 says they are
        // EnableTraceEx2's parameters)
        if (flag("Stack")) p.enable_property |= enable_property::stack_trace;
        if (flag("SID")) p.enable_property |= enable_property::sid;
        if (flag("TSID")) p.enable_property |= enable_property::ts_id;
        if (flag("EventKey")) p.enable_property |= enable_property::event_key;
        if (flag("ExcludeInPrivate")) p.enable_property |= enable_property::exclude_inprivate;
        if (flag("EnableSilos")) p.enable_property |= enable_property::enable_silos;
        if (flag("ContainerId")) p.enable_property |= enable_property::source_container_tracking;
        p.capture_state_only = flag("CaptureStateOnly");
        p.strict = flag("Strict");
        if (flag("NonPagedMemory"))
            not_carried(e, "NonPagedMemory: WPR does not publish what it sets for a provider", e.attribute("NonPagedMemory"));
        std::string_view exe = e.value_of("ProcessExeFilter");
        while (!exe.empty()) {
            auto const semi = exe.find(';');
            std::string_view const one = collapse(exe.substr(0, semi));
            if (!one.empty()) p.exe_names.push_back(std::string(one));
            if (semi == std::string_view::npos) break;
            exe.remove_prefix(semi + 1);
        }
        struct moment {
            std::string_view list;
            capture_moment when;
        };
        for (auto const m : {moment{"CaptureStateOnStart", capture_moment::start}, moment{"CaptureStateOnSave", capture_moment::save},
                             moment{"CaptureStateOnDemand", capture_moment::demand}})
            for (auto const& c : e.children) {
                if (c.name != m.list) continue;
                capture_state_plan cs;
                cs.when = m.when;
                cs.match_any = keywords_of(c);
                std::string_view const t = c.value_of("Timeout");
                if (t == "infinite") cs.infinite = true;
                else if (!t.empty()) cs.timeout_s = static_cast<std::uint32_t>(*parse_unsigned(t, 4294967));
                p.capture_state.push_back(cs);
            }
        p.event_ids = id_filter(child(e, "EventFilters"));
        p.stack_event_ids = id_filter(child(e, "StackFilters"));
        p.event_names = name_filter(child(e, "EventNameFilters"));
        p.stack_event_names = name_filter(child(e, "StackEventNameFilters"));
        if (auto const* f = child(e, "StackKeywordLevelFilter")) {
            level_keyword_filter_plan l;
            l.filter_in = parse_boolean(f->value_of("FilterIn")).value_or(true);
            if (f->has("Level")) l.level = static_cast<std::uint8_t>(*parse_unsigned(f->value_of("Level"), 255));
            l.match_any = keywords_of(*f);
            p.stack_level_keyword = l;
        }
        if (auto const* f = child(e, "CustomFilter"))
            not_carried(*f, "CustomFilter: what WPR sends for it is not published");
        if (auto const* st = child(e, "Stacks"); st && !st->children.empty())
            not_carried(*st, "Stacks of an EventProvider: how WPR sends them is not published");
        merge_provider(std::move(p), s, item);
    }

    /// The providers of each session by key (a session is known by its name and whether it is the
    /// system logger): a provider already in the session is found without a search of its list.
    std::map<std::pair<bool, std::string>, std::map<std::string, std::size_t>> provider_places_;

    void merge_provider(provider_plan p, session_plan& s, xml_element const& at) {
        auto const key = [](provider_plan const& x) {
            if (x.provider) {
                char text[37] = {};
                x.provider->format(text);
                return lower_ascii(text);
            }
            return lower_ascii(collapse(x.name));
        };
        auto& places = provider_places_[{s.system_logger, s.name}];
        auto const [place, fresh] = places.try_emplace(key(p), s.providers.size());
        if (!fresh) {
            auto& o = s.providers[place->second];
            bool const differ = o.level != p.level || o.match_any != p.match_any || o.enable_property != p.enable_property ||
                                o.capture_state_only != p.capture_state_only;
            if (differ)
                res_.warn(check::reading, at,
                          "provider '" + p.name + "' (" + p.id + ") is already in session '" + s.name + "' (" + o.id +
                              "): one EnableTraceEx2 per provider; etwctl ORs the keywords and enable properties and keeps the higher level");
            o.match_any |= p.match_any;
            o.enable_property |= p.enable_property;
            if (p.level > o.level) o.level = p.level;
            o.level_given = o.level_given || p.level_given;
            o.capture_state_only = o.capture_state_only && p.capture_state_only;
            o.strict = o.strict || p.strict;
            for (auto& c : p.capture_state) o.capture_state.push_back(c);
            for (auto& x : p.exe_names) o.exe_names.push_back(std::move(x));
            if (!o.event_ids) o.event_ids = std::move(p.event_ids);
            if (!o.stack_event_ids) o.stack_event_ids = std::move(p.stack_event_ids);
            if (!o.event_names) o.event_names = std::move(p.event_names);
            if (!o.stack_event_names) o.stack_event_names = std::move(p.stack_event_names);
            if (!o.stack_level_keyword) o.stack_level_keyword = p.stack_level_keyword;
            return;
        }
        s.providers.push_back(std::move(p));
    }
};

/// The profile the request names in the main file: by Id, else by Name with the level (Verbose when not
/// given) and the logging mode. nullptr (and an error naming what the file has) when there is none.
inline xml_element const* choose_profile(document const& d, profile_request const& q, std::vector<finding>& out) {
    std::vector<xml_element const*> profiles;
    for (auto const& c : d.root->children)
        if (c.name == "Profiles")
            for (auto const& p : c.children)
                if (p.name == "Profile") profiles.push_back(&p);
    std::string wanted = q.profile;
    if (wanted.empty()) { // one Name in the file: that one
        std::set<std::string_view> names;
        for (auto const* p : profiles) names.insert(p->value_of("Name"));
        if (names.size() == 1) wanted = std::string(*names.begin());
    }
    for (auto const* p : profiles)
        if (p->value_of("Id") == wanted) return p;
    detail_level const level = q.level.value_or(detail_level::verbose);
    for (auto const* p : profiles)
        if (etwctl::detail::iequals(p->value_of("Name"), wanted) && p->value_of("DetailLevel") == to_string(level) &&
            p->value_of("LoggingMode") == to_string(q.mode))
            return p;
    std::string have;
    for (auto const* p : profiles)
        have += (have.empty() ? "" : ", ") + std::string(p->value_of("Name")) + " (" + std::string(p->value_of("DetailLevel")) + ", " +
                std::string(p->value_of("LoggingMode")) + ")";
    bool named = false; // the Name exists, with another level or mode
    for (auto const* p : profiles) named = named || etwctl::detail::iequals(p->value_of("Name"), wanted);
    std::string const s = named ? std::string() : nearest_value(wanted, [&](auto f) {
        for (auto const* p : profiles) {
            f(p->value_of("Name"));
            f(p->value_of("Id"));
        }
    });
    finding f;
    f.level = severity::error;
    f.what = check::profile_choice;
    f.file = d.file;
    f.text = wanted.empty() ? "the file has several profiles; name one (FILE!Profile): " + have
                            : "no profile '" + wanted + "' with DetailLevel " + std::string(to_string(level)) + " and LoggingMode " +
                                  std::string(to_string(q.mode)) + " in this file; it has: " + have + suggestion_text(s);
    out.push_back(std::move(f));
    return nullptr;
}

} // namespace detail

namespace detail {

/// The checks of the files as a whole (reading, the schema, the doc rules), findings to `out`; true when
/// a profile of documents[0] can be looked at.
inline bool check_documents(std::vector<document>& documents, std::vector<finding>& out) {
    for (std::size_t i = 0; i < documents.size(); ++i) {
        if (documents[i].root) stamp(*documents[i].root, i);
        for (auto const& f : documents[i].findings) out.push_back(f);
    }
    for (auto const& d : documents) validate(d, out);
    if (documents.empty()) return false;
    check_doc_rules(documents[0], out);
    if (has_errors(out) || !documents[0].root) return false;
    for (auto const& c : documents[0].root->children)
        if (c.name == "TraceMergeProperties" || c.name == "OnOffTransitionConfigurations")
            out.push_back(finding_at(severity::warning, check::not_carried, documents[0].file, c,
                                     "<" + c.name + "> is about saving traces or transition scenarios, not sessions (not carried)"));
    return true;
}

/// One profile of checked documents, lowered: its own findings (resolving, choosing, lowering) to `out`;
/// the plan when none of them is an error.
inline std::optional<plan> lower_profile(std::vector<document> const& documents, profile_request const& request, std::vector<finding>& out) {
    resolver res(documents, out);
    xml_element const* profile = choose_profile(documents[0], request, out);
    if (!profile) return std::nullopt;
    lowerer l(res, request);
    std::optional<plan> p = l.lower(*profile);
    if (!p || has_errors(out)) return std::nullopt;
    return p;
}

} // namespace detail

/// Checks the documents ([0] the profile's file, then base files) against WPR's schema, chooses the
/// requested profile in documents[0], resolves it and lowers it to a plan. The result has the plan
/// when no finding is an error, and every finding in either case.
[[nodiscard]] inline load_result make_plan(std::vector<document> documents, profile_request const& request) {
    load_result r;
    if (!detail::check_documents(documents, r.findings)) return r;
    std::optional<plan> p = detail::lower_profile(documents, request, r.findings);
    if (!p || has_errors(r.findings)) return r;
    for (auto const& f : r.findings)
        if (f.level == severity::warning) p->warnings.push_back(f);
    r.plan = std::move(p);
    return r;
}

/// One Profile of a file, checked on its own (wpr -check FILE without !Profile).
struct profile_check {
    profile_entry profile;         ///< as the file declares it (Id, Name, DetailLevel, LoggingMode, ...)
    std::optional<wpr::plan> plan; ///< set when it can be applied (none of its findings is an error)
    /// Its own findings (resolving its Base= chains and references, lowering); the files' findings,
    /// shared by every profile, are in file_check::findings. plan->warnings holds both kinds of warning.
    std::vector<finding> findings;
    [[nodiscard]] bool ok() const noexcept { return plan.has_value(); }
};

/// Every Profile of a file, each lowered as if requested by its Id (so with its own DetailLevel and
/// LoggingMode).
struct file_check {
    std::vector<finding> findings;       ///< the files' own: reading, schema, doc rules
    std::vector<profile_check> profiles; ///< every Profile of documents[0], in the file's order
    /// True when the files have no error, define at least one Profile, and every Profile can be applied.
    [[nodiscard]] bool ok() const noexcept {
        if (has_errors(findings) || profiles.empty()) return false;
        for (auto const& p : profiles)
            if (!p.ok()) return false;
        return true;
    }
    /// The Ids of the profiles that cannot be applied, in the file's order.
    [[nodiscard]] std::vector<std::string> failing() const {
        std::vector<std::string> v;
        for (auto const& p : profiles)
            if (!p.ok()) v.push_back(p.profile.id);
        return v;
    }
};

/// make_plan for every Profile of documents[0] (the profile's file, then base files): the files are
/// checked once; when they hold an error no profile is lowered (profiles is empty).
[[nodiscard]] inline file_check make_plans(std::vector<document> documents, std::string const& session_prefix = profile_request{}.session_prefix) {
    file_check r;
    if (!detail::check_documents(documents, r.findings)) return r;
    for (auto& entry : list_profiles(documents[0])) {
        profile_check c;
        profile_request q;
        q.profile = entry.id;
        q.level = entry.level;
        q.mode = entry.mode;
        q.session_prefix = session_prefix;
        c.plan = detail::lower_profile(documents, q, c.findings);
        if (c.plan) {
            for (auto const& f : r.findings)
                if (f.level == severity::warning) c.plan->warnings.push_back(f);
            for (auto const& f : c.findings)
                if (f.level == severity::warning) c.plan->warnings.push_back(f);
        }
        c.profile = std::move(entry);
        r.profiles.push_back(std::move(c));
    }
    return r;
}

} // namespace wpr
ETWCTL_END_NAMESPACE
