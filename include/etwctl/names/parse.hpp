// SPDX-License-Identifier: MIT
// etwctl/names/parse.hpp - xperf-style lists of kernel events and kernel flags, parsed at compile time
// or at run time by the same constexpr functions (lists of Windows Performance Recorder's SystemProvider
// keywords, wpr_keywords<"..."> / parse_wpr_keywords, are in names/wpr.hpp on this file's parser):
//
//   set<stack_tracing>(k, session, etwctl::stack_walk<"CSwitch+ReadyThread+Profile">);   // a hook_list<3>
//   set<system_trace_enable_flags>(k, session, etwctl::kernel_flags<"PROC_THREAD+LOADER+PROFILE">);
//
//   std::size_t n = 0; hook_id ids[256]; parse_error e;
//   if (parse_stack_walk(text, ids, n, &e) != rule::ok) ... e.offset / e.length / e.suggestion
//
// Syntax (both lists): names separated by '+'; blanks around a name are ignored; names are matched
// case-insensitively (ASCII), at compile time and at run time alike. An empty text is an empty list.
//   stack walk:   event names from names/events.hpp (xperf's and WPR's Stack names among them), or a
//                 hook id as 0x + 1..4 hex digits (0x0524).
//   kernel flags: xperf flag names (names/flags.hpp), PERF_* names, a PERF value as 0x + 1..8 hex digits
//                 (0x20000002: mask index in bits 29-31), or raw bits of one mask as mask<i>:0x<hex>
//                 (for bits 29-31 of a mask, which a PERF value cannot carry).
//   WPR keywords: WPR's SystemProvider keyword names (names/wpr.hpp), or the two raw forms above (a
//                 value as WPR's CustomKeyword writes it, 0x + 1..8 hex digits).
// The xperf and WPR keyword names are separate name spaces (xperf's CSWITCH is PERF_CONTEXT_SWITCH,
// WPR's CSwitch the Masks[0] alias bit; WPR's Pool and xperf's POOL differ in case only), so each list
// takes its own names; both share this file's one parser.
// Errors (rules.hpp): parse_empty_name (stray '+'), parse_unknown_name (with the nearest known name
// as suggestion when one is close), parse_name_without_value (a name xperf or WPR publishes but whose
// value no public source gives: parse_error::note says where it is published; no value is guessed),
// parse_duplicate_name (a name - or alias, or hex form - that
// denotes what an earlier one did), parse_too_many_names (more than the output or the kernel's 256,
// or more than limits::max_parse_names), parse_input_too_long (longer than limits::max_parse_length).
//
// Cost: linear in the text. Before any name is looked at, the text's length is checked against
// limits::max_parse_length (64 KiB) and its names are counted (one pass over the '+') against
// limits::max_parse_names (1024); either refusal costs at most that one pass. Duplicates are found
// with a fixed-size open-addressing table of the values seen so far (on the stack, sized by the name
// count: no heap, no re-parsing of earlier names), so each name costs one table lookup plus its own
// name lookup. The caps exist because that table must be fixed-size without a heap, and so that a
// config file or command line of any size is refused in one pass instead of being worked through.
//
// At compile time each of these errors is a static_assert inside a template in etwctl::diagnostic
// whose arguments spell the offending name and the suggestion, so the compiler prints them:
//   gcc:   unknown_kernel_event_name<name<fixed_string<7>{"CSwtch"}>, did_you_mean<fixed_string<8>{"CSwitch"}>>
//   clang: unknown_kernel_event_name<name<'C', 'S', 'w', 't', 'c', 'h'>, did_you_mean<'C', 'S', 'w', ...>>
// (clang prints a class-type template argument as a list of numbers, a character pack as characters).
// No heap: results go to caller-provided spans; formatting writes into a caller's char span.
// The parsers and formatters are function templates over a defaulted parameter, called as plain functions:
// the name tables they read are variable templates, built only in a TU that calls them (names/events.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace limits {
/// The longest text parse_stack_walk / parse_kernel_flags accept (bytes); longer -> parse_input_too_long,
/// located at the first byte beyond the cap.
inline constexpr std::size_t max_parse_length = 64 * 1024;
/// The most names (counted as '+' separators + 1) they accept; more -> parse_too_many_names, located
/// at the first name beyond the cap up to the end of the text. Both are checked before any name is parsed.
inline constexpr std::size_t max_parse_names = 1024;
} // namespace limits

/// Where and why a list failed to parse. offset/length locate the offending name in the text (length 0
/// for an empty name); suggestion is the nearest known name for parse_unknown_name, or ""; note is, for
/// parse_name_without_value, where the name is published and why it has no value, or "".
struct parse_error {
    rule why = rule::ok;
    std::size_t offset = 0;
    std::size_t length = 0;
    std::string_view suggestion;
    std::string_view note;
};

namespace detail {

constexpr bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/// Splits at '+' and trims blanks. An all-blank text has no names.
struct name_cursor {
    std::string_view text;
    std::size_t pos = 0;
    bool done = false;

    constexpr explicit name_cursor(std::string_view t) noexcept : text(t) {
        bool blank = true;
        for (char c : t) blank = blank && is_blank(c);
        done = blank;
    }
    constexpr bool next(std::size_t& offset, std::size_t& length) noexcept {
        if (done) return false;
        std::size_t end = pos;
        while (end < text.size() && text[end] != '+') ++end;
        if (end == text.size()) done = true;
        std::size_t b = pos;
        std::size_t e = end;
        while (b < e && is_blank(text[b])) ++b;
        while (e > b && is_blank(text[e - 1])) --e;
        offset = b;
        length = e - b;
        pos = end + 1;
        return true;
    }
};

/// The caps of limits::max_parse_length / max_parse_names, checked in one pass before any name is parsed.
/// Returns rule::ok and the number of '+'-separated names (0 for an all-blank text), or the refusal.
constexpr rule check_list_limits(std::string_view text, std::size_t& names, parse_error* err) noexcept;

/// The values a list has named so far, for duplicate detection in O(1) per name: open addressing with
/// linear probing over at most Slots 64-bit keys, on the stack. reset(n) prepares for n inserts using
/// the smallest power of two >= 2n slots (only those are initialized, so a short list pays little).
template <std::size_t Slots>
class seen_keys {
    static_assert((Slots & (Slots - 1)) == 0, "seen_keys: Slots must be a power of two");

public:
    constexpr void reset(std::size_t inserts) noexcept {
        used_ = 16;
        shift_ = 60;
        while (used_ < 2 * inserts && used_ < Slots) used_ *= 2, --shift_;
        for (std::size_t i = 0; i < used_; ++i) slot_[i] = 0;
    }
    /// Adds key; false if it was already there. At most used_/2 inserts (the caller's reset(n) bound).
    constexpr bool insert(std::uint64_t key) noexcept {
        std::uint64_t const stored = key + 1; // 0 marks an empty slot
        // The index has at most log2(Slots) bits: narrowed to unsigned (a cast to size_t would be a
        // no-op where size_t is unsigned long long, which -Wuseless-cast reports on Windows).
        std::size_t i = static_cast<unsigned>((key * std::uint64_t{0x9E3779B97F4A7C15ULL}) >> shift_);
        while (slot_[i] != 0) {
            if (slot_[i] == stored) return false;
            i = (i + 1) & (used_ - 1);
        }
        slot_[i] = stored;
        return true;
    }

private:
    std::uint64_t slot_[Slots]; // initialized by reset() as far as used
    std::size_t used_ = 0;
    unsigned shift_ = 64;
};

/// Levenshtein distance, case-insensitive; "far" for names longer than 64 (no suggestion for those).
constexpr std::size_t edit_distance(std::string_view a, std::string_view b) noexcept {
    constexpr std::size_t cap = 64;
    if (a.size() > cap || b.size() > cap) return cap * 2;
    std::size_t prev[cap + 1] = {};
    std::size_t cur[cap + 1] = {};
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t const sub = prev[j - 1] + (ascii_lower(a[i - 1]) == ascii_lower(b[j - 1]) ? 0 : 1);
            std::size_t const del = prev[j] + 1;
            std::size_t const ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = cur[j];
    }
    return prev[b.size()];
}
/// Close enough to suggest: one edit, or up to three edits in a name of three times that length.
constexpr bool worth_suggesting(std::size_t distance, std::size_t length) noexcept {
    return distance <= 1 || (distance <= 3 && distance * 3 <= length); // 3 = max_suggested_distance below
}

/// worth_suggesting() never accepts more than 3 edits, and the length difference is a lower bound of
/// the distance: names further apart in length than that are skipped without computing it.
inline constexpr std::size_t max_suggested_distance = 3;
constexpr bool may_be_suggested(std::string_view token, std::string_view name) noexcept {
    std::size_t const a = token.size();
    std::size_t const b = name.size();
    return (a > b ? a - b : b - a) <= max_suggested_distance;
}

/// The nearest name to a token among candidates, found one table at a time (consider() each name),
/// and whether it is close enough to suggest.
struct nearest_name {
    std::string_view token;
    std::string_view best{};
    std::size_t best_d = static_cast<std::size_t>(-1);

    constexpr void consider(std::string_view name) noexcept {
        if (!may_be_suggested(token, name)) return;
        std::size_t const d = edit_distance(token, name);
        if (d < best_d) best_d = d, best = name;
    }
    template <class Rows>
    constexpr nearest_name& in(Rows const& rows) noexcept {
        for (auto const& r : rows) consider(r.name);
        return *this;
    }
    [[nodiscard]] constexpr std::string_view result() const noexcept {
        return worth_suggesting(best_d, token.size()) ? best : std::string_view{};
    }
};

template <class D = void>
constexpr std::string_view nearest_event_name(std::string_view token) noexcept {
    return nearest_name{token}.in(kernel_event_table<D>).result();
}
template <class D = void>
constexpr std::string_view nearest_flag_name(std::string_view token) noexcept {
    return nearest_name{token}.in(xperf_kernel_flag_table<D>).in(perf_flag_table<D>).result();
}

constexpr rule report(parse_error* err, rule why, std::size_t offset, std::size_t length,
                      std::string_view suggestion = {}, std::string_view note = {}) noexcept {
    if (err) *err = parse_error{why, offset, length, suggestion, note};
    return why;
}

// The compile-time parsers (stack_walk<>, kernel_flags<>) look rows up by index or value, not through
// the pointer-returning find_* functions: g++ with -fsanitize=undefined (or =null) instruments a pointer
// to a static table compared with nullptr and then refuses it in a constant expression ("is not a
// constant expression"), which made stack_walk<> and kernel_flags<> fail to compile in users' UBSan builds.

/// One stack-walk name -> hook id.
template <class D = void>
constexpr bool resolve_event(std::string_view name, hook_id& out) noexcept {
    if (auto const i = kernel_event_row<D>(name); i != no_row) {
        out = kernel_event_table<D>[i].hook();
        return true;
    }
    std::uint32_t v = 0;
    if (parse_hex(name, 4, v)) {
        out = hook_id(static_cast<std::uint16_t>(v));
        return true;
    }
    return false;
}

/// The raw forms every group-mask list takes: a value as 0x + 1..8 hex digits (mask index in bits
/// 29-31), or mask<i>:0x<hex> (bits of one mask, 29-31 included).
constexpr bool resolve_raw_mask(std::string_view name, group_mask& out) noexcept {
    std::uint32_t v = 0;
    if (parse_hex(name, 8, v)) {
        if (perf_flag{v}.bits() == 0) return false; // a mask index with no bits names nothing
        out = group_mask(perf_flag{v});
        return true;
    }
    // mask<i>:0x<hex>
    if (name.size() > 6 && iequals(name.substr(0, 4), "mask") && name[4] >= '0' && name[4] <= '7' && name[5] == ':' &&
        parse_hex(name.substr(6), 8, v) && v != 0) {
        out = group_mask{};
        out.masks[static_cast<std::size_t>(name[4] - '0')] = v;
        return true;
    }
    return false;
}

/// One kernel-flag name -> the bits it sets (and, for an xperf flag name, its table row in *row).
template <class D = void>
constexpr bool resolve_flag(std::string_view name, group_mask& out, std::size_t* row = nullptr) noexcept {
    for (std::size_t i = 0; i < std::size(xperf_kernel_flag_table<D>); ++i)
        if (iequals(xperf_kernel_flag_table<D>[i].name, name)) {
            out = xperf_kernel_flag_table<D>[i].mask;
            if (row) *row = i;
            return true;
        }
    if (auto const i = perf_flag_row<D>(name); i != no_row) {
        out = group_mask(perf_flag_table<D>[i].flag);
        return true;
    }
    return resolve_raw_mask(name, out);
}

/// A naming scheme of group-mask lists: how a name resolves, the nearest known name, and the names
/// published without a value. parse_mask_list reads a list in any of them.
struct mask_names {
    bool (*resolve)(std::string_view, group_mask&, std::size_t*) noexcept;
    std::string_view (*nearest)(std::string_view) noexcept;
    known_name_without_value const* (*without_value)(std::string_view) noexcept;
};
/// xperf's names (a variable template like the tables it reads: names/flags.hpp).
template <class D = void>
inline constexpr mask_names xperf_flag_names{resolve_flag<D>, nearest_flag_name<D>, find_xperf_flag_without_value};

constexpr rule check_list_limits(std::string_view text, std::size_t& names, parse_error* err) noexcept {
    names = 0;
    if (text.size() > limits::max_parse_length)
        return report(err, rule::parse_input_too_long, limits::max_parse_length, text.size() - limits::max_parse_length);
    bool blank = true;
    std::size_t separators = 0;
    std::size_t beyond = text.size(); // where the first name beyond the cap starts
    for (std::size_t i = 0; i < text.size(); ++i) {
        char const c = text[i];
        blank = blank && is_blank(c);
        if (c == '+' && ++separators == limits::max_parse_names) beyond = i + 1;
    }
    if (blank) return rule::ok;
    names = separators + 1;
    if (names > limits::max_parse_names)
        return report(err, rule::parse_too_many_names, beyond, text.size() - beyond);
    return rule::ok;
}

/// The duplicate-detection key of a kernel-flag value: a value within one mask (every hex form, every
/// PERF_* name, most xperf names) is its mask index and bits; a value spanning masks can only be an
/// xperf name, and xperf names have distinct values (flags.hpp checks it), so its row identifies it.
constexpr std::uint64_t flag_key(group_mask const& bits, std::size_t xperf_row) noexcept {
    std::size_t nonzero = 0;
    std::size_t index = 0;
    for (std::size_t i = 0; i < limits::max_group_masks; ++i)
        if (bits.masks[i] != 0) ++nonzero, index = i;
    if (nonzero <= 1) return (std::uint64_t{index} << 32) | bits.masks[index];
    return (std::uint64_t{1} << 40) | xperf_row;
}

/// Writes into a caller's span like snprintf: counts everything, stores what fits, NUL-terminates
/// when there is room.
struct text_writer {
    std::span<char> out;
    std::size_t n = 0;
    constexpr void put(char c) noexcept {
        if (n < out.size()) out[n] = c;
        ++n;
    }
    constexpr void put(std::string_view s) noexcept {
        for (char c : s) put(c);
    }
    constexpr void separator() noexcept {
        if (n != 0) put('+');
    }
    constexpr void put_hex(std::uint32_t v, int digits) noexcept {
        constexpr char hex[] = "0123456789ABCDEF";
        put("0x");
        for (int i = digits - 1; i >= 0; --i) put(hex[(v >> (4 * i)) & 0xFU]);
    }
    constexpr std::size_t finish() noexcept {
        if (n < out.size()) out[n] = '\0';
        return n;
    }
};

} // namespace detail

/// Parses "CSwitch+ReadyThread+0x0F2E" into hook ids. At most min(out.size(), 256) names. On success
/// count is the number of ids; on failure count is the number parsed before the offending name and
/// *err (if given) locates it.
template <class D = void>
constexpr rule parse_stack_walk(std::string_view text, std::span<hook_id> out, std::size_t& count,
                                parse_error* err = nullptr) noexcept {
    count = 0;
    std::size_t names = 0;
    if (rule const r = detail::check_list_limits(text, names, err); r != rule::ok) return r;
    std::size_t const capacity =
        out.size() < limits::max_stack_tracing_events ? out.size() : limits::max_stack_tracing_events;
    detail::seen_keys<2 * limits::max_stack_tracing_events> seen; // at most `capacity` inserts
    seen.reset(names < capacity ? names : capacity);
    detail::name_cursor cur(text);
    std::size_t off = 0;
    std::size_t len = 0;
    while (cur.next(off, len)) {
        std::string_view const name = text.substr(off, len);
        if (len == 0) return detail::report(err, rule::parse_empty_name, off, 0);
        hook_id h;
        if (!detail::resolve_event<D>(name, h)) {
            if (auto const* known = find_kernel_event_without_hook(name))
                return detail::report(err, rule::parse_name_without_value, off, len, {}, known->seen_in);
            return detail::report(err, rule::parse_unknown_name, off, len, detail::nearest_event_name<D>(name));
        }
        if (count == capacity) {
            for (std::size_t i = 0; i < count; ++i) // once per call: the list is full
                if (out[i] == h) return detail::report(err, rule::parse_duplicate_name, off, len);
            return detail::report(err, rule::parse_too_many_names, off, len);
        }
        if (!seen.insert(h.value)) return detail::report(err, rule::parse_duplicate_name, off, len);
        out[count++] = h;
    }
    return detail::report(err, rule::ok, 0, 0);
}

namespace detail {
/// A '+'-separated list of names of one scheme (mask_names) -> a group mask (a set union over the 8
/// masks). out is written only on success.
constexpr rule parse_mask_list(std::string_view text, group_mask& out, parse_error* err, mask_names const& scheme) noexcept {
    std::size_t names = 0;
    if (rule const r = detail::check_list_limits(text, names, err); r != rule::ok) return r;
    detail::seen_keys<2 * limits::max_parse_names> seen;
    seen.reset(names);
    group_mask result;
    detail::name_cursor cur(text);
    std::size_t off = 0;
    std::size_t len = 0;
    while (cur.next(off, len)) {
        std::string_view const name = text.substr(off, len);
        if (len == 0) return detail::report(err, rule::parse_empty_name, off, 0);
        group_mask bits;
        std::size_t row = 0;
        if (!scheme.resolve(name, bits, &row)) {
            if (auto const* known = scheme.without_value(name))
                return detail::report(err, rule::parse_name_without_value, off, len, {}, known->seen_in);
            return detail::report(err, rule::parse_unknown_name, off, len, scheme.nearest(name));
        }
        // A duplicate denotes exactly the bits of an earlier name (an alias, a PERF_* name or a hex form).
        if (!seen.insert(detail::flag_key(bits, row))) return detail::report(err, rule::parse_duplicate_name, off, len);
        result |= bits;
    }
    out = result;
    return detail::report(err, rule::ok, 0, 0);
}
} // namespace detail

/// Parses "PROC_THREAD+LOADER+PROFILE" into a group mask (a set union over the 8 masks). out is
/// written only on success.
template <class D = void>
constexpr rule parse_kernel_flags(std::string_view text, group_mask& out, parse_error* err = nullptr) noexcept {
    return detail::parse_mask_list(text, out, err, detail::xperf_flag_names<D>);
}

/// "CSwitch+ReadyThread"; ids without a name as 0x%04X. Returns the full length; writes what fits
/// (NUL-terminated if there is room), so a return >= out.size() means truncated.
template <class D = void>
constexpr std::size_t format_stack_walk(std::span<hook_id const> ids, std::span<char> const out) noexcept {
    detail::text_writer w{out};
    for (hook_id h : ids) {
        w.separator();
        if (auto const name = kernel_event_name<D>(h); !name.empty()) w.put(name);
        else w.put_hex(h.value, 4);
    }
    return w.finish();
}

/// xperf names for the bits they cover exactly (each bit named once, first table row wins), then the
/// rest of each mask as one PERF value 0x%08X (bits 29-31 of a mask as mask<i>:0x%08X). Same return
/// convention as format_stack_walk. parse_kernel_flags(format_kernel_flags(m)) == m.
template <class D = void>
constexpr std::size_t format_kernel_flags(group_mask const& m, std::span<char> const out) noexcept {
    detail::text_writer w{out};
    group_mask rest = m;
    for (auto const& f : xperf_kernel_flag_table<D>) {
        if (detail::is_subset(f.mask, rest)) {
            w.separator();
            w.put(f.name);
            rest = rest - f.mask;
        }
    }
    for (std::size_t i = 0; i < limits::max_group_masks; ++i) {
        std::uint32_t const low = rest.masks[i] & perf_flag::bits_mask;
        std::uint32_t const high = rest.masks[i] & perf_flag::index_mask;
        if (low) {
            w.separator();
            w.put_hex(static_cast<std::uint32_t>(i << 29) | low, 8);
        }
        if (high) {
            w.separator();
            w.put("mask");
            w.put(static_cast<char>('0' + i));
            w.put(':');
            w.put_hex(high, 8);
        }
    }
    return w.finish();
}

// ---- compile time ----------------------------------------------------------------------------------

namespace diagnostic {
// The templates below exist to be named in compiler errors. Their arguments carry the offending name:
// gcc prints a fixed_string argument as a string, clang prints a character pack as characters.
#if defined(__clang__)
template <char... C>
struct name {};
template <char... C>
struct did_you_mean {};
#else
template <fixed_string S>
struct name {};
template <fixed_string S>
struct did_you_mean {};
#endif
struct no_similar_known_name {};
template <std::size_t Offset>
struct at_offset {};
template <std::size_t Limit>
struct limit {};

template <class...>
inline constexpr bool always_false = false;

template <class Name, class Suggestion>
struct unknown_kernel_event_name {
    static_assert(always_false<Name, Suggestion>,
                  "etwctl::stack_walk: unknown event name; the name<...> above is the unknown one, did_you_mean<...> "
                  "the nearest known name (all names: docs/reference.md)");
    static constexpr bool value = true;
};
template <class Name>
struct duplicate_kernel_event_name {
    static_assert(always_false<Name>,
                  "etwctl::stack_walk: event named twice (the name<...> above repeats an earlier name, alias or hook "
                  "id); give each event once");
    static constexpr bool value = true;
};
template <class Offset>
struct empty_name_in_stack_walk {
    static_assert(always_false<Offset>,
                  "etwctl::stack_walk: empty name (a stray '+') at the character offset at_offset<...> above");
    static constexpr bool value = true;
};
template <class Name, class Limit>
struct too_many_stack_walk_events {
    static_assert(always_false<Name, Limit>,
                  "etwctl::stack_walk: more than 256 events; the kernel accepts at most 256 (name<...> above is the "
                  "first that does not fit)");
    static constexpr bool value = true;
};
template <class Name>
struct kernel_event_without_public_hook_id {
    static_assert(always_false<Name>,
                  "etwctl::stack_walk: the name<...> above is a known event name (xperf or WPR lists it) whose hook id "
                  "no public source gives; etwctl does not guess one: give the hook id as 0x.... if you know it "
                  "(where the name is published: docs/reference.md)");
    static constexpr bool value = true;
};
template <class Name>
struct kernel_flag_without_public_value {
    static_assert(always_false<Name>,
                  "etwctl::kernel_flags: the name<...> above is a known xperf flag whose value no public source gives; "
                  "etwctl does not guess one: give its PERF value as 0x........ if you know it (docs/reference.md)");
    static constexpr bool value = true;
};
template <class Name, class Suggestion>
struct unknown_kernel_flag_name {
    static_assert(always_false<Name, Suggestion>,
                  "etwctl::kernel_flags: unknown kernel flag; the name<...> above is the unknown one, did_you_mean<...> "
                  "the nearest known flag (all flags: docs/reference.md)");
    static constexpr bool value = true;
};
template <class Name>
struct duplicate_kernel_flag_name {
    static_assert(always_false<Name>,
                  "etwctl::kernel_flags: flag named twice (the name<...> above sets exactly the bits of an earlier "
                  "name); give each flag once");
    static constexpr bool value = true;
};
template <class Offset>
struct empty_name_in_kernel_flags {
    static_assert(always_false<Offset>,
                  "etwctl::kernel_flags: empty name (a stray '+') at the character offset at_offset<...> above");
    static constexpr bool value = true;
};
template <class Limit>
struct name_list_longer_than_parse_limit {
    static_assert(always_false<Limit>,
                  "etwctl::stack_walk / etwctl::kernel_flags: the text is longer than limits::max_parse_length "
                  "(limit<...> above, in bytes)");
    static constexpr bool value = true;
};
template <class Limit>
struct more_names_than_parse_limit {
    static_assert(always_false<Limit>,
                  "etwctl::stack_walk / etwctl::kernel_flags: more names than limits::max_parse_names (limit<...> above)");
    static constexpr bool value = true;
};
} // namespace diagnostic

namespace detail {
template <std::size_t N>
consteval fixed_string<N + 1> to_fixed(std::string_view s) {
    fixed_string<N + 1> f{};
    for (std::size_t i = 0; i < N; ++i) f.value[i] = s[i];
    return f;
}

#if defined(__clang__)
template <fixed_string S, std::size_t... I>
diagnostic::name<S.value[I]...> name_type_of(std::index_sequence<I...>);
template <fixed_string S, std::size_t... I>
diagnostic::did_you_mean<S.value[I]...> suggestion_type_of(std::index_sequence<I...>);
template <fixed_string S>
using name_t = decltype(name_type_of<S>(std::make_index_sequence<S.size()>{}));
template <fixed_string S>
using did_you_mean_t = decltype(suggestion_type_of<S>(std::make_index_sequence<S.size()>{}));
#else
template <fixed_string S>
using name_t = diagnostic::name<S>;
template <fixed_string S>
using did_you_mean_t = diagnostic::did_you_mean<S>;
#endif

template <fixed_string S, std::size_t Offset, std::size_t Length>
using token_t = name_t<to_fixed<Length>(S.view().substr(Offset, Length))>;

struct stack_walk_result {
    hook_id ids[limits::max_stack_tracing_events] = {};
    std::size_t count = 0;
    parse_error error{};
};

struct mask_list_result {
    group_mask mask{};
    parse_error error{};
};
constexpr mask_list_result run_mask_list(std::string_view text, mask_names const& scheme) noexcept {
    mask_list_result r;
    parse_mask_list(text, r.mask, &r.error, scheme);
    return r;
}

template <fixed_string Suggestion>
struct suggestion_type {
    using type = did_you_mean_t<Suggestion>;
};
template <>
struct suggestion_type<fixed_string<1>{}> {
    using type = diagnostic::no_similar_known_name;
};

struct no_diagnosis {
    static constexpr bool value = true;
};

// Each diagnosis is a class (not a static_assert inside the function that computes the value): a
// failed static_assert inside a class leaves the class usable, so the compilers print the one
// message and nothing after it; inside a consteval function it would also poison the value.
template <fixed_string S, rule Why, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct stack_walk_diagnosis {
    using type = no_diagnosis;
};
template <fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct stack_walk_diagnosis<S, rule::parse_unknown_name, Offset, Length, Suggestion> {
    using type = diagnostic::unknown_kernel_event_name<token_t<S, Offset, Length>,
                                                                        typename suggestion_type<Suggestion>::type>;
};
template <fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct stack_walk_diagnosis<S, rule::parse_name_without_value, Offset, Length, Suggestion> {
    using type = diagnostic::kernel_event_without_public_hook_id<token_t<S, Offset, Length>>;
};
template <fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct stack_walk_diagnosis<S, rule::parse_duplicate_name, Offset, Length, Suggestion> {
    using type = diagnostic::duplicate_kernel_event_name<token_t<S, Offset, Length>>;
};
template <fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct stack_walk_diagnosis<S, rule::parse_empty_name, Offset, Length, Suggestion> {
    using type = diagnostic::empty_name_in_stack_walk<diagnostic::at_offset<Offset>>;
};
template <fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct stack_walk_diagnosis<S, rule::parse_too_many_names, Offset, Length, Suggestion> {
    using type =
        diagnostic::too_many_stack_walk_events<token_t<S, Offset, Length>,
                                               diagnostic::limit<limits::max_stack_tracing_events>>;
};

template <fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct stack_walk_diagnosis<S, rule::parse_input_too_long, Offset, Length, Suggestion> {
    using type = diagnostic::name_list_longer_than_parse_limit<diagnostic::limit<limits::max_parse_length>>;
};

template <fixed_string S>
struct stack_walk_impl {
    // Built here, not in a function of its own: the output array becomes a span only for a list a TU
    // really parses (the call depends on S).
    static constexpr stack_walk_result r = [] {
        stack_walk_result out;
        parse_stack_walk(S.view(), out.ids, out.count, &out.error);
        return out;
    }();
    static_assert(stack_walk_diagnosis<S, r.error.why, r.error.offset, r.error.length,
                                       to_fixed<r.error.suggestion.size()>(r.error.suggestion)>::type::value);
    static constexpr std::size_t count = r.error.why == rule::ok ? r.count : 0;
    static constexpr hook_list<count> value = [] {
        hook_list<count> list{};
        for (std::size_t i = 0; i < count; ++i) list.ids[i] = r.ids[i];
        return list;
    }();
};

// The compiler messages of one group-mask list (kernel_flags, wpr_keywords): member templates named
// by mask_list_diagnosis for each rule.
template <class D = void>
struct kernel_flag_messages {
    static constexpr mask_names const* scheme = &xperf_flag_names<D>;
    template <class Name, class Suggestion>
    using unknown = diagnostic::unknown_kernel_flag_name<Name, Suggestion>;
    template <class Name>
    using without_value = diagnostic::kernel_flag_without_public_value<Name>;
    template <class Name>
    using duplicate = diagnostic::duplicate_kernel_flag_name<Name>;
    template <class Offset>
    using empty = diagnostic::empty_name_in_kernel_flags<Offset>;
};

template <class M, fixed_string S, rule Why, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct mask_list_diagnosis {
    using type = no_diagnosis;
};
template <class M, fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct mask_list_diagnosis<M, S, rule::parse_unknown_name, Offset, Length, Suggestion> {
    using type = typename M::template unknown<token_t<S, Offset, Length>, typename suggestion_type<Suggestion>::type>;
};
template <class M, fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct mask_list_diagnosis<M, S, rule::parse_name_without_value, Offset, Length, Suggestion> {
    using type = typename M::template without_value<token_t<S, Offset, Length>>;
};
template <class M, fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct mask_list_diagnosis<M, S, rule::parse_duplicate_name, Offset, Length, Suggestion> {
    using type = typename M::template duplicate<token_t<S, Offset, Length>>;
};
template <class M, fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct mask_list_diagnosis<M, S, rule::parse_empty_name, Offset, Length, Suggestion> {
    using type = typename M::template empty<diagnostic::at_offset<Offset>>;
};
template <class M, fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct mask_list_diagnosis<M, S, rule::parse_too_many_names, Offset, Length, Suggestion> {
    using type = diagnostic::more_names_than_parse_limit<diagnostic::limit<limits::max_parse_names>>;
};
template <class M, fixed_string S, std::size_t Offset, std::size_t Length, fixed_string Suggestion>
struct mask_list_diagnosis<M, S, rule::parse_input_too_long, Offset, Length, Suggestion> {
    using type = diagnostic::name_list_longer_than_parse_limit<diagnostic::limit<limits::max_parse_length>>;
};

template <class M, fixed_string S>
struct mask_list_impl {
    static constexpr mask_list_result r = run_mask_list(S.view(), *M::scheme);
    static_assert(mask_list_diagnosis<M, S, r.error.why, r.error.offset, r.error.length,
                                      to_fixed<r.error.suggestion.size()>(r.error.suggestion)>::type::value);
    static constexpr group_mask value = r.mask;
};
} // namespace detail

/// The hook ids of an xperf-style event list, computed by the compiler: a hook_list<N> to pass to
/// set<stack_tracing> or set<pmc_event_list>. Mistakes do not compile and name the offending name.
template <fixed_string S>
inline constexpr auto stack_walk = detail::stack_walk_impl<S>::value;

/// The group mask of an xperf-style kernel-flag list, computed by the compiler.
template <fixed_string S>
inline constexpr group_mask kernel_flags = detail::mask_list_impl<detail::kernel_flag_messages<>, S>::value;

/// The text with a caret line under the offending name, the rule and the suggestion, for a config
/// file's or a command line's error message:
///     CSwitch+CSwtch
///             ^~~~~~ unknown name; did you mean "CSwitch"?
/// Writes at most out.size() characters (no NUL); returns the full length. No allocation.
constexpr std::size_t format(parse_error const& e, std::string_view text, std::span<char> out) noexcept {
    std::size_t at = detail::put(out, 0, text);
    at = detail::put(out, at, "\n");
    std::size_t const offset = e.offset < text.size() ? e.offset : text.size();
    for (std::size_t i = 0; i < offset; ++i) at = detail::put(out, at, text[i] == '\t' ? "\t" : " ");
    at = detail::put(out, at, "^");
    for (std::size_t i = 1; i < e.length; ++i) at = detail::put(out, at, "~");
    at = detail::put(out, at, " ");
    at = detail::put(out, at, info(e.why).text);
    if (!e.suggestion.empty()) {
        at = detail::put(out, at, "; did you mean \"");
        at = detail::put(out, at, e.suggestion);
        at = detail::put(out, at, "\"?");
    }
    if (!e.note.empty()) {
        at = detail::put(out, at, " (");
        at = detail::put(out, at, e.note);
        at = detail::put(out, at, ")");
    }
    return at;
}

ETWCTL_END_NAMESPACE
