// SPDX-License-Identifier: MIT
// etwctl/config.hpp - version, ABI namespace, platform and the one configuration macro etwctl reads.
//
// The version is spelled here only: CMakeLists.txt reads ETWCTL_VERSION_MAJOR/MINOR/PATCH from this file.
// Everything etwctl declares lives in etwctl::ETWCTL_ABI_NAMESPACE, an inline namespace (etwctl::v1 by
// default): user code names etwctl::set and never sees it, but the linker does. A build option that
// changes what a header means (ETWCTL_HAVE_EVENT_SET_INFORMATION) changes the inline namespace too, so
// two translation units built with different options cannot silently share one definition.
//
// ETWCTL_HAVE_EVENT_SET_INFORMATION (0, 1 or 2) mirrors TLG_HAVE_EVENT_SET_INFORMATION (traceloggingprovider.h): the
// default event_set_information_policy of compat::tracelogging_set_information. When it is not defined,
// etwctl chooses as TraceLoggingProvider.h does from the targeted Windows version: 1 (call directly)
// when the target is Windows 8 (0x0602) or later, which is every target etwctl supports, else 2 (look
// it up at run time). The target is read from _WIN32_WINNT only if the user's build defines it; etwctl
// never includes a Windows header to learn it, so the choice cannot depend on include order.
#pragma once

#include <cstdint>

#define ETWCTL_VERSION_MAJOR 1
#define ETWCTL_VERSION_MINOR 0
#define ETWCTL_VERSION_PATCH 0

/// One number for comparisons: MAJOR * 10000 + MINOR * 100 + PATCH.
#define ETWCTL_VERSION (ETWCTL_VERSION_MAJOR * 10000 + ETWCTL_VERSION_MINOR * 100 + ETWCTL_VERSION_PATCH)

#if !defined(ETWCTL_ABI_NAMESPACE)
#if defined(ETWCTL_HAVE_EVENT_SET_INFORMATION) && ETWCTL_HAVE_EVENT_SET_INFORMATION == 0
#define ETWCTL_ABI_NAMESPACE v1_esi0
#elif (defined(ETWCTL_HAVE_EVENT_SET_INFORMATION) && ETWCTL_HAVE_EVENT_SET_INFORMATION == 2) ||                 \
    (!defined(ETWCTL_HAVE_EVENT_SET_INFORMATION) && defined(_WIN32_WINNT) && (_WIN32_WINNT < 0x0602))
#define ETWCTL_ABI_NAMESPACE v1_esi2
#else
#define ETWCTL_ABI_NAMESPACE v1
#endif
#endif
#define ETWCTL_BEGIN_NAMESPACE                                                                          \
    namespace etwctl {                                                                                  \
    inline namespace ETWCTL_ABI_NAMESPACE {
#define ETWCTL_END_NAMESPACE                                                                            \
    }                                                                                                   \
    }

/// Failure paths: out of line and out of the hot code (GCC and clang; nothing elsewhere).
#if defined(__GNUC__) || defined(__clang__)
#define ETWCTL_COLD [[gnu::cold, gnu::noinline]]
#else
#define ETWCTL_COLD
#endif

/// The drop-in functions and their table-driven body: inlined into the caller, where the class and the
/// buffer size are usually constants, so the checks and the dispatch fold to the one request (clang
/// does not inline them on its own: 150 instructions instead of 20; docs/performance.md).
#if defined(__GNUC__) || defined(__clang__)
#define ETWCTL_INLINE_ALWAYS [[gnu::always_inline]] inline
#elif defined(_MSC_VER)
#define ETWCTL_INLINE_ALWAYS __forceinline
#else
#define ETWCTL_INLINE_ALWAYS inline
#endif

#if defined(_WIN32)
#define ETWCTL_WINDOWS 1
#else
#define ETWCTL_WINDOWS 0
#endif

ETWCTL_BEGIN_NAMESPACE

namespace detail {
/// `value`, as an expression that depends on D. In a template over D, what is built on it (a std::span
/// made from a pointer or an array, say) is checked and instantiated when that template is, not in every
/// translation unit that includes the header: libstdc++'s span constructors check contiguous_iterator,
/// which cost clang up to 25 ms the first time (docs/performance.md, "Include weight").
template <class D, class T>
constexpr T& deferred(T& value) noexcept {
    return value;
}
/// T, as a type that depends on D (the same device for types). A function template that returns
/// std::optional<dependent_t<D, T>> instantiates std::optional<T> where a call is compiled, not in every
/// translation unit that includes its header (each std::optional<T> costs a TU about 12-23M compiler
/// instructions: docs/performance.md, "Include weight"); a class template over dependent_t<D, void> is
/// not looked into until it is used.
template <class D, class T>
struct dependent_type {
    using type = T;
};
template <class D, class T>
using dependent_t = typename dependent_type<D, T>::type;
} // namespace detail

/// How compat::tracelogging_set_information reaches EventSetInformation (TLG_HAVE_EVENT_SET_INFORMATION).
enum class event_set_information_policy : std::uint8_t {
    disabled = 0, ///< never call; return HRESULT_FROM_WIN32(ERROR_NOT_SUPPORTED)
    direct = 1,   ///< call it
    dynamic = 2,  ///< call it if it exists at run time, else HRESULT_FROM_WIN32(ERROR_NOT_SUPPORTED)
};

#if defined(ETWCTL_HAVE_EVENT_SET_INFORMATION)
static_assert(ETWCTL_HAVE_EVENT_SET_INFORMATION >= 0 && ETWCTL_HAVE_EVENT_SET_INFORMATION <= 2,
              "etwctl: ETWCTL_HAVE_EVENT_SET_INFORMATION must be 0 (disabled), 1 (direct) or 2 (dynamic)");
inline constexpr event_set_information_policy default_event_set_information_policy =
    static_cast<event_set_information_policy>(ETWCTL_HAVE_EVENT_SET_INFORMATION);
#elif defined(_WIN32_WINNT) && (_WIN32_WINNT < 0x0602)
inline constexpr event_set_information_policy default_event_set_information_policy = event_set_information_policy::dynamic;
#else
inline constexpr event_set_information_policy default_event_set_information_policy = event_set_information_policy::direct;
#endif

ETWCTL_END_NAMESPACE
