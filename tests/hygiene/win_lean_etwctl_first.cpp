// NOMINMAX + WIN32_LEAN_AND_MEAN defined by the user, etwctl first (it includes <windows.h> under the
// user's settings), then <windows.h> and <evntrace.h>.
#define NOMINMAX
#define WIN32_LEAN_AND_MEAN
#include "etwctl/etwctl.hpp"

#include <windows.h>
#include <evntrace.h>

#if defined(min) || defined(max)
#error "NOMINMAX was asked for, yet min/max are macros"
#endif

#include "win_common.inc"
#include "windows_includes.hpp"

int hygiene_lean_etwctl_first() { return use_etwctl_with_sdk_types(); }
