// EVENT_RECORDs to typed events (trace/consume.hpp): the records of a trace presented as ProcessTrace
// presents them (event_record_of) and turned back into events (event_record_stream) give the events the
// file reader gives for the same records: same record fields, same payload, same stacks, same counters.
// Checked on the real x86 trace and on generated 64-bit profiler traces (PMC values, stack keys); and
// trace::consume through an EVENT_RECORD kernel double (what native_kernel is on Windows): typed handlers,
// stop() from a handler, Lost_Event notices, records no buffer record stands for.
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "etwctl/testing/sim_recorder.hpp"
#include "etwctl/trace/consume.hpp"
#include "etwctl_test.hpp"
#include "trace_files.hpp"
#include "trace_writer.hpp"

using namespace etwctl;

namespace {

/// Everything a handler can read of an event, as values.
struct er_event_summary {
    trace::record_kind kind{};
    std::uint8_t header_type = 0;
    std::uint16_t hook = 0;
    std::uint16_t version = 0;
    std::string guid_text;
    std::uint8_t opcode = 0, level = 0;
    std::uint32_t tid = 0, pid = 0;
    std::uint64_t timestamp = 0;
    std::int64_t time_ns = 0;
    std::uint16_t processor = 0;
    std::uint32_t kernel_time = 0, user_time = 0;
    std::uint16_t event_flags = 0;
    std::uint16_t descriptor_id = 0;
    std::vector<std::byte> payload;
    std::vector<std::uint64_t> stack;
    std::size_t stack_parts = 0;
    std::uint8_t unresolved = 0;
    std::vector<std::uint64_t> pmc;
    std::vector<std::uint16_t> item_types;
    bool operator==(er_event_summary const&) const = default;
};

er_event_summary er_summarize(trace::event const& e) {
    er_event_summary s;
    auto const& r = e.rec();
    s.kind = r.kind();
    s.header_type = r.header_type();
    s.hook = r.hook().value;
    s.version = r.version();
    char text[37];
    r.event_guid().format(text);
    s.guid_text = text;
    s.opcode = r.opcode();
    s.level = r.level();
    s.tid = r.thread_id();
    s.pid = r.process_id();
    s.timestamp = e.timestamp();
    s.time_ns = e.time().time_since_epoch().count();
    s.processor = e.processor();
    s.kernel_time = r.kernel_time();
    s.user_time = r.user_time();
    s.event_flags = r.event_flags();
    s.descriptor_id = r.descriptor().id;
    s.payload.assign(r.payload().begin(), r.payload().end());
    for (auto f : e.stack()) s.stack.push_back(f);
    s.stack_parts = e.stack().parts().size();
    s.unresolved = e.stack().unresolved_keys();
    auto const pmc = e.pmc();
    for (std::size_t i = 0; i < pmc.size(); ++i) s.pmc.push_back(pmc[i]);
    for (auto const item : r.extended_items()) s.item_types.push_back(item.type);
    return s;
}

/// The file reader's events (event_stream, no stack cache: key references stay unresolved, as live).
std::vector<er_event_summary> er_file_events(trace::trace_file const& f) {
    std::vector<std::byte> storage(trace::reader::storage_size(f));
    trace::reader r(f, storage);
    trace::event_stream s(r);
    std::vector<er_event_summary> out;
    trace::event e;
    while (s.next(e)) out.push_back(er_summarize(e));
    return out;
}

/// The same file's records in the reader's order, each presented as an EVENT_RECORD (what ProcessTrace
/// hands a consumer: the records one by one, stacks as records of their own) and turned back into events.
struct er_live_result {
    std::vector<er_event_summary> events;
    std::uint64_t records = 0, not_presented = 0, unconverted = 0;
};
er_live_result er_live_events(trace::trace_file const& f, std::size_t storage_bytes = trace::event_record_stream::storage_size()) {
    std::vector<std::byte> storage(trace::reader::storage_size(f));
    trace::reader r(f, storage);
    std::vector<std::byte> slots(storage_bytes);
    trace::event_record_stream live(slots);
    er_live_result out;
    trace::event_ref ref;
    trace::event_record_parts parts;
    auto const take = [&](trace::event const& e) noexcept { out.events.push_back(er_summarize(e)); };
    while (r.next(ref)) {
        ++out.records;
        if (!trace::event_record_of(ref, parts)) {
            ++out.not_presented;
            continue;
        }
        live.push(parts.record, take);
    }
    live.finish(take);
    out.unconverted = live.unconverted();
    return out;
}

void er_check_same(std::vector<er_event_summary> const& file, std::vector<er_event_summary> const& live) {
    CHECK(file.size() == live.size());
    std::size_t mismatches = 0, first = file.size();
    for (std::size_t i = 0; i < (std::min)(file.size(), live.size()); ++i)
        if (!(file[i] == live[i])) {
            if (first == file.size()) first = i;
            ++mismatches;
        }
    if (first != file.size()) {
        auto const& a = file[first];
        auto const& b = live[first];
        INFO("first mismatch at event " << first << ": hook " << a.hook << "/" << b.hook << " ts " << a.timestamp << "/" << b.timestamp
                                         << " time " << a.time_ns << "/" << b.time_ns << " stack " << a.stack.size() << "/" << b.stack.size()
                                         << " unresolved " << int{a.unresolved} << "/" << int{b.unresolved} << " payload "
                                         << a.payload.size() << "/" << b.payload.size() << " kind " << int(a.kind) << "/" << int(b.kind)
                                         << " tid " << a.tid << "/" << b.tid << " flags " << a.event_flags << "/" << b.event_flags);
        CHECK(mismatches == 0);
    }
    CHECK(mismatches == 0);
}

std::size_t er_count_with_stack(std::vector<er_event_summary> const& v) {
    std::size_t n = 0;
    for (auto const& e : v) n += e.stack.empty() ? 0U : 1U;
    return n;
}

} // namespace

TEST_CASE("event_record: the real x86 trace through EVENT_RECORDs gives the file reader's events, stacks included") {
    auto const bytes = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    REQUIRE_FALSE(bytes.empty());
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f);
    auto const file = er_file_events(*f);
    auto const live = er_live_events(*f);
    CHECK(live.not_presented == 0);
    CHECK(live.unconverted == 0);
    er_check_same(file, live.events);
    CHECK(er_count_with_stack(file) > 200); // the trace's StackWalk records: the comparison covers stacks
}

TEST_CASE("event_record: generated 64-bit profiler traces (PMC values, stack keys, QPC and cycle clocks) round-trip") {
    for (std::uint32_t clock : {1U, 3U}) {
        etwctl_test::trace_options o;
        o.processors = 4;
        o.clock_type = clock;
        auto const g = etwctl_test::generate_profile_trace(std::size_t{2} << 20, o, 7);
        auto f = trace::trace_file::open(g.file);
        REQUIRE(f);
        auto const file = er_file_events(*f);
        auto const live = er_live_events(*f);
        CHECK(live.not_presented == 0);
        er_check_same(file, live.events);
        std::size_t with_pmc = 0, unresolved = 0;
        for (auto const& e : file) with_pmc += e.pmc.empty() ? 0U : 1U, unresolved += e.unresolved;
        CHECK(with_pmc > 100);
        CHECK(unresolved > 100);
        CHECK(er_count_with_stack(file) > 1000);
    }
}

TEST_CASE("event_record: the simulated kernel's recordings (64- and 32-bit, stacks on samples and switches) round-trip") {
    for (std::uint8_t pointer_size : {std::uint8_t{8}, std::uint8_t{4}}) {
        auto k = std::make_unique<sim::kernel>();
        auto session = start_session(*k, session_config::nt_kernel_logger().file_sequential("k.etl").buffer(buffer_size::kilobytes(64)).buffers(
                                             minimum_buffers{16}, maximum_buffers{64}));
        REQUIRE(session);
        session_handle const h = session->handle();
        REQUIRE_FALSE(set<system_trace_enable_flags>(*k, h, kernel_flags<"PROC_THREAD+LOADER+PROFILE+CSWITCH">));
        REQUIRE_FALSE(set<stack_tracing>(*k, h, stack_walk<"Profile+CSwitch+ImageLoad">));
        REQUIRE_FALSE(set<sampled_profile_interval>(*k, profile_interval{1250}));
        sim::workload w({.processors = 4, .lifecycle_interval = 20000});
        std::vector<std::byte> buffers(sim::recorder::storage_size(*k, limits::kernel_logger_id, w)), bytes(std::size_t{16} << 20);
        sim::memory_file file(bytes);
        sim::recorder rec(*k, limits::kernel_logger_id, w, buffers, file.sink(), {.pointer_size = pointer_size});
        REQUIRE(rec.valid());
        rec.start();
        rec.advance(20);
        rec.stop();
        (void)session->stop();
        REQUIRE_FALSE(file.overflowed());
        auto f = trace::trace_file::open(file.bytes());
        REQUIRE(f);
        auto const from_file = er_file_events(*f);
        auto const live = er_live_events(*f);
        INFO("pointer size " << int{pointer_size});
        CHECK(live.not_presented == 0);
        CHECK(live.unconverted == 0);
        er_check_same(from_file, live.events);
        CHECK(er_count_with_stack(from_file) >= rec.counts().of(sim::recorder::sampled_profile)); // every sample has its stack
    }
}

TEST_CASE("event_record: a record is presented as ProcessTrace presents it (provider GUID, opcode, ids, flags, items)") {
    // SampledProfile: a PERFINFO64 record with two PMC values
    etwctl_test::trace_writer w;
    std::vector<std::byte> payload(16);
    payload[0] = std::byte{0x34};
    std::uint64_t const pmc[] = {111, 222};
    w.perfinfo(1, 0x0F2E, 2, 5'000'000, payload, pmc);
    auto const file = w.finish();
    auto f = trace::trace_file::open(file);
    REQUIRE(f);
    std::vector<std::byte> storage(trace::reader::storage_size(*f));
    trace::reader r(*f, storage);
    trace::event_ref ref;
    trace::event_record_parts parts;
    bool found = false;
    while (r.next(ref)) {
        if (ref.rec.hook() != hook_id{0x0F2E}) continue;
        found = true;
        REQUIRE(trace::event_record_of(ref, parts));
        auto const& h = parts.record.event_header;
        // PerfInfo's GUID {ce1dbfb4-137e-4da6-87b0-3f59aa102cbc}, written out here (Microsoft Learn, "PerfInfo")
        CHECK(h.provider_id == guid{0xce1dbfb4, 0x137e, 0x4da6, 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc});
        CHECK(h.event_descriptor.opcode == 0x2E);
        CHECK(h.event_descriptor.version == 2);
        CHECK(h.thread_id == 0xFFFFFFFFU);
        CHECK(h.process_id == 0xFFFFFFFFU);
        CHECK(h.time_stamp == 5'000'000);
        CHECK((h.flags & 0x0100) != 0); // CLASSIC_HEADER
        CHECK((h.flags & 0x0040) != 0); // 64_BIT_HEADER
        CHECK((h.flags & 0x0001) != 0); // EXTENDED_INFO
        CHECK(parts.record.buffer_context.processor_index == 1);
        CHECK(parts.record.user_data_length == 16);
        REQUIRE(parts.record.extended_data_count == 1);
        CHECK(parts.items[0].ext_type == 8); // PMC_COUNTERS
        CHECK(parts.items[0].data_size == 16);
        std::uint64_t values[2];
        std::memcpy(values, reinterpret_cast<void const*>(static_cast<std::uintptr_t>(parts.items[0].data_ptr)), 16);
        CHECK(values[0] == 111);
        CHECK(values[1] == 222);
    }
    CHECK(found);
}

TEST_CASE("event_record: GUID and opcode name the hook the reader uses (the image load is 0x030A)") {
    guid const image{0x2cb15d1d, 0x5fc1, 0x11d2, 0xab, 0xe1, 0x00, 0xa0, 0xc9, 0x11, 0xf5, 0x18};
    guid const thread{0x3d6fa8d1, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c};
    guid const stackwalk{0xdef2fe46, 0x7bd6, 0x4b80, 0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3};
    CHECK(trace::classic_hook_of(image, 10) == hook_id{0x030A});
    CHECK(trace::classic_hook_of(image, 3) == hook_id{0x1403});
    CHECK(trace::classic_hook_of(thread, 36) == hook_id{0x0524}); // CSwitch
    CHECK(trace::classic_hook_of(stackwalk, 32) == hook_id{0x1820});
    CHECK_FALSE(trace::classic_hook_of(trace::lost_event_guid, 32));
    CHECK_FALSE(trace::classic_hook_of(guid{}, 0));
}

TEST_CASE("event_record: what no buffer record stands for is counted, not delivered; Lost_Event notices are counted") {
    std::vector<std::byte> slots(trace::event_record_stream::storage_size());
    trace::event_record_stream live(slots, 2);
    std::uint64_t delivered = 0;
    auto const take = [&](trace::event const&) noexcept { ++delivered; };
    event_record_layout er{};
    er.event_header.flags = 0x0008; // TRACE_MESSAGE: a WPP record
    live.push(er, take);
    er.event_header.flags = 0x0100 | 0x0040;
    er.event_header.provider_id = trace::lost_event_guid;
    er.event_header.event_descriptor.opcode = 32; // RTLostEvent
    live.push(er, take);
    er.event_header.event_descriptor.opcode = 33; // RTLostBuffer
    live.push(er, take);
    live.push(er, take);
    // a payload longer than a record's u16 size allows once the header is added
    std::vector<std::byte> big(0xFFF8);
    er.event_header.provider_id = guid{0x3d6fa8d1, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c};
    er.event_header.event_descriptor.opcode = 36;
    er.user_data = big.data();
    er.user_data_length = static_cast<std::uint16_t>(big.size());
    live.push(er, take);
    // an item whose data pointer is null with a size (never read): a sample with its PMC values, a PEBS
    // index, an EVENT_HEADER event's item
    std::uint64_t const ip = 0x1000;
    event_record_layout sample{};
    sample.event_header.flags = 0x0100 | 0x0040 | 0x0001;
    sample.event_header.thread_id = sample.event_header.process_id = 0xFFFFFFFF; // perfinfo
    sample.event_header.provider_id = guid{0xce1dbfb4, 0x137e, 0x4da6, 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc};
    sample.event_header.event_descriptor.opcode = 46; // SampledProfile
    sample.user_data = const_cast<std::uint64_t*>(&ip);
    sample.user_data_length = 8;
    event_header_extended_data_item_layout item{};
    item.data_size = 16;
    item.ext_type = 0x0008; // PMC_COUNTERS
    sample.extended_data = &item;
    sample.extended_data_count = 1;
    live.push(sample, take, [](hook_id) noexcept { return true; });
    item.ext_type = 0x0007; // PEBS_INDEX
    item.data_size = 8;
    live.push(sample, take, [](hook_id) noexcept { return true; });
    event_record_layout other{};
    other.event_header.flags = 0x0040 | 0x0001;
    other.event_header.provider_id = guid{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    other.extended_data = &item;
    other.extended_data_count = 1;
    live.push(other, take);
    live.finish(take);
    CHECK(delivered == 0);
    CHECK(live.unconverted() == 5);
    CHECK(live.events_lost() == 1);
    CHECK(live.buffers_lost() == 2);
}

TEST_CASE("event_record: small storage delivers held events sooner, drops what cannot fit, never an event; small kernel records need none") {
    auto const bytes = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    REQUIRE_FALSE(bytes.empty());
    auto f = trace::trace_file::open(bytes);
    REQUIRE(f);
    auto const file = er_file_events(*f);
    auto const non_stack = [](trace::record const& r) { return !(r.has_hook() && r.hook().group() == 0x18); };
    // a kernel record whose rebuilt form fits a slot of the stream (the largest header, 0x50, and up to 0x20
    // bytes of payload) needs none of the caller's storage
    auto const in_slot = [](trace::record const& r) { return r.has_hook() && r.payload().size() <= 0x20; };
    std::size_t file_non_stack = 0, file_non_stack_in_slot = 0;
    {
        std::vector<std::byte> index(trace::reader::storage_size(*f));
        trace::reader r(*f, index);
        trace::event_ref ref;
        while (r.next(ref)) {
            file_non_stack += non_stack(ref.rec) ? 1U : 0U;
            file_non_stack_in_slot += non_stack(ref.rec) && in_slot(ref.rec) ? 1U : 0U;
        }
    }
    REQUIRE(file_non_stack_in_slot > 0);
    REQUIRE(file_non_stack_in_slot < file_non_stack);
    for (std::size_t size : {std::size_t{0}, std::size_t{1024}, std::size_t{1} << 17}) {
        std::vector<std::byte> storage(trace::reader::storage_size(*f));
        trace::reader r(*f, storage);
        std::vector<std::byte> ring(size);
        trace::event_record_stream live(ring);
        std::size_t delivered_non_stack = 0, with_stack = 0;
        auto const take = [&](trace::event const& e) noexcept {
            delivered_non_stack += non_stack(e.rec()) ? 1U : 0U;
            with_stack += e.stack().empty() ? 0U : 1U;
        };
        trace::event_ref ref;
        trace::event_record_parts parts;
        while (r.next(ref))
            if (trace::event_record_of(ref, parts)) live.push(parts.record, take);
        live.finish(take);
        INFO("storage " << size);
        CHECK(delivered_non_stack <= file_non_stack);
        CHECK(delivered_non_stack + live.unconverted() >= file_non_stack); // unconverted counts stack records too
        if (size == 0) CHECK(delivered_non_stack == file_non_stack_in_slot);
        if (size == 1024) CHECK(delivered_non_stack > file_non_stack * 9 / 10);
        if (size == std::size_t{1} << 17) {
            CHECK(delivered_non_stack == file_non_stack);
            CHECK(live.unconverted() == 0);
            CHECK(with_stack > 0);
        }
    }
}

// ---- trace::consume through an EVENT_RECORD kernel ---------------------------------------------------

namespace {

/// A consumer kernel whose ProcessTrace presents a trace's records as EVENT_RECORDs through the callback
/// OpenTraceW was given (native_kernel does the same with Windows' ProcessTrace).
struct er_replay_kernel {
    trace::trace_file const* file = nullptr;
    std::uint64_t handle = invalid_processtrace_handle;
    event_trace_logfilew_layout logfile{};
    bool closing = false, processing = false;
    std::uint32_t closes = 0;
    std::vector<event_record_layout> extra; // records appended after the trace's (Lost_Event notices)

    std::uint32_t open_trace_w(void* lf, std::uint64_t* h) noexcept {
        logfile = *static_cast<event_trace_logfilew_layout*>(lf);
        if (!logfile.logger_name && !logfile.log_file_name) return win32::invalid_parameter;
        if ((logfile.process_trace_mode & process_trace_mode::event_record) == 0 || !logfile.event_record_callback) return win32::invalid_parameter;
        *h = handle = 0x77;
        return win32::success;
    }
    std::uint32_t process_trace(std::uint64_t const* handles, std::uint32_t count, std::uint64_t const*, std::uint64_t const*) noexcept {
        if (count != 1 || handles[0] != handle) return win32::invalid_handle;
        auto* const callback = reinterpret_cast<void (*)(event_record_layout*) noexcept>(logfile.event_record_callback);
        std::vector<std::byte> storage(trace::reader::storage_size(*file));
        trace::reader r(*file, storage);
        trace::event_ref ref;
        trace::event_record_parts parts;
        processing = true;
        while (!closing && r.next(ref)) {
            if (!trace::event_record_of(ref, parts)) continue;
            parts.record.user_context = logfile.context;
            callback(&parts.record);
        }
        for (auto& er : extra) {
            er.user_context = logfile.context;
            callback(&er);
        }
        processing = false;
        return win32::success;
    }
    std::uint32_t close_trace(std::uint64_t h) noexcept {
        if (h != handle) return win32::invalid_handle;
        ++closes;
        if (processing) {
            closing = true;
            return consumer_result::ctx_close_pending;
        }
        return win32::success;
    }
    template <etwctl::event_record_handler F>
    void* event_record_callback() noexcept {
        return reinterpret_cast<void*>(&etwctl::event_record_entry<F>);
    }
};
static_assert(event_record_consumer_kernel<er_replay_kernel>);
static_assert(!buffer_consumer_kernel<er_replay_kernel>);

/// A double whose EventRecordCallback is the old, handler-less form: not an event_record_consumer_kernel.
struct handlerless_kernel {
    std::uint32_t open_trace_w(void*, std::uint64_t*) noexcept { return 0; }
    std::uint32_t process_trace(std::uint64_t const*, std::uint32_t, std::uint64_t const*, std::uint64_t const*) noexcept { return 0; }
    std::uint32_t close_trace(std::uint64_t) noexcept { return 0; }
    void* event_record_callback() noexcept { return nullptr; }
};
static_assert(consumer_kernel<handlerless_kernel> && !event_record_consumer_kernel<handlerless_kernel>);

struct entry_probe {
    event_record_layout const* seen = nullptr;
    int calls = 0;
};
void entry_probe_record(event_record_layout const& r) noexcept {
    auto* p = static_cast<entry_probe*>(r.user_context);
    p->seen = &r;
    ++p->calls;
}

} // namespace

TEST_CASE("event_record: a kernel double's EventRecordCallback calls its handler with the record, its state in UserContext; a null record is ignored") {
    entry_probe probe;
    event_record_layout record{};
    record.user_context = &probe;
    auto* const callback = reinterpret_cast<void (*)(event_record_layout*) noexcept>(er_replay_kernel{}.event_record_callback<&entry_probe_record>());
    callback(&record);
    CHECK(probe.calls == 1);
    CHECK(probe.seen == &record);
    callback(nullptr);
    CHECK(probe.calls == 1);
}

namespace {
/// The real x86 trace, opened (REQUIRE(file) first), and a kernel double replaying it.
struct er_real_replay {
    std::vector<std::byte> bytes = etwctl_test::read_trace_data("net.4.5.2.x86.etl");
    decltype(trace::trace_file::open(std::declval<trace::bytes_view>())) file = trace::trace_file::open(bytes);
    er_replay_kernel k;
    er_real_replay() {
        if (file) k.file = &*file;
    }
    er_real_replay(er_real_replay const&) = delete;
    er_real_replay& operator=(er_real_replay const&) = delete;
};
} // namespace

TEST_CASE("consume: an EVENT_RECORD kernel delivers the typed events dispatch gives for the same file") {
    er_real_replay t;
    REQUIRE(t.file);
    auto& f = t.file;
    auto& k = t.k;
    // the file through dispatch
    std::vector<std::byte> index(trace::reader::storage_size(*f));
    trace::reader r(*f, index);
    trace::event_stream s(r);
    std::map<std::uint64_t, std::uint64_t> file_ips;
    std::uint64_t file_stack_frames = 0, file_images = 0, file_image_stack = 0;
    auto const file_report = trace::dispatch(s,
                                             trace::on<"SampledProfile">([&](trace::sampled_profile const& e) {
                                                 ++file_ips[e.instruction_pointer()];
                                                 file_stack_frames += e.stack().size();
                                             }),
                                             trace::on<"ImageLoad">([&](trace::image_event const& e) {
                                                 ++file_images;
                                                 file_image_stack += e.stack().size() + e.stack().unresolved_keys();
                                             }));
    // the same file through consume
    event_record_layout lost{};
    lost.event_header.flags = 0x0100;
    lost.event_header.provider_id = trace::lost_event_guid;
    lost.event_header.event_descriptor.opcode = 32;
    k.extra.push_back(lost);
    std::vector<std::byte> slots(trace::event_record_stream::storage_size());
    trace::consume_control control;
    std::map<std::uint64_t, std::uint64_t> live_ips;
    std::uint64_t live_stack_frames = 0, live_images = 0, live_image_stack = 0;
    auto const report = trace::consume(k, "NT Kernel Logger", {slots, {}}, control,
                                       trace::on<"SampledProfile">([&](trace::sampled_profile const& e) noexcept {
                                           ++live_ips[e.instruction_pointer()];
                                           live_stack_frames += e.stack().size();
                                       }),
                                       trace::on<"ImageLoad">([&](trace::image_event const& e) noexcept {
                                           ++live_images;
                                           live_image_stack += e.stack().size() + e.stack().unresolved_keys();
                                       }));
    CHECK((k.logfile.process_trace_mode & process_trace_mode::real_time) != 0);
    CHECK(report.reason == trace::consume_end::session_ended);
    CHECK(report.events == file_report.events);
    CHECK(report.typed == file_report.typed);
    CHECK(report.raw == file_report.raw);
    CHECK(report.events_lost == 1);
    CHECK(report.lost());
    CHECK(live_ips == file_ips);
    CHECK(live_stack_frames == file_stack_frames);
    CHECK(live_stack_frames > 0);
    CHECK(live_images == file_images);
    // image loads share a timestamp and thread with the classic records KernelTraceControl injected
    // before them: the stack goes where the file's reader puts it, also for records no handler takes
    CHECK(live_image_stack == file_image_stack);
    CHECK(live_images > 0);
    CHECK(report.span > std::chrono::milliseconds(0));
    CHECK(k.closes == 1);
}

TEST_CASE("consume: the EVENT_RECORD line keeps its state in the caller's storage, not on the stack; too little storage is refused before OpenTraceW") {
    er_real_replay t;
    REQUIRE(t.file);
    auto& k = t.k;
    trace::consume_control control;
    std::uint64_t seen = 0;
    auto const count = trace::on<"SampledProfile">([&](trace::sampled_profile const&) noexcept { ++seen; });
    // the state (the stream: ~164 KiB on x64) and its ring in the storage given; UserContext points at it
    std::vector<std::byte> slots(trace::event_record_stream::storage_size());
    CHECK(slots.size() > trace::event_record_stream::ring_size + sizeof(trace::event_record_stream));
    auto const whole = trace::consume(k, "NT Kernel Logger", {slots, {}}, control, count);
    CHECK(whole.reason == trace::consume_end::session_ended);
    auto const* const context = static_cast<std::byte const*>(k.logfile.context);
    CHECK(std::less_equal<>{}(slots.data(), context));
    CHECK(std::less<>{}(context, slots.data() + slots.size()));
    CHECK(whole.unconverted == 0);
    std::uint64_t const samples = seen;
    CHECK(samples > 0);
    // room for the state and no ring: the samples (small records, rebuilt in their slots) still arrive
    seen = 0;
    std::vector<std::byte> state_only(sizeof(trace::event_record_stream) + trace::event_record_stream::consume_room);
    auto const no_ring = trace::consume(k, "NT Kernel Logger", {state_only, {}}, control, count);
    CHECK(no_ring.reason == trace::consume_end::session_ended);
    CHECK(seen == samples);
    // less than the state: refused, OpenTraceW never called, nothing written outside the storage
    k.logfile = {};
    seen = 0;
    std::vector<std::byte> too_small(sizeof(trace::event_record_stream) / 2);
    auto const refused = trace::consume(k, "NT Kernel Logger", {too_small, {}}, control, count);
    CHECK(refused.reason == trace::consume_end::storage_too_small);
    CHECK(refused.events == 0);
    CHECK(k.logfile.logger_name == nullptr);
    CHECK(seen == 0);
    auto const none = trace::consume(k, "NT Kernel Logger", {std::span<std::byte>{}, {}}, control, count);
    CHECK(none.reason == trace::consume_end::storage_too_small);
}

TEST_CASE("consume: stop() from a handler closes the trace (CloseTrace pending); consume_file opens a file") {
    er_real_replay t;
    REQUIRE(t.file);
    auto& k = t.k;
    std::vector<std::byte> slots(trace::event_record_stream::storage_size());
    trace::consume_control control;
    std::uint64_t seen = 0;
    std::uint32_t close_result = 0;
    auto const report = trace::consume_file(k, "C:\\trace.etl", {slots, {}}, control, trace::on_any([&](trace::event const&) noexcept {
        if (++seen == 10) close_result = control.stop(k);
    }));
    CHECK(k.logfile.log_file_name != nullptr);
    CHECK(k.logfile.logger_name == nullptr);
    CHECK((k.logfile.process_trace_mode & process_trace_mode::real_time) == 0);
    CHECK(close_result == consumer_result::ctx_close_pending);
    CHECK(report.reason == trace::consume_end::stopped);
    CHECK(report.events >= 10);
    CHECK(report.events <= 10 + trace::event_record_stream::max_window); // those held when it stopped, not the trace's thousands
    CHECK(control.handle() == invalid_processtrace_handle);
}

namespace {

/// A classic kernel EVENT_RECORD as ProcessTrace presents one (64-bit, processor index given).
struct er_classic {
    event_record_layout er{};
    std::vector<std::byte> payload;
    er_classic(guid const& group, std::uint8_t opcode, std::uint16_t processor, std::uint64_t ts, std::uint32_t tid, std::size_t payload_size = 8) {
        er.event_header.flags = 0x0100 | 0x0040 | 0x0200; // classic, 64-bit, processor index
        er.event_header.provider_id = group;
        er.event_header.event_descriptor.opcode = opcode;
        er.event_header.event_descriptor.version = 2;
        er.event_header.time_stamp = static_cast<std::int64_t>(ts);
        er.event_header.thread_id = tid;
        er.event_header.process_id = 4;
        er.buffer_context.processor_index = processor;
        payload.assign(payload_size, std::byte{0x5A});
        er.user_data = payload.data();
        er.user_data_length = static_cast<std::uint16_t>(payload.size());
    }
    er_classic(er_classic const&) = delete;
};

guid const er_thread_group{0x3d6fa8d1, 0xfe05, 0x11d0, 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c};
guid const er_stackwalk_group{0xdef2fe46, 0x7bd6, 0x4b80, 0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3};

/// A StackWalk record (0x1820) naming the event of `event_ts` on thread `tid`, with `frames` frames.
struct er_stack : er_classic {
    er_stack(std::uint16_t processor, std::uint64_t ts, std::uint64_t event_ts, std::uint32_t tid, std::size_t frames)
        : er_classic(er_stackwalk_group, 32, processor, ts, tid, 0x10 + 8 * frames) {
        std::memcpy(payload.data(), &event_ts, 8);
        std::uint32_t const pid = 4;
        std::memcpy(payload.data() + 8, &pid, 4);
        std::memcpy(payload.data() + 0x0C, &tid, 4);
        for (std::size_t i = 0; i < frames; ++i) {
            std::uint64_t const frame = 0xFFFFF80000001000ULL + i;
            std::memcpy(payload.data() + 0x10 + 8 * i, &frame, 8);
        }
    }
};

struct er_taken {
    std::uint16_t hook = 0;
    std::uint64_t timestamp = 0;
    std::size_t frames = 0;
};

} // namespace

TEST_CASE("event_record: a stack goes to the oldest event it names, wanted or not; not past the look-ahead") {
    std::vector<std::byte> slots(trace::event_record_stream::storage_size());
    std::vector<er_taken> got;
    auto const take = [&](trace::event const& e) noexcept { got.push_back({e.rec().hook().value, e.timestamp(), e.stack().size()}); };
    auto const only_cswitch = [](hook_id h) noexcept { return h == hook_id{0x0524}; };

    SUBCASE("an event not wanted with the same timestamp and thread takes the stack first") {
        trace::event_record_stream live(slots);
        er_classic const ready(er_thread_group, 50, 0, 100, 7); // ReadyThread (0x0532), not wanted
        er_classic const cswitch(er_thread_group, 36, 0, 100, 7); // CSwitch, wanted
        er_stack const stack(0, 101, 100, 7, 3);
        live.push(ready.er, take, only_cswitch);
        live.push(cswitch.er, take, only_cswitch);
        live.push(stack.er, take, only_cswitch);
        live.finish(take);
        REQUIRE(got.size() == 1);
        CHECK(got[0].hook == 0x0524);
        CHECK(got[0].frames == 0); // the ReadyThread took it, as the file's reader gives it
        CHECK(live.skipped() == 1);
        // every event wanted: the same stack goes to the ReadyThread
        got.clear();
        trace::event_record_stream all(slots);
        all.push(ready.er, take);
        all.push(cswitch.er, take);
        all.push(stack.er, take);
        all.finish(take);
        REQUIRE(got.size() == 2);
        CHECK(got[0].hook == 0x0532);
        CHECK(got[0].frames == 3);
        CHECK(got[1].frames == 0);
    }
    SUBCASE("a processor's events out of timestamp order: the stack still finds its event") {
        trace::event_record_stream live(slots);
        er_classic const first(er_thread_group, 36, 0, 200, 7);
        er_classic const earlier(er_thread_group, 36, 0, 150, 8); // logged after, stamped before
        er_stack const stack(0, 201, 200, 7, 2);
        live.push(first.er, take, only_cswitch);
        live.push(earlier.er, take, only_cswitch);
        live.push(stack.er, take, only_cswitch);
        live.finish(take);
        REQUIRE(got.size() == 2);
        CHECK(got[0].timestamp == 200);
        CHECK(got[0].frames == 2);
        CHECK(got[1].frames == 0);
    }
    SUBCASE("a stack more than max_look_ahead + 1 records after its event on its processor is an event of its own") {
        for (std::size_t between : {trace::reader::max_look_ahead, trace::reader::max_look_ahead + 1}) {
            got.clear();
            trace::event_record_stream live(slots);
            er_classic const cswitch(er_thread_group, 36, 1, 100, 7);
            live.push(cswitch.er, take);
            std::vector<std::unique_ptr<er_classic>> others;
            for (std::size_t i = 0; i < between; ++i) {
                others.push_back(std::make_unique<er_classic>(er_thread_group, 50, 1, 101 + i, 9)); // other threads' records
                live.push(others.back()->er, take);
            }
            er_stack const stack(1, 200, 100, 7, 4);
            live.push(stack.er, take);
            live.finish(take);
            INFO("records between: " << between);
            REQUIRE_FALSE(got.empty());
            CHECK(got[0].hook == 0x0524);
            CHECK(got[0].frames == (between == trace::reader::max_look_ahead ? 4U : 0U));
            CHECK(got.size() == between + (between == trace::reader::max_look_ahead ? 1U : 2U)); // the stack record delivered as an event
        }
    }
    SUBCASE("another processor's stack record is not the event's") {
        trace::event_record_stream live(slots);
        er_classic const cswitch(er_thread_group, 36, 0, 100, 7);
        er_stack const stack(1, 101, 100, 7, 3);
        live.push(cswitch.er, take, only_cswitch);
        live.push(stack.er, take, only_cswitch);
        live.finish(take);
        REQUIRE(got.size() == 1);
        CHECK(got[0].frames == 0);
        CHECK(live.skipped() == 1); // the stack record, not wanted as an event
    }
}
