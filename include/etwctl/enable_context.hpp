// SPDX-License-Identifier: MIT
// etwctl/enable_context.hpp - TRACEHANDLE -> TRACE_ENABLE_CONTEXT, decoded at compile time or run time.
//
// A classic provider's enable callback receives a TRACEHANDLE that is really a TRACE_ENABLE_CONTEXT:
// bits 0-15 logger id (0xFFFF = NT Kernel Logger), 16-23 level, 24-31 internal flag, 32-63 enable
// flags. EtwGetTraceEnableFlags (Geoff Chappell's gettraceenableflags.htm) rejects a zero handle and logger ids >= MAXLOGGERS (64)
// other than 0xFFFF with ERROR_INVALID_HANDLE. Decoding is a few shifts; nothing is called.
#pragma once

#include <cstdint>

#include "etwctl/config.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace validate {
/// EtwGetTraceEnableFlags: the handle must look like a TRACE_ENABLE_CONTEXT.
constexpr rule enable_context(std::uint64_t trace_handle) noexcept {
    if (trace_handle == 0) return rule::enable_context_zero_handle;
    auto const id = static_cast<std::uint16_t>(trace_handle & 0xFFFFU);
    if (id != limits::kernel_logger_id && id >= limits::max_loggers) return rule::enable_context_bad_logger_id;
    return rule::ok;
}
} // namespace validate

struct enable_context {
    std::uint64_t handle = 0;

    constexpr enable_context() noexcept = default;
    constexpr explicit enable_context(std::uint64_t trace_handle) noexcept : handle(trace_handle) {}

    constexpr etwctl::logger_id logger_id() const noexcept { return {static_cast<std::uint16_t>(handle & 0xFFFFU)}; }
    constexpr std::uint8_t level() const noexcept { return static_cast<std::uint8_t>((handle >> 16) & 0xFFU); }
    constexpr std::uint8_t internal_flag() const noexcept { return static_cast<std::uint8_t>((handle >> 24) & 0xFFU); }
    constexpr std::uint32_t enable_flags() const noexcept { return static_cast<std::uint32_t>(handle >> 32); }

    /// rule::ok if the handle is a plausible enable context (what EtwGetTraceEnableFlags accepts).
    constexpr rule check() const noexcept { return validate::enable_context(handle); }
    constexpr bool valid() const noexcept { return check() == rule::ok; }

    /// Builds a handle from its parts (for tests and tools).
    static constexpr enable_context make(etwctl::logger_id id, std::uint8_t level, std::uint32_t flags,
                                         std::uint8_t internal = 0) noexcept {
        return enable_context{std::uint64_t{id.value} | (std::uint64_t{level} << 16) |
                              (std::uint64_t{internal} << 24) | (std::uint64_t{flags} << 32)};
    }
};

/// Enable flags if the handle is valid, else 0 (like EtwGetTraceEnableFlags, without a thread error).
constexpr std::uint32_t enable_flags_of(std::uint64_t trace_handle) noexcept {
    enable_context const c{trace_handle};
    return c.valid() ? c.enable_flags() : 0U;
}

ETWCTL_END_NAMESPACE
