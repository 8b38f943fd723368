// etwctl first, then <windows.h>: etwctl must not have switched parts of <windows.h> off for the user
// (no WIN32_LEAN_AND_MEAN: shellapi.h is still there) nor defined other configuration macros.
// (NOMINMAX cannot be checked here: mingw's libstdc++ defines it; the header scan test covers it.)
#include "etwctl/etwctl.hpp"

#if defined(WIN32_LEAN_AND_MEAN)
#error "etwctl defined WIN32_LEAN_AND_MEAN"
#endif
#if defined(INITGUID)
#error "etwctl defined INITGUID"
#endif
#if defined(UNICODE) || defined(_UNICODE)
#error "etwctl defined UNICODE"
#endif

#include <windows.h>
#include <evntrace.h>

#include "win_common.inc"
#include "windows_includes.hpp"

int hygiene_etwctl_first() {
    using shell_execute = decltype(&ShellExecuteW); // shellapi.h: only without WIN32_LEAN_AND_MEAN
    shell_execute const none = nullptr;
    return none == nullptr ? use_etwctl_with_sdk_types() : -1;
}
