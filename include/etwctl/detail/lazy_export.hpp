// SPDX-License-Identifier: MIT
// etwctl/detail/lazy_export.hpp - resolve a DLL export once, on first use, from any thread.
//
// Platform-free on purpose: the resolver is injected, so the logic is tested (and hammered under
// TSan) off Windows; native_kernel plugs in GetProcAddress. A missing export is remembered as
// missing and reported to the caller (never a crash, never a load failure). Racing first calls may
// each run the resolver; they store the same answer, so the race is benign and lock-free.
#pragma once

#include <atomic>
#include <cstdint>

#include "etwctl/config.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace detail {

class lazy_export {
public:
    enum class state : std::uint8_t { unresolved, missing, present };

    constexpr lazy_export() noexcept = default;
    lazy_export(lazy_export const&) = delete;
    lazy_export& operator=(lazy_export const&) = delete;

    /// The export's address, or 0 if it does not exist. Resolver: a callable returning std::uintptr_t
    /// (0 = not found); it runs until one call has stored an answer.
    template <class Resolver>
    std::uintptr_t get(Resolver&& resolve) noexcept {
        std::uintptr_t v = value_.load(std::memory_order_acquire);
        if (v == unresolved_value) {
            std::uintptr_t const found = resolve();
            v = found == 0 ? missing_value : found;
            value_.store(v, std::memory_order_release);
        }
        return v == missing_value ? 0 : v;
    }

    state status() const noexcept {
        std::uintptr_t const v = value_.load(std::memory_order_acquire);
        return v == unresolved_value ? state::unresolved : v == missing_value ? state::missing : state::present;
    }

    /// Forget the answer (tests only: a real export does not come and go).
    void reset() noexcept { value_.store(unresolved_value, std::memory_order_release); }

private:
    static constexpr std::uintptr_t unresolved_value = 0;
    static constexpr std::uintptr_t missing_value = 1; // no function lives at address 1
    std::atomic<std::uintptr_t> value_{unresolved_value};
};

} // namespace detail
ETWCTL_END_NAMESPACE
