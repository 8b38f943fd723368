// etwctl/etwctl.hpp - the umbrella header: everything public.
//
// Header map (each compiles on its own):
//   kernel.hpp            the kernel concept (the six calls) and kernel-side constants
//   detail/windows_kernel.hpp  native_kernel: ntdll/advapi32, resolved lazily (Windows only)
//   sim/kernel.hpp        the simulated kernel (every platform)
//   info_classes.hpp      the information-class table and the typed API's tags
//   compat.hpp            TraceSetInformation / TraceQueryInformation / EtwGetTraceEnableFlags /
//                         TraceLoggingSetInformation with Windows' semantics
//   set.hpp, query.hpp    the typed API: set<InfoClass>(...), query<InfoClass>(...)
//   rules.hpp, error.hpp, status_codes.hpp   every rule, error categories, Win32/NTSTATUS/HRESULT codes
//   types.hpp, guid.hpp, group_mask.hpp, hook_list.hpp, enable_context.hpp, provider_traits.hpp,
//   profile_source_list.hpp, kernel_groups.hpp, kernel_requests.hpp, validation.hpp
//   perf_flags.hpp, kernel_events.hpp, profile_sources.hpp   the naming tables (PERF_*/xperf flags,
//                         xperf event names <-> hook ids, KPROFILE_SOURCE names, timer bounds)
//   parse.hpp             stack_walk<"...">, kernel_flags<"...">, run-time parse/format of both
//   stack_walk_set.hpp    a session's stack-walk list kept by the caller (add/remove/union, one apply)
//   guards.hpp            scope guards for the profile interval and a session's profile sources
//   pmc.hpp               setup_pmc: counters on kernel events, checked, with a report
#pragma once

#include "etwctl/config.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/types.hpp"
#include "etwctl/kernel.hpp"
#include "etwctl/info_classes.hpp"
#include "etwctl/kernel_groups.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/kernel_requests.hpp"
#include "etwctl/validation.hpp"
#include "etwctl/enable_context.hpp"
#include "etwctl/provider_traits.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/perf_flags.hpp"
#include "etwctl/kernel_events.hpp"
#include "etwctl/profile_sources.hpp"
#include "etwctl/parse.hpp"
#include "etwctl/compat.hpp"
#include "etwctl/set.hpp"
#include "etwctl/query.hpp"
#include "etwctl/stack_walk_set.hpp"
#include "etwctl/guards.hpp"
#include "etwctl/pmc.hpp"
#include "etwctl/sim/kernel.hpp"
#include "etwctl/detail/windows_kernel.hpp"
