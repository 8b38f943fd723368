// SPDX-License-Identifier: MIT
// etwctl/profiler/custom_counters.hpp - custom hardware counters: profile sources of your own design.
//
//   constexpr etwctl::intel_counter l2_miss{.event_select = 0x24, .unit_mask = 0x3F};
//   auto id = etwctl::add_profile_source(k, l2_miss, "MyApp_L2Misses", 65536_events); // a counter_interval
//   if (id) { ... setup_pmc(k, session, {pmc_counter::named("MyApp_L2Misses")}, events) ... }
//   etwctl::remove_profile_source(k, *id);
// or, scoped:
//   etwctl::custom_counter_guard g(k, l2_miss, "MyApp_L2Misses", etwctl::counter_interval{65536});
//   if (g) use(g.source_id());            // removed again when g goes out of scope
//
// Since Windows 10 1803 the kernel lets a caller describe a counter by its raw event-select encoding
// and adds it to the machine's profile-source list under a description of the caller's choosing
// (kernel class EventTraceProfileSourceAddInformation, 0x15; removal 0x16; phnt ntexapi.h). The kernel
// assigns the new source's id; the only way to learn it is to find the description in the
// profile-source list (TraceProfileSourceListInfo), which is what game-engine profilers do by hand
// today. add_profile_source does the three steps (check the description is free, add, look it up) and
// returns the id; the request layout is in request/custom_counters.hpp.
//
// The counter forms follow the hardware's event-select registers:
//  - intel_counter: IA32_PERFEVTSELx fields (Intel SDM Vol. 3B, "Architectural Performance Monitoring"):
//    EventSelect, UMask, CMask, INV, AnyThread, Edge.
//  - amd_counter: PerfEvtSeln fields (AMD64 APM Vol. 2, "Performance Monitoring Counters"): a 12-bit
//    EventSelect, UnitMask, CntMask, Inv, Edge, HostGuest (2 bits: host-only / guest-only), and the
//    PMU type phnt names PerfPmuType.
//  - arm_counter: the PMU event number (PMEVTYPER evtCount) and whether counting continues while halted.
// The request's Version is chosen from the fields used: 3 only for an AMD counter that needs V3's wider
// layout (EventSelect above 0xFF, or CMask / Inv / Edge / HostGuest / PmuType); everything else is 2,
// the version the kernel has accepted since 1803 (phnt EVENT_TRACE_PROFILE_ADD_INFORMATION_V2 / _V3).
//
// Everything here is a choice where the kernel's checks are not public (docs/choices.md): descriptions
// are 1..126 ASCII characters (the request holds 127 WCHARs), compared ASCII case-insensitively as every
// lookup of a source by name compares them; a description already in the list (in any case) is refused
// before the call (the id lookup would be ambiguous). No heap: the list is read into a 4 KiB stack
// buffer unless storage is given; a list that would not fit once the source is added is refused before
// the call with rule::source_list_buffer_too_small, whose describe() says how many bytes suffice.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/profiler/guards.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/request/custom_counters.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/types.hpp"

ETWCTL_BEGIN_NAMESPACE

/// An Intel counter: the IA32_PERFEVTSELx fields the kernel programs.
struct intel_counter {
    std::uint8_t event_select = 0;
    std::uint8_t unit_mask = 0;
    std::uint8_t cmask = 0;
    bool inv = false;
    bool any_thread = false;
    bool edge = false;
};

/// An AMD counter: the PerfEvtSeln fields. event_select is 12 bits (EventSelect[11:8] live in bits 35:32
/// of the register); host_guest is 2 bits.
struct amd_counter {
    std::uint16_t event_select = 0;
    std::uint8_t unit_mask = 0;
    std::uint8_t cmask = 0;
    bool inv = false;
    bool edge = false;
    std::uint8_t host_guest = 0;
    std::uint8_t pmu_type = 0;
};

/// An ARM counter: the PMU event number and AllowsHalt.
struct arm_counter {
    std::uint32_t event_type = 0;
    bool allows_halt = false;
};

enum class counter_vendor : std::uint8_t { intel, amd, arm };

/// One of the three forms, with the request's Version and union bytes derived from it (constexpr).
class custom_counter {
public:
    constexpr custom_counter(intel_counter c) noexcept : vendor_(counter_vendor::intel), intel_(c) {} // NOLINT: implicit by design
    constexpr custom_counter(amd_counter c) noexcept : vendor_(counter_vendor::amd), amd_(c) {}       // NOLINT
    constexpr custom_counter(arm_counter c) noexcept : vendor_(counter_vendor::arm), arm_(c) {}       // NOLINT

    constexpr counter_vendor vendor() const noexcept { return vendor_; }
    constexpr intel_counter intel() const noexcept { return intel_; }
    constexpr amd_counter amd() const noexcept { return amd_; }
    constexpr arm_counter arm() const noexcept { return arm_; }

    /// rule::ok, or rule::custom_counter_field_range for a field wider than the register's.
    constexpr rule check() const noexcept {
        if (vendor_ == counter_vendor::amd && (amd_.event_select > 0xFFF || amd_.host_guest > 3))
            return rule::custom_counter_field_range;
        return rule::ok;
    }

    /// 3 for an AMD counter that needs the V3 layout, else 2.
    constexpr std::uint8_t version() const noexcept {
        if (vendor_ != counter_vendor::amd) return profile_add_version_2;
        bool const v2_fits = amd_.event_select <= 0xFF && amd_.cmask == 0 && !amd_.inv && !amd_.edge &&
                             amd_.host_guest == 0 && amd_.pmu_type == 0;
        return v2_fits ? profile_add_version_2 : profile_add_version_3;
    }

    /// The 8 bytes of the V2 / V3 union at offset 8 of the request (unused bytes zero).
    constexpr std::array<std::uint8_t, 8> union_bytes() const noexcept {
        std::array<std::uint8_t, 8> b{};
        switch (vendor_) {
        case counter_vendor::intel: // V2 = V3: six UCHARs
            b[0] = intel_.event_select;
            b[1] = intel_.unit_mask;
            b[2] = intel_.cmask;
            b[3] = intel_.inv ? 1 : 0;
            b[4] = intel_.any_thread ? 1 : 0;
            b[5] = intel_.edge ? 1 : 0;
            break;
        case counter_vendor::amd:
            if (version() == profile_add_version_2) { // {UCHAR EventSelect; UCHAR UnitSelect}
                b[0] = static_cast<std::uint8_t>(amd_.event_select);
                b[1] = amd_.unit_mask;
            } else { // {USHORT EventSelect; UCHAR UnitSelect, CMask, CInv, EdgeDetect, HostGuest, PmuType}
                b[0] = static_cast<std::uint8_t>(amd_.event_select & 0xFFU);
                b[1] = static_cast<std::uint8_t>(amd_.event_select >> 8);
                b[2] = amd_.unit_mask;
                b[3] = amd_.cmask;
                b[4] = amd_.inv ? 1 : 0;
                b[5] = amd_.edge ? 1 : 0;
                b[6] = amd_.host_guest;
                b[7] = amd_.pmu_type;
            }
            break;
        case counter_vendor::arm: // {ULONG PerfEvtType; UCHAR AllowsHalt} (little-endian)
            for (int i = 0; i < 4; ++i) b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(arm_.event_type >> (8 * i));
            b[4] = arm_.allows_halt ? 1 : 0;
            break;
        }
        return b;
    }

private:
    counter_vendor vendor_;
    intel_counter intel_{};
    amd_counter amd_{};
    arm_counter arm_{};
};

/// rule::ok, or rule::custom_counter_description: 1..126 ASCII characters, none of them NUL.
constexpr rule check_counter_description(std::string_view d) noexcept {
    if (d.empty() || d.size() > profile_add_description_max) return rule::custom_counter_description;
    for (char const c : d)
        if (c == '\0' || static_cast<unsigned char>(c) >= 0x80) return rule::custom_counter_description;
    return rule::ok;
}

/// What else the add request carries.
struct custom_counter_options {
    /// Persist (phnt): keep the source past the adding process. etwctl leaves it off by default.
    bool persist = false;
    /// CpuInfoHierarchy (phnt): which processors; every processor by default.
    std::array<std::uint32_t, 3> cpu_info_hierarchy{profile_add_all_processors, profile_add_all_processors,
                                                    profile_add_all_processors};
    /// Where to read the profile-source list; empty: a 4 KiB buffer on the stack.
    std::span<std::byte> source_list_storage{};
};

/// The add request for a checked counter and description (constexpr: tests compare it byte for byte).
constexpr kernel_profile_add_request encode_profile_add(custom_counter const& c, std::string_view description,
                                                        counter_interval initial_interval,
                                                        custom_counter_options const& options = {}) noexcept {
    kernel_profile_add_request r{};
    r.version = c.version();
    auto const u = c.union_bytes();
    for (std::size_t i = 0; i < u.size(); ++i) r.counter[i] = u[i];
    for (std::size_t i = 0; i < 3; ++i) r.cpu_info_hierarchy[i] = options.cpu_info_hierarchy[i];
    r.initial_interval = initial_interval.count();
    r.persist = options.persist ? 1 : 0;
    for (std::size_t i = 0; i < description.size() && i < profile_add_description_max; ++i)
        r.description[i] = static_cast<char16_t>(static_cast<unsigned char>(description[i]));
    return r;
}

/// The same with the interval as a profile_interval (its count() is the event count).
constexpr kernel_profile_add_request encode_profile_add(custom_counter const& c, std::string_view description,
                                                        profile_interval initial_interval,
                                                        custom_counter_options const& options = {}) noexcept {
    return encode_profile_add(c, description, counter_interval{initial_interval.count()}, options);
}

constexpr kernel_profile_remove_request encode_profile_remove(std::uint32_t source_id,
                                                              custom_counter_options const& options = {}) noexcept {
    kernel_profile_remove_request r{};
    r.profile_source = source_id;
    for (std::size_t i = 0; i < 3; ++i) r.cpu_info_hierarchy[i] = options.cpu_info_hierarchy[i];
    return r;
}

namespace detail {

/// The id of the source described as d (found as every lookup finds names: find_named), if any.
inline bool find_described(profile_source_list_view const& list, std::string_view d, std::uint32_t& id) noexcept {
    profile_source_entry e;
    if (!find_named(list, d, e)) return false;
    id = e.source_id();
    return true;
}

} // namespace detail

/// Adds a custom counter as a profile source and returns the id the kernel gave it (found in the
/// profile-source list by its description). Errors: the counter's or description's rule, the list
/// query's error, rule::custom_counter_description_taken, the kernel's status (ntstatus_category:
/// STATUS_PRIVILEGE_NOT_HELD without SeSystemProfilePrivilege; STATUS_NOT_IMPLEMENTED on Windows before
/// 1803, which maps to ERROR_INVALID_FUNCTION), or rule::custom_counter_not_listed.
template <kernel K>
[[nodiscard]] result<std::uint32_t> add_profile_source(K& k, custom_counter const& counter, std::string_view description,
                                                       counter_interval initial_interval,
                                                       custom_counter_options const& options = {}) noexcept {
    if (rule const r = counter.check(); r != rule::ok) return r;
    if (rule const r = check_counter_description(description); r != rule::ok) return r;

    profile_source_list_buffer<> local;
    std::span<std::byte> const storage =
        options.source_list_storage.empty() ? detail::deferred<K>(local).span() : options.source_list_storage;
    std::uint32_t id = 0;
    {
        std::uint32_t listed = 0;
        auto const before = query<profile_source_list>(k, storage, &listed);
        if (!before) return before.error();
        if (detail::find_described(*before, description, id)) return rule::custom_counter_description_taken;
        // The list is read again to find the new source's id: refuse before the add if it would then
        // not fit (the kernel would keep a source whose id nobody learns).
        std::size_t const needed = kernel_profile_list_records_offset + listed + profile_source_record_size(description.size());
        if (needed > storage.size())
            return detail::fail(make_error_code(rule::source_list_buffer_too_small),
                        "add_profile_source: the profile-source list takes {value} bytes once the source is added, the "
                        "storage holds {high}; nothing was sent: pass custom_counter_options::source_list_storage of "
                        "{value} bytes or more",
                        "add_profile_source", needed, 0, storage.size());
    }

    kernel_profile_add_request const request = encode_profile_add(counter, description, initial_interval, options);
    std::int32_t const status =
        k.nt_set_system_information(system_performance_trace_information, &request, sizeof request);
    if (status < 0) return ntstatus_error_code(status);

    auto const after = query<profile_source_list>(k, storage);
    if (!after) return after.error();
    if (!detail::find_described(*after, description, id)) return rule::custom_counter_not_listed;
    return id;
}

/// The same with the interval as a profile_interval (what earlier releases took; its count() is the
/// event count). A counter's interval is a counter_interval: 65536_events.
template <kernel K>
[[nodiscard]] result<std::uint32_t> add_profile_source(K& k, custom_counter const& counter, std::string_view description,
                                                       profile_interval initial_interval,
                                                       custom_counter_options const& options = {}) noexcept {
    return add_profile_source(k, counter, description, counter_interval{initial_interval.count()}, options);
}

/// Removes a profile source (one added by add_profile_source). The kernel's status, as an error_code.
template <kernel K>
std::error_code remove_profile_source(K& k, std::uint32_t source_id, custom_counter_options const& options = {}) noexcept {
    kernel_profile_remove_request const request = encode_profile_remove(source_id, options);
    return ntstatus_error_code(k.nt_set_system_information(system_performance_trace_information, &request, sizeof request));
}

/// Removes every source whose description starts with prefix (what a profiler does before re-adding
/// its counters after a crash left them behind). Returns how many were removed; stops at the first
/// failure. prefix must be 1..126 ASCII characters.
template <kernel K>
[[nodiscard]] result<std::size_t> remove_profile_sources_with_prefix(K& k, std::string_view prefix,
                                                                     custom_counter_options const& options = {}) noexcept {
    if (rule const r = check_counter_description(prefix); r != rule::ok) return r;
    profile_source_list_buffer<> local;
    std::span<std::byte> const storage =
        options.source_list_storage.empty() ? detail::deferred<K>(local).span() : options.source_list_storage;
    auto const list = query<profile_source_list>(k, storage);
    if (!list) return list.error();
    // Collect first: removing changes the list the view reads.
    std::uint32_t ids[64] = {};
    std::size_t n = 0;
    for (auto e : *list) {
        if (e.description_size() < prefix.size()) continue;
        bool match = true;
        for (std::size_t i = 0; i < prefix.size() && match; ++i)
            match = e.description_at(i) == static_cast<char16_t>(static_cast<unsigned char>(prefix[i]));
        if (match && n < std::size(ids)) ids[n++] = e.source_id();
    }
    for (std::size_t i = 0; i < n; ++i)
        if (auto const ec = remove_profile_source(k, ids[i], options); ec) return ec;
    return n;
}

/// Adds a custom counter for a scope and removes it again. [[nodiscard]] construction: a discarded
/// guard would remove the source at once. error() tells whether adding failed (then nothing is
/// removed); a failed removal in the destructor goes to the reporter (profiler/guards.hpp).
/// custom_counter_guard (below) is the one for any kernel (basic_custom_counter_guard<kernel_ref>).
template <kernel K>
class basic_custom_counter_guard {
    using kernel_param = typename detail::guard_kernel<K>::param;

public:
    basic_custom_counter_guard() noexcept = default;

    [[nodiscard]] basic_custom_counter_guard(kernel_param k, custom_counter const& counter, std::string_view description,
                                             profile_interval initial_interval, restore_reporter reporter = {},
                                             custom_counter_options const& options = {}) noexcept
        : basic_custom_counter_guard(k, counter, description, counter_interval{initial_interval.count()}, reporter,
                                     options) {}
    [[nodiscard]] basic_custom_counter_guard(kernel_param k, custom_counter const& counter, std::string_view description,
                                             counter_interval initial_interval, restore_reporter reporter = {},
                                             custom_counter_options const& options = {}) noexcept
        : reporter_(reporter), options_(options) {
        options_.source_list_storage = {}; // the caller's storage need not outlive the guard
        auto const id = add_profile_source(k, counter, description, initial_interval, options);
        if (!id) {
            error_ = id.error();
            return;
        }
        k_.set(k);
        id_ = *id;
    }

    basic_custom_counter_guard(basic_custom_counter_guard const&) = delete;
    basic_custom_counter_guard& operator=(basic_custom_counter_guard const&) = delete;
    basic_custom_counter_guard(basic_custom_counter_guard&& o) noexcept
        : k_(std::exchange(o.k_, nullptr)), id_(o.id_), error_(o.error_), restore_error_(o.restore_error_),
          reporter_(o.reporter_), options_(o.options_) {}
    basic_custom_counter_guard& operator=(basic_custom_counter_guard&& o) noexcept {
        if (this != &o) {
            finish();
            k_ = std::exchange(o.k_, nullptr);
            id_ = o.id_;
            error_ = o.error_;
            restore_error_ = o.restore_error_;
            reporter_ = o.reporter_;
            options_ = o.options_;
        }
        return *this;
    }
    ~basic_custom_counter_guard() { finish(); }

    std::error_code error() const noexcept { return error_; }
    explicit operator bool() const noexcept { return !error_; }
    bool active() const noexcept { return static_cast<bool>(k_); }
    /// The id the kernel gave the source (meaningful once added).
    std::uint32_t source_id() const noexcept { return id_; }

    /// Removes now; returns (and keeps) the error. Inactive afterwards either way.
    std::error_code restore() noexcept {
        if (!k_) return restore_error_;
        auto&& k = k_.take();
        restore_error_ = remove_profile_source(k, id_, options_);
        return restore_error_;
    }
    std::error_code restore_error() const noexcept { return restore_error_; }
    /// Keeps the source: nothing is removed.
    void release() noexcept { k_ = nullptr; }

private:
    void finish() noexcept {
        if (k_) reporter_(restore());
    }

    detail::guard_kernel<K> k_{};
    std::uint32_t id_ = 0;
    std::error_code error_ = no_error<K>();
    std::error_code restore_error_ = no_error<K>();
    restore_reporter reporter_{};
    custom_counter_options options_{};
};

template <kernel K>
basic_custom_counter_guard(K&, custom_counter const&, std::string_view, profile_interval, restore_reporter = {},
                           custom_counter_options const& = {}) -> basic_custom_counter_guard<K>;
template <kernel K>
basic_custom_counter_guard(K&, custom_counter const&, std::string_view, counter_interval, restore_reporter = {},
                           custom_counter_options const& = {}) -> basic_custom_counter_guard<K>;

/// The custom-counter guard for any kernel (basic_custom_counter_guard<kernel_ref>), as interval_guard.
using custom_counter_guard = basic_custom_counter_guard<kernel_ref>;

ETWCTL_END_NAMESPACE
