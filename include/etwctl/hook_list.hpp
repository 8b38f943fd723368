// SPDX-License-Identifier: MIT
// etwctl/hook_list.hpp - a fixed-size, constexpr list of hook ids: what a compile-time stack-walk or PMC
// event configuration becomes (etwctl::stack_walk<"CSwitch+ReadyThread"> yields one). Passing it to
// set<stack_tracing> sends ids that were computed by the compiler: no lookup, no loop at run time.
#pragma once

#include <cstddef>
#include <span>

#include "etwctl/config.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

template <std::size_t N>
struct hook_list {
    hook_id ids[N == 0 ? 1 : N] = {};

    static constexpr std::size_t size() noexcept { return N; }
    static constexpr bool empty() noexcept { return N == 0; }
    constexpr hook_id const* begin() const noexcept { return ids; }
    constexpr hook_id const* end() const noexcept { return ids + N; }
    constexpr hook_id const* data() const noexcept { return ids; }
    constexpr hook_id operator[](std::size_t i) const noexcept { return ids[i]; }
    constexpr std::span<hook_id const, N> span() const noexcept { return std::span<hook_id const, N>(ids, N); }
    constexpr bool contains(hook_id h) const noexcept {
        for (std::size_t i = 0; i < N; ++i)
            if (ids[i] == h) return true;
        return false;
    }
};

/// hook_list{hook_id{0x0524}, hook_id{0x0532}}
template <class... H>
hook_list(H...) -> hook_list<sizeof...(H)>;

ETWCTL_END_NAMESPACE
