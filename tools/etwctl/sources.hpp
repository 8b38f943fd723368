// The machine's profile sources, read from the kernel's list (names for counters and intervals).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "etwctl/error.hpp"

#include "kernel_ref.hpp"

namespace etwctl_tool {

/// One row of the machine's profile-source list, copied out of the query buffer.
struct source_row {
    std::uint32_t id = 0;
    std::string name;
    std::uint32_t min = 0, max = 0;
};

etwctl::result<std::vector<source_row>> read_sources(etwctl::kernel_ref k);
etwctl::result<std::vector<source_row>> read_sources(tool_kernel& k);

/// By the machine's name, the KPROFILE name or the id; nullptr if the machine has no such source.
source_row const* find_source(std::vector<source_row> const& rows, std::string_view text);

/// The nearest name in the machine's list, for "did you mean": "" if none is close.
std::string suggest_source(std::vector<source_row> const& rows, std::string_view text);

bool is_timer_source(source_row const& s);

} // namespace etwctl_tool
