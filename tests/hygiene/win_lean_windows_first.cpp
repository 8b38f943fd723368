// NOMINMAX + WIN32_LEAN_AND_MEAN, <windows.h> first, then etwctl.
#define NOMINMAX
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <evntrace.h>

#include "etwctl/etwctl.hpp"

#if defined(min) || defined(max)
#error "NOMINMAX was asked for, yet min/max are macros"
#endif

#include "win_common.inc"
#include "windows_includes.hpp"

int hygiene_lean_windows_first() { return use_etwctl_with_sdk_types(); }
