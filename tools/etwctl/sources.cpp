#include "sources.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>

#include "etwctl/typed/query.hpp"
#include "etwctl/names/sources.hpp"

#include "names.hpp"
#include "text.hpp"

namespace etwctl_tool {

namespace {
/// Reads the list, again with the size the kernel names while it says "too small" (the list may grow
/// between two reads: a few tries).
template <class K>
etwctl::result<etwctl::profile_source_list_view> read_list(K& k, std::vector<std::byte>& storage) {
    if (storage.size() < 4096) storage.resize(4096);
    for (int attempt = 0;; ++attempt) {
        std::uint32_t required = 0;
        auto list = etwctl::query<etwctl::profile_source_list>(k, std::span<std::byte>(storage), &required);
        if (list || attempt == 3 || etwctl::rule_of(list.error()) != etwctl::rule::source_list_buffer_too_small ||
            required <= storage.size())
            return list;
        storage.resize(required);
    }
}

template <class K>
etwctl::result<std::vector<source_row>> read_from(K& k) {
    std::vector<std::byte> storage;
    auto const list = read_list(k, storage);
    if (!list) return list.error();
    std::vector<source_row> rows;
    for (auto e : *list) {
        char name[128];
        e.description_ascii(name);
        rows.push_back({e.source_id(), name, e.min_interval(), e.max_interval()});
    }
    return rows;
}
} // namespace

etwctl::result<std::vector<source_row>> read_sources(any_kernel& k) { return read_from(k); }
etwctl::result<std::vector<source_row>> read_sources(tool_kernel& k) { return read_from(k); }

std::vector<std::byte> source_list_storage(any_kernel& k, std::size_t extra) {
    std::vector<std::byte> storage;
    std::size_t used = 0;
    if (auto const list = read_list(k, storage)) used = 8 + list->bytes().size(); // the kernel's 8-byte head, then the records
    storage.resize(std::max<std::size_t>(4096, used + extra));
    return storage;
}

source_row const* find_source(std::vector<source_row> const& rows, std::string_view text) {
    for (auto const& r : rows) // the exact spelling first (another tool may have added "totalcycles")
        if (r.name == text) return &r;
    for (auto const& r : rows)
        if (iequals(r.name, text)) return &r;
    std::uint64_t n = 0;
    std::optional<std::uint32_t> id;
    if (parse_uint(text, 0xFFFFFFFFULL, n)) id = static_cast<std::uint32_t>(n);
    else if (auto const s = etwctl::profile_source_by_name(text)) id = static_cast<std::uint32_t>(*s); // KPROFILE names
    if (id)
        for (auto const& r : rows)
            if (r.id == *id) return &r;
    return nullptr;
}

std::string suggest_source(std::vector<source_row> const& rows, std::string_view text) {
    std::vector<std::string_view> names;
    for (auto const& r : rows) names.push_back(r.name);
    return nearest_name(text, names);
}

bool is_timer_source(source_row const& s) {
    return s.id == static_cast<std::uint32_t>(etwctl::profile_source::time) || s.name.rfind("Timer", 0) == 0;
}

} // namespace etwctl_tool
