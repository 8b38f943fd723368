// SPDX-License-Identifier: MIT
// etwctl/session/compat.hpp - drop-in functions for Windows' session API, in namespace etwctl::compat:
// the kernel first, then Windows' own arguments in the SDK's own types, accepted without casts.
//
//   StartTraceW(&handle, L"My Session", props)      ->  compat::start_trace(k, &handle, L"My Session", props)
//   ControlTraceW(handle, name, props, code)        ->  compat::control_trace(k, handle, name, props, code)
//   StopTraceW / QueryTraceW / UpdateTraceW / FlushTraceW  ->  compat::stop_trace / query_trace / update_trace / flush_trace
//   QueryAllTracesW(array, count, &n)               ->  compat::query_all_traces(k, array, count, &n)
//   EnableTraceEx2(handle, &provider, code, level, any, all, timeout, params) -> compat::enable_trace_ex2(k, ...)
//   and the ANSI forms start_trace_a, control_trace_a, stop_trace_a, query_trace_a, update_trace_a,
//   flush_trace_a, query_all_traces_a (a kernel with ansi_session_kernel).
//
// Each runs Windows' documented checks (session/checks.hpp, read from the caller's block by
// session/block.hpp) BEFORE anything is sent and returns the Win32 code Windows returns; then the
// kernel (native_kernel: Windows itself; sim::kernel: the model) answers and writes back what Windows
// writes back, never past Wnode.BufferSize. A properties block is anything that begins with
// EVENT_TRACE_PROPERTIES (the SDK's, its _V2, a struct derived from it, etwctl's own), described only
// by its Wnode.BufferSize. TRACEHANDLE, PULONG (unsigned long on Windows, which is not std::uint32_t)
// and LPCGUID / GUID are taken as the SDK spells them. Every pointer parameter also takes NULL, nullptr
// or 0 wherever the SDK's prototype takes a pointer, answered as Windows answers it (a NULL Properties,
// SessionHandle, PropertyArray, SessionCount or ProviderId: ERROR_INVALID_PARAMETER; a NULL
// InstanceName: ERROR_INVALID_NAME for StartTrace, "no name" for ControlTrace). On Windows, the end of
// this header adds the same functions without the kernel argument (native_kernel::instance()).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/kernel/session_concept.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/session/block.hpp"
#include "etwctl/session/checks.hpp"
#include "etwctl/session/layouts.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// A type a properties block may be passed as: anything that begins with EVENT_TRACE_PROPERTIES (the
/// SDK's struct, its _V2, a struct derived from either, or etwctl's event_trace_properties(_v2)).
template <class P>
concept properties_block = !std::is_const_v<P> && sizeof(P) >= sizeof(event_trace_properties) &&
                           (requires(P& p) { p.Wnode.BufferSize; } || requires(P& p) { p.wnode.buffer_size; });

/// TRACEHANDLE: a 64-bit unsigned integer (ULONG64 on Windows, std::uint64_t elsewhere).
template <class H>
concept trace_handle_type = std::unsigned_integral<H> && sizeof(H) == 8;

namespace compat {

// ---- The pointer arguments -------------------------------------------------------------------------------
// Each pointer parameter of the drop-in functions is one of the small classes below rather than a deduced
// `P*`: a template parameter cannot be deduced from NULL, nullptr or 0, so `start_trace(k, &h, name, NULL)`,
// a line written for StartTraceW, would find no function. Each class converts from the pointer types the
// SDK's prototype admits (deduced in its constructor) and from any null pointer constant (NULL, nullptr, 0:
// each converts to std::nullptr_t), which the function then answers as Windows does (session/checks.hpp:
// ERROR_INVALID_PARAMETER, or ERROR_INVALID_NAME for a NULL InstanceName).

/// PEVENT_TRACE_PROPERTIES: a pointer to any properties block (properties_block), or NULL.
class properties_arg {
public:
    template <properties_block P>
    constexpr properties_arg(P* properties) noexcept : block_(properties) {} // NOLINT(google-explicit-constructor)
    constexpr properties_arg(std::nullptr_t) noexcept {}                     // NOLINT(google-explicit-constructor)
    [[nodiscard]] constexpr void* get() const noexcept { return block_; }

private:
    void* block_ = nullptr;
};

/// PEVENT_TRACE_PROPERTIES* (QueryAllTraces' PropertyArray): an array of block pointers, or NULL.
class properties_array_arg {
public:
    template <properties_block P>
    constexpr properties_array_arg(P* const* array) noexcept // NOLINT(google-explicit-constructor)
        : array_(array), entry_(&entry_of<P>) {}
    constexpr properties_array_arg(std::nullptr_t) noexcept {} // NOLINT(google-explicit-constructor)
    [[nodiscard]] constexpr bool present() const noexcept { return array_ != nullptr; }
    /// Entry i as the block pointer it is (NULL when the caller's entry is NULL). Only when present().
    [[nodiscard]] void* operator[](std::uint32_t i) const noexcept { return entry_(array_, i); }

private:
    template <class P>
    static void* entry_of(void const* array, std::uint32_t i) noexcept { return static_cast<P* const*>(array)[i]; }
    void const* array_ = nullptr;
    void* (*entry_)(void const*, std::uint32_t) noexcept = nullptr;
};

/// A pointer to an unsigned integer the function writes (and reads first, to keep its value where
/// nothing is written): `T` is the width the kernel works in (std::uint64_t for a PTRACEHANDLE,
/// std::uint32_t for a PULONG), the caller's type any unsigned integer of that size (TRACEHANDLE is
/// ULONG64: unsigned long long on Windows, unsigned long on LP64; ULONG is unsigned long on Windows,
/// which is not std::uint32_t), or NULL.
template <class T>
class unsigned_out_arg {
public:
    template <class U>
        requires(std::unsigned_integral<U> && sizeof(U) == sizeof(T) && !std::is_const_v<U>)
    constexpr unsigned_out_arg(U* where) noexcept // NOLINT(google-explicit-constructor)
        : where_(where), load_(&load_as<U>), store_(&store_as<U>) {}
    constexpr unsigned_out_arg(std::nullptr_t) noexcept {} // NOLINT(google-explicit-constructor)
    [[nodiscard]] constexpr bool present() const noexcept { return where_ != nullptr; }
    /// The caller's value (0 when NULL).
    [[nodiscard]] T load() const noexcept { return where_ ? load_(where_) : T{0}; }
    /// Writes v into the caller's integer (nothing when NULL).
    void store(T v) const noexcept {
        if (where_) store_(where_, v);
    }

private:
    template <class U>
    static T load_as(void* where) noexcept { return static_cast<T>(*static_cast<U*>(where)); }
    template <class U>
    static void store_as(void* where, T v) noexcept { *static_cast<U*>(where) = static_cast<U>(v); }
    void* where_ = nullptr;
    T (*load_)(void*) noexcept = nullptr;
    void (*store_)(void*, T) noexcept = nullptr;
};
/// PTRACEHANDLE (StartTrace's SessionHandle), or NULL.
using trace_handle_out = unsigned_out_arg<std::uint64_t>;
/// PULONG (QueryAllTraces' SessionCount), or NULL.
using ulong_out = unsigned_out_arg<std::uint32_t>;

/// LPCGUID (EnableTraceEx2's ProviderId): the SDK's GUID const* (any guid_like), an etwctl::guid const*,
/// or NULL. The GUID is copied when the pointer is given.
class provider_id_arg {
public:
    template <class G>
        requires(guid_like<G> || std::same_as<G, guid>)
    provider_id_arg(G const* provider_id) noexcept // NOLINT(google-explicit-constructor)
        : present_(provider_id != nullptr) {
        if (provider_id) value_ = *provider_id;
    }
    constexpr provider_id_arg(std::nullptr_t) noexcept {} // NOLINT(google-explicit-constructor)
    [[nodiscard]] constexpr bool present() const noexcept { return present_; }
    /// The GUID; only when present().
    [[nodiscard]] constexpr guid const& value() const noexcept { return value_; }

private:
    guid value_{};
    bool present_ = false;
};

} // namespace compat

namespace detail {

template <class K, class Char>
std::uint32_t session_start(K& k, compat::trace_handle_out handle, Char const* name, void* props) noexcept {
    constexpr std::uint32_t unit = sizeof(Char) == 1 ? 1 : 2;
    if (rule const r = check_start(read_start_facts(handle.present(), name, props, unit)); r != rule::ok) {
        handle.store(0); // "If the function fails, the SessionHandle is 0" (StartTraceW)
        return win32_error_of(r);
    }
    // The kernel writes a std::uint64_t; the caller's TRACEHANDLE gets it in its own type (an untouched
    // value stays as it was).
    std::uint64_t h = handle.load();
    std::uint32_t e = 0;
    if constexpr (sizeof(Char) == 1) e = k.start_trace_a(&h, name, props);
    else e = k.start_trace_w(&h, name, props);
    handle.store(h);
    return e;
}

template <class K, class Char>
std::uint32_t session_control(K& k, std::uint64_t handle, Char const* name, void* props, std::uint32_t code) noexcept {
    if (rule const r = check_control_call(handle, name, props, code); r != rule::ok) return win32_error_of(r);
    if constexpr (sizeof(Char) == 1) return k.control_trace_a(handle, name, props, code);
    else return k.control_trace_w(handle, name, props, code);
}

template <bool Ansi, class K>
std::uint32_t session_query_all(K& k, compat::properties_array_arg array, std::uint32_t count,
                                compat::ulong_out sessions) noexcept {
    if (rule const r = check_query_all(array.present(), count, sessions.present()); r != rule::ok) return win32_error_of(r);
    void* blocks[max_configurable_loggers];
    for (std::uint32_t i = 0; i < count; ++i) {
        if (rule const r = check_query_all_entry(array[i]); r != rule::ok) return win32_error_of(r);
        blocks[i] = array[i];
    }
    std::uint32_t n = 0;
    std::uint32_t e = 0;
    if constexpr (Ansi) e = k.query_all_traces_a(blocks, count, &n);
    else e = k.query_all_traces_w(blocks, count, &n);
    sessions.store(n);
    return e;
}

} // namespace detail

namespace compat {

// ---- StartTrace -----------------------------------------------------------------------------------------

/// StartTraceW: checks the block and the name as Windows does, then starts the session. Returns the Win32
/// code; the handle (0 on failure) in *session_handle, the block's output fields written back.
template <session_kernel K>
std::uint32_t start_trace(K& k, trace_handle_out session_handle, wide_char const* instance_name,
                          properties_arg properties) noexcept {
    return detail::session_start(k, session_handle, instance_name, properties.get());
}
/// StartTraceA: CHAR names (the log-file name in the block too).
template <ansi_session_kernel K>
std::uint32_t start_trace_a(K& k, trace_handle_out session_handle, char const* instance_name, properties_arg properties) noexcept {
    return detail::session_start(k, session_handle, instance_name, properties.get());
}

// ---- ControlTrace and its wrappers -------------------------------------------------------------------------

/// ControlTraceW with EVENT_TRACE_CONTROL_QUERY (0), STOP (1), UPDATE (2), FLUSH (3) or INCREMENT_FILE (4):
/// the session named by `instance_name` (which decides when given), else by `handle`. The session's
/// properties and names are written into the block (ERROR_MORE_DATA when the names do not fit; for STOP
/// the session is stopped all the same).
template <session_kernel K>
std::uint32_t control_trace(K& k, std::uint64_t handle, wide_char const* instance_name, properties_arg properties,
                            std::uint32_t control_code) noexcept {
    return detail::session_control(k, handle, instance_name, properties.get(), control_code);
}
template <session_kernel K>
std::uint32_t stop_trace(K& k, std::uint64_t handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return control_trace(k, handle, instance_name, properties, static_cast<std::uint32_t>(control_code::stop));
}
template <session_kernel K>
std::uint32_t query_trace(K& k, std::uint64_t handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return control_trace(k, handle, instance_name, properties, static_cast<std::uint32_t>(control_code::query));
}
template <session_kernel K>
std::uint32_t update_trace(K& k, std::uint64_t handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return control_trace(k, handle, instance_name, properties, static_cast<std::uint32_t>(control_code::update));
}
template <session_kernel K>
std::uint32_t flush_trace(K& k, std::uint64_t handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return control_trace(k, handle, instance_name, properties, static_cast<std::uint32_t>(control_code::flush));
}

/// ControlTraceA and its wrappers: CHAR names.
template <ansi_session_kernel K>
std::uint32_t control_trace_a(K& k, std::uint64_t handle, char const* instance_name, properties_arg properties,
                              std::uint32_t control_code) noexcept {
    return detail::session_control(k, handle, instance_name, properties.get(), control_code);
}
template <ansi_session_kernel K>
std::uint32_t stop_trace_a(K& k, std::uint64_t handle, char const* instance_name, properties_arg properties) noexcept {
    return control_trace_a(k, handle, instance_name, properties, static_cast<std::uint32_t>(control_code::stop));
}
template <ansi_session_kernel K>
std::uint32_t query_trace_a(K& k, std::uint64_t handle, char const* instance_name, properties_arg properties) noexcept {
    return control_trace_a(k, handle, instance_name, properties, static_cast<std::uint32_t>(control_code::query));
}
template <ansi_session_kernel K>
std::uint32_t update_trace_a(K& k, std::uint64_t handle, char const* instance_name, properties_arg properties) noexcept {
    return control_trace_a(k, handle, instance_name, properties, static_cast<std::uint32_t>(control_code::update));
}
template <ansi_session_kernel K>
std::uint32_t flush_trace_a(K& k, std::uint64_t handle, char const* instance_name, properties_arg properties) noexcept {
    return control_trace_a(k, handle, instance_name, properties, static_cast<std::uint32_t>(control_code::flush));
}

// ---- QueryAllTraces ---------------------------------------------------------------------------------------------

/// QueryAllTracesW: `property_array` is the SDK's PEVENT_TRACE_PROPERTIES* (each entry a block with
/// Wnode.BufferSize and the two offsets set); *session_count receives how many sessions were written, or
/// with ERROR_MORE_DATA how many there are. `session_count` is a PULONG or a std::uint32_t*.
template <session_kernel K>
std::uint32_t query_all_traces(K& k, properties_array_arg property_array, std::uint32_t property_array_count,
                               ulong_out session_count) noexcept {
    return detail::session_query_all<false>(k, property_array, property_array_count, session_count);
}
/// QueryAllTracesA: CHAR names.
template <ansi_session_kernel K>
std::uint32_t query_all_traces_a(K& k, properties_array_arg property_array, std::uint32_t property_array_count,
                                 ulong_out session_count) noexcept {
    return detail::session_query_all<true>(k, property_array, property_array_count, session_count);
}

// ---- EnableTraceEx2 ---------------------------------------------------------------------------------------------

/// EnableTraceEx2: `provider_id` is an LPCGUID (or an etwctl::guid const*); `enable_parameters` a
/// PENABLE_TRACE_PARAMETERS or NULL. Checks the arguments, the parameters and each filter against their
/// documented limits, then enables, disables or captures state.
template <session_kernel K>
std::uint32_t enable_trace_ex2(K& k, std::uint64_t trace_handle, provider_id_arg provider_id, std::uint32_t control_code,
                               std::uint8_t level, std::uint64_t match_any_keyword, std::uint64_t match_all_keyword,
                               std::uint32_t timeout, void const* enable_parameters) noexcept {
    guid const* const provider = provider_id.present() ? &provider_id.value() : nullptr;
    if (rule const r = check_enable_call(trace_handle, provider, control_code, enable_parameters); r != rule::ok)
        return win32_error_of(r);
    return k.enable_trace_ex2(trace_handle, provider, control_code, level, match_any_keyword, match_all_keyword, timeout,
                              enable_parameters);
}

} // namespace compat
ETWCTL_END_NAMESPACE

#if defined(_WIN32)
#include "etwctl/kernel/native.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace compat {
// The session drop-in functions without the kernel argument (native_kernel::instance()).
inline std::uint32_t start_trace(trace_handle_out session_handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return start_trace(native_kernel::instance(), session_handle, instance_name, properties);
}
inline std::uint32_t start_trace_a(trace_handle_out session_handle, char const* instance_name, properties_arg properties) noexcept {
    return start_trace_a(native_kernel::instance(), session_handle, instance_name, properties);
}
inline std::uint32_t control_trace(std::uint64_t handle, wide_char const* instance_name, properties_arg properties,
                                   std::uint32_t code) noexcept {
    return control_trace(native_kernel::instance(), handle, instance_name, properties, code);
}
inline std::uint32_t control_trace_a(std::uint64_t handle, char const* instance_name, properties_arg properties,
                                     std::uint32_t code) noexcept {
    return control_trace_a(native_kernel::instance(), handle, instance_name, properties, code);
}
inline std::uint32_t stop_trace(std::uint64_t handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return stop_trace(native_kernel::instance(), handle, instance_name, properties);
}
inline std::uint32_t stop_trace_a(std::uint64_t handle, char const* instance_name, properties_arg properties) noexcept {
    return stop_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
inline std::uint32_t query_trace(std::uint64_t handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return query_trace(native_kernel::instance(), handle, instance_name, properties);
}
inline std::uint32_t query_trace_a(std::uint64_t handle, char const* instance_name, properties_arg properties) noexcept {
    return query_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
inline std::uint32_t update_trace(std::uint64_t handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return update_trace(native_kernel::instance(), handle, instance_name, properties);
}
inline std::uint32_t update_trace_a(std::uint64_t handle, char const* instance_name, properties_arg properties) noexcept {
    return update_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
inline std::uint32_t flush_trace(std::uint64_t handle, wide_char const* instance_name, properties_arg properties) noexcept {
    return flush_trace(native_kernel::instance(), handle, instance_name, properties);
}
inline std::uint32_t flush_trace_a(std::uint64_t handle, char const* instance_name, properties_arg properties) noexcept {
    return flush_trace_a(native_kernel::instance(), handle, instance_name, properties);
}
inline std::uint32_t query_all_traces(properties_array_arg property_array, std::uint32_t count, ulong_out session_count) noexcept {
    return query_all_traces(native_kernel::instance(), property_array, count, session_count);
}
inline std::uint32_t query_all_traces_a(properties_array_arg property_array, std::uint32_t count, ulong_out session_count) noexcept {
    return query_all_traces_a(native_kernel::instance(), property_array, count, session_count);
}
inline std::uint32_t enable_trace_ex2(std::uint64_t trace_handle, provider_id_arg provider_id, std::uint32_t control_code, std::uint8_t level,
                               std::uint64_t match_any_keyword, std::uint64_t match_all_keyword, std::uint32_t timeout,
                               void const* enable_parameters) noexcept {
    return enable_trace_ex2(native_kernel::instance(), trace_handle, provider_id, control_code, level, match_any_keyword,
                            match_all_keyword, timeout, enable_parameters);
}
} // namespace compat
ETWCTL_END_NAMESPACE
#endif // _WIN32
