// SPDX-License-Identifier: MIT
// etwctl/default_kernel.hpp - Windows only: set / query, the drop-in functions (compat.hpp, session/compat.hpp) and the
// typed session calls (sessions.hpp) without a kernel argument, on the default kernel, native_kernel::instance() (kernel/native.hpp):
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
#include "etwctl/session/compat.hpp"
#include "etwctl/sessions.hpp"

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
inline std::uint32_t trace_set_information(std::uint64_t session, std::uint32_t information_class,
                                           void const* information, std::uint32_t length) noexcept {
    return trace_set_information(native_kernel::instance(), session, information_class, information, length);
}
inline std::uint32_t trace_query_information(std::uint64_t session, std::uint32_t information_class, void* information,
                                             std::uint32_t length, std::uint32_t* return_length) noexcept {
    return trace_query_information(native_kernel::instance(), session, information_class, information, length,
                                   return_length);
}
template <class ULong>
    requires(std::same_as<ULong, unsigned long> && sizeof(ULong) == 4 && !std::same_as<ULong, std::uint32_t>)
std::uint32_t trace_query_information(std::uint64_t session, std::uint32_t information_class, void* information,
                                      std::uint32_t length, ULong* return_length) noexcept {
    return trace_query_information(native_kernel::instance(), session, information_class, information, length,
                                   return_length);
}
template <event_set_information_policy P = default_event_set_information_policy>
std::int32_t tracelogging_set_information(std::uint64_t reg_handle, std::uint32_t information_class,
                                          void const* information, std::uint32_t length) noexcept {
    return tracelogging_set_information<P>(native_kernel::instance(), reg_handle, information_class, information, length);
}

// The session drop-in functions without the kernel argument (session/compat.hpp).
template <trace_handle_type H, properties_block P>
std::uint32_t start_trace(H* session_handle, wide_char const* instance_name, P* properties) noexcept {
    return start_trace(native_kernel::instance(), session_handle, instance_name, properties);
}
template <trace_handle_type H, properties_block P>
std::uint32_t start_trace_a(H* session_handle, char const* instance_name, P* properties) noexcept {
    return start_trace_a(native_kernel::instance(), session_handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t control_trace(std::uint64_t handle, wide_char const* instance_name, P* properties, std::uint32_t code) noexcept {
    return control_trace(native_kernel::instance(), handle, instance_name, properties, code);
}
template <properties_block P>
std::uint32_t control_trace_a(std::uint64_t handle, char const* instance_name, P* properties, std::uint32_t code) noexcept {
    return control_trace_a(native_kernel::instance(), handle, instance_name, properties, code);
}
template <properties_block P>
std::uint32_t stop_trace(std::uint64_t handle, wide_char const* instance_name, P* properties) noexcept {
    return stop_trace(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t stop_trace_a(std::uint64_t handle, char const* instance_name, P* properties) noexcept {
    return stop_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t query_trace(std::uint64_t handle, wide_char const* instance_name, P* properties) noexcept {
    return query_trace(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t query_trace_a(std::uint64_t handle, char const* instance_name, P* properties) noexcept {
    return query_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t update_trace(std::uint64_t handle, wide_char const* instance_name, P* properties) noexcept {
    return update_trace(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t update_trace_a(std::uint64_t handle, char const* instance_name, P* properties) noexcept {
    return update_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t flush_trace(std::uint64_t handle, wide_char const* instance_name, P* properties) noexcept {
    return flush_trace(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P>
std::uint32_t flush_trace_a(std::uint64_t handle, char const* instance_name, P* properties) noexcept {
    return flush_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
template <properties_block P, ulong_type U>
std::uint32_t query_all_traces(P** property_array, std::uint32_t count, U* session_count) noexcept {
    return query_all_traces(native_kernel::instance(), property_array, count, session_count);
}
template <properties_block P, ulong_type U>
std::uint32_t query_all_traces_a(P** property_array, std::uint32_t count, U* session_count) noexcept {
    return query_all_traces_a(native_kernel::instance(), property_array, count, session_count);
}
template <class G>
    requires(guid_like<G> || std::same_as<G, guid>)
std::uint32_t enable_trace_ex2(std::uint64_t trace_handle, G const* provider_id, std::uint32_t control_code, std::uint8_t level,
                               std::uint64_t match_any_keyword, std::uint64_t match_all_keyword, std::uint32_t timeout,
                               void const* enable_parameters) noexcept {
    return enable_trace_ex2(native_kernel::instance(), trace_handle, provider_id, control_code, level, match_any_keyword,
                            match_all_keyword, timeout, enable_parameters);
}
} // namespace compat

// The typed session calls (etwctl/sessions.hpp) without the kernel argument.
[[nodiscard]] inline result<trace_session> start_session(session_config const& config, if_exists policy = if_exists::fail) noexcept {
    return start_session(native_kernel::instance(), config, policy);
}
[[nodiscard]] inline result<session_ref> attach_session(session_text name) noexcept {
    return attach_session(native_kernel::instance(), name);
}
[[nodiscard]] inline stop_report stop_session(session_text name) noexcept { return stop_session(native_kernel::instance(), name); }
[[nodiscard]] inline result<session_list> list_sessions(session_list_storage storage) noexcept {
    return list_sessions(native_kernel::instance(), storage);
}
[[nodiscard]] inline orphan_report stop_orphans(std::string_view prefix, session_list_storage storage) noexcept {
    return stop_orphans(native_kernel::instance(), prefix, storage);
}
inline session_config kernel_session(owned_session_name const& name,
                                     kernel_session_choice choice = kernel_session_choice::automatic) noexcept {
    return kernel_session(native_kernel::instance(), name, choice);
}

ETWCTL_END_NAMESPACE

#endif // _WIN32
