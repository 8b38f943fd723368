// SPDX-License-Identifier: MIT
// etwctl/default_kernel.hpp - Windows only: set / query without a kernel argument, on the default kernel,
// native_kernel::instance() (kernel/native.hpp):
//
//   std::error_code ec = etwctl::set<etwctl::stack_tracing>(session, etwctl::stack_walk<"CSwitch">);
//
// One layer above the typed face it forwards to and the kernel it names, so the kernel layer includes no
// face. The umbrella includes it. It does not include the drop-in face: compat.hpp is opt-in on every
// platform, and brings its own calls without a kernel argument on Windows (as session/compat.hpp does).
// On other platforms this header declares nothing: pass a kernel (etwctl::sim::kernel, testing/sim_kernel.hpp).
#pragma once

#if defined(_WIN32)

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/native.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/typed/tags.hpp"

ETWCTL_BEGIN_NAMESPACE

template <info_tag C, class First, class... Args>
    requires(!kernel<std::remove_cvref_t<First>>)
[[nodiscard]] std::error_code set(First const& first, Args const&... args) noexcept {
    return set<C>(native_kernel::instance(), first, args...);
}
template <info_tag C>
[[nodiscard]] std::error_code set() noexcept {
    return set<C>(native_kernel::instance());
}

template <trace_info_tag C, class... Args>
    requires((sizeof...(Args) == 0) || (!kernel<std::remove_cvref_t<Args>> && ...))
[[nodiscard]] auto query(Args&&... args) noexcept {
    return query<C>(native_kernel::instance(), std::forward<Args>(args)...);
}

ETWCTL_END_NAMESPACE

#endif // _WIN32
