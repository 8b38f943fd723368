// Zero heap allocations: every typed set<>/query<> path and every information class of the compat
// layer, on the simulated kernel (success and failure paths) and on a do-nothing kernel.
// Global operator new/delete are replaced by counting versions. Only the region between start() and
// stop() is counted: doctest's own reporting allocates, so results are kept in plain arrays and
// checked after the region. std::error_code::message() allocates and is never called inside it.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <system_error>

#include "etwctl/session/compat.hpp"
#include "etwctl_test.hpp"

namespace {

struct counter {
    bool on = false;
    std::size_t news = 0;
    std::size_t deletes = 0;
};
counter g_count;

void* counted_alloc(std::size_t n) noexcept {
    if (g_count.on) ++g_count.news;
    return std::malloc(n == 0 ? 1 : n);
}
// Over-aligned blocks by hand (std::aligned_alloc is missing on mingw): malloc enough to align, and keep
// the malloc'd address in the word before the block for counted_aligned_free.
void* counted_aligned_alloc(std::size_t n, std::align_val_t a) noexcept {
    if (g_count.on) ++g_count.news;
    auto const align = static_cast<std::size_t>(a);
    void* const raw = std::malloc(n + align + sizeof(void*));
    if (raw == nullptr) return nullptr;
    auto const start = reinterpret_cast<std::uintptr_t>(raw) + sizeof(void*);
    auto* const block = reinterpret_cast<void**>((start + align - 1) / align * align);
    block[-1] = raw;
    return block;
}
void counted_free(void* p) noexcept {
    if (p == nullptr) return;
    if (g_count.on) ++g_count.deletes;
    std::free(p);
}
void counted_aligned_free(void* p) noexcept {
    if (p == nullptr) return;
    if (g_count.on) ++g_count.deletes;
    std::free(static_cast<void**>(p)[-1]);
}
void* or_throw(void* p) {
#if defined(__cpp_exceptions)
    if (p == nullptr) throw std::bad_alloc();
#else
    if (p == nullptr) std::abort(); // -fno-exceptions: what the default operator new does too
#endif
    return p;
}

} // namespace

void* operator new(std::size_t n) { return or_throw(counted_alloc(n)); }
void* operator new[](std::size_t n) { return or_throw(counted_alloc(n)); }
void* operator new(std::size_t n, std::nothrow_t const&) noexcept { return counted_alloc(n); }
void* operator new[](std::size_t n, std::nothrow_t const&) noexcept { return counted_alloc(n); }
void* operator new(std::size_t n, std::align_val_t a) { return or_throw(counted_aligned_alloc(n, a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return or_throw(counted_aligned_alloc(n, a)); }
void* operator new(std::size_t n, std::align_val_t a, std::nothrow_t const&) noexcept { return counted_aligned_alloc(n, a); }
void* operator new[](std::size_t n, std::align_val_t a, std::nothrow_t const&) noexcept { return counted_aligned_alloc(n, a); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::nothrow_t const&) noexcept { counted_free(p); }
void operator delete[](void* p, std::nothrow_t const&) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_aligned_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_aligned_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_aligned_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_aligned_free(p); }
void operator delete(void* p, std::align_val_t, std::nothrow_t const&) noexcept { counted_aligned_free(p); }
void operator delete[](void* p, std::align_val_t, std::nothrow_t const&) noexcept { counted_aligned_free(p); }

using namespace etwctl;

namespace {

/// Accepts everything, answers queries with zeros (so replies that need content are "malformed").
struct quiet_kernel {
    std::int32_t nt_set_system_information(std::uint32_t, void const*, std::uint32_t) noexcept { return 0; }
    std::int32_t nt_query_system_information(std::uint32_t, void*, std::uint32_t, std::uint32_t* r) noexcept {
        *r = 0;
        return 0;
    }
    std::int32_t nt_set_interval_profile(std::uint32_t, std::uint32_t) noexcept { return 0; }
    std::int32_t nt_query_interval_profile(std::uint32_t, std::uint32_t* v) noexcept {
        *v = 0;
        return 0;
    }
    std::int32_t nt_trace_control(std::uint32_t, void const*, std::uint32_t, void*, std::uint32_t,
                                  std::uint32_t* r) noexcept {
        *r = 0;
        return 0;
    }
    std::uint32_t event_set_information(std::uint64_t, std::uint32_t, void const*, std::uint32_t) noexcept { return 0; }
};
static_assert(kernel<quiet_kernel>);

/// What the calls returned, inspected after the counted region.
struct results_log {
    std::array<std::uint32_t, 128> win32{};
    std::size_t n = 0;
    void add(std::uint32_t e) noexcept {
        if (n < win32.size()) win32[n++] = e;
    }
    void add(std::error_code const& ec) noexcept {
        add(to_win32(ec));
        add(ec == win32_condition(win32::success) ? 0U : 1U); // comparing conditions must not allocate either
    }
};

/// Inputs, built before counting starts.
struct inputs {
    classic_event_id events[256]{};
    hook_id hooks[256]{};
    classic_event_id too_many[257]{};
    guid guids[3]{};
    std::byte traits_bytes[16]{};
    std::uint32_t traits_size = 0;
    group_mask mask;

    inputs() noexcept {
        for (std::size_t i = 0; i < 256; ++i) {
            auto const group = static_cast<std::uint8_t>(i % kernel_group_count);
            events[i].event_guid = kernel_group_table[group].event_guid;
            events[i].type = static_cast<std::uint8_t>(i);
            hooks[i] = hook_id(group, static_cast<std::uint8_t>(i));
        }
        for (std::size_t i = 0; i < 3; ++i) guids[i] = kernel_group_table[i + 1].event_guid;
        std::size_t size = 0;
        (void)build_provider_traits("Alloc.Test", nullptr, traits_bytes, size);
        traits_size = static_cast<std::uint32_t>(size);
        mask.set(perf_flag{0x20000002U}).set(perf_flag{0x00000010U});
    }
};

profile_source_list_buffer<> g_sources; // 4 KiB of query storage, static

template <class K>
void every_typed_path(K& k, std::uint64_t session, std::uint64_t reg, inputs const& in, results_log& out) {
    session_handle const s{session};
    registration_handle const r{reg};
    constexpr hook_list stack_hooks{hook_id{0x0524}, hook_id{0x0532}, hook_id{0x0F2E}};
    constexpr hook_list pmc_hooks{hook_id{0x0524}, hook_id{0x0F2E}};

    out.add(set<stack_tracing>(k, s, stack_hooks));
    out.add(set<stack_tracing>(k, s, std::span<classic_event_id const>(in.events)));
    out.add(set<stack_tracing>(k, s, std::span<hook_id const>(in.hooks)));
    out.add(set<stack_tracing>(k, s, std::span<classic_event_id const>{}));
    out.add(set<stack_tracing>(k, s, std::span<classic_event_id const>(in.too_many))); // rule error
    out.add(set<stack_tracing>(k, session_handle{0x33}, stack_hooks));               // kernel error
    out.add(set<pmc_event_list>(k, s, pmc_hooks));
    out.add(set<pmc_event_list>(k, s, std::span<classic_event_id const>(in.events, 2)));
    out.add(set<system_trace_enable_flags>(k, s, in.mask));
    out.add(set<sampled_profile_interval>(k, profile_interval{10000}));
    out.add(set<sampled_profile_interval>(k, profile_source::total_cycles, profile_interval{65536}));
    out.add(set<profile_source_config>(k, s, std::array{profile_source::total_cycles}));
    out.add(set<pmc_counter_list>(k, s, std::array{profile_source::total_cycles, profile_source::cache_misses}));
    out.add(set<pmc_counter_list>(k, s, std::span<profile_source const>{})); // rule error
    out.add(set<disallow_list>(k, s, std::span<guid const>(in.guids)));
    out.add(set<provider_binary_tracking>(k, r));
    out.add(set<provider_traits>(k, r, make_provider_traits("Alloc.Test")));
    out.add(set<provider_traits>(k, r, std::span<std::byte const>(in.traits_bytes, in.traits_size)));
    out.add(set<use_descriptor_type>(k, r, true));

    auto const masks = query<system_trace_enable_flags>(k, s);
    out.add(masks.error());
    out.add(query<sampled_profile_interval>(k).error());
    out.add(query<sampled_profile_interval>(k, profile_source::total_cycles).error());
    std::uint32_t needed = 0;
    out.add(query<profile_source_list>(k, g_sources.span(), &needed).error());
    out.add(query<profile_source_list>(k, std::span<std::byte>{}, &needed).error()); // size probe
    out.add(query<version>(k).error());
    guid storage[8];
    out.add(query<disallow_list_query>(k, s, std::span<guid>(storage)).error());
}

template <class K>
void every_compat_class(K& k, std::uint64_t session, std::uint64_t reg, inputs const& in, results_log& out) {
    trace_profile_interval const timer{0, 10000};
    std::uint32_t const counters[2] = {0x13, 0x0A};
    out.add(compat::trace_set_information(k, session, 3, in.events, sizeof in.events));
    out.add(compat::trace_set_information(k, session, 3, in.events, 25)); // rule error
    out.add(compat::trace_set_information(k, session, 4, in.mask.masks, sizeof in.mask.masks));
    out.add(compat::trace_set_information(k, 0, 5, &timer, sizeof timer));
    out.add(compat::trace_set_information(k, session, 6, counters, 4));
    out.add(compat::trace_set_information(k, session, 8, in.events, 2 * 24));
    out.add(compat::trace_set_information(k, session, 9, counters, sizeof counters));
    out.add(compat::trace_set_information(k, session, 10, in.guids, sizeof in.guids));
    out.add(compat::trace_set_information(k, session, 0, nullptr, 0)); // class not supported

    std::uint32_t returned = 0;
    std::uint32_t masks[8] = {};
    trace_profile_interval interval{0x13, 0};
    trace_version_info version{};
    guid storage[8];
    out.add(compat::trace_query_information(k, session, 4, masks, sizeof masks, &returned));
    out.add(compat::trace_query_information(k, 0, 5, &interval, sizeof interval, &returned));
    out.add(compat::trace_query_information(k, 0, 7, g_sources.bytes, sizeof g_sources.bytes, &returned));
    out.add(compat::trace_query_information(k, 0, 7, nullptr, 0, &returned)); // size probe
    out.add(compat::trace_query_information(k, 0, 11, &version, sizeof version, &returned));
    out.add(compat::trace_query_information(k, session, 14, storage, sizeof storage, &returned));
    out.add(compat::trace_query_information(k, session, 3, nullptr, 0, nullptr)); // class not supported

    std::uint32_t error = 0;
    out.add(compat::get_trace_enable_flags(enable_context::make(logger_id{5}, 4, 0x10203).handle, &error));
    out.add(error);
    out.add(compat::get_trace_enable_flags(0, &error));
    out.add(error);
    out.add(enable_flags_of(enable_context::make(kernel_logger, 0, 0x10).handle));

    unsigned char const yes = 1;
    out.add(static_cast<std::uint32_t>(compat::tracelogging_set_information(k, reg, 0, nullptr, 0)));
    out.add(static_cast<std::uint32_t>(
        compat::tracelogging_set_information(k, reg, 2, in.traits_bytes, in.traits_size)));
    out.add(static_cast<std::uint32_t>(compat::tracelogging_set_information(k, reg, 3, &yes, 1)));
    out.add(static_cast<std::uint32_t>(compat::tracelogging_set_information(k, reg, 9, nullptr, 0)));
}

/// Every session drop-in function (W and A forms), successful and refused, on the simulated kernel.
struct session_block {
    event_trace_properties p;
    wide_char names[2 * 1024];
};
session_block g_blocks[3];
void every_session_path(sim::kernel& k, results_log& out) noexcept {
    static constexpr wide_char name[] = {'A', 'l', 'l', 'o', 'c', 0};
    for (auto& b : g_blocks) {
        b = session_block{};
        b.p.wnode.buffer_size = sizeof(session_block);
        b.p.wnode.flags = wnode_flag::traced_guid;
        b.p.log_file_mode = log_file_mode::real_time;
        b.p.logger_name_offset = offsetof(session_block, names);
    }
    std::uint64_t h = 0;
    out.add(compat::start_trace(k, &h, name, &g_blocks[0].p));
    out.add(compat::start_trace(k, &h, name, &g_blocks[1].p)); // ERROR_ALREADY_EXISTS
    out.add(compat::start_trace_a(k, &h, "Ansi", &g_blocks[2].p));
    out.add(compat::query_trace(k, 0, name, &g_blocks[1].p));
    out.add(compat::update_trace(k, h, static_cast<wide_char const*>(nullptr), &g_blocks[2].p));
    out.add(compat::flush_trace_a(k, 0, "ansi", &g_blocks[2].p));
    event_trace_properties* array[2] = {&g_blocks[1].p, &g_blocks[2].p};
    std::uint32_t n = 0;
    out.add(compat::query_all_traces(k, array, 2, &n));   // ERROR_MORE_DATA: the NT Kernel Logger runs too
    out.add(compat::query_all_traces_a(k, array, 1, &n)); // ERROR_MORE_DATA
    std::uint32_t const pids[1] = {4};
    event_filter_descriptor filter;
    filter.ptr = reinterpret_cast<std::uintptr_t>(pids);
    filter.size = sizeof pids;
    filter.type = filter_type::pid;
    enable_trace_parameters params;
    params.version = enable_trace_parameters_version;
    params.enable_filter_desc = &filter;
    params.filter_desc_count = 1;
    static constexpr guid provider = guid::from_string("22fb2cd6-0e7b-422b-a0c7-2fad1fd0e716");
    out.add(compat::enable_trace_ex2(k, h, &provider, 1, 4, 0, 0, 0, &params));
    out.add(compat::enable_trace_ex2(k, 0, &provider, 1, 4, 0, 0, 0, nullptr)); // refused
    out.add(compat::stop_trace(k, 0, name, &g_blocks[0].p)); // a block that a query did not fill
    out.add(compat::stop_trace_a(k, h, static_cast<char const*>(nullptr), &g_blocks[2].p));
}

alignas(sim::kernel) unsigned char g_sim_storage[sizeof(sim::kernel)];

} // namespace

TEST_CASE("no set, query or compat path allocates") {
    inputs const in;
    results_log sim_log;
    results_log quiet_log;
    quiet_kernel quiet;

    g_count = {};
    g_count.on = true; // ---- counted region -------------------------------------------------------
    auto* k = new (g_sim_storage) sim::kernel(); // placement: the constructor itself is counted
    std::uint64_t const session = k->start_kernel_logger();
    std::uint64_t const reg = k->register_provider();
    every_typed_path(*k, session, reg, in, sim_log);
    every_compat_class(*k, session, reg, in, sim_log);
    results_log session_log;
    every_session_path(*k, session_log);
    every_typed_path(quiet, 0xFFFF, 1, in, quiet_log);
    every_compat_class(quiet, 0xFFFF, 1, in, quiet_log);
    std::size_t const requests = k->request_count();
    std::destroy_at(k);
    g_count.on = false; // ------------------------------------------------------------------------

    CHECK(g_count.news == 0);
    CHECK(g_count.deletes == 0);
    // The paths really ran: the simulated kernel recorded requests and both logs are full of results.
    CHECK(requests > 20);
    CHECK(sim_log.n > 70);
    CHECK(quiet_log.n == sim_log.n);
    CHECK(sim_log.win32[0] == 0); // set<stack_tracing> with a compile-time list succeeded
    // the session paths ran, and both ways
    std::uint32_t const expected[] = {0, 183, 0, 0, 0, 0, 234, 234, 0, 87, 0, 0};
    REQUIRE(session_log.n == std::size(expected));
    for (std::size_t i = 0; i < session_log.n; ++i) {
        CAPTURE(i);
        CHECK(session_log.win32[i] == expected[i]);
    }
}

TEST_CASE("the counter sees allocations (the test would catch one)") {
    g_count = {};
    g_count.on = true;
    int* volatile p = new int(7); // volatile: the allocation cannot be elided
    delete p;
    std::error_code const ec = make_error_code(rule::stack_tracing_size);
    std::string const text = ec.message(); // message() allocates: that is why it stays outside the region
    g_count.on = false;
    CHECK(g_count.news >= 1);
    CHECK(g_count.deletes >= 1);
    CHECK_FALSE(text.empty());
}

// ---- the typed session API: start, query, update, flush, enable, list, stop without a heap ----------------

namespace {
/// Accepts every session call and writes nothing back (a session kernel that is all success).
struct quiet_session_kernel {
    std::uint32_t start_trace_w(std::uint64_t* h, wide_char const*, void*) noexcept {
        *h = 7;
        return 0;
    }
    std::uint32_t control_trace_w(std::uint64_t, wide_char const*, void*, std::uint32_t) noexcept { return 0; }
    std::uint32_t query_all_traces_w(void**, std::uint32_t, std::uint32_t* n) noexcept {
        *n = 0;
        return 0;
    }
    std::uint32_t enable_trace_ex2(std::uint64_t, guid const*, std::uint32_t, std::uint8_t, std::uint64_t, std::uint64_t,
                                   std::uint32_t, void const*) noexcept {
        return 0;
    }
};
static_assert(session_kernel<quiet_session_kernel>);

session_list_buffer<4> g_list; // static: the caller's storage

template <class K>
void every_typed_session_path(K& k, results_log& out) {
    using namespace std::chrono_literals;
    std::uint32_t const pids[] = {1, 2};
    std::uint16_t const ids[] = {3, 4};
    {
        auto s = start_session(k, session_config::user(u"etwctl-alloc").real_time().buffer(buffer_size::kilobytes(64)));
        out.add(s.error());
        if (!s) return;
        auto const q = s->query();
        out.add(q.error());
        out.add(s->flush());
        out.add(s->update(session_update{}.flush_timer(2s).maximum_buffers(64)));
        out.add(enable_provider(*s, provider_name<"MyCompany.MyComponent">,
                                enable_options{}.level(trace_level::verbose).stack_trace().process_ids(pids).event_ids(filter_in, ids)));
        out.add(capture_state(*s, provider_name<"MyCompany.MyComponent">));
        out.add(disable_provider(*s, provider_name<"MyCompany.MyComponent">));
        out.add(list_sessions(k, g_list).error());
        auto const report = s->stop();
        out.add(report.error);
        out.add(report.stopped ? 0U : 1U);
        // failure paths record their context without a heap too
        out.add(start_session(k, session_config::user(u"x").file_append(u"a.etl").real_time()).error());
        out.add(s->flush()); // an empty object
        out.add(provider_guid_from_name("Caf\xC3\xA9").error());
    }
    auto kept = start_session(k, session_config::user(u"etwctl-alloc-scope").real_time());
    out.add(kept.error()); // stopped at the end of the scope, by the destructor
}
alignas(sim::kernel) unsigned char g_session_sim_storage[sizeof(sim::kernel)];
} // namespace

TEST_CASE("no typed session path allocates: start, query, update, flush, enable, list, stop") {
    results_log sim_log;
    results_log quiet_log;
    quiet_session_kernel quiet;

    g_count = {};
    g_count.on = true; // ---- counted region -------------------------------------------------------
    auto* k = new (g_session_sim_storage) sim::kernel();
    every_typed_session_path(*k, sim_log);
    every_typed_session_path(quiet, quiet_log);
    std::size_t const running = k->sessions().running();
    std::size_t const requests = k->request_count();
    std::destroy_at(k);
    g_count.on = false; // ------------------------------------------------------------------------

    CHECK(g_count.news == 0);
    CHECK(g_count.deletes == 0);
    CHECK(running == 0);     // every session stopped (the last by its destructor)
    CHECK(requests >= 12);   // the calls reached the simulated kernel
    REQUIRE(sim_log.n == 27);
    for (std::size_t i = 0; i < 19; ++i) CHECK(sim_log.win32[i] == 0); // start .. stop succeeded, nothing lost
    CHECK(sim_log.win32[19] == 87);  // the broken configuration's rule
    CHECK(sim_log.win32[21] == 87);  // the empty object
    CHECK(sim_log.win32[23] == 87);  // the non-ASCII provider name
    CHECK(sim_log.win32[25] == 0);   // the second start
    CHECK(quiet_log.n == sim_log.n);
}
