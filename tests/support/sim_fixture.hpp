// Helpers for tests that drive the simulated kernel: a machine with the NT Kernel Logger started,
// byte builders for raw caller buffers, and readers for recorded kernel requests.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "etwctl_test.hpp"

namespace etwctl_test {

using namespace etwctl;

/// Hook ids the control tests share (CSwitch, ReadyThread).
inline constexpr hook_id cswitch{0x0524};
inline constexpr hook_id ready_thread{0x0532};

/// A recorded request's bytes, to compare with an expected buffer.
inline std::vector<std::byte> bytes_of(sim::recorded_request const& r) { return {r.bytes.begin(), r.bytes.end()}; }

/// A simulated machine (on the heap: the model is ~160 KiB of fixed-size state).
struct machine {
    std::unique_ptr<sim::kernel> owner = std::make_unique<sim::kernel>();
    sim::kernel& k = *owner;
    std::uint64_t kernel_session = k.start_kernel_logger();
};

inline std::uint32_t u32_at(std::span<std::byte const> b, std::size_t off) {
    std::uint32_t v = 0;
    REQUIRE(off + 4 <= b.size());
    std::memcpy(&v, b.data() + off, 4);
    return v;
}
inline std::uint64_t u64_at(std::span<std::byte const> b, std::size_t off) {
    std::uint64_t v = 0;
    REQUIRE(off + 8 <= b.size());
    std::memcpy(&v, b.data() + off, 8);
    return v;
}

/// The group GUID of a kernel group (hook id high byte).
inline guid group_guid(std::uint8_t group) { return kernel_group_by_id(group)->event_guid; }

inline classic_event_id event(std::uint8_t group, std::uint8_t type) {
    classic_event_id e{};
    e.event_guid = group_guid(group);
    e.type = type;
    return e;
}

/// The hook ids of a recorded EVENT_TRACE_SYSTEM_EVENT_INFORMATION / PROFILE_COUNTER request.
inline std::vector<std::uint32_t> ids_of(sim::recorded_request const& r) {
    std::vector<std::uint32_t> ids;
    for (std::size_t off = 0x10; off + 4 <= r.bytes.size(); off += 4) ids.push_back(u32_at(r.bytes, off));
    return ids;
}

} // namespace etwctl_test
