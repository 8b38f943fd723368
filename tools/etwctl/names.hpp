// Names as the tool takes and prints them: kernel flags and xperf groups, stack-walk events, the
// separators xperf uses ('+' for flags and events, ',' for counters), did-you-mean suggestions.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/group_mask.hpp"
#include "etwctl/types.hpp"
#include "etwctl/names/parse.hpp"

namespace etwctl_tool {

/// "CSwitch+ReadyThread" (ids without a name as 0x%04X).
std::string event_list_text(std::span<etwctl::hook_id const> ids);

/// Masks[0] alias bits duplicate the extended flags the kernel reports next to them; for display the
/// extended flag is enough (CSWITCH, not CSWITCH+0x00000010).
etwctl::group_mask display_mask(etwctl::group_mask m);
std::string flags_text(etwctl::group_mask const& m);

std::string parse_error_text(std::string_view what, std::string_view text, etwctl::parse_error const& e);

/// The nearest of `names` to `token` (case-insensitive edit distance), if close enough to suggest.
std::string nearest_name(std::string_view token, std::vector<std::string_view> const& names);

/// True if the text has no name at all (empty or blanks only).
bool blank(std::string_view text) noexcept;

/// "" or a message naming the wrong separator: `wrong` found where xperf joins `what` with `right`.
std::string separator_error(std::string_view text, char wrong, char right, std::string_view what);

/// Outcome of parsing a list argument: ok, or a usage message.
struct parsed {
    bool ok = false;
    std::string message;
};

/// Kernel flags and xperf kernel groups joined with '+' (groups: Base, Latency, ...; the union of
/// their members). Without a group name this is exactly etwctl::parse_kernel_flags. Flags xperf
/// lists without a public value (HAL_CLOCK, ...) are named as such.
parsed parse_flags_arg(std::string_view text, etwctl::group_mask& out);

/// Stack-walk / PMC event names joined with '+'. `allow_comma` accepts ',' too (pmc --events).
/// Too many names is reported through too_many (the caller knows the rule).
parsed parse_events_arg(std::string_view text, std::span<etwctl::hook_id> out, std::size_t& count, bool allow_comma,
                        bool& too_many);

/// Splits at `sep` (empty items kept).
std::vector<std::string> split(std::string_view s, char sep);

} // namespace etwctl_tool
