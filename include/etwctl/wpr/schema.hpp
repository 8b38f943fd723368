// SPDX-License-Identifier: MIT
// etwctl/wpr/schema.hpp - WPR's profile schema, WPRControlProfiles.xsd (shipped with the Windows
// Performance Toolkit; the copy read is about 2022, a public copy is in github.com/ktjjang/WPA), as
// constexpr tables: for each element type its attributes (name, value type, required) and its content
// model (the children in the schema's order, each with its minimum and maximum count). validate.hpp
// walks a document against these tables; nothing else knows the schema.
//
// The keyword and stack enumerations are not repeated here: they are names/wpr.hpp's tables.
// Types are named after the schema's (SystemCollectorType -> system_collector, anonymous types after
// their element). Opt-in, as all of etwctl/wpr/; this header itself allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "etwctl/config.hpp"

ETWCTL_BEGIN_NAMESPACE
namespace wpr::schema {

/// The simple types of the schema's attributes.
enum class value_kind : std::uint8_t {
    text,             ///< xs:string
    id,               ///< IdType: at least one character, no ':' and no white space
    boolean,          ///< xs:boolean: true, false, 1, 0
    float_number,     ///< xs:float
    decimal,          ///< xs:decimal
    integer,          ///< xs:integer
    u8,               ///< xs:unsignedByte
    u16_min1,         ///< SimpleValueType: unsignedShort, at least 1
    u32,              ///< xs:unsignedInt
    u32_min1,         ///< MaximumBufferSpace: 1..4294967295
    file_max,         ///< FileMaxValue: 0..16
    counter_interval, ///< CounterIntervalType: 1221..2147483647
    timeout,          ///< CaptureStateTimeoutValue: 0..4294967 or "infinite"
    delay,            ///< SimpleDelayValueType: 1..3600
    hex_or_dec,       ///< HexOrDecValue: (0[xX])?[a-fA-F0-9]+
    custom_keyword,   ///< SystemCustomKeywordAttributeType: 0x[a-fA-F0-9]{1,8}
    pool_tag,         ///< SystemPoolTagAttributeType: 1..4 characters
    transition_tag,   ///< TransitionTagType: none of \ / : * ? | form feed > "
    choice,           ///< one of an enumeration's values (attribute_rule::values)
    keyword_name,     ///< SystemKeywordEnumeration (names/wpr.hpp)
    stack_name,       ///< SystemStackEnumeration (names/wpr.hpp)
};

struct enumeration {
    std::string_view const* values = nullptr;
    std::size_t count = 0;
};
template <std::size_t N>
constexpr enumeration enum_of(std::string_view const (&v)[N]) noexcept {
    return {v, N};
}

struct attribute_rule {
    std::string_view name;
    value_kind kind = value_kind::text;
    bool required = false;
    enumeration values{};
};

/// The element types. none ends a content model's alternatives.
enum class type : std::uint8_t {
    none,
    root,
    profiles,
    system_collector,
    event_collector,
    heap_event_collector,
    hypervisor_event_collector,
    buffer_size,
    buffers,
    stack_caching,
    maximum_file_size,
    file_max,
    flush_value,     ///< FlushTimer, FlushThreshold
    buffers_per_cpu,
    system_provider,
    system_keywords,
    system_keyword,
    custom_keyword,
    capture_state_system_keywords,
    capture_state_system_keyword,
    capture_state_custom_keyword,
    stacks,
    stack,
    custom_stack,
    pool_tags,
    pool_tag,
    micro_architectural_config,
    micro_architectural_config_id,
    profile_sources,
    profile_source,
    hardware_counter,
    hardware_counter_id,
    counters,
    value_text,      ///< an element with a required string Value (Counter, Keyword of an EventProvider, ...)
    events,
    sampled_counters,
    sampled_counter,
    last_branch,
    last_branch_filters,
    last_branch_filter_out,
    processor_trace,
    processor_trace_buffer_size,
    processor_trace_code_mode,
    event_provider,
    event_provider_keywords,
    capture_state_event_keywords,
    event_id_filter,
    event_id,
    names_filter,
    keyword_level_filter,
    custom_filter,
    heap_event_provider,
    heap_process_ids,
    heap_process_id,
    profile,
    problem_categories,
    collectors,
    system_collector_id,
    system_provider_id,
    event_providers,
    event_provider_id,
    event_collector_id,
    heap_event_collector_id,
    heap_event_providers,
    heap_event_provider_id,
    hypervisor_event_collector_id,
    trace_merge_properties,
    trace_merge_property,
    optional_boolean, ///< DeletePreMergedTraceFiles, FileCompression, InjectOnly, SkipMerge
    custom_events,
    custom_event,
    on_off_transition_configurations,
    on_off_transition_configuration,
    required_boolean, ///< PrepareSystem
    simple_value,     ///< NumberOfRuns
    delay_value,      ///< PostBootDelay, WakeupDelay
    transition_tag,
    count_
};

inline constexpr std::uint16_t unbounded = 0xFFFF;

/// One place in a content model: an element (or a choice of two) and how often it may occur there.
struct particle {
    std::string_view name;
    type of = type::none;
    std::uint16_t min = 0;
    std::uint16_t max = 1;
    std::string_view alt_name{}; ///< a choice's second element (Stacks: Stack or CustomStack)
    type alt = type::none;
};

struct type_rule {
    std::string_view xsd_name;
    attribute_rule const* attributes = nullptr;
    std::size_t attribute_count = 0;
    particle const* content = nullptr;
    std::size_t content_count = 0;
    bool value_key = false; ///< xs:key on the children's @Value: no value twice in one list
};

namespace detail {
template <std::size_t A, std::size_t C>
constexpr type_rule rule_of(std::string_view xsd, attribute_rule const (&a)[A], particle const (&c)[C], bool key = false) {
    return {xsd, a, A, c, C, key};
}
template <std::size_t A>
constexpr type_rule attributes_only(std::string_view xsd, attribute_rule const (&a)[A]) {
    return {xsd, a, A, nullptr, 0, false};
}
template <std::size_t C>
constexpr type_rule content_only(std::string_view xsd, particle const (&c)[C], bool key = false) {
    return {xsd, nullptr, 0, c, C, key};
}
} // namespace detail

namespace tables {
using detail::attributes_only;
using detail::content_only;
using detail::rule_of;
// clang-format off
inline constexpr std::string_view operation_values[] = {"Set", "Add", "Remove"};
inline constexpr std::string_view name_operation_values[] = {"Set", "Add"};
inline constexpr std::string_view logging_mode_values[] = {"File", "Memory"};
inline constexpr std::string_view detail_level_values[] = {"Light", "Verbose"};
inline constexpr std::string_view file_mode_values[] = {"Circular", "Sequential"};
inline constexpr std::string_view rundown_values[] = {"Start", "Stop"};
inline constexpr std::string_view architecture_values[] = {"ARM", "INTEL", "AMD"};
inline constexpr std::string_view last_branch_filter_values[] = {"ConditionalBranches", "NearRelativeCalls", "NearIndirectCalls",
    "NearReturns", "NearIndirectJumps", "FarBranches", "Kernel", "User", "StackMode"};
inline constexpr std::string_view code_mode_values[] = {"User", "Kernel", "UserKernel"};
inline constexpr std::string_view pt_buffer_size_values[] = {"4", "8", "16", "32"};
inline constexpr std::string_view custom_event_values[] = {"None", "ImageId", "BuildInfo", "VolumeMapping", "EventMetadata",
    "PerfTrackMetadata", "WinSAT", "NetworkInterface"};
inline constexpr std::string_view on_off_values[] = {"On/Off - Boot", "On/Off - FastStartup", "On/Off - Shutdown",
    "On/Off - RebootCycle", "On/Off - Standby/Resume", "On/Off - Hibernate/Resume"};

inline constexpr attribute_rule op{"Operation", value_kind::choice, false, enum_of(operation_values)};
inline constexpr attribute_rule name_op{"Operation", value_kind::choice, false, enum_of(name_operation_values)};

inline constexpr attribute_rule root_attrs[] = {{"Version", value_kind::float_number, true}, {"Author"}, {"Team"},
    {"Copyright"}, {"Company"}, {"Comments"}, {"Tag"}};
inline constexpr particle root_content[] = {{"Profiles", type::profiles, 0, 1},
    {"TraceMergeProperties", type::trace_merge_properties, 0, unbounded},
    {"OnOffTransitionConfigurations", type::on_off_transition_configurations, 0, 1}};

inline constexpr particle profiles_content[] = {
    {"SystemCollector", type::system_collector, 0, unbounded}, {"EventCollector", type::event_collector, 0, unbounded},
    {"HeapEventCollector", type::heap_event_collector, 0, unbounded},
    {"HypervisorEventCollector", type::hypervisor_event_collector, 0, unbounded},
    {"SystemProvider", type::system_provider, 0, unbounded},
    {"MicroArchitecturalConfig", type::micro_architectural_config, 0, unbounded},
    {"HardwareCounter", type::hardware_counter, 0, unbounded}, {"EventProvider", type::event_provider, 0, unbounded},
    {"HeapEventProvider", type::heap_event_provider, 0, unbounded}, {"Profile", type::profile, 1, unbounded}};

// collectors
inline constexpr attribute_rule system_collector_attrs[] = {{"Id", value_kind::id, true}, {"Base"}, {"Name"},
    {"Realtime", value_kind::boolean}, {"HostGuestCorrelation", value_kind::boolean}};
inline constexpr attribute_rule event_collector_attrs[] = {{"Id", value_kind::id, true}, {"Base"}, {"Name", value_kind::text, true},
    {"Realtime", value_kind::boolean}, {"HostGuestCorrelation", value_kind::boolean}, {"Private", value_kind::boolean},
    {"ProcessPrivate", value_kind::boolean}, {"Secure", value_kind::boolean}};
inline constexpr attribute_rule heap_event_collector_attrs[] = {{"Id", value_kind::id, true}, {"Base"},
    {"Name", value_kind::text, true}, {"Realtime", value_kind::boolean}, {"HostGuestCorrelation", value_kind::boolean},
    {"Secure", value_kind::boolean}};
inline constexpr attribute_rule hypervisor_event_collector_attrs[] = {{"Id", value_kind::id, true}, {"Base"},
    {"Name", value_kind::text, true}, {"Realtime", value_kind::boolean}, {"HostGuestCorrelation", value_kind::boolean},
    {"MergeAlone", value_kind::boolean}};
inline constexpr particle buffer_content[] = {{"BufferSize", type::buffer_size}, {"Buffers", type::buffers},
    {"StackCaching", type::stack_caching}, {"MaximumFileSize", type::maximum_file_size}, {"FileMax", type::file_max},
    {"FlushTimer", type::flush_value}, {"FlushThreshold", type::flush_value}};
inline constexpr particle hypervisor_buffer_content[] = {{"BufferSize", type::buffer_size},
    {"BuffersPerCPU", type::buffers_per_cpu}, {"MaximumFileSize", type::maximum_file_size}, {"FileMax", type::file_max}};
inline constexpr attribute_rule buffer_size_attrs[] = {op, {"Value", value_kind::u32, true}};
inline constexpr attribute_rule buffers_attrs[] = {op, {"Value", value_kind::decimal, true},
    {"PercentageOfTotalMemory", value_kind::boolean}, {"MinimumRundownSpace", value_kind::u16_min1},
    {"MaximumBufferSpace", value_kind::u32_min1}};
inline constexpr attribute_rule stack_caching_attrs[] = {{"BucketCount", value_kind::u32, true}, {"CacheSize", value_kind::u32, true}};
inline constexpr attribute_rule maximum_file_size_attrs[] = {op, {"Value", value_kind::u32, true},
    {"FileMode", value_kind::choice, false, enum_of(file_mode_values)}};
inline constexpr attribute_rule file_max_attrs[] = {op, {"Value", value_kind::file_max, true}};
inline constexpr attribute_rule flush_value_attrs[] = {op, {"Value", value_kind::u32, true}};
inline constexpr attribute_rule buffers_per_cpu_attrs[] = {op, {"Value", value_kind::decimal, true}};

// system provider
inline constexpr attribute_rule system_provider_attrs[] = {{"Id", value_kind::id, true}, {"Base"},
    {"SuppressHighVolume", value_kind::boolean}};
inline constexpr particle system_provider_content[] = {{"Keywords", type::system_keywords, 0, unbounded},
    {"CaptureStateOnStart", type::capture_state_system_keywords, 0, unbounded},
    {"CaptureStateOnSave", type::capture_state_system_keywords, 0, unbounded},
    {"CaptureStateOnDemand", type::capture_state_system_keywords, 0, unbounded}, {"Stacks", type::stacks, 0, unbounded},
    {"PoolTags", type::pool_tags, 0, unbounded}};
inline constexpr attribute_rule op_only[] = {op};
inline constexpr particle system_keywords_content[] = {{"Keyword", type::system_keyword, 1, unbounded},
    {"CustomKeyword", type::custom_keyword, 0, unbounded}};
inline constexpr attribute_rule system_keyword_attrs[] = {{"Value", value_kind::keyword_name, true}, {"Strict", value_kind::boolean}};
inline constexpr attribute_rule custom_keyword_attrs[] = {{"Value", value_kind::custom_keyword, true}, {"Strict", value_kind::boolean}};
inline constexpr particle capture_state_system_keywords_content[] = {
    {"Keyword", type::capture_state_system_keyword, 1, unbounded},
    {"CustomKeyword", type::capture_state_custom_keyword, 0, unbounded}};
inline constexpr attribute_rule capture_state_system_keyword_attrs[] = {{"Value", value_kind::keyword_name, true},
    {"Strict", value_kind::boolean}, {"RundownFlag", value_kind::choice, true, enum_of(rundown_values)}};
inline constexpr attribute_rule capture_state_custom_keyword_attrs[] = {{"Value", value_kind::custom_keyword, true},
    {"Strict", value_kind::boolean}, {"RundownFlag", value_kind::choice, true, enum_of(rundown_values)}};
inline constexpr particle stacks_content[] = {{"Stack", type::stack, 1, unbounded, "CustomStack", type::custom_stack}};
inline constexpr attribute_rule stack_attrs[] = {{"Value", value_kind::stack_name, true}, {"Strict", value_kind::boolean}};
inline constexpr attribute_rule custom_stack_attrs[] = {{"Value", value_kind::hex_or_dec, true}};
inline constexpr particle pooltags_content[] = {{"PoolTag", type::pool_tag, 1, 4}};
inline constexpr attribute_rule pooltag_attrs[] = {{"Value", value_kind::pool_tag, true}};

// hardware counters
inline constexpr attribute_rule micro_architectural_config_attrs[] = {{"Id", value_kind::id, true}, {"Base"},
    {"Strict", value_kind::boolean}};
inline constexpr particle micro_architectural_config_content[] = {{"ProfileSources", type::profile_sources, 0, unbounded}};
inline constexpr attribute_rule value_id_attrs[] = {{"Value", value_kind::id, true}};
inline constexpr attribute_rule profile_sources_attrs[] = {
    {"Architecture", value_kind::choice, true, enum_of(architecture_values)}, {"Family", value_kind::integer},
    {"Model", value_kind::integer}, {"Stepping", value_kind::integer}, {"Description"}};
inline constexpr particle profile_sources_content[] = {{"ProfileSource", type::profile_source, 1, unbounded}};
inline constexpr attribute_rule profile_source_attrs[] = {{"Name", value_kind::text, true},
    {"Event", value_kind::hex_or_dec, true}, {"Unit", value_kind::hex_or_dec}, {"Interval", value_kind::hex_or_dec},
    {"AllowsHalt", value_kind::boolean}, {"Persist", value_kind::boolean}, {"ExtendedBits", value_kind::hex_or_dec}};
inline constexpr attribute_rule hardware_counter_attrs[] = {{"Id", value_kind::id, true}, {"Base"}, {"Strict", value_kind::boolean}};
inline constexpr particle hardware_counter_content[] = {
    {"MicroArchitecturalConfigId", type::micro_architectural_config_id, 0, 1}, {"Counters", type::counters, 0, unbounded},
    {"Events", type::events, 0, unbounded}, {"SampledCounters", type::sampled_counters, 0, unbounded},
    {"LastBranch", type::last_branch, 0, 1}, {"ProcessorTrace", type::processor_trace, 0, 1}};
inline constexpr particle hardware_counter_id_content[] = {{"Counters", type::counters, 0, unbounded},
    {"Events", type::events, 0, unbounded}, {"SampledCounters", type::sampled_counters, 0, unbounded},
    {"LastBranch", type::last_branch, 0, 1}, {"ProcessorTrace", type::processor_trace, 0, 1}};
inline constexpr particle counters_content[] = {{"Counter", type::value_text, 1, unbounded}};
inline constexpr attribute_rule value_text_attrs[] = {{"Value", value_kind::text, true}};
inline constexpr particle events_content[] = {{"Event", type::stack, 1, 4}};
inline constexpr particle sampled_counters_content[] = {{"SampledCounter", type::sampled_counter, 1, unbounded}};
inline constexpr attribute_rule sampled_counter_attrs[] = {{"Value", value_kind::text, true},
    {"Interval", value_kind::counter_interval}};
inline constexpr particle last_branch_content[] = {{"Events", type::events, 0, unbounded},
    {"LastBranchFilters", type::last_branch_filters, 0, unbounded}};
inline constexpr particle last_branch_filters_content[] = {{"LastBranchFilterOut", type::last_branch_filter_out, 0, unbounded}};
inline constexpr attribute_rule last_branch_filter_out_attrs[] = {
    {"Value", value_kind::choice, true, enum_of(last_branch_filter_values)}};
inline constexpr particle processor_trace_content[] = {{"BufferSize", type::processor_trace_buffer_size, 1, 1},
    {"CodeMode", type::processor_trace_code_mode, 1, 1}, {"Events", type::events, 0, unbounded}};
inline constexpr attribute_rule processor_trace_buffer_size_attrs[] = {
    {"Value", value_kind::choice, true, enum_of(pt_buffer_size_values)}};
inline constexpr attribute_rule processor_trace_code_mode_attrs[] = {
    {"Value", value_kind::choice, true, enum_of(code_mode_values)}};

// event providers
inline constexpr attribute_rule event_provider_attrs[] = {{"Id", value_kind::id, true}, {"Name", value_kind::text, true},
    {"Base"}, {"NonPagedMemory", value_kind::boolean}, {"Stack", value_kind::boolean}, {"SID", value_kind::boolean},
    {"TSID", value_kind::boolean}, {"Level", value_kind::u8}, {"CaptureStateOnly", value_kind::boolean},
    {"Strict", value_kind::boolean}, {"ProcessExeFilter"}, {"EventKey", value_kind::boolean},
    {"ExcludeInPrivate", value_kind::boolean}, {"EnableSilos", value_kind::boolean}, {"ContainerId", value_kind::boolean}};
inline constexpr particle event_provider_content[] = {{"Keywords", type::event_provider_keywords, 0, unbounded},
    {"CaptureStateOnStart", type::capture_state_event_keywords, 0, unbounded},
    {"CaptureStateOnSave", type::capture_state_event_keywords, 0, unbounded},
    {"CaptureStateOnDemand", type::capture_state_event_keywords, 0, unbounded}, {"Stacks", type::stacks, 0, unbounded},
    {"EventFilters", type::event_id_filter, 0, 1}, {"StackFilters", type::event_id_filter, 0, 1},
    {"EventNameFilters", type::names_filter, 0, 1}, {"StackEventNameFilters", type::names_filter, 0, 1},
    {"StackKeywordLevelFilter", type::keyword_level_filter, 0, 1}, {"CustomFilter", type::custom_filter, 0, 1}};
inline constexpr particle event_provider_keywords_content[] = {{"Keyword", type::value_text, 1, unbounded}};
inline constexpr attribute_rule capture_state_event_keywords_attrs[] = {op, {"Timeout", value_kind::timeout}};
inline constexpr attribute_rule event_id_filter_attrs[] = {{"FilterIn", value_kind::boolean, true}, op};
inline constexpr particle event_id_filter_content[] = {{"EventId", type::event_id, 0, 64}};
inline constexpr attribute_rule event_id_attrs[] = {{"Value", value_kind::hex_or_dec, true}};
inline constexpr attribute_rule names_filter_attrs[] = {{"FilterIn", value_kind::boolean, true}, {"Level", value_kind::u8}, name_op};
inline constexpr particle names_filter_content[] = {{"Keyword", type::value_text, 0, unbounded},
    {"EventName", type::value_text, 0, 64}};
inline constexpr particle keyword_level_filter_content[] = {{"Keyword", type::value_text, 0, unbounded}};
inline constexpr attribute_rule custom_filter_attrs[] = {{"Value", value_kind::id, true}, {"Type", value_kind::hex_or_dec, true}};
inline constexpr attribute_rule heap_event_provider_attrs[] = {{"Id", value_kind::id, true}, {"Base"}};
inline constexpr particle heap_event_provider_content[] = {{"HeapProcessIds", type::heap_process_ids, 0, 1}};
inline constexpr particle heap_process_ids_content[] = {{"HeapProcessId", type::heap_process_id, 1, 2}};
inline constexpr attribute_rule heap_process_id_attrs[] = {{"Value", value_kind::u32, true}};

// profiles
inline constexpr attribute_rule profile_attrs[] = {{"Id", value_kind::id, true}, {"Name", value_kind::id, true},
    {"Description", value_kind::text, true}, {"Base"},
    {"LoggingMode", value_kind::choice, true, enum_of(logging_mode_values)},
    {"DetailLevel", value_kind::choice, true, enum_of(detail_level_values)}, {"Internal", value_kind::boolean},
    {"Default", value_kind::boolean}};
inline constexpr particle profile_content[] = {{"ProblemCategories", type::problem_categories, 0, unbounded},
    {"Collectors", type::collectors, 0, unbounded}, {"TraceMergeProperties", type::trace_merge_properties, 0, 1}};
inline constexpr particle problem_categories_content[] = {{"ProblemCategory", type::value_text, 1, unbounded}};
inline constexpr particle collectors_content[] = {{"SystemCollectorId", type::system_collector_id, 0, 1},
    {"EventCollectorId", type::event_collector_id, 0, unbounded},
    {"HeapEventCollectorId", type::heap_event_collector_id, 0, unbounded},
    {"HypervisorEventCollectorId", type::hypervisor_event_collector_id, 0, unbounded}};
inline constexpr particle system_collector_id_content[] = {{"BufferSize", type::buffer_size}, {"Buffers", type::buffers},
    {"StackCaching", type::stack_caching}, {"MaximumFileSize", type::maximum_file_size}, {"FileMax", type::file_max},
    {"FlushTimer", type::flush_value}, {"FlushThreshold", type::flush_value},
    {"SystemProviderId", type::system_provider_id, 0, 1}, {"SystemProvider", type::system_provider, 0, 1},
    {"HardwareCounterId", type::hardware_counter_id, 0, 1}, {"HardwareCounter", type::hardware_counter, 0, 1},
    {"EventProviders", type::event_providers, 0, unbounded}};
inline constexpr particle system_provider_id_content[] = {{"Keywords", type::system_keywords, 0, unbounded},
    {"CaptureStateOnStart", type::capture_state_system_keywords, 0, unbounded},
    {"CaptureStateOnSave", type::capture_state_system_keywords, 0, unbounded}, {"Stacks", type::stacks, 0, unbounded},
    {"PoolTags", type::pool_tags, 0, unbounded}};
inline constexpr particle event_providers_content[] = {{"EventProviderId", type::event_provider_id, 0, unbounded},
    {"EventProvider", type::event_provider, 0, unbounded}};
inline constexpr particle event_provider_id_content[] = {{"Keywords", type::event_provider_keywords, 0, unbounded},
    {"CaptureStateOnStart", type::capture_state_event_keywords, 0, unbounded},
    {"CaptureStateOnSave", type::capture_state_event_keywords, 0, unbounded}};
inline constexpr particle event_collector_id_content[] = {{"BufferSize", type::buffer_size}, {"Buffers", type::buffers},
    {"StackCaching", type::stack_caching}, {"MaximumFileSize", type::maximum_file_size}, {"FileMax", type::file_max},
    {"FlushTimer", type::flush_value}, {"FlushThreshold", type::flush_value},
    {"EventProviders", type::event_providers, 0, unbounded}};
inline constexpr particle heap_event_collector_id_content[] = {{"BufferSize", type::buffer_size},
    {"Buffers", type::buffers}, {"StackCaching", type::stack_caching}, {"MaximumFileSize", type::maximum_file_size},
    {"FileMax", type::file_max}, {"FlushTimer", type::flush_value}, {"FlushThreshold", type::flush_value},
    {"HeapEventProviders", type::heap_event_providers, 0, unbounded}};
inline constexpr particle heap_event_providers_content[] = {{"HeapEventProviderId", type::heap_event_provider_id, 0, unbounded},
    {"HeapEventProvider", type::heap_event_provider, 0, unbounded}};
inline constexpr particle hypervisor_event_collector_id_content[] = {{"BufferSize", type::buffer_size},
    {"BuffersPerCPU", type::buffers_per_cpu}, {"MaximumFileSize", type::maximum_file_size}, {"FileMax", type::file_max},
    {"EventProviders", type::event_providers, 0, unbounded}};

// trace merging and on/off transitions
inline constexpr particle trace_merge_properties_content[] = {{"TraceMergeProperty", type::trace_merge_property, 1, unbounded}};
inline constexpr attribute_rule trace_merge_property_attrs[] = {{"Id", value_kind::id, true}, {"Name", value_kind::text, true}, {"Base"}};
inline constexpr particle trace_merge_property_content[] = {{"DeletePreMergedTraceFiles", type::optional_boolean},
    {"FileCompression", type::optional_boolean}, {"InjectOnly", type::optional_boolean},
    {"SkipMerge", type::optional_boolean}, {"CustomEvents", type::custom_events}};
inline constexpr attribute_rule optional_boolean_attrs[] = {{"Value", value_kind::boolean}};
inline constexpr particle custom_events_content[] = {{"CustomEvent", type::custom_event, 1, unbounded}};
inline constexpr attribute_rule custom_event_attrs[] = {{"Value", value_kind::choice, false, enum_of(custom_event_values)}};
inline constexpr particle on_off_configurations_content[] = {
    {"OnOffTransitionConfiguration", type::on_off_transition_configuration, 1, 6}};
inline constexpr attribute_rule on_off_configuration_attrs[] = {{"Id", value_kind::id, true}, {"Name", value_kind::text, true},
    {"Type", value_kind::choice, true, enum_of(on_off_values)}};
inline constexpr particle on_off_configuration_content[] = {{"PrepareSystem", type::required_boolean, 1, 1},
    {"NumberOfRuns", type::simple_value, 1, 1}, {"PostBootDelay", type::delay_value, 1, 1},
    {"WakeupDelay", type::delay_value, 1, 1}, {"TransitionTag", type::transition_tag, 1, 1}};
inline constexpr attribute_rule required_boolean_attrs[] = {{"Value", value_kind::boolean, true}};
inline constexpr attribute_rule simple_value_attrs[] = {{"Value", value_kind::u16_min1, true}};
inline constexpr attribute_rule delay_value_attrs[] = {{"Value", value_kind::delay, true}};
inline constexpr attribute_rule transition_attrs[] = {{"Value", value_kind::transition_tag, true}};

/// Indexed by schema::type.
inline constexpr type_rule rules[] = {
    {"(none)"},
    rule_of("WindowsPerformanceRecorder", root_attrs, root_content),
    content_only("ProfilesType", profiles_content),
    rule_of("SystemCollectorType", system_collector_attrs, buffer_content),
    rule_of("EventCollectorType", event_collector_attrs, buffer_content),
    rule_of("HeapEventCollectorType", heap_event_collector_attrs, buffer_content),
    rule_of("HypervisorEventCollectorType", hypervisor_event_collector_attrs, hypervisor_buffer_content),
    attributes_only("BufferSizeType", buffer_size_attrs),
    attributes_only("BuffersType", buffers_attrs),
    attributes_only("StackCachingType", stack_caching_attrs),
    attributes_only("MaximumFileSizeType", maximum_file_size_attrs),
    attributes_only("FileMaxType", file_max_attrs),
    attributes_only("FlushTimerType", flush_value_attrs),
    attributes_only("BuffersPerCPUType", buffers_per_cpu_attrs),
    rule_of("SystemProviderType", system_provider_attrs, system_provider_content),
    rule_of("Keywords (SystemProvider)", op_only, system_keywords_content, true),
    attributes_only("SystemKeywordType", system_keyword_attrs),
    attributes_only("SystemCustomKeywordType", custom_keyword_attrs),
    rule_of("CaptureState (SystemProvider)", op_only, capture_state_system_keywords_content, true),
    attributes_only("CaptureStateSystemKeywordType", capture_state_system_keyword_attrs),
    attributes_only("CaptureStateSystemCustomKeywordType", capture_state_custom_keyword_attrs),
    rule_of("Stacks", op_only, stacks_content, true),
    attributes_only("SystemStackType", stack_attrs),
    attributes_only("CustomStackType", custom_stack_attrs),
    rule_of("PoolTags", op_only, pooltags_content, true),
    attributes_only("SystemPoolTagType", pooltag_attrs),
    rule_of("MicroArchitecturalConfigType", micro_architectural_config_attrs, micro_architectural_config_content),
    rule_of("MicroArchitecturalConfigIdType", value_id_attrs, micro_architectural_config_content),
    rule_of("ProfileSourcesType", profile_sources_attrs, profile_sources_content),
    attributes_only("ProfileSourceType", profile_source_attrs),
    rule_of("HardwareCounterType", hardware_counter_attrs, hardware_counter_content),
    rule_of("HardwareCounterIdType", value_id_attrs, hardware_counter_id_content),
    rule_of("Counters", op_only, counters_content, true),
    attributes_only("(Value)", value_text_attrs),
    rule_of("Events", op_only, events_content, true),
    rule_of("SampledCounters", op_only, sampled_counters_content, true),
    attributes_only("HardwareCounterSampledCounterType", sampled_counter_attrs),
    content_only("LastBranchGroupType", last_branch_content),
    rule_of("LastBranchFilterOutType", op_only, last_branch_filters_content),
    attributes_only("LastBranchFilterType", last_branch_filter_out_attrs),
    content_only("ProcessorTraceGroupType", processor_trace_content),
    attributes_only("ProcessorTraceBufferSizeType", processor_trace_buffer_size_attrs),
    attributes_only("ProcessorTraceCodeModeType", processor_trace_code_mode_attrs),
    rule_of("EventProviderType", event_provider_attrs, event_provider_content),
    rule_of("Keywords (EventProvider)", op_only, event_provider_keywords_content, true),
    rule_of("CaptureState (EventProvider)", capture_state_event_keywords_attrs, event_provider_keywords_content, true),
    rule_of("EventIdFilterType", event_id_filter_attrs, event_id_filter_content),
    attributes_only("EventIdType", event_id_attrs),
    rule_of("NamesFilterType", names_filter_attrs, names_filter_content),
    rule_of("KeywordLevelFilterType", names_filter_attrs, keyword_level_filter_content),
    attributes_only("CustomFilterType", custom_filter_attrs),
    rule_of("HeapEventProviderType", heap_event_provider_attrs, heap_event_provider_content),
    rule_of("HeapProcessIds", op_only, heap_process_ids_content),
    attributes_only("HeapProcessIdType", heap_process_id_attrs),
    rule_of("Profile", profile_attrs, profile_content),
    rule_of("ProblemCategories", op_only, problem_categories_content),
    rule_of("Collectors", op_only, collectors_content),
    rule_of("SystemCollectorIdType", value_id_attrs, system_collector_id_content),
    rule_of("SystemProviderIdType", value_id_attrs, system_provider_id_content),
    rule_of("EventProviders", op_only, event_providers_content),
    rule_of("EventProviderIdType", value_id_attrs, event_provider_id_content),
    rule_of("EventCollectorIdType", value_id_attrs, event_collector_id_content),
    rule_of("HeapEventCollectorIdType", value_id_attrs, heap_event_collector_id_content),
    rule_of("HeapEventProviders", op_only, heap_event_providers_content),
    rule_of("HeapEventProviderIdType", value_id_attrs, heap_event_provider_content),
    rule_of("HypervisorEventCollectorIdType", value_id_attrs, hypervisor_event_collector_id_content),
    content_only("TraceMergePropertiesType", trace_merge_properties_content),
    rule_of("TraceMergeProperty", trace_merge_property_attrs, trace_merge_property_content),
    attributes_only("(optional boolean)", optional_boolean_attrs),
    rule_of("CustomEvents", op_only, custom_events_content, true),
    attributes_only("TraceMergePropertiesCustomEventType", custom_event_attrs),
    content_only("OnOffTransitionConfigurationsType", on_off_configurations_content),
    rule_of("OnOffTransitionConfiguration", on_off_configuration_attrs, on_off_configuration_content),
    attributes_only("PrepareSystem", required_boolean_attrs),
    attributes_only("NumberOfRuns", simple_value_attrs),
    attributes_only("(delay)", delay_value_attrs),
    attributes_only("TransitionTag", transition_attrs),
};
// clang-format on
static_assert(sizeof(rules) / sizeof(rules[0]) == static_cast<std::size_t>(type::count_),
              "etwctl::wpr::schema: one rule per element type, in the enumeration's order");
} // namespace tables

[[nodiscard]] constexpr type_rule const& rule_for(type t) noexcept { return tables::rules[static_cast<std::size_t>(t)]; }

/// Attributes the schema does not have but WPR's docs document: a warning, not an error.
struct documented_attribute {
    std::string_view element;
    std::string_view attribute;
};
inline constexpr documented_attribute documented_only[] = {{"Profile", "Strict"}};

} // namespace wpr::schema
ETWCTL_END_NAMESPACE
