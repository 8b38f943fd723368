// etwctl/error.hpp - std::error_code support for the four sources of errors, kept apart:
//   win32_category()    Win32 error codes (values as winerror.h)
//   ntstatus_category() NTSTATUS from the kernel (the value is the 32-bit status)
//   hresult_category()  HRESULTs (TraceLoggingSetInformation)
//   rule_category()     a broken etwctl::rule: names the rule; equivalent to its Win32 error condition
// Every category maps its codes to the Win32 condition (ntstatus through RtlNtStatusToDosError), so
//   ec == etwctl::win32_condition(87)
// holds for a broken rule, a kernel STATUS_INVALID_PARAMETER and a raw ERROR_INVALID_PARAMETER alike,
// while ec.category() still says which domain the code came from. to_win32(ec) gives the number.
// Also: result<T>, a value or an error_code, usable without exceptions.
#pragma once

#include <cstdint>
#include <string>
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
inline std::string hex32(std::uint32_t v) {
    char buf[10] = {'0', 'x'};
    format_hex(v, 8, buf + 2, true);
    return std::string(buf, sizeof buf);
}

class win32_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "win32"; }
    std::string message(int value) const override {
        auto const e = static_cast<std::uint32_t>(value);
        char const* n = win32::name(e);
        return std::string("Win32 error ") + std::to_string(e) + (n ? std::string(" (") + n + ")" : std::string());
    }
};

class ntstatus_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "ntstatus"; }
    std::string message(int value) const override {
        char const* n = ntstatus::name(value);
        return std::string("NTSTATUS ") + hex32(static_cast<std::uint32_t>(value)) +
               (n ? std::string(" (") + n + ")" : std::string());
    }
    std::error_condition default_error_condition(int value) const noexcept override;
};

class hresult_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "hresult"; }
    std::string message(int value) const override {
        std::string m = "HRESULT " + hex32(static_cast<std::uint32_t>(value));
        if (auto const w = hresult::win32_of(value); w != 0) {
            char const* n = win32::name(w);
            m += " (HRESULT_FROM_WIN32(" + std::string(n ? n : std::to_string(w).c_str()) + "))";
        }
        return m;
    }
    std::error_condition default_error_condition(int value) const noexcept override;
};

class rule_category_impl final : public std::error_category {
public:
    char const* name() const noexcept override { return "etwctl"; }
    std::string message(int value) const override {
        if (value == 0) return "success";
        if (value < 0 || value >= static_cast<int>(rule::count_)) return "etwctl: unknown rule";
        auto const& r = info(static_cast<rule>(value));
        char const* n = win32::name(r.win32_error);
        return std::string("etwctl: ") + std::string(r.text) + " [" + std::string(r.name) + "; " +
               (n ? n : "Win32") + " " + std::to_string(r.win32_error) + "]";
    }
    std::error_condition default_error_condition(int value) const noexcept override;
};
} // namespace detail

namespace detail {
// Constant-initialized objects (no guard on access, no init-order issue): returning a category is a
// pointer, which keeps a successful typed call as cheap as the raw one.
inline constinit win32_category_impl const win32_category_object{};
inline constinit ntstatus_category_impl const ntstatus_category_object{};
inline constinit hresult_category_impl const hresult_category_object{};
inline constinit rule_category_impl const rule_category_object{};
} // namespace detail

inline std::error_category const& win32_category() noexcept { return detail::win32_category_object; }
inline std::error_category const& ntstatus_category() noexcept { return detail::ntstatus_category_object; }
inline std::error_category const& hresult_category() noexcept { return detail::hresult_category_object; }
inline std::error_category const& rule_category() noexcept { return detail::rule_category_object; }

/// "No error", without the out-of-line std::system_category() call that std::error_code{} makes.
inline std::error_code no_error() noexcept { return {0, rule_category()}; }

/// The Win32 condition everything compares against: ec == win32_condition(87).
inline std::error_condition win32_condition(std::uint32_t error) noexcept {
    return {static_cast<int>(error), win32_category()};
}

inline std::error_condition detail::ntstatus_category_impl::default_error_condition(int value) const noexcept {
    return win32_condition(nt_status_to_win32(value));
}
inline std::error_condition detail::hresult_category_impl::default_error_condition(int value) const noexcept {
    if (value == 0) return win32_condition(0);
    if (auto const w = hresult::win32_of(value); w != 0) return win32_condition(w);
    return {value, *this};
}
inline std::error_condition detail::rule_category_impl::default_error_condition(int value) const noexcept {
    if (value < 0 || value >= static_cast<int>(rule::count_)) return {value, *this};
    return win32_condition(win32_error_of(static_cast<rule>(value)));
}

inline std::error_code make_error_code(rule r) noexcept { return {static_cast<int>(r), rule_category()}; }
inline std::error_code win32_error_code(std::uint32_t e) noexcept {
    return {static_cast<int>(e), win32_category()};
}
/// Informational NTSTATUS values (>= 0) are success, as NT_SUCCESS says.
inline std::error_code ntstatus_error_code(std::int32_t s) noexcept {
    return s >= 0 ? no_error() : std::error_code(s, ntstatus_category());
}
inline std::error_code hresult_error_code(std::int32_t hr) noexcept {
    return hr >= 0 ? no_error() : std::error_code(hr, hresult_category());
}

/// The Win32 error an error_code stands for (what the compat layer returns for the same failure).
inline std::uint32_t to_win32(std::error_code const& ec) noexcept {
    if (!ec) return win32::success;
    auto const& cat = ec.category();
    if (cat == win32_category()) return static_cast<std::uint32_t>(ec.value());
    if (cat == ntstatus_category()) return nt_status_to_win32(ec.value());
    if (cat == rule_category()) return win32_error_of(static_cast<rule>(ec.value()));
    if (cat == hresult_category()) return hresult::win32_of(ec.value());
    // any other etwctl category (e.g. missing_class_category) maps through its Win32 condition
    if (auto const c = cat.default_error_condition(ec.value()); c.category() == win32_category())
        return static_cast<std::uint32_t>(c.value());
    return win32::mr_mid_not_found;
}

/// The rule an error_code names, or rule::ok when it is not a rule error.
inline rule rule_of(std::error_code const& ec) noexcept {
    return ec.category() == rule_category() ? static_cast<rule>(ec.value()) : rule::ok;
}

/// A value or the error that prevented it; no exceptions. value() on an error is a contract
/// violation (GSL's Expects: terminates), so check has_value() / operator bool first.
template <class T>
class [[nodiscard]] result {
    static_assert(std::is_nothrow_default_constructible_v<T>, "etwctl::result<T> needs a default-constructible T");

public:
    constexpr result(T v) noexcept(std::is_nothrow_move_constructible_v<T>) : value_(std::move(v)) {}
    result(std::error_code ec) noexcept : ec_(ec) {
        if (!ec_) ec_ = make_error_code(rule::kernel_reply_malformed); // an error result always holds an error
    }
    result(rule r) noexcept : result(make_error_code(r)) {}

    constexpr bool has_value() const noexcept { return !ec_; }
    constexpr explicit operator bool() const noexcept { return has_value(); }
    std::error_code error() const noexcept { return ec_; }

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
    constexpr T value_or(T fallback) const noexcept { return has_value() ? value_ : fallback; }

private:
    T value_{};
    std::error_code ec_ = no_error();
};

ETWCTL_END_NAMESPACE

template <>
struct std::is_error_code_enum<etwctl::rule> : std::true_type {};
