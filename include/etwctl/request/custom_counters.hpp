// SPDX-License-Identifier: MIT
// etwctl/request/custom_counters.hpp - the kernel requests that add and remove a custom hardware counter
// (a profile source of the caller's own design), byte for byte.
//
// No TRACE_INFO_CLASS wraps these: they are kernel EVENT_TRACE_INFORMATION_CLASS values sent through
// NtSetSystemInformation(SystemPerformanceTraceInformation = 0x1F), Windows 10 1803 (RS4) and later.
// Sources: phnt ntexapi.h (EVENT_TRACE_INFORMATION_CLASS, EVENT_TRACE_PROFILE_ADD_INFORMATION{,_V2,_V3},
// EVENT_TRACE_PROFILE_REMOVE_INFORMATION; https://github.com/winsiderss/systeminformer, phnt/include),
// and the offsets the kernel's own symbols give for _EVENT_TRACE_PROFILE_ADD_INFORMATION (Windows 10
// 2004 / 20H2 / Windows 11: Version @4, V2 @8 (8 bytes), CpuInfoHierarchy @0x10, InitialInterval @0x1C,
// Persist @0x20, ProfileSourceDescription @0x22; published e.g. by the "sdkgen" type dumps).
//
//   EVENT_TRACE_PROFILE_ADD_INFORMATION (class 0x15)                          sent as 0x120 bytes
//     0x00 ULONG  EventTraceInformationClass = 0x15
//     0x04 UCHAR  Version (2 or 3)            0x05 3 bytes zero
//     0x08 the V2 / V3 union, 8 bytes (Intel: 6 UCHARs; AMD V2: 2 UCHARs; AMD V3: USHORT + 6 UCHARs;
//          ARM: ULONG PerfEvtType, UCHAR AllowsHalt); unused bytes zero
//     0x10 ULONG  CpuInfoHierarchy[3]         (0xFFFFFFFF x 3: every processor)
//     0x1C ULONG  InitialInterval
//     0x20 BOOLEAN Persist                    0x21 1 byte zero
//     0x22 WCHAR  ProfileSourceDescription[127], NUL-terminated, zero-filled
//   EVENT_TRACE_PROFILE_REMOVE_INFORMATION (class 0x16)                       20 bytes
//     0x00 ULONG EventTraceInformationClass = 0x16; 0x04 ULONG ProfileSource; 0x08 ULONG CpuInfoHierarchy[3]
//
// Choice (docs/choices.md): the add request always has the fixed 0x120-byte shape with a 127-WCHAR
// description, the shape the one public working user (a Tracy profiler fork that registers its own
// counters on Windows 10 1803+) sends. The kernel's own size checks are not public; a variable-length
// request would be a guess that no user has tested.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "etwctl/config.hpp"
#include "etwctl/kernel/concept.hpp"

ETWCTL_BEGIN_NAMESPACE

/// The kernel classes (phnt EventTraceProfileSourceAddInformation / EventTraceProfileSourceRemoveInformation).
inline constexpr auto profile_source_add_class = event_trace_information_class::profile_source_add;
inline constexpr auto profile_source_remove_class = event_trace_information_class::profile_source_remove;

/// EVENT_TRACE_PROFILE_ADD_INFORMATION_VERSIONS (phnt): 2 and 3 exist.
inline constexpr std::uint8_t profile_add_version_2 = 2;
inline constexpr std::uint8_t profile_add_version_3 = 3;

/// Description capacity of the add request, in UTF-16 units including the NUL.
inline constexpr std::size_t profile_add_description_capacity = 127;
/// The longest description etwctl sends (one unit is the NUL).
inline constexpr std::size_t profile_add_description_max = profile_add_description_capacity - 1;

/// CpuInfoHierarchy of every processor.
inline constexpr std::uint32_t profile_add_all_processors = 0xFFFFFFFFU;

/// EVENT_TRACE_PROFILE_ADD_INFORMATION as sent: every byte is a named member (no implicit padding), so
/// a value-initialized request has defined bytes throughout.
struct kernel_profile_add_request {
    std::uint32_t information_class = static_cast<std::uint32_t>(profile_source_add_class);
    std::uint8_t version = profile_add_version_2;
    std::uint8_t reserved0[3] = {};
    std::uint8_t counter[8] = {}; ///< the V2 / V3 union
    std::uint32_t cpu_info_hierarchy[3] = {profile_add_all_processors, profile_add_all_processors,
                                           profile_add_all_processors};
    std::uint32_t initial_interval = 0;
    std::uint8_t persist = 0;
    std::uint8_t reserved1 = 0;
    char16_t description[profile_add_description_capacity] = {};
};
static_assert(sizeof(kernel_profile_add_request) == 0x120);
static_assert(offsetof(kernel_profile_add_request, version) == 0x04);
static_assert(offsetof(kernel_profile_add_request, counter) == 0x08);
static_assert(offsetof(kernel_profile_add_request, cpu_info_hierarchy) == 0x10);
static_assert(offsetof(kernel_profile_add_request, initial_interval) == 0x1C);
static_assert(offsetof(kernel_profile_add_request, persist) == 0x20);
static_assert(offsetof(kernel_profile_add_request, description) == 0x22);

/// Offset of the description and the lengths the kernel accepts: 36..544 bytes (EtwSetPerformanceTraceInformation
/// refuses others with STATUS_INFO_LENGTH_MISMATCH; public decompiled listings): the head and the NUL at least,
/// a 255-WCHAR description at most.
inline constexpr std::size_t profile_add_description_offset = 0x22;
inline constexpr std::size_t profile_add_min_length = profile_add_description_offset + 2;
inline constexpr std::size_t profile_add_max_length = 544;
static_assert(profile_add_min_length == 36 && sizeof(kernel_profile_add_request) <= profile_add_max_length);

/// EVENT_TRACE_PROFILE_REMOVE_INFORMATION.
struct kernel_profile_remove_request {
    std::uint32_t information_class = static_cast<std::uint32_t>(profile_source_remove_class);
    std::uint32_t profile_source = 0;
    std::uint32_t cpu_info_hierarchy[3] = {profile_add_all_processors, profile_add_all_processors,
                                           profile_add_all_processors};
};
static_assert(sizeof(kernel_profile_remove_request) == 20);
static_assert(offsetof(kernel_profile_remove_request, profile_source) == 4);
static_assert(offsetof(kernel_profile_remove_request, cpu_info_hierarchy) == 8);

ETWCTL_END_NAMESPACE
