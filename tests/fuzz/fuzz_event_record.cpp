// Fuzz harness: the EVENT_RECORDs ProcessTrace hands a live consumer, as untrusted input
// (etwctl/trace/consume.hpp: rebuild_record, event_record_stream, consume's EVENT_RECORD line). A
// provider chooses its payload and its items' contents, and a consumer must survive whatever the
// EVENT_RECORD says: the input is a sequence of records, each with any flags, a kernel group's GUID (any
// opcode), Lost_Event or another GUID, any ids, processor and timestamp, a payload and up to four
// extended items (PMC_COUNTERS, PEBS_INDEX, stack items, any type) of any size, their pointers null or not;
// a stack record may name an earlier record (its timestamp and thread). Each payload and each item's data
// is an allocation of exactly its size (ASan faults on any byte read past it).
// Properties:
//   - rebuild_record either refuses (0) or writes at most the bound the stream reserves (0x50 + the
//     payload + the items, each 8 + its data rounded up to 8) and the record it fills is exactly what
//     record_reader::read decodes from the bytes it wrote (the short paths set it from the values written);
//   - an event_record_stream in the caller's storage (no ring, a small one, the default) delivers each
//     event at most once, every delivered record's bytes in the storage or in the stream's own slots, and
//     nothing outside the storage is written (canaries, ASan poisoning);
//   - trace::consume through a kernel double that replays the records runs the typed handlers and on_any
//     on them (views, stacks, PMC values) and reports at most as many events as records were pushed; with
//     the stream's default window and ring, exactly the events, unconverted records and dropped stack
//     parts of a stream given the same records.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "fuzz_support.hpp"
#include "fuzz_trace_support.hpp"

#include "etwctl/trace.hpp"
#include "etwctl/trace/consume.hpp"

namespace trace = etwctl::trace;
using etwctl::event_header_extended_data_item_layout;
using etwctl::event_record_layout;
using etwctl::guid;
using etwctl::rule;
using etwctl_fuzz::guarded_buffer;
using etwctl_fuzz::poisoned_scope;

namespace {

volatile std::uint64_t sink = 0; // keeps the accessors' results alive

/// The records of one input, their payloads and items' data each in an allocation of its own.
struct records {
    std::vector<event_record_layout> list;
    std::vector<std::unique_ptr<event_header_extended_data_item_layout[]>> items;
    std::vector<std::unique_ptr<std::byte[]>> data;

    std::byte* own(std::vector<std::uint8_t> const& bytes) {
        data.push_back(std::make_unique<std::byte[]>(bytes.size())); // a 0-byte allocation: any read of it faults
        if (!bytes.empty()) std::memcpy(data.back().get(), bytes.data(), bytes.size());
        return data.back().get();
    }
};

guid const lost_event = trace::lost_event_guid;

records make_records(FuzzedDataProvider& in) {
    records r;
    std::int64_t clock = 1000;
    while (in.remaining_bytes() > 0 && r.list.size() < 512) {
        event_record_layout er{};
        auto& h = er.event_header;
        auto const control = in.ConsumeIntegral<std::uint8_t>();
        h.flags = in.ConsumeIntegral<std::uint16_t>();
        if ((control & 0x01) != 0) h.flags = static_cast<std::uint16_t>((h.flags & ~0x0008U) | 0x0100U); // mostly classic, no WPP
        auto const provider = in.ConsumeIntegral<std::uint8_t>();
        if (provider < 0xC0) {
            h.provider_id = etwctl::kernel_group_table[provider % etwctl::kernel_group_count].event_guid;
        } else if (provider < 0xD0) {
            h.provider_id = lost_event;
        } else {
            auto const g = in.ConsumeBytes<std::uint8_t>(16);
            if (!g.empty()) std::memcpy(&h.provider_id, g.data(), g.size());
        }
        h.event_descriptor.opcode = in.ConsumeIntegral<std::uint8_t>();
        h.event_descriptor.version = in.ConsumeIntegral<std::uint8_t>();
        h.event_descriptor.level = in.ConsumeIntegral<std::uint8_t>();
        h.event_descriptor.id = in.ConsumeIntegral<std::uint16_t>();
        if ((control & 0x02) != 0) {
            h.thread_id = h.process_id = 0xFFFFFFFFU; // a perfinfo record
        } else {
            h.thread_id = in.ConsumeIntegral<std::uint8_t>();
            h.process_id = in.ConsumeIntegral<std::uint32_t>();
        }
        er.buffer_context.processor_index = static_cast<std::uint16_t>(in.ConsumeIntegral<std::uint8_t>() % 5);
        if ((control & 0x04) != 0) er.buffer_context.processor_index = in.ConsumeIntegral<std::uint16_t>();
        clock += in.ConsumeIntegralInRange<std::int64_t>(-2, 50);
        h.time_stamp = clock;
        h.kernel_time = in.ConsumeIntegral<std::uint32_t>();
        h.user_time = in.ConsumeIntegral<std::uint32_t>();
        // the payload: bytes of the input, or a stack record's EventTimeStamp and StackThread naming a
        // record `back` before this one, then frames
        auto payload = in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, (control & 0x08) != 0 ? 0x2000 : 0x40));
        if ((control & 0x10) != 0 && !r.list.empty()) {
            auto const& named = r.list[r.list.size() - 1 - in.ConsumeIntegralInRange<std::size_t>(0, (std::min)(r.list.size() - 1, std::size_t{12}))];
            if (payload.size() < 0x10) payload.resize(0x10);
            std::memcpy(payload.data(), &named.event_header.time_stamp, 8);
            std::memcpy(payload.data() + 0x0C, &named.event_header.thread_id, 4);
            h.provider_id = guid{0xdef2fe46, 0x7bd6, 0x4b80, 0xbd, 0x94, 0xf5, 0x7f, 0xe2, 0x0d, 0x0c, 0xe3}; // StackWalk
            er.buffer_context = named.buffer_context;
        }
        er.user_data_length = static_cast<std::uint16_t>(payload.size());
        er.user_data = (control & 0x20) != 0 && !payload.empty() ? nullptr : r.own(payload); // a size with no data: never read
        // the items
        auto const count = in.ConsumeIntegralInRange<std::size_t>(0, (control & 0x40) != 0 ? 4 : 0);
        if (count != 0) {
            r.items.push_back(std::make_unique<event_header_extended_data_item_layout[]>(count));
            for (std::size_t i = 0; i < count; ++i) {
                auto& it = r.items.back()[i];
                static constexpr std::uint16_t types[] = {0x0007, 0x0008, 0x0005, 0x0006, 0x0001, 0x0003, 0x000A, 0x0010};
                auto const t = in.ConsumeIntegral<std::uint8_t>();
                it.ext_type = t < 0xF0 ? types[t % std::size(types)] : in.ConsumeIntegral<std::uint16_t>();
                it.linkage = i + 1 < count ? 1 : 0;
                auto const bytes = in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, 0x60));
                it.data_size = static_cast<std::uint16_t>(bytes.size());
                bool const null_data = in.ConsumeIntegralInRange<int>(0, 15) == 0 && !bytes.empty();
                it.data_ptr = null_data ? 0 : static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(r.own(bytes)));
            }
            er.extended_data = (control & 0x80) != 0 && in.ConsumeBool() ? nullptr : r.items.back().get(); // a count with no items
            er.extended_data_count = static_cast<std::uint16_t>(count);
        }
        r.list.push_back(er);
    }
    return r;
}

/// Every accessor of an event's record, stack and PMC values.
void touch(trace::event const& e) {
    std::uint64_t v = etwctl_fuzz::touch_record(e.rec());
    for (auto const f : e.stack()) v ^= f;
    v ^= e.stack().unresolved_keys() ^ e.processor();
    auto const pmc = e.pmc();
    for (std::size_t i = 0; i < pmc.size(); ++i) v ^= pmc[i];
    sink = sink + v;
}

/// The rebuilt record equals what record_reader reads from the bytes written.
void check_rebuild(event_record_layout const& er) {
    std::size_t bound = 0x50U + er.user_data_length;
    for (std::size_t i = 0; er.extended_data && i < er.extended_data_count; ++i) bound += (8U + er.extended_data[i].data_size + 7U) & ~std::size_t{7};
    guarded_buffer out(bound);
    trace::record rec;
    std::size_t n = 0;
    {
        poisoned_scope g(out);
        n = trace::rebuild_record(er, {reinterpret_cast<std::byte*>(out.data()), out.size()}, rec);
    }
    if (n == 0) return;
    FUZZ_CHECK(n <= bound);
    FUZZ_CHECK(rec.bytes().data() == reinterpret_cast<std::byte const*>(out.data()) && rec.bytes().size() == n);
    trace::record read;
    auto const step = trace::record_reader::read({reinterpret_cast<std::byte const*>(out.data()), n}, 0, read);
    FUZZ_CHECK(step.what == rule::ok);
    FUZZ_CHECK(read.kind() == rec.kind() && read.header_type() == rec.header_type() && read.pointer_size() == rec.pointer_size());
    FUZZ_CHECK(read.has_hook() == rec.has_hook() && read.hook() == rec.hook() && read.version() == rec.version());
    FUZZ_CHECK(read.timestamp() == rec.timestamp() && read.thread_id() == rec.thread_id() && read.process_id() == rec.process_id());
    FUZZ_CHECK(read.payload().data() == rec.payload().data() && read.payload().size() == rec.payload().size());
    FUZZ_CHECK(read.pmc_count() == rec.pmc_count() && read.has_pebs() == rec.has_pebs());
    FUZZ_CHECK(read.payload().size() == er.user_data_length);
    if (er.user_data_length != 0) FUZZ_CHECK(std::memcmp(read.payload().data(), er.user_data, er.user_data_length) == 0);
}

/// What a stream did with the records.
struct stream_counts {
    std::uint64_t delivered = 0, unconverted = 0, stacks_dropped = 0;
};

/// The records into a stream in a guarded storage of `ring` bytes.
stream_counts stream_records(records const& rs, std::size_t ring, std::size_t window) {
    guarded_buffer storage(ring);
    auto stream = std::make_unique<trace::event_record_stream>(std::span<std::byte>(reinterpret_cast<std::byte*>(storage.data()), ring), window);
    std::uint64_t delivered = 0;
    auto const* const lo = reinterpret_cast<std::byte const*>(storage.data());
    auto const* const self = reinterpret_cast<std::byte const*>(stream.get());
    auto const deliver = [&](trace::event const& e) noexcept {
        ++delivered;
        auto const b = e.rec().bytes();
        bool const in_storage = b.data() >= lo && b.data() + b.size() <= lo + ring;
        bool const in_slot = b.data() >= self && b.data() + b.size() <= self + sizeof(trace::event_record_stream);
        FUZZ_CHECK(in_storage || in_slot);
        touch(e);
    };
    {
        poisoned_scope g(storage);
        for (auto const& er : rs.list) stream->push(er, deliver);
        stream->finish(deliver);
    }
    FUZZ_CHECK(delivered + stream->unconverted() <= rs.list.size());
    return {delivered, stream->unconverted(), stream->stacks_dropped()};
}

/// consume's kernel double: ProcessTrace replays the records through the EventRecordCallback.
struct replay_kernel {
    records* rs = nullptr;
    etwctl::event_trace_logfilew_layout logfile{};
    std::uint32_t open_trace_w(void* lf, std::uint64_t* h) noexcept {
        logfile = *static_cast<etwctl::event_trace_logfilew_layout*>(lf);
        *h = 1;
        return 0;
    }
    std::uint32_t process_trace(std::uint64_t const*, std::uint32_t, std::uint64_t const*, std::uint64_t const*) noexcept {
        auto* const callback = reinterpret_cast<void (*)(event_record_layout*) noexcept>(logfile.event_record_callback);
        for (auto& er : rs->list) {
            er.user_context = logfile.context;
            callback(&er);
        }
        return 0;
    }
    std::uint32_t close_trace(std::uint64_t) noexcept { return 0; }
    template <etwctl::event_record_handler F>
    void* event_record_callback() noexcept {
        return reinterpret_cast<void*>(&etwctl::event_record_entry<F>);
    }
};

template <class View>
void touch_view(View const& e) noexcept {
    touch(e.event());
}

/// consume over the records (its default window and ring): with on_any it delivers what a stream with the
/// same window and ring delivers (`same`), every record wanted.
void consume_records(records& rs, stream_counts const* same) {
    static guarded_buffer storage(trace::event_record_stream::storage_size());
    replay_kernel k{&rs};
    trace::consume_control control;
    trace::consume_report report;
    {
        poisoned_scope g(storage);
        report = trace::consume(
            k, "fuzz", trace::consume_storage{{reinterpret_cast<std::byte*>(storage.data()), storage.size()}, {}}, control,
            trace::on<"SampledProfile">([](trace::sampled_profile const& e) noexcept { touch_view(e); sink = sink + e.instruction_pointer() + e.thread_id(); }),
            trace::on<"CSwitch">([](trace::cswitch const& e) noexcept { touch_view(e); sink = sink + e.new_thread_id(); }),
            trace::on<"ReadyThread">([](trace::ready_thread const& e) noexcept { touch_view(e); sink = sink + e.thread_id(); }),
            trace::on<"ThreadDCStart">([](trace::thread_event const& e) noexcept { touch_view(e); sink = sink + e.thread_id() + e.thread_name().size(); }),
            trace::on<"ProcessDCStart">([](trace::process_event const& e) noexcept { touch_view(e); sink = sink + e.image_file_name().size() + e.command_line().size(); }),
            trace::on<"ImageLoad">([](trace::image_event const& e) noexcept { touch_view(e); sink = sink + e.image_base() + e.file_name().size(); }),
            trace::on<"PmcCounterConfig">([](trace::pmc_counter_config const& e) noexcept { touch_view(e); sink = sink + e.counter_count(); }),
            trace::on_raw([](trace::raw_event const& e) noexcept { sink = sink + static_cast<std::uint64_t>(e.reason()); }),
            trace::on_any([](trace::event const& e) noexcept { touch(e); }));
    }
    FUZZ_CHECK(report.reason == trace::consume_end::session_ended);
    FUZZ_CHECK(report.events + report.unconverted <= rs.list.size());
    FUZZ_CHECK(report.typed + report.raw <= report.events);
    if (same) {
        FUZZ_CHECK(report.events == same->delivered);
        FUZZ_CHECK(report.unconverted == same->unconverted);
        FUZZ_CHECK(report.stacks_dropped == same->stacks_dropped);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    auto const shape = in.ConsumeIntegral<std::uint8_t>();
    static constexpr std::size_t rings[] = {0, 1024, std::size_t{64} << 10, trace::event_record_stream::ring_size};
    std::size_t const ring = rings[shape & 3];
    std::size_t const window = (shape & 0x04) != 0 ? 1U + (shape >> 3) : trace::event_record_stream::default_window;
    records rs = make_records(in);
    for (auto const& er : rs.list) check_rebuild(er);
    auto const counts = stream_records(rs, ring, window);
    bool const as_consume = ring == trace::event_record_stream::ring_size && window == trace::event_record_stream::default_window;
    consume_records(rs, as_consume ? &counts : nullptr);
    return 0;
}
