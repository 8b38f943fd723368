// SPDX-License-Identifier: MIT
// etwctl/etwctl.hpp - the umbrella header: the public API (not the simulated kernels: those are
// opt-in, etwctl/testing/sim_kernel.hpp and etwctl/testing/hostile_kernel.hpp).
//
// Where things are (each header compiles on its own; docs/architecture.md walks one call through them):
//   typed/                 the typed API: set<InfoClass>(kernel, ...), query<InfoClass>(kernel, ...)
//   compat.hpp             the drop-in functions: TraceSetInformation, TraceQueryInformation,
//                          EtwGetTraceEnableFlags, TraceLoggingSetInformation with Windows' semantics
//   classes/               THE information-class table: every class, its rules and its kernel request
//   request/               the request layer: the kernel's buffers byte for byte, SECHOST's checks,
//                          encoding and decoding (shared by typed, compat, the tool and the tests)
//   kernel/                the kernel layer: the concept (six calls), native_kernel,
//                          kernel_ref (any kernel as one type), enable_system_profile_privilege
//   error.hpp, rules.hpp, status_codes.hpp   one error model: rules, Win32 / NTSTATUS / HRESULT, result<T>
//   types.hpp, guid.hpp, group_mask.hpp, hook_list.hpp, enable_context.hpp, provider_traits.hpp,
//   profile_source_list.hpp              the value types
//   names/                 the naming tables: kernel events, flags, groups, profile sources, parsing
//   profiler/              stack_walk_set, the guards, setup_pmc
//   sessions.hpp, session/ ETW sessions: the typed API (configure, start, attach, list, providers, kernel
//                          sessions, orphans) over the session kernel (kernel/session_concept.hpp)
//   testing/               the simulated kernels (not included here)
//   detail/                internals: text utilities, lazy exports, the one <windows.h> header
#pragma once

#include "etwctl/config.hpp"
#include "etwctl/status_codes.hpp"
#include "etwctl/rules.hpp"
#include "etwctl/error.hpp"
#include "etwctl/guid.hpp"
#include "etwctl/types.hpp"
#include "etwctl/kernel/concept.hpp"
#include "etwctl/kernel/ref.hpp"
#include "etwctl/kernel/privilege.hpp"
#include "etwctl/classes/info_classes.hpp"
#include "etwctl/typed/tags.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/group_mask.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/request/layouts.hpp"
#include "etwctl/request/checks.hpp"
#include "etwctl/enable_context.hpp"
#include "etwctl/provider_traits.hpp"
#include "etwctl/profile_source_list.hpp"
#include "etwctl/names/flags.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/names/sources.hpp"
#include "etwctl/names/parse.hpp"
#include "etwctl/compat.hpp"
#include "etwctl/typed/set.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/compat_current.hpp"
#include "etwctl/profiler/stack_walk_set.hpp"
#include "etwctl/profiler/guards.hpp"
#include "etwctl/profiler/pmc.hpp"
#include "etwctl/profiler/custom_counters.hpp"
#include "etwctl/sessions.hpp"
#include "etwctl/default_kernel.hpp"
