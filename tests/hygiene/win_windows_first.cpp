// <windows.h> first, then the min/max macros as the Windows SDK's <windows.h> defines them without
// NOMINMAX, then etwctl: etwctl (and GSL) must compile under them. (mingw's libstdc++ defines NOMINMAX
// itself, so the macros are made here by hand; the standard headers etwctl includes are read before,
// as they cannot cope with the macros on any platform.)
#include <windows.h>
#include <evntrace.h>

#include "etwctl_std_includes.hpp" // generated: every standard and GSL header the etwctl headers include
#include <algorithm>              // for win_common.inc

#ifndef min
#define min(a, b) (((a) < (b)) ? (a) : (b))
#endif
#ifndef max
#define max(a, b) (((a) > (b)) ? (a) : (b))
#endif

#include "etwctl/etwctl.hpp"

#include "win_common.inc"
#include "windows_includes.hpp"

int hygiene_windows_first() { return use_etwctl_with_sdk_types(); }
