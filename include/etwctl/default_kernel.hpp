// SPDX-License-Identifier: MIT
// etwctl/default_kernel.hpp - Windows only: set / query and the drop-in functions without a kernel
// argument, on the default kernel, native_kernel::instance() (kernel/native.hpp):
//
//   std::error_code ec = etwctl::set<etwctl::stack_tracing>(session, etwctl::stack_walk<"CSwitch">);
//   std::uint32_t e = etwctl::compat::trace_set_information(session, TraceStackTracingInfo, &ids, sizeof ids);
//
// One layer above the faces it forwards to (typed/, compat.hpp) and the kernel it names, so the kernel
// layer includes no face. The umbrella includes it. On other platforms this header declares nothing:
// pass a kernel (etwctl::sim::kernel, testing/sim_kernel.hpp).
#pragma once

#if defined(_WIN32)

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "etwctl/compat.hpp"
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

namespace compat {
inline std::uint32_t trace_set_information(std::uint64_t session, info_class_arg information_class,
                                           void const* information, std::uint32_t length) noexcept {
    return trace_set_information(native_kernel::instance(), session, information_class, information, length);
}
inline std::uint32_t trace_query_information(std::uint64_t session, info_class_arg information_class, void* information,
                                             std::uint32_t length, std::uint32_t* return_length) noexcept {
    return trace_query_information(native_kernel::instance(), session, information_class, information, length,
                                   return_length);
}
template <sdk_ulong U>
std::uint32_t trace_query_information(std::uint64_t session, info_class_arg information_class, void* information,
                                      std::uint32_t length, U* return_length) noexcept {
    return trace_query_information(native_kernel::instance(), session, information_class, information, length,
                                   return_length);
}
template <event_set_information_policy P = default_event_set_information_policy>
std::int32_t tracelogging_set_information(std::uint64_t reg_handle, std::uint32_t information_class,
                                          void const* information, std::uint32_t length) noexcept {
    return tracelogging_set_information<P>(native_kernel::instance(), reg_handle, information_class, information, length);
}
} // namespace compat

ETWCTL_END_NAMESPACE

#endif // _WIN32
