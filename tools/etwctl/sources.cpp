#include "sources.hpp"

#include <optional>

#include "etwctl/query.hpp"
#include "etwctl/names/sources.hpp"

#include "names.hpp"
#include "text.hpp"

namespace etwctl_tool {

namespace {
template <class K>
etwctl::result<std::vector<source_row>> read_from(K& k) {
    etwctl::profile_source_list_buffer<> storage;
    auto const list = etwctl::query<etwctl::profile_source_list>(k, storage.span());
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

etwctl::result<std::vector<source_row>> read_sources(etwctl::kernel_ref k) { return read_from(k); }
etwctl::result<std::vector<source_row>> read_sources(tool_kernel& k) { return read_from(k); }

source_row const* find_source(std::vector<source_row> const& rows, std::string_view text) {
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
