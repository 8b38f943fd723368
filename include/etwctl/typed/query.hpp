// SPDX-License-Identifier: MIT
// etwctl/typed/query.hpp - the typed queries:  auto r = etwctl::query<InfoClass>(kernel, args...);  if (r) use(*r);
//
//   query<system_trace_enable_flags>(k, session)           -> result<group_mask>
//   query<sampled_profile_interval>(k[, profile_source])   -> result<profile_interval>  (default: the timer)
//   query<profile_source_list>(k, storage)                 -> result<profile_source_list_view> over storage
//   query<version>(k)                                       -> result<std::uint32_t>  (no kernel call)
//   query<disallow_list_query>(k, session, storage)         -> result<std::span<guid>> (a prefix of storage)
//   query<max_loggers>(k), query<max_pmc_counters>(k)       -> result<std::uint32_t>  (19, 22)
//   query<stream_count>(k, session)                         -> result<std::uint32_t>  (23)
//   query<pmc_counter_owners>(k, storage[, processor])      -> result<pmc_owner_view>   (25; pmc_views.hpp)
//   query<pmc_session_information>(k, storage)              -> result<pmc_session_view> (27)
//   query<periodic_capture_state>(k)                        -> result<periodic_capture_limits> (17, no kernel call)
// Machine-global classes take no session. Results are values or views into the caller's storage,
// never heap memory; replies are checked before they are used (profile_source_list.hpp). Storage of any
// size is accepted (std::size_t throughout; the kernel is offered at most 4 GiB - 1). Each querier calls
// the request layer (request/encode.hpp) with typed values; compat.hpp is not involved.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>
#include <type_traits>

#include "etwctl/config.hpp"
#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/pmc_views.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/request/encode.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/types.hpp"
#include "etwctl/typed/outcome.hpp"
#include "etwctl/typed/tags.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace detail {

template <class>
inline constexpr bool query_dependent_false = false;

/// result<T> as a type that depends on the kernel type: a querier names its result class without having
/// it instantiated in every translation unit that includes this header (clang completes a
/// non-dependent return type where the template is defined; docs/performance.md, "Include weight").
template <class K, class T>
using kernel_result = result<dependent_t<K, T>>;

template <class C>
struct querier;

template <>
struct querier<system_trace_enable_flags> {
    template <kernel K>
    static kernel_result<K, group_mask> apply(K& k, session_handle session) noexcept {
        group_mask m;
        auto const o = query_group_masks(k, session.value, m.masks);
        if (!o.ok()) return o.code();
        return m;
    }
};

template <>
struct querier<sampled_profile_interval> {
    template <kernel K>
    static kernel_result<K, profile_interval> apply(K& k, profile_source source) noexcept {
        std::uint32_t interval = 0;
        auto const o = query_interval(k, static_cast<std::uint32_t>(source), interval);
        if (!o.ok()) return o.code();
        return profile_interval{interval};
    }
    template <kernel K>
    static kernel_result<K, profile_interval> apply(K& k) noexcept {
        return apply(k, profile_source::time);
    }
};

template <>
struct querier<profile_source_list> {
    /// storage receives the records; size it from a failed call's rule::source_list_buffer_too_small
    /// with required_size, or use profile_source_list_buffer<> (4 KiB, enough for typical machines).
    template <kernel K>
    static kernel_result<K, profile_source_list_view> apply(K& k, std::span<std::byte> storage,
                                                            std::uint32_t* required_size = nullptr) noexcept {
        std::size_t returned = 0;
        auto const o = query_profile_sources(k, storage.empty() ? nullptr : storage.data(), storage.size(), returned);
        if (required_size) *required_size = static_cast<std::uint32_t>(returned);
        if (o.broken == rule::source_list_buffer_too_small) [[unlikely]]
            return fail(o.code(),
                        "query<{name}>: the list takes {value} bytes, the storage holds {high}; read it again into "
                        "storage of {value} bytes (required_size reports it)",
                        "profile_source_list", returned, 0, storage.size());
        if (!o.ok()) return o.code();
        return profile_source_list_view::from_checked(checked_chain(detail::deferred<K>(storage).first(returned)));
    }
};

template <>
struct querier<version> {
    template <kernel K>
    static kernel_result<K, std::uint32_t> apply(K&) noexcept {
        return etw_trace_processing_version; // SECHOST answers without the kernel
    }
};

template <>
struct querier<disallow_list_query> {
    template <kernel K>
    static kernel_result<K, std::span<guid>> apply(K& k, session_handle session, std::span<guid> storage,
                                                   std::uint32_t* required_size = nullptr) noexcept {
        std::size_t returned = 0;
        auto const o = query_disallow_list(k, session.value, storage.empty() ? nullptr : storage.data(),
                                           storage.size_bytes(), returned);
        if (required_size) *required_size = static_cast<std::uint32_t>(returned);
        if (!o.ok()) return o.code();
        return detail::deferred<K>(storage).first(returned / sizeof(guid));
    }
};

// ---- the classes later releases added (16-28) -------------------------------------------------------

/// A ULONG answer of the row's NtTraceControl query.
template <class C, kernel K>
kernel_result<K, std::uint32_t> query_ulong(K& k, void const* in, std::uint32_t in_length) noexcept {
    std::uint32_t value = 0;
    std::size_t returned = 0;
    if (auto const ec = query_error<C>(query_control(k, C::row.query.kernel_code, in, in_length, &value, sizeof value, returned)))
        return ec;
    if (returned < sizeof value) return rule::kernel_reply_malformed;
    return value;
}

template <>
struct querier<periodic_capture_state> {
    /// No kernel call: the limits the kernel enforces (classes/info_classes.hpp's row, docs/choices.md).
    template <kernel K>
    static kernel_result<K, periodic_capture_limits> apply(K&) noexcept {
        return periodic_capture_limits{};
    }
};

template <>
struct querier<max_loggers> {
    template <kernel K>
    static kernel_result<K, std::uint32_t> apply(K& k) noexcept {
        return query_ulong<max_loggers>(k, nullptr, 0);
    }
};

template <>
struct querier<max_pmc_counters> {
    template <kernel K>
    static kernel_result<K, std::uint32_t> apply(K& k) noexcept {
        return query_ulong<max_pmc_counters>(k, nullptr, 0);
    }
};

template <>
struct querier<stream_count> {
    template <kernel K>
    static kernel_result<K, std::uint32_t> apply(K& k, session_handle session) noexcept {
        auto const in = stream_count_input(session.value);
        return query_ulong<stream_count>(k, &in, sizeof in);
    }
};

template <>
struct querier<pmc_counter_owners> {
    /// storage: at least pmc_owner_storage_size(query<max_pmc_counters>) = 8 + 12 x counters bytes
    /// (pmc_owner_buffer<> holds 16 counters; a machine may have more: a too-small storage fails, and
    /// required_size and describe() say how many bytes suffice).
    template <kernel K>
    static kernel_result<K, pmc_owner_view> apply(K& k, std::span<std::byte> storage, std::uint32_t processor = 0,
                                                  std::uint32_t* required_size = nullptr) noexcept {
        if (storage.size() < pmc_owners_head_size) return rule::kernel_reply_malformed;
        std::memset(storage.data(), 0, storage.size());
        std::memcpy(storage.data(), &processor, 4);
        auto const length = kernel_length(storage.size());
        std::size_t returned = 0;
        auto const ec = query_error<pmc_counter_owners>(
            query_control(k, pmc_counter_owners::row.query.kernel_code, storage.data(), length, storage.data(), length, returned));
        if (required_size) *required_size = static_cast<std::uint32_t>(returned);
        if (ec && returned > storage.size()) [[unlikely]]
            return fail(ec,
                        "query<{name}>: this machine's counter owners take {value} bytes, the storage holds {high}; "
                        "pass storage of {value} bytes (pmc_owner_storage_size(query<max_pmc_counters>))",
                        "pmc_counter_owners", returned, 0, storage.size());
        if (ec) return ec;
        if (returned > storage.size()) return rule::kernel_reply_malformed; // a reply longer than the buffer
        pmc_owner_view v;
        if (rule const r = pmc_owner_view::parse(detail::deferred<K>(storage).first(returned), v); r != rule::ok) return r;
        return v;
    }
};

template <>
struct querier<pmc_session_information> {
    template <kernel K>
    static kernel_result<K, pmc_session_view> apply(K& k, std::span<std::byte> storage, std::uint32_t* required_size = nullptr) noexcept {
        std::size_t returned = 0;
        auto const ec = query_error<pmc_session_information>(
            query_control(k, pmc_session_information::row.query.kernel_code, nullptr, 0,
                          storage.empty() ? nullptr : storage.data(), storage.size(), returned));
        if (required_size) *required_size = static_cast<std::uint32_t>(returned);
        if (ec) return ec;
        if (returned > storage.size()) return rule::kernel_reply_malformed; // a reply longer than the buffer
        pmc_session_view v;
        if (rule const r = pmc_session_view::parse(detail::deferred<K>(storage).first(returned), v); r != rule::ok) return r;
        return v;
    }
};

} // namespace detail

/// Fixed storage for query<profile_source_list>: 4 KiB holds the lists of typical machines
/// (an Intel machine's 18 sources take about 1.2 KiB).
template <std::size_t Size = 4096>
struct profile_source_list_buffer {
    alignas(8) std::byte bytes[Size];
    constexpr std::span<std::byte> span() noexcept { return bytes; }
    constexpr operator std::span<std::byte>() noexcept { return bytes; } // NOLINT: storage is passed as-is
};

/// Queries one information class. See the table at the top of this header for the arguments of each.
template <trace_info_tag C, kernel K, class... Args>
[[nodiscard]] auto query(K& k, Args&&... args) noexcept {
    if constexpr (!C::queryable) {
        static_assert(detail::query_dependent_false<C>,
                      "etwctl::query: this information class can only be set (the kernel cannot report it; for "
                      "stack_tracing keep your own stack_walk_set); use etwctl::set<C>");
        return result<detail::dependent_t<C, int>>(rule::query_class_not_supported);
    } else if constexpr (requires { detail::querier<C>::apply(k, std::forward<Args>(args)...); }) {
        return detail::querier<C>::apply(k, std::forward<Args>(args)...);
    } else {
        static_assert(!std::is_same_v<C, system_trace_enable_flags>,
                      "etwctl::query<system_trace_enable_flags>: wrong arguments; use query<system_trace_enable_flags>(kernel, session)");
        static_assert(!std::is_same_v<C, sampled_profile_interval>,
                      "etwctl::query<sampled_profile_interval>: wrong arguments; the interval is machine-global and takes "
                      "no session: use query<sampled_profile_interval>(kernel[, profile_source])");
        static_assert(!std::is_same_v<C, profile_source_list>,
                      "etwctl::query<profile_source_list>: wrong arguments; the list is machine-global and takes no "
                      "session: use query<profile_source_list>(kernel, std::span<std::byte> storage)");
        static_assert(!std::is_same_v<C, version>,
                      "etwctl::query<version>: wrong arguments; the version is machine-global: use query<version>(kernel)");
        static_assert(!std::is_same_v<C, disallow_list_query>,
                      "etwctl::query<disallow_list_query>: wrong arguments; use query<disallow_list_query>(kernel, "
                      "session, std::span<guid> storage)");
        return result<detail::dependent_t<C, int>>(rule::query_class_not_supported);
    }
}

ETWCTL_END_NAMESPACE
