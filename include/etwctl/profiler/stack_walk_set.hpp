// SPDX-License-Identifier: MIT
// etwctl/profiler/stack_walk_set.hpp - the stack-walk list a session should have, kept by the caller.
//
// The kernel replaces a session's whole stack-tracing list on every TraceStackTracingInfo call and
// cannot be asked for it (the class is set-only). So whoever wants stacks must keep the list, and two
// parties (a library and the application, say) that both want stacks must send the union of their
// wishes, or the second call silently undoes the first. stack_walk_set is that list:
//
//   etwctl::stack_walk_set<> s;                       // capacity 256: what the kernel accepts
//   if (auto r = s.add(hook_id{0x0524}); r != rule::ok) ...    // rule::stack_walk_overflow when full
//   s.merge(library_wants);                           // union; all or nothing
//   s.remove(hook_id{0x0532});
//   std::error_code ec = s.apply(kernel, session);   // one set<stack_tracing> call
//
// Design choices (why):
//  - Fixed capacity, in the object: no heap in the control path; at most 256 because that is the
//    kernel's limit, so a full set always fits one request.
//  - Kept sorted: membership is a binary search, dedup is free, a union is a linear merge, and two
//    sets with the same members send byte-identical requests (the order of hook ids means nothing to
//    the kernel, but a stable order makes request logs comparable).
//  - Every growing operation is all-or-nothing: a merge or a range add that would overflow changes
//    nothing and returns rule::stack_walk_overflow. Nothing is ever dropped silently.
//  - Alias-safe: every member that takes another set or a span may be given this set itself or a
//    part of it (s.merge(s) and s.add(s.span()) change nothing, s.remove(s) empties s, unite(a, a) == a).
//    Growing operations build the result in a copy and commit it at the end; removal first marks the
//    members to drop (reading the input only), then compacts. Cost: O(m log n + n) for removing m ids,
//    O(m * n) for adding m (n <= Capacity <= 256), never quadratic in m.
//  - constexpr throughout, so a configuration can be built (and checked) at compile time from
//    hook_list<N> values; growing operations return etwctl::rule (a constexpr enum that converts to
//    std::error_code) rather than std::error_code, which cannot be made in a constant expression.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

// ---- the group-mask check of a stack-walk list (what setup_pmc does for PMC events) ------------------

namespace detail {
template <class D = void>
ETWCTL_COLD std::error_code stack_walk_group_off(event_not_enabled const& off) noexcept {
    std::string_view const flag = perf_flag_name<D>(off.flag);
    return fail(rule::stack_walk_group_not_enabled,
                "stack-walk event {hex} is never recorded: the session's group mask does not enable {name}, the flag "
                "it needs (set it with set<system_trace_enable_flags>, xperf: -on ...+its group)",
                flag.empty() ? std::string_view("its group's flag") : flag, off.event.value);
}
} // namespace detail

/// Checks a stack-walk list against a session's group mask the caller has (no kernel call): an event
/// whose group the mask does not enable is accepted by the kernel and never recorded. Such an event
/// gives rule::stack_walk_group_not_enabled (describe names the first one and the flag it needs).
/// (A template only so that a TU that never calls it instantiates no error category.)
template <class T = void>
[[nodiscard]] std::error_code check_event_groups(group_mask const& session_flags, std::span<hook_id const> events) noexcept {
    if (auto const off = first_event_not_enabled<T>(session_flags, events)) [[unlikely]]
        return detail::stack_walk_group_off<T>(*off);
    return no_error<T>();
}
/// The same, on request, with the session's mask read from the kernel (one query<system_trace_enable_flags>;
/// its error if that fails, e.g. a session that is not a system logger).
template <kernel K>
[[nodiscard]] std::error_code check_event_groups(K& k, session_handle session, std::span<hook_id const> events) noexcept {
    auto const mask = query<system_trace_enable_flags>(k, session);
    if (!mask) return mask.error();
    return check_event_groups(*mask, events);
}

template <std::size_t Capacity = limits::max_stack_tracing_events>
class stack_walk_set {
    static_assert(Capacity >= 1, "etwctl::stack_walk_set: capacity must be at least 1");
    static_assert(Capacity <= limits::max_stack_tracing_events,
                  "etwctl::stack_walk_set: capacity above 256; the kernel accepts at most 256 stack-traced events");

public:
    using value_type = hook_id;
    using const_iterator = hook_id const*;

    constexpr stack_walk_set() noexcept = default;

    /// From a compile-time list (stack_walk<"..."> yields one). Duplicates collapse.
    template <std::size_t N>
    constexpr explicit stack_walk_set(hook_list<N> const& hooks) noexcept {
        static_assert(N <= Capacity, "etwctl::stack_walk_set: the hook_list has more ids than the set can hold");
        for (hook_id h : hooks) static_cast<void>(insert_one(h)); // cannot overflow: N <= Capacity
    }

    static constexpr std::size_t capacity() noexcept { return Capacity; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr bool full() const noexcept { return size_ == Capacity; }
    constexpr const_iterator begin() const noexcept { return ids_; }
    constexpr const_iterator end() const noexcept { return ids_ + size_; }
    constexpr hook_id const* data() const noexcept { return ids_; }
    constexpr hook_id operator[](std::size_t i) const noexcept { return ids_[i]; }
    /// The members, sorted ascending.
    constexpr std::span<hook_id const> span() const noexcept { return {ids_, size_}; }

    constexpr bool contains(hook_id h) const noexcept {
        std::size_t const i = lower_bound(h);
        return i < size_ && ids_[i] == h;
    }

    /// Adds one hook id. Adding a member again is not an error (it is a set).
    [[nodiscard]] constexpr rule add(hook_id h) noexcept { return insert_one(h); }

    /// Adds every id of a range, or none of them if the union would not fit.
    [[nodiscard]] constexpr rule add(std::span<hook_id const> hooks) noexcept {
        // Into a copy: hooks may point into this set (add(span())), and all-or-nothing needs the
        // original intact until every id fitted.
        stack_walk_set next = *this;
        for (hook_id h : hooks)
            if (next.insert_one(h) != rule::ok) return rule::stack_walk_overflow;
        *this = next;
        return rule::ok;
    }
    template <std::size_t N>
    [[nodiscard]] constexpr rule add(hook_list<N> const& hooks) noexcept {
        return add(std::span<hook_id const>(hooks.data(), N));
    }

    /// The union with another set (a library's wishes and the application's). All or nothing.
    template <std::size_t C>
    [[nodiscard]] constexpr rule merge(stack_walk_set<C> const& other) noexcept {
        return add(other.span());
    }

    /// Removes one id; returns whether it was a member.
    constexpr bool remove(hook_id h) noexcept {
        std::size_t const i = lower_bound(h);
        if (i == size_ || !(ids_[i] == h)) return false;
        for (std::size_t j = i + 1; j < size_; ++j) ids_[j - 1] = ids_[j];
        --size_;
        return true;
    }
    /// Removes every id of a range (set difference); returns how many were members.
    /// hooks may point into this set (remove(span()) empties it).
    constexpr std::size_t remove(std::span<hook_id const> hooks) noexcept {
        bool drop[Capacity] = {};
        for (hook_id h : hooks) { // read-only pass: this set is not changed while hooks is read
            std::size_t const i = lower_bound(h);
            if (i < size_ && ids_[i] == h) drop[i] = true;
        }
        std::size_t kept = 0;
        for (std::size_t i = 0; i < size_; ++i)
            if (!drop[i]) ids_[kept++] = ids_[i];
        std::size_t const removed = size_ - kept;
        size_ = kept;
        return removed;
    }
    template <std::size_t C>
    constexpr std::size_t remove(stack_walk_set<C> const& other) noexcept {
        return remove(other.span());
    }

    constexpr void clear() noexcept { size_ = 0; }

    /// Sends the whole set as the session's stack-tracing list (set<stack_tracing>): the kernel's list
    /// becomes exactly these members. An empty set turns stack tracing off for the session.
    template <kernel K>
    [[nodiscard]] std::error_code apply(K& k, session_handle session) const noexcept {
        return set<stack_tracing>(k, session, span());
    }
    /// The same, after checking the members against the session's group mask the caller has
    /// (check_event_groups): a member the mask does not enable is refused and nothing is sent.
    template <kernel K>
    [[nodiscard]] std::error_code apply(K& k, session_handle session, group_mask const& session_flags) const noexcept {
        if (auto const ec = check_event_groups(session_flags, span())) return ec;
        return apply(k, session);
    }

    template <std::size_t C>
    friend constexpr bool operator==(stack_walk_set const& a, stack_walk_set<C> const& b) noexcept {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!(a[i] == b[i])) return false;
        return true;
    }

private:
    constexpr std::size_t lower_bound(hook_id h) const noexcept {
        std::size_t lo = 0, hi = size_;
        while (lo < hi) {
            std::size_t const mid = lo + (hi - lo) / 2;
            if (ids_[mid] < h) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
    constexpr rule insert_one(hook_id h) noexcept {
        std::size_t const i = lower_bound(h);
        if (i < size_ && ids_[i] == h) return rule::ok;
        if (size_ == Capacity) return rule::stack_walk_overflow;
        for (std::size_t j = size_; j > i; --j) ids_[j] = ids_[j - 1];
        ids_[i] = h;
        ++size_;
        return rule::ok;
    }

    hook_id ids_[Capacity] = {};
    std::size_t size_ = 0;
};

template <std::size_t N>
stack_walk_set(hook_list<N> const&) -> stack_walk_set<limits::max_stack_tracing_events>;

/// The union of two configurations as a new set, or rule::stack_walk_overflow in `error`.
template <std::size_t A, std::size_t B>
constexpr stack_walk_set<(A > B ? A : B)> unite(stack_walk_set<A> const& a, stack_walk_set<B> const& b,
                                               rule* error = nullptr) noexcept {
    stack_walk_set<(A > B ? A : B)> out;
    rule r = out.merge(a);
    if (r == rule::ok) r = out.merge(b);
    if (error) *error = r;
    if (r != rule::ok) out.clear();
    return out;
}

ETWCTL_END_NAMESPACE
