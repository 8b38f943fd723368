// SPDX-License-Identifier: MIT
// etwctl/profiler/guards.hpp - scope guards for the machine-global profiling state.
//
//   {
//       etwctl::interval_guard g(k, etwctl::profile_source::time, etwctl::profile_interval{1221});
//       if (g.error()) ...                 // nothing was changed
//       ... trace ...
//   }                                      // the interval captured before is back
//
// The sampled-profile interval is machine-global: a profiler that sets it and exits (or resets it to a
// default, as some tools do) changes every other profiler on the machine. These guards capture what
// was there, apply the new values, and put the captured values back on scope exit.
//
// What can honestly be captured:
//  - The interval of each source: yes. TraceSampledProfileIntervalInfo can be queried per source
//    (NtQueryIntervalProfile). A source the machine does not have reads back as 0 with success, so a
//    captured 0 for a hardware source means "absent": the guard refuses it (rule::profile_source_absent)
//    instead of later "restoring" an interval of 0.
//  - The profile-source configuration (TraceProfileSourceConfigInfo): no. The class is set-only; the
//    kernel cannot be asked which sources a session samples. profile_source_guard therefore restores
//    the configuration the caller states was there (`previous`; by default the timer alone, what a
//    session samples when nobody configured it). That is a promise by the caller, not a capture, and
//    the name of the parameter says so. The intervals of the configured sources ARE captured.
//
// Failure reporting (never thrown):
//  - applying: error() after construction; on failure nothing stays changed (partial changes are
//    rolled back) and the guard is inactive.
//  - restoring: restore() returns the error and keeps it (restore_error()); the destructor restores
//    too and hands a failure to the guard's reporter (report_to(ec) or a callback), since an error
//    kept inside a destroyed object would be lost. release() keeps the new values and disarms.
// No heap, noexcept, movable (the moved-from guard is inactive), not copyable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>
#include <utility>

#include "etwctl/config.hpp"
#include "etwctl/error.hpp"
#include "etwctl/classes/info_classes.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/ref.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/types.hpp"
#include "etwctl/typed/tags.hpp"

ETWCTL_BEGIN_NAMESPACE

/// Where a guard reports a restore that failed in its destructor: an error_code the caller owns
/// and/or a callback. Empty: the failure is only visible through restore_error() before destruction.
struct restore_reporter {
    using callback_type = void (*)(void* context, std::error_code const& error) noexcept;

    std::error_code* sink = nullptr;
    callback_type callback = nullptr;
    void* context = nullptr;

    void operator()(std::error_code const& ec) const noexcept {
        if (!ec) return;
        if (sink && !*sink) *sink = ec; // the first failure is the one worth keeping
        if (callback) callback(context, ec);
    }
};

/// Report a failed restore into `sink` (left untouched when restores succeed).
[[nodiscard]] inline restore_reporter report_to(std::error_code& sink) noexcept { return {&sink, nullptr, nullptr}; }
/// Report a failed restore to `callback(context, error)`.
[[nodiscard]] inline restore_reporter report_to(restore_reporter::callback_type callback, void* context = nullptr) noexcept {
    return {nullptr, callback, context};
}

namespace detail {
/// The kernel a guard restores on: a pointer to K, or, for kernel_ref, the reference itself (a value:
/// the guard is then one type for every kernel). Empty: nothing to restore.
template <class K>
class guard_kernel {
public:
    using param = K&; ///< what the guard's constructors take
    constexpr guard_kernel() noexcept = default;
    constexpr guard_kernel(std::nullptr_t) noexcept {}
    constexpr guard_kernel& operator=(std::nullptr_t) noexcept {
        p_ = nullptr;
        return *this;
    }
    void set(K& k) noexcept { p_ = &k; }
    constexpr explicit operator bool() const noexcept { return p_ != nullptr; }
    K& operator*() const noexcept { return *p_; }
    /// The kernel, leaving the guard empty.
    K& take() noexcept { return *std::exchange(p_, nullptr); }

private:
    K* p_ = nullptr;
};
template <>
class guard_kernel<kernel_ref> {
public:
    using param = kernel_ref;
    constexpr guard_kernel() noexcept = default;
    constexpr guard_kernel(std::nullptr_t) noexcept {}
    constexpr guard_kernel& operator=(std::nullptr_t) noexcept {
        r_ = kernel_ref{};
        return *this;
    }
    void set(kernel_ref k) noexcept { r_ = k; }
    constexpr explicit operator bool() const noexcept { return r_.valid(); }
    kernel_ref& operator*() noexcept { return r_; }
    kernel_ref take() noexcept { return std::exchange(r_, kernel_ref{}); }

private:
    kernel_ref r_{};
};

/// The interval of a source, refusing a hardware source that reads back as 0 (absent, GC-qint).
template <kernel K>
kernel_result<K, profile_interval> capture_interval(K& k, profile_source source) noexcept {
    auto r = query<sampled_profile_interval>(k, source);
    if (!r) return r.error();
    if (r->count() == 0 && source != profile_source::time) return rule::profile_source_absent;
    return *r;
}
} // namespace detail

/// Sets one source's sampled-profile interval for a scope and restores the captured value. K is the
/// kernel type; interval_guard (below) is the one for any kernel (basic_interval_guard<kernel_ref>),
/// easy to hold as a member or in a std::optional.
template <kernel K>
class basic_interval_guard {
    using kernel_param = typename detail::guard_kernel<K>::param;

public:
    basic_interval_guard() noexcept = default;

    /// Captures the source's interval, then sets `interval`. Check error(). [[nodiscard]]: a guard
    /// written as a temporary (`interval_guard(k, ...);`) would restore at once, so that is a warning.
    [[nodiscard]] basic_interval_guard(kernel_param k, profile_source source, profile_interval interval,
                                       restore_reporter reporter = {}) noexcept
        : source_(source), reporter_(reporter) {
        begin(k, interval);
    }
    /// The timer (ProfileTime).
    [[nodiscard]] basic_interval_guard(kernel_param k, profile_interval interval, restore_reporter reporter = {}) noexcept
        : basic_interval_guard(k, profile_source::time, interval, reporter) {}
    /// A hardware counter's interval (an event count), checked against the source's [min, max] from
    /// this machine's profile-source list before anything changes (set<sampled_profile_interval>'s
    /// counter form).
    [[nodiscard]] basic_interval_guard(kernel_param k, profile_source source, counter_interval interval,
                                       restore_reporter reporter = {}) noexcept
        : source_(source), reporter_(reporter) {
        begin(k, interval);
    }

    basic_interval_guard(basic_interval_guard const&) = delete;
    basic_interval_guard& operator=(basic_interval_guard const&) = delete;
    basic_interval_guard(basic_interval_guard&& o) noexcept
        : k_(std::exchange(o.k_, nullptr)), source_(o.source_), saved_(o.saved_), error_(o.error_),
          restore_error_(o.restore_error_), reporter_(o.reporter_) {}
    basic_interval_guard& operator=(basic_interval_guard&& o) noexcept {
        if (this != &o) {
            finish();
            k_ = std::exchange(o.k_, nullptr);
            source_ = o.source_;
            saved_ = o.saved_;
            error_ = o.error_;
            restore_error_ = o.restore_error_;
            reporter_ = o.reporter_;
        }
        return *this;
    }
    ~basic_interval_guard() { finish(); }

    /// Whether applying failed (then nothing was changed and nothing will be restored).
    [[nodiscard]] std::error_code error() const noexcept { return error_; }
    [[nodiscard]] explicit operator bool() const noexcept { return !error_; }
    /// Whether a restore is still pending.
    [[nodiscard]] bool active() const noexcept { return static_cast<bool>(k_); }
    [[nodiscard]] profile_source source() const noexcept { return source_; }
    /// The interval captured before the change (meaningful once applied).
    [[nodiscard]] profile_interval saved() const noexcept { return saved_; }

    /// Restores now: the captured value as it was, unchecked (the machine had it; another tool may have
    /// set it outside the documented bounds, and it is put back all the same). Returns (and keeps) the
    /// error; the guard is inactive afterwards either way, so a failure is reported once, not retried
    /// from the destructor.
    [[nodiscard]] std::error_code restore() noexcept {
        if (!k_) return restore_error_;
        auto&& k = k_.take();
        restore_error_ = detail::set_interval(k, static_cast<std::uint32_t>(source_), saved_.count()).code();
        return restore_error_;
    }
    [[nodiscard]] std::error_code restore_error() const noexcept { return restore_error_; }
    /// Keeps the new value: nothing is restored.
    void release() noexcept { k_ = nullptr; }

private:
    /// Captures the source's interval, then sets `interval` (a timer or counter interval); a single
    /// failed set changes nothing.
    template <class Interval>
    void begin(kernel_param k, Interval interval) noexcept {
        auto const saved = detail::capture_interval(k, source_);
        if (!saved) {
            error_ = saved.error();
            return;
        }
        error_ = set<sampled_profile_interval>(k, source_, interval);
        if (error_) return;
        k_.set(k);
        saved_ = *saved;
    }
    void finish() noexcept {
        if (k_) reporter_(restore());
    }

    detail::guard_kernel<K> k_{};
    profile_source source_ = profile_source::time;
    profile_interval saved_{};
    std::error_code error_ = no_error<K>();
    std::error_code restore_error_ = no_error<K>();
    restore_reporter reporter_{};
};

template <kernel K>
basic_interval_guard(K&, profile_source, profile_interval, restore_reporter = {}) -> basic_interval_guard<K>;
template <kernel K>
basic_interval_guard(K&, profile_interval, restore_reporter = {}) -> basic_interval_guard<K>;
template <kernel K>
basic_interval_guard(K&, profile_source, counter_interval, restore_reporter = {}) -> basic_interval_guard<K>;

/// The interval guard for any kernel: `interval_guard g(k, 8_kHz);`, a member `interval_guard g;`, a
/// `std::optional<interval_guard>`. Its calls go through kernel_ref (one indirect call each; a guard
/// makes two to four). basic_interval_guard<K> calls K directly.
using interval_guard = basic_interval_guard<kernel_ref>;

/// A source and, optionally, the interval it should have for the scope (0: leave the interval alone).
struct profile_source_setting {
    profile_source source = profile_source::time;
    profile_interval interval{};
};

/// The configuration a session has when nobody configured it: the timer alone.
inline constexpr profile_source default_profile_source_config[] = {profile_source::time};

/// Sets a session's profile sources (TraceProfileSourceConfigInfo, 1..4) and, optionally, their
/// intervals, for a scope. On exit the intervals go back to the captured values and the configuration
/// goes back to `previous` (stated by the caller: the kernel cannot report it; see the top of this file).
template <kernel K>
class basic_profile_source_guard {
    using kernel_param = typename detail::guard_kernel<K>::param;

public:
    static constexpr std::size_t capacity = limits::max_profile_sources;

    basic_profile_source_guard() noexcept = default;

    /// Order: validate, capture the intervals to be changed, set them, set the configuration. A failure
    /// at any step undoes the steps before it (intervals restored in reverse order). [[nodiscard]]: a
    /// temporary guard would restore at once.
    [[nodiscard]] basic_profile_source_guard(kernel_param k, session_handle session, std::span<profile_source_setting const> settings,
                         std::span<profile_source const> previous = detail::deferred<K>(default_profile_source_config),
                         restore_reporter reporter = {}) noexcept
        : session_(session), reporter_(reporter) {
        if (settings.empty() || settings.size() > capacity) {
            error_ = detail::failed(make_error_code<K>(settings.empty() ? rule::profile_config_empty : rule::profile_config_size));
            return;
        }
        if (previous.empty() || previous.size() > capacity) {
            error_ = detail::failed(make_error_code<K>(previous.empty() ? rule::profile_config_empty : rule::profile_config_size));
            return;
        }
        for (std::size_t i = 0; i < previous.size(); ++i) previous_[i] = previous[i];
        previous_count_ = previous.size();

        profile_source sources[capacity] = {};
        for (std::size_t i = 0; i < settings.size(); ++i) {
            sources[i] = settings[i].source;
            if (settings[i].interval.count() == 0) continue;
            auto const saved = detail::capture_interval(k, settings[i].source);
            if (!saved) {
                error_ = saved.error();
                roll_back(k);
                return;
            }
            if (auto const ec = set<sampled_profile_interval>(k, settings[i].source, settings[i].interval); ec) {
                error_ = ec;
                roll_back(k);
                return;
            }
            saved_[saved_count_++] = {settings[i].source, *saved};
        }
        if (auto const ec = set<profile_source_config>(k, session, std::span<profile_source const>(detail::deferred<K>(sources), settings.size())); ec) {
            error_ = ec;
            roll_back(k);
            return;
        }
        k_.set(k);
    }

    basic_profile_source_guard(basic_profile_source_guard const&) = delete;
    basic_profile_source_guard& operator=(basic_profile_source_guard const&) = delete;
    basic_profile_source_guard(basic_profile_source_guard&& o) noexcept { take(o); }
    basic_profile_source_guard& operator=(basic_profile_source_guard&& o) noexcept {
        if (this != &o) {
            finish();
            take(o);
        }
        return *this;
    }
    ~basic_profile_source_guard() { finish(); }

    [[nodiscard]] std::error_code error() const noexcept { return error_; }
    [[nodiscard]] explicit operator bool() const noexcept { return !error_; }
    [[nodiscard]] bool active() const noexcept { return static_cast<bool>(k_); }
    /// The intervals captured before the change (only sources whose interval was changed).
    [[nodiscard]] std::span<profile_source_setting const> saved_intervals() const noexcept {
        return std::span<profile_source_setting const>(detail::deferred<K>(saved_), saved_count_);
    }

    /// Restores the configuration to `previous`, then the intervals; tries every step even after a
    /// failure and returns (and keeps) the first error.
    [[nodiscard]] std::error_code restore() noexcept {
        if (!k_) return restore_error_;
        auto&& k = k_.take();
        std::error_code first = set<profile_source_config>(k, session_, std::span<profile_source const>(detail::deferred<K>(previous_), previous_count_));
        if (auto const ec = undo_intervals(k); ec && !first) first = ec;
        restore_error_ = first;
        return restore_error_;
    }
    [[nodiscard]] std::error_code restore_error() const noexcept { return restore_error_; }
    void release() noexcept { k_ = nullptr; }

private:
    template <class Kernel>
    std::error_code undo_intervals(Kernel& k) noexcept {
        std::error_code first = no_error<Kernel>();
        while (saved_count_ != 0) {
            auto const& s = saved_[--saved_count_];
            // the captured value as it was, unchecked (see interval_guard::restore)
            if (auto const ec = detail::set_interval(k, static_cast<std::uint32_t>(s.source), s.interval.count()).code();
                ec && !first)
                first = ec;
        }
        return first;
    }
    /// Undoes a half-applied constructor; a failed undo is reported like a failed restore.
    template <class Kernel>
    void roll_back(Kernel& k) noexcept {
        restore_error_ = undo_intervals(k);
        reporter_(restore_error_);
    }
    void finish() noexcept {
        if (k_) reporter_(restore());
    }
    void take(basic_profile_source_guard& o) noexcept {
        k_ = std::exchange(o.k_, nullptr);
        session_ = o.session_;
        for (std::size_t i = 0; i < capacity; ++i) {
            previous_[i] = o.previous_[i];
            saved_[i] = o.saved_[i];
        }
        previous_count_ = o.previous_count_;
        saved_count_ = std::exchange(o.saved_count_, 0);
        error_ = o.error_;
        restore_error_ = o.restore_error_;
        reporter_ = o.reporter_;
    }

    detail::guard_kernel<K> k_{};
    session_handle session_{};
    profile_source previous_[capacity] = {};
    std::size_t previous_count_ = 0;
    profile_source_setting saved_[capacity] = {};
    std::size_t saved_count_ = 0;
    std::error_code error_ = no_error<K>();
    std::error_code restore_error_ = no_error<K>();
    restore_reporter reporter_{};
};

template <kernel K>
basic_profile_source_guard(K&, session_handle, std::span<profile_source_setting const>, std::span<profile_source const> = {},
                           restore_reporter = {}) -> basic_profile_source_guard<K>;

/// The profile-source guard for any kernel (basic_profile_source_guard<kernel_ref>), as interval_guard.
using profile_source_guard = basic_profile_source_guard<kernel_ref>;

ETWCTL_END_NAMESPACE
