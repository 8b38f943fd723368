// etwctl wpr: reading a profile (load_wpr_plan, with its findings), -profiles (what a file defines) and
// -check (validate, print the plan, exit 0 when it can be applied: FILE!Profile one profile, FILE every
// profile of the file); the plan as text and as JSON.
#include <iostream>
#include <string>
#include <vector>

#include "../annotate_sessions.hpp"
#include "../names.hpp"
#include "../text.hpp"
#include "wpr_tool.hpp"

namespace etwctl_tool {

namespace wpr = etwctl::wpr;

std::string finding_json(wpr::finding const& f) {
    return json_object()
        .str("file", f.file)
        .num("line", f.line)
        .num("column", f.column)
        .str("severity", f.level == wpr::severity::error ? "error" : "warning")
        .str("check", wpr::to_string(f.what))
        .str("element", f.element)
        .str("text", f.text)
        .text();
}

void warn(context const& ctx, wpr::finding const& f, std::vector<std::string>& warnings) {
    std::cerr << "etwctl: " << ctx.command << ": " << wpr::format(f) << "\n";
    warnings.push_back(finding_json(f));
}

int load_wpr_plan(context const& ctx, wpr_args const& a, std::optional<wpr::plan>& out, std::vector<std::string>& warnings) {
    wpr::profile_spec const spec = wpr::parse_profile_spec(a.target);
    std::vector<wpr::source_file> bases;
    auto const read = [&](std::string const& path, std::string const& what) -> std::optional<std::string> {
        auto t = wpr::read_text_file(path);
        if (!t) usage_error(ctx, "cannot read " + what + " '" + path + "'");
        return t;
    };
    auto const main_text = read(spec.file, "the profile file");
    if (!main_text) return exit_usage;
    for (auto const& b : a.bases) {
        auto t = read(b, "the base file (--base)");
        if (!t) return exit_usage;
        bases.push_back({b, std::move(*t)});
    }
    wpr::profile_request request;
    request.profile = spec.profile;
    request.level = spec.level;
    request.mode = a.file_mode ? wpr::logging_mode::file : wpr::logging_mode::memory;
    wpr::load_result r = wpr::load_plan({spec.file, *main_text}, bases, request);
    std::vector<std::string> errors;
    for (auto const& f : r.findings) {
        if (f.level == wpr::severity::warning) {
            warn(ctx, f, warnings);
        } else {
            std::cerr << "etwctl: " << ctx.command << ": " << wpr::format(f) << "\n";
            errors.push_back(finding_json(f));
        }
    }
    if (r.plan && errors.empty()) {
        out = std::move(r.plan);
        return exit_ok;
    }
    std::string const message = "the profile cannot be applied: " + std::to_string(errors.size()) +
                                (errors.size() == 1 ? " error" : " errors") + " in " + spec.file + "; nothing was sent";
    std::cerr << "etwctl: " << ctx.command << ": " << message << "\n";
    if (ctx.deferred)
        *ctx.deferred = json_failure{true, exit_refused, json_object().str("kind", "refused").str("message", message).text(),
                                     json_object().raw("findings", json_array(errors)).raw("warnings", json_array(warnings)).text(), {}};
    return exit_refused;
}

int wpr_profiles(context const& ctx, wpr_args const& a, json_object& out) {
    auto const text = wpr::read_text_file(a.target);
    if (!text) return usage_error(ctx, "cannot read the profile file '" + a.target + "'");
    wpr::document const d = wpr::read_document(*text, a.target);
    std::vector<std::string> warnings;
    std::vector<wpr::finding> findings = d.findings;
    if (d.root) wpr::validate(d, findings);
    for (auto const& f : findings) warn(ctx, f, warnings);
    std::vector<std::string> pj;
    if (!ctx.cl.json) std::cout << a.target << ":\n";
    for (auto const& p : wpr::list_profiles(d)) {
        pj.push_back(json_object()
                         .str("id", p.id)
                         .str("name", p.name)
                         .str("detail_level", wpr::to_string(p.level))
                         .str("logging_mode", wpr::to_string(p.mode))
                         .str("base", p.base)
                         .str("description", p.description)
                         .text());
        if (!ctx.cl.json)
            std::cout << "  " << p.name << "." << wpr::to_string(p.level) << " (" << wpr::to_string(p.mode) << " mode)  Id " << p.id
                      << (p.base.empty() ? std::string() : ", Base " + p.base) << "\n      " << p.description << "\n";
    }
    if (!ctx.cl.json) std::cout << pj.size() << (pj.size() == 1 ? " profile" : " profiles") << " (wpr -start " << a.target
                                << "!NAME[.Light|.Verbose] [-filemode])\n";
    out.str("file", a.target).raw("profiles", json_array(pj)).raw("warnings", json_array(warnings));
    return has_errors(findings) ? exit_refused : exit_ok;
}

namespace {
std::string guid_text(etwctl::guid const& g) {
    char t[37];
    g.format(t);
    return t;
}
std::string hooks_json(std::vector<wpr::named_hook> const& v) {
    std::vector<std::string> h;
    for (auto const& n : v) h.push_back(json_object().str("hook", hex(n.hook.value, 4)).str("name", n.name).text());
    return json_array(h);
}
std::string session_plan_json(wpr::session_plan const& s) {
    std::vector<std::string> pj;
    for (auto const& p : s.providers)
        pj.push_back(json_object()
                         .str("provider", p.provider ? guid_text(*p.provider) : std::string())
                         .str("provider_name", p.name)
                         .num("level", p.level)
                         .str("match_any", hex(p.match_any, 16))
                         .str("match_all", hex(p.match_all, 16))
                         .num("enable_property", p.enable_property)
                         .text());
    json_object o;
    o.str("name", s.name).str("collector", s.collector_id).boolean("system_logger", s.system_logger);
    o.str("log_file_mode", hex(s.log_file_mode, 8)).num("buffer_size_kb", s.buffer_size_kb);
    o.num("minimum_buffers", s.minimum_buffers).num("maximum_buffers", s.maximum_buffers);
    o.num("maximum_file_size_mb", s.maximum_file_size_mb).num("flush_timer_s", s.flush_timer_s);
    return o.raw("providers", json_array(pj)).text();
}
} // namespace

std::string plan_json(wpr::plan const& p) {
    json_object o;
    o.str("file", p.file).str("profile", p.profile_id).str("name", p.profile_name);
    o.str("detail_level", wpr::to_string(p.level)).str("logging_mode", wpr::to_string(p.mode));
    if (p.system) {
        std::vector<std::string> masks;
        for (auto m : p.system->flags.masks) masks.push_back(json_string(hex(m, 8)));
        json_object s;
        s.raw("session", session_plan_json(p.system->session)).raw("group_mask", json_array(masks));
        s.str("flags", flags_text(display_mask(p.system->flags))).raw("stacks", hooks_json(p.system->stacks));
        o.raw("system", s.text());
    }
    std::vector<std::string> ev;
    for (auto const& s : p.event_sessions) ev.push_back(session_plan_json(s));
    return o.raw("event_sessions", json_array(ev)).text();
}

namespace {
void print_session(wpr::session_plan const& s) {
    std::cout << "  session '" << s.name << "'" << (s.system_logger ? " (system logger)" : "") << ": "
              << log_file_mode_text(s.log_file_mode) << ", " << s.buffer_size_kb << " KB x " << s.minimum_buffers
              << (s.buffers_from_memory ? " (a share of memory: computed on the machine)" : "") << " buffers";
    if (s.maximum_file_size_mb) std::cout << ", at most " << s.maximum_file_size_mb << " MB";
    std::cout << "\n";
    for (auto const& p : s.providers)
        std::cout << "    EnableTraceEx2 " << p.name << ": level " << unsigned{p.level} << ", MatchAny " << hex_min(p.match_any, 1)
                  << (p.enable_property ? ", properties " + hex_min(p.enable_property, 1) : std::string()) << "\n";
}
} // namespace

void print_plan(wpr::plan const& p) {
    std::cout << p.file << "!" << p.profile_name << "." << wpr::to_string(p.level) << " (" << wpr::to_string(p.mode)
              << " mode, Id " << p.profile_id << ")\n";
    if (p.system) {
        print_session(p.system->session);
        std::cout << "    group mask " << flags_text(display_mask(p.system->flags)) << "\n";
        if (!p.system->stacks.empty()) {
            std::vector<etwctl::hook_id> h;
            for (auto const& n : p.system->stacks) h.push_back(n.hook);
            std::cout << "    stacks " << event_list_text(h) << "\n";
        }
        if (p.system->stack_caching)
            std::cout << "    stack caching " << p.system->stack_caching->cache_size << " KB, " << p.system->stack_caching->bucket_count << " buckets\n";
        if (p.system->hardware_counters) {
            std::string c;
            for (auto const& n : p.system->hardware_counters->counters) c += (c.empty() ? "" : "+") + n;
            std::cout << "    hardware counters " << (c.empty() ? std::string("(none)") : c) << "\n";
        }
    }
    for (auto const& s : p.event_sessions) print_session(s);
}

namespace {

/// The findings as JSON objects.
std::vector<std::string> findings_json(std::vector<wpr::finding> const& v, wpr::severity level) {
    std::vector<std::string> out;
    for (auto const& f : v)
        if (f.level == level) out.push_back(finding_json(f));
    return out;
}

std::string count_text(std::size_t n, char const* one) { return std::to_string(n) + " " + one + (n == 1 ? "" : "s"); }

/// wpr -check FILE (no !Profile): every Profile of the file, each with its plan (or its errors) and its
/// own warnings; the files' own findings once, on stderr. Exit 0 when every profile can be applied.
int wpr_check_file(context const& ctx, wpr_args const& a, json_object& out) {
    auto const text = wpr::read_text_file(a.target);
    if (!text) return usage_error(ctx, "cannot read the profile file '" + a.target + "'");
    std::vector<wpr::source_file> bases;
    for (auto const& b : a.bases) {
        auto t = wpr::read_text_file(b);
        if (!t) return usage_error(ctx, "cannot read the base file (--base) '" + b + "'");
        bases.push_back({b, std::move(*t)});
    }
    wpr::file_check const r = wpr::load_plans({a.target, *text}, bases);
    for (auto const& f : r.findings) std::cerr << "etwctl: " << ctx.command << ": " << wpr::format(f) << "\n";
    std::vector<std::string> pj;
    for (auto const& pc : r.profiles) {
        auto const& e = pc.profile;
        std::vector<std::string> const errors = findings_json(pc.findings, wpr::severity::error);
        std::vector<std::string> const warnings = findings_json(pc.findings, wpr::severity::warning);
        json_object o;
        o.str("id", e.id).str("name", e.name).str("detail_level", wpr::to_string(e.level)).str("logging_mode", wpr::to_string(e.mode));
        o.boolean("ok", pc.ok());
        if (pc.plan) o.raw("plan", plan_json(*pc.plan));
        pj.push_back(o.raw("warnings", json_array(warnings)).raw("errors", json_array(errors)).text());
        if (ctx.cl.json) continue;
        if (pc.plan) print_plan(*pc.plan);
        else std::cout << a.target << "!" << e.name << "." << wpr::to_string(e.level) << " (" << wpr::to_string(e.mode) << " mode, Id " << e.id << ")\n";
        for (auto const& f : pc.findings) std::cout << "  " << wpr::format(f) << "\n";
        std::cout << "  " << e.id << (pc.ok() ? ": can be applied (" + count_text(warnings.size(), "warning") + ")"
                                            : ": cannot be applied (" + count_text(errors.size(), "error") + ")") << "\n";
    }
    std::vector<std::string> const file_warnings = findings_json(r.findings, wpr::severity::warning);
    std::vector<std::string> const file_errors = findings_json(r.findings, wpr::severity::error);
    if (r.ok()) {
        if (!ctx.cl.json)
            std::cout << a.target << ": every one of its " << count_text(r.profiles.size(), "profile") << " can be applied\n";
        out.str("file", a.target).raw("profiles", json_array(pj)).raw("warnings", json_array(file_warnings));
        return exit_ok;
    }
    std::vector<std::string> const failing = r.failing();
    std::string message;
    if (!file_errors.empty()) {
        message = "the file cannot be applied: " + count_text(file_errors.size(), "error") + " in " + a.target + " (no profile was checked)";
    } else if (r.profiles.empty()) {
        message = a.target + " defines no <Profile>: nothing to apply";
    } else {
        message = std::to_string(failing.size()) + " of the " + count_text(r.profiles.size(), "profile") + " in " + a.target +
                  " cannot be applied: ";
        for (std::size_t i = 0; i < failing.size(); ++i) message += (i ? ", " : "") + failing[i];
    }
    std::cerr << "etwctl: " << ctx.command << ": " << message << "\n";
    std::vector<std::string> fj;
    for (auto const& id : failing) fj.push_back(json_string(id));
    if (ctx.deferred)
        *ctx.deferred = json_failure{true, exit_refused, json_object().str("kind", "refused").str("message", message).text(),
                                     json_object()
                                         .str("file", a.target)
                                         .raw("failing", json_array(fj))
                                         .raw("profiles", json_array(pj))
                                         .raw("findings", json_array(file_errors))
                                         .raw("warnings", json_array(file_warnings))
                                         .text(),
                                     {}};
    return exit_refused;
}

} // namespace

int wpr_check(context const& ctx, wpr_args const& a, json_object& out) {
    if (a.target.find('!') == std::string::npos) return wpr_check_file(ctx, a, out);
    std::optional<wpr::plan> p;
    std::vector<std::string> warnings;
    if (int const rc = load_wpr_plan(ctx, a, p, warnings); rc != exit_ok) return rc;
    if (!ctx.cl.json) {
        print_plan(*p);
        std::cout << "the profile can be applied (" << warnings.size() << (warnings.size() == 1 ? " warning" : " warnings") << ")\n";
    }
    out.raw("plan", plan_json(*p)).raw("warnings", json_array(warnings));
    return exit_ok;
}

} // namespace etwctl_tool
