// SPDX-License-Identifier: MIT
// etwctl/typed/tags.hpp - the typed API's tags, one per information class:
//   etwctl::set<stack_tracing>(...), etwctl::query<version>(...), set<stack_caching>(...).
// Each names its class; what it can do (settable / queryable), its limits and its request come from
// its row in the class table (classes/info_classes.hpp); the signatures are in typed/set.hpp and
// typed/query.hpp, for every class alike.
#pragma once

#include <concepts>
#include <string_view>

#include "etwctl/classes/info_classes.hpp"
#include "etwctl/config.hpp"
#include "etwctl/detail/text.hpp"

ETWCTL_BEGIN_NAMESPACE

/// A tag names its class; what it can do (settable / queryable) and its row come from the table.
template <trace_info_class C>
struct trace_tag {
    static constexpr trace_info_class info_class = C;
    static constexpr trace_info_class_traits const& row = traits_of(C);
    static constexpr bool settable = static_cast<bool>(row.set);
    static constexpr bool queryable = static_cast<bool>(row.query);
};

/// A tag of the typed API: its class and its name (what the error messages print). One line per tag:
///   struct stack_tracing : named_trace_tag<trace_info_class::stack_tracing, "stack_tracing"> {};
template <trace_info_class C, fixed_string Name>
struct named_trace_tag : trace_tag<C> {
    static constexpr std::string_view name = Name.view();
};

struct stack_tracing : named_trace_tag<trace_info_class::stack_tracing, "stack_tracing"> {};
struct system_trace_enable_flags : named_trace_tag<trace_info_class::system_trace_enable_flags, "system_trace_enable_flags"> {};
struct sampled_profile_interval : named_trace_tag<trace_info_class::sampled_profile_interval, "sampled_profile_interval"> {};
struct profile_source_config : named_trace_tag<trace_info_class::profile_source_config, "profile_source_config"> {};
struct profile_source_list : named_trace_tag<trace_info_class::profile_source_list, "profile_source_list"> {};
struct pmc_event_list : named_trace_tag<trace_info_class::pmc_event_list, "pmc_event_list"> {};
struct pmc_counter_list : named_trace_tag<trace_info_class::pmc_counter_list, "pmc_counter_list"> {};
struct disallow_list : named_trace_tag<trace_info_class::set_disallow_list, "disallow_list"> {};
struct disallow_list_query : named_trace_tag<trace_info_class::disallow_list_query, "disallow_list_query"> {};
struct version : named_trace_tag<trace_info_class::version, "version"> {};

// The classes later releases added (16-28). Class 17 (TracePeriodicCaptureStateInfo) reports the
// system's periodic-capture limits. No kernel request exists for it (no NtTraceControl code queries
// periodic capture state): query<periodic_capture_state>(k) answers with the limits the kernel's handler
// enforces (a frequency of 0 or at least 5 s, at most 16 providers; docs/choices.md gives the sources
// and how certain each part is).
// Naming: the EventSetInformation class EventProviderBinaryTrackInfo already owns the tag
// `provider_binary_tracking` (per provider registration, no payload). TRACE_INFO_CLASS 18
// (TraceProviderBinaryTracking) is a different request on a different object: it switches binary
// tracking on or off for a whole trace session (NtTraceControl 0x29 with the logger id). Its tag is
// `session_binary_tracking`, named after what it acts on, so neither call can be mistaken for the other.
struct periodic_capture_state_list : named_trace_tag<trace_info_class::periodic_capture_state_list, "periodic_capture_state_list"> {};
struct periodic_capture_state : named_trace_tag<trace_info_class::periodic_capture_state, "periodic_capture_state"> {};
struct session_binary_tracking : named_trace_tag<trace_info_class::provider_binary_tracking, "session_binary_tracking"> {};
struct max_loggers : named_trace_tag<trace_info_class::max_loggers_query, "max_loggers"> {};
struct lbr_configuration : named_trace_tag<trace_info_class::lbr_configuration, "lbr_configuration"> {};
struct lbr_event_list : named_trace_tag<trace_info_class::lbr_event_list, "lbr_event_list"> {};
struct max_pmc_counters : named_trace_tag<trace_info_class::max_pmc_counter_query, "max_pmc_counters"> {};
struct stream_count : named_trace_tag<trace_info_class::stream_count, "stream_count"> {};
struct stack_caching : named_trace_tag<trace_info_class::stack_caching, "stack_caching"> {};
struct pmc_counter_owners : named_trace_tag<trace_info_class::pmc_counter_owners, "pmc_counter_owners"> {};
struct unified_stack_caching : named_trace_tag<trace_info_class::unified_stack_caching, "unified_stack_caching"> {};
struct pmc_session_information : named_trace_tag<trace_info_class::pmc_session_information, "pmc_session_information"> {};
struct context_register : named_trace_tag<trace_info_class::context_register, "context_register"> {};


#define ETWCTL_DETAIL_EVENT_TAG(tag, cls)                                                       \
    struct tag {                                                                                \
        static constexpr event_info_class info_class = event_info_class::cls;                   \
        static constexpr std::string_view name = #tag;                                          \
        static constexpr bool settable = true;                                                  \
        static constexpr bool queryable = false;                                                \
    };
ETWCTL_DETAIL_EVENT_TAG(provider_binary_tracking, provider_binary_track_info)
ETWCTL_DETAIL_EVENT_TAG(provider_traits, provider_set_traits)
ETWCTL_DETAIL_EVENT_TAG(use_descriptor_type, provider_use_descriptor_type)
#undef ETWCTL_DETAIL_EVENT_TAG

template <class C>
concept trace_info_tag = requires {
    { C::info_class } -> std::convertible_to<trace_info_class>;
};
template <class C>
concept event_info_tag = requires {
    { C::info_class } -> std::convertible_to<event_info_class>;
};
template <class C>
concept info_tag = trace_info_tag<C> || event_info_tag<C>;

ETWCTL_END_NAMESPACE
