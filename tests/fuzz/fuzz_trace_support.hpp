// What the trace harnesses share: every accessor of a record run, so a hostile record's header, items
// and payload are read the way a consumer reads them (ASan reports a byte read outside them).
#pragma once

#include <cstddef>
#include <cstdint>

#include "etwctl/trace.hpp"

namespace etwctl_fuzz {

/// Every accessor of `r`, folded into one value (the caller keeps it alive).
inline std::uint64_t touch_record(etwctl::trace::record const& r) {
    std::uint64_t v = r.timestamp() ^ r.thread_id() ^ r.process_id() ^ r.version() ^ r.hook().value;
    v ^= r.payload().size() ^ r.pointer_size() ^ static_cast<std::uint64_t>(r.kind());
    v ^= r.provider_id().data1 ^ r.descriptor().keyword ^ r.activity_id().data2 ^ r.instance_id() ^ r.parent_guid().data3;
    v ^= r.event_guid().data1 ^ r.opcode() ^ r.level();
    v ^= r.message_number() ^ r.message_flags() ^ r.message_sequence() ^ r.message_component_id();
    for (std::size_t i = 0; i < r.pmc_count(); ++i) v ^= r.pmc(i);
    v ^= r.pebs_index();
    for (auto const item : r.extended_items()) {
        v ^= item.type;
        for (auto const b : item.data) v ^= std::to_integer<std::uint8_t>(b);
    }
    for (auto const b : r.payload()) v ^= std::to_integer<std::uint8_t>(b);
    return v;
}

} // namespace etwctl_fuzz
