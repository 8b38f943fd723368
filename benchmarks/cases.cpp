// The measured functions: for each path, a hand-written raw equivalent, the typed call and the compat
// call, each a non-inlined function with external linkage (benchmarks/check_codegen.sh disassembles
// them by name). Inputs come from kernel_double.cpp, so nothing here is constant-folded except what
// the library itself makes a compile-time constant.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <type_traits>

#include "bench_support.hpp"
#include "etwctl/compat.hpp"
#include "etwctl/enable_context.hpp"
#include "etwctl/hook_list.hpp"
#include "etwctl/kernel/ref.hpp"
#include "etwctl/names/groups.hpp"
#include "etwctl/profiler/guards.hpp"
#include "etwctl/typed/query.hpp"
#include "etwctl/typed/set.hpp"

#define ETWCTL_BENCH_FN [[gnu::noinline]]

namespace etwctl_bench {

using etwctl::hook_id;
using etwctl::session_handle;

// ---- the compile-time configuration -------------------------------------------------------------------

/// CSwitch + ReadyThread + SampledProfile (what stack_walk<"CSwitch+ReadyThread+Profile"> names).
inline constexpr etwctl::hook_list<3> stack_hooks{hook_id{0x0524}, hook_id{0x0532}, hook_id{0x0F2E}};
/// The same list declared with class template argument deduction. g++ 12 does not fold loads from an
/// `inline constexpr` variable initialised this way (brace elision through the deduction guide), so
/// the ids are loaded from the constant object instead of being immediates; clang folds both. Measured
/// separately ("typed_ctad") so the table shows the difference.
inline constexpr etwctl::hook_list stack_hooks_ctad{hook_id{0x0524}, hook_id{0x0532}, hook_id{0x0F2E}};
static_assert(std::is_same_v<decltype(stack_hooks_ctad), etwctl::hook_list<3> const>);

namespace {
/// The request the kernel receives, as little-endian bytes, computed by the compiler.
template <std::size_t N>
constexpr auto encoded(etwctl::kernel_id_list_request<N> const& req, std::size_t count) noexcept {
    std::array<std::uint8_t, 0x10 + 4 * N> b{};
    auto put = [&b](std::size_t off, std::uint64_t v, std::size_t bytes) {
        for (std::size_t i = 0; i < bytes; ++i) b[off + i] = static_cast<std::uint8_t>(v >> (8 * i));
    };
    put(0, req.header.information_class, 4);
    put(4, req.header.spare, 4);
    put(8, req.header.trace_handle, 8);
    for (std::size_t i = 0; i < count; ++i) put(0x10 + 4 * i, req.ids[i], 4);
    return b;
}

/// The request the typed call builds for a compile-time hook_list (the request layer's constexpr builder,
/// whichever way it names the information class).
template <std::size_t N>
constexpr auto hook_request(etwctl::hook_list<N> const& hooks) noexcept {
    if constexpr (requires { etwctl::detail::make_hook_request(std::uint32_t{0x06}, std::uint64_t{0xFFFF}, hooks); })
        return etwctl::detail::make_hook_request(std::uint32_t{0x06}, std::uint64_t{0xFFFF}, hooks);
    else
        return etwctl::detail::make_hook_request(etwctl::event_trace_information_class::stack_tracing, 0xFFFF, hooks);
}
} // namespace

// The whole request for the NT Kernel Logger is a compile-time constant, byte for byte.
static_assert(encoded(hook_request(stack_hooks), stack_hooks.size()) ==
              std::array<std::uint8_t, 0x1C>{0x06, 0, 0, 0,  0, 0, 0, 0,  0xFF, 0xFF, 0, 0, 0, 0, 0, 0,
                                             0x24, 0x05, 0, 0,  0x32, 0x05, 0, 0,  0x2E, 0x0F, 0, 0});
static_assert(etwctl::kernel_id_list_request<3>::length_for(stack_hooks.size()) == 0x1C);

// ---- hand-written raw equivalents: what a caller writes against NtSetSystemInformation directly ------------

namespace raw {
inline constexpr std::uint32_t system_performance_trace_information = 0x1F;

struct hook_request3 {
    std::uint32_t information_class;
    std::uint32_t spare;
    std::uint64_t trace_handle;
    std::uint32_t hook_ids[3];
};
struct hook_request256 {
    std::uint32_t information_class;
    std::uint32_t spare;
    std::uint64_t trace_handle;
    std::uint32_t hook_ids[runtime_events];
};
struct group_mask_request {
    std::uint32_t information_class;
    std::uint32_t spare;
    std::uint64_t trace_handle;
    std::uint32_t masks[8];
};
struct counter_request2 {
    std::uint32_t information_class;
    std::uint32_t spare;
    std::uint64_t trace_handle;
    std::uint32_t sources[2];
};
struct time_profile_request {
    std::uint32_t information_class;
    std::uint32_t interval;
};

/// The 31 group GUIDs as a plain array (index = group), for the linear-search baselines.
etwctl::guid group_guids[etwctl::kernel_group_count];
[[maybe_unused]] bool const group_guids_filled = [] {
    for (std::size_t i = 0; i < etwctl::kernel_group_count; ++i) group_guids[i] = etwctl::kernel_group_table[i].event_guid;
    return true;
}();

/// The best hand-written encoder we know: a perfect hash over the 31 group GUIDs (a multiplicative hash
/// of Data1, the multiplier hard-coded as found once), slots holding the GUID as two 64-bit words and the
/// hook id's high bits pre-shifted, empty slots filled with a GUID that hashes elsewhere (so no
/// empty-slot test: the compare alone says "known").
struct hash_slot {
    std::uint64_t lo, hi;
    std::uint32_t hook_high, unused;
};
inline constexpr std::uint32_t hash_multiplier = 0x9E37B469U; // found once by etwctl's search; checked below
static_assert(hash_multiplier == etwctl::detail::group_hash_multiplier);
constexpr std::uint32_t hash_of(std::uint32_t data1) noexcept { return (data1 * hash_multiplier) >> 26; }
constexpr std::uint64_t lo_word(etwctl::guid const& g) noexcept {
    return std::uint64_t{g.data1} | (std::uint64_t{g.data2} << 32) | (std::uint64_t{g.data3} << 48);
}
constexpr std::uint64_t hi_word(etwctl::guid const& g) noexcept {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | g.data4[i];
    return v;
}
struct hash_table {
    hash_slot s[64];
};
constexpr hash_table make_hash_table() noexcept {
    hash_table t{};
    auto const& groups = etwctl::kernel_group_table;
    for (std::uint32_t h = 0; h < 64; ++h) {
        auto const& other = hash_of(groups[0].event_guid.data1) != h ? groups[0] : groups[1];
        t.s[h] = {lo_word(other.event_guid), hi_word(other.event_guid), 0, 0};
    }
    for (auto const& g : groups)
        t.s[hash_of(g.event_guid.data1)] = {lo_word(g.event_guid), hi_word(g.event_guid), std::uint32_t{g.group} << 8, 0};
    return t;
}
alignas(64) inline constexpr hash_table hash_slots = make_hash_table();

/// Records of `stride` bytes, GUID at 0, Type at 16 (the SDK's CLASSIC_EVENT_ID is 24 bytes).
inline std::size_t hash_encode(unsigned char const* rec, std::size_t count, std::uint32_t* out) noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i, rec += 24) {
        std::uint64_t lo, hi;
        std::memcpy(&lo, rec, 8);
        std::memcpy(&hi, rec + 8, 8);
        hash_slot const& s = hash_slots.s[hash_of(static_cast<std::uint32_t>(lo))];
        out[n] = s.hook_high | rec[16];
        n += ((s.lo ^ lo) | (s.hi ^ hi)) == 0;
    }
    return n;
}

/// GUID -> group by comparing against every group GUID in turn.
inline int linear_group(unsigned char const* guid_bytes) noexcept {
    for (std::size_t i = 0; i < etwctl::kernel_group_count; ++i)
        if (std::memcmp(&group_guids[i], guid_bytes, 16) == 0) return static_cast<int>(i);
    return -1;
}
} // namespace raw

std::uint32_t sink_flags;
std::uint32_t sink_error;
etwctl::group_mask sink_mask;

// ---- 1. stack tracing, compile-time list ----------------------------------------------------------------------

ETWCTL_BENCH_FN bool stack_const_raw() {
    raw::hook_request3 req{0x06, 0, session, {0x0524, 0x0532, 0x0F2E}};
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req, 0x1C) >= 0;
}
ETWCTL_BENCH_FN bool stack_const_typed() {
    return !etwctl::set<etwctl::stack_tracing>(kernel, session_handle{session}, stack_hooks);
}
ETWCTL_BENCH_FN bool stack_const_typed_ctad() {
    return !etwctl::set<etwctl::stack_tracing>(kernel, session_handle{session}, stack_hooks_ctad);
}
// ---- 1b. stack tracing, 3 run-time CLASSIC_EVENT_IDs (a drop-in caller's CSwitch + ReadyThread + Profile) ----

ETWCTL_BENCH_FN bool stack_few_raw_hash() {
    raw::hook_request3 req;
    req.information_class = 0x06;
    req.spare = 0;
    req.trace_handle = session;
    std::size_t const n = raw::hash_encode(reinterpret_cast<unsigned char const*>(few_events), 3, req.hook_ids);
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req,
                                            static_cast<std::uint32_t>(0x10 + 4 * n)) >= 0;
}
// The same job as the typed call: refuse (send nothing) when an event's GUID is no kernel group's
// (issue 21 item 11), instead of dropping it as SECHOST does.
ETWCTL_BENCH_FN bool stack_few_raw_hash_checked() {
    raw::hook_request3 req;
    req.information_class = 0x06;
    req.spare = 0;
    req.trace_handle = session;
    std::size_t const n = raw::hash_encode(reinterpret_cast<unsigned char const*>(few_events), 3, req.hook_ids);
    if (n != 3) return false;
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req, 0x10 + 4 * 3) >= 0;
}
ETWCTL_BENCH_FN bool stack_few_typed() {
    return !etwctl::set<etwctl::stack_tracing>(kernel, session_handle{session},
                                               std::span<etwctl::classic_event_id const>(few_events));
}
ETWCTL_BENCH_FN bool stack_few_compat() {
    return etwctl::compat::trace_set_information(kernel, session, 3, few_events, sizeof few_events) == 0;
}

// ---- 2. stack tracing, 256 run-time CLASSIC_EVENT_IDs -------------------------------------------------------

ETWCTL_BENCH_FN bool stack_events_raw_linear() {
    raw::hook_request256 req;
    req.information_class = 0x06;
    req.spare = 0;
    req.trace_handle = session;
    std::size_t n = 0;
    auto const* bytes = reinterpret_cast<unsigned char const*>(events);
    for (std::size_t i = 0; i < runtime_events; ++i) {
        unsigned char const* rec = bytes + 24 * i;
        int const group = raw::linear_group(rec);
        if (group >= 0) req.hook_ids[n++] = (static_cast<std::uint32_t>(group) << 8) | rec[16];
    }
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req,
                                            static_cast<std::uint32_t>(0x10 + 4 * n)) >= 0;
}
ETWCTL_BENCH_FN bool stack_events_raw_hash() {
    raw::hook_request256 req;
    req.information_class = 0x06;
    req.spare = 0;
    req.trace_handle = session;
    std::size_t const n = raw::hash_encode(reinterpret_cast<unsigned char const*>(events), runtime_events, req.hook_ids);
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req,
                                            static_cast<std::uint32_t>(0x10 + 4 * n)) >= 0;
}
ETWCTL_BENCH_FN bool stack_events_proto() {
    etwctl::kernel_id_list_request<256> req;
    req.header = {0x06, 0, session};
    std::size_t n = 0;
    for (std::size_t i = 0; i < runtime_events; ++i) {
        auto const w = etwctl::detail::words_of(events[i].event_guid);
        auto const& slot = etwctl::detail::hook_slot_of(w);
        req.ids[n] = slot.hook_high | events[i].type;
        n += slot.holds(w);
    }
    return kernel.nt_set_system_information(0x1F, &req, req.length_for(n)) >= 0;
}
ETWCTL_BENCH_FN bool stack_events_sdk_raw_hash() {
    raw::hook_request256 req;
    req.information_class = 0x06;
    req.spare = 0;
    req.trace_handle = session;
    std::size_t const n = raw::hash_encode(reinterpret_cast<unsigned char const*>(sdk_events), runtime_events, req.hook_ids);
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req,
                                            static_cast<std::uint32_t>(0x10 + 4 * n)) >= 0;
}
ETWCTL_BENCH_FN bool stack_events_sdk_proto() {
    etwctl::kernel_id_list_request<256> req;
    req.header = {0x06, 0, session};
    std::size_t n = 0;
    for (std::size_t i = 0; i < runtime_events; ++i) {
        auto const w = etwctl::detail::words_of(sdk_events[i].EventGuid);
        auto const& slot = etwctl::detail::hook_slot_of(w);
        req.ids[n] = slot.hook_high | sdk_events[i].Type;
        n += slot.holds(w);
    }
    return kernel.nt_set_system_information(0x1F, &req, req.length_for(n)) >= 0;
}
ETWCTL_BENCH_FN bool stack_events_sdk_typed() {
    return !etwctl::set<etwctl::stack_tracing>(kernel, session_handle{session},
                                               std::span<sdk_classic_event_id const>(sdk_events));
}
/// SECHOST-style: check the length, allocate the kernel buffer on the heap, translate by linear search.
ETWCTL_BENCH_FN bool stack_events_raw_heap() {
    void const* info = events;
    std::uint32_t const length = sizeof events;
    if (length % 24 != 0 || length / 24 > 256) return false;
    std::uint32_t const count = length / 24;
    auto* req = static_cast<raw::hook_request256*>(std::malloc(0x10 + 4 * std::size_t{count}));
    if (req == nullptr) return false;
    req->information_class = 0x06;
    req->spare = 0;
    req->trace_handle = session;
    std::size_t n = 0;
    auto const* bytes = static_cast<unsigned char const*>(info);
    for (std::uint32_t i = 0; i < count; ++i) {
        unsigned char const* rec = bytes + 24 * std::size_t{i};
        int const group = raw::linear_group(rec);
        if (group >= 0) req->hook_ids[n++] = (static_cast<std::uint32_t>(group) << 8) | rec[16];
    }
    bool const ok = kernel.nt_set_system_information(raw::system_performance_trace_information, req,
                                                     static_cast<std::uint32_t>(0x10 + 4 * n)) >= 0;
    std::free(req);
    return ok;
}
ETWCTL_BENCH_FN bool stack_events_typed() {
    return !etwctl::set<etwctl::stack_tracing>(kernel, session_handle{session},
                                               std::span<etwctl::classic_event_id const>(events));
}
ETWCTL_BENCH_FN bool stack_events_compat() {
    return etwctl::compat::trace_set_information(kernel, session, 3, events, sizeof events) == 0;
}

// ---- 2b. stack tracing, 256 run-time hook ids (no lookup) ---------------------------------------------------

ETWCTL_BENCH_FN bool stack_hooks_raw() {
    raw::hook_request256 req;
    req.information_class = 0x06;
    req.spare = 0;
    req.trace_handle = session;
    for (std::size_t i = 0; i < runtime_events; ++i) req.hook_ids[i] = hooks[i].value;
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req,
                                            0x10 + 4 * runtime_events) >= 0;
}
ETWCTL_BENCH_FN bool stack_hooks_typed() {
    return !etwctl::set<etwctl::stack_tracing>(kernel, session_handle{session}, std::span<hook_id const>(hooks));
}

// ---- 3. group mask, PMC counters, interval, enable-flags decode, group-mask query -----------------------------

ETWCTL_BENCH_FN bool group_mask_raw() {
    raw::group_mask_request req{0x01, 0, session, {}};
    std::memcpy(req.masks, mask.masks, sizeof req.masks);
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req, sizeof req) >= 0;
}
ETWCTL_BENCH_FN bool group_mask_typed() {
    return !etwctl::set<etwctl::system_trace_enable_flags>(kernel, session_handle{session}, mask);
}
ETWCTL_BENCH_FN bool group_mask_compat() {
    return etwctl::compat::trace_set_information(kernel, session, 4, mask.masks, sizeof mask.masks) == 0;
}

ETWCTL_BENCH_FN bool pmc_counters_raw() {
    raw::counter_request2 req{0x0F, 0, session,
                              {static_cast<std::uint32_t>(counters[0]), static_cast<std::uint32_t>(counters[1])}};
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req, 0x18) >= 0;
}
ETWCTL_BENCH_FN bool pmc_counters_typed() {
    return !etwctl::set<etwctl::pmc_counter_list>(kernel, session_handle{session}, counters);
}
ETWCTL_BENCH_FN bool pmc_counters_compat() {
    return etwctl::compat::trace_set_information(kernel, session, 9, counters, sizeof counters) == 0;
}

ETWCTL_BENCH_FN bool interval_timer_raw() {
    raw::time_profile_request req{0x03, interval};
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req, sizeof req) >= 0;
}
// The same job as the typed call: refuse an interval the kernel would clamp (1221..1000000 x 100 ns).
ETWCTL_BENCH_FN bool interval_timer_raw_checked() {
    if (interval - 1221U > 1000000U - 1221U) return false;
    raw::time_profile_request req{0x03, interval};
    return kernel.nt_set_system_information(raw::system_performance_trace_information, &req, sizeof req) >= 0;
}
ETWCTL_BENCH_FN bool interval_timer_typed() {
    return !etwctl::set<etwctl::sampled_profile_interval>(kernel, etwctl::profile_interval{interval});
}
ETWCTL_BENCH_FN bool interval_timer_compat() {
    etwctl::trace_profile_interval const v{0, interval};
    return etwctl::compat::trace_set_information(kernel, 0, 5, &v, sizeof v) == 0;
}

ETWCTL_BENCH_FN bool interval_pmc_raw() { // the caller knows it is a counter: straight to NtSetIntervalProfile
    return kernel.nt_set_interval_profile(interval, static_cast<std::uint32_t>(pmc_source)) >= 0;
}
// The same job as the typed and compat calls: a source known only at run time (the timer through
// EVENT_TRACE_TIME_PROFILE_INFORMATION with its bounds checked, any other source NtSetIntervalProfile).
ETWCTL_BENCH_FN bool interval_pmc_raw_dispatch() {
    auto const source = static_cast<std::uint32_t>(pmc_source);
    if (source == 0) {
        if (interval - 1221U > 1000000U - 1221U) return false;
        raw::time_profile_request req{0x03, interval};
        return kernel.nt_set_system_information(raw::system_performance_trace_information, &req, sizeof req) >= 0;
    }
    return kernel.nt_set_interval_profile(interval, source) >= 0;
}
// A counter's interval with the source's bounds the caller read once (a profiler reads the source list at
// start): checked against them, no list query per call. (A profile_interval for a counter is checked the same
// way, but reads the list itself first: another job.)
ETWCTL_BENCH_FN bool interval_pmc_typed() {
    return !etwctl::set<etwctl::sampled_profile_interval>(kernel, pmc_source, etwctl::counter_interval{interval},
                                                          etwctl::interval_bounds{1, 0xFFFFFFFFU});
}
ETWCTL_BENCH_FN bool interval_pmc_compat() {
    etwctl::trace_profile_interval const v{static_cast<std::uint32_t>(pmc_source), interval};
    return etwctl::compat::trace_set_information(kernel, 0, 5, &v, sizeof v) == 0;
}

ETWCTL_BENCH_FN bool enable_flags_raw() {
    std::uint64_t const h = enable_handle;
    auto const id = static_cast<std::uint16_t>(h);
    sink_flags = (h != 0 && (id == 0xFFFF || id < 64)) ? static_cast<std::uint32_t>(h >> 32) : 0;
    return true;
}
ETWCTL_BENCH_FN bool enable_flags_typed() {
    sink_flags = etwctl::enable_flags_of(enable_handle);
    return true;
}
ETWCTL_BENCH_FN bool enable_flags_compat() {
    sink_flags = etwctl::compat::get_trace_enable_flags(enable_handle, &sink_error);
    return true;
}

ETWCTL_BENCH_FN bool query_mask_raw() {
    raw::group_mask_request req{0x01, 0, session, {}};
    std::uint32_t returned = 0;
    std::int32_t const s =
        kernel.nt_query_system_information(raw::system_performance_trace_information, &req, sizeof req, &returned);
    if (s < 0) return false;
    std::memcpy(sink_mask.masks, req.masks, sizeof req.masks);
    return true;
}
ETWCTL_BENCH_FN bool query_mask_typed() {
    auto const r = etwctl::query<etwctl::system_trace_enable_flags>(kernel, session_handle{session});
    if (!r) return false;
    sink_mask = *r;
    return true;
}
ETWCTL_BENCH_FN bool query_mask_compat() {
    std::uint32_t returned = 0;
    return etwctl::compat::trace_query_information(kernel, session, 4, sink_mask.masks, sizeof sink_mask.masks,
                                                   &returned) == 0;
}

// Through kernel_ref (issue 21 item 20): the same typed call with the kernel's type erased, and a guard's
// whole life (capture, set, restore) on the kernel itself and on kernel_ref (interval_guard).
ETWCTL_BENCH_FN bool interval_timer_kernel_ref() {
    etwctl::kernel_ref const k = kernel;
    return !etwctl::set<etwctl::sampled_profile_interval>(k, etwctl::profile_interval{interval});
}
ETWCTL_BENCH_FN bool interval_guard_direct() {
    etwctl::basic_interval_guard<null_kernel> g(kernel, etwctl::profile_interval{interval});
    return !g.error();
}
ETWCTL_BENCH_FN bool interval_guard_kernel_ref() {
    etwctl::interval_guard g(kernel, etwctl::profile_interval{interval});
    return !g.error();
}

ETWCTL_BENCH_FN bool empty() { return true; }

bench_case const cases[] = {
    {"empty/raw", &empty, 1},
    {"stack_const/raw", &stack_const_raw, 1},
    {"stack_const/typed", &stack_const_typed, 1},
    {"stack_const/typed_ctad", &stack_const_typed_ctad, 1},
    {"stack_few/raw_hash", &stack_few_raw_hash, 1},
    {"stack_few/raw_hash_checked", &stack_few_raw_hash_checked, 1},
    {"stack_few/typed", &stack_few_typed, 1},
    {"stack_few/compat", &stack_few_compat, 1},
    {"stack_events/raw_linear", &stack_events_raw_linear, runtime_events},
    {"stack_events/raw_heap", &stack_events_raw_heap, runtime_events},
    {"stack_events/typed", &stack_events_typed, runtime_events},
    {"stack_events/compat", &stack_events_compat, runtime_events},
    {"stack_events/raw_hash", &stack_events_raw_hash, runtime_events},
    {"stack_events/proto", &stack_events_proto, runtime_events},
    {"stack_events_sdk/raw_hash", &stack_events_sdk_raw_hash, runtime_events},
    {"stack_events_sdk/proto", &stack_events_sdk_proto, runtime_events},
    {"stack_events_sdk/typed", &stack_events_sdk_typed, runtime_events},
    {"stack_hooks/raw", &stack_hooks_raw, runtime_events},
    {"stack_hooks/typed", &stack_hooks_typed, runtime_events},
    {"group_mask/raw", &group_mask_raw, 1},
    {"group_mask/typed", &group_mask_typed, 1},
    {"group_mask/compat", &group_mask_compat, 1},
    {"pmc_counters/raw", &pmc_counters_raw, 1},
    {"pmc_counters/typed", &pmc_counters_typed, 1},
    {"pmc_counters/compat", &pmc_counters_compat, 1},
    {"interval_timer/raw", &interval_timer_raw, 1},
    {"interval_timer/raw_checked", &interval_timer_raw_checked, 1},
    {"interval_timer/typed", &interval_timer_typed, 1},
    {"interval_timer/compat", &interval_timer_compat, 1},
    {"interval_pmc/raw", &interval_pmc_raw, 1},
    {"interval_pmc/raw_dispatch", &interval_pmc_raw_dispatch, 1},
    {"interval_pmc/typed", &interval_pmc_typed, 1},
    {"interval_pmc/compat", &interval_pmc_compat, 1},
    {"enable_flags/raw", &enable_flags_raw, 1},
    {"enable_flags/typed", &enable_flags_typed, 1},
    {"enable_flags/compat", &enable_flags_compat, 1},
    {"query_mask/raw", &query_mask_raw, 1},
    {"query_mask/typed", &query_mask_typed, 1},
    {"query_mask/compat", &query_mask_compat, 1},
    {"interval_timer/kernel_ref", &interval_timer_kernel_ref, 1},
    {"interval_guard/direct", &interval_guard_direct, 1},
    {"interval_guard/kernel_ref", &interval_guard_kernel_ref, 1},
};
std::size_t const case_count = sizeof cases / sizeof cases[0];

} // namespace etwctl_bench
