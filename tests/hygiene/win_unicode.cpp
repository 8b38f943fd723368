// UNICODE builds: etwctl names its W functions explicitly, so the TCHAR mapping does not matter.
#ifndef UNICODE
#define UNICODE
#endif
#ifndef _UNICODE
#define _UNICODE
#endif
#include <windows.h>
#include <evntrace.h>

#include "etwctl/etwctl.hpp"

#include "win_common.inc"
#include "windows_includes.hpp"

int hygiene_unicode() {
    static_assert(sizeof(TCHAR) == sizeof(wchar_t));
    return use_etwctl_with_sdk_types();
}
