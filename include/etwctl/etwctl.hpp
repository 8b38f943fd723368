// SPDX-License-Identifier: MIT
// etwctl/etwctl.hpp - the umbrella header: what a profiler's control code uses. One include gives the
// typed API of every information class, the names (stack_walk<"...">, kernel_flags<"...">), the
// profiler features, the error model and, on Windows, native_kernel and the calls without a kernel
// argument. docs/architecture.md has the layers; README says which header to include for what.
//
// Opt-in, not included here (each header compiles on its own):
//   etwctl/compat.hpp, etwctl/compat_current.hpp   the drop-in functions (TraceSetInformation, ... with
//                                                   Windows' semantics), for code that keeps its raw calls
//   etwctl/enable_context.hpp                       a provider's TRACEHANDLE decoded (enable callbacks)
//   etwctl/profiler/custom_counters.hpp             custom hardware counters (add_profile_source)
//   etwctl/request/decode.hpp, request/logger_query.hpp   tool-oriented: requests read back, sessions by name
//   etwctl/sessions.hpp                             ETW sessions: configure, start, attach, list, stop;
//                                                   providers; kernel sessions; orphans (session/)
//   etwctl/testing/                                 the simulated kernels
#pragma once

#include "etwctl/config.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/types.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/provider_traits.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/pmc_views.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/privilege.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/sources.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/classes/info_classes.hpp"
#include "etwctl/typed/tags.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/default_kernel.hpp"
#include "etwctl/profiler/stack_walk_set.hpp"
#include "etwctl/profiler/guards.hpp"
#include "etwctl/profiler/pmc.hpp"
