#include "plan.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "etwctl/error.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/rules.hpp"

#include "cli.hpp"
#include "names.hpp"
#include "text.hpp"

namespace etwctl_tool {

bool is_kernel_logger_name(std::string_view name) noexcept { return iequals(name, "NT Kernel Logger"); }

bool group::kernel_logger() const {
    // -session also takes 'kernel' and the logger id 0xFFFF for the NT Kernel Logger (session.hpp).
    return name.empty() || is_kernel_logger_name(name) ||
           (kind == group_kind::running && (iequals(name, "kernel") || iequals(name, "0xFFFF") || name == "65535"));
}

std::string group::label() const { return kernel_logger() ? std::string("NT Kernel Logger") : "'" + name + "'"; }

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    return s;
}
bool is_option(std::string const& a) { return a.size() > 1 && a[0] == '-' && !(a[1] >= '0' && a[1] <= '9'); }
bool is_number(std::string const& a) { return !a.empty() && a[0] >= '0' && a[0] <= '9'; }

/// Every option the xperf form takes, as xperf spells it (for messages and did-you-mean).
constexpr std::string_view known_options[] = {
    "-start",      "-stop",       "-flush",     "-update",    "-loggers",    "-on",         "-stackwalk",
    "-f",          "-FileMode",   "-MaxFile",   "-BufferSize", "-MinBuffers", "-MaxBuffers", "-Buffering",
    "-FlushTimer", "-ClockType",  "-RealTime",  "-setprofint", "-pmc",        "-pmcsources", "-session"};

/// The options that belong to a group (the rest are the line's own or open a group).
constexpr std::string_view group_options[] = {"-on",         "-stackwalk",  "-pmc",       "-f",
                                              "-filemode",   "-maxfile",    "-buffersize", "-minbuffers",
                                              "-maxbuffers", "-buffering",  "-flushtimer", "-clocktype",
                                              "-realtime"};
/// What ControlTrace UPDATE can change (EnableFlags: -on; the log file; FlushTimer; MaximumBuffers;
/// real-time mode on or off), plus the tool's own -stackwalk / -pmc on a running system logger.
constexpr std::string_view update_options[] = {"-on", "-stackwalk", "-pmc", "-f", "-flushtimer", "-maxbuffers", "-realtime"};

std::string spelled(std::string_view lowered) {
    for (auto o : known_options)
        if (iequals(o, lowered)) return std::string(o);
    return std::string(lowered);
}

template <std::size_t N>
bool among(std::string_view o, std::string_view const (&list)[N]) {
    return std::find(std::begin(list), std::end(list), o) != std::end(list);
}

struct parser {
    std::vector<std::string> const& a;
    plan_error& error;
    std::size_t i = 0;

    bool fail(std::string message, int code = 1, std::error_code ec = {}, std::string hint = {}) {
        error = {code, std::move(message), ec, std::move(hint)};
        return false;
    }
    /// The option's value (the next argument, unless it is an option itself).
    std::string const* value() { return i + 1 < a.size() && !is_option(a[i + 1]) ? &a[++i] : nullptr; }
};

bool parse_number(parser& ps, std::string const& option, std::uint64_t max, std::optional<std::uint32_t>& out) {
    auto const* v = ps.value();
    std::uint64_t n = 0;
    if (!v) return ps.fail(option + " needs a number");
    if (!parse_uint(*v, max, n)) return ps.fail("bad " + option + " '" + *v + "': give a whole number (decimal or 0x) up to " + std::to_string(max));
    out = static_cast<std::uint32_t>(n);
    return true;
}

template <class E, std::size_t N>
bool parse_word(parser& ps, std::string const& option, std::pair<std::string_view, E> const (&words)[N], std::optional<E>& out) {
    auto const* v = ps.value();
    std::vector<std::string_view> names;
    for (auto const& w : words) names.push_back(w.first);
    std::string all;
    for (auto n : names) all += (all.empty() ? "" : ", ") + std::string(n);
    if (!v) return ps.fail(option + " needs one of " + all);
    for (auto const& w : words)
        if (iequals(*v, w.first)) {
            out = w.second;
            return true;
        }
    std::string const s = nearest_name(*v, names);
    return ps.fail("bad " + option + " '" + *v + "': give one of " + all + (s.empty() ? "" : " (did you mean " + s + "?)"));
}

constexpr std::pair<std::string_view, file_mode> file_mode_words[] = {
    {"Sequential", file_mode::sequential}, {"Circular", file_mode::circular}, {"Append", file_mode::append},
    {"NewFile", file_mode::new_file}};
constexpr std::pair<std::string_view, clock_kind> clock_words[] = {
    {"PerfCounter", clock_kind::perf_counter}, {"SystemTime", clock_kind::system_time}, {"Cycle", clock_kind::cycle}};

/// A group option: its value into g. False (and the error) on a bad value.
bool parse_group_option(parser& ps, std::string const& opt, group& g) {
    auto& s = g.settings;
    std::string const name = spelled(opt);
    if (opt == "-on" || opt == "-stackwalk" || opt == "-f") {
        auto const* v = ps.value();
        if (!v) return ps.fail(name + " needs a value");
        if (opt == "-on") g.on = *v;
        else if (opt == "-f") s.file = *v;
        else g.stackwalk += (g.stackwalk.empty() ? "" : "+") + *v; // -stackwalk may be repeated, as in xperf
        return true;
    }
    if (opt == "-pmc") {
        auto const* c = ps.value();
        auto const* e = c ? ps.value() : nullptr;
        if (!c || !e) return ps.fail("-pmc needs COUNTERS (joined with ',') and EVENTS (joined with '+')");
        if (auto const m = separator_error(*e, ',', '+', "event names"); !m.empty()) return ps.fail(m);
        if (auto const m = separator_error(*c, '+', ',', "counters"); !m.empty()) return ps.fail(m);
        g.pmc = pmc_spec{*c, *e};
        return true;
    }
    if (opt == "-filemode") return parse_word(ps, name, file_mode_words, s.mode);
    if (opt == "-clocktype") return parse_word(ps, name, clock_words, s.clock);
    if (opt == "-buffering") return s.buffering = true;
    if (opt == "-realtime") return s.real_time = true;
    constexpr std::uint64_t u32 = 0xFFFFFFFFULL;
    if (opt == "-maxfile") return parse_number(ps, name, u32, s.max_file);
    if (opt == "-buffersize") return parse_number(ps, name, u32, s.buffer_size);
    if (opt == "-minbuffers") return parse_number(ps, name, u32, s.min_buffers);
    if (opt == "-maxbuffers") return parse_number(ps, name, u32, s.max_buffers);
    return parse_number(ps, name, u32, s.flush_timer); // -flushtimer
}

/// One provider item: Provider[:Keywords[:Level[:'stack|sid|tsid' or a number]]].
bool parse_provider(parser& ps, std::string_view item, provider_spec& out) {
    out.text = std::string(item);
    auto const fields = split(item, ':');
    if (fields.size() > 4)
        return ps.fail("bad provider '" + out.text + "': give Provider[:Keywords[:Level[:'stack|sid|tsid']]] (at most 3 ':')");
    out.name = fields[0];
    if (out.name.empty()) return ps.fail("bad provider '" + out.text + "': no provider before ':'");
    if (out.name[0] == '*') {
        if (out.name.size() == 1) return ps.fail("bad provider '" + out.text + "': '*' needs the EventSource name after it");
        out.how = provider_spec::kind::event_source;
    } else if (etwctl::guid::try_parse(out.name, out.id)) {
        out.how = provider_spec::kind::guid;
    } else {
        out.how = provider_spec::kind::manifest;
    }
    std::uint64_t n = 0;
    if (fields.size() > 1) {
        if (!parse_uint(fields[1], ~std::uint64_t{0}, n))
            return ps.fail("bad keywords '" + fields[1] + "' in '" + out.text + "': give a number (0x hex or decimal)");
        out.keywords = n, out.keywords_given = true;
    }
    if (fields.size() > 2) {
        if (!parse_uint(fields[2], 255, n))
            return ps.fail("bad level '" + fields[2] + "' in '" + out.text + "': give 0..255 (4 informational, 5 verbose)");
        out.level = static_cast<std::uint8_t>(n);
    }
    if (fields.size() > 3) {
        std::string props = fields[3];
        if (props.size() >= 2 && props.front() == '\'' && props.back() == '\'') props = props.substr(1, props.size() - 2);
        if (parse_uint(props, 0xFFFFFFFFULL, n)) {
            out.enable_property = static_cast<std::uint32_t>(n);
            return true;
        }
        for (char& c : props)
            if (c == ',') c = '|';
        for (auto const& w : split(props, '|')) {
            std::uint32_t bit = iequals(w, "stack") ? 0x4U : iequals(w, "sid") ? 0x1U : iequals(w, "tsid") ? 0x2U : 0U;
            if (!bit)
                return ps.fail("bad enable property '" + w + "' in '" + out.text + "': give stack, sid, tsid (joined with '|' or ',') or a number");
            if (out.enable_property & bit) return ps.fail("enable property '" + w + "' given twice in '" + out.text + "'");
            out.enable_property |= bit;
        }
    }
    return true;
}

/// True if the item reads as a user provider rather than a kernel flag or group.
bool looks_like_provider(std::string_view item) {
    etwctl::guid g;
    if (item.find(':') != std::string_view::npos || (!item.empty() && item[0] == '*') || etwctl::guid::try_parse(item, g))
        return true;
    etwctl::group_mask m;
    return !etwctl::find_xperf_kernel_group(item) && etwctl::parse_kernel_flags(item, m) != etwctl::rule::ok;
}

/// -on of a group: kernel flags (the NT Kernel Logger, or a system logger) or providers.
bool parse_on(parser& ps, group& g) {
    if (blank(g.on)) {
        std::string const what = g.kind == group_kind::start ? "start the session with no events" : "turn every kernel flag off";
        return ps.fail("an empty -on would " + what + "; nothing was sent", 2,
                       etwctl::make_error_code(etwctl::rule::parse_empty_name),
                       "use 'etwctl flags SESSION clear' to turn every flag off");
    }
    auto const items = split(g.on, '+');
    std::size_t providers = 0;
    std::string first_flag, first_provider;
    if (!g.kernel_logger())
        for (auto const& item : items) {
            bool const p = looks_like_provider(item);
            providers += p ? 1 : 0;
            std::string& first = p ? first_provider : first_flag;
            if (first.empty()) first = item;
        }
    if (providers != 0 && providers != items.size())
        return ps.fail("-on '" + g.on + "' mixes kernel flags (" + first_flag + ") and user providers (" + first_provider +
                       "): a session is either a system logger (kernel flags) or a user session (providers); give each its own -start group");
    g.kernel = providers == 0;
    if (g.kernel) {
        auto const r = parse_flags_arg(g.on, g.flags);
        return r.ok || ps.fail(r.message);
    }
    for (auto const& item : items) {
        provider_spec p;
        if (!parse_provider(ps, item, p)) return false;
        for (auto const& q : g.providers)
            if (iequals(q.name, p.name) || (p.how == provider_spec::kind::guid && q.how == p.how && q.id == p.id))
                return ps.fail("provider '" + p.name + "' given twice in -on '" + g.on + "'");
        g.providers.push_back(std::move(p));
    }
    return true;
}

/// Checks that need the whole group: its values and what its kind accepts.
bool finish_group(parser& ps, group& g) {
    // A session started with nothing on is allowed (xperf starts it): providers may be enabled later.
    if (!g.on.empty() && !parse_on(ps, g)) return false;
    if (g.kind == group_kind::update && g.on.empty() && g.stackwalk.empty() && !g.pmc && !g.settings.any())
        return ps.fail("-update " + (g.name.empty() ? std::string() : g.name + " ") +
                       "changes nothing: give -on, -stackwalk, -pmc, -f, -FlushTimer, -MaxBuffers or -RealTime");
    if (g.settings.mode == file_mode::append && g.settings.max_file)
        return ps.fail("-MaxFile does not apply to -FileMode Append (the file grows as it is)");
    if (!g.kernel && (!g.stackwalk.empty() || g.pmc))
        return ps.fail(std::string(!g.stackwalk.empty() ? "-stackwalk" : "-pmc") + " names kernel events, but the -on of " + g.label() +
                       " holds user providers: stacks for a provider's events are its ':stack' (Provider:Keywords:Level:'stack')");
    if (!g.stackwalk.empty()) {
        if (blank(g.stackwalk) || g.stackwalk.back() == '+')
            return ps.fail("an empty stack-walk list would turn stack walking off; nothing was sent", 2,
                           etwctl::make_error_code(etwctl::rule::parse_empty_name),
                           "use 'etwctl stackwalk SESSION clear' to turn stack walking off");
        etwctl::hook_id ids[etwctl::limits::max_stack_tracing_events];
        std::size_t n = 0;
        bool too_many = false;
        auto const r = parse_events_arg(g.stackwalk, ids, n, false, too_many);
        if (too_many)
            return ps.fail("more than 256 stack-walk events", 2, etwctl::make_error_code(etwctl::rule::stack_walk_overflow));
        if (!r.ok) return ps.fail(r.message);
    }
    if (g.pmc) {
        etwctl::hook_id ids[etwctl::limits::max_stack_tracing_events];
        std::size_t n = 0;
        bool too_many = false;
        if (auto const r = parse_events_arg(g.pmc->events, ids, n, true, too_many); !r.ok) return ps.fail(r.message);
        if (blank(g.pmc->counters)) return ps.fail("-pmc needs COUNTERS");
    }
    return true;
}

} // namespace

plan parse_xperf_line(std::vector<std::string> const& a, plan_error& error) {
    plan p;
    parser ps{a, error};
    error = {};
    p.groups.emplace_back(); // the options before any -start: the NT Kernel Logger or -session's session
    std::vector<std::pair<std::string, std::string>> seen; // the current group's options and their values, for repeats
    auto open = [&](group_kind kind, std::string const& by) {
        group g;
        g.kind = kind;
        g.opened_by = by;
        p.groups.push_back(std::move(g));
        seen.clear();
    };
    for (ps.i = 0; ps.i < a.size(); ++ps.i) {
        std::string const opt = lower(a[ps.i]);
        std::string const name = spelled(opt);
        if (opt == "-start" || opt == "-update" || opt == "-flush" || opt == "-loggers") {
            open(opt == "-start" ? group_kind::start : opt == "-update" ? group_kind::update
                 : opt == "-flush" ? group_kind::flush : group_kind::list, name);
            if (auto const* v = ps.value()) {
                if (blank(*v)) return ps.fail(name + ": an empty session name"), p;
                p.groups.back().name = *v;
                if (opt == "-loggers") p.groups.back().kind = group_kind::query;
            }
        } else if (opt == "-stop") {
            // -stop A -stop B (UIforETW, samply): one group, so every name is tried even if one fails.
            if (p.groups.back().kind != group_kind::stop) open(group_kind::stop, name);
            if (ps.i + 1 >= a.size() || is_option(a[ps.i + 1])) p.groups.back().names.push_back("NT Kernel Logger");
            while (ps.i + 1 < a.size() && !is_option(a[ps.i + 1])) {
                if (blank(a[ps.i + 1])) return ps.fail("-stop: an empty session name"), p;
                p.groups.back().names.push_back(a[++ps.i]);
            }
        } else if (opt == "-d") {
            ps.fail("-d (merge the stopped sessions' files into one) is not a session verb: etwctl controls sessions and "
                    "writes no ETL files itself; stop the sessions with etwctl, then merge with 'xperf -merge IN... OUT'");
            return p;
        } else if (opt == "-pmcsources") {
            p.pmcsources = true;
        } else if (opt == "-session") {
            if (p.session) return ps.fail(option_given_twice("-session", *p.session, ps.value() ? a[ps.i] : "")), p;
            auto const* v = ps.value();
            if (!v) return ps.fail("-session needs a value"), p;
            p.session = *v;
        } else if (opt == "-setprofint") {
            if (p.setprofint) {
                std::string second;
                while (ps.i + 1 < a.size() && !is_option(a[ps.i + 1])) second += (second.empty() ? "" : " ") + a[++ps.i];
                std::string const first = p.setprofint->source.empty() ? p.setprofint->value : p.setprofint->value + " " + p.setprofint->source;
                return ps.fail(option_given_twice(name, first, second) + "; the interval is machine-wide"), p;
            }
            // -setprofint N [SOURCE], or -setprofint SOURCE N as scripts write it for counters.
            auto const* first = ps.value();
            if (!first) return ps.fail("-setprofint needs an interval"), p;
            auto const* second = ps.value();
            if (iequals(*first, "cached") || (second && iequals(*second, "cached")))
                return ps.fail("-setprofint ... cached is not supported: etwctl sets the interval now, it does not keep it for "
                               "sessions started later"),
                       p;
            if (is_number(*first)) p.setprofint = interval_spec{*first, second ? *second : ""};
            else if (second && is_number(*second)) p.setprofint = interval_spec{*second, *first};
            else return ps.fail("-setprofint needs an interval (100 ns units for the timer)"), p;
        } else if (among(opt, group_options)) {
            group& g = p.groups.back();
            if (g.kind == group_kind::stop || g.kind == group_kind::list || g.kind == group_kind::query ||
                (g.kind == group_kind::flush && opt != "-f"))
                return ps.fail(name + " does not apply to " + g.opened_by + (g.kind == group_kind::flush ? " (it takes -f FILE only)" : " (it takes session names only)")), p;
            if (g.kind == group_kind::update && !among(opt, update_options))
                return ps.fail(name + " cannot be changed on a running session: ControlTrace UPDATE changes only the log file (-f), "
                               "-FlushTimer, -MaxBuffers, real-time mode (-RealTime) and the kernel flags (-on); stop and start it instead"),
                       p;
            std::size_t const at = ps.i;
            auto const values = [&] { // the option's values as written (after parse_group_option took them)
                std::string v;
                for (std::size_t j = at + 1; j <= ps.i; ++j) v += (v.empty() ? "" : " ") + a[j];
                return v;
            };
            auto const earlier = std::find_if(seen.begin(), seen.end(), [&](auto const& s) { return s.first == opt; });
            if (opt != "-stackwalk" && earlier != seen.end()) {
                group scratch = g; // the second one's values, for the message
                if (!parse_group_option(ps, opt, scratch)) return p;
                return ps.fail(option_given_twice(name, earlier->second, values(),
                                                  g.opened_by.empty() ? std::string("the same session")
                                                                      : g.opened_by + (g.name.empty() ? std::string() : " " + g.name))),
                       p;
            }
            if (!parse_group_option(ps, opt, g)) return p;
            seen.emplace_back(opt, values());
        } else {
            std::vector<std::string_view> names(std::begin(known_options), std::end(known_options));
            names.push_back("-d");
            std::string const suggestion = nearest_name(opt, names);
            ps.fail("unknown xperf option '" + a[ps.i] + "'" + (suggestion.empty() ? "" : " (did you mean " + suggestion + "?)"));
            return p;
        }
    }

    // The options before any -start start the NT Kernel Logger, as xperf's do (its -start help: "If
    // LoggerName, or -start LoggerName, is omitted, the kernel logger is implied"), with or without a
    // session setting; with -session (etwctl's own) they change that running session instead.
    // Nothing there: no such group.
    group& first = p.groups.front();
    if (first.on.empty() && first.stackwalk.empty() && !first.pmc && !first.settings.any()) {
        if (p.session) return ps.fail("-session names the session -on / -stackwalk / -pmc change: give at least one of them"), p;
        p.groups.erase(p.groups.begin());
    } else if (p.session) {
        if (first.settings.any())
            return ps.fail("-session names a running session, and " + std::string(first.settings.file ? "-f" : "a session setting") +
                           " starts one: give -start NAME for a new session, or -update NAME to change a running one"),
                   p;
        first.name = *p.session;
    } else {
        first.kind = group_kind::start;
    }

    // Each session once: two groups for one session would apply in an order nobody wrote down.
    for (std::size_t x = 0; x < p.groups.size(); ++x) {
        group& g = p.groups[x];
        if (g.kind != group_kind::running && g.kind != group_kind::start && g.kind != group_kind::update) continue;
        for (std::size_t y = 0; y < x; ++y) {
            group const& h = p.groups[y];
            if (h.kind != group_kind::running && h.kind != group_kind::start && h.kind != group_kind::update) continue;
            if (g.kernel_logger() ? h.kernel_logger() : iequals(g.name, h.name))
                return ps.fail(g.label() + " is given two groups on one line (" + (h.opened_by.empty() ? "the options before -start" : h.opened_by) +
                               " and " + (g.opened_by.empty() ? "the options before -start" : g.opened_by) + "): give its options once"),
                       p;
        }
        if (!finish_group(ps, g)) return p;
    }
    if (p.groups.empty() && !p.setprofint && !p.pmcsources)
        ps.fail("nothing to do: give -start, -on, -stop, -flush, -loggers, -stackwalk, -setprofint, -pmc or -pmcsources");
    return p;
}

plan parse_session_command(std::vector<std::string> const& p, plan_error& error) {
    error = {};
    static constexpr std::string_view verbs[] = {"start", "stop", "list", "query", "flush", "update"};
    std::string const verb = p.size() >= 2 ? p[1] : std::string();
    if (!among(verb, verbs)) {
        std::vector<std::string_view> names(std::begin(verbs), std::end(verbs));
        std::string const s = nearest_name(verb, names);
        error = {1, "expected start, stop, list, query, flush or update" + (s.empty() ? std::string() : " (did you mean " + s + "?)"), {}, {}};
        return {};
    }
    // The same words as the xperf form: session start NAME OPTIONS = -start NAME OPTIONS, and so on.
    std::vector<std::string> line;
    if (verb == "list") {
        if (p.size() != 2) return error = {1, "list takes no arguments", {}, {}}, plan{};
        line = {"-loggers"};
    } else {
        if (p.size() < 3 || is_option(p[2]))
            return error = {1, verb + " needs a session NAME (\"NT Kernel Logger\" for the kernel logger)", {}, {}}, plan{};
        line = {verb == "query" ? "-loggers" : "-" + verb, p[2]};
        std::size_t i = 3;
        if (verb == "stop")
            for (; i < p.size() && !is_option(p[i]); ++i) line.push_back(p[i]);
        if (verb == "query" && p.size() > 3) return error = {1, "query takes one NAME", {}, {}}, plan{};
        for (; i < p.size(); ++i) {
            if (!is_option(p[i]) && (i == 3 || !is_option(p[i - 1])) && verb != "start" && verb != "update" && verb != "flush")
                return error = {1, "unexpected '" + p[i] + "'", {}, {}}, plan{};
            std::string const o = lower(p[i]);
            if (o == "-start" || o == "-stop" || o == "-flush" || o == "-update" || o == "-loggers" || o == "-session" ||
                o == "-setprofint" || o == "-pmcsources" || o == "-d")
                return error = {1, "'" + p[i] + "' is not an option of 'session " + verb + "' (one session per command; the xperf form takes several)", {}, {}},
                       plan{};
            line.push_back(p[i]);
        }
    }
    return parse_xperf_line(line, error);
}

} // namespace etwctl_tool
