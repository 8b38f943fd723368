// The etwctl tool's wording of the custom-counter requests (kernel classes 0x15 / 0x16), for
// annotate.hpp's --dry-run / --trace output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "etwctl/request/custom_counters.hpp"

#include "annotate_words.hpp"
#include "recording_kernel.hpp"
#include "text.hpp"

namespace etwctl_tool {

/// The custom-counter requests (request/custom_counters.hpp: kernel classes 0x15 / 0x16, no
/// TRACE_INFO_CLASS wraps them), field by field. False for any other request; the requests of the
/// class table are read by request/decode.hpp (annotate() below).
template <class Row>
bool annotate_profile_source_change(request const& r, annotated_request& a, Row const& row, source_namer const& source_name) {
    auto u32 = [&](std::size_t off) {
        std::uint32_t v = 0;
        if (off + 4 <= r.bytes.size()) std::memcpy(&v, r.bytes.data() + off, 4);
        return v;
    };
    std::uint32_t const cls = u32(0);
    std::size_t const n = r.bytes.size();
    switch (cls) {
    case 0x15: { // EVENT_TRACE_PROFILE_ADD_INFORMATION
        using add = etwctl::kernel_profile_add_request;
        if (n != sizeof(add)) return false;
        row(0, 4, std::string("class ") + hex(cls, 2) + " " + kernel_class_name(cls));
        row(offsetof(add, version), 4, "Version " + std::to_string(u32(4) & 0xFFU) + ", 3 bytes padding");
        row(offsetof(add, counter), 8, "counter fields (the V2 / V3 union: EventSelect, UnitMask, ...)");
        row(offsetof(add, cpu_info_hierarchy), 12,
            "CpuInfoHierarchy " + hex(u32(0x10), 8) + " " + hex(u32(0x14), 8) + " " + hex(u32(0x18), 8) +
                (u32(0x10) == etwctl::profile_add_all_processors ? " (every processor)" : ""));
        row(offsetof(add, initial_interval), 4, "InitialInterval " + std::to_string(u32(0x1C)));
        row(offsetof(add, persist), 2, "Persist " + std::to_string(u32(0x20) & 0xFFU) + ", 1 byte padding");
        // The description: its characters and the NUL, 8 bytes a row; then the zero fill.
        std::string text;
        std::size_t off = offsetof(add, description);
        for (; off + 1 < n; off += 2) {
            auto const c = static_cast<unsigned>(std::to_integer<unsigned>(r.bytes[off]) |
                                                 (std::to_integer<unsigned>(r.bytes[off + 1]) << 8));
            if (c == 0) break;
            text += c < 0x80 ? static_cast<char>(c) : '?';
        }
        std::size_t const end = off + 2 < n ? off + 2 : n;
        for (std::size_t o = offsetof(add, description); o < end; o += 8)
            row(o, o + 8 <= end ? 8 : end - o,
                o == offsetof(add, description) ? "ProfileSourceDescription \"" + text + "\" (UTF-16, NUL-terminated)" : "");
        if (end < n) a.rows.push_back({end, "", "... " + std::to_string(n - end) + " bytes of zero fill"});
        return true;
    }
    case 0x16: { // EVENT_TRACE_PROFILE_REMOVE_INFORMATION
        if (n != sizeof(etwctl::kernel_profile_remove_request)) return false;
        row(0, 4, std::string("class ") + hex(cls, 2) + " " + kernel_class_name(cls));
        row(4, 4, "ProfileSource " + std::to_string(u32(4)) + " " + source_name(u32(4)));
        row(8, 12, "CpuInfoHierarchy " + hex(u32(8), 8) + " " + hex(u32(12), 8) + " " + hex(u32(16), 8) +
                       (u32(8) == etwctl::profile_add_all_processors ? " (every processor)" : ""));
        return true;
    }
    default:
        return false;
    }
}

} // namespace etwctl_tool
