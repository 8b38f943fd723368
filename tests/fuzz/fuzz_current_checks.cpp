// Fuzz harness: the checks issue 21 added, each against a reference written here from the public facts,
// a few operations per input on one simulated kernel (state carries from one operation to the next):
//  op 0: class 16 (periodic capture state) through compat::current with a fuzzed frequency, count and
//        session: a success is a clear (0 and 0) or a frequency >= 5 s with 1..16 providers (the kernel
//        refuses 1-4 s, a count without a frequency and a frequency without a count).
//  op 1: stack caching (24 / 26) through the typed API with fuzzed sizes and buckets (kernel_default()
//        included): accepted iff each is 0 or inside the kernel's clamps; a size in 64 bits never wraps
//        into the bounds (stack_cache_size::mebibytes of any 32-bit count); what the model keeps lies
//        inside the clamps; one cache per logger.
//  op 2: a raw custom-counter add (kernel class 0x15) with a fuzzed length and version: a success needs
//        36..544 bytes and Version 2 or 3, and adds exactly one source.
//  op 3: add_profile_source with a fuzzed description and storage size: a success returns an id the
//        list shows; a failure leaves the kernel's custom sources as they were (never a source nobody
//        owns), and a source_list_buffer_too_small names more bytes than the storage had.
//  op 4: query<profile_source_list> into storage of a fuzzed size: "too small" reports a required size
//        larger than the storage, and a retry with that size succeeds (the tool's retry); nothing is
//        written outside the storage.
//  op 5: typed event lists (stack tracing, PMC events, context registers) with fuzzed GUIDs: a GUID that
//        is no kernel group is refused and nothing is sent.
//  op 6: query<pmc_counter_owners> with a fuzzed counter count (up to 2^32 - 1) and storage size: the
//        required size is 8 + 12 x counters computed in 64 bits (pmc_owner_storage_size), nothing is
//        written outside the storage, and a success's view holds exactly the machine's counters.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "etwctl/compat_current.hpp"
#include "etwctl/names/events.hpp"
#include "etwctl/profiler/custom_counters.hpp"
#include "etwctl/profiler/pmc.hpp"
#include "fuzz_support.hpp"

using namespace etwctl;
using etwctl_fuzz::guarded_buffer;

namespace {

std::size_t custom_count(sim::kernel const& k) { return k.custom_source_count(); }

void op_periodic_capture(sim::kernel& k, FuzzedDataProvider& in) {
    std::uint32_t const frequency = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::uint32_t>(0, 8)
                                                     : in.ConsumeIntegral<std::uint32_t>();
    auto const count = in.ConsumeIntegralInRange<std::uint16_t>(0, 18);
    std::uint64_t const session = in.ConsumeBool() ? 0xFFFFU : in.ConsumeIntegralInRange<std::uint64_t>(0, 70);
    std::vector<unsigned char> buf(8 + 16 * std::size_t{count});
    std::memcpy(buf.data(), &frequency, 4);
    std::memcpy(buf.data() + 4, &count, 2);
    for (std::size_t i = 8; i < buf.size(); ++i) buf[i] = in.ConsumeIntegral<unsigned char>();
    std::uint32_t const e = compat::current::trace_set_information(k, session, trace_info_class::periodic_capture_state_list,
                                                                   buf.data(), static_cast<std::uint32_t>(buf.size()));
    if (e == win32::success) {
        bool const clear = frequency == 0 && count == 0;
        bool const capture = frequency >= limits::min_periodic_capture_seconds && count >= 1 &&
                             count <= limits::max_periodic_capture_providers;
        FUZZ_CHECK(clear || capture);
    }
    if (frequency >= 1 && frequency < limits::min_periodic_capture_seconds) FUZZ_CHECK(e != win32::success);
}

void op_stack_caching(sim::kernel& k, FuzzedDataProvider& in) {
    bool const unified = in.ConsumeBool();
    std::uint16_t const id = in.ConsumeIntegralInRange<std::uint16_t>(1, 8);
    if (in.ConsumeBool()) (void)k.start_logger(id, sim::logger_options{in.ConsumeBool(), false});
    stack_cache_size size{};
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: size = stack_cache_size::kernel_default(); break;
    case 1: size = stack_cache_size::mebibytes(in.ConsumeIntegral<std::uint32_t>()); break;
    default: size = stack_cache_size{in.ConsumeIntegral<std::uint64_t>()}; break;
    }
    stack_cache_buckets const buckets = in.ConsumeBool() ? stack_cache_buckets::kernel_default()
                                                         : stack_cache_buckets{in.ConsumeIntegral<std::uint32_t>()};
    bool const size_ok = size.bytes == 0 || (size.bytes >= limits::stack_cache_min_bytes && size.bytes <= limits::stack_cache_max_bytes);
    bool const buckets_ok = buckets.count == 0 ||
                            (buckets.count >= limits::stack_cache_min_buckets && buckets.count <= limits::stack_cache_max_buckets);
    std::size_t const before = k.request_count();
    session_handle const h{id};
    std::error_code const ec = unified ? set<unified_stack_caching>(k, h, size, buckets) : set<stack_caching>(k, h, size, buckets);
    if (!size_ok || !buckets_ok) {
        FUZZ_CHECK(ec == make_error_code(rule::stack_cache_out_of_bounds));
        FUZZ_CHECK(k.request_count() == before);
        return;
    }
    if (!ec) {
        auto const& st = k.current_windows().state(id);
        auto const& c = unified ? st.unified : st.classic;
        FUZZ_CHECK(c.enabled);
        FUZZ_CHECK(c.cache_size >= limits::stack_cache_min_bytes && c.cache_size <= limits::stack_cache_max_bytes);
        FUZZ_CHECK(c.bucket_count >= limits::stack_cache_min_buckets && c.bucket_count <= limits::stack_cache_max_buckets);
        FUZZ_CHECK(!(st.unified.enabled && st.classic.enabled)); // one cache slot per logger
    }
}

void op_raw_add(sim::kernel& k, FuzzedDataProvider& in) {
    auto const length = in.ConsumeIntegralInRange<std::uint32_t>(4, 600);
    std::vector<unsigned char> buf(length);
    std::uint32_t const cls = 0x15;
    std::memcpy(buf.data(), &cls, 4);
    for (std::size_t i = 4; i < buf.size(); ++i) buf[i] = in.ConsumeIntegral<unsigned char>();
    if (in.ConsumeBool() && buf.size() > 4) buf[4] = in.ConsumeBool() ? 2 : 3;
    std::size_t const before = custom_count(k);
    std::int32_t const s = k.nt_set_system_information(system_performance_trace_information, buf.data(), length);
    if (s >= 0) {
        FUZZ_CHECK(length >= profile_add_min_length && length <= profile_add_max_length);
        FUZZ_CHECK(buf[4] == profile_add_version_2 || buf[4] == profile_add_version_3);
        FUZZ_CHECK(custom_count(k) == before + 1);
    } else {
        FUZZ_CHECK(custom_count(k) == before);
    }
}

void op_add_profile_source(sim::kernel& k, FuzzedDataProvider& in) {
    std::string const description = in.ConsumeRandomLengthString(130);
    std::vector<std::byte> storage(in.ConsumeIntegralInRange<std::size_t>(0, 6000));
    custom_counter_options o;
    o.source_list_storage = storage;
    std::size_t const before = custom_count(k);
    auto const id = add_profile_source(k, intel_counter{.event_select = 0x24, .unit_mask = 0x3F}, description,
                                       counter_interval{in.ConsumeIntegral<std::uint32_t>()}, o);
    if (id) {
        FUZZ_CHECK(custom_count(k) == before + 1);
        bool listed = false;
        for (auto const& s : k.profile_sources()) listed = listed || s.id == *id;
        FUZZ_CHECK(listed);
    } else {
        FUZZ_CHECK(custom_count(k) == before); // never a source nobody owns
        if (id.error() == make_error_code(rule::source_list_buffer_too_small)) {
            std::string const d = describe(id.error());
            FUZZ_CHECK(!d.empty());
        }
    }
}

void op_list_retry(sim::kernel& k, FuzzedDataProvider& in) {
    guarded_buffer small(in.ConsumeIntegralInRange<std::size_t>(0, 5000));
    std::uint32_t required = 0;
    auto const first = query<profile_source_list>(k, std::span<std::byte>(reinterpret_cast<std::byte*>(small.data()), small.size()),
                                                  &required);
    FUZZ_CHECK(small.canaries_intact());
    if (first) {
        FUZZ_CHECK(first->bytes().size() <= small.size());
        return;
    }
    if (first.error() != make_error_code(rule::source_list_buffer_too_small)) return;
    FUZZ_CHECK(required > small.size());
    guarded_buffer sized(required);
    auto const retry = query<profile_source_list>(k, std::span<std::byte>(reinterpret_cast<std::byte*>(sized.data()), sized.size()));
    FUZZ_CHECK(retry);
    FUZZ_CHECK(sized.canaries_intact());
}

void op_event_lists(sim::kernel& k, FuzzedDataProvider& in) {
    std::size_t const n = in.ConsumeIntegralInRange<std::size_t>(1, 4);
    std::vector<classic_event_id> events(n);
    bool all_groups = true;
    for (auto& e : events) {
        if (in.ConsumeBool()) { // a kernel group's GUID (Thread)
            e.event_guid = guid::from_string("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c");
        } else {
            auto const bytes = in.ConsumeBytes<unsigned char>(16);
            unsigned char g[16] = {};
            if (!bytes.empty()) std::memcpy(g, bytes.data(), bytes.size());
            std::memcpy(&e.event_guid, g, 16);
        }
        e.type = in.ConsumeIntegral<std::uint8_t>();
        all_groups = all_groups && hook_id_of(e).has_value();
    }
    session_handle const h{0xFFFFU};
    std::size_t const before = k.request_count();
    std::span<classic_event_id const> const list(events);
    std::error_code ec;
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: ec = set<stack_tracing>(k, h, list); break;
    case 1: ec = set<pmc_event_list>(k, h, list); break;
    default: ec = set<context_register>(k, h, list); break;
    }
    if (!all_groups) {
        FUZZ_CHECK(ec);
        FUZZ_CHECK(k.request_count() == before);
    }
}

void op_pmc_owners(sim::kernel& k, FuzzedDataProvider& in) {
    std::uint32_t const max = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::uint32_t>(0, 40) : in.ConsumeIntegral<std::uint32_t>();
    k.set_max_pmc_counters(max);
    guarded_buffer storage(in.ConsumeIntegralInRange<std::size_t>(0, 600));
    std::uint32_t required = 0;
    auto const v = query<pmc_counter_owners>(k, std::span<std::byte>(reinterpret_cast<std::byte*>(storage.data()), storage.size()),
                                             0U, &required);
    FUZZ_CHECK(storage.canaries_intact());
    if (v) {
        FUZZ_CHECK(pmc_owner_storage_size(max) <= storage.size());
        FUZZ_CHECK(v->size() == max);
    } else if (required != 0 && pmc_owner_storage_size(max) <= 0xFFFFFFFFULL && storage.size() >= pmc_owners_head_size) {
        FUZZ_CHECK(required == pmc_owner_storage_size(max) || required <= storage.size());
    }
    k.set_max_pmc_counters(static_cast<std::uint32_t>(limits::max_pmc_counters));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    auto const k = std::make_unique<sim::kernel>(); // ~160 KiB of model state: on the heap, fresh per input
    (void)k->start_kernel_logger();
    for (int ops = 0; ops < 8 && in.remaining_bytes() > 0; ++ops) {
        switch (in.ConsumeIntegralInRange<int>(0, 6)) {
        case 0: op_periodic_capture(*k, in); break;
        case 1: op_stack_caching(*k, in); break;
        case 2: op_raw_add(*k, in); break;
        case 3: op_add_profile_source(*k, in); break;
        case 4: op_list_retry(*k, in); break;
        case 5: op_event_lists(*k, in); break;
        default: op_pmc_owners(*k, in); break;
        }
    }
    return 0;
}
