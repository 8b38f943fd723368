// The machine's profile sources, read from the kernel's list (names for counters and intervals).
#pragma once

#include <cstddef>
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

/// The machine's list, read into storage of the size the kernel reports (4 KiB first; a longer list is
/// read again with the size the failed read named).
etwctl::result<std::vector<source_row>> read_sources(any_kernel& k);
etwctl::result<std::vector<source_row>> read_sources(tool_kernel& k);

/// Storage for the library's own list reads (custom_counter_options / pmc_options::source_list_storage):
/// the list as it is now plus `extra` bytes (a source about to be added), at least 4 KiB. Sized with a
/// read of the machine itself (not a request of the command).
std::vector<std::byte> source_list_storage(any_kernel& k, std::size_t extra = 0);

/// By the machine's name, the KPROFILE name or the id; nullptr if the machine has no such source.
source_row const* find_source(std::vector<source_row> const& rows, std::string_view text);

/// The nearest name in the machine's list, for "did you mean": "" if none is close.
std::string suggest_source(std::vector<source_row> const& rows, std::string_view text);

bool is_timer_source(source_row const& s);

} // namespace etwctl_tool
