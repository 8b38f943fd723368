#include "names.hpp"

#include "etwctl/names/events.hpp"
#include "etwctl/names/flags.hpp"

#include "text.hpp"

namespace etwctl_tool {

std::string event_list_text(std::span<etwctl::hook_id const> ids) {
    std::string buf(64 + ids.size() * 40, '\0');
    std::size_t const n = etwctl::format_stack_walk(ids, std::span<char>(buf.data(), buf.size()));
    buf.resize(n < buf.size() ? n : buf.size());
    return buf;
}

etwctl::group_mask display_mask(etwctl::group_mask m) {
    for (auto const& a : etwctl::enable_flag_aliases)
        if (m.contains(a.extended)) m.masks[0] &= ~a.enable_flag;
    return m;
}

std::string flags_text(etwctl::group_mask const& m) {
    std::string const t = kernel_flags_text(display_mask(m));
    return t.empty() ? std::string("(none)") : t;
}

std::string parse_error_text(std::string_view what, std::string_view text, etwctl::parse_error const& e) {
    std::string m = "bad " + std::string(what) + " '" + std::string(text) + "': " + std::string(etwctl::info(e.why).text);
    if (e.length) m += " '" + std::string(text.substr(e.offset, e.length)) + "'";
    m += " at offset " + std::to_string(e.offset);
    if (!e.suggestion.empty()) m += " (did you mean " + std::string(e.suggestion) + "?)";
    if (!e.note.empty()) m += " (" + std::string(e.note) + ")";
    return m;
}

std::string nearest_name(std::string_view token, std::vector<std::string_view> const& names) {
    std::string_view best;
    std::size_t best_d = ~std::size_t{0};
    for (auto n : names) {
        std::size_t const d = edit_distance(token, n);
        if (d < best_d) best_d = d, best = n;
    }
    bool const close = best_d <= 1 || (best_d <= 3 && best_d * 3 <= token.size());
    return close ? std::string(best) : std::string();
}

bool blank(std::string_view text) noexcept {
    for (char c : text)
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
    return true;
}

std::string separator_error(std::string_view text, char wrong, char right, std::string_view what) {
    if (text.find(wrong) == std::string_view::npos) return {};
    return "'" + std::string(text) + "': " + std::string(what) + " are joined with '" + std::string(1, right) +
           "' (as in xperf), not '" + std::string(1, wrong) + "'";
}

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> v;
    while (true) {
        auto const i = s.find(sep);
        v.emplace_back(s.substr(0, i));
        if (i == std::string_view::npos) return v;
        s = s.substr(i + 1);
    }
}

namespace {
std::string_view trim(std::string_view s) {
    while (!s.empty() && blank(s.substr(0, 1))) s.remove_prefix(1);
    while (!s.empty() && blank(s.substr(s.size() - 1))) s.remove_suffix(1);
    return s;
}

std::string no_value_text(etwctl::known_name_without_value const& f) {
    return "'" + std::string(f.name) + "' is an xperf kernel flag whose value no public source gives (seen in " +
           std::string(f.seen_in) + "); give its PERF value as 0x... if you know it";
}
} // namespace

parsed parse_flags_arg(std::string_view text, etwctl::group_mask& out) {
    if (auto const m = separator_error(text, ',', '+', "kernel flags and groups"); !m.empty()) return {false, m};
    bool any_group = false;
    for (auto const& item : split(text, '+')) any_group = any_group || etwctl::find_xperf_kernel_group(trim(item));
    etwctl::parse_error pe;
    if (!any_group) {
        if (etwctl::parse_kernel_flags(text, out, &pe) == etwctl::rule::ok) return {true, {}};
        std::string_view const bad = text.substr(pe.offset, pe.length);
        if (auto const* f = etwctl::find_xperf_flag_without_value(bad)) return {false, no_value_text(*f)};
        if (pe.why == etwctl::rule::parse_unknown_name) {
            // Groups are names too: suggest the nearest of flags and groups.
            std::vector<std::string_view> names;
            for (auto const& g : etwctl::xperf_kernel_group_table<>) names.push_back(g.name);
            std::string const g = nearest_name(bad, names);
            if (!g.empty() && (pe.suggestion.empty() || edit_distance(bad, g) < edit_distance(bad, pe.suggestion)))
                pe.suggestion = etwctl::find_xperf_kernel_group(g)->name;
        }
        return {false, parse_error_text("kernel flags", text, pe)};
    }
    // With groups: name by name. A group may overlap flags or other groups (xperf takes the union);
    // the same group twice is a duplicate, and the flags among the names obey the library's rules as a
    // list of their own (duplicates, the name-count and length limits, checked below).
    std::vector<std::string> const items = split(text, '+');
    if (items.size() > etwctl::limits::max_parse_names || text.size() > etwctl::limits::max_parse_length)
        return {false, "bad kernel flags: " + std::to_string(items.size()) + " names in " + std::to_string(text.size()) +
                           " bytes; at most " + std::to_string(etwctl::limits::max_parse_names) + " names and " +
                           std::to_string(etwctl::limits::max_parse_length) + " bytes"};
    etwctl::group_mask result;
    std::vector<std::string_view> groups_seen;
    std::string flags_only; // the names that are flags, '+'-joined
    std::size_t offset = 0;
    for (auto const& raw : items) {
        std::string_view const item = trim(raw);
        if (auto const* g = etwctl::find_xperf_kernel_group(item)) {
            for (auto s : groups_seen)
                if (s == g->name) return {false, "bad kernel flags '" + std::string(text) + "': name given twice '" + std::string(item) + "'"};
            groups_seen.push_back(g->name);
            result |= g->mask;
        } else {
            etwctl::group_mask bits;
            if (etwctl::parse_kernel_flags(item, bits, &pe) != etwctl::rule::ok || item.empty()) {
                if (auto const* f = etwctl::find_xperf_flag_without_value(item)) return {false, no_value_text(*f)};
                pe.offset += offset + static_cast<std::size_t>(item.data() - raw.data());
                if (item.empty()) pe.why = etwctl::rule::parse_empty_name;
                return {false, parse_error_text("kernel flags", text, pe)};
            }
            result |= bits;
            flags_only += (flags_only.empty() ? "" : "+") + std::string(item);
        }
        offset += raw.size() + 1;
    }
    if (etwctl::group_mask all; !flags_only.empty() && etwctl::parse_kernel_flags(flags_only, all, &pe) != etwctl::rule::ok) {
        if (pe.why == etwctl::rule::parse_duplicate_name)
            return {false, "bad kernel flags '" + std::string(text) + "': name given twice '" +
                               flags_only.substr(pe.offset, pe.length) + "'"};
        return {false, parse_error_text("kernel flags", flags_only, pe)};
    }
    out = result;
    return {true, {}};
}

parsed parse_events_arg(std::string_view text, std::span<etwctl::hook_id> out, std::size_t& count, bool allow_comma,
                        bool& too_many) {
    too_many = false;
    std::string joined(text);
    if (allow_comma) {
        for (char& c : joined)
            if (c == ',') c = '+';
    } else if (auto const m = separator_error(text, ',', '+', "event names"); !m.empty()) {
        return {false, m};
    }
    etwctl::parse_error pe;
    auto const r = etwctl::parse_stack_walk(joined, out, count, &pe);
    if (r == etwctl::rule::ok) return {true, {}};
    too_many = r == etwctl::rule::parse_too_many_names;
    return {false, parse_error_text("event list", joined, pe)};
}

} // namespace etwctl_tool
