// SPDX-License-Identifier: MIT
// etwctl/compat_structs.hpp - the caller's structs of information classes 16-28 under the current Windows
// SDK's names (evntrace.h), for clients that migrate to compat::current:: with a Windows SDK (or
// mingw-w64's, whose evntrace.h stops at class 19) that lacks them:
//
//   etwctl::compat::TRACE_STACK_CACHING_INFO info{1, 0, 0}; // Enabled; the kernel's default size, buckets
//   etwctl::compat::current::trace_set_information(k, session, etwctl::compat::TraceStackCachingInfo, &info, sizeof info);
//
// Everything is in namespace etwctl::compat, never at global scope: next to a current SDK's evntrace.h the
// SDK's own declarations stay the ones a plain name finds. The layouts equal the SDK's (the same members,
// in the same order, of the same sizes: ULONG is unsigned long where that is 32 bits, as on Windows);
// tests/windows pins them against the SDK where the SDK has them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace compat {

namespace sdk {
/// The SDK's ULONG: unsigned long where that is 32 bits (Windows), std::uint32_t elsewhere.
using ulong_t = std::conditional_t<sizeof(unsigned long) == 4, unsigned long, std::uint32_t>;
} // namespace sdk

// ---- TRACE_INFO_CLASS values past mingw-w64's evntrace.h (SDK names; etwctl's trace_info_class values) ----
inline constexpr trace_info_class TracePeriodicCaptureStateListInfo = trace_info_class::periodic_capture_state_list;
inline constexpr trace_info_class TracePeriodicCaptureStateInfo = trace_info_class::periodic_capture_state;
inline constexpr trace_info_class TraceProviderBinaryTracking = trace_info_class::provider_binary_tracking;
inline constexpr trace_info_class TraceMaxLoggersQuery = trace_info_class::max_loggers_query;
inline constexpr trace_info_class TraceLbrConfigurationInfo = trace_info_class::lbr_configuration;
inline constexpr trace_info_class TraceLbrEventListInfo = trace_info_class::lbr_event_list;
inline constexpr trace_info_class TraceMaxPmcCounterQuery = trace_info_class::max_pmc_counter_query;
inline constexpr trace_info_class TraceStreamCount = trace_info_class::stream_count;
inline constexpr trace_info_class TraceStackCachingInfo = trace_info_class::stack_caching;
inline constexpr trace_info_class TracePmcCounterOwners = trace_info_class::pmc_counter_owners;
inline constexpr trace_info_class TraceUnifiedStackCachingInfo = trace_info_class::unified_stack_caching;
inline constexpr trace_info_class TracePmcSessionInformation = trace_info_class::pmc_session_information;
inline constexpr trace_info_class TraceContextRegisterInfo = trace_info_class::context_register;

// ---- classes 16 / 17 ------------------------------------------------------------------------------------
/// Class 16 (set, followed by ProviderCount GUIDs) and 17 (query: the system's limits).
struct TRACE_PERIODIC_CAPTURE_STATE_INFO {
    sdk::ulong_t CaptureStateFrequencyInSeconds;
    std::uint16_t ProviderCount;
    std::uint16_t Reserved;
};

// ---- class 20 -----------------------------------------------------------------------------------------
/// Class 20's ULONG of flags (TraceLbrConfigurationInfo).
enum TRACE_LBR_CONFIGURATION : int {
    TRACE_LBR_CONFIGURATION_NONE = 0x0,
    TRACE_LBR_CONFIGURATION_EXCLUDE_KERNEL = 0x1,
    TRACE_LBR_CONFIGURATION_EXCLUDE_USER = 0x2,
    TRACE_LBR_CONFIGURATION_EXCLUDE_JCC = 0x4,
    TRACE_LBR_CONFIGURATION_EXCLUDE_NEAR_REL_CALL = 0x8,
    TRACE_LBR_CONFIGURATION_EXCLUDE_NEAR_IND_CALL = 0x10,
    TRACE_LBR_CONFIGURATION_EXCLUDE_NEAR_RET = 0x20,
    TRACE_LBR_CONFIGURATION_EXCLUDE_NEAR_IND_JMP = 0x40,
    TRACE_LBR_CONFIGURATION_EXCLUDE_NEAR_REL_JMP = 0x80,
    TRACE_LBR_CONFIGURATION_EXCLUDE_FAR_BRANCH = 0x100,
    TRACE_LBR_CONFIGURATION_CALLSTACK_ENABLE = 0x200,
    TRACE_LBR_CONFIGURATION_SAMPLED = 0x400,
};

// ---- classes 24 / 26 ------------------------------------------------------------------------------------
/// Classes 24 and 26. CacheSize 0 / BucketCount 0 ask for the kernel's default (its minimum: 3 MiB,
/// 256 buckets), as PerfView sends them.
struct TRACE_STACK_CACHING_INFO {
    unsigned char Enabled; ///< BOOLEAN
    sdk::ulong_t CacheSize;
    sdk::ulong_t BucketCount;
};

// ---- class 25 -----------------------------------------------------------------------------------------
enum ETW_PMC_COUNTER_OWNER_TYPE : int {
    EtwPmcOwnerFree,
    EtwPmcOwnerUntagged,
    EtwPmcOwnerTagged,
    EtwPmcOwnerTaggedWithSource,
};
struct ETW_PMC_COUNTER_OWNER {
    ETW_PMC_COUNTER_OWNER_TYPE OwnerType;
    sdk::ulong_t ProfileSource;
    sdk::ulong_t OwnerTag;
};
/// Class 25's in/out buffer: size it 8 + 12 x query<max_pmc_counters> (pmc_owner_storage_size), one
/// record declared here as in the SDK (ANYSIZE_ARRAY).
struct ETW_PMC_COUNTER_OWNERSHIP_STATUS {
    sdk::ulong_t ProcessorNumber;
    sdk::ulong_t NumberOfCounters;
    ETW_PMC_COUNTER_OWNER CounterOwners[1];
};

// ---- class 27 -----------------------------------------------------------------------------------------
/// One record of class 27's chain; ULONG ProfileSources[ProfileSourceCount] and USHORT
/// HookIds[HookIdCount] follow it.
struct ETW_PMC_SESSION_INFO {
    sdk::ulong_t NextEntryOffset;
    std::uint16_t LoggerId;
    std::uint16_t Reserved;
    sdk::ulong_t ProfileSourceCount;
    sdk::ulong_t HookIdCount;
};

// ---- class 28 -----------------------------------------------------------------------------------------
enum ETW_CONTEXT_REGISTER_TYPES : int {
    EtwContextRegisterTypeNone = 0,
    EtwContextRegisterTypeControl = 0x1,
    EtwContextRegisterTypeInteger = 0x2,
};
/// Class 28, followed by up to 8 CLASSIC_EVENT_IDs; the kernel accepts only RegisterTypes = Control |
/// Integer (3).
struct TRACE_CONTEXT_REGISTER_INFO {
    ETW_CONTEXT_REGISTER_TYPES RegisterTypes;
    sdk::ulong_t Reserved;
};

static_assert(sizeof(TRACE_PERIODIC_CAPTURE_STATE_INFO) == 8);
static_assert(sizeof(TRACE_STACK_CACHING_INFO) == 12);
static_assert(sizeof(ETW_PMC_COUNTER_OWNER) == 12);
static_assert(sizeof(ETW_PMC_COUNTER_OWNERSHIP_STATUS) == 20);
static_assert(sizeof(ETW_PMC_SESSION_INFO) == 16);
static_assert(sizeof(TRACE_CONTEXT_REGISTER_INFO) == 8);

} // namespace compat
ETWCTL_END_NAMESPACE
