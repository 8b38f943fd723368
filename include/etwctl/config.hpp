// etwctl/config.hpp - version, platform and the one configuration macro etwctl reads.
//
// ETWCTL_HAVE_EVENT_SET_INFORMATION (0, 1 or 2) mirrors TLG_HAVE_EVENT_SET_INFORMATION (spec 003): the
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

#if defined(_WIN32)
#define ETWCTL_WINDOWS 1
#else
#define ETWCTL_WINDOWS 0
#endif

namespace etwctl {

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

} // namespace etwctl
