// SPDX-License-Identifier: MIT
// etwctl/error.hpp - std::error_code support for the four sources of errors, kept apart:
//   win32_category()    Win32 error codes (values as winerror.h)
//   ntstatus_category() NTSTATUS from the kernel (the value is the 32-bit status)
//   hresult_category()  HRESULTs (TraceLoggingSetInformation)
//   rule_category()     a broken etwctl::rule: names the rule; equivalent to its Win32 error condition
//   session_loss_category()  what a session lost (session_loss), all equal to session_condition::events_lost
// Every category maps its codes to the Win32 condition (ntstatus through RtlNtStatusToDosError), so
//   ec == etwctl::win32_condition(87)
// holds for a broken rule, a kernel STATUS_INVALID_PARAMETER and a raw ERROR_INVALID_PARAMETER alike,
// while ec.category() still says which domain the code came from. to_win32(ec) gives the number.
// Also: result<T>, a value or an error_code, usable without exceptions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include <gsl/assert>

#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/status_codes.hpp"

ETWCTL_BEGIN_NAMESPACE

namespace detail {
/// The text of an unsigned number, in a small buffer (decimal, or 0x + 8 upper-case hex digits).
struct number_text {
    char chars[10];
    std::size_t size = 0;
    constexpr std::string_view view() const noexcept { return {chars, size}; }
};
constexpr number_text decimal(std::uint32_t v) noexcept {
    char digits[10];
    std::size_t n = 0;
    do {
        digits[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    number_text t;
    while (n > 0) t.chars[t.size++] = digits[--n];
    return t;
}
constexpr number_text hex32(std::uint32_t v) noexcept {
    number_text t;
    t.chars[0] = '0';
    t.chars[1] = 'x';
    format_hex(v, 8, t.chars + 2, true);
    t.size = 10;
    return t;
}

/// One std::string from its parts: each category's message() is a list of parts and one call here, so
/// the string code exists once, not once per concatenation.
template <std::size_t N>
std::string compose(std::string_view const (&parts)[N]) {
    std::size_t size = 0;
    for (auto const p : parts) size += p.size();
    std::string out(size, '\0');
    std::size_t at = 0;
    for (auto const p : parts) {
        if (!p.empty()) std::memcpy(out.data() + at, p.data(), p.size());
        at += p.size();
    }
    return out;
}

// The categories. Each is a class template (instantiated with void) held by a template: nothing of a
// category -- its object, vtable, message() -- is instantiated or emitted in a translation unit that
// does not use it. (As plain classes with `inline constinit` objects, every TU that included this
// header emitted all four vtables, their message() code and the objects' exit-time destructor
// registrations: ~20 KB of code and ~0.4 s of g++ time per TU, used or not.)
/// The domains whose codes have a fixed text (one writer for message() and describe()).
enum class code_domain : std::uint8_t { win32, ntstatus, hresult };

/// The text of a code of one of those domains ("Win32 error 87 (ERROR_INVALID_PARAMETER)",
/// "NTSTATUS 0xC0000003 (STATUS_INVALID_INFO_CLASS)", "HRESULT 0x80070057 (HRESULT_FROM_WIN32(...))"):
/// written into out at `at` like detail::put (no allocation); returns the new length. The categories'
/// message() and describe()'s fallback both use it, so the two texts cannot drift apart.
inline std::size_t put_code_text(std::span<char> const& out, std::size_t at, code_domain domain, int value) noexcept {
    switch (domain) {
    case code_domain::win32: {
        auto const e = static_cast<std::uint32_t>(value);
        at = put(out, at, "Win32 error ");
        at = put(out, at, decimal(e).view());
        if (char const* const n = win32::name(e)) {
            at = put(out, at, " (");
            at = put(out, at, n);
            at = put(out, at, ")");
        }
        return at;
    }
    case code_domain::ntstatus:
        at = put(out, at, "NTSTATUS ");
        at = put(out, at, hex32(static_cast<std::uint32_t>(value)).view());
        if (char const* const n = ntstatus::name(value)) {
            at = put(out, at, " (");
            at = put(out, at, n);
            at = put(out, at, ")");
        }
        return at;
    case code_domain::hresult: {
        at = put(out, at, "HRESULT ");
        at = put(out, at, hex32(static_cast<std::uint32_t>(value)).view());
        auto const w = hresult::win32_of(value);
        if (w == 0) return at;
        at = put(out, at, " (HRESULT_FROM_WIN32(");
        char const* const n = win32::name(w);
        at = put(out, at, n ? std::string_view(n) : decimal(w).view());
        return put(out, at, "))");
    }
    }
    return at;
}
/// The same as a std::string (the categories' message()). A template: the span over the string is
/// built where a message() is compiled, not in every translation unit (see detail::deferred).
template <class D = void>
std::string code_text(code_domain domain, int value) {
    std::string s(put_code_text({}, 0, domain, value), '\0');
    put_code_text(std::span<char>(deferred<D>(s).data(), s.size()), 0, domain, value);
    return s;
}

template <class T = void>
class win32_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "win32"; }
    std::string message(int value) const override { return code_text<T>(code_domain::win32, value); }
};

template <class T = void>
class ntstatus_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "ntstatus"; }
    std::string message(int value) const override { return code_text<T>(code_domain::ntstatus, value); }
    std::error_condition default_error_condition(int value) const noexcept override;
};

template <class T = void>
class hresult_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "hresult"; }
    std::string message(int value) const override { return code_text<T>(code_domain::hresult, value); }
    std::error_condition default_error_condition(int value) const noexcept override;
};

template <class = void>
class rule_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "etwctl"; }
    std::string message(int value) const override {
        if (value == 0) return "success";
        if (value < 0 || value >= static_cast<int>(rule::count_)) return "etwctl: unknown rule";
        auto const& r = info(static_cast<rule>(value));
        char const* const n = win32::name(r.win32_error);
        auto const code = decimal(r.win32_error);
        return compose({"etwctl: ", r.text, " [", r.name, "; ", n ? n : "Win32", " ", code.view(), "]"});
    }
    std::error_condition default_error_condition(int value) const noexcept override;
};

/// A category object that is never destroyed (as the standard library's own are not): constant-
/// initialized, so returning it is a pointer, with no guard; the union's empty destructor keeps
/// std::error_category's virtual destructor from being called at exit.
template <class Impl>
union never_destroyed {
    Impl object;
    constexpr never_destroyed() noexcept : object() {}
    constexpr ~never_destroyed() {}
};

template <class Impl>
struct category_holder {
    static constinit never_destroyed<Impl> const instance;
};
template <class Impl>
constinit never_destroyed<Impl> const category_holder<Impl>::instance{};
} // namespace detail

// The public functions are templates with a defaulted parameter, called as before
// (etwctl::rule_category()): a function template is only instantiated where a call is compiled, so a
// TU that never asks for a category does not instantiate one. Their bodies name their parameter (T)
// wherever they name a category or call another of these functions, so that merely reading this header
// instantiates nothing either (a non-dependent name in a template body is looked up, and its class
// completed, where the template is defined).
template <class T = void>
inline std::error_category const& win32_category() noexcept {
    return detail::category_holder<detail::win32_category_impl<detail::dependent_t<T, void>>>::instance.object;
}
template <class T = void>
inline std::error_category const& ntstatus_category() noexcept {
    return detail::category_holder<detail::ntstatus_category_impl<detail::dependent_t<T, void>>>::instance.object;
}
template <class T = void>
inline std::error_category const& hresult_category() noexcept {
    return detail::category_holder<detail::hresult_category_impl<detail::dependent_t<T, void>>>::instance.object;
}
template <class T = void>
inline std::error_category const& rule_category() noexcept {
    return detail::category_holder<detail::rule_category_impl<detail::dependent_t<T, void>>>::instance.object;
}

// ---- session loss: its own codes and condition (session/session.hpp's stop_report) ----------------------

/// What a session lost, as error codes of their own (session_loss_category()): a stop that lost events is
/// not a failure of the stop, and it is never silent.
enum class session_loss : int {
    events_lost = 1,            ///< EventsLost: events dropped for want of a free buffer
    log_buffers_lost = 2,       ///< LogBuffersLost: buffers the log file could not take
    real_time_buffers_lost = 3, ///< RealTimeBuffersLost: buffers no real-time consumer took
};
/// The condition every loss compares equal to: report.error == session_condition::events_lost.
enum class session_condition : int { events_lost = 1 };

namespace detail {
template <class T = void>
class session_loss_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "etwctl.session_loss"; }
    std::string message(int value) const override {
        switch (static_cast<session_loss>(value)) {
        case session_loss::events_lost: return "the session lost events (EventsLost > 0): buffers were full";
        case session_loss::log_buffers_lost: return "the session lost buffers writing its log file (LogBuffersLost > 0)";
        case session_loss::real_time_buffers_lost:
            return "the session lost real-time buffers (RealTimeBuffersLost > 0): no consumer kept up";
        }
        return "etwctl: unknown session loss";
    }
    std::error_condition default_error_condition(int value) const noexcept override {
        if (value >= 1 && value <= 3) return {static_cast<int>(session_condition::events_lost), *this};
        return {value, *this};
    }
};
} // namespace detail

/// The category of session_loss codes and of session_condition (instantiated only where it is used).
template <class T = void>
inline std::error_category const& session_loss_category() noexcept {
    return detail::category_holder<detail::session_loss_category_impl<detail::dependent_t<T, void>>>::instance.object;
}
template <class T = void>
inline std::error_code make_error_code(session_loss l) noexcept { return {static_cast<int>(l), session_loss_category<T>()}; }
template <class T = void>
inline std::error_condition make_error_condition(session_condition c) noexcept {
    return {static_cast<int>(c), session_loss_category<T>()};
}

/// "No error", without the out-of-line std::system_category() call that std::error_code{} makes.
template <class T = void>
inline std::error_code no_error() noexcept { return {0, rule_category<T>()}; }

/// The Win32 condition everything compares against: ec == win32_condition(87).
template <class T = void>
inline std::error_condition win32_condition(std::uint32_t error) noexcept {
    return {static_cast<int>(error), win32_category<T>()};
}

template <class T>
inline std::error_condition detail::ntstatus_category_impl<T>::default_error_condition(int value) const noexcept {
    return win32_condition<T>(nt_status_to_win32(value));
}
template <class T>
inline std::error_condition detail::hresult_category_impl<T>::default_error_condition(int value) const noexcept {
    if (value == 0) return win32_condition<T>(0);
    if (auto const w = hresult::win32_of(value); w != 0) return win32_condition<T>(w);
    return {value, *this};
}
template <class T>
inline std::error_condition detail::rule_category_impl<T>::default_error_condition(int value) const noexcept {
    if (value < 0 || value >= static_cast<int>(rule::count_)) return {value, *this};
    return win32_condition<T>(win32_error_of(static_cast<rule>(value)));
}

template <class T = void>
inline std::error_code make_error_code(rule r) noexcept { return {static_cast<int>(r), rule_category<T>()}; }
template <class T = void>
inline std::error_code win32_error_code(std::uint32_t e) noexcept {
    return {static_cast<int>(e), win32_category<T>()};
}
/// Informational NTSTATUS values (>= 0) are success, as NT_SUCCESS says.
template <class T = void>
inline std::error_code ntstatus_error_code(std::int32_t s) noexcept {
    return s >= 0 ? no_error<T>() : std::error_code(s, ntstatus_category<T>());
}
template <class T = void>
inline std::error_code hresult_error_code(std::int32_t hr) noexcept {
    return hr >= 0 ? no_error<T>() : std::error_code(hr, hresult_category<T>());
}

/// The Win32 error an error_code stands for (what the compat layer returns for the same failure).
template <class T = void>
inline std::uint32_t to_win32(std::error_code const& ec) noexcept {
    if (!ec) return win32::success;
    auto const& cat = ec.category();
    if (cat == win32_category<T>()) return static_cast<std::uint32_t>(ec.value());
    if (cat == ntstatus_category<T>()) return nt_status_to_win32(ec.value());
    if (cat == rule_category<T>()) return win32_error_of(static_cast<rule>(ec.value()));
    if (cat == hresult_category<T>()) return hresult::win32_of(ec.value());
    // any other category (a user's own) maps through its Win32 condition, if it has one
    if (auto const c = cat.default_error_condition(ec.value()); c.category() == win32_category<T>())
        return static_cast<std::uint32_t>(c.value());
    return win32::mr_mid_not_found;
}

/// The rule an error_code names, or rule::ok when it is not a rule error.
template <class T = void>
inline rule rule_of(std::error_code const& ec) noexcept {
    return ec.category() == rule_category<T>() ? static_cast<rule>(ec.value()) : rule::ok;
}

/// The context of a failure: the value that broke a rule, the limit, the name of what it was about, and
/// a sentence that says what to do. Written (on failure paths only: a successful call pays nothing)
/// into a per-thread slot that etwctl::explain / etwctl::describe read back, like GetLastError; no heap.
/// `text` is a static sentence with placeholders: {name} {value} {hex} {low} {high} {status} (value as an NTSTATUS: hex, name, Win32 mapping)
/// {win32} (value as a Win32 code: name and number).
/// Every failure the library hands out passes through the slot: one with context records it, one
/// without records just its code (so an earlier failure's values are never shown for a later failure
/// that happens to have the same code).
struct error_detail {
    std::error_code code{};
    std::string_view text{};
    std::string_view name{};
    std::uint64_t value = 0;
    std::uint64_t low = 0;
    std::uint64_t high = 0;
};

namespace detail {
inline error_detail& error_detail_slot() noexcept {
    static thread_local error_detail slot;
    return slot;
}
/// Whether the slot's detail was recorded by the operation still in progress (note_failure) and not
/// yet handed out; the failure converters (failed()) keep such a detail and clear any other.
inline bool& error_detail_pending() noexcept {
    static thread_local bool pending = false;
    return pending;
}
/// Records the context of a failure and returns its code (cold: only failures come here). The detail
/// is final: the caller hands `ec` out as it is.
ETWCTL_COLD inline std::error_code fail(std::error_code ec, std::string_view text, std::string_view name, std::uint64_t value = 0,
                            std::uint64_t low = 0, std::uint64_t high = 0) noexcept {
    error_detail_slot() = {ec, text, name, value, low, high};
    error_detail_pending() = false;
    return ec;
}
/// Records the context of a failure the operation reports later through a converter (failed(), an
/// outcome's code(), result<T>(rule)): the converter keeps this detail for the same code.
ETWCTL_COLD inline void note_failure(std::error_code ec, std::string_view text, std::string_view name, std::uint64_t value = 0,
                                     std::uint64_t low = 0, std::uint64_t high = 0) noexcept {
    error_detail_slot() = {ec, text, name, value, low, high};
    error_detail_pending() = true;
}
/// A failure handed out without context of its own: keeps the detail this operation noted for the same
/// code (note_failure), otherwise replaces the slot with the bare code, so describe() of it never shows
/// an earlier failure's values (cold).
ETWCTL_COLD inline std::error_code failed(std::error_code ec) noexcept {
    bool& pending = error_detail_pending();
    error_detail& slot = error_detail_slot();
    if (!(pending && slot.code == ec)) slot = {ec, {}, {}, 0, 0, 0};
    pending = false;
    return ec;
}
} // namespace detail

/// Records the context of a failure that code outside the library hands back through it (a provider
/// resolver given to wpr::apply_options, a tool's own check) and returns `ec`, as etwctl's own failures do:
/// describe(ec) then fills `text`'s placeholders ({name} {value} {hex} {low} {high} {status} {win32}) from
/// the values. `text` and `name` are kept as views: they must outlive the describe() call (a literal, or
/// storage the caller keeps).
ETWCTL_COLD inline std::error_code record_failure(std::error_code ec, std::string_view text, std::string_view name = {},
                                                  std::uint64_t value = 0, std::uint64_t low = 0,
                                                  std::uint64_t high = 0) noexcept {
    return detail::fail(ec, text, name, value, low, high);
}

/// A value or the error that prevented it; no exceptions. value() on an error is a contract
/// violation (GSL's Expects: terminates), so check has_value() / operator bool first.
/// The error is kept as its value and category pointer (null on success): a successful result names no
/// error category, so code that only ever succeeds, or only reads has_value(), instantiates none.
template <class T>
class [[nodiscard]] result {
public:
    constexpr result(T v) noexcept(std::is_nothrow_move_constructible_v<T>) : value_(std::move(v)) {}
    result(std::error_code ec) noexcept {
        // Checked here, where an error result default-constructs its value (not in the class: naming
        // result<T> then costs no trait instantiation, docs/performance.md, "Include weight").
        static_assert(std::is_nothrow_default_constructible_v<T>,
                      "etwctl::result<T>: T must be nothrow default-constructible (an error result holds a default T)");
        if (!ec) ec = make_error_code<T>(rule::kernel_reply_malformed); // an error result always holds an error
        code_ = ec.value();
        category_ = &ec.category();
#if defined(__GNUC__)
        // The address of a category is never null, but g++ does not infer it here: without this the
        // caller's error path rejoins its success path at has_value(), and the value is copied once more
        // (query<system_trace_enable_flags>: 32 instructions instead of 25; docs/performance.md, "What
        // the measurements changed in the library").
        if (category_ == nullptr) __builtin_unreachable();
#endif
    }
    /// A new failure (a rule broken here): handed out through detail::failed, so no earlier failure's
    /// context is shown for it. (From an error_code: a failure passed on, its context kept.)
    result(rule r) noexcept : result(detail::failed(make_error_code<T>(r))) {}

    constexpr bool has_value() const noexcept { return category_ == nullptr; }
    constexpr explicit operator bool() const noexcept { return has_value(); }
    /// The error; no_error() when there is a value.
    std::error_code error() const noexcept { return category_ ? std::error_code(code_, *category_) : no_error<T>(); }

    constexpr T const& value() const& noexcept {
        Expects(has_value());
        return value_;
    }
    constexpr T& value() & noexcept {
        Expects(has_value());
        return value_;
    }
    constexpr T const& operator*() const& noexcept { return value(); }
    constexpr T& operator*() & noexcept { return value(); }
    constexpr T const* operator->() const noexcept { return &value(); }
    constexpr T* operator->() noexcept { return &value(); }
    constexpr T value_or(T fallback) const noexcept { return has_value() ? value_ : fallback; }

private:
    T value_{};
    int code_ = 0;
    std::error_category const* category_ = nullptr;
};


/// The detail of this thread's last etwctl failure if it explains `ec` (a failure handed out with its
/// context), else nullptr.
template <class T = void>
error_detail const* explain(std::error_code const& ec) noexcept {
    error_detail const& d = detail::error_detail_slot();
    return ec && d.code == ec && !d.text.empty() ? &d : nullptr; // a failure recorded without context: none
}

/// The sentence for `ec`: its detail with the values filled in when this thread's last failure was
/// `ec`, else the category's message. Writes at most out.size() characters (no NUL); returns the full
/// length, so a larger buffer can be tried. No allocation.
template <class T = void>
std::size_t describe(std::error_code const& ec, std::span<char> out) noexcept {
    error_detail const* d = explain<T>(ec);
    if (d == nullptr || d->text.empty()) {
        if (!ec) return detail::put(out, 0, "success");
        auto const r = rule_of<T>(ec);
        if (r != rule::ok) return detail::put(out, 0, info(r).text);
        // the same text as the category's message(), without allocating
        if (ec.category() == ntstatus_category<T>()) return detail::put_code_text(out, 0, detail::code_domain::ntstatus, ec.value());
        if (ec.category() == win32_category<T>()) return detail::put_code_text(out, 0, detail::code_domain::win32, ec.value());
        if (ec.category() == hresult_category<T>()) return detail::put_code_text(out, 0, detail::code_domain::hresult, ec.value());
        std::size_t at = detail::put(out, 0, ec.category().name());
        at = detail::put(out, at, " error ");
        return detail::put(out, at, detail::hex32(static_cast<std::uint32_t>(ec.value())).view());
    }
    std::size_t at = 0;
    std::string_view t = d->text;
    while (!t.empty()) {
        auto const open = t.find('{');
        auto const close = open == std::string_view::npos ? open : t.find('}', open);
        if (close == std::string_view::npos) {
            at = detail::put(out, at, t);
            break;
        }
        at = detail::put(out, at, t.substr(0, open));
        std::string_view const key = t.substr(open + 1, close - open - 1);
        if (key == "name") at = detail::put(out, at, d->name);
        else if (key == "value") at = detail::put_decimal(out, at, d->value);
        else if (key == "low") at = detail::put_decimal(out, at, d->low);
        else if (key == "high") at = detail::put_decimal(out, at, d->high);
        else if (key == "status") { // value as an NTSTATUS: its hex, its name, the Win32 error it maps to
            auto const status = static_cast<std::int32_t>(static_cast<std::uint32_t>(d->value));
            at = detail::put(out, at, "NTSTATUS ");
            at = detail::put(out, at, detail::hex32(static_cast<std::uint32_t>(status)).view());
            if (char const* n = ntstatus::name(status)) {
                at = detail::put(out, at, " (");
                at = detail::put(out, at, n);
                at = detail::put(out, at, ")");
            }
            std::uint32_t const w = nt_status_to_win32(status);
            at = detail::put(out, at, ", Win32 ");
            if (char const* n = win32::name(w)) {
                at = detail::put(out, at, n);
                at = detail::put(out, at, " ");
            }
            at = detail::put_decimal(out, at, w);
        }
        else if (key == "win32") { // value as a Win32 code: its name and number ("ERROR_ALREADY_EXISTS 183")
            auto const w = static_cast<std::uint32_t>(d->value);
            if (char const* n = win32::name(w)) {
                at = detail::put(out, at, n);
                at = detail::put(out, at, " ");
            }
            at = detail::put_decimal(out, at, w);
        }
        else if (key == "hex") {
            char h[16];
            int digits = 1;
            while (digits < 16 && (d->value >> (4 * digits)) != 0) ++digits;
            detail::format_hex(d->value, digits, h, true);
            at = detail::put(out, at, "0x");
            at = detail::put(out, at, detail::view_of(h, static_cast<std::size_t>(digits)));
        } else at = detail::put(out, at, t.substr(open, close - open + 1));
        t.remove_prefix(close + 1);
    }
    return at;
}

/// The same as a std::string (allocates; for messages, not hot paths).
template <class T = void>
std::string describe(std::error_code const& ec) {
    char buf[256];
    std::size_t const n = describe<T>(ec, buf);
    if (n <= sizeof buf) return std::string(buf, n);
    std::string s(n, '\0');
    describe<T>(ec, std::span<char>(detail::deferred<T>(s).data(), s.size()));
    return s;
}

ETWCTL_END_NAMESPACE

template <>
struct std::is_error_code_enum<etwctl::rule> : std::true_type {};
template <>
struct std::is_error_code_enum<etwctl::session_loss> : std::true_type {};
template <>
struct std::is_error_condition_enum<etwctl::session_condition> : std::true_type {};
