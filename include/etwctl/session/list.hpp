// SPDX-License-Identifier: MIT
// etwctl/session/list.hpp - the sessions that run on the machine (QueryAllTracesW), with no cap of 64.
//
//   static etwctl::session_list_buffer<128> storage;        // caller's storage: ~530 KB, not for a small stack
//   auto sessions = etwctl::list_sessions(k, storage);
//   if (!sessions && sessions.error() == etwctl::win32_condition(234))  // ERROR_MORE_DATA
//       ...storage for etwctl::sessions_required() entries, and again
//   for (auto const& s : *sessions) show(s.name(), s.handle().logger().value);
//
// QueryAllTraces fills one properties block per session (each with room for two names of 1024 characters,
// as Microsoft documents) and an array of pointers to them; it cannot page, so the whole list needs storage
// for every session at once. The library does not allocate: the caller provides the storage (a
// session_list_buffer<N>, or two spans of its own, e.g. from std::vector in a tool) and, when it is too
// small, learns the count Windows reported and retries with more (docs/choices.md).
// PropertyArrayCount may not exceed the machine's maximum number of sessions (EtwMaxLoggers, 64 by default,
// up to 256): with a kernel that answers TraceMaxLoggersQuery (query<max_loggers>, Windows 10 1709+) the
// count sent is min(storage, that maximum), so a machine configured above 64 is listed whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>

#include "etwctl/typed/tags.hpp"
#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/session/config.hpp"
#include "etwctl/session/kernel_ref.hpp"
#include "etwctl/session/session.hpp"

ETWCTL_BEGIN_NAMESPACE

/// Where list_sessions writes: the blocks and the array of pointers QueryAllTraces takes
/// (pointers.size() >= entries.size()).
struct session_list_storage {
    std::span<session_properties> entries;
    std::span<void*> pointers;
};

/// Storage for N sessions (N x 4248 bytes + N pointers): static, a member or on the heap; large.
template <std::size_t N>
struct session_list_buffer {
    static_assert(N > 0, "etwctl::session_list_buffer<N>: N must be at least 1");
    session_properties entries[N];
    void* pointers[N] = {};
    operator session_list_storage() noexcept { return {entries, pointers}; } // NOLINT: storage converts
};

/// The sessions QueryAllTraces reported: a view of the caller's storage.
class session_list {
public:
    constexpr session_list() noexcept = default;
    constexpr session_list(session_properties const* first, std::size_t count) noexcept : first_(first), count_(count) {}
    constexpr session_properties const* begin() const noexcept { return first_; }
    constexpr session_properties const* end() const noexcept { return first_ + count_; }
    constexpr std::size_t size() const noexcept { return count_; }
    constexpr bool empty() const noexcept { return count_ == 0; }
    constexpr session_properties const& operator[](std::size_t i) const noexcept { return first_[i]; }

private:
    session_properties const* first_ = nullptr;
    std::size_t count_ = 0;
};

namespace detail {
inline std::uint32_t& sessions_required_slot() noexcept {
    static thread_local std::uint32_t n = 0;
    return n;
}
} // namespace detail

/// The session count Windows reported to this thread's last list_sessions (what storage needs to hold).
inline std::uint32_t sessions_required() noexcept { return detail::sessions_required_slot(); }

/// QueryAllTracesW into the caller's storage, sending at most `max_count` entries (the machine's maximum:
/// Windows refuses a larger PropertyArrayCount). Too little storage: ERROR_MORE_DATA (win32_category),
/// sessions_required() the count Windows reported, describe() both numbers; the storage then holds the
/// first sessions, which the error does not return.
[[nodiscard]] inline result<session_list> list_sessions(session_kernel_ref k, session_list_storage storage,
                                                        std::uint32_t max_count) noexcept {
    std::size_t n = storage.entries.size() < storage.pointers.size() ? storage.entries.size() : storage.pointers.size();
    if (n > max_count) n = max_count;
    if (n == 0)
        return detail::fail(make_error_code(rule::session_query_all_count),
                            "list_sessions: no storage (a session_list_buffer<N> or spans of at least one entry)",
                            "list_sessions");
    for (std::size_t i = 0; i < n; ++i) {
        storage.entries[i] = session_properties::for_control();
        storage.pointers[i] = storage.entries[i].data();
    }
    std::uint32_t reported = 0;
    std::uint32_t const e = k.query_all_traces_w(storage.pointers.data(), static_cast<std::uint32_t>(n), &reported);
    detail::sessions_required_slot() = reported;
    if (e == win32::more_data)
        return detail::fail(win32_error_code(e),
                            "list_sessions: {value} sessions run and the storage holds {high}; give storage for "
                            "sessions_required() entries and list again",
                            "QueryAllTraces", reported, 0, n);
    if (e != win32::success) return detail::session_refused("QueryAllTraces", e);
    return session_list(storage.entries.data(), reported < n ? reported : n);
}

/// The same with the machine's maximum read from the kernel (query<max_loggers>, TraceMaxLoggersQuery;
/// where the kernel lacks it, the documented default of 64). A session kernel without the six calls of
/// the kernel concept (a test double) is sent the storage's size.
template <session_kernel K>
[[nodiscard]] result<session_list> list_sessions(K& k, session_list_storage storage) noexcept {
    std::uint32_t max = 0xFFFFFFFFU;
    if constexpr (kernel<K>) {
        max = limits::max_loggers;
        if (auto const m = query<max_loggers>(k); m.has_value() && *m != 0) max = *m;
    }
    return list_sessions(session_kernel_ref(k), storage, max);
}

ETWCTL_END_NAMESPACE
